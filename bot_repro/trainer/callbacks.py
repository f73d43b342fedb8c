"""Trainer callbacks: held-out evaluation and the one-line-per-step ``metrics.jsonl`` (what a run prints
is ``bot_repro.trainer.console``'s).

``metrics.jsonl`` is the run's primary record (plots read it, never wandb): one JSON object
per optimizer step with the names of docs/method.md §2 and §5, plus ``eval/<metric>`` keys on evaluation steps; step 0
holds the evaluation before training. ``time`` and ``step_seconds`` count training wall time
only: held-out evaluation is timed separately (``eval_seconds``) and left out, so time-to-threshold
compares algorithms, not evaluation schedules.

The record's keys and TRL's names for them are the run folder's (``bot_repro.run_folder.schema``),
and its writer writes the lines. Each record also gets the length ratio of the reward-hacking monitors
(``bot_repro.trainer.monitors``), and a monitor that crosses its threshold (``trainer.monitors.*`` of the
composed config) logs one WARNING line to the training log.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path
from typing import Any

import torch
from transformers import TrainerCallback

from bot_repro import ranks
from bot_repro.config import MonitorCfg
from bot_repro.config_schema import build_options
from bot_repro.models import sampling
from bot_repro.run_folder import append_metrics, read_metrics
from bot_repro.run_folder.schema import BATCH_KEYS, PASSTHROUGH_PREFIXES, RENAME, WEIGHT_DELTA
from bot_repro.trainer.monitors import StepMonitors

log = logging.getLogger(__name__)


def _wandb_run():
    """The active wandb run, if wandb is imported and initialised (never imports it)."""
    import sys

    wandb = sys.modules.get("wandb")
    return getattr(wandb, "run", None) if wandb is not None else None


def _clean(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


class MetricsJsonl(TrainerCallback):
    """Appends one line per logged step; the eval callback drops its results into ``pending``.

    When a wandb run is active, each record (eval keys included) and the composed Hydra config are
    mirrored to it, so ``bot_repro.analysis.wandb_export`` rebuilds the same table from online runs.
    """

    def __init__(self, path: Path, counter, start_time: float | None = None, config: dict | None = None,
                 drift=None):
        """``counter``: the trainer, read for ``generated_tokens``; ``config``: the composed config (its
        ``trainer.monitors`` thresholds, validated with the rest by ``bot_repro.config.validate``); ``drift``:
        the trainer's ``PolicyDrift`` (None: not measured)."""
        self.path = Path(path)
        self.counter = counter
        self.drift = drift
        self.config = config
        section = ((config or {}).get("trainer") or {}).get("monitors")
        self.monitors = StepMonitors(build_options(MonitorCfg, section, "trainer.monitors"))
        self.start = start_time or time.time()
        self.pending: dict[str, float] = {}
        self.last: dict[str, Any] | None = None  # the record written last (the console's step line reads it)
        self.eval_seconds = 0.0  # total time spent in held-out evaluation
        self._last_time = None
        self._last_eval = 0.0
        self._last_tokens = 0

    def write(self, record: dict[str, Any]) -> None:
        if not ranks.is_main():  # one writer per run: the other ranks' records are rank 0's
            return
        record = {k: _clean(v) for k, v in record.items()}  # non-finite -> null: the file stays strict JSON
        append_metrics(self.path, [record])
        self.last = record
        run = _wandb_run()
        if run is not None:
            run.log({k: v for k, v in record.items() if v is not None})

    def start_record(self) -> dict[str, Any]:
        """Step 0's record before its evaluation's keys: the x-axes, and the policy's distance from its start
        as measured when training began (0: the weights are the start's)."""
        rec: dict[str, Any] = {"step": 0, "time": 0.0, "generated_tokens": 0}
        if self.drift is not None:
            rec[WEIGHT_DELTA] = self.drift.last
        return rec

    def on_train_begin(self, args, state, control, **kw):
        run = _wandb_run()
        if run is not None and self.config is not None:
            run.config.update({"bot_repro": self.config}, allow_val_change=True)
        if state.global_step == 0:  # a resumed run keeps the clock restored by ResumeState
            self.start = time.time()
        elif ranks.is_main() and self.path.is_file():  # the length reference is the first attempt's
            self.monitors.resume(read_metrics(self.path))
        self._last_time, self._last_eval = time.time(), self.eval_seconds
        self._last_tokens = self.counter.generated_tokens

    def on_log(self, args, state, control, logs=None, **kw):
        if not state.is_world_process_zero or logs is None or "train_runtime" in logs:
            return
        now = time.time()
        tokens = self.counter.generated_tokens
        step_s = now - (self._last_time or now) - (self.eval_seconds - self._last_eval)
        rec: dict[str, Any] = {"step": state.global_step, "time": round(now - self.start - self.eval_seconds, 3)}
        for src, dst in RENAME.items():
            if src in logs:
                rec[dst] = logs[src]
        for key in BATCH_KEYS:
            if key in logs:
                rec[key] = logs[key]
        for key, val in logs.items():
            if key.startswith(PASSTHROUGH_PREFIXES) and not key.endswith("/std"):
                rec[key] = val
        rec["generated_tokens"] = tokens
        rec["step_seconds"] = round(step_s, 4)
        rec["eval_seconds"] = round(self.eval_seconds, 3)
        rec["tokens_per_s"] = (tokens - self._last_tokens) / step_s if step_s > 0 else None
        extra, warnings = self.monitors.observe(rec)
        rec.update(extra)
        rec.update(self.pending)
        self.pending.clear()
        self.write(rec)
        for line in warnings:
            log.warning(line)
        self._last_time, self._last_tokens, self._last_eval = time.time(), tokens, self.eval_seconds


class HeldOutEval(TrainerCallback):
    """Samples ``n_samples`` completions per held-out prompt and asks the task for its metrics: with
    ``sampler(model, prompts, n, temperature, max_new_tokens)`` when the run has one (its colocated vLLM,
    ``vllm_engine.EngineSampler``, or ``trainer.sampler: shared_prefix``, ``SharedPrefixSampler``), else with
    transformers ``generate`` (``eval.batch_size`` rows at a time)."""

    def __init__(self, task, rows, tokenizer, eval_cfg, max_new_tokens, chat_kwargs, out_dir, metrics, sampler=None):
        self.task, self.rows, self.tok, self.cfg = task, rows, tokenizer, eval_cfg
        self.max_new_tokens = max_new_tokens
        self.chat_kwargs = chat_kwargs
        self.out_dir = Path(out_dir)
        self.metrics = metrics
        self.sampler = sampler

    def due(self, step: int, max_steps: int) -> bool:
        return self.cfg.every > 0 and (step % self.cfg.every == 0 or step == max_steps)

    def run(self, model, step: int) -> dict[str, float]:
        t0 = time.time()
        try:
            return self._run(model, step)
        finally:
            self.metrics.eval_seconds += time.time() - t0

    def _run(self, model, step: int) -> dict[str, float]:
        rows = self.rows[: self.cfg.max_prompts] if self.cfg.max_prompts else self.rows
        if self.sampler is not None:
            completions = self.sampler(model, render(self.tok, rows, self.chat_kwargs), self.cfg.n_samples,
                                       self.cfg.temperature, self.max_new_tokens)
        else:
            completions = generate(model, self.tok, rows, self.cfg, self.max_new_tokens, self.chat_kwargs)
        result = self.task.evaluate_and_save(completions, rows, self.out_dir / f"step_{step:06d}")
        return {f"eval/{k}": float(v) for k, v in result.items()}

    def on_train_begin(self, args, state, control, model=None, **kw):
        if state.global_step == 0 and self.cfg.every > 0 and state.is_world_process_zero:
            result = self.run(model, 0)
            self.metrics.write({**self.metrics.start_record(), **result})

    def on_step_end(self, args, state, control, model=None, **kw):
        if state.is_world_process_zero and self.due(state.global_step, state.max_steps):
            self.metrics.pending.update(self.run(model, state.global_step))


def render(tok, rows, chat_kwargs: dict) -> list[str]:
    """Each row's prompt as the model reads it (its chat template, or the plain format's)."""
    return [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True, **chat_kwargs) for r in rows]


@torch.no_grad()
def generate(model, tok, rows, cfg, max_new_tokens: int, chat_kwargs: dict) -> list[list[str]]:
    """n sampled completions per row with transformers ``generate``, decoded without special tokens (as the
    trainer sees them)."""
    was_training = model.training
    model.eval()
    prompts = render(tok, rows, chat_kwargs)
    per_call = max(1, cfg.batch_size // cfg.n_samples)
    out: list[list[str]] = []
    old_side = tok.padding_side
    tok.padding_side = "left"
    try:
        for i in range(0, len(prompts), per_call):
            enc = tok(prompts[i : i + per_call], return_tensors="pt", padding=True, add_special_tokens=False)
            enc = {k: v.to(model.device) for k, v in enc.items()}
            gen = model.generate(
                **enc,
                do_sample=True,
                temperature=cfg.temperature,
                max_new_tokens=max_new_tokens,
                num_return_sequences=cfg.n_samples,
                pad_token_id=tok.pad_token_id,
            )
            texts = tok.batch_decode(gen[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
            out += [texts[j : j + cfg.n_samples] for j in range(0, len(texts), cfg.n_samples)]
    finally:
        tok.padding_side = old_side
        model.train(was_training)
    return out


class SharedPrefixSampler:
    """Held-out samples from ``bot_repro.models.sampling`` (``trainer.sampler: shared_prefix``): every
    prompt's n samples share its prefill, ``rows`` decoded at once (``eval.batch_size``), in eval mode,
    from torch's global generator (as ``generate``'s)."""

    def __init__(self, tokenizer, eos_token_ids: list[int], rows: int):
        self.tok, self.eos, self.rows = tokenizer, eos_token_ids, rows

    @torch.no_grad()
    def __call__(self, model, prompts: list[str], n: int, temperature: float, max_new_tokens: int) -> list[list[str]]:
        was_training = model.training
        model.eval()
        try:
            ids = [self.tok(p, add_special_tokens=False).input_ids for p in prompts for _ in range(n)]
            out = sampling.sample(model, ids, max_new_tokens, temperature, self.eos, self.tok.pad_token_id,
                                  max_rows=self.rows)
        finally:
            model.train(was_training)
        texts = self.tok.batch_decode(out, skip_special_tokens=True)
        return [texts[i : i + n] for i in range(0, len(texts), n)]
