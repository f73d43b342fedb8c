"""The CPU study's findings across machines (issue 23): the shipped step-0 policy, hardware in the
records, Wilson intervals and collapse counts, the statistical comparison and the weighted ETA."""

from __future__ import annotations

import json
import math
import shutil

import pandas as pd
import pytest

from bot_repro.analysis import committed
from bot_repro.analysis.stats import collapsed_runs, wilson_interval
from bot_repro.config_schema import ConfigError
from bot_repro.models.fingerprint import policy_hash
from bot_repro.tasks.mini import shipped
from bot_repro.tasks.mini.task import MiniTask
from bot_repro.trainer.run_dir import hardware


def test_wilson_interval_matches_hand_values_and_edges():
    # 1/5: p=0.2, z=1.95996: centre (0.2 + z^2/10) / (1 + z^2/5) = 0.33034, half 0.29412
    lo, hi = wilson_interval(1, 5)
    assert lo == pytest.approx(0.036224, abs=1e-5) and hi == pytest.approx(0.624465, abs=1e-5)
    assert wilson_interval(0, 3) == (0.0, pytest.approx(0.561497, abs=1e-5))
    assert wilson_interval(3, 3) == (pytest.approx(0.438503, abs=1e-5), 1.0)
    lo, hi = wilson_interval(5, 10)
    assert lo + hi == pytest.approx(1.0)  # symmetric around 0.5
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    with pytest.raises(ValueError, match="k <= n"):
        wilson_interval(4, 3)


def _table(curves: dict[str, list[float]]) -> pd.DataFrame:
    rows = [{"run_id": rid, "algorithm.name": rid.split("_")[0], "step": 5 * i, "metric": "eval/success_rate", "value": v}
            for rid, vals in curves.items() for i, v in enumerate(vals)]
    return pd.DataFrame(rows)


def test_collapsed_runs_counts_ends_below_half_the_start_not_dips():
    df = _table({"pure_a": [0.3, 0.05, 0.8], "pure_b": [0.3, 0.4, 0.1], "grpo_a": [0.3, 0.5, 0.16]})
    flags = collapsed_runs(df, "eval/success_rate", "algorithm.name").set_index("run_id")["collapsed"]
    assert flags.to_dict() == {"grpo_a": False, "pure_a": False, "pure_b": True}
    with pytest.raises(ValueError, match="collapse fraction"):
        collapsed_runs(df, "eval/success_rate", "algorithm.name", fraction=1.5)


def test_hardware_records_what_decides_cpu_floating_point():
    hw = hardware()
    for key in ("cpu_model", "cpu_count", "cpu_capability", "blas", "blas_version", "onednn", "torch_threads",
                "torch_version", "numpy_version", "tokenizers_version", "transformers_version", "trl_version",
                "ATEN_CPU_CAPABILITY", "MKL_CBWR"):
        assert key in hw, key
    assert hw["cpu_capability"] in ("DEFAULT", "AVX2", "AVX512", "ZVECTOR", "VSX", "SVE256", "NO AVX")
    assert hw["torch_version"].split("+")[0].count(".") == 2 and isinstance(hw["torch_threads"], int)
    json.dumps(hw)  # it goes into run.json


def _group(label, steps=(45.0, 40.0, 50.0), final=(0.83, 0.81, 0.84), crossed=(3, 3), collapsed=(0, 3), speed=None):
    g = {"label": label, "to_threshold": {"step": dict(zip(("mean", "ci_low", "ci_high"), steps))},
         "final": dict(zip(("mean", "ci_low", "ci_high"), final)),
         "crossed": {"n_crossed": crossed[0], "n_runs": crossed[1]},
         "collapsed": {"n_collapsed": collapsed[0], "n_runs": collapsed[1]}}
    if speed:
        g["speedup"] = {"step": dict(zip(("ratio", "ci_low", "ci_high"), speed))}
    return g


def _summary(groups, hw=None, policy="60f80c46fae06df4"):
    meta = {"machines": [{"hardware": hw, "runs": ["0_grpo_s0"]}]} if hw else {}
    return {"policy_hash": policy, "step0_success": 0.311, "step0": {"success_ci": [0.306, 0.316]},
            "groups": groups, "meta": meta}


HW = {"cpu_model": "AMD EPYC", "cpu_capability": "AVX2", "torch_threads": 1}


def test_compare_identical_same_hardware():
    s = _summary([_group("grpo"), _group("pure", collapsed=(1, 3))], HW)
    lines = committed.compare(s, json.loads(json.dumps(s)))
    assert "statistically: consistent" in lines[-2]
    assert lines[-1] == "exactly: identical numbers (hardware: the same)"


def test_compare_overlapping_intervals_are_consistent_and_names_hardware():
    here = _summary([_group("grpo", steps=(53.3, 45.0, 60.0)), _group("bot_grpo", speed=(1.0, 0.84, 1.13))],
                    {**HW, "cpu_model": "Intel Xeon", "cpu_capability": "AVX512"})
    there = _summary([_group("grpo"), _group("bot_grpo", speed=(0.82, 0.68, 1.0))], HW)
    lines = committed.compare(here, there)
    steps = next(line for line in lines if line.startswith("grpo") and "steps to threshold" in line)
    assert "53.3 [45.0, 60.0]" in steps and "45.0 [40.0, 50.0]" in steps and steps.endswith("consistent")
    assert "statistically: consistent" in lines[-2]
    assert lines[-1] == "exactly: numbers differ, as they may: the hardware differs in cpu_capability, cpu_model"


def test_compare_disjoint_intervals_are_inconsistent_and_named():
    here = _summary([_group("pure", crossed=(3, 3), collapsed=(0, 10)), _group("grpo", final=(0.5, 0.45, 0.55))], HW)
    there = _summary([_group("pure", crossed=(0, 10), collapsed=(9, 10)), _group("grpo")], HW)
    lines = committed.compare(here, there)
    bad = {" ".join(line[:33].split()) for line in lines if line.endswith("INCONSISTENT")}
    # 3/3 [0.44, 1] vs 0/10 [0, 0.28] and 0/10 [0, 0.28] vs 9/10 [0.6, 0.98]: Wilson intervals apart
    assert bad == {"pure crossed seeds", "pure collapsed seeds", "grpo final"}
    assert lines[-2] == ("statistically: INCONSISTENT with the committed run on grpo final, pure crossed seeds, "
                         "pure collapsed seeds")
    assert "SAME POLICY AND HARDWARE" in lines[-1]


def test_compare_old_summary_without_hardware_or_collapse():
    here = _summary([_group("grpo")], HW)
    old = _summary([_group("grpo")])
    del old["groups"][0]["collapsed"]
    lines = committed.compare(here, old)
    assert any("collapsed seeds" in line and "not comparable" in line for line in lines)
    assert lines[-1].startswith("exactly: identical numbers")  # what both record is equal
    old["groups"][0]["final"]["mean"] = 0.8
    assert "records no hardware" in committed.compare(here, old)[-1]


def test_mini_runs_start_from_the_shipped_policy_by_default(tmp_path):
    """The default config's warm-start key names a shipped folder whose weights hash to its record;
    the task returns it without training, from any cache and any path of the tiny model."""
    task = MiniTask({}, {"family": "qwen2"})
    tiny = tmp_path / "a" / "qwen2-1cec14d34449"  # the default tiny model's build name
    tiny.mkdir(parents=True)
    key = task.warm_start_key(tiny)
    assert key == task.warm_start_key(tmp_path / "elsewhere" / tiny.name)
    path = shipped.POLICIES / key
    assert path.is_dir(), f"no shipped policy {key} for the default mini config"
    record = json.loads((path / "warm_start.json").read_text())
    assert policy_hash(path) == record["policy_hash"]
    assert task.warm_start(tiny, tmp_path / "cache", seed=0) == path
    assert not (tmp_path / "cache").exists()  # nothing was trained
    assert MiniTask({"warm_start_noise": 0.5}, {}).warm_start_key(tiny) != key


def test_tampered_shipped_policy_is_an_error_not_a_rebuild(tmp_path):
    src = next(p for p in shipped.POLICIES.iterdir() if (p / "warm_start.json").exists())
    copy = tmp_path / src.name
    shutil.copytree(src, copy)
    assert shipped.shipped_policy(src.name, tmp_path) == copy
    info = json.loads((copy / "warm_start.json").read_text())
    (copy / "warm_start.json").write_text(json.dumps({**info, "policy_hash": "0" * 16}))
    with pytest.raises(ConfigError, match="hash to"):
        shipped.shipped_policy(src.name, tmp_path)
    (copy / "model.safetensors").write_text("version https://git-lfs.github.com/spec/v1\n")
    with pytest.raises(ConfigError, match="cannot read its weights"):
        shipped.shipped_policy(src.name, tmp_path)
    assert shipped.shipped_policy("mini-none", tmp_path) is None
    with pytest.raises(ConfigError, match="warm_start_source='cached'; allowed: shipped, build"):
        MiniTask({"warm_start_source": "cached"}, {})
