"""What a committed sitting holds, told from its archive (``sitting.describe``, the tables of a results
README), and the run record it reads: a resumed run's earlier attempts keep their own code and CPU, since a
study's sittings run on different machines and commits."""

import json

import pytest

from bot_repro import report_folder
from bot_repro.experiment import sitting
from bot_repro.experiment.sweep import ExperimentError
from bot_repro.run_folder.schema import CHECKPOINTS, METRICS, RUN_INFO
from bot_repro.trainer.run_dir import RunRecord


def _write(run, records, info):
    run.mkdir(parents=True)
    (run / METRICS).write_text("".join(json.dumps(r) + "\n" for r in records))
    (run / RUN_INFO).write_text(json.dumps(info))


def _step(step, seconds, evals, **extra):
    return {"step": step, "time": float(step), "generated_tokens": 1, "step_seconds": seconds, "eval_seconds": evals, **extra}


def test_describe_sums_attempts_and_their_evaluation_time(tmp_path):
    runs = tmp_path / "pack" / report_folder.RUNS
    # resumed once at step 3: eval_seconds, cumulative within an attempt, starts again from 0
    _write(runs / "0_grpo_s0",
           [{"step": 0, "eval/pass@1": 0.25}, _step(1, 10, 0.0), _step(2, 20, 5.0, **{"eval/pass@1": 0.3}),
            _step(3, 30, 0.0), _step(4, 40, 7.0, **{"eval/pass@1": 0.4})],
           {"status": "completed", "start_time": "2026-12-08T11:00:00+0000", "end_time": "2026-12-08T11:45:00+0000",
            "git_sha": "b" * 40, "hardware": {"cpu_model": "CPU Y"},
            "history": [{"start_time": "2026-12-08T10:00:00+0000", "end_time": "2026-12-08T10:30:00+0000",
                         "status": "killed", "git_sha": "a" * 40, "cpu_model": "CPU X"}]})
    stopped = runs / "1_grpo_s1"
    _write(stopped, [{"step": 0, "eval/pass@1": 0.2}, _step(1, 12, 0.0), _step(2, 14, 3.0, **{"eval/pass@1": 0.1})],
           {"status": "running", "start_time": "2026-12-08T10:00:00+0000", "end_time": None,
            "git_sha": "c" * 40, "hardware": {"cpu_model": "CPU X"}, "history": []})
    (stopped / CHECKPOINTS / "checkpoint-2").mkdir(parents=True)
    (stopped / CHECKPOINTS / "checkpoint-2" / "trainer_state.json").write_text("{}")
    folder = tmp_path / "results"
    report_folder.write_archive(runs, folder / "sitting_1.tar.xz")

    lines = sitting.describe(folder).splitlines()
    assert lines[0] == "### sitting_1.tar.xz"
    done = next(line for line in lines if "`0_grpo_s0`" in line)
    assert "| completed | 0.250, 0.300, 0.400 | 75 min (median step 25 s; 3 evaluations, 12 s) | 2 |" in done
    assert done.endswith("| aaaaaaa on CPU X; bbbbbbb on CPU Y |")
    part = next(line for line in lines if "`1_grpo_s1`" in line)
    assert "| checkpoint-2 | 0.200, 0.100 | stopped (median step 13 s; 2 evaluations, 3 s) | 1 |" in part


def test_describe_without_sittings_says_how_to_make_one(tmp_path):
    with pytest.raises(ExperimentError, match="no sitting_<n>.tar.xz.*pack NAME"):
        sitting.describe(tmp_path)


def test_a_resumed_runs_history_keeps_the_earlier_attempts_code_and_cpu(tmp_path):
    (tmp_path / RUN_INFO).write_text(json.dumps({
        "format_version": 1, "status": "running", "start_time": "2026-12-08T10:00:00+0000", "end_time": None,
        "git_sha": "a" * 40, "hardware": {"cpu_model": "CPU X"}, "attempts": 1, "history": []}))
    record = RunRecord(tmp_path, seed=0, resumed_from="checkpoint-2")
    (earlier,) = record.data["history"]
    assert earlier == {"start_time": "2026-12-08T10:00:00+0000", "end_time": None, "status": "killed",
                       "git_sha": "a" * 40, "cpu_model": "CPU X"}
    assert record.data["attempts"] == 2
