"""``make warm-start ARGS="--adapter NAME"``: build a shipped starting adapter here, say whether this
machine reproduces its hash (and which ``built_on`` hardware fields differ when not), and measure its
step-0 numbers; ``--ship`` replaces the shipped adapter and its record; ``--lengths`` is the
training-length probe (one build, the adapter after each length evaluated, a JSON written).

The adapter's build is ``bot_repro.tasks.arith.warm_start`` (``SPECS``: model, level, training). Its
run config is ``experiment=real_seeds`` with the adapter's model and level and no worked examples
(``task.params.shots=0``; real_seeds' short step-format system prompt, evaluation temperature and new
tokens), over ``EVAL_PROMPTS`` held-out problems x ``EVAL_SAMPLES`` samples: the step-0 numbers are the
trainer's held-out evaluation (``bot_repro.trainer.callbacks.generate``, ``task.evaluate_detailed``)
of those prompts with the adapter loaded as a run loads it (peft's ``PeftModel.from_pretrained``).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import torch
from peft import PeftModel
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.cache import cache_root
from bot_repro.config import validate
from bot_repro.experiment import sweep
from bot_repro.models import prompt_format
from bot_repro.models.lora import ADAPTERS_DIR as ADAPTERS
from bot_repro.models.lora import RECORD_FILE as RECORD
from bot_repro.models.lora import adapter_hash, resolve_adapter
from bot_repro.tasks.arith.warm_start import SPECS, SftSpec, build_adapter
from bot_repro.tasks.base import build_task
from bot_repro.tasks.mini.warm_start import deterministic_torch
from bot_repro.trainer.build import resolve_model_path
from bot_repro.trainer.callbacks import generate
from bot_repro.trainer.run_dir import git_sha, hardware

EVAL_PROMPTS, EVAL_SAMPLES = 32, 4
STEP0_KEYS = ("format_ok_rate", "format_perfect_rate", "pass@1", "pass@2", "pass@4", "step_accuracy",
              "grounded_step_accuracy", "answer_found_rate")


def setup(spec: SftSpec) -> tuple[Any, Any, Path, Any, list[str]]:
    """(run config, task, converted model folder, tokenizer with its prompt format, overrides) of ``spec``."""
    overrides = [f"model={spec.model}", f"task.params.level={spec.level}", "task.params.shots=0",
                 f"trainer.eval.max_prompts={EVAL_PROMPTS}", f"trainer.eval.n_samples={EVAL_SAMPLES}"]
    cfg = validate(sweep.without_hydra(sweep.compose_experiment("real_seeds", overrides)))
    task, _ = build_task(cfg, with_reward=False)
    model_dir = Path(resolve_model_path(cfg, task, cfg.seed))
    tok = AutoTokenizer.from_pretrained(model_dir)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    prompt_format.apply(tok, cfg.model.prompt_format, cfg.model.name)  # as bot_repro.trainer.build does
    return cfg, task, model_dir, tok, overrides


def step0(cfg, task, model_dir: Path, tok, adapter: Path | None, spec: SftSpec) -> dict[str, Any]:
    """The held-out numbers of the model with ``adapter`` (None: none), as a run's step 0 measures them."""
    ev = cfg.trainer.eval
    rows = task.datasets()[1][: ev.max_prompts]
    max_new = ev.max_new_tokens or cfg.trainer.max_completion_length
    with deterministic_torch(spec.threads), torch.no_grad():
        model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        if adapter is not None:
            model = PeftModel.from_pretrained(model, adapter)
        torch.manual_seed(spec.seed)
        start = time.time()
        sampled = generate(model.eval(), tok, rows, ev, max_new, dict(cfg.model.chat_template_kwargs))
    metrics, _ = task.evaluate_detailed(sampled, rows)
    return {**{k: metrics[k] for k in STEP0_KEYS}, "prompts": len(rows), "samples": ev.n_samples,
            "temperature": ev.temperature, "max_new_tokens": max_new, "seconds": round(time.time() - start, 1)}


def hardware_diff(here: dict, there: dict) -> list[str]:
    """The hardware fields whose values differ between two ``built_on`` records (one side's only included)."""
    return sorted(k for k in set(here) | set(there) if here.get(k) != there.get(k))


def _record(name: str, spec: SftSpec, info: dict, cfg, overrides: list[str], built_on: dict, numbers: dict) -> dict:
    return {"name": name, "hash": info["hash"], "model": spec.model, "level": spec.level,
            "prompt": {"system_prompt": cfg.task.params["system_prompt"], "shots": 0,
                       "prompt_format": cfg.model.prompt_format},
            "training": {k: v for k, v in info.items() if k != "hash"},
            "step0": {**numbers, "config": f"experiment=real_seeds {' '.join(overrides)}"},
            "git_sha": git_sha(), "built_on": built_on}


def ship_files(built: Path, dest: Path, record: dict) -> Path:
    """Copy the adapter saved in ``built`` to ``dest`` with its ``record``; the peft config names the
    model by its conf/model name (not the machine's converted folder) and lists its modules sorted."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(built / "adapter_model.safetensors", dest / "adapter_model.safetensors")
    config = json.loads((built / "adapter_config.json").read_text())
    config.update(base_model_name_or_path=record["model"], target_modules=sorted(config["target_modules"]))
    (dest / "adapter_config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    (dest / RECORD).write_text(json.dumps(record, indent=1) + "\n")
    print(f"shipped -> {dest}")
    return dest


def check(name: str, ship: bool = False) -> dict[str, Any]:
    """Build adapter ``name`` here into a scratch folder, compare its hash with the shipped record's,
    print the differing hardware fields when it differs, and the step-0 numbers of the adapter runs
    use (the shipped one; the new one with ``ship``, which then replaces it)."""
    spec = SPECS[name]
    cfg, task, model_dir, tok, overrides = setup(spec)
    scratch = cache_root() / "adapter-check" / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    info = build_adapter(model_dir, tok, task, spec, scratch)
    with deterministic_torch(spec.threads):  # the hardware as the build saw it (its thread count)
        here = hardware()
    shipped_dir = ADAPTERS / name
    record = json.loads((shipped_dir / RECORD).read_text()) if (shipped_dir / RECORD).exists() else None
    if record is None:
        print(f"{name}: built {info['hash']}; no adapter ships under this name")
    elif info["hash"] == record["hash"]:
        print(f"{name}: built {info['hash']}: this machine REPRODUCES the shipped adapter")
    else:
        diff = hardware_diff(here, record.get("built_on") or {})
        print(f"{name}: built {info['hash']}, shipped {record['hash']}: this machine does NOT reproduce the shipped "
              f"adapter; hardware fields that differ from its built_on: {', '.join(diff) or 'none'}")
    use = scratch if ship or record is None else resolve_adapter(str(shipped_dir))
    numbers = step0(cfg, task, model_dir, tok, use, spec)
    print(f"{name}: step 0 with no worked examples ({numbers['prompts']} held-out x {numbers['samples']}): format "
          f"{numbers['format_ok_rate']:.3f}, pass@1 {numbers['pass@1']:.3f}, pass@4 {numbers['pass@4']:.3f}")
    if ship:
        ship_files(scratch, shipped_dir, _record(name, spec, info, cfg, overrides, here, numbers))
    shutil.rmtree(scratch, ignore_errors=True)
    return {"name": name, "command": " ".join(["python -m bot_repro.experiment", *sys.argv[1:]]), "git_sha": git_sha(),
            "built": info["hash"], "shipped": (record or {}).get("hash"), "shipped_now": ship,
            "reproduces": record is not None and info["hash"] == record["hash"],
            "hardware_differs": hardware_diff(here, (record or {}).get("built_on") or {}) if record else None,
            "build_seconds": info["seconds"], "step0": numbers, "hardware": here}


def probe(name: str, lengths: list[int], out: Path) -> dict[str, Any]:
    """The training-length probe: one build of ``name``'s spec to the longest of ``lengths`` (a build of
    k steps is the first k steps of a longer one), the step-0 numbers after each length and of the
    model with no adapter, written to ``out`` with the command, git SHA and hardware."""
    spec = SftSpec(**{**SPECS[name].__dict__, "steps": max(lengths)})
    cfg, task, model_dir, tok, overrides = setup(spec)
    scratch = cache_root() / "adapter-probe" / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    report = {"command": " ".join(["python -m bot_repro.experiment", *sys.argv[1:]]), "git_sha": git_sha(),
              "hardware": hardware(), "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "spec": spec.__dict__, "eval_config": f"experiment=real_seeds {' '.join(overrides)}", "lengths": []}
    info = build_adapter(model_dir, tok, task, spec, scratch, snapshots=tuple(lengths))
    report["build_seconds"], report["loss"] = info["seconds"], info["loss"]
    for k in sorted(lengths):
        numbers = step0(cfg, task, model_dir, tok, scratch / f"step{k}", spec)
        report["lengths"].append({"steps": k, "hash": adapter_hash(scratch / f"step{k}"), **numbers})
        print(f"{name}: {k} steps: {json.dumps(report['lengths'][-1])}", flush=True)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(report, indent=1) + "\n")
    report["no_adapter"] = step0(cfg, task, model_dir, tok, None, spec)
    print(f"{name}: no adapter: {json.dumps(report['no_adapter'])}", flush=True)
    report["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    out.write_text(json.dumps(report, indent=1) + "\n")
    return report
