"""Step-0 held-out accuracy of a real model on each task=arith level, through the repo's own path.

For each level: the config is experiment=real_small composed with ``model=<model>`` and
``task.params.level=<level>`` (``bot_repro.experiment.sweep.compose_experiment``, validated as a run
is), the task and model path come from ``build_task`` and ``resolve_model_path`` (the GGUF
converted once into the cache), the sampled completions from the trainer's own evaluation
``bot_repro.trainer.callbacks.generate`` (T, new tokens and samples from ``trainer.eval``), and the
metrics from ``task.evaluate_detailed``. A greedy pass (one completion per prompt, same prompts and
token limit) is added. Writes ``<out>/<model>.json`` and ``<out>/<model>_<level>_samples.jsonl``.

    python scripts/level_probe.py --model smollm2_135m --prompts 16 --samples 4
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import time
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.config import validate
from bot_repro.experiment.sweep import compose_experiment, without_hydra
from bot_repro.tasks.base import build_task
from bot_repro.trainer.build import resolve_model_path
from bot_repro.trainer.callbacks import generate

try:  # model.prompt_format (#34 item 1), where the checkout has it: a base model gets the plain format
    from bot_repro.models import prompt_format
except ImportError:
    prompt_format = None

KEYS = ("pass@1", "pass@2", "pass@4", "sample_accuracy", "format_ok_rate", "format_perfect_rate", "answer_found_rate",
        "step_accuracy", "grounded_step_accuracy", "checked_steps_per_sample")


def greedy(model, tok, rows, max_new: int, chat_kwargs: dict) -> list[list[str]]:
    prompts = [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True, **chat_kwargs)
               for r in rows]
    tok.padding_side = "left"
    out = []
    for i in range(0, len(prompts), 8):
        enc = tok(prompts[i : i + 8], return_tensors="pt", padding=True, add_special_tokens=False)
        gen = model.generate(**enc, do_sample=False, max_new_tokens=max_new, pad_token_id=tok.pad_token_id)
        out += [[t] for t in tok.batch_decode(gen[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)]
    return out


def probe_level(model_name: str, level: str, args, out_dir: Path) -> dict:
    overrides = [f"model={model_name}", f"task.params.level={level}", f"trainer.eval.n_samples={args.samples}",
                 f"trainer.eval.max_prompts={args.prompts}", f"seed={args.seed}"]
    cfg = validate(without_hydra(compose_experiment("real_small", overrides)))
    task, _ = build_task(cfg, with_reward=False)
    rows = task.datasets()[1][: args.prompts]
    path = resolve_model_path(cfg, task, args.seed)
    tok = AutoTokenizer.from_pretrained(path)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    if prompt_format is not None:  # as bot_repro.trainer.build loads the policy's tokenizer
        prompt_format.apply(tok, cfg.model.prompt_format, cfg.model.name)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, cfg.model.dtype)).eval()
    ev, chat = cfg.trainer.eval, dict(cfg.model.chat_template_kwargs)
    max_new = ev.max_new_tokens or cfg.trainer.max_completion_length
    torch.manual_seed(args.seed)
    start = time.time()
    with torch.no_grad():
        sampled = generate(model, tok, rows, ev, max_new, chat)
    sampled_s = time.time() - start
    metrics, records = task.evaluate_detailed(sampled, rows)
    result = {"level": level, "overrides": overrides, "n_prompts": len(rows), "n_samples": ev.n_samples,
              "temperature": ev.temperature, "max_new_tokens": max_new, "shots": task.arith.shots,
              "sampled": {k: metrics[k] for k in KEYS if k in metrics},
              "sampled_correct": sum(r["correct"] for r in records), "sampled_total": len(records),
              "sampled_wall_s": round(sampled_s, 1)}
    if args.greedy:
        start = time.time()
        with torch.no_grad():
            greedy_out = greedy(model, tok, rows, max_new, chat)
        g_metrics, g_records = task.evaluate_detailed(greedy_out, rows)
        result |= {"greedy": {k: g_metrics[k] for k in KEYS if k in g_metrics},
                   "greedy_correct": sum(r["correct"] for r in g_records), "greedy_total": len(g_records),
                   "greedy_wall_s": round(time.time() - start, 1)}
        records += [{**r, "sample": "greedy"} for r in g_records]
    with (out_dir / f"{model_name}_{level}_samples.jsonl").open("w") as f:
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2_135m")
    parser.add_argument("--levels", default="one_step,two_step")
    parser.add_argument("--prompts", type=int, default=16)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--greedy", action="store_true")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "results" / "real_small" / "level_probe")
    parser.add_argument("--provenance", default="", help="what code ran, when it is not a clean git checkout")
    args = parser.parse_args()
    torch.set_num_threads(1)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True).stdout.strip()
    report = {"model": args.model, "provenance": args.provenance, "git_sha": sha, "tree_dirty": bool(dirty), "torch": torch.__version__,
              "torch_threads": torch.get_num_threads(), "machine": platform.machine(),
              "cpu_count": os.cpu_count(), "python": platform.python_version(),
              "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "load_avg_start": os.getloadavg(), "levels": []}
    for level in args.levels.split(","):
        report["levels"].append(probe_level(args.model, level, args, args.out))
        print(json.dumps(report["levels"][-1]), flush=True)
    report["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    report["load_avg_end"] = os.getloadavg()
    (args.out / f"{args.model}.json").write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
