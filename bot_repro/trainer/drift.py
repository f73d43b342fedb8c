"""How far the policy moved from where the run started (``policy/*`` in ``metrics.jsonl``; ``trainer.drift``).

``policy/weight_delta``, the relative L2 distance of the weights the model computes with from the run's
start, ||W - W_0|| / ||W_0||, summed in squares over the trained tensors. Full fine-tuning: every
trainable tensor. LoRA: each wrapped module's effective weight W + s B A (W frozen, s its scaling), so
the numerator is s ||B A - B_0 A_0|| and the denominator ||W + s B_0 A_0||: a fresh adapter (B_0 = 0)
has a meaningful one, and LoRA and full runs read on one scale. Other trainable tensors (a DoRA
magnitude, ``modules_to_save``) count as themselves. B A - B_0 A_0 = C D with C = [B, B - B_0] and
D = [A - A_0; A_0], so ||C D||^2 = sum((C^T C) * (D D^T)): 2r x 2r products in float64, never the
full matrix, and exactly 0 while nothing moved. Logged after each step's update (the weights the
step's held-out evaluation and checkpoint hold); step 0's record holds it too, measured: 0.

``policy/kl_start`` and ``policy/kl_start_k1``, KL(pi || pi_0) per completion token of the policy that
sampled the step's rollouts from the starting policy, estimated on those rollouts (Schulman's
estimators; with d = logp_0 - logp: k3 = exp(d) - d - 1 >= 0 and k1 = -d, both unbiased on samples of
pi), averaged over the tokens that train of the scored rollouts of every process (sums and counts reduced
over ranks, so every rank logs the same). A KL step (every ``trainer.drift.kl_every``) scores
``trainer.drift.kl_share`` of each process's rollouts, rounded up: the first rows with tokens that train
of its first micro-batches, which hold randomly drawn prompts (whole groups under ``trainer.shared_prefix``;
TRL's shuffled rows otherwise). logp is the loss's own, captured detached; logp_0 is one no-grad forward of the same rows
through the trainer's own logprob method with the start's trainable tensors swapped in
(``at_start``: the model's tensors and the loss's graph are untouched). Only rows
that the current weights sampled are scored (``num_iterations`` > 1 reuses rollouts: those steps log no
KL). While the weights equal the start (step 1, or learning rate 0) no forward runs and the KL is 0.
Its cost is ``policy/kl_seconds`` (the mean over processes); the distance's is ``policy/delta_seconds``.

The start is a CPU copy of the trainable tensors, taken when the trainer is built: before a resumed
run loads its checkpoint, from a model built from the run's starting point (the base model, the
starting adapter, a fresh adapter from the run's seed), so a resumed run measures from the run's start.
"""

from __future__ import annotations

import contextlib
import math
import re
import time
from collections.abc import Iterable

import torch
from torch import Tensor
from transformers import TrainerCallback

from bot_repro.config import DriftCfg
from bot_repro.run_folder.schema import DELTA_SECONDS, KL_K1, KL_K3, KL_SECONDS, WEIGHT_DELTA

# peft's factor names: <module>.lora_A.<adapter>.weight (linear, conv), <module>.lora_embedding_A.<adapter>
LORA_FACTOR = re.compile(r"^(?P<module>.+)\.lora_(?:embedding_)?(?P<ab>[AB])\.(?P<adapter>[^.]+)(?:\.weight)?$")


def snapshot(model) -> dict[str, Tensor]:
    """CPU copies of ``model``'s trainable tensors, by name."""
    return {name: p.detach().to("cpu", copy=True) for name, p in model.named_parameters() if p.requires_grad}


def split_lora(names: Iterable[str]) -> tuple[dict[tuple[str, str], dict[str, str]], list[str]]:
    """``({(module, adapter): {"A": name, "B": name}}, other names)``: LoRA factor pairs, and the rest
    (a factor whose other half is not among ``names`` included)."""
    pairs: dict[tuple[str, str], dict[str, str]] = {}
    other = []
    for name in names:
        m = LORA_FACTOR.match(name)
        if m:
            pairs.setdefault((m["module"], m["adapter"]), {})[m["ab"]] = name
        else:
            other.append(name)
    for key in [k for k, ab in pairs.items() if set(ab) != {"A", "B"}]:
        other += pairs.pop(key).values()
    return pairs, other


def low_rank_delta_sq(a: Tensor, b: Tensor, a0: Tensor, b0: Tensor) -> float:
    """||B A - B_0 A_0||_F^2 for A [r, ...] and B [m, r, ...] (trailing dimensions flattened), in float64,
    from 2r x 2r products (module docstring); 0.0 exactly when A = A_0 and B = B_0."""
    a, a0 = (t.detach().reshape(t.shape[0], -1).to("cpu", torch.float64) for t in (a, a0))
    b, b0 = (t.detach().reshape(t.shape[0], -1).to("cpu", torch.float64) for t in (b, b0))
    c = torch.cat([b, b - b0], dim=1)
    d = torch.cat([a - a0, a0], dim=0)
    return max(0.0, float(((c.T @ c) * (d @ d.T)).sum()))


def _norm_sq(t: Tensor) -> float:
    """||t||^2, reduced in float32 at least (one pass, no float64 copy of a full model's weights)."""
    return float(torch.linalg.vector_norm(t if t.dtype in (torch.float32, torch.float64) else t.float())) ** 2


def kl_terms(logp: Tensor, logp0: Tensor, mask: Tensor) -> Tensor:
    """float64 ``[sum of k3, sum of k1, tokens]`` over the tokens of ``mask`` (module docstring)."""
    d = (logp0.detach() - logp.detach()).double()[mask.bool()]
    return torch.stack([(torch.expm1(d) - d).sum(), (-d).sum(), d.new_tensor(float(d.numel()))])


@contextlib.contextmanager
def at_start(module, params: dict[str, Tensor]):
    """``module`` computing with its tensors named in ``params`` replaced by them, for the ``with`` block.
    Each parameter's ``.data`` is swapped, not written: a graph built before (the loss's, whose backward is
    still to come) keeps the tensors it saved, and every path through the module (TRL's forward, the shared
    prompt's, ``trainer.shared_prefix``) sees the start."""
    named = dict(module.named_parameters())
    saved = {name: named[name].data for name in params}
    try:
        for name, tensor in params.items():
            named[name].data = tensor.to(named[name].device, named[name].dtype)
        yield module
    finally:
        for name, tensor in saved.items():
            named[name].data = tensor


class PolicyDrift:
    """The start of one run and the two measures against it (module docstring)."""

    def __init__(self, model, cfg: DriftCfg):
        self.cfg = cfg
        self.start = snapshot(model)
        self.pairs, self.other = split_lora(self.start)
        self.scaling = {key: float(model.get_submodule(key[0]).scaling[key[1]]) for key in self.pairs}
        self.start_norm = math.sqrt(self._start_norm_sq(model))
        self.last = 0.0  # the distance last measured; the model is the start's when this is built
        self.kl = torch.zeros(4, dtype=torch.float64)  # this step on this process: k3, k1, tokens, seconds
        self.kl_rows = 0  # rows scored this step on this process

    def _start_norm_sq(self, model) -> float:
        total = sum(_norm_sq(self.start[n]) for n in self.other)
        with torch.no_grad():
            for module, adapter in self.pairs:
                layer = model.get_submodule(module)  # W + s B_0 A_0, as peft merges it
                weight = layer.get_base_layer().weight + layer.get_delta_weight(adapter)
                total += _norm_sq(weight)
        return total

    def weight_delta(self, model) -> float:
        """||W - W_0|| / ||W_0|| of ``model`` now (module docstring); also kept as ``last``."""
        params = dict(model.named_parameters())
        total = 0.0
        with torch.no_grad():
            for name in self.other:  # the difference of nearby floats is exact; 0.0 when nothing moved
                total += _norm_sq(params[name].detach().cpu() - self.start[name])
            for key, ab in self.pairs.items():
                a, b = params[ab["A"]], params[ab["B"]]
                total += self.scaling[key] ** 2 * low_rank_delta_sq(a, b, self.start[ab["A"]], self.start[ab["B"]])
        self.last = math.sqrt(total) / self.start_norm if self.start_norm > 0 else math.sqrt(total)
        return self.last

    def kl_due(self, step: int) -> bool:
        """Whether step ``step`` (1-based) measures the KL."""
        return self.cfg.kl_every > 0 and step % self.cfg.kl_every == 0

    def rows_left(self, rollouts: int) -> int:
        """Rows this process may still score this step, of its ``rollouts``: ``kl_share`` of them, rounded up."""
        return max(0, math.ceil(self.cfg.kl_share * rollouts - 1e-9) - self.kl_rows)


class DriftLog(TrainerCallback):
    """Measures the distance at the start of training and after each update, and logs the step's KL
    (reduced over processes) into the trainer's ``_metrics``, which TRL averages into the step's record."""

    def __init__(self, trainer):
        self.trainer = trainer

    def on_train_begin(self, args, state, control, model=None, **kw):
        self.trainer.drift.weight_delta(self.trainer.model)  # after a resumed run's checkpoint loaded

    def on_step_end(self, args, state, control, **kw):
        tr, drift = self.trainer, self.trainer.drift
        t0 = time.perf_counter()
        values = {WEIGHT_DELTA: drift.weight_delta(tr.model)}
        values[DELTA_SECONDS] = time.perf_counter() - t0
        if drift.kl_due(state.global_step) and tr.sampled_at == state.global_step - 1:  # the same on every rank
            totals = tr.accelerator.reduce(drift.kl.to(tr.accelerator.device), reduction="sum").cpu()
            if totals[2] > 0:
                values.update({KL_K3: float(totals[0] / totals[2]), KL_K1: float(totals[1] / totals[2]),
                               KL_SECONDS: float(totals[3]) / tr.accelerator.num_processes})
        drift.kl.zero_()
        drift.kl_rows = 0
        for key, value in values.items():
            tr._metrics["train"][key].append(value)
