"""Supervised warm start of the mini task's tiny policy: a weak but broad base model.

A random tiny policy never succeeds, so RL starts from a fine-tuned one. Trained on correct
completions only, the policy learns the task in one abrupt jump (held-out success 0.02 -> 0.6 within
~20 steps) and comes out sharp and bimodal wherever it is stopped: some prompts always solved,
others never, so GRPO can only sharpen what it already solves. Instead the warm start imitates
*noisy demonstrations*: a fraction ``warm_start_noise`` of the targets carries one realistic
mistake (``corrupt``: stopping early, a wrong closer name, two closers swapped, an extra closer).
The policy then makes those mistakes on every prompt at about that rate, so its success is spread
across prompts (held-out pass@8 well above its success), each mistake is located in the text, and
RL has something to learn everywhere, like the paper's base models (docs/method.md §7).

It trains a fixed number of steps (``warm_start_steps``; the lr is constant, then decays linearly
to zero over the last ``warm_start_decay_steps`` so the end point is not the last batch's noise), so
no sampled check decides where the policy ends.

Reproducible: the policy is a deterministic function of the config. Torch and the batch / noise
samplers are seeded, it runs on a fixed number of torch threads (``warm_start_threads``; CPU
reductions split across threads round differently) with deterministic algorithms on, and the
caller's settings are restored after. Every ``warm_start_eval_every`` steps it prints one line
(step, loss, sampled success on ``warm_start_val`` training prompts, never the held-out ones) and
calls ``progress(step, total)`` every step (the demo's bar). ``warm_start.json`` records the
steps, the sampled success and ``policy_hash`` (``bot_repro.models.fingerprint``).
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.cache import build_once
from bot_repro.models.fingerprint import policy_hash
from bot_repro.tasks.mini.checker import check, open_stack

MISTAKES = ("stop", "name", "swap", "extra")


def corrupt(document: str, rng: random.Random, tags: str) -> tuple[str, str]:
    """The correct completion of ``document`` with one mistake drawn from ``MISTAKES``: (text, kind).
    ``stop`` drops the last closers (possibly all: an empty answer), ``name`` renames one closer,
    ``swap`` exchanges two adjacent closers of different names, ``extra`` appends a closer. A ``swap``
    with no two different neighbours becomes ``name``, so every result is a failure."""
    names = list(reversed(open_stack(document)))
    kind = rng.choice(MISTAKES)
    pairs = [i for i in range(len(names) - 1) if names[i] != names[i + 1]]
    if kind == "swap" and not pairs:
        kind = "name"
    if kind == "stop":
        names = names[: rng.randrange(len(names))]
    elif kind == "name":
        i = rng.randrange(len(names))
        names[i] = rng.choice([t for t in tags if t != names[i]])
    elif kind == "swap":
        i = rng.choice(pairs)
        names[i], names[i + 1] = names[i + 1], names[i]
    else:
        names.append(rng.choice(tags))
    return "".join(f"</{n}>" for n in names), kind


def demonstration(document: str, rng: random.Random, noise: float, tags: str) -> str:
    """The target text for one supervised example: correct with probability 1 - ``noise``."""
    if rng.random() < noise:
        return corrupt(document, rng, tags)[0]
    return "".join(f"</{n}>" for n in reversed(open_stack(document)))


def _prompt_ids(tok, row) -> list[int]:
    prompt = tok.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
    return tok(prompt, add_special_tokens=False)["input_ids"]


@torch.no_grad()
def sample_completions(model, tok, rows, n: int = 4, max_new_tokens: int = 24) -> list[list[str]]:
    """``n`` completions per row, sampled at temperature 1 (the model is left in train mode)."""
    model.eval()
    tok.padding_side = "left"
    prompts = [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True) for r in rows]
    enc = tok(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
    out = model.generate(
        **enc, do_sample=True, temperature=1.0, max_new_tokens=max_new_tokens, num_return_sequences=n,
        pad_token_id=tok.pad_token_id,
    )
    texts = tok.batch_decode(out[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
    model.train()
    return [texts[i * n : (i + 1) * n] for i in range(len(rows))]


def sampled_success(model, tok, rows, n: int = 4, max_new_tokens: int = 24) -> float:
    ok = [check(r["document"], t).success for r, ts in zip(rows, sample_completions(model, tok, rows, n, max_new_tokens))
          for t in ts]
    return sum(ok) / len(ok)


@contextlib.contextmanager
def deterministic_torch(threads: int):
    """Fixed torch thread count and deterministic kernels inside, the caller's settings restored after."""
    old_threads = torch.get_num_threads()
    old_det, old_warn = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(old_det, warn_only=old_warn)
        torch.set_num_threads(old_threads)


def supervised_warm_start(model_dir, out_dir, train, p, seed: int,
                          progress: Callable[[int, int], None] | None = None) -> dict:
    """Fine-tune ``model_dir`` on noisy demonstrations of ``train`` rows (``p``: the task's
    ``MiniParams``) and save it to ``out_dir``; return what ``warm_start.json`` records."""
    def build(folder: Path) -> None:  # once per machine, under bot_repro.cache's lock
        with deterministic_torch(int(p.warm_start_threads)):
            _warm_start(model_dir, folder, train, p, seed, progress)

    return json.loads((build_once(out_dir, build) / "warm_start.json").read_text())


def _lr_factor(step: int, total: int, decay: int) -> float:
    """1 until the last ``decay`` steps, then linearly down to 0 at ``total`` (step counts from 0)."""
    return 1.0 if step < total - decay else (total - step) / max(1, decay)


def _warm_start(model_dir, out_dir, train, p, seed, progress) -> dict:
    torch.manual_seed(seed)
    rng, noise_rng = random.Random(seed), random.Random(seed + 1)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.train()
    val, pool = train[: p.warm_start_val], train[p.warm_start_val :] or train
    total = p.warm_start_steps
    opt = torch.optim.AdamW(model.parameters(), lr=p.warm_start_lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: _lr_factor(s, total, p.warm_start_decay_steps))
    history, start, success = [], time.time(), None
    print(f"warm start: {total} supervised steps on demonstrations with {p.warm_start_noise:.0%} mistakes, "
          f"a check every {p.warm_start_eval_every} steps on {len(val)} training prompts", flush=True)
    for step in range(1, total + 1):
        batch = rng.sample(pool, min(32, len(pool)))
        pairs = []
        for row in batch:
            target = demonstration(row["document"], noise_rng, p.warm_start_noise, p.tags)
            pairs.append((_prompt_ids(tok, row), tok(target, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]))
        width = max(len(a) + len(b) for a, b in pairs)
        ids = torch.full((len(pairs), width), tok.pad_token_id)
        labels = torch.full((len(pairs), width), -100)
        att = torch.zeros((len(pairs), width), dtype=torch.long)
        for i, (a, b) in enumerate(pairs):
            ids[i, : len(a) + len(b)] = torch.tensor(a + b)
            labels[i, len(a) : len(a) + len(b)] = torch.tensor(b)
            att[i, : len(a) + len(b)] = 1
        loss = model(input_ids=ids, attention_mask=att, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if progress is not None:
            progress(step, total)
        if step % p.warm_start_eval_every == 0 or step == total:
            success = sampled_success(model, tok, val) if val else None
            history.append({"step": step, "loss": float(loss.detach()), "sampled_success": success})
            shown = "n/a" if success is None else f"{success:.3f}"
            print(f"warm start: step {step}/{total} loss {float(loss.detach()):.4f} sampled success {shown} "
                  f"({time.time() - start:.0f} s)", flush=True)
    out = Path(out_dir)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    info = {
        "steps": total,
        "final_sampled_success": success,
        "policy_hash": policy_hash(out),
        "noise": p.warm_start_noise,
        "seed": seed,
        "threads": torch.get_num_threads(),
        "seconds": round(time.time() - start, 1),
        "history": history,
    }
    (out / "warm_start.json").write_text(json.dumps(info, indent=2))
    print(f"warm start: done, {total} steps, sampled success {success}, policy {info['policy_hash']}", flush=True)
    return info
