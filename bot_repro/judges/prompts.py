"""Prompt templates of the judge roles and the backend-neutral chat messages built from them.

Templates are plain text files (``conf/judge_prompts/``) with ``${name}`` placeholders
(``string.Template``), so braces in code or in a user's own wording need no escaping. Each role
accepts a fixed set of placeholders; a template using an unknown one or missing a required one
is refused when the client is built, not at the first call.

A message is ``{"role": "user"|"assistant", "content": [part, ...]}`` with parts
``{"type": "text", "text": str}`` or ``{"type": "image", "png": bytes}``; each backend
converts this to its wire format, and the cache hashes images by content.
"""

from __future__ import annotations

from pathlib import Path
from string import Template
from typing import Any

from bot_repro.config_schema import ConfigError
from bot_repro.judges.options import DEFAULT_PROMPTS, JudgeOptions

Message = dict[str, Any]

# role -> (required placeholders, optional placeholders)
PLACEHOLDERS: dict[str, tuple[set[str], set[str]]] = {
    "code_score": ({"code"}, {"prompt"}),
    "code_lines": ({"code"}, {"prompt", "n_lines"}),
    "screenshot_global": (set(), {"prompt"}),
    "screenshot_one_turn": ({"code"}, {"prompt", "n_lines"}),
    "screenshot_two_turn_score": (set(), {"prompt"}),
    "screenshot_two_turn_lines": ({"code"}, {"prompt", "n_lines"}),
    "pairwise": (set(), {"prompt"}),
    "step_independent": ({"step"}, {"problem", "reference", "previous_steps", "step_number", "n_steps"}),
    "step_context_aware": ({"step"}, {"problem", "reference", "previous_steps", "step_number", "n_steps"}),
}
assert set(PLACEHOLDERS) == set(DEFAULT_PROMPTS)


def code_lines(code: str) -> list[str]:
    """Lines of ``code`` as judges and the line rewards index them (split on "\\n", no final empty line)."""
    lines = code.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


def number_code(code: str) -> str:
    """Code with 0-indexed ``"i: code"`` prefixes (docs/method.md §5)."""
    lines = code_lines(code)
    if not lines:
        return "(empty)"
    return "\n".join(f"{i}: {line}" for i, line in enumerate(lines))


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def image(png: bytes) -> dict[str, Any]:
    return {"type": "image", "png": png}


def user(*parts: dict[str, Any]) -> Message:
    return {"role": "user", "content": list(parts)}


def assistant(reply: str) -> Message:
    return {"role": "assistant", "content": [text(reply)]}


class PromptBook:
    """The loaded and checked templates of every role."""

    def __init__(self, opts: JudgeOptions):
        self.templates: dict[str, Template] = {}
        for role in DEFAULT_PROMPTS:
            self.templates[role] = _load(role, opts.prompt_path(role))

    def render(self, role: str, **values: Any) -> str:
        allowed = PLACEHOLDERS[role][0] | PLACEHOLDERS[role][1]
        return self.templates[role].substitute({k: str(v) for k, v in values.items() if k in allowed})


def _load(role: str, path: Path) -> Template:
    if not path.is_file():
        raise ConfigError(f"judge prompt template for role {role!r} not found: {path}")
    template = Template(path.read_text(encoding="utf-8"))
    if not template.is_valid():
        raise ConfigError(f"judge prompt template {path} has a malformed placeholder (use ${{name}}; $$ for $)")
    used = set(template.get_identifiers())
    required, optional = PLACEHOLDERS[role]
    unknown = sorted(used - required - optional)
    if unknown:
        raise ConfigError(
            f"judge prompt template {path} (role {role!r}) uses unknown placeholder(s) {unknown}; "
            f"allowed: {', '.join(sorted(required | optional))}"
        )
    missing = sorted(required - used)
    if missing:
        raise ConfigError(f"judge prompt template {path} (role {role!r}) must contain placeholder(s) {missing}")
    return template
