"""The baseline table (``analysis.study_tables.baseline_markdown``, ``report.baseline_table``): per group, step 0
-> end of the headline metric with the paired gain, the rollouts each run trained on, its hours (training and
evaluations) and the machines its own runs ran on, from a synthetic sweep whose numbers are counted by hand."""

from __future__ import annotations

import pytest

from bot_repro.analysis.study_tables import BASELINE_COLUMNS, baseline_markdown
from bot_repro.analysis.summary import summarise
from bot_repro.analysis.synthetic import curve_records, run_info, write_run_dir
from bot_repro.experiment.run_table import load_figure_runs

MACHINES = [{"hardware": {"cpu_model": "Xeon", "torch_threads": 1}, "runs": ["0", "1"]},
            {"hardware": {"cpu_model": "EPYC", "torch_threads": 1}, "runs": ["1", "2"]}]


def _config(arm: str, seed: int, prompts: int) -> dict:
    return {"seed": seed, "arm": arm, "model": {"name": "smollm2_135m"}, "task": {"name": "arith"},
            "algorithm": {"name": "grpo"},
            "trainer": {"prompts_per_step": prompts, "num_generations": 8, "learning_rate": 3.0e-4}}


def test_each_setting_gets_its_start_end_gain_rollouts_and_hours(tmp_path):
    # eval_seconds: cumulative, restarted from 0 by a resume (run 0, as runs resumed before #52's fix) or not
    runs = [("p8", 0, 8, [0.25, 0.35], [None, 900.0, 0.0, 900.0]), ("p8", 1, 8, [0.30, 0.30], [None, 0.0, 0.0, 0.0]),
            ("p16", 0, 16, [0.20, 0.40], [None, 0.0, 0.0, 360.0])]
    for job, (arm, seed, prompts, values, evals) in enumerate(runs):
        # 60 steps at 60 s each: an hour per run, and its evaluations' seconds
        write_run_dir(tmp_path / "sweep" / str(job), _config(arm, seed, prompts),
                      curve_records([0, 20, 21, 60], {"eval/pass@1": [values[0], None, None, values[1]], "eval_seconds": evals},
                                    seconds_per_step=60.0), run_info(seed))
    df = load_figure_runs([tmp_path / "sweep"], ["arm", *BASELINE_COLUMNS])  # the columns a report loads
    assert set(BASELINE_COLUMNS) <= set(df.columns)
    summary = summarise(df, "eval/pass@1", None, group_by="arm", baseline=None, n_resamples=1000)
    text = baseline_markdown(df, summary, MACHINES, labels={"p8": "8 prompts"})
    rows = {line.split(" | ")[0].lstrip("| "): line for line in text.splitlines() if line.startswith("| ") and "---" not in line}
    assert rows["8 prompts"] == ("| 8 prompts | smollm2_135m | arith | grpo | 8 x 8, 0.0003 | 2 | 0.275 [0.250, 0.300] "
                                 "| 0.325 [0.300, 0.350] | 0.0500 [0.00, 0.100] | 3,840 | 1.25 | EPYC, 1 thread(s); Xeon, 1 thread(s) |")
    assert rows["p16"] == "| p16 | smollm2_135m | arith | grpo | 16 x 8, 0.0003 | 1 | 0.200 | 0.400 | 0.200 | 7,680 | 1.10 | EPYC, 1 thread(s) |"
    assert summary["groups"][1]["gain"]["mean"] == pytest.approx(0.05)
