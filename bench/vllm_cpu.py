"""vLLM on CPU -> ``results/bench/vllm_cpu.json`` (SmolLM2-135M-Instruct, issue #31).

- ``generation``: new tokens/s of vLLM (``vllm.LLM`` with the colocated engine's arguments: fp32, eager,
  ``resources=cpu_vllm``'s KV cache) against transformers ``generate``, on the same chat prompts
  (``experiment=real_small``'s arith task, worked examples included), the same rows (its
  prompts x rollouts per step), a forced length (no early stop: every row makes all its tokens) and
  the same thread count. At real_small's length (56 new tokens) and at 128.
- ``step``: our trainer as ``make real-demo`` builds it (``experiment=real_small``, ``algorithm=grpo``)
  with ``resources=cpu`` against ``resources=cpu_vllm``, the same thread count; per step: generation
  (vLLM's includes its weight sync, also timed alone), scoring, forward/backward, after one warm-up step.
- ``judge``: step-judge calls/s of ``JudgeClient`` against a real vLLM server
  (``bot_repro.judges.serve``, structured outputs), with the paper's ``error_propagation`` strategy
  (a solution's steps one after another) and ``independent``; the bound: the independent run's very
  requests sent straight to the server, all at once, over raw HTTP.

The JSON starts with ``bench.header``'s header (machine, load, other processes' CPU, ``loaded``): on a shared
machine the absolute times are upper bounds.
Usage: ``python -m bench.vllm_cpu [out.json] [--skip generation,step,judge]`` from the repository root; each part
records its own ``header`` and machine, and a run with parts skipped keeps the file's other parts (the file's
top-level header is then the latest run's, which ran only the parts not skipped).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.header import bench_run, write

THREADS = 2
GEN_ROUNDS = 3
JUDGE_CALLS = 16


def _machine(load_before) -> dict:
    import torch

    from bot_repro.trainer.vllm_engine import vllm_version

    sha = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                text=True).stdout.strip())
    return {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "cpu_count": os.cpu_count(), "threads": THREADS, "torch": torch.__version__, "vllm": vllm_version(),
            "git_sha": sha, "git_dirty": dirty, "load_average_before": load_before,
            "load_average_after": os.getloadavg(), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")}


def _config(resources: str, extra: tuple[str, ...] = ()):
    from bot_repro.config import validate
    from bot_repro.experiment.sweep import compose_experiment, without_hydra

    overrides = [f"resources={resources}", f"resources.torch_threads={THREADS}", "algorithm=grpo", "seed=0",
                 "trainer.eval.every=0", "logger.progress_bar=false", *extra]
    return validate(without_hydra(compose_experiment("real_small", overrides)))


def _prompts(cfg, tok) -> list[str]:
    from bot_repro.tasks.base import build_task

    task, _ = build_task(cfg, judge=None, run_dir=None, seed=0)
    rows = task.datasets()[0]
    t = cfg.trainer
    n = t.prompts_per_step * t.num_generations  # one step's rows, each prompt once per rollout
    kw = dict(cfg.model.chat_template_kwargs)
    return [tok.apply_chat_template(rows[i // t.num_generations]["prompt"], tokenize=False,
                                    add_generation_prompt=True, **kw) for i in range(n)]


def _hf_generator(model_dir: str, texts: list[str]):
    """A function (new tokens) -> seconds for one forced-length sampled batch with transformers ``generate``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    enc = tok(texts, return_tensors="pt", padding=True)

    def run(new: int) -> float:
        kw = dict(do_sample=True, temperature=1.0, max_new_tokens=new, min_new_tokens=new,
                  pad_token_id=tok.pad_token_id)
        with torch.no_grad():
            t = time.perf_counter()
            out = model.generate(**enc, **kw)
            dt = time.perf_counter() - t
        assert out.shape[1] - enc["input_ids"].shape[1] == new
        return dt

    run(4)  # warm-up
    return run


def _vllm_generator(llm, texts: list[str]):
    """The same for ``vllm.LLM.generate`` (``min_tokens`` = ``max_tokens``, EOS ignored)."""
    from vllm import SamplingParams

    def run(new: int) -> float:
        params = SamplingParams(temperature=1.0, max_tokens=new, min_tokens=new, ignore_eos=True)
        t = time.perf_counter()
        outs = llm.generate(texts, params, use_tqdm=False)
        dt = time.perf_counter() - t
        assert all(len(o.outputs[0].token_ids) == new for o in outs)
        return dt

    run(4)  # warm-up
    return run


def generation(model_dir: str) -> dict:
    # vLLM's CPU worker binds its OpenMP threads itself ("auto" keeps one of 2 cores for its scheduler):
    # the same THREADS cores as transformers gets, named explicitly
    os.environ.setdefault("VLLM_CPU_OMP_THREADS_BIND", ",".join(map(str, sorted(os.sched_getaffinity(0))[:THREADS])))
    import torch
    from transformers import AutoTokenizer
    from vllm import LLM

    from bot_repro.trainer.vllm_engine import engine_for

    torch.set_num_threads(THREADS)
    cfg = _config("cpu_vllm")
    texts = _prompts(cfg, AutoTokenizer.from_pretrained(model_dir))
    engine = engine_for(cfg.resources, cfg.model.dtype)
    lengths = [cfg.trainer.max_completion_length, 128]
    t = time.perf_counter()
    llm = LLM(model=model_dir, seed=0, max_model_len=2048, **engine.llm_kwargs())
    start_s = time.perf_counter() - t
    engines = {"transformers": _hf_generator(model_dir, texts), "vllm": _vllm_generator(llm, texts)}
    times: dict = {(e, n): [] for e in engines for n in lengths}
    for _ in range(GEN_ROUNDS):  # alternating, so a load spike from other processes hits both
        for n in lengths:
            for e, run in engines.items():
                times[e, n].append(run(n))
    rate = {k: len(texts) * k[1] / statistics.median(v) for k, v in times.items()}
    del llm
    return {
        "setup": f"{len(texts)} rows (experiment=real_small: {cfg.trainer.prompts_per_step} prompts x "
                 f"{cfg.trainer.num_generations} rollouts), sampled at T=1, forced length, {THREADS} threads, "
                 f"{GEN_ROUNDS} alternating rounds (median), vLLM {engine.llm_kwargs()}, "
                 f"VLLM_CPU_OMP_THREADS_BIND={os.environ['VLLM_CPU_OMP_THREADS_BIND']}",
        "vllm_engine_start_s": start_s,
        "by_new_tokens": {str(n): {"transformers_tokens_per_s": rate["transformers", n],
                                   "vllm_tokens_per_s": rate["vllm", n],
                                   "speedup": rate["vllm", n] / rate["transformers", n],
                                   "seconds": {e: times[e, n] for e in engines}} for n in lengths},
        "speedup_at_real_small": rate["vllm", lengths[0]] / rate["transformers", lengths[0]],
        "goal_speedup": 1.5,
    }


def step(resources: str) -> dict:
    from bench.gpu import time_trainer
    from bot_repro.trainer.build import build_trainer

    cfg = _config(resources, ("trainer.max_steps=3",))
    trainer, _, _ = build_trainer(cfg, Path(tempfile.mkdtemp(prefix=f"bench_vllm_{resources}_")), time.time())
    sync_s: list[float] = []
    gen = getattr(trainer, "vllm_generation", None)
    if gen is not None:  # the weight sync, inside generation_s
        inner = gen.sync_weights

        def timed_sync():
            t = time.perf_counter()
            inner()
            sync_s.append(time.perf_counter() - t)

        gen.sync_weights = timed_sync
    n_params = sum(p.numel() for p in trainer.model.parameters())
    out = time_trainer(trainer, "ours", n_params, warmup=1)
    keep = ("step_s", "generation_s", "scoring_s", "advantage_s", "prep_other_s", "fwd_bwd_s", "optimizer_other_s",
            "completion_tokens", "gen_tokens_per_s")
    out["median"] = {k: v for k, v in out["median"].items() if k in keep}
    out["steps"] = [{k: r[k] for k in ("step", *keep)} for r in out["steps"]]
    out["weight_sync_s"] = sync_s
    out["generation"] = trainer.generation_info()
    return out


def judge() -> dict:
    import asyncio

    import aiohttp

    from bot_repro.judges.client import JudgeClient
    from bot_repro.judges.options import parse_options
    from bot_repro.judges.serve import served
    from bot_repro.judges.types import StepJudgeInput

    items = [StepJudgeInput(problem=f"What is {a} + {a + 3}?",
                            steps=[f"{a} + {a + 3} = {2 * a + 3}", f"so the answer is {2 * a + 3}"])
             for a in range(JUDGE_CALLS)]
    with served() as srv:
        opts = parse_options({"backend": "openai", "model": srv.name, "base_url": srv.url, "cache": False,
                              "structured_outputs": True, "max_concurrency": 2 * JUDGE_CALLS, "timeout_s": 300,
                              "max_retries": 1})
        with JudgeClient(opts) as client:
            client.step_judge(items[:1])  # warm-up
            client.pop_metrics()
            sent: list[tuple[str, dict, dict]] = []
            post = client.backend._post

            async def recording(url, headers, body):
                sent.append((url, headers, body))
                return await post(url, headers, body)

            client.backend._post = recording
            by_strategy = {}
            for strategy in ("error_propagation", "independent"):  # the paper's default; all steps at once
                sent.clear()
                t = time.perf_counter()
                client.step_judge(items, strategy=strategy)
                dt = time.perf_counter() - t
                by_strategy[strategy] = {"calls": len(sent), "seconds": dt, "calls_per_s": len(sent) / dt,
                                         "metrics": client.pop_metrics()}

        async def replay() -> float:  # the bound: the very requests the client sent, all at once, raw HTTP
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=300)) as http:
                async def one(url, headers, body):
                    async with http.post(url, json=body, headers=headers) as resp:
                        await resp.read()

                t0 = time.perf_counter()
                await asyncio.gather(*[one(*req) for req in sent])
                return time.perf_counter() - t0

        raw_s = asyncio.run(replay())
    ours = by_strategy["independent"]
    return {"setup": f"{len(items)} step-judge items of 2 steps ({opts.backend}, {srv.name}, structured outputs), "
                     "no cache; the bound: the independent strategy's requests replayed at once over raw HTTP "
                     "(error_propagation judges a solution's steps one after another, step_lookahead=1)",
            "by_strategy": by_strategy, "bound_calls_per_s": len(sent) / raw_s,
            "client_over_bound": ours["calls_per_s"] * raw_s / len(sent)}


def main() -> None:
    from bench.real_model import _model_dir

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="results/bench/vllm_cpu.json")
    ap.add_argument("--skip", default="", help="comma list of parts to skip: generation, step, judge")
    a = ap.parse_args()
    skip = set(filter(None, a.skip.split(",")))
    out = Path(a.out)
    result: dict = json.loads(out.read_text()) if out.is_file() else {}
    result.pop("header", None)  # the file's header is this run's; each part keeps its own
    with bench_run("vllm_cpu") as header:
        model_dir = str(_model_dir())
        parts = {"generation": lambda: generation(model_dir),
                 "step_transformers": lambda: step("cpu"), "step_vllm": lambda: step("cpu_vllm"), "judge": judge}
        for name, fn in parts.items():
            if name.split("_")[0] in skip:
                continue
            print(f"[bench.vllm_cpu] {name} ...", flush=True)
            load = os.getloadavg()
            with bench_run(f"vllm_cpu.{name}") as part:
                measured = fn()
            # each part's own machine and header: a partial rerun keeps the others
            result[name] = {**measured, "machine": _machine(load), "header": part.as_dict()}
            write(out, header, result)  # rewritten after each part: a killed run keeps its parts
        if "step_transformers" in result and "step_vllm" in result:
            a_, b_ = result["step_transformers"]["median"], result["step_vllm"]["median"]
            result["step_speedup"] = a_["step_s"] / b_["step_s"]
            result["generation_speedup_in_step"] = a_["generation_s"] / b_["generation_s"]
    print(json.dumps(write(out, header, result), indent=2))


if __name__ == "__main__":
    main()
