"""The GPU check (``bench/gpu/``) runs end to end on CPU with a tiny model, so it cannot rot
between lent GPU machines: both trainers, the phase timers, the advantage timing and the JSON."""

from __future__ import annotations

import json
import math

from bench import gpu


def _positive(x) -> bool:
    return isinstance(x, int | float) and math.isfinite(x) and x > 0


def test_dry_run_writes_the_gpu_json(tmp_path):
    out = tmp_path / "gpu.json"
    gpu.main(["--dry-run", "--out", str(out), "--work-dir", str(tmp_path / "work")])
    data = json.loads(out.read_text())
    assert data["dry_run"] is True
    assert data["command"].endswith(f"--dry-run --out {out} --work-dir {tmp_path / 'work'}")
    assert data["machine"]["cpu_count"] and data["machine"]["python"]
    for name in ("torch", "transformers", "trl", "accelerate", "tokenizers", "hydra-core"):
        assert data["versions"][name], name
    assert data["model"]["n_params"] > 0 and data["model"]["architecture"].startswith("Qwen2ForCausalLM")
    assert data["model"]["tokenizer_vocab"] <= data["model"]["config"]["vocab_size"]
    assert "6 * n_params" in data["mfu_assumption"]
    assert data["skipped"] == [] and data["errors"] == []
    lengths = [str(n) for n in gpu.DRY_PLAN.lengths]
    assert sorted(data["runs"], key=int) == lengths
    for length in lengths:
        run = data["runs"][length]
        assert run["timed_steps"] == gpu.DRY_PLAN.steps
        for kind in ("ours", "trl"):
            steps, med = run[kind]["steps"], run[kind]["median"]
            assert len(steps) == gpu.DRY_PLAN.warmup + gpu.DRY_PLAN.steps, kind
            for key in (
                "step_s",
                "generation_s",
                "scoring_s",
                "fwd_bwd_s",
                "tokens_per_s",
                "train_tokens_per_s",
            ):
                assert _positive(med[key]), (length, kind, key, med.get(key))
            assert med["step_s"] >= med["generation_s"] + med["fwd_bwd_s"] - 1e-6
            assert med["rows"] == gpu.DRY_PLAN.prompts * gpu.DRY_PLAN.rollouts
            assert 0 < med["completion_tokens"] <= med["rows"] * int(length)
            for row in steps:  # CPU: no peak memory, no MFU; the keys are there for the GPU run
                assert row["peak_mem_gb"] is None and row["mfu_train"] is None
        assert _positive(run["ours"]["median"]["advantage_s"])
        assert run["trl"]["steps"][0]["advantage_s"] is None  # TRL normalises inline (in prep_other_s)
        assert _positive(run["ratio_ours_over_trl"]["step_s"])
        assert _positive(data["summary"]["step_ratio_ours_over_trl"][length])
    adv = data["advantage"]
    assert adv["B"] == 64 and [r["T"] for r in adv["rows"]] == list(gpu.DRY_PLAN.adv_T)
    assert adv["options"]["weighting"] == "inverse_length"  # the options our trainer ran with (bot_grpo)
    for row in adv["rows"]:
        assert (
            _positive(row["bot_grpo_ms"]) and _positive(row["elementwise_add_ms"]) and _positive(row["ratio"])
        )
    assert data["summary"]["advantage_ratio_at_max_T"] == adv["rows"][-1]["ratio"]
    assert _positive(data["elapsed_s"])


def test_peak_table_and_step_planning():
    names = [key for key, _ in gpu.PEAK_BF16_TFLOPS]
    # more specific names first, so 'H100 PCIe' is not read as an SXM H100
    assert names.index("H100 PCIe") < names.index("H100") and names.index("H200 NVL") < names.index("H200")
    plan = gpu.GPU_PLAN  # warmup 1, 2 timed steps
    assert gpu.timed_steps_that_fit(plan, [], 256, 10.0) == plan.steps  # nothing to go by yet
    done = [(256, {"median": {"step_s": 10.0}, "build_s": 20.0})]  # 1024: 40 s a step
    assert gpu.timed_steps_that_fit(plan, done, 1024, 2 * (20 + 3 * 40)) == 2
    assert gpu.timed_steps_that_fit(plan, done, 1024, 2 * (20 + 2 * 40)) == 1
    assert gpu.timed_steps_that_fit(plan, done, 1024, 2 * (20 + 2 * 40) - 1) == 0
    assert gpu.QWEN25_3B["vocab_size"] == 151_936 and gpu.QWEN25_3B["num_key_value_heads"] == 2
