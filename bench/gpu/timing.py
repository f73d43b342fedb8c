"""Timing of the GPU check: ``PhaseTimer`` wraps a trainer's methods so each phase (generation, scoring,
advantages, forward/backward) adds its synced wall time; ``time_trainer`` trains and returns per-step
phase times, tokens/s and MFU with their medians; ``time_advantages`` times our advantage computation
against one elementwise add of the same size (plus its CUDA kernels); ``peak_flops`` reads the GPU's
dense bf16 peak from the datasheet table."""

from __future__ import annotations

import functools
import statistics
import time
from collections import defaultdict
from typing import Any

import torch

# Dense bf16 tensor-core peaks (vendor datasheets, no sparsity), TFLOP/s; matched on the device name.
PEAK_BF16_TFLOPS = [
    ("H200 NVL", 835.0), ("H200", 989.4), ("H100 NVL", 835.0), ("H100 PCIe", 756.0), ("H100", 989.4),
    ("A100", 312.0), ("L40S", 362.0),
]  # fmt: skip


class PhaseTimer:
    """Wraps methods (on one instance or a module) so each call adds its wall time to a phase."""

    def __init__(self, cuda: bool):
        self.cuda = cuda
        self.acc: dict[str, float] = defaultdict(float)
        self.tokens: dict[str, int] = {}
        self._restore: list[tuple[Any, str, Any]] = []

    def sync(self) -> None:
        if self.cuda:
            torch.cuda.synchronize()

    def wrap(self, obj, attr: str, phase: str, on_result=None) -> None:
        fn = getattr(obj, attr)

        @functools.wraps(fn)
        def timed(*a, **kw):
            self.sync()
            t = time.perf_counter()
            try:
                out = fn(*a, **kw)
            finally:
                self.sync()
                self.acc[phase] += time.perf_counter() - t
            if on_result is not None:
                on_result(out)
            return out

        self._restore.append((obj, attr, obj.__dict__.get(attr)))
        setattr(obj, attr, timed)

    def unwrap(self) -> None:
        for obj, attr, old in reversed(self._restore):
            if old is None:
                delattr(obj, attr)
            else:
                setattr(obj, attr, old)
        self._restore.clear()

    def count_tokens(self, out: dict) -> None:
        prompt, completion = out["prompt_mask"], out["completion_mask"]
        self.tokens = {
            "prompt_tokens": int(prompt.sum()),
            "completion_tokens": int(completion.sum()),
            "padded_tokens": int(prompt.numel() + completion.numel()),
            "rows": int(completion.shape[0]),
        }


def peak_flops() -> tuple[float | None, str]:
    if not torch.cuda.is_available():
        return None, "no GPU: MFU not computed"
    name = torch.cuda.get_device_name()
    for key, tflops in PEAK_BF16_TFLOPS:
        if key in name:
            return tflops * 1e12, f"{name}: dense bf16 peak {tflops} TFLOP/s (datasheet '{key}', no sparsity)"
    return (
        None,
        f"{name}: not in the peak table ({', '.join(k for k, _ in PEAK_BF16_TFLOPS)}); MFU not computed",
    )


def time_trainer(trainer, kind: str, n_params: int, warmup: int) -> dict[str, Any]:
    """Train ``trainer`` (max_steps = warmup + timed) and return per-step phase times and their medians."""
    from transformers import TrainerCallback
    from transformers.trainer_callback import PrinterCallback

    import bot_repro.trainer.advantage_step as advantage_step_module

    cuda = trainer.args.device.type == "cuda"
    timer = PhaseTimer(cuda)
    timer.wrap(trainer, "_generate", "generation")
    timer.wrap(trainer, "_calculate_rewards", "scoring")
    timer.wrap(trainer, "_generate_and_score_completions", "generate_and_score", on_result=timer.count_tokens)
    timer.wrap(trainer, "training_step", "training_step")
    if kind == "ours":
        timer.wrap(advantage_step_module, "compute_advantages", "advantage")
    peak, _ = peak_flops()
    steps: list[dict[str, Any]] = []

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kw):
            timer.acc.clear()
            timer.tokens = {}
            if cuda:
                torch.cuda.reset_peak_memory_stats()
            timer.sync()
            self.t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):
            timer.sync()
            step_s = time.perf_counter() - self.t
            a = dict(timer.acc)
            gen, score, adv = a.get("generation", 0.0), a.get("scoring", 0.0), a.get("advantage", 0.0)
            gs, ts = a.get("generate_and_score", 0.0), a.get("training_step", 0.0)
            fwd_bwd = ts - gs
            tokens = timer.tokens.get("prompt_tokens", 0) + timer.tokens.get("completion_tokens", 0)
            row = {
                "step": state.global_step,
                "step_s": step_s,
                "generation_s": gen,
                "scoring_s": score,
                "advantage_s": adv if kind == "ours" else None,
                "prep_other_s": gs - gen - score - adv,
                "fwd_bwd_s": fwd_bwd,
                "optimizer_other_s": step_s - ts,
                **timer.tokens,
                "tokens_per_s": tokens / step_s,
                "train_tokens_per_s": tokens / fwd_bwd if fwd_bwd > 0 else None,
                "gen_tokens_per_s": timer.tokens.get("completion_tokens", 0) / gen if gen > 0 else None,
                "mfu_train": 6 * n_params * tokens / fwd_bwd / peak if peak and fwd_bwd > 0 else None,
                "peak_mem_gb": torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
                "peak_reserved_gb": torch.cuda.max_memory_reserved() / 2**30 if cuda else None,
            }
            steps.append(row)
            print(f"[bench.gpu] {kind} step {state.global_step}: " + ", ".join(
                f"{k}={v:.3g}" for k, v in row.items() if isinstance(v, float)), flush=True)  # fmt: skip

    # TRL's per-step log dicts (both trainers): our own line is enough
    trainer.remove_callback(PrinterCallback)
    trainer.add_callback(Clock())
    t0 = time.perf_counter()
    try:
        trainer.train()
    finally:
        timer.unwrap()
    timed = steps[warmup:]
    keys = [k for k, v in (timed[0] if timed else {}).items() if isinstance(v, int | float) and k != "step"]
    median = {k: statistics.median(r[k] for r in timed) for k in keys if all(r[k] is not None for r in timed)}
    return {
        "train_wall_s": time.perf_counter() - t0,
        "warmup_steps": warmup,
        "steps": steps,
        "median": median,
    }


def _loop_ms(fn, sync, calls: int, rounds: int, warmup: int) -> float:
    """Median over ``rounds`` of the mean ms per call of ``calls`` back-to-back calls (synced at the ends)."""
    for _ in range(warmup):
        fn()
    per_round = []
    for _ in range(rounds):
        sync()
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        per_round.append((time.perf_counter() - t) * 1e3 / calls)
    return statistics.median(per_round)


def time_advantages(options: dict, B: int, Ts: tuple[int, ...], group: int, device: str, dry: bool) -> dict:
    """Our advantage computation (the trainer's entry and options) vs one elementwise add, [B, T] float32."""
    from bot_repro.algorithms.advantages import compute_advantages

    cuda = device == "cuda"

    def sync():
        if cuda:
            torch.cuda.synchronize()

    calls, rounds, warm = (3, 2, 1) if dry else (20, 5, 3)
    rows = []
    for T in Ts:
        gen = torch.Generator().manual_seed(0)
        g = torch.randn(B, generator=gen)
        lengths = torch.randint(1, T + 1, (B,), generator=gen)
        mask = (torch.arange(T)[None] < lengths[:, None]).float()  # the trainer passes a float mask
        local = torch.randn(B, T, generator=gen) * 0.1 * mask
        other = torch.randn(B, T, generator=gen)
        g, mask, local, other = (t.to(device) for t in (g, mask, local, other))

        adv = functools.partial(compute_advantages, "bot_grpo", g, local, mask, group, **options)
        add = functools.partial(torch.add, local, other)

        adv_ms = _loop_ms(adv, sync, calls, rounds, warm)
        add_ms = _loop_ms(add, sync, calls, rounds, warm)
        row = {"T": T, "bot_grpo_ms": adv_ms, "elementwise_add_ms": add_ms, "ratio": adv_ms / add_ms,
               "add_bytes": 3 * B * T * 4, "add_GBps": 3 * B * T * 4 / (add_ms * 1e-3) / 1e9}  # fmt: skip
        rows.append(row)
        print(
            f"[bench.gpu] advantage T={T}: {adv_ms:.4f} ms vs add {add_ms:.4f} ms ({row['ratio']:.2f}x)",
            flush=True,
        )
    out = {"B": B, "group_size": group, "dtype": "float32", "device": device, "options": options,
           "calls_per_round": calls, "rounds": rounds, "rows": rows}  # fmt: skip
    if cuda:
        out["kernels_at_max_T"] = _kernel_profile(adv)
    return out


def _kernel_profile(fn, calls: int = 5) -> dict:
    """CUDA kernels per call and their summed device time (is the estimator launch- or memory-bound?)."""
    try:
        from torch.autograd import DeviceType
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
        kernels = [e for e in prof.events() if e.device_type == DeviceType.CUDA]
        device_us = sum(e.time_range.elapsed_us() for e in kernels)
        return {"kernels_per_call": len(kernels) / calls, "device_ms_per_call": device_us / 1e3 / calls}
    except Exception as exc:  # the profiler is a diagnostic; never lose the run over it
        return {"error": f"{type(exc).__name__}: {exc}"}
