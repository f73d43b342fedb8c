"""Loader tests on run directories written in the trainer's exact on-disk format."""

from __future__ import annotations

import json
import math

import pytest

from bot_repro.analysis.load import load_run_table, load_runs
from bot_repro.analysis.synthetic import curve_records, run_config, run_info, write_run_dir
from bot_repro.run_folder import MetricsFormatError, find_run_dirs, read_config, read_metrics


def _write_lines(path, lines):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines))


def test_sweeps_load_into_long_table(tmp_path):
    for job, (alg, seed) in enumerate([("grpo", 0), ("bot_grpo", 0)]):
        records = [{"step": 0, "eval/compile_rate": 0.1}] + curve_records(
            [1, 2], {"loss": [0.5, 0.25], "eval/compile_rate": [None, 0.6]}
        )
        write_run_dir(tmp_path / "sweep_a" / str(job), run_config(alg, seed), records, run_info(seed))
    write_run_dir(
        tmp_path / "sweep_b" / "0", run_config("dapo", 1), curve_records([1], {"loss": [0.7]}), None
    )

    df = load_runs([tmp_path / "sweep_a", tmp_path / "sweep_b"])

    assert sorted(df["run_id"].unique()) == ["sweep_a/0", "sweep_a/1", "sweep_b/0"]
    # per sweep_a run: step 0 eval, step 1 loss, step 2 loss + eval = 4 rows; sweep_b: 1 row
    assert len(df) == 9
    run0 = df[df["run_id"] == "sweep_a/0"]
    assert run0[["step", "metric", "value"]].values.tolist() == [
        [0, "eval/compile_rate", 0.1],
        [1, "loss", 0.5],
        [2, "eval/compile_rate", 0.6],
        [2, "loss", 0.25],
    ]
    # step 0 logged no time or tokens: both default to 0; later steps carry the logged values
    assert run0["time"].tolist() == [0.0, 10.0, 20.0, 20.0]
    assert run0["generated_tokens"].tolist() == [0.0, 1000.0, 2000.0, 2000.0]
    assert set(df["algorithm.name"]) == {"grpo", "bot_grpo", "dapo"}
    assert df.loc[df["run_id"] == "sweep_b/0", "seed"].tolist() == [1]
    assert df["reward.w_s"].unique().tolist() == [0.5]
    assert df["experiment_name"].isna().all()  # key absent from every config


def test_root_that_is_a_run_dir_and_repeated_roots(tmp_path):
    run = write_run_dir(tmp_path / "sweep" / "7", run_config("grpo", 0), curve_records([1], {"loss": [1.0]}))
    assert [rid for rid, _ in find_run_dirs(run)] == ["7"]
    assert [rid for rid, _ in find_run_dirs([tmp_path / "sweep", tmp_path / "sweep"])] == ["sweep/7"]


def test_last_occurrence_of_a_step_wins_and_restart_drops_abandoned_steps(tmp_path):
    path = tmp_path / "run" / "metrics.jsonl"
    steps = [(1, 1.0), (2, 2.0), (3, 3.0), (4, 4.0), (2, 20.0), (3, 30.0)]
    _write_lines(
        path, [json.dumps({"step": s, "time": s, "generated_tokens": s, "loss": v}) for s, v in steps]
    )
    records = read_metrics(path)
    # the restart at step 2 supersedes 2, 3 and also 4, which the new attempt has not re-logged yet
    assert [(r["step"], r["loss"]) for r in records] == [(1, 1.0), (2, 20.0), (3, 30.0)]


def test_consecutive_duplicate_step_keeps_last_record(tmp_path):
    path = tmp_path / "run" / "metrics.jsonl"
    lines = [
        {"step": 1, "time": 1, "generated_tokens": 5, "loss": 1.0},
        {"step": 1, "time": 2, "generated_tokens": 6},
    ]
    _write_lines(path, [json.dumps(r) for r in lines])
    assert read_metrics(path) == [{"step": 1, "time": 2, "generated_tokens": 6}]


def test_truncated_last_line_is_skipped_with_warning(tmp_path):
    run = write_run_dir(
        tmp_path / "run",
        run_config("grpo", 0),
        curve_records([1, 2, 3], {"loss": [1, 2, 3]}),
        truncate_last=True,
    )
    with pytest.warns(UserWarning, match=r"metrics\.jsonl:3: skipping truncated last line"):
        df = load_runs(run)
    assert df["step"].tolist() == [1, 2]


@pytest.mark.parametrize(
    ("lines", "match"),
    [
        # the blank line 2 still counts, so the broken record is reported on line 3
        (
            ['{"step": 1, "time": 1, "generated_tokens": 1}', "", "{broken", '{"step": 2}'],
            r"jsonl:3: not valid JSON",
        ),
        (
            ["[1, 2]", '{"step": 1, "time": 1, "generated_tokens": 1}'],
            r"metrics\.jsonl:1: expected a JSON object",
        ),
        (['{"time": 1, "generated_tokens": 1}', "{}"], r"metrics\.jsonl:1: record has no 'step'"),
        (
            ['{"step": true, "time": 1, "generated_tokens": 1}', "{}"],
            r":1: 'step' must be an integer >= 0, got True",
        ),
        (
            ['{"step": 1.5, "time": 1, "generated_tokens": 1}', "{}"],
            r":1: 'step' must be an integer >= 0, got 1.5",
        ),
        (
            ['{"step": 0}', '{"step": 3, "generated_tokens": 1}'],
            r"metrics\.jsonl:2: step 3 needs a numeric 'time'",
        ),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path, lines, match):
    path = tmp_path / "run" / "metrics.jsonl"
    _write_lines(path, lines)
    with pytest.raises(MetricsFormatError, match=match):
        read_metrics(path)


def test_values_that_are_not_numbers_are_ignored(tmp_path):
    record = {
        "step": 1,
        "time": 1.0,
        "generated_tokens": 10,
        "loss": 0.5,
        "ok": True,
        "text": "hi",
        "none": None,
        "vec": [1, 2],
        "nan": float("nan"),
    }
    run = write_run_dir(tmp_path / "run", None, [record])
    df = load_runs(run)
    values = dict(zip(df["metric"], df["value"]))
    assert set(values) == {"loss", "ok", "nan"}
    assert values["ok"] == 1.0 and math.isnan(values["nan"])


def test_missing_optional_pieces(tmp_path):
    run = write_run_dir(tmp_path / "run", None, curve_records([1], {"loss": [1.0]}), None)
    df = load_runs(run, config_keys=["algorithm.name", "run.status"])
    assert df["algorithm.name"].isna().all() and df["run.status"].isna().all()
    table = load_run_table(run)
    assert not table.loc[0, "has_config"]
    assert not table.loc[0, "has_run_info"]
    assert table.loc[0, "last_step"] == 1


def test_run_table_has_config_and_run_json_fields(tmp_path):
    write_run_dir(
        tmp_path / "s" / "0", run_config("grpo", 3), curve_records([1, 2], {"loss": [1, 2]}), run_info(3)
    )
    write_run_dir(tmp_path / "s" / "1", run_config("pure", 4), [], run_info(4, status="running"))
    table = load_run_table(tmp_path / "s").set_index("run_id")
    assert table.loc["s/0", "algorithm.name"] == "grpo"
    assert table.loc["s/0", "run.status"] == "completed"
    assert table.loc["s/0", "run.packages.trl"] == "1.16.0"
    assert table.loc["s/0", "last_step"] == 2 and table.loc["s/0", "n_records"] == 2
    assert table.loc["s/1", "run.status"] == "running" and table.loc["s/1", "n_records"] == 0
    df = load_runs(tmp_path / "s", config_keys=["algorithm.name", "run.status"])
    assert set(df["run.status"]) == {"completed"}  # the empty running run contributes no rows


def test_config_interpolations(tmp_path):
    (tmp_path / "run" / ".hydra").mkdir(parents=True)
    (tmp_path / "run" / ".hydra" / "config.yaml").write_text(
        "algorithm:\n  name: bot_grpo\nexperiment_name: ${algorithm.name}_s${seed}\nseed: 2\n"
        "stamp: ${now:%Y}\nlist: [1, 2]\nmissing: ???\n"
    )
    flat = read_config(tmp_path / "run")
    assert flat["experiment_name"] == "bot_grpo_s2"
    assert flat["stamp"] == "${now:%Y}"  # a Hydra-only resolver keeps its text
    assert flat["list"] == "[1, 2]"
    assert flat["missing"] is None


def test_bad_config_and_run_json_fail_with_path(tmp_path):
    run = write_run_dir(tmp_path / "run", None, curve_records([1], {"loss": [1.0]}))
    (run / ".hydra").mkdir()
    (run / ".hydra" / "config.yaml").write_text("a: [1, 2\n")
    with pytest.raises(ValueError, match=r"config\.yaml: not valid YAML"):
        load_runs(run)
    (run / ".hydra" / "config.yaml").write_text("a: 1\n")
    (run / "run.json").write_text("{")
    with pytest.raises(ValueError, match=r"run\.json: not valid JSON"):
        load_runs(run)


def test_roots_without_runs_and_bad_keys(tmp_path):
    with pytest.raises(FileNotFoundError, match="do not exist"):
        load_runs(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no run directories"):
        load_runs(tmp_path / "empty")
    run = write_run_dir(tmp_path / "run", None, curve_records([1], {"loss": [1.0]}))
    with pytest.raises(ValueError, match=r"clash.*'step'"):
        load_runs(run, config_keys=["step"])
