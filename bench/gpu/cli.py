"""The GPU check's command line and run order: ``parse`` (the plan and its overrides), ``main`` (model,
then per completion length ours and TRL within the time budget, their ratios, the advantage timing,
the summary) and the JSON (``bench.header``'s header first), rewritten after every run so a killed run still
leaves its results."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import torch

from bench.gpu.model import build_model_dir, free_cuda
from bench.gpu.plan import DRY_PLAN, GPU_PLAN, REPO, Plan
from bench.gpu.provenance import machine, versions
from bench.gpu.timing import peak_flops, time_advantages, time_trainer
from bench.gpu.trainers import Recipe, build_ours, build_vanilla, compose, free, overrides, recipe_of
from bench.header import Header, bench_run, write


def _ratios(ours: dict, trl: dict) -> dict[str, float]:
    keys = ("step_s", "generation_s", "scoring_s", "fwd_bwd_s", "optimizer_other_s", "peak_mem_gb")
    out = {k: ours[k] / trl[k] for k in keys if ours.get(k) and trl.get(k)}
    if "step_s" in ours and "generation_s" in ours and "step_s" in trl and "generation_s" in trl:
        a, b = ours["step_s"] - ours["generation_s"], trl["step_s"] - trl["generation_s"]
        if b > 0:
            out["step_minus_generation_s"] = a / b
    return out


def timed_steps_that_fit(plan: Plan, done: list[tuple[int, dict]], length: int, remaining: float) -> int:
    """Timed steps per trainer at ``length`` so that both trainers end within ``remaining`` seconds.

    ``done``: (length, our run) of the lengths already run. A step is costed as the last one's
    median step time scaled by length (generation, linear in length, dominates), plus that run's
    build time; fewer steps are taken before a length is given up (0), so a pair stays a pair.
    """
    if not done:
        return plan.steps
    l0, run0 = done[-1]
    per_step = run0["median"].get("step_s", 0.0) * length / l0
    for n in range(plan.steps, 0, -1):
        if 2 * (run0.get("build_s", 0.0) + (plan.warmup + n) * per_step) <= remaining:
            return n
    return 0


def parse(argv: list[str] | None) -> tuple[Plan, argparse.Namespace]:
    ap = argparse.ArgumentParser(prog="python -m bench.gpu", description=_description())
    ap.add_argument("--dry-run", action="store_true", help="tiny model, CPU, 2 steps per trainer (the test)")
    ap.add_argument(
        "--out",
        type=Path,
        default=None,
        help="JSON path (default: results/bench/gpu.json; with --dry-run: <work dir>/gpu.json)",
    )
    ap.add_argument("--work-dir", type=Path, default=None, help="model and run folders (default: a temp dir)")
    ap.add_argument("--lengths", type=int, nargs="+", help="completion lengths (default 256 1024)")
    ap.add_argument("--steps", type=int, help="timed steps per trainer and length (default 2)")
    ap.add_argument("--warmup", type=int, help="untimed first steps (default 1)")
    ap.add_argument(
        "--micro-batch", type=int, help="per-device micro-batch (default 16: 4 accumulation steps)"
    )
    ap.add_argument("--adv-T", type=int, nargs="+", help="advantage timing lengths (default 2048..32768)")
    ap.add_argument("--budget-s", type=float, help="skip runs that would end after this (default 450)")
    ap.add_argument("--override", action="append", default=[], help="extra Hydra override (repeatable)")
    ns = ap.parse_args(argv)
    plan = DRY_PLAN if ns.dry_run else GPU_PLAN
    given = {
        "lengths": tuple(ns.lengths) if ns.lengths else None, "steps": ns.steps, "warmup": ns.warmup,
        "micro_batch": ns.micro_batch, "adv_T": tuple(ns.adv_T) if ns.adv_T else None, "budget_s": ns.budget_s,
    }  # fmt: skip
    plan = replace(
        plan, **{k: v for k, v in given.items() if v is not None}, overrides=plan.overrides + ns.override
    )
    return plan, ns


def main(argv: list[str] | None = None) -> dict[str, Any]:
    threads = torch.get_num_threads()  # build_trainer may set them (resources.torch_threads)
    try:
        with bench_run("gpu") as header:
            session = _main(argv, header)
        session.write()  # once more, with the finished header
        print(f"[bench.gpu] wrote {session.out} in {session.result['elapsed_s']:.0f}s", flush=True)
        return session.result
    finally:
        torch.set_num_threads(threads)


def _description() -> str:
    """The package docstring's first paragraph (``--help``)."""
    import bench.gpu

    return bench.gpu.__doc__.split("\n\n")[0]


@dataclass
class _Session:
    """One invocation's state: the plan, where things go, and the result JSON, rewritten after every run."""

    plan: Plan
    out: Path
    work: Path
    device: str
    result: dict[str, Any]
    start: float
    header: Header

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def write(self) -> None:
        self.result["elapsed_s"] = self.elapsed()
        write(self.out, self.header, self.result)

    def note(self, key: str, text: str, detail: str | None = None) -> None:
        """Add ``text`` to ``result[key]`` (``skipped`` or ``errors``) and print it."""
        self.result[key].append(text)
        word = "skipped" if key == "skipped" else "FAILED"
        print(f"[bench.gpu] {word} {text}" + (f"\n{detail}" if detail is not None else ""), flush=True)


def _main(argv: list[str] | None, header: Header) -> _Session:
    for key, val in (("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("WANDB_MODE", "disabled"),
                     ("TOKENIZERS_PARALLELISM", "false")):  # fmt: skip
        os.environ.setdefault(key, val)
    plan, ns = parse(argv)
    start = time.perf_counter()
    device = "cpu" if plan.dry_run else "cuda"
    if device == "cuda" and not torch.cuda.is_available():
        sys.exit("bench.gpu: no CUDA device (use --dry-run for the CPU check)")
    work = ns.work_dir or Path(tempfile.mkdtemp(prefix="bench_gpu_"))
    work.mkdir(parents=True, exist_ok=True)
    if ns.out is None:  # CPU numbers never land where the GPU results live
        ns.out = work / "gpu.json" if plan.dry_run else REPO / "results" / "bench" / "gpu.json"
    session = _Session(plan, ns.out, work, device, _header(plan, argv), start, header)

    from bot_repro.tasks.mini.task import MiniTask

    corpus = MiniTask({"n_train": 256, "n_test": 8, "warm_start": False}, {}).tokenizer_corpus()
    result = session.result
    result["model"] = build_model_dir(plan, work / "model", corpus, device)
    n_params = result["model"]["n_params"]
    print(
        f"[bench.gpu] model built: {n_params / 1e9:.3f}B params in {result['model']['build_s']:.1f}s",
        flush=True,
    )
    session.write()

    done: list[tuple[int, dict]] = []
    for length in plan.lengths:
        _run_length(session, length, done)
    result["summary"] = _summary(result)
    session.write()
    print(json.dumps(result["summary"], indent=2), flush=True)
    return session


def _header(plan: Plan, argv: list[str] | None) -> dict[str, Any]:
    """The result JSON before any run: command, machine, versions, plan, setup and the MFU assumption."""
    peak, peak_note = peak_flops()
    return {
        "command": " ".join(
            [Path(sys.executable).name, "-m", "bench.gpu", *(argv if argv is not None else sys.argv[1:])]
        ),
        "dry_run": plan.dry_run,
        "machine": machine(),
        "versions": versions(),
        "plan": {k: v for k, v in asdict(plan).items() if k != "arch"},
        "setup": {
            "ours": "algorithm=bot_grpo via Hydra compose + bot_repro.trainer.build.build_trainer",
            "trl": "trl.GRPOTrainer, the same GRPOConfig, data set and reward source (global score G)",
            "generation": "transformers generate (no vLLM), sampling at temperature 1",
            "task": "mini (prompts only: the random policy's completions run to full length)",
            "gradient_checkpointing": not plan.dry_run,
            "gradient_accumulation_steps": plan.prompts * plan.rollouts // plan.micro_batch,
        },
        "mfu_assumption": (
            f"MFU = 6 * n_params * (prompt + completion tokens, padding excluded) / fwd_bwd_s / peak; "
            f"peak: {peak_note}. 6N counts forward + backward matmuls only: no attention-score FLOPs, "
            "no gradient-checkpointing recompute (the hardware does ~8N per token with it on)."
        ),
        "peak_flops": peak,
        "goals": {"step_ratio_ours_over_trl_max": 1.05, "advantage_vs_elementwise_max_at_T32768": 5.0},
        "runs": {},
        "skipped": [],
        "errors": [],
    }


def _run_length(session: _Session, length: int, done: list[tuple[int, dict]]) -> None:
    """Both trainers at completion length ``length`` (ours first; TRL only if ours ran and it fits the
    budget), their ratios, and the advantage timing after the first length ours ran at."""
    plan, result = session.plan, session.result
    steps = timed_steps_that_fit(plan, done, length, plan.budget_s - session.elapsed())
    if steps == 0:
        session.note("skipped", f"L={length}: one timed step per trainer would end after the {plan.budget_s:.0f}s budget")
        return
    runs: dict[str, Any] = {"timed_steps": steps}
    result["runs"][str(length)] = runs
    recipe = None
    for kind in ("ours", "trl"):
        elapsed = session.elapsed()
        if kind == "trl" and recipe is None:
            result["skipped"].append(f"trl L={length}: ours failed")
            continue
        if kind == "trl" and elapsed + runs["ours"]["wall_s"] > plan.budget_s:
            session.note("skipped", f"trl L={length}: {elapsed:.0f}s + ~{runs['ours']['wall_s']:.0f}s > budget")
            continue
        recipe = _run_trainer(session, kind, length, steps, runs, recipe)
        session.write()
    ok = {k for k in ("ours", "trl") if k in runs and "error" not in runs[k]}
    if "ours" in ok:
        done.append((length, runs["ours"]))
    if ok == {"ours", "trl"}:
        runs["ratio_ours_over_trl"] = _ratios(runs["ours"]["median"], runs["trl"]["median"])
        print(f"[bench.gpu] L={length} ours/trl: {runs['ratio_ours_over_trl']}", flush=True)
    if "advantage" not in result and recipe is not None:
        _time_advantages(session, recipe)
        session.write()


def _run_trainer(session: _Session, kind: str, length: int, steps: int, runs: dict, recipe: Recipe | None):
    """Build and time one trainer into ``runs[kind]``; returns the recipe TRL is built from (ours' when
    ours ran, None when it failed; TRL's run leaves it as it was)."""
    plan, model_dir = session.plan, session.work / "model"
    t0 = time.perf_counter()
    run_dir = session.work / "runs" / f"{kind}_{length}"
    trainer = None
    try:
        if kind == "ours":
            trainer = build_ours(compose(overrides(plan, length, steps, model_dir, f"bench_{length}")), run_dir)
            recipe = recipe_of(trainer, model_dir)
        else:
            trainer = build_vanilla(recipe, run_dir)
        build_s = time.perf_counter() - t0
        runs[kind] = time_trainer(trainer, kind, session.result["model"]["n_params"], plan.warmup)
        runs[kind]["build_s"] = build_s
    except Exception as exc:  # a failed run (an OOM, say) must not cost the others
        runs[kind] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        session.note("errors", f"{kind} L={length}: {type(exc).__name__}: {exc}", runs[kind]["traceback"])
        if kind == "ours":
            recipe = None
    if trainer is not None:
        free(trainer)
    del trainer
    free_cuda()
    if torch.cuda.is_available():
        runs[kind]["gpu_allocated_after_free_gb"] = torch.cuda.memory_allocated() / 2**30
    runs[kind]["wall_s"] = time.perf_counter() - t0
    return recipe


def _time_advantages(session: _Session, recipe: Recipe) -> None:
    plan, result = session.plan, session.result
    try:
        result["advantage"] = time_advantages(
            recipe.advantage_options, plan.adv_B, plan.adv_T, plan.rollouts, session.device, plan.dry_run
        )
    except Exception as exc:
        result["advantage"] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
        session.note("errors", f"advantage: {type(exc).__name__}: {exc}", result["advantage"]["traceback"])


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """Per length: the step ratio, both MFUs and our peak memory; the advantage ratio at the largest T."""
    runs = result["runs"]
    return {
        "step_ratio_ours_over_trl": {L: r.get("ratio_ours_over_trl", {}).get("step_s") for L, r in runs.items()},
        "mfu_train_ours": {L: r.get("ours", {}).get("median", {}).get("mfu_train") for L, r in runs.items()},
        "mfu_train_trl": {L: r.get("trl", {}).get("median", {}).get("mfu_train") for L, r in runs.items()},
        "peak_mem_gb_ours": {L: r.get("ours", {}).get("median", {}).get("peak_mem_gb") for L, r in runs.items()},
        "advantage_ratio_at_max_T": (result.get("advantage") or {}).get("rows", [{}])[-1].get("ratio"),
    }
