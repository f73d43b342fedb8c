"""The mini task's checker: close the open tags of a tiny markup document.

A prompt is a document prefix such as ``<a><b></b><c>``; the correct completion closes what is
still open, innermost first: ``</c></a>``. The checker reads a completion tag by tag (whitespace
between tags is ignored) and reports, like a compiler, a global outcome and *located* findings:

- ``closed``: spans of close tags that matched the innermost open element (correct structure);
- ``errors``: spans of the first wrong token (a mismatched close, an open tag, stray text, or
  text after everything was closed) and, with ``all_errors=True``, every later one too;
- ``unclosed``: how many elements were still open at the end (a global failure with no span in
  the text: nothing in the text is "wrong", something is missing).

That last point makes a penalty-only local signal hackable: stopping early has no located error.
The ``progress`` reward (``reward.py``) therefore locates it on the end of the answer (the EOS
token) when no earlier error was found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TAG = re.compile(r"<(/?)([a-z]+)>")
TOKEN = re.compile(r"\s*(</?[a-z]+>|[^<\s]+|<)")


@dataclass
class Check:
    success: bool
    closed: list[tuple[int, int]] = field(default_factory=list)
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, reason)
    unclosed: int = 0
    n_tags: int = 0  # elements that had to be closed

    @property
    def first_error(self) -> tuple[int, int, str] | None:
        return self.errors[0] if self.errors else None


def open_stack(document: str) -> list[str]:
    """Names of elements left open by ``document`` (outermost first). Raises on malformed prompts."""
    stack: list[str] = []
    pos = 0
    for m in TAG.finditer(document):
        if document[pos : m.start()].strip():
            raise ValueError(f"malformed mini document {document!r}: text between tags at {pos}")
        pos = m.end()
        closing, name = m.group(1) == "/", m.group(2)
        if closing:
            if not stack or stack[-1] != name:
                raise ValueError(f"malformed mini document {document!r}: </{name}> does not match")
            stack.pop()
        else:
            stack.append(name)
    if document[pos:].strip():
        raise ValueError(f"malformed mini document {document!r}: trailing text")
    return stack


def solution(document: str) -> str:
    """The correct completion: the closers of every open element, innermost first."""
    return "".join(f"</{name}>" for name in reversed(open_stack(document)))


def check(document: str, completion: str, all_errors: bool = False) -> Check:
    """Check ``completion`` as the continuation that closes every element open in ``document``."""
    stack = open_stack(document)
    result = Check(success=False, n_tags=len(stack))
    failed = False
    pos = 0
    while pos < len(completion):
        m = TOKEN.match(completion, pos)
        if m is None:  # only trailing whitespace is left
            break
        start, end = m.start(1), m.end(1)
        pos = m.end()
        tok = m.group(1)
        tag = TAG.fullmatch(tok)
        if tag and tag.group(1) == "/" and stack and stack[-1] == tag.group(2) and not failed:
            stack.pop()
            result.closed.append((start, end))
            continue
        if tag is None:
            reason = "stray text"
        elif tag.group(1) != "/":
            reason = f"unexpected open tag <{tag.group(2)}>"
        elif not stack:
            reason = "text after the document was closed"
        else:
            reason = f"</{tag.group(2)}> does not close <{stack[-1]}>"
        result.errors.append((start, end, reason))
        failed = True
        if not all_errors:
            break
    result.unclosed = len(stack)
    result.success = not failed and not stack
    return result
