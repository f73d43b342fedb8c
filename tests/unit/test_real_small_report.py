"""``bot_repro.analysis.real_small`` (the last step of ``make real-demo``): per-arm curves from run folders,
its summary and figure. It had gone untested and broke when the plot style's colour helper was removed."""

from __future__ import annotations

import json

from bot_repro.analysis.real_small import main, report
from bot_repro.analysis.synthetic import run_config, run_info, write_run_dir


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


def test_report_reads_each_arm_and_draws_three_panels(tmp_path, monkeypatch):
    sweep = tmp_path / "runs" / "real_small" / "2026-01-01_00-00-00"
    write_run_dir(sweep / "0_grpo_s0", run_config("grpo", 0), _records([0.5, 0.25, 0.75], {0: 0.25, 3: 0.5}), run_info(0))
    write_run_dir(sweep / "1_bot_grpo_s0", run_config("bot_grpo", 0), _records([0.5, 0.5, 1.0], {0: 0.25, 3: 0.75}),
                  run_info(0))
    summary = report(sweep, tmp_path / "out")
    assert sorted(summary["runs"]) == ["bot_grpo", "grpo"]
    grpo = summary["runs"]["grpo"]
    assert grpo["steps"] == 3 and grpo["status"] == "completed"
    fmt = grpo["curves"]["format rate (no tag error)"]
    assert fmt["train"] == [(1, 0.5), (2, 0.25), (3, 0.75)]
    assert [v for _, v in fmt["eval"]] == [0.25, 0.5]
    steps = grpo["curves"]["step accuracy (checked steps)"]["train"]
    assert [s for s, _ in steps] == [2, 3]  # a step with no checked step has no step accuracy, not 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["runs"]["bot_grpo"]["steps"] == 3
    assert (tmp_path / "out" / "real_small.png").stat().st_size > 0 and (tmp_path / "out" / "real_small.pdf").exists()
    # `latest` (what make real-demo calls) finds the newest sweep under runs/real_small
    monkeypatch.chdir(tmp_path)
    assert main(["latest"]) == 0
    assert (sweep / "report" / "real_small.png").exists()
