"""Checks of a model's facts before any work: no GGUF conversion, generation or run folder first.

``model_facts`` reads what a model is from its tokenizer and config files only (a GGUF file's
key/value header, a local folder's or the Hugging Face cache's tokenizer and ``config.json``; a
tiny stand-in's facts are known from its family). ``check`` then resolves ``model.prompt_format``
(``bot_repro.models.prompt_format``) and checks:

- a chat template where the format needs one (``chat``);
- an eos token (generation stops on it); a missing pad token falls back to eos, as the trainer
  does (``bot_repro.trainer.build.load_model``), with a note;
- a context length (``max_position_embeddings``, or a GGUF's ``<arch>.context_length``) that holds
  the task's longest prompt, rendered in the chosen format, plus ``trainer.max_completion_length``.

A prompt's length is counted with the tokenizer when one was loaded; for a GGUF file, first bounded
by its UTF-8 bytes (every token of a byte-level or byte-fallback tokenizer covers at least one byte,
so tokens <= bytes plus a few specials), and the tokenizer is read from the file only when that
bound does not fit. Each failure is a ConfigError naming the value and what is allowed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError
from bot_repro.models import prompt_format
from bot_repro.models.gguf import PKG_PREFIX, gguf_path, metadata
from bot_repro.models.tiny import tiny_tokens

# tokens a chat template may add from variables the byte bound cannot see (bos/eos token texts)
BOUND_MARGIN = 8


@dataclass
class ModelFacts:
    """What ``check`` needs to know of a model, read without its weights."""

    where: str  # what was read, for the messages
    chat_template: str | None
    eos: str | None  # the eos token (text or id), None when the tokenizer has none
    pad: str | None
    context_length: int | None  # None: not checked (a tiny stand-in's positions are ours)
    context_key: str = "max_position_embeddings"
    bos: str = ""  # what the tokenizer puts before plain text
    tokenizer: Any = None  # counts prompts exactly when set
    gguf: Path | None = None  # the file, whose tokenizer is read only when the byte bound does not fit


@dataclass
class Preflight:
    prompt_format: str
    line: str  # the start-up line naming the format
    notes: list[str] = field(default_factory=list)


def model_facts(m) -> ModelFacts | None:
    """The facts of model config ``m`` (``bot_repro.config.ModelCfg``), or None for a hub id that is
    not downloaded yet (then the trainer checks the format when it loads the tokenizer)."""
    if not m.hub_id:
        eos, pad, template = tiny_tokens(m.family)
        return ModelFacts(f"the tiny {m.family} stand-in", template, eos=eos, pad=pad, context_length=None)
    if m.gguf_file:
        return gguf_facts(gguf_path(m.hub_id, m.gguf_file))
    folder = Path(m.hub_id)
    if not folder.is_dir():
        from huggingface_hub import try_to_load_from_cache

        if m.hub_id.startswith(PKG_PREFIX):
            return None
        try:
            cached = try_to_load_from_cache(m.hub_id, "config.json", revision=m.revision)
        except ValueError:  # not a valid repo id either: the trainer's load gives its one-line error
            return None
        if not isinstance(cached, str):
            return None
        folder = Path(cached).parent
    try:
        return folder_facts(folder, m)
    except OSError:  # the tokenizer's files are not there (a partial cache): checked when the trainer loads it
        return None


def gguf_facts(path: Path) -> ModelFacts:
    meta = metadata(path)
    arch = meta.get("general.architecture", "?")
    key = f"{arch}.context_length"

    def token(name: str) -> str | None:
        value = meta.get(f"tokenizer.ggml.{name}_token_id")
        return None if value is None else f"id {value}"

    return ModelFacts(
        f"GGUF file {path.name}", meta.get("tokenizer.chat_template") or None, eos=token("eos"), pad=token("padding"),
        context_length=meta.get(key), context_key=f"{key} in {path.name}",
        # the bound counts bos as one token; its text is not in the header (the token arrays are skipped)
        bos="B" if meta.get("tokenizer.ggml.add_bos_token") else "", gguf=path,
    )


def folder_facts(folder: Path, m) -> ModelFacts:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(folder), trust_remote_code=m.trust_remote_code, local_files_only=True)
    config = json.loads((folder / "config.json").read_text()) if (folder / "config.json").is_file() else {}
    length = config.get("max_position_embeddings") or (config.get("text_config") or {}).get("max_position_embeddings")
    return ModelFacts(f"the tokenizer in {folder}", tok.chat_template or None, eos=tok.eos_token, pad=tok.pad_token,
                      context_length=length, context_key=f"max_position_embeddings in {folder / 'config.json'}",
                      bos=prompt_format.plain_bos(tok), tokenizer=tok)


def check(m, facts: ModelFacts, rows: list[dict], max_completion_length: int) -> Preflight:
    """Resolve ``m.prompt_format`` on ``facts`` and check them against the task's ``rows`` (chat
    messages in ``prompt``) and ``max_completion_length``; raise ConfigError on the first failure."""
    fmt, line = prompt_format.resolve(m.prompt_format, bool(facts.chat_template), m.name, facts.where)
    notes = []
    if facts.eos is None:
        raise ConfigError(
            f"model {m.name} has no eos token ({facts.where}): generation could not stop; allowed: a tokenizer "
            "with eos_token set (e.g. in its tokenizer_config.json / special_tokens_map.json)"
        )
    if facts.pad is None:
        notes.append(f"model {m.name} has no pad token: padding with its eos token {facts.eos}")
    if facts.context_length is not None and rows:
        longest = longest_prompt(facts, fmt, rows, dict(m.chat_template_kwargs), max_completion_length)
        need = longest + max_completion_length
        if need > facts.context_length:
            room = facts.context_length - longest
            raise ConfigError(
                f"model {m.name} has a context length of {facts.context_length} tokens ({facts.context_key}), "
                f"less than the task's longest prompt ({longest} tokens, prompt format {fmt}) plus "
                f"trainer.max_completion_length={max_completion_length} = {need}; allowed: "
                + (f"trainer.max_completion_length <= {room}" if room > 0 else "shorter prompts (fewer task shots)")
            )
    return Preflight(fmt, line, notes)


def longest_prompt(facts: ModelFacts, fmt: str, rows: list[dict], chat_kwargs: dict, budget: int) -> int:
    """The longest prompt of ``rows`` in tokens (an upper bound, for a GGUF file whose bound leaves
    ``budget`` completion tokens in its context; its exact count otherwise)."""
    tok = facts.tokenizer
    template = prompt_format.plain_template(facts.bos) if fmt == "plain" else facts.chat_template
    if tok is None:
        from transformers.utils.chat_template_utils import render_jinja_template

        texts = [render_jinja_template([r["prompt"]], chat_template=template, add_generation_prompt=True,
                                       bos_token="", eos_token="", **chat_kwargs)[0][0] for r in rows]
        bound = max(len(t.encode()) for t in texts) + BOUND_MARGIN
        if bound + budget <= facts.context_length or facts.gguf is None:
            return bound
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(str(facts.gguf.parent), gguf_file=facts.gguf.name)
        template = prompt_format.plain_template(prompt_format.plain_bos(tok)) if fmt == "plain" else tok.chat_template

    def tokens(row: dict) -> int:
        text = tok.apply_chat_template(row["prompt"], chat_template=template, tokenize=False,
                                       add_generation_prompt=True, **chat_kwargs)
        return len(tok(text, add_special_tokens=False).input_ids)

    return max(tokens(r) for r in rows)
