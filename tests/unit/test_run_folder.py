"""The run folder's one owner: writers and readers agree, run.json carries and checks its format
version, and the recorded command holds no absolute path of the machine."""

from __future__ import annotations

import json
import os
import sys

import pytest

from bot_repro.run_folder import (
    FORMAT_VERSION,
    RunFormatError,
    append_metrics,
    portable_command,
    read_config,
    read_metrics,
    read_run_info,
    read_run_json,
    truncate_metrics,
    write_rollouts,
    write_run_dir,
    write_run_json,
)
from bot_repro.run_folder.schema import BATCH_KEYS, METRICS, RENAME, RUN_INFO, X_COLUMNS
from bot_repro.run_folder.write import PACKAGE, REPO


def test_a_written_run_folder_reads_back(tmp_path):
    records = [{"step": 0, "eval/pass@1": 0.5}, {"step": 1, "time": 2.0, "generated_tokens": 10, "loss": 0.25}]
    run = write_run_dir(tmp_path / "r", {"algorithm": {"name": "grpo"}, "seed": 3}, records, {"seed": 3, "status": "completed"})
    assert [r["step"] for r in read_metrics(run / METRICS)] == [0, 1]
    assert read_metrics(run / METRICS)[1]["loss"] == 0.25
    assert read_config(run)["algorithm.name"] == "grpo"
    info = read_run_info(run)
    assert info["run.format_version"] == FORMAT_VERSION and info["run.status"] == "completed"
    assert next(iter(json.loads((run / RUN_INFO).read_text()))) == "format_version"


def test_pieces_left_out_read_as_none(tmp_path):
    run = write_run_dir(tmp_path / "r", None, [{"step": 0}])
    assert read_config(run) is None and read_run_info(run) is None and read_run_json(run) is None


def test_run_json_without_a_version_is_version_1(tmp_path):
    (tmp_path / RUN_INFO).write_text(json.dumps({"seed": 0, "status": "completed"}))
    assert read_run_json(tmp_path)["format_version"] == 1
    assert read_run_info(tmp_path)["run.format_version"] == 1


@pytest.mark.parametrize("version", [2, 0, "1", True, None])
def test_an_unknown_version_is_refused_naming_it(tmp_path, version):
    (tmp_path / RUN_INFO).write_text(json.dumps({"format_version": version, "seed": 0}))
    with pytest.raises(RunFormatError, match=rf"format_version={version!r} is not a run-folder format.*reads \[1\]"):
        read_run_info(tmp_path)


def test_write_run_json_stamps_the_version_over_nothing_else(tmp_path):
    write_run_json(tmp_path, {"seed": 1, "command": "python -m bot_repro.train"})
    assert json.loads((tmp_path / RUN_INFO).read_text()) == {
        "format_version": FORMAT_VERSION, "seed": 1, "command": "python -m bot_repro.train"}


def test_append_then_truncate_metrics(tmp_path):
    path = tmp_path / METRICS
    append_metrics(path, [{"step": s, "time": float(s), "generated_tokens": s} for s in range(4)])
    append_metrics(path, [{"step": 4, "time": 4.0, "generated_tokens": 4}])
    path.write_text(path.read_text() + '{"step": 5, "ti')  # a line cut by a kill
    assert truncate_metrics(path, 2) == 3
    assert [r["step"] for r in read_metrics(path)] == [0, 1, 2]
    assert path.read_text().endswith("\n")


def test_rollouts_are_one_json_object_per_line(tmp_path):
    path = write_rollouts(tmp_path / "rollouts", 7, [{"index": 0, "text": "a"}, {"index": 1, "text": "b"}])
    assert path.name == "step_000007.jsonl"
    assert [json.loads(x)["text"] for x in path.read_text().splitlines()] == ["a", "b"]


def test_schema_names_are_consistent():
    assert len(set(RENAME.values())) == len(RENAME)
    assert not set(BATCH_KEYS) & set(RENAME.values()) and not set(X_COLUMNS) & set(RENAME.values())


def test_command_of_python_dash_m_is_the_module(tmp_path):
    argv = [str(PACKAGE / "train.py"), "-m", "experiment=mini_demo", "seed=0,1"]
    assert portable_command(argv, tmp_path) == "python -m bot_repro.train -m experiment=mini_demo seed=0,1"


def test_command_paths_are_relative_to_the_repository_or_the_run_folder(tmp_path):
    run_dir = tmp_path / "sweep" / "0_grpo_s0"
    argv = [str(PACKAGE / "train.py"), f"hydra.run.dir={run_dir}", f"hydra.sweep.dir={tmp_path / 'sweep'}",
            f"task.params.source={REPO / 'data' / 'aime.csv'}", str(tmp_path / "other.yaml"), "trainer.max_steps=2"]
    cmd = portable_command(argv, run_dir)
    assert cmd == ("python -m bot_repro.train hydra.run.dir=. hydra.sweep.dir=.. task.params.source=data/aime.csv "
                   f"{os.path.join('..', '..', 'other.yaml')} trainer.max_steps=2")
    assert str(tmp_path) not in cmd and str(REPO) not in cmd


def test_a_foreign_script_keeps_its_name_but_not_its_path(tmp_path):
    cmd = portable_command([sys.executable, "x=1"], tmp_path)
    assert not any(os.path.isabs(w.partition("=")[2] or w) for w in cmd.split())


def test_the_archived_record_keeps_hydras_group_choices_and_no_paths(tmp_path):
    """A report grouped by a config group (real_seeds: ``choice.arm``) redraws from its archive only if
    the archive keeps ``runtime.choices``; the rest of hydra.yaml (the machine's paths) stays behind."""
    import yaml

    from bot_repro.run_folder.records import HYDRA, copy_record, read_choices

    src, dst = tmp_path / "sweep" / "0_arith_grpo_s0", tmp_path / "archive" / "0_arith_grpo_s0"
    (src / ".hydra").mkdir(parents=True)
    (src / METRICS).write_text('{"step": 1, "loss": 0.5}\n')
    hydra = {"hydra": {"runtime": {"cwd": "/work/someone/checkout", "choices": {"arm": "arith_grpo", "model": "smollm2_135m",
                                                                             "hydra/launcher": "joblib"}},
                       "run": {"dir": "/tmp/x"}}}
    (src / HYDRA).write_text(yaml.safe_dump(hydra))
    copy_record(src, dst)
    assert read_choices(dst) == {"arm": "arith_grpo", "model": "smollm2_135m"}
    assert "/work/" not in (dst / HYDRA).read_text() and "/tmp/" not in (dst / HYDRA).read_text()
    (src / HYDRA).unlink()
    copy_record(src, tmp_path / "archive" / "no_hydra")
    assert not (tmp_path / "archive" / "no_hydra" / HYDRA).exists()


def test_resume_compares_configs_key_by_key_and_an_option_added_since_left_off_is_no_change():
    from bot_repro.trainer.run_dir import config_changes

    saved = {"seed": 0, "resume": False, "model": {"name": "m", "dtype": "float32"}}
    same_but_newer = {"seed": 0, "resume": True, "model": {"name": "m", "dtype": "float32",
                                                            "lora": {"enabled": False, "r": None, "adapter": None}}}
    assert config_changes(saved, same_but_newer) == []
    turned_on = {**same_but_newer, "model": {**same_but_newer["model"], "lora": {"enabled": True, "r": None}}}
    assert config_changes(saved, turned_on) == [("model.lora.enabled", "<unset>", True)]
    assert config_changes(saved, {**saved, "seed": 1}) == [("seed", 0, 1)]
    assert config_changes({**saved, "x": None}, saved) == [("x", None, "<unset>")]  # a key that went away counts
    # the task/reward smoke blocks every config held before smoke mode moved to conf/debug/ are no change
    old_blocks = {**saved, "task": {"name": "arith", "smoke": {"n_train": 8}}, "reward": {"smoke": {"w_s": 0.0}}}
    assert config_changes(old_blocks, {**saved, "task": {"name": "arith"}, "reward": {}}) == []
