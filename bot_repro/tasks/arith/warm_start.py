"""The starting adapter that ships (#44): supervised LoRA fine-tuning of a real model on arith problems
with their reference step solutions, so that a prompt with no worked examples (system prompt and
problem: ``task.params.shots=0``) writes the step format.

The data: problems of the adapter's level from ``data.make_problems`` at their own seed
(``SftSpec.data_seed``), with every problem whose arithmetic (its reference steps: the same numbers
under any name) is that of one of the first ``STUDY_PREFIX`` problems of a study seed (``STUDY_SEEDS``)
at either level dropped, so no training, held-out or worked-example problem of a study run (all of
them among the front rows of the seed-0 sequence: ``data.split_problems``; at n_train 256, n_test up
to 128 and shots up to 4 the last one used is row 431) is in it, nor its numbers under another name. Each example is the run's own prompt (the task's system prompt and the problem,
rendered by the tokenizer's template as training renders it) and the reference solution
(``solution_text``) plus the end-of-sequence token; the loss is on the solution's tokens only.

The training: a LoRA adapter (``SftSpec.r``, ``alpha``, every linear layer of the decoder) on the frozen
model, AdamW at a constant learning rate, ``batch`` new examples per step in the data's order (no
example twice), so the adapter after ``k`` steps of a longer build is the build of ``k`` steps
(``snapshots``: the training-length probe saves them on the way). Deterministic on one machine:
torch seeded before the adapter's initialisation, no dropout, a fixed thread count and deterministic
kernels (``bot_repro.tasks.mini.warm_start.deterministic_torch``). The adapter is saved with peft's
``save_pretrained`` into ``bot_repro/models/adapters/<name>/``; its hash is the sha256 of
``adapter_model.safetensors`` (``bot_repro.models.lora.adapter_hash``, which every run checks).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from bot_repro.models.lora import adapter_hash
from bot_repro.tasks.arith.data import LEVELS, arithmetic_key, make_problems
from bot_repro.tasks.arith.task import solution_text
from bot_repro.tasks.mini.warm_start import deterministic_torch

STUDY_SEEDS = (0,)  # task.params.seed of every arith experiment (conf/task/arith.yaml's default)
STUDY_PREFIX = 1024  # rows from the front of a study seed's sequence: every row of n_train 256, n_test <= 128, shots <= 4


@dataclass(frozen=True)
class SftSpec:
    """What one adapter is built from (recorded whole in its ``adapter.json``)."""

    model: str  # conf/model name (the GGUF-converted real model)
    level: str  # arith level of the data and of the step-0 evaluation
    steps: int
    batch: int = 8
    lr: float = 3e-4
    r: int = 4
    alpha: int = 8
    data_seed: int = 44  # the SFT problems' generator seed (any seed: study problems are filtered out)
    seed: int = 0  # torch: the adapter's initialisation
    threads: int = 1

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level={self.level!r} is unknown; allowed: {', '.join(LEVELS)}")
        if min(self.steps, self.batch, self.r) < 1:
            raise ValueError(f"steps={self.steps}, batch={self.batch} and r={self.r} must be >= 1")


# The adapters that ship (bot_repro/models/adapters/<name>/, built by `make warm-start ARGS="--adapter <name>
# --ship"`); each length is the training-length probe's choice (results/adapter_probe/, docs/real_model.md).
SPECS = {
    "smollm2_135m-arith-two_step": SftSpec(model="smollm2_135m", level="two_step", steps=40),
    "gemma3_270m-arith-two_step": SftSpec(model="gemma3_270m", level="two_step", steps=20),
}


def study_keys(seeds: tuple[int, ...] = STUDY_SEEDS, prefix: int = STUDY_PREFIX) -> set[tuple[str, ...]]:
    """The arithmetic of every problem a study run can see: the first ``prefix`` rows of each study
    seed at each level (a run's train, held-out and worked-example rows are among them)."""
    return {arithmetic_key(r) for seed in seeds for level in LEVELS for r in make_problems(prefix, seed, "study", level)}


def sft_problems(spec: SftSpec) -> list[dict[str, Any]]:
    """The ``steps x batch`` SFT problems, in training order: the ``data_seed`` sequence less every
    problem whose arithmetic a study problem shares. A longer build's list starts with a shorter one's."""
    need, excluded = spec.steps * spec.batch, study_keys()
    n = 2 * need
    while True:  # make_problems(n) is a prefix of make_problems(m > n): grow until enough survive
        kept = [r for r in make_problems(n, spec.data_seed, "sft", spec.level) if arithmetic_key(r) not in excluded]
        if len(kept) >= need:
            return kept[:need]
        n *= 2


def _examples(tok, task, rows) -> list[tuple[list[int], list[int]]]:
    """(prompt ids, solution ids + eos) per row: the task's own prompt with no worked examples."""
    out = []
    for row in rows:
        prompt = tok.apply_chat_template(task.prompt_messages(row), tokenize=False, add_generation_prompt=True)
        target = tok(solution_text(row), add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
        out.append((tok(prompt, add_special_tokens=False)["input_ids"], target))
    return out


def _batch(pairs, pad_id: int) -> dict[str, torch.Tensor]:
    width = max(len(a) + len(b) for a, b in pairs)
    ids = torch.full((len(pairs), width), pad_id)
    labels = torch.full((len(pairs), width), -100)
    att = torch.zeros((len(pairs), width), dtype=torch.long)
    for i, (a, b) in enumerate(pairs):  # right padding: positions stay those of the unpadded example
        ids[i, : len(a) + len(b)] = torch.tensor(a + b)
        labels[i, len(a) : len(a) + len(b)] = torch.tensor(b)
        att[i, : len(a) + len(b)] = 1
    return {"input_ids": ids, "attention_mask": att, "labels": labels}


def lora_model(model, spec: SftSpec):
    """``model`` with a fresh LoRA adapter on every linear layer of the decoder (seeded by the caller)."""
    from peft import LoraConfig, get_peft_model

    config = LoraConfig(r=spec.r, lora_alpha=spec.alpha, lora_dropout=0.0, target_modules="all-linear",
                        task_type="CAUSAL_LM")
    return get_peft_model(model, config)


def build_adapter(model_dir: Path | str, tok, task, spec: SftSpec, out: Path | str,
                  snapshots: tuple[int, ...] = (), log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train ``spec``'s adapter over the model in ``model_dir`` (``tok``: its tokenizer, prompt format
    applied; ``task``: an ArithTask whose ``prompt_messages`` gives the run's prompt) and save it to
    ``out``; ``snapshots``: step counts whose adapter is also saved, to ``out/step<k>``. Returns what
    ``adapter.json`` records of the build (the caller adds the hardware and the step-0 numbers)."""
    from transformers import AutoModelForCausalLM

    with deterministic_torch(spec.threads):
        torch.manual_seed(spec.seed)
        rows = sft_problems(spec)
        model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        model = lora_model(model, spec)
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        opt = torch.optim.AdamW(params, lr=spec.lr)
        pairs, start, history = _examples(tok, task, rows), time.time(), []
        for step in range(1, spec.steps + 1):
            loss = model(**_batch(pairs[(step - 1) * spec.batch : step * spec.batch], tok.pad_token_id)).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            history.append(round(float(loss.detach()), 4))
            if step in snapshots:
                model.save_pretrained(Path(out) / f"step{step}")
            if step % 10 == 0 or step == spec.steps:
                log(f"adapter: step {step}/{spec.steps} loss {history[-1]:.4f} ({time.time() - start:.0f} s)")
        model.save_pretrained(out)
        seconds = round(time.time() - start, 1)
    return {"hash": adapter_hash(out), "spec": asdict(spec), "trainable_params": sum(p.numel() for p in params),
            "n_problems": len(rows), "seconds": seconds, "loss": history, "deterministic_algorithms": True}
