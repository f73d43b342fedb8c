"""Adding a task is one folder (task + reward source) plus its config: ``conf/task/<name>.yaml``
and its default reward stack ``conf/reward/<name>_default.yaml``. Here a throwaway ``echo`` task
is written that way into a temporary folder, found by the plugin loader and trained end to end."""

from __future__ import annotations

import json
import sys

import yaml

import bot_repro.tasks
from bot_repro.plugins import task_packages
from bot_repro.rewards import REWARD_SOURCES
from bot_repro.tasks import TASKS

TASK_PACKAGE = '''
"""The echo task: answer with the user's word. Registers the ``echo`` task and reward source."""
from bot_repro.rewards.base import REWARD_SOURCES, RewardResult, SpanReward
from bot_repro.tasks.base import TASKS, Task


class EchoTask(Task):
    name = "echo"

    def __init__(self, params, model_cfg):
        self.words = list(params.get("words", ["alpha", "beta", "gamma", "delta"]))

    def datasets(self):
        rows = [{"id": f"echo-{i}", "word": w, "prompt": [{"role": "user", "content": w}]}
                for i, w in enumerate(self.words)]
        return rows, rows[:2]

    def evaluate(self, completions, rows):
        hits = [c.strip() == r["word"] for r, cs in zip(rows, completions) for c in cs]
        return {"echo_rate": sum(hits) / max(1, len(hits))}

    def tokenizer_corpus(self):
        return self.words


class EchoReward:
    window = 0

    def score(self, completions, rows):
        return [RewardResult(global_score=float(c.strip() == r["word"]),
                             spans=[SpanReward(0, 1, -0.1)] if c and c[0] != r["word"][0] else [],
                             components={"echoed": float(c.strip() == r["word"])})
                for c, r in zip(completions, rows)]


TASKS.register("echo")(lambda params, model_cfg: EchoTask(params, model_cfg))
REWARD_SOURCES.register("echo")(lambda cfg, ctx: EchoReward())
'''


def test_a_task_is_one_folder_and_its_config(tmp_path, monkeypatch):
    pkg_root, conf = tmp_path / "tasks", tmp_path / "conf"
    (pkg_root / "echo").mkdir(parents=True)
    (pkg_root / "echo" / "__init__.py").write_text(TASK_PACKAGE)
    (conf / "task").mkdir(parents=True)
    (conf / "reward").mkdir()
    (conf / "task" / "echo.yaml").write_text("name: echo\nparams:\n  words: [alpha, beta, gamma, delta]\n")
    (conf / "reward" / "echo_default.yaml").write_text("source: echo\nw_g: 1.0\nw_s: 0.1\nwindow: 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(bot_repro.tasks, "__path__", [*bot_repro.tasks.__path__, str(pkg_root)])
    assert "bot_repro.tasks.echo" in task_packages()

    from tests.integration.helpers import run_inprocess

    run_dir = tmp_path / "run"
    try:
        run_inprocess(["debug=smoke", "task=echo", "algorithm=grpo", f"hydra.searchpath=[file://{conf}]"], run_dir)
    finally:
        sys.modules.pop("bot_repro.tasks.echo", None)
        TASKS.pop("echo", None)
        REWARD_SOURCES.pop("echo", None)
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in records] == [0, 1, 2]
    assert "eval/echo_rate" in records[0] and "reward/echoed" in records[1]
    assert yaml.safe_load((run_dir / ".hydra" / "config.yaml").read_text())["task"]["name"] == "echo"
