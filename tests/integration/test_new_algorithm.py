"""Adding an algorithm is the four pieces README.md's "Add an algorithm" names: its estimator (a module
in ``bot_repro/algorithms/`` with its display name, colour, marker, line style and its own option in
the registration), its ``conf/algorithm/<name>.yaml``, its docs/method.md §2 row and its tests. Here a
throwaway ``sign_grpo`` is written that way into a temporary folder, found by the package's module
discovery, checked against a copy of docs/method.md holding its row, trained end to end, and plotted by
name, colour and marker, with nothing else in the repository told about it."""

from __future__ import annotations

import functools
import sys

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import pytest
import torch
import yaml

import bot_repro.algorithms
from bot_repro.algorithms import ADVANTAGES
from bot_repro.analysis.labels import group_label
from bot_repro.analysis.load import load_runs
from bot_repro.config_schema import ConfigError
from bot_repro.plots.figures import draw, plot_config
from bot_repro.run_folder import read_config
from tests.conftest import REPO
from tests.unit.test_method_doc import row_problems

ESTIMATOR_MODULE = '''
"""Sign-GRPO (a test algorithm): the sign of GRPO's centred sequence reward."""
import torch

from bot_repro.algorithms.batch import group_center, sequence_rewards
from bot_repro.algorithms.options import choice
from bot_repro.algorithms.advantages import register_advantage


@register_advantage("sign_grpo", label="Sign-GRPO", color="#882255", marker="*", linestyle=(0, (10, 3)),
                    options={"squash": choice(labels={"sign": "sign of R - mean", "clip": "R - mean clipped"})})
def sign_grpo(batch, *, w_g: float, w_s: float, eps: float = 1e-6, seq_reward: str = "token_mean",
              squash: str = "sign"):
    """A_k = sign(R_k - mean_j R_j) (squash ``sign``) or clip(R_k - mean_j R_j, -1, 1) (``clip``) on
    every valid token of rollout k.

    Shapes: global_rewards [B], local_rewards [B, T], mask [B, T] -> advantages [B, T] float32.
    """
    centred = group_center(batch, sequence_rewards(batch, seq_reward, w_g, w_s), scale=False)
    squashed = torch.sign(centred) if squash == "sign" else centred.clamp(-1.0, 1.0)
    return batch.broadcast(squashed.to(torch.float32))
'''
ALGORITHM_YAML = {
    "name": "sign_grpo",
    "options": {"seq_reward": "token_mean", "squash": "sign"},
    "trl": {"loss_type": "grpo", "epsilon": 0.2, "importance_sampling_level": "token"},
    "dynamic_sampling": {"enabled": False, "max_rounds": 3},
}
TABLE_HEAD = "| estimator | advantage, as computed | options (defaults in **bold**) |\n|---|---|---|\n"
DOC_ROW = ("| `sign_grpo` | A_{k,t} = sign(R_k - mean_j R_j) on every valid token | "
           "seq_reward **token_mean**; squash **sign** \\| clip |\n")


def _check_estimator_and_its_doc_row() -> None:
    """Its tests (hand-computed values, its option's check and labels) and its docs/method.md row."""
    fn = functools.partial(ADVANTAGES["sign_grpo"], w_g=1.0, w_s=1.0)  # the reward section's weights
    G, mask = torch.tensor([0.0, 1.0, 0.5, 0.5]), torch.ones(4, 2, dtype=torch.bool)
    S = torch.tensor([[0.0, 0.0], [0.0, 0.0], [0.2, 0.2], [0.0, 0.0]])  # R = G + mean_t S
    assert fn(G, S, mask, 2).tolist() == [[-1.0, -1.0], [1.0, 1.0], [1.0, 1.0], [-1.0, -1.0]]
    clipped = fn(G, S, mask, 2, squash="clip")[:, 0].tolist()
    assert clipped == pytest.approx([-0.5, 0.5, 0.1, -0.1])
    with pytest.raises(ConfigError, match=r"'tanh'.*'squash'.*'sign', 'clip'"):
        fn(G, S, mask, 2, squash="tanh")
    assert group_label("clip", "algorithm.options.squash") == "R - mean clipped"

    doc = (REPO / "docs" / "method.md").read_text()
    assert doc.count(TABLE_HEAD) == 1  # the §2 estimator table, where its row goes
    assert row_problems("sign_grpo", doc) == ["estimator 'sign_grpo' has no row in docs/method.md §2"]
    assert row_problems("sign_grpo", doc.replace(TABLE_HEAD, TABLE_HEAD + DOC_ROW)) == []
    wrong = DOC_ROW.replace("squash **sign** \\| clip", "squash **clip** \\| sign")
    assert row_problems("sign_grpo", doc.replace(TABLE_HEAD, TABLE_HEAD + wrong)) != []


def test_an_algorithm_is_its_estimator_its_config_its_doc_row_and_its_tests(tmp_path, monkeypatch):
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
        _check_estimator_and_its_doc_row()
        composed = read_config(run_dir)
        assert composed["algorithm.name"] == "sign_grpo" and composed["algorithm.options.squash"] == "sign"

        frame = load_runs([run_dir])
        assert sorted(frame["step"].unique()) == [0, 1, 2]
        assert {"loss", "grad_norm", "adv_mean", "eval/success_rate"} <= set(frame["metric"])
        adv = frame[frame["metric"].isin(["adv_min", "adv_max"])].groupby("metric")["value"]
        assert adv.apply(set).to_dict() == {"adv_max": {1.0}, "adv_min": {-1.0}}  # signs, on both steps
        assert adv.size().to_dict() == {"adv_max": 2, "adv_min": 2}
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
    assert "sign_grpo" not in ADVANTAGES  # unregistered: no other test sees it
