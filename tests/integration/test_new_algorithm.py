"""Adding an algorithm is its estimator module (in ``bot_repro/algorithms/``, with its display name,
colour, marker and line style in the registration), its ``conf/algorithm/<name>.yaml`` and its
tests. Here a throwaway ``sign_grpo`` is written that way into a temporary folder, found by the
package's module discovery, trained end to end, and plotted by name, colour and marker, with nothing
else in the repository told about it."""

from __future__ import annotations

import json
import sys

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import torch
import yaml

import bot_repro.algorithms
from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis.load import load_runs
from bot_repro.plots.figures import draw, plot_config

ESTIMATOR_MODULE = '''
"""Sign-GRPO (a test algorithm): the sign of GRPO's centred sequence reward."""
import torch

from bot_repro.algorithms.batch import group_center, sequence_rewards
from bot_repro.algorithms.registry import register_advantage


@register_advantage("sign_grpo", label="Sign-GRPO", color="#882255", marker="*", linestyle=(0, (10, 3)))
def sign_grpo(batch, *, w_g: float = 1.0, w_s: float = 1.0, eps: float = 1e-6, seq_reward: str = "token_mean"):
    """A_k = sign(R_k - mean_j R_j) on every valid token of rollout k.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    centred = group_center(batch, sequence_rewards(batch, seq_reward, w_g, w_s), scale=False)
    return batch.broadcast(torch.sign(centred).to(torch.float32))
'''
ALGORITHM_YAML = {
    "name": "sign_grpo",
    "options": {"seq_reward": "token_mean"},
    "trl": {"loss_type": "grpo", "epsilon": 0.2, "importance_sampling_level": "token"},
    "dynamic_sampling": {"enabled": False, "max_rounds": 3},
}


def test_an_algorithm_is_its_estimator_its_config_and_its_tests(tmp_path, monkeypatch):
    pkg, conf = tmp_path / "algorithms", tmp_path / "conf"
    pkg.mkdir()
    (pkg / "sign_grpo.py").write_text(ESTIMATOR_MODULE)
    (conf / "algorithm").mkdir(parents=True)
    (conf / "algorithm" / "sign_grpo.yaml").write_text(yaml.safe_dump(ALGORITHM_YAML))
    monkeypatch.setattr(bot_repro.algorithms, "__path__", [*bot_repro.algorithms.__path__, str(pkg)])
    assert "bot_repro.algorithms.sign_grpo" in bot_repro.algorithms.estimator_modules()

    from tests.integration.helpers import SMALL, run_inprocess

    run_dir = tmp_path / "run"
    try:
        # the entry point's plugin loading registers it: nothing imports the module by name
        run_inprocess([*SMALL, "algorithm=sign_grpo", "reward.source=test_variance",
                       f"hydra.searchpath=[file://{conf}]"], run_dir)
        fn = ADVANTAGES["sign_grpo"]
        G = torch.tensor([0.0, 1.0, 0.5, 0.5])
        A = fn(G, torch.zeros(4, 2), torch.ones(4, 2, dtype=torch.bool), 2)
        assert A.tolist() == [[-1.0, -1.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
        records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
        assert [r["step"] for r in records] == [0, 1, 2]
        composed = yaml.safe_load((run_dir / ".hydra" / "config.yaml").read_text())
        assert composed["algorithm"]["name"] == "sign_grpo"

        frame = load_runs([run_dir])
        metric = next(m for m in frame["metric"].unique() if m.startswith("eval/"))
        cfg = plot_config({"kind": "curves", "metric": metric, "title": "a new algorithm"}, "plot")
        fig = draw(frame, cfg)
        try:
            (legend,) = fig.legends
            entries = {t.get_text(): h for t, h in zip(legend.get_texts(), legend.legend_handles)}
            handle = entries["Sign-GRPO"]  # its registered display name, not "sign_grpo"
            assert mcolors.to_hex(handle.get_color()) == "#882255" and handle.get_marker() == "*"
            from tests.unit.test_plots_layout import layout_problems

            assert layout_problems(fig) == []
        finally:
            plt.close(fig)
    finally:
        sys.modules.pop("bot_repro.algorithms.sign_grpo", None)
        ADVANTAGES.pop("sign_grpo", None)
