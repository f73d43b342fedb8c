"""wandb export against a fake ``wandb.Api`` (no network): full history, key mapping, the loader's table."""

from __future__ import annotations

import json
import math

import pytest
import yaml

from bot_repro.analysis.wandb_export import export_runs, history_records, load_wandb_runs, main


class FakeRun:
    def __init__(self, run_id, config, rows, state="finished"):
        self.id, self.name, self.path = run_id, f"name-{run_id}", ["ent", "proj", run_id]
        self.config, self.state, self.created_at = config, state, "2026-03-01T10:00:00"
        self._rows = rows

    def scan_history(self, keys=None, page_size=1000, min_step=None, max_step=None):
        yield from self._rows

    def history(self, samples=500, **kw):  # the sampled API: using it would thin long runs
        raise AssertionError("export must read the full history with scan_history()")


class FakeApi:
    def __init__(self, runs):
        self._runs = {r.id: r for r in runs}
        self.queries = []

    def run(self, path):
        return self._runs[path.split("/")[-1]]

    def runs(self, path, filters=None):
        self.queries.append((path, filters))
        return [r for r in self._runs.values() if all(r.config.get(k.split(".", 1)[1]) == v for k, v in (filters or {}).items())]


def _trl_rows(n_steps, compile_rate):
    """What TRL's wandb callback logs per step, plus our eval row every 10 steps, with wandb's _ keys."""
    rows = []
    for step in range(1, n_steps + 1):
        rows.append({"_step": 2 * step, "_runtime": 3.0 * step, "train/global_step": step, "train/loss": 0.1,
                     "train/clip_ratio/region_mean": 0.02, "train/reward": 0.5, "media": {"_type": "image"}})
        if step % 10 == 0:
            rows.append({"_step": 2 * step + 1, "_runtime": 3.0 * step + 1, "train/global_step": step,
                         "eval/compile_rate": compile_rate(step)})
    return rows


def test_history_rows_merge_per_step_and_rename():
    records = history_records(_trl_rows(20, lambda s: s / 100))
    assert [r["step"] for r in records] == list(range(1, 21))
    tenth = records[9]
    assert tenth == {"step": 10, "time": 31.0, "generated_tokens": tenth["generated_tokens"], "loss": 0.1,
                     "clip_frac": 0.02, "reward": 0.5, "eval/compile_rate": 0.1}
    assert math.isnan(tenth["generated_tokens"])  # unknown, not 0


def test_our_own_records_mirrored_to_wandb_keep_their_names():
    rows = [{"_step": 0, "step": 0, "eval/pass@1": 0.0}, {"_step": 1, "step": 1, "time": 2.5, "generated_tokens": 640,
                                                           "reward_mean": 0.3, "eval/pass@1": 0.1}]
    assert history_records(rows) == [
        {"step": 0, "eval/pass@1": 0.0, "time": 0.0, "generated_tokens": 0.0},
        {"step": 1, "reward_mean": 0.3, "eval/pass@1": 0.1, "time": 2.5, "generated_tokens": 640.0},
    ]


def test_export_reads_full_history_into_the_plot_table(tmp_path):
    runs = [FakeRun("a1", {"seed": 0, "algorithm": {"name": "bot_grpo"}}, _trl_rows(600, lambda s: 0.9)),
            FakeRun("b2", {"seed": 1, "algorithm": {"name": "grpo"}}, _trl_rows(600, lambda s: 0.4), state="crashed")]
    frame = load_wandb_runs(FakeApi(runs), tmp_path, config_keys=["algorithm.name", "seed", "run.status"],
                            run_paths=["ent/proj/a1", "ent/proj/b2"])
    frame["run_id"] = frame["run_id"].str.rsplit("/", n=1).str[-1]
    loss = frame[frame["metric"] == "loss"]
    assert loss.groupby("run_id")["step"].nunique().to_dict() == {"a1": 600, "b2": 600}  # > 500: not sampled
    final = frame[(frame["metric"] == "eval/compile_rate") & (frame["step"] == 600)]
    assert dict(zip(final["algorithm.name"], final["value"])) == {"bot_grpo": 0.9, "grpo": 0.4}
    assert dict(zip(frame["run_id"], frame["run.status"])) == {"a1": "completed", "b2": "failed"}
    cfg = yaml.safe_load((tmp_path / "a1" / ".hydra" / "config.yaml").read_text())
    assert cfg["wandb"] == {"id": "a1", "name": "name-a1", "path": "ent/proj/a1"}


def test_project_filter_and_stamped_config(tmp_path):
    api = FakeApi([FakeRun("a1", {"seed": 0}, _trl_rows(10, lambda s: 0.5)), FakeRun("b2", {"seed": 1}, [])])
    paths = export_runs(api, tmp_path, project="ent/proj", filters={"config.seed": 0},
                        stamp={"algorithm.name": "bot_grpo", "model.name": "qwen2_5_3b"})
    assert [p.name for p in paths] == ["a1"] and api.queries == [("ent/proj", {"config.seed": 0})]
    cfg = yaml.safe_load((tmp_path / "a1" / ".hydra" / "config.yaml").read_text())
    assert cfg["algorithm"] == {"name": "bot_grpo"} and cfg["model"] == {"name": "qwen2_5_3b"} and cfg["seed"] == 0
    assert json.loads((tmp_path / "a1" / "run.json").read_text())["start_time"] == "2026-03-01T10:00:00"


@pytest.mark.parametrize("argv, message", [
    ([], "name runs"),
    (["ent/proj/a1", "--set", "no_equals_sign"], "--set takes key=value"),
    (["--project", "ent/proj", "--filters", "{seed: 0"], "--filters is not JSON"),
])
def test_cli_rejects_bad_input_before_creating_the_api(argv, message, capsys, monkeypatch):
    import wandb

    monkeypatch.setattr(wandb, "Api", lambda *a, **k: pytest.fail("wandb.Api() must not be reached"))
    assert main(argv) == 2
    assert message in capsys.readouterr().err
