"""What one training run prints while it trains: one readable line per step, never TRL's raw dictionaries.

transformers' ``PrinterCallback`` (and ``ProgressCallback`` under a progress bar) print every logged
dictionary, some 50 keys a step; those values are ``metrics.jsonl``'s (``MetricsJsonl``). ``install``
takes both out. A single run then prints ``StepLines``: a few key values of each step's record, e.g.
``step 3/20  reward 0.410  loss 0.0123  kl 0.00100  zero-std groups 0.250  weight delta 0.00123  kl start
4.50e-05  3.2 s`` (the last two: how far the policy moved from its start, ``bot_repro.trainer.drift``), plus a ``held-out``
line at each evaluation (step 0 included), under TRL's step bar on a terminal (``logger.progress_bar``).
A sweep's job (``python -m bot_repro.train -m``, which every experiment runs) prints none of these:
its steps are in its ``metrics.jsonl`` and the experiment's own bar counts them. The libraries' own bars
(a checkpoint's "Writing model shards", a GGUF conversion, a download) go too: from training on in a
single run (its download still shows), from the start in a sweep's job (``hide_library_bars``).
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm.auto import tqdm
from transformers import PrinterCallback, ProgressCallback
from transformers.utils import logging as hf_logging

# (metrics.jsonl key, label): the values a step line shows, in this order, when the record has them
SHOWN = (("reward_mean", "reward"), ("loss", "loss"), ("kl", "kl"), ("frac_zero_std_groups", "zero-std groups"),
         ("policy/weight_delta", "weight delta"), ("policy/kl_start", "kl start"))
EVAL_PREFIX = "eval/"


def number(value: Any) -> str:
    """Three significant digits, trailing zeros kept (as the reports print numbers); ``n/a`` when missing."""
    return "n/a" if value is None else f"{float(value):#.3g}".rstrip(".")


def step_line(record: dict[str, Any], max_steps: int) -> str:
    """One step's line from its ``metrics.jsonl`` record."""
    parts = [f"step {record['step']}/{max_steps}"]
    parts += [f"{label} {number(record[key])}" for key, label in SHOWN if key in record]
    if record.get("step_seconds") is not None:
        parts.append(f"{record['step_seconds']:.1f} s")
    return "  ".join(parts)


def held_out_line(record: dict[str, Any]) -> str | None:
    """The held-out evaluation in ``record`` as one line; None when the step has none."""
    shown = [f"{k.removeprefix(EVAL_PREFIX)} {number(v)}" for k, v in record.items() if k.startswith(EVAL_PREFIX)]
    return f"step {record['step']} held-out: {', '.join(shown)}" if shown else None


class StepLines(ProgressCallback):
    """A line per step from the record ``metrics`` (a ``MetricsJsonl`` added before this callback) has
    just written; TRL's bar over the run's steps only when ``bar`` and on a terminal (in a log, its
    redraws would sit between the lines). Lines go through ``tqdm.write`` so a bar stays below them."""

    def __init__(self, metrics, bar: bool):
        super().__init__()
        self.metrics, self.bar = metrics, bar and sys.stderr.isatty()
        self.shown = -1  # the last step written: the end-of-training log repeats the last record

    def _write(self, record: dict[str, Any] | None, max_steps: int, step: bool) -> None:
        if record is None:
            return
        if step:
            tqdm.write(step_line(record, max_steps))
        held_out = held_out_line(record)
        if held_out is not None:
            tqdm.write(held_out)

    def on_train_begin(self, args, state, control, **kw):
        if self.bar:
            super().on_train_begin(args, state, control, **kw)
        if state.is_world_process_zero and state.global_step == 0:  # the evaluation before training
            self._write(self.metrics.last, state.max_steps, step=False)

    def on_step_end(self, args, state, control, **kw):
        if self.bar:
            super().on_step_end(args, state, control, **kw)

    def on_log(self, args, state, control, logs=None, **kw):
        record = self.metrics.last
        if state.is_world_process_zero and record is not None and record["step"] == state.global_step > self.shown:
            self._write(record, state.max_steps, step=True)
            self.shown = state.global_step

    def on_train_end(self, args, state, control, **kw):
        if self.bar:
            super().on_train_end(args, state, control, **kw)


def hide_library_bars() -> None:
    """transformers' and the Hub's progress bars off, for the rest of this process."""
    hf_logging.disable_progress_bar()


def install(trainer, metrics, step_lines: bool, bar: bool) -> None:
    """Replace transformers' dictionary printers on ``trainer`` by ``StepLines`` (``step_lines``), or by
    nothing (a sweep's job). Called after ``metrics`` is added, so its record is written first."""
    hide_library_bars()  # the model is loaded: what is left is a bar per checkpoint
    for printer in (PrinterCallback, ProgressCallback):
        trainer.remove_callback(printer)
    if step_lines:
        trainer.add_callback(StepLines(metrics, bar))
