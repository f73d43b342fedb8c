"""Supervised warm start of the mini task's tiny policy.

Teacher-forced cross-entropy on (prompt, correct completion) pairs, with the loss on completion
tokens only, stopped as soon as the *sampled* success rate on held-out prompts reaches the target,
so RL starts from a weak but non-zero policy (SPEC's models also start far from perfect).

Reproducible: the policy is a deterministic function of the config. The warm start seeds torch and
its batch sampler, runs on a fixed number of torch threads (``warm_start_threads``; CPU reductions
split across threads round differently) with ``torch.use_deterministic_algorithms`` on, and restores
the caller's settings after. ``warm_start.json`` records the supervised steps, the sampled success
and ``policy_hash`` (a hash of the saved weights, ``policy_hash()``), and each check is printed as
one line (step, loss, sampled success), so a long warm start shows its progress.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import shutil
import time
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.tasks.mini.checker import check, solution


def _encode(tok, row, with_answer: bool):
    prompt = tok.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
    p_ids = tok(prompt, add_special_tokens=False)["input_ids"]
    if not with_answer:
        return p_ids, []
    a_ids = tok(solution(row["document"]), add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    return p_ids, a_ids


@torch.no_grad()
def sampled_success(model, tok, rows, n: int = 4, max_new_tokens: int = 24) -> float:
    model.eval()
    tok.padding_side = "left"
    prompts = [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True) for r in rows]
    enc = tok(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
    out = model.generate(
        **enc, do_sample=True, temperature=1.0, max_new_tokens=max_new_tokens, num_return_sequences=n,
        pad_token_id=tok.pad_token_id,
    )
    texts = tok.batch_decode(out[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
    ok = [check(rows[i // n]["document"], t).success for i, t in enumerate(texts)]
    model.train()
    return sum(ok) / len(ok)


def policy_hash(model_dir) -> str:
    """sha256 (hex, first 16 digits) of a saved model's weights: every tensor of its ``*.safetensors``
    files by name, dtype, shape and bytes (independent of file layout and metadata)."""
    from safetensors.torch import load_file

    files = sorted(Path(model_dir).glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"no *.safetensors weights in {model_dir}")
    h = hashlib.sha256()
    for f in files:
        tensors = load_file(str(f))
        for name in sorted(tensors):
            t = tensors[name].contiguous()
            h.update(f"{name}|{t.dtype}|{tuple(t.shape)}|".encode())
            h.update(t.view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()[:16]


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


def supervised_warm_start(model_dir, out_dir, train, test, p, seed: int) -> dict:
    with deterministic_torch(int(getattr(p, "warm_start_threads", 1))):
        return _warm_start(model_dir, out_dir, train, test, p, seed)


def _warm_start(model_dir, out_dir, train, test, p, seed: int) -> dict:
    torch.manual_seed(seed)
    rng = random.Random(seed)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=p.warm_start_lr)
    history = []
    start = time.time()
    success = sampled_success(model, tok, test[:32])
    print(f"warm start: step 0/{p.warm_start_max_steps} sampled success {success:.3f} "
          f"(target {p.warm_start_target:.2f}, a check every {p.warm_start_eval_every} steps)", flush=True)
    step = 0
    while success < p.warm_start_target and step < p.warm_start_max_steps:
        batch = rng.sample(train, 32)
        pairs = [_encode(tok, r, True) for r in batch]
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
        step += 1
        if step % p.warm_start_eval_every == 0 or step == p.warm_start_max_steps:
            success = sampled_success(model, tok, test[:32])
            history.append({"step": step, "loss": float(loss.detach()), "sampled_success": success})
            print(f"warm start: step {step}/{p.warm_start_max_steps} loss {float(loss.detach()):.4f} "
                  f"sampled success {success:.3f} ({time.time() - start:.0f} s)", flush=True)
    out = Path(out_dir)
    # write aside and rename: parallel sweep jobs may warm-start the same policy at once
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    info = {
        "steps": step,
        "final_sampled_success": success,
        "policy_hash": policy_hash(tmp),
        "target": p.warm_start_target,
        "seed": seed,
        "threads": torch.get_num_threads(),
        "history": history,
    }
    (tmp / "warm_start.json").write_text(json.dumps(info, indent=2))
    try:
        tmp.rename(out)
    except OSError:  # another process finished first; its policy is identical (same seed and data)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"warm start: done after {step} steps, sampled success {success:.3f}, policy {info['policy_hash']}", flush=True)
    return info
