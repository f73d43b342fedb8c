"""``experiment=real_small``'s report (``make real-demo``'s last step) through the one report path: per-arm
curves of held-out and training metrics, the step accuracy derived as a ratio of two logged sums."""

from __future__ import annotations

import pytest

from bot_repro import report_folder
from bot_repro.analysis.synthetic import run_config, run_info, write_run_dir
from bot_repro.experiment import run


def _records(format_ok: list[float], held_out: dict[int, float]) -> list[dict]:
    out = [{"step": 0, "time": 0.0, "generated_tokens": 0, "eval/format_ok_rate": held_out[0], "eval/sample_accuracy": 0.0,
            "eval/step_accuracy": 0.2}]
    for step, value in enumerate(format_ok, start=1):
        record = {"step": step, "time": 10.0 * step, "generated_tokens": 100 * step, "reward/format_ok": value, "reward/correct": 0.0,
                  "reward/steps_true": 1.0, "reward/steps_checked": 2.0 if step > 1 else 0.0}
        if step in held_out:
            record.update({"eval/format_ok_rate": held_out[step], "eval/sample_accuracy": 0.0, "eval/step_accuracy": 0.5})
        out.append(record)
    return out


def test_report_reads_each_arm_and_derives_the_step_accuracy(tmp_path):
    sweep = tmp_path / "runs" / "real_small" / "2026-01-01_00-00-00" / "sweep"
    write_run_dir(sweep / "0_grpo_s0", run_config("grpo", 0), _records([0.5, 0.25, 0.75], {0: 0.25, 3: 0.5}), run_info(0))
    write_run_dir(sweep / "1_bot_grpo_s0", run_config("bot_grpo", 0), _records([0.5, 0.5, 1.0], {0: 0.25, 3: 0.75}),
                  run_info(0))
    out = run.redraw("real_small", [], run.Roots(tmp_path / "runs"), "cmd", runs=[sweep], out=tmp_path / "report")
    doc = report_folder.read_summary(out)
    curves = {s["metric"]: {c["group"]["algorithm.name"]: c["points"] for c in s["curves"]} for s in doc["summaries"]}
    assert sorted(curves) == sorted(["eval/format_ok_rate", "eval/sample_accuracy", "eval/step_accuracy", "reward/format_ok",
                                     "reward/correct", "reward/step_accuracy"])
    assert curves["reward/format_ok"]["grpo"] == [[1, 0.5, 1], [2, 0.25, 1], [3, 0.75, 1]]
    assert [v for _, v, _ in curves["eval/format_ok_rate"]["bot_grpo"]] == [0.25, 0.75]
    # step 1 checked no step: no step accuracy there, not 0; then 1 true of 2 checked
    assert curves["reward/step_accuracy"]["grpo"] == [[2, 0.5, 1], [3, 0.5, 1]]
    finals = {g["label"]: g["final"]["mean"] for g in doc["summaries"][0]["groups"]}
    assert finals == {"bot_grpo": pytest.approx(0.75), "grpo": pytest.approx(0.5)}
    assert (out / "real_small.png").stat().st_size > 10_000 and (out / "real_small.pdf").exists()
    assert sorted(p.name for p in report_folder.unpack(out).iterdir()) == ["0_grpo_s0", "1_bot_grpo_s0"]
