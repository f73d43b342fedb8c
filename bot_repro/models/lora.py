"""LoRA as a model option (``model.lora``): its schema, the starting adapter, and the checks before any model loads.

``model.lora.enabled=true`` trains a LoRA adapter (peft) on the frozen model instead of every weight:
a fresh one goes to TRL as its ``peft_config``; a starting adapter (``model.lora.adapter``: a folder
holding a PEFT adapter, or ``shipped:<name>``, the package's ``bot_repro/models/adapters/<name>/``)
is loaded with ``PeftModel.from_pretrained(..., is_trainable=True)`` and turns LoRA on with its own
r, alpha, dropout and target modules. Null settings mean the adapter's, else the defaults below
(written here once); an explicit setting that differs from a starting adapter's is refused.

Checked before any model loads (each a ``ConfigError`` naming the value and what is allowed): a
rank or alpha that is not positive, a dropout outside [0, 1) (the schema), an adapter folder that
is missing or not a LoRA adapter, an adapter file that does not parse (a JSON file, the safetensors
header), an adapter whose ``adapter.json`` record's ``hash`` is not the sha256 of its
``adapter_model.safetensors``, a target module the model does not have (naming the
modules it has), and an adapter whose tensors do not fit the model's modules (read from the model's
config on the meta device: no weights). peft, torch and transformers are imported only inside the
functions that need them: the config door imports this module where peft is not installed (verl).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot_repro import paths
from bot_repro.config_schema import POSITIVE, ConfigError, Rule, checked

DEFAULT_R = 16
DEFAULT_ALPHA = 32.0
DEFAULT_DROPOUT = 0.0
ALL_LINEAR = "all-linear"  # peft's shorthand: every linear layer but the output head
SHIPPED = "shipped:"
ADAPTERS_DIR = Path(__file__).parent / "adapters"
CONFIG_FILE, WEIGHTS_FILE, RECORD_FILE = "adapter_config.json", "adapter_model.safetensors", "adapter.json"
RESTORE = "git checkout -- bot_repro/models/adapters"
PEFT_PREFIX = "base_model.model."  # what PeftModel puts before the wrapped model's names


@dataclass
class LoraCfg:
    """``model.lora``; after ``resolve`` every setting is concrete (enabled runs only)."""

    enabled: bool = False
    r: int | None = checked(None, POSITIVE)  # null: the starting adapter's, else DEFAULT_R
    alpha: float | None = checked(None, POSITIVE)  # null: the starting adapter's, else DEFAULT_ALPHA
    dropout: float | None = checked(None, Rule("in [0, 1)", lambda v: 0 <= v < 1))
    target_modules: str | list[str] | None = None  # all-linear or module names; null: the adapter's, else all-linear
    adapter: str | None = None  # a PEFT adapter folder or shipped:<name>; turns LoRA on


def shipped_names() -> list[str]:
    return sorted(p.name for p in ADAPTERS_DIR.iterdir() if p.is_dir()) if ADAPTERS_DIR.is_dir() else []


def resolve_adapter(spec: str) -> Path:
    """The folder of adapter ``spec`` (a path, or ``shipped:<name>``), checked: both PEFT files present,
    and its ``adapter.json`` record's hash (when it has one) equal to the weights' sha256."""
    if spec.startswith(SHIPPED):
        name = spec[len(SHIPPED):]
        path = ADAPTERS_DIR / name
        if not name or not path.is_dir():
            raise ConfigError(f"model.lora.adapter={spec!r} is not allowed: no shipped adapter {name!r}; shipped: "
                              f"{', '.join(shipped_names()) or 'none'} (in {ADAPTERS_DIR}), or a folder path")
    else:
        path = Path(spec).expanduser()
    missing = [f for f in (CONFIG_FILE, WEIGHTS_FILE) if not (path / f).is_file()]
    if missing:
        raise ConfigError(f"model.lora.adapter={spec!r} is not allowed: {path} lacks {', '.join(missing)}; expected "
                          "a folder written by PeftModel.save_pretrained, or shipped:<name>")
    record = path / RECORD_FILE
    if record.is_file():
        want, got = _read_json(record, spec).get("hash"), adapter_hash(path)
        if want != got:
            raise ConfigError(f"model.lora.adapter={spec!r}: {path / WEIGHTS_FILE} has sha256 {got}, but {record} "
                              f"records {want}: the weights changed since they were recorded; restore them "
                              f"(`{RESTORE}` for a shipped adapter) or record the new hash")
    return path


def _read_json(path: Path, spec: str) -> dict:
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"model.lora.adapter={spec!r} is not allowed: {path} is not valid JSON ({exc}); "
                          "save the adapter again (PeftModel.save_pretrained) or restore the file") from None
    if not isinstance(data, dict):
        raise ConfigError(f"model.lora.adapter={spec!r} is not allowed: {path} holds a {type(data).__name__}, "
                          "not a JSON object")
    return data


def adapter_hash(path: str | Path) -> str:
    """sha256 hex of the folder's ``adapter_model.safetensors``."""
    return hashlib.sha256((Path(path) / WEIGHTS_FILE).read_bytes()).hexdigest()


def resolve(cfg: LoraCfg) -> LoraCfg:
    """``cfg`` with every setting concrete: a starting adapter's own (an explicit one that differs is
    refused), else the defaults; ``cfg`` itself when LoRA is off."""
    if not (cfg.enabled or cfg.adapter):
        return cfg
    targets = cfg.target_modules
    if (isinstance(targets, str) and targets != ALL_LINEAR) or (isinstance(targets, list) and not targets):
        raise ConfigError(f"model.lora.target_modules={targets!r} is not allowed: expected {ALL_LINEAR} or a "
                          "non-empty list of module names (e.g. [q_proj, v_proj])")
    own = {"r": DEFAULT_R, "alpha": DEFAULT_ALPHA, "dropout": DEFAULT_DROPOUT, "target_modules": ALL_LINEAR}
    if cfg.adapter:
        path = resolve_adapter(cfg.adapter)
        saved = _read_json(path / CONFIG_FILE, cfg.adapter)
        if saved.get("peft_type") != "LORA":
            raise ConfigError(f"model.lora.adapter={cfg.adapter!r} is not allowed: {path / CONFIG_FILE} is a "
                              f"{saved.get('peft_type')} adapter; expected LORA")
        own = {"r": saved["r"], "alpha": float(saved["lora_alpha"]), "dropout": float(saved.get("lora_dropout", DEFAULT_DROPOUT)),
               "target_modules": saved["target_modules"]}
        for key, value in own.items():
            given = getattr(cfg, key)
            same = sorted(given) == sorted(value) if isinstance(given, list) and isinstance(value, list) else given == value
            if given is not None and not same:
                raise ConfigError(f"model.lora.{key}={given!r} conflicts with the starting adapter's {value!r} "
                                  f"({path / CONFIG_FILE}): leave model.lora.{key} unset (null) with an adapter")
    return dataclasses.replace(cfg, enabled=True, **{k: v if getattr(cfg, k) is None else getattr(cfg, k)
                                                     for k, v in own.items()})


# ---- the model's modules, without its weights ---------------------------------------------------------


def model_config(m) -> Any | None:
    """The transformers config of model ``m`` (``bot_repro.config.ModelCfg``) from its files alone (a
    GGUF file's header, a folder's or the hub cache's config.json, a tiny stand-in's family), or None
    for a hub model not downloaded yet (checked once it loads)."""
    from transformers import AutoConfig

    if not m.hub_id:
        from bot_repro.models.tiny import tiny_config

        return tiny_config(m.family, **(m.tiny or {}))
    if m.gguf_file:
        from bot_repro.models.gguf import gguf_path

        path = gguf_path(m.hub_id, m.gguf_file)
        return AutoConfig.from_pretrained(str(path.parent), gguf_file=path.name)
    try:
        return AutoConfig.from_pretrained(m.hub_id, revision=m.revision, trust_remote_code=m.trust_remote_code,
                                          local_files_only=True)
    except OSError:
        return None


def module_shapes(model) -> dict[str, tuple[int, ...]]:
    """Weight shape of every module LoRA can wrap (linear, embedding, convolution), by full name."""
    import torch
    from transformers.pytorch_utils import Conv1D

    kinds = (torch.nn.Linear, torch.nn.Embedding, torch.nn.Conv1d, torch.nn.Conv2d, Conv1D)
    return {name: tuple(mod.weight.shape) for name, mod in model.named_modules() if isinstance(mod, kinds)}


def meta_module_shapes(config) -> dict[str, tuple[int, ...]]:
    """``module_shapes`` of the model ``config`` describes, built on the meta device (no memory, no weights)."""
    import torch
    from transformers import AutoModelForCausalLM

    with torch.device("meta"):
        return module_shapes(AutoModelForCausalLM.from_config(config))


def check_modules(cfg: LoraCfg, shapes: dict[str, tuple[int, ...]], model_name: str) -> None:
    """Refuse target modules ``model_name`` does not have (naming those it has), and a starting adapter
    whose tensors do not fit its modules. ``cfg``: resolved; ``shapes``: ``module_shapes``."""
    leaves = sorted({name.rsplit(".", 1)[-1] for name in shapes})
    if isinstance(cfg.target_modules, list):
        bad = [t for t in cfg.target_modules if not any(n == t or n.endswith(f".{t}") for n in shapes)]
        if bad:
            source = f" (model.lora.adapter={cfg.adapter!r}'s)" if cfg.adapter else ""
            raise ConfigError(f"model.lora.target_modules={cfg.target_modules!r}{source} is not allowed: model {model_name} has "
                              f"no module {', '.join(map(repr, bad))}; its modules LoRA can wrap: {', '.join(leaves)} "
                              f"(or {ALL_LINEAR})")
    if cfg.adapter:
        _check_adapter_shapes(cfg, resolve_adapter(cfg.adapter), shapes, model_name)


def _check_adapter_shapes(cfg: LoraCfg, path: Path, shapes: dict[str, tuple[int, ...]], model_name: str) -> None:
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(path / WEIGHTS_FILE), "pt") as f:
            _check_tensors(cfg, f, shapes, model_name)
    except SafetensorError as exc:
        raise ConfigError(f"model.lora.adapter={cfg.adapter!r} is not allowed: {path / WEIGHTS_FILE} is not a readable "
                          f"safetensors file ({exc}); save the adapter again (PeftModel.save_pretrained) or restore "
                          f"the file (`{RESTORE}` for a shipped adapter)") from None


def _check_tensors(cfg: LoraCfg, f, shapes: dict[str, tuple[int, ...]], model_name: str) -> None:
    """Each LoRA tensor of the open safetensors file ``f`` against the model's module ``shapes``."""
    for key in f.keys():
        if ".lora_A." not in key and ".lora_B." not in key:
            continue
        module = key.removeprefix(PEFT_PREFIX).split(".lora_")[0]
        if module not in shapes:
            raise ConfigError(f"model.lora.adapter={cfg.adapter!r} does not fit model {model_name}: its tensor {key} "
                              f"is for a module {module!r} the model does not have (trained for another model?)")
        shape = tuple(f.get_slice(key).get_shape())
        out_dim, in_dim = shapes[module][0], shapes[module][-1]
        want = (cfg.r, in_dim) if ".lora_A." in key else (out_dim, cfg.r)
        if len(shapes[module]) == 2 and shape != want:
            raise ConfigError(f"model.lora.adapter={cfg.adapter!r} does not fit model {model_name}: {key} has shape "
                              f"{list(shape)}, the module {module} needs {list(want)} (trained for another model?)")


# ---- building and describing -----------------------------------------------------------------------------


def peft_config(cfg: LoraCfg):
    """TRL's ``peft_config`` for a fresh adapter (``cfg`` resolved)."""
    from peft import LoraConfig

    return LoraConfig(task_type="CAUSAL_LM", r=cfg.r, lora_alpha=cfg.alpha, lora_dropout=cfg.dropout,
                      target_modules=cfg.target_modules)


def load_adapter(model, cfg: LoraCfg):
    """``model`` wrapped with the starting adapter, trainable."""
    from peft import PeftModel

    return PeftModel.from_pretrained(model, str(resolve_adapter(cfg.adapter)), is_trainable=True)


def describe(cfg: LoraCfg, model) -> dict[str, Any]:
    """run.json's ``lora``: the settings, the starting adapter (spec, folder, hash), the modules wrapped
    and the trainable / total parameter counts of the wrapped ``model`` (a PeftModel)."""
    trainable, total = model.get_nb_trainable_parameters()
    wrapped = [name for name, mod in model.named_modules() if hasattr(mod, "lora_A")]
    out: dict[str, Any] = {"r": cfg.r, "alpha": cfg.alpha, "dropout": cfg.dropout, "target_modules": cfg.target_modules,
                           "wrapped_modules": sorted({n.rsplit(".", 1)[-1] for n in wrapped}),
                           "wrapped_count": len(wrapped), "trainable_params": trainable, "total_params": total,
                           "adapter": None}
    if cfg.adapter:
        path = resolve_adapter(cfg.adapter)
        out["adapter"] = {"spec": cfg.adapter, "path": paths.relative(path), "hash": adapter_hash(path)}
    return out


def merged_named_params(model) -> Iterator[tuple[str, Any]]:
    """The weights of PeftModel ``model`` with its active LoRA adapters merged, under the wrapped model's own
    names (no ``base_model.model.`` prefix, no ``base_layer``, no lora_A/B), one at a time. Unlike peft's
    ``merge_adapter`` / ``unmerge_adapter`` it never writes the base weights: W + dW - dW is not W in floating
    point, so merging in place every sync would let the frozen weights drift."""
    import torch

    base, adapters = model.get_base_model(), model.active_adapters
    with torch.no_grad():
        for name, param in base.named_parameters():
            if model.prefix in name:  # lora_A / lora_B: merged into their base layer below
                continue
            if ".base_layer." in name and name.endswith(".weight"):
                layer = base.get_submodule(name.rsplit(".base_layer.", 1)[0])
                param = param + sum(layer.get_delta_weight(a) for a in adapters if a in layer.lora_A)
            yield name.replace(".base_layer", ""), param.detach()


def _mergeable(model) -> list:
    """The LoRA layers of ``model`` whose deltas ``merged`` can fold: plain linear LoRA (no DoRA), every
    adapted layer such; [] for a model without LoRA or with any other LoRA kind."""
    from peft import PeftModel
    from peft.tuners.lora import Linear, LoraLayer

    if not isinstance(model, PeftModel):
        return []
    layers = [m for m in model.modules() if isinstance(m, LoraLayer)]
    ok = all(type(m) is Linear and not any(m.use_dora.values()) and not m.merged for m in layers)
    return layers if ok else []


@contextmanager
def merged(model):
    """Inside, PeftModel ``model`` runs with its active LoRA deltas added into a fresh copy of each adapted
    weight and its adapters off: one matmul per linear layer instead of three, a scale and an add (sampling
    on CPU, #51). On exit each base weight gets its own tensor back, untouched (never W + dW - dW). No
    gradients inside. A model without LoRA, or with a kind ``_mergeable`` does not fold, runs as it is."""
    import torch

    layers = _mergeable(model)
    if not layers:
        with nullcontext():
            yield
        return
    saved = []
    try:
        with torch.no_grad():
            for layer in layers:
                weight = layer.get_base_layer().weight
                saved.append((weight, weight.data))
                delta = sum(layer.get_delta_weight(a) for a in model.active_adapters if a in layer.lora_A)
                weight.data = weight.data + delta
        with model.disable_adapter(), torch.no_grad():
            yield
    finally:
        for weight, data in saved:
            weight.data = data
