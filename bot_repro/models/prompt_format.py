"""``model.prompt_format``: how a task's chat messages become the model's prompt text.

Tasks build every prompt as chat messages (``bot_repro.tasks.base.Task``: a system turn, worked
examples as earlier user / assistant turns, then the problem), and TRL, the held-out evaluation and
the vLLM path all render them with the tokenizer's ``apply_chat_template``. ``chat`` uses the
tokenizer's own template; ``plain`` gives the tokenizer ``plain_template``, a chat template whose
text is a plain document a base model continues (so every one of those paths renders it alike,
and a saved checkpoint's tokenizer carries it):

    <bos, when the tokenizer puts one before plain text>{system}

    Problem: {user}
    Solution:
    {assistant}

    Problem: {user}
    Solution:
    <- the model writes the solution here

``auto`` (the default) is ``chat`` when the tokenizer has a template, else ``plain``.
"""

from __future__ import annotations

import json

from bot_repro.config_schema import ConfigError

FORMATS = ("auto", "chat", "plain")


def plain_template(bos: str = "") -> str:
    """The plain format as a Jinja chat template; ``bos`` (a literal token text, may be empty) opens
    the prompt, as the tokenizer would open plain text (TRL renders with special tokens off)."""
    return (
        "{{ " + json.dumps(bos) + " }}"
        "{% for m in messages %}"
        "{% if m['role'] == 'system' %}{{ m['content'] }}\n\n"
        "{% elif m['role'] == 'user' %}Problem: {{ m['content'] }}\n"
        "{% elif m['role'] == 'assistant' %}Solution:\n{{ m['content'] }}\n\n"
        "{% else %}{{ raise_exception('the plain prompt format has no place for a ' + m['role'] + ' message; "
        "allowed roles: system, user, assistant') }}"
        "{% endif %}{% endfor %}"
        "{% if add_generation_prompt %}Solution:\n{% endif %}"
    )


def resolve(requested: str, has_template: bool, model: str, where: str = "its tokenizer") -> tuple[str, str]:
    """(format, the start-up line saying which and why) for ``model.prompt_format=requested`` on
    ``model``, whose tokenizer (read from ``where``) has a chat template when ``has_template``;
    ``chat`` without one is a ConfigError."""
    if requested not in FORMATS:
        raise ConfigError(f"model.prompt_format={requested!r} is not a prompt format; allowed: {', '.join(FORMATS)}")
    if requested == "chat" and not has_template:
        raise ConfigError(
            f"model.prompt_format=chat, but model {model} has no chat template (tokenizer.chat_template is "
            f"missing in {where}; a base model has none): use model.prompt_format=plain (or auto, which picks "
            "plain here) for a plain-text prompt, or a model whose tokenizer has a chat template"
        )
    chosen = requested if requested != "auto" else ("chat" if has_template else "plain")
    what = {"chat": "the tokenizer's chat template", "plain": "plain text with Problem:/Solution: turns"}[chosen]
    why = f"model {model} has {'a' if has_template else 'no'} chat template" if requested == "auto" else "as set"
    return chosen, f"prompt format: {chosen} ({what}); model.prompt_format={requested}: {why}"


def plain_bos(tok) -> str:
    """The token text ``tok`` puts before plain text (Gemma: ``<bos>``), or "" when it adds none."""
    if tok.bos_token_id is None:
        return ""
    ids = tok("a").input_ids
    return tok.bos_token if ids and ids[0] == tok.bos_token_id else ""


def apply(tok, requested: str, model: str) -> str:
    """Resolve ``requested`` against ``tok`` and, for ``plain``, install the plain template on it;
    return the format used."""
    chosen, _ = resolve(requested, bool(getattr(tok, "chat_template", None)), model)
    if chosen == "plain":
        tok.chat_template = plain_template(plain_bos(tok))
    return chosen
