"""A real-model RL step against the CPU's limit -> ``results/bench/real_rl.json`` (issue #51).

SmolLM2-135M-Instruct from the shipped starting adapter (LoRA r 4) on arith two_step: ``experiment=real_study``'s
configuration at 8 prompts x 8 completions, one torch thread (per-core numbers), in two paths:

- ``today``: what real_study ran (transformers ``generate``, TRL's loss forward over every row and position,
  2 rollouts per backward pass): ``trainer.sampler=transformers trainer.shared_prefix=false trainer.fused_lora=false
  trainer.per_device_train_batch_size=2``;
- ``fast``: the sizing file's defaults (``bot_repro.models.sampling``, ``trainer.shared_prefix``,
  ``trainer.fused_lora``, a group per backward pass).

Parts (``--only a,b``; the file's other parts are kept, each part records its own ``header``):

- ``bound``: FLOPs per rollout from the model's config (``flops``, formula in ``FORMULA``), the machine's fp32 and
  bf16 matmul rate per core at the model's shapes (``matmul``) and the CPU's matrix instructions (``cpu_flags``);
- ``steps``: ``WARMUP`` + ``TIMED`` optimizer steps of each path (``bench.gpu.time_trainer``'s phases, plus the
  process's CPU seconds), rollouts/s per core and the fraction of the bound; ``ratio`` = fast / today;
- ``eval``: the shipped adapter's step-0 held-out evaluation: today's 128 samples (32 problems x 4, ``generate``
  32 rows at a time) against the fast path's 512 (128 x 4, ``EVAL_ROWS`` rows at a time), each timed twice in the
  order ``EVAL_ORDER`` (``seconds`` the mean of ``runs_s``); then today's path on the other 96 problems too, and
  pass@1 of both paths on the same 128 problems from each path's first run (paired bootstrap of the difference);
- ``eval_rows``: the fast path's 512-sample evaluation at ``trainer.eval.batch_size`` 32 (real_baseline's) and 512,
  timed in the order ``ROWS_ORDER`` (each run its own seed), with each run's pass@1;
- ``numerics``: per-token logprobs of the fast path's loss forward against a plain fp32 transformers forward
  (``model(...).logits``) on the same 64 sampled rollouts (max and mean |gap|), and ``RUN_SEEDS`` short GRPO
  runs per path at real_study's own 2 x 4 whose mean training reward per run is compared (bootstrap over seeds).

Usage: ``python -m bench.real_rl [out.json] [--only bound,steps,eval,eval_rows,numerics]`` from the repository root.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import torch

from bench.header import bench_run, write

PROMPTS, K = 8, 8  # the configuration timed: 8 prompts x 8 completions
WARMUP, TIMED = 1, 5  # five timed steps: one step varies by about a tenth from the next on this machine
EVAL_TODAY, EVAL_FAST, EVAL_N = 32, 128, 4  # held-out problems x samples
EVAL_ROWS = 512  # rows the fast path decodes at once (trainer.eval.batch_size; real_study's generate took 32)
EVAL_ORDER = ("today", "fast", "fast", "today")  # timed runs: a drift in the machine's speed falls on both paths
ROWS_LADDER = (32, 512)  # eval_rows: rows decoded at once (trainer.eval.batch_size), real_baseline's and the fast one
ROWS_ORDER = (32, 512, 512, 32)
RUN_SEEDS, RUN_STEPS = 3, 6
PATHS = {
    "today": ["trainer.sampler=transformers", "trainer.shared_prefix=false", "trainer.fused_lora=false",
              "trainer.per_device_train_batch_size=2"],
    "fast": [],
}
FORMULA = (
    "per token through the backbone 2*N_body (N_body = layers x (h*(q + 2 kv) + q*h + 3 h*I), the matmul weights) "
    "plus attention 4*q*layers*context; per scored position 2*N_head (N_head = vocab x h). Needed per rollout "
    "(prompt P, completion C, K rollouts share a prompt): generation = P/K prefill + C decode tokens, each decode "
    "token scored; loss forward = P/K + C tokens, C scored; backward (frozen base, LoRA) = the input gradients, "
    "as many FLOPs as the forward, plus LoRA's weight gradients (2 r (in + out) per token and adapted layer, x2)")


def _cfg(path: str, extra: list[str] = ()):
    from bot_repro.config import validate
    from bot_repro.experiment.sweep import compose_experiment, without_hydra

    overrides = ["+arm=arith_grpo", "seed=0", f"trainer.prompts_per_step={PROMPTS}", f"trainer.num_generations={K}",
                 "trainer.eval.every=0", "logger.progress_bar=false", *PATHS[path], *extra]
    return validate(without_hydra(compose_experiment("real_study", overrides)))


def flops(config: dict, prompt: float, completion: float, k: int, lora_r: int) -> dict:
    """FLOPs per rollout needed by each phase (``FORMULA``), for mean prompt and completion lengths."""
    h, layers, inter, vocab = config["hidden_size"], config["num_hidden_layers"], config["intermediate_size"], config["vocab_size"]
    hd = config.get("head_dim") or h // config["num_attention_heads"]
    q, kv = config["num_attention_heads"] * hd, config["num_key_value_heads"] * hd
    body = layers * (h * (q + 2 * kv) + q * h + 3 * h * inter)
    head = vocab * h
    lora_io = layers * ((h + q) + 2 * (h + kv) + (q + h) + 2 * (h + inter) + (inter + h))

    def attn(tokens: float, context: float) -> float:
        return 4 * q * layers * context * tokens

    prefill = prompt / k * 2 * body + attn(prompt / k, prompt / 2)
    decode = completion * (2 * body + 2 * head) + attn(completion, prompt + completion / 2)
    forward = (prompt / k + completion) * 2 * body + completion * 2 * head + attn(prompt / k + completion, prompt)
    backward = forward + 2 * 2 * lora_r * lora_io * (prompt / k + completion)
    return {"n_body": body, "n_head": head, "generation": prefill + decode, "generation_prefill": prefill,
            "loss_forward": forward, "backward": backward, "total": prefill + decode + forward + backward}


def matmul_rates() -> dict:
    """GFLOP/s of one thread at SmolLM2-135M's shapes: M = 64 (a decode step of 64 rows) and 512 (training)."""
    shapes = {"qkvo": (576, 576), "kv": (576, 192), "up": (576, 1536), "down": (1536, 576), "head": (576, 49152)}
    out: dict = {}
    for dtype in (torch.float32, torch.bfloat16):
        for m in (64, 512):
            for name, (k, n) in shapes.items():
                a, b = torch.randn(m, k, dtype=dtype), torch.randn(k, n, dtype=dtype)
                for _ in range(3):
                    a @ b
                reps = max(3, int(2e9 / (2 * m * k * n)))
                t = time.perf_counter()
                for _ in range(reps):
                    a @ b
                out[f"{str(dtype).split('.')[1]}_m{m}_{name}"] = 2 * m * k * n * reps / (time.perf_counter() - t) / 1e9
    return out


def cpu_flags() -> dict:
    flags = next((line.split(":", 1)[1].split() for line in open("/proc/cpuinfo") if line.startswith("flags")), [])
    watch = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_tile", "amx_int8")
    return {f: f in flags for f in watch}


def bound() -> dict:
    torch.set_num_threads(1)
    rates = matmul_rates()
    m64 = statistics.fmean(v for k, v in rates.items() if k.startswith("float32_m64"))
    m512 = statistics.fmean(v for k, v in rates.items() if k.startswith("float32_m512"))
    flags = cpu_flags()
    return {"matmul_gflops_per_core": rates, "fp32_decode_gflops": m64, "fp32_train_gflops": m512,
            "cpu_flags": flags, "bf16_native": flags["avx512_bf16"] or flags["amx_bf16"], "formula": FORMULA}


def _model_config() -> dict:
    from bot_repro.trainer.build import resolve_model_path

    cfg = _cfg("fast")
    from bot_repro.tasks.base import build_task

    task, _ = build_task(cfg, judge=None, run_dir=None, seed=0)
    return json.loads((Path(resolve_model_path(cfg, task, 0)) / "config.json").read_text())


def _bound_phases(fl: dict, b: dict) -> dict:
    """Seconds per rollout on one core at the measured rates, per phase: decode at M = 64, the rest at M = 512."""
    decode = fl["generation"] - fl["generation_prefill"]
    train = b["fp32_train_gflops"] * 1e9
    return {"generation": decode / (b["fp32_decode_gflops"] * 1e9) + fl["generation_prefill"] / train,
            "fwd_bwd": (fl["loss_forward"] + fl["backward"]) / train}


def steps(b: dict) -> dict:
    from bench.gpu import time_trainer
    from bot_repro.trainer.build import build_trainer

    torch.set_num_threads(1)
    config = _model_config()
    out: dict = {}
    for path in PATHS:
        cfg = _cfg(path, [f"trainer.max_steps={WARMUP + TIMED}", "resources.torch_threads=1"])
        trainer, _, _ = build_trainer(cfg, Path(tempfile.mkdtemp(prefix=f"real_rl_{path}_")), time.time(), step_lines=False)
        clock = CpuClock()
        trainer.add_callback(clock)
        n_params = sum(p.numel() for p in trainer.model.parameters())
        timed = time_trainer(trainer, path, n_params, warmup=WARMUP)
        rows = timed["steps"][WARMUP:]
        rollouts = PROMPTS * K
        med = timed["median"]
        prompt, completion = med["prompt_tokens"] / rollouts, med["completion_tokens"] / rollouts
        fl = flops(config, prompt, completion, K, cfg.model.lora.r or 4)
        rate = rollouts / med["step_s"]
        phases = _bound_phases(fl, b)
        bound_rate = 1 / sum(phases.values())
        out[path] = {"overrides": PATHS[path], "steps": rows, "median": med, "cpu_s": clock.cpu[WARMUP:],
                     "rollouts_per_s_per_core": rate, "rollouts_per_cpu_s": rollouts / statistics.median(clock.cpu[WARMUP:]),
                     "flops_per_rollout": fl, "bound_rollouts_per_s_per_core": bound_rate,
                     "fraction_of_bound": rate / bound_rate, "generation": trainer.generation_info(),
                     "bound_step_s": {k: v * rollouts for k, v in phases.items()}}
    out["ratio"] = out["fast"]["rollouts_per_s_per_core"] / out["today"]["rollouts_per_s_per_core"]
    out["ratio_cpu_s"] = out["fast"]["rollouts_per_cpu_s"] / out["today"]["rollouts_per_cpu_s"]
    out["required_ratio"], out["goal_ratio"] = 2.5, 4.0
    return out


class CpuClock:
    """A trainer callback: the process's CPU seconds per optimizer step (every thread: generation included)."""

    def __init__(self):
        self.cpu: list[float] = []

    def __getattr__(self, name):  # the other callback events: nothing
        if name.startswith("on_"):
            return lambda *a, **kw: None
        raise AttributeError(name)

    def on_step_begin(self, *a, **kw):
        self.c = time.process_time()

    def on_step_end(self, *a, **kw):
        self.cpu.append(time.process_time() - self.c)


def _paired_ci(a: list[float], b: list[float], n: int = 10_000) -> list[float]:
    """95% percentile bootstrap of mean(a - b) over paired items (seed 0)."""
    d = torch.tensor([x - y for x, y in zip(a, b)], dtype=torch.float64)
    idx = torch.randint(len(d), (n, len(d)), generator=torch.Generator().manual_seed(0))
    means = d[idx].mean(1).sort().values
    return [float(d.mean()), float(means[int(0.025 * n)]), float(means[int(0.975 * n) - 1])]


def _eval_setup():
    """(task, held-out rows, tokenizer, model with the shipped adapter, eval config, chat kwargs, the fast sampler's
    eos ids) for the held-out evaluations, one torch thread."""
    from bot_repro.models import lora
    from bot_repro.tasks.base import build_task
    from bot_repro.trainer.build import load_model, resolve_model_path

    torch.set_num_threads(1)
    cfg = _cfg("fast", [f"task.params.n_test={EVAL_FAST}"])
    task, _ = build_task(cfg, judge=None, run_dir=None, seed=0)
    rows = task.datasets()[1][:EVAL_FAST]
    tok, model = load_model(cfg.model, resolve_model_path(cfg, task, 0))
    model = lora.load_adapter(model, cfg.model.lora).eval()
    gen_eos = model.generation_config.eos_token_id
    eos = sorted({tok.eos_token_id, *([gen_eos] if isinstance(gen_eos, int) else gen_eos or [])})
    return task, rows, tok, model, cfg.trainer.eval, dict(cfg.model.chat_template_kwargs), eos


def evaluation() -> dict:
    from bot_repro.trainer.callbacks import SharedPrefixSampler, generate, render

    task, rows, tok, model, ev, chat, eos = _eval_setup()
    new = ev.max_new_tokens
    ev_today = type(ev)(**{**ev.__dict__, "n_samples": EVAL_N, "batch_size": 32})
    sampler = SharedPrefixSampler(tok, eos, EVAL_ROWS)
    runs = {"today": lambda: generate(model, tok, rows[:EVAL_TODAY], ev_today, new, chat),
            "fast": lambda: sampler(model, render(tok, rows, chat), EVAL_N, ev.temperature, new)}
    seconds, samples = {"today": [], "fast": []}, {}
    for path in EVAL_ORDER:  # the first run of each path (seed 0) gives its samples
        torch.manual_seed(len(seconds[path]))
        t = time.perf_counter()
        out = runs[path]()
        seconds[path].append(time.perf_counter() - t)
        samples.setdefault(path, out)
    fast = samples["fast"]
    today = samples["today"] + generate(model, tok, rows[EVAL_TODAY:], ev_today, new, chat)
    p1 = {}  # per problem: the share of its samples that are right (its pass@1)
    for name, completions in (("today", today), ("fast", fast)):
        records = task.evaluate_detailed(completions, rows)[1]
        p1[name] = [statistics.fmean(r["correct"] for r in records if r["id"] == row["id"]) for row in rows]
    today_s, fast_s = statistics.fmean(seconds["today"]), statistics.fmean(seconds["fast"])
    return {"today": {"samples": EVAL_TODAY * EVAL_N, "seconds": today_s, "runs_s": seconds["today"],
                      "samples_per_s": EVAL_TODAY * EVAL_N / today_s, "rows_per_generate": 32},
            "fast": {"samples": EVAL_FAST * EVAL_N, "seconds": fast_s, "runs_s": seconds["fast"],
                     "samples_per_s": EVAL_FAST * EVAL_N / fast_s, "rows_at_once": EVAL_ROWS},
            "order": list(EVAL_ORDER),
            "fast_512_faster_than_today_128": fast_s < today_s,
            "fast_512_faster_in_every_run": max(seconds["fast"]) < min(seconds["today"]),
            "pass@1": {name: statistics.fmean(v) for name, v in p1.items()},
            "pass@1_fast_minus_today": _paired_ci(p1["fast"], p1["today"]),
            "problems": EVAL_FAST, "samples_per_problem": EVAL_N}


def eval_rows() -> dict:
    """The fast path's held-out evaluation (512 samples) decoding ``ROWS_LADDER`` rows at once
    (``trainer.eval.batch_size``: real_baseline's 32 against 512), in the order ``ROWS_ORDER``, each run from
    its own seed; seconds per run and the pass@1 each run measured."""
    from bot_repro.trainer.callbacks import SharedPrefixSampler, render

    task, rows, tok, model, ev, chat, eos = _eval_setup()
    prompts = render(tok, rows, chat)
    seconds: dict[int, list[float]] = {r: [] for r in ROWS_LADDER}
    pass1: dict[int, list[float]] = {r: [] for r in ROWS_LADDER}
    for i, n_rows in enumerate(ROWS_ORDER):
        torch.manual_seed(i)
        t = time.perf_counter()
        out = SharedPrefixSampler(tok, eos, n_rows)(model, prompts, EVAL_N, ev.temperature, ev.max_new_tokens)
        seconds[n_rows].append(time.perf_counter() - t)
        pass1[n_rows].append(statistics.fmean(r["correct"] for r in task.evaluate_detailed(out, rows)[1]))
    mean = {r: statistics.fmean(v) for r, v in seconds.items()}
    return {"samples": EVAL_FAST * EVAL_N, "order": list(ROWS_ORDER),
            "runs_s": {str(r): v for r, v in seconds.items()}, "seconds": {str(r): v for r, v in mean.items()},
            "pass@1": {str(r): v for r, v in pass1.items()}, "ratio": mean[ROWS_LADDER[0]] / mean[ROWS_LADDER[1]],
            "faster_in_every_run": max(seconds[ROWS_LADDER[1]]) < min(seconds[ROWS_LADDER[0]])}


def numerics() -> dict:
    from bot_repro.models import sampling
    from bot_repro.train import run
    from bot_repro.trainer.build import build_trainer

    torch.set_num_threads(1)
    cfg = _cfg("fast", ["trainer.max_steps=1"])
    trainer, _, _ = build_trainer(cfg, Path(tempfile.mkdtemp(prefix="real_rl_num_")), time.time(), step_lines=False)
    tok, model = trainer.processing_class, trainer.model
    rows = trainer.train_dataset.select(range(PROMPTS))
    prompts = [tok(tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True),
                   add_special_tokens=False).input_ids for r in rows for _ in range(K)]
    torch.manual_seed(0)
    comps = sampling.sample(model, prompts, cfg.trainer.max_completion_length, cfg.trainer.temperature,
                            trainer.eos_token_ids, tok.pad_token_id)
    width, cw = max(map(len, prompts)), max(map(len, comps))
    ids = torch.full((len(prompts), width + cw), tok.pad_token_id)
    mask = torch.zeros_like(ids)
    for i, (p, c) in enumerate(zip(prompts, comps)):
        ids[i, width - len(p): width + len(c)] = torch.tensor(p + c)
        mask[i, width - len(p): width + len(c)] = 1
    # with gradients on, as the loss runs it: without them trainer.fused_lora's merged forward defers to peft's
    fast = trainer._get_per_token_logps_and_entropies(model, ids, mask, cw, batch_size=K)[0].detach()
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=mask).logits[:, width - 1 : -1].float()
        ref = (logits / cfg.trainer.temperature).log_softmax(-1).gather(-1, ids[:, width:, None]).squeeze(-1)
    valid = mask[:, width:].bool()
    gap = (fast - ref)[valid].abs()
    out = {"logprob_gap": {"max": float(gap.max()), "mean": float(gap.mean()), "tokens": int(valid.sum()),
                           "reference": "fp32 transformers forward of each whole row, log_softmax(logits / T)"}}
    means: dict = {}
    for path in PATHS:
        for seed in range(RUN_SEEDS):
            cfg_run = _short_run_cfg(path, seed)
            run_dir = Path(tempfile.mkdtemp(prefix=f"real_rl_run_{path}_{seed}_"))
            run(cfg_run, run_dir)
            rec = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
            means.setdefault(path, []).append(statistics.fmean(r["reward_mean"] for r in rec if "reward_mean" in r))
    diff = statistics.fmean(means["fast"]) - statistics.fmean(means["today"])
    out["short_runs"] = {"setup": f"real_study's 2 x 4, {RUN_STEPS} steps, seeds 0-{RUN_SEEDS - 1}, mean training reward per run",
                         "mean_reward": means, "fast_minus_today": diff,
                         "seed_sd": {p: statistics.stdev(v) for p, v in means.items()},
                         "interval": _unpaired_ci(means["fast"], means["today"])}
    return out


def _short_run_cfg(path: str, seed: int):
    from bot_repro.experiment.sweep import compose_experiment, without_hydra

    overrides = ["+arm=arith_grpo", f"seed={seed}", f"trainer.max_steps={RUN_STEPS}", "trainer.eval.every=0",
                 "logger.progress_bar=false", "resources.torch_threads=1", *PATHS[path]]
    return without_hydra(compose_experiment("real_study", overrides))


def _unpaired_ci(a: list[float], b: list[float], n: int = 10_000) -> list[float]:
    g = torch.Generator().manual_seed(0)
    ta, tb = torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64)
    d = (ta[torch.randint(len(a), (n, len(a)), generator=g)].mean(1)
         - tb[torch.randint(len(b), (n, len(b)), generator=g)].mean(1)).sort().values
    return [float(d[int(0.025 * n)]), float(d[int(0.975 * n) - 1])]


def _r(x: float) -> float:
    """Three significant digits: what docs/real_model.md quotes."""
    return float(f"{x:.3g}")


def summary(data: dict) -> dict:
    """The measured numbers, rounded, for prose (parts not measured yet are left out)."""
    out: dict = {}
    if "bound" in data:
        b = data["bound"]
        bf16 = statistics.fmean(v for k, v in b["matmul_gflops_per_core"].items() if k.startswith("bfloat16"))
        out.update(fp32_decode_gflops=_r(b["fp32_decode_gflops"]), fp32_train_gflops=_r(b["fp32_train_gflops"]),
                   bf16_gflops=_r(bf16), bf16_native=b["bf16_native"])
    if "steps" in data:
        st = data["steps"]
        for path in PATHS:
            x = st[path]
            out[path] = {"rollouts_per_s_per_core": _r(x["rollouts_per_s_per_core"]), "step_s": _r(x["median"]["step_s"]),
                         "generation_s": _r(x["median"]["generation_s"]), "fwd_bwd_s": _r(x["median"]["fwd_bwd_s"]),
                         "fraction_of_bound": _r(x["fraction_of_bound"]),
                         "bound_generation_s": _r(x["bound_step_s"]["generation"]),
                         "bound_fwd_bwd_s": _r(x["bound_step_s"]["fwd_bwd"]),
                         "gflop_per_rollout": _r(x["flops_per_rollout"]["total"] / 1e9)}
        out.update(ratio=_r(st["ratio"]), ratio_cpu_s=_r(st["ratio_cpu_s"]),
                   bound_rollouts_per_s_per_core=_r(st["fast"]["bound_rollouts_per_s_per_core"]))
    if "eval" in data:
        e = data["eval"]
        out["eval"] = {"today_128_s": _r(e["today"]["seconds"]), "fast_512_s": _r(e["fast"]["seconds"]),
                       "today_runs_s": [_r(v) for v in e["today"]["runs_s"]],
                       "fast_runs_s": [_r(v) for v in e["fast"]["runs_s"]],
                       "faster_in_every_run": e["fast_512_faster_in_every_run"],
                       "today_samples_per_s": _r(e["today"]["samples_per_s"]),
                       "fast_samples_per_s": _r(e["fast"]["samples_per_s"]),
                       "pass@1": {k: _r(v) for k, v in e["pass@1"].items()},
                       "pass@1_fast_minus_today": [_r(v) for v in e["pass@1_fast_minus_today"]]}
    if "eval_rows" in data:
        e = data["eval_rows"]
        out["eval_rows"] = {"seconds": {k: _r(v) for k, v in e["seconds"].items()}, "ratio": _r(e["ratio"]),
                            "faster_in_every_run": e["faster_in_every_run"], "loaded": e["header"].get("loaded")}
    if "numerics" in data:
        n = data["numerics"]
        out["logprob_gap"] = {k: _r(n["logprob_gap"][k]) for k in ("max", "mean")}
        sr = n["short_runs"]
        out["short_runs"] = {"fast_minus_today": _r(sr["fast_minus_today"]), "interval": [_r(v) for v in sr["interval"]],
                             "seed_sd": {k: _r(v) for k, v in sr["seed_sd"].items()}}
    return out


PARTS = ("bound", "steps", "eval", "eval_rows", "numerics")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default="results/bench/real_rl.json")
    parser.add_argument("--only", default=",".join(PARTS))
    args = parser.parse_args()
    out = Path(args.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    data.pop("header", None)
    data.pop("summary", None)
    parts = args.only.split(",")
    with bench_run("real_rl") as header:
        for part in PARTS:
            if part not in parts:
                continue
            with bench_run(f"real_rl.{part}") as own:
                result = {"bound": bound, "steps": lambda: steps(data["bound"]), "eval": evaluation,
                          "eval_rows": eval_rows, "numerics": numerics}[part]()
            data[part] = {**result, "header": own.as_dict()}
            data["summary"] = summary(data)
            write(out, header, data)  # a part that fails later leaves this one written (header: complete false)
            print(f"[bench.real_rl] {part}: done", flush=True)
        data["summary"] = summary(data)
    print(json.dumps(write(out, header, data), indent=2, default=str)[:4000])


if __name__ == "__main__":
    main()
