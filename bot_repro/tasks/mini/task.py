"""The mini task (``task=mini``): prompts, split, evaluation and the supervised warm start.

Documents are random tag prefixes (``<a><b></b><c>``) drawn from a seeded generator; the
held-out metric is ``success_rate`` (the completion closes exactly what is open). A tiny random
policy never succeeds, so ``warm_start`` fine-tunes it on noisy demonstrations (``warm_start.py``)
into a weak, broad policy and caches the result. ``warm_start_noise`` sets where it lands: with the
defaults, held-out success about 0.3 at step 0 and pass@8 about 0.9 (the study wants 0.25-0.40 and
pass@8 above its 0.8 threshold).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.tasks.base import TASKS, Task
from bot_repro.tasks.mini.checker import check, solution
from bot_repro.tasks.mini.shipped import shipped_policy
from bot_repro.tasks.mini.warm_start import sample_completions, supervised_warm_start
from bot_repro.tasks.passk import mean_pass_at_k

SYSTEM = "Close every open tag of the document, innermost first. Answer with the closing tags only."


@dataclass
class MiniParams:
    n_train: int = 2000
    n_test: int = 64
    tags: str = "abcdef"
    min_open: int = 2  # elements left open
    max_open: int = 3
    max_closed: int = 2  # already-closed elements mixed into the prefix
    seed: int = 1234  # data seed (independent of the run seed: all runs see the same prompts)
    warm_start: bool = True
    warm_start_steps: int = 600
    warm_start_noise: float = 0.65  # share of demonstrations with one mistake
    warm_start_lr: float = 1.0e-3
    warm_start_decay_steps: int = 200  # linear decay to 0 over the last steps
    warm_start_eval_every: int = 50
    warm_start_val: int = 64  # training prompts the progress lines sample (never trained on)
    warm_start_seed: int = 0  # one warm-started policy shared by every run seed, like a base model
    warm_start_threads: int = 1  # torch threads during the warm start (fixed: the policy must not depend on the machine)
    warm_start_source: str = "shipped"  # shipped: the policy in the package when one matches (shipped.py); build: train it here


WARM_START_SOURCES = ("shipped", "build")


def make_document(rng: random.Random, p: MiniParams) -> str:
    n_open = rng.randint(p.min_open, p.max_open)
    n_closed = rng.randint(0, p.max_closed)
    parts: list[str] = []
    for depth in range(n_open):
        parts.append(f"<{rng.choice(p.tags)}>")
        if n_closed and (depth == n_open - 1 or rng.random() < 0.5):
            name = rng.choice(p.tags)
            parts.append(f"<{name}></{name}>")
            n_closed -= 1
    return "".join(parts)


def make_row(document: str, idx: str) -> dict[str, Any]:
    return {
        "id": idx,
        "document": document,
        "prompt": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": document}],
    }


class MiniTask(Task):
    name = "mini"

    def __init__(self, params: dict[str, Any], model_cfg: dict[str, Any]):
        self.p = build_options(MiniParams, params, "task.params (mini)")
        if not 0.0 <= self.p.warm_start_noise < 1.0:
            raise ConfigError(f"task.params.warm_start_noise={self.p.warm_start_noise} must be in [0, 1)")
        if not 0 <= self.p.warm_start_decay_steps <= self.p.warm_start_steps:
            raise ConfigError(f"task.params.warm_start_decay_steps={self.p.warm_start_decay_steps} must be in "
                              f"[0, warm_start_steps={self.p.warm_start_steps}]")
        if self.p.warm_start_source not in WARM_START_SOURCES:
            raise ConfigError(f"task.params.warm_start_source={self.p.warm_start_source!r}; allowed: {', '.join(WARM_START_SOURCES)}")
        if self.p.min_open < 1 or self.p.max_open < self.p.min_open:
            raise ConfigError(f"task.params min_open={self.p.min_open}, max_open={self.p.max_open}: "
                              "need 1 <= min_open <= max_open")
        self.model_cfg = model_cfg

    def datasets(self) -> tuple[list[dict], list[dict]]:
        rng = random.Random(self.p.seed)
        seen: set[str] = set()
        docs: list[str] = []
        budget = 50 * (self.p.n_train + self.p.n_test)
        while len(docs) < self.p.n_train + self.p.n_test and budget:
            budget -= 1
            d = make_document(rng, self.p)
            if d not in seen:
                seen.add(d)
                docs.append(d)
        test = [make_row(d, f"mini-test-{i}") for i, d in enumerate(docs[: self.p.n_test])]
        train = [make_row(d, f"mini-train-{i}") for i, d in enumerate(docs[self.p.n_test :])]
        return train, test

    def evaluate(self, completions: list[list[str]], rows: list[dict]) -> dict[str, float]:
        """success_rate, empty_rate and pass@k (unbiased, docs/method.md §5) for k in 1, 2, 4, 8 up to the
        fewest samples any prompt has (``trainer.eval.n_samples``)."""
        flags = [[check(r["document"], c).success for c in cs] for r, cs in zip(rows, completions)]
        ok = [f for fs in flags for f in fs]
        lengths = [len(c) for cs in completions for c in cs]
        out = {
            "success_rate": sum(ok) / max(1, len(ok)),
            "empty_rate": sum(1 for n in lengths if n == 0) / max(1, len(lengths)),
        }
        n_min = min((len(fs) for fs in flags), default=0)
        if n_min:
            out.update(mean_pass_at_k(flags, [k for k in (1, 2, 4, 8) if k <= n_min]))
        return out

    def held_out_check(self, model_dir: Path, n_samples: int = 8, max_new_tokens: int = 16, seed: int = 0) -> dict:
        """Step 0 of a policy without a training run: ``evaluate`` on the held-out rows with
        ``n_samples`` samples each (the mini trainer's eval: 8 samples, 16 tokens, temperature 1),
        plus ``identical_group_share``, the share of prompts whose samples all succeed or all fail
        (what step 1's groups of that size see, estimated on the held-out prompts)."""
        torch.manual_seed(seed)
        tok = AutoTokenizer.from_pretrained(model_dir)
        model = AutoModelForCausalLM.from_pretrained(model_dir)
        _, test = self.datasets()
        completions = sample_completions(model, tok, test, n_samples, max_new_tokens)
        out = self.evaluate(completions, test)
        flags = [{check(r["document"], c).success for c in cs} for r, cs in zip(test, completions)]
        out["identical_group_share"] = sum(len(f) == 1 for f in flags) / max(1, len(flags))
        return out

    def tokenizer_corpus(self) -> list[str]:
        """Texts the tiny tokenizer is trained on: documents, solutions and the prompt words."""
        train, test = self.datasets()
        docs = [r["document"] for r in train[:500]]
        return [SYSTEM] + docs + [solution(d) for d in docs]

    def warm_start_key(self, model_dir: Path) -> str:
        """The warm start's name: a hash of the tiny model's build name (its corpus and sizes) and
        every task parameter but ``warm_start_source``; the same on every machine and checkout path."""
        params = {k: v for k, v in self.p.__dict__.items() if k != "warm_start_source"}
        key = json.dumps([Path(model_dir).name, params], sort_keys=True, default=str)
        return "mini-" + hashlib.sha256(key.encode()).hexdigest()[:16]

    def warm_start(self, model_dir: Path, cache: Path, seed: int, progress=None) -> Path:
        """The shipped policy for this config (``warm_start_source=shipped`` and one ships), else the
        warm start trained here and cached under ``cache``."""
        if not self.p.warm_start:
            return Path(model_dir)
        key = self.warm_start_key(model_dir)
        if self.p.warm_start_source == "shipped" and (path := shipped_policy(key)) is not None:
            return path
        out = Path(cache) / key  # built once per machine (bot_repro.cache.build_once: lock, marker, rename)
        train, _ = self.datasets()
        supervised_warm_start(model_dir, out, train, self.p, self.p.warm_start_seed, progress)
        return out


@TASKS.register("mini")
def build_mini(task_cfg: dict[str, Any], model_cfg: dict[str, Any]) -> MiniTask:
    return MiniTask(task_cfg, model_cfg)
