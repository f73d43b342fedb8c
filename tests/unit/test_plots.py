"""Plot helpers on synthetic tables: files are written, artists are counted, colours stay fixed."""

from __future__ import annotations

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from bot_repro.analysis.stats import aggregate_curves
from bot_repro.plots.curves import bar_with_ci, panel_grid, paper_markers, plot_curves, threshold_line
from bot_repro.plots.style import (
    ALGORITHM_COLORS,
    OTHER_COLORS,
    colors_for,
    display_name,
    linestyles_for,
    save,
)


def curve_table(runs: dict[str, tuple[dict, list[float]]]) -> pd.DataFrame:
    steps = [0, 10, 20, 30]
    rows = [
        {
            "run_id": rid,
            "step": s,
            "time": 5.0 * s,
            "generated_tokens": 50.0 * s,
            "metric": "eval/compile_rate",
            "value": v,
            **cfg,
        }
        for rid, (cfg, values) in runs.items()
        for s, v in zip(steps, values)
    ]
    return pd.DataFrame(rows)


@pytest.fixture
def agg():
    df = curve_table(
        {
            "g0": ({"algorithm.name": "grpo"}, [0.0, 0.1, 0.3, 0.5]),
            "g1": ({"algorithm.name": "grpo"}, [0.0, 0.2, 0.4, 0.6]),
            "b0": ({"algorithm.name": "bot_grpo"}, [0.0, 0.5, 0.8, 0.9]),
            "b1": ({"algorithm.name": "bot_grpo"}, [0.1, 0.6, 0.85, 0.95]),
            "p0": ({"algorithm.name": "pure"}, [0.0, 0.7, 0.8, 0.6]),  # one seed: no band
        }
    )
    return aggregate_curves(df, "eval/compile_rate", "algorithm.name", n_resamples=500)


def test_curve_figure_is_written_with_expected_artists(agg, tmp_path):
    fig, (ax,) = panel_grid(1)
    lines = plot_curves(ax, agg)
    threshold_line(ax, 0.8, "80% threshold")
    paper_markers(ax, {"bot_grpo": [(40, 0.8)], "grpo": [(90, 0.8)]})
    ax.legend()
    assert len(lines) == 3
    assert len(ax.lines) == 4  # three curves + the threshold
    assert len(ax.collections) == 2 + 2  # bands for grpo and bot_grpo (pure has one seed), two marker sets
    colors = {line.get_label(): mcolors.to_hex(line.get_color()) for line in lines}
    assert colors == {"BoT-GRPO": "#d55e00", "GRPO": "#0072b2", "PURE": "#e69f00"}
    paths = save(fig, tmp_path / "figs" / "figure_1")
    plt.close(fig)
    assert [p.name for p in paths] == ["figure_1.png", "figure_1.pdf"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[0].stat().st_size > 5000
    assert paths[1].read_bytes()[:5] == b"%PDF-" and paths[1].stat().st_size > 2000


def test_pdf_output_is_reproducible(agg, tmp_path):
    outputs = []
    for name in ("a", "b"):
        fig, (ax,) = panel_grid(1)
        plot_curves(ax, agg)
        outputs.append(save(fig, tmp_path / name)[1].read_bytes())
        plt.close(fig)
    assert outputs[0] == outputs[1]


def test_colours_are_fixed_per_algorithm():
    assert len(set(ALGORITHM_COLORS.values())) == 7
    one = colors_for(["bot_grpo", "grpo"])
    other = colors_for(["grpo", "dapo", "gspo", "bot_grpo", "pure", "dr_grpo", "ps_grpo", "my_variant"])
    assert one["grpo"] == other["grpo"] == ALGORITHM_COLORS["grpo"]
    assert one["bot_grpo"] == other["bot_grpo"] == "#D55E00"
    assert other["my_variant"] == OTHER_COLORS[0] and other["my_variant"] not in ALGORITHM_COLORS.values()
    # non-algorithm values get distinct colours in sorted order, whatever order they arrive in
    assert colors_for([1.0, 0.1, 0.5]) == {0.1: OTHER_COLORS[0], 0.5: OTHER_COLORS[1], 1.0: OTHER_COLORS[2]}
    assert display_name("bot_grpo") == "BoT-GRPO" and display_name(0.5) == "0.5"


def test_style_column_sets_line_styles(tmp_path):
    runs = {
        f"r{ws}": ({"algorithm.name": "bot_grpo", "reward.w_s": ws}, [0.0, 0.1 * i, 0.2 * i, 0.3 * i])
        for i, ws in enumerate([1.0, 0.1, 0.5], start=1)
    }
    agg = aggregate_curves(
        curve_table(runs), "eval/compile_rate", ["algorithm.name", "reward.w_s"], n_resamples=100
    )
    assert linestyles_for([1.0, 0.1, 0.5]) == {0.1: "-", 0.5: "--", 1.0: ":"}
    fig, (ax,) = panel_grid(1)
    lines = plot_curves(ax, agg, style="reward.w_s", label_fn=lambda key: f"w_s={key['reward.w_s']}")
    assert [(line.get_label(), line.get_linestyle()) for line in lines] == [
        ("w_s=0.1", "-"),
        ("w_s=0.5", "--"),
        ("w_s=1.0", ":"),
    ]
    assert {mcolors.to_hex(line.get_color()) for line in lines} == {"#d55e00"}
    assert len(ax.collections) == 0  # one seed each: no bands
    plt.close(fig)


def test_curve_table_with_unplotted_groups_is_rejected(agg):
    mixed = pd.concat([agg.assign(**{"model.name": "a"}), agg.assign(**{"model.name": "b"})])
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match=r"several values of 'model.name' \(\['a', 'b'\]\)"):
        plot_curves(ax, mixed)
    with pytest.raises(ValueError, match=r"column\(s\) \['seed'\] not in the curve table"):
        plot_curves(ax, agg, hue="seed")
    plt.close(fig)


def test_bar_chart_with_intervals_and_paper_values(tmp_path):
    table = pd.DataFrame(
        {
            "variant": ["global-only", "1-turn w=1.0", "2-turn"],
            "mean": [0.05, 0.24, 0.02],
            "ci_low": [0.03, 0.2, np.nan],
            "ci_high": [0.08, 0.3, np.nan],
        }
    )
    fig, (ax,) = panel_grid(1)
    bars = bar_with_ci(ax, table, "variant", paper={"1-turn w=1.0": 0.236, "2-turn": 0.020})
    assert len(bars.patches) == 3
    assert [p.get_height() for p in bars.patches] == pytest.approx([0.05, 0.24, 0.02])
    # error bar segments: (0.03, 0.08), (0.2, 0.3), and a zero-length one where the interval is missing
    segments = bars.errorbar.lines[2][0].get_segments()
    assert [(round(s[0][1], 6), round(s[1][1], 6)) for s in segments] == [
        (0.03, 0.08),
        (0.2, 0.3),
        (0.02, 0.02),
    ]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["global-only", "1-turn w=1.0", "2-turn"]
    stars = ax.collections[-1].get_offsets()
    assert np.asarray(stars).tolist() == [[1.0, 0.236], [2.0, 0.02]]
    save(fig, tmp_path / "figure_10b")
    plt.close(fig)
    with pytest.raises(ValueError, match=r"paper values for \['3-turn'\] have no bar"):
        bar_with_ci(plt.figure().add_subplot(), table, "variant", paper={"3-turn": 0.1})
    plt.close("all")


def test_panel_grid_shapes():
    fig, axes = panel_grid(4, titles=["a", "b", "c", "d"])
    assert len(axes) == 4 and len(fig.axes) == 4
    assert axes[3].get_subplotspec().get_geometry()[:2] == (2, 2)
    assert [ax.get_title() for ax in axes] == ["a", "b", "c", "d"]
    plt.close(fig)
    fig, axes = panel_grid(5)
    assert len(axes) == 5 and len(fig.axes) == 5  # the sixth cell of the 2x3 grid is removed
    plt.close(fig)
    fig, axes = panel_grid(3)
    assert axes[0].get_subplotspec().get_geometry()[:2] == (1, 3)
    plt.close(fig)
    with pytest.raises(ValueError, match="got 2 titles for 3 panels"):
        panel_grid(3, titles=["a", "b"])
    with pytest.raises(ValueError, match="n >= 1"):
        panel_grid(0)


def test_save_rejects_suffix_and_keeps_dots(tmp_path):
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match="without suffix"):
        save(fig, tmp_path / "figure.png")
    paths = save(fig, tmp_path / "ws_0.5")
    plt.close(fig)
    assert [p.name for p in paths] == ["ws_0.5.png", "ws_0.5.pdf"] and all(p.exists() for p in paths)


def test_paper_markers_reject_bad_points():
    fig, (ax,) = panel_grid(1)
    with pytest.raises(ValueError, match=r"paper points must be a sequence of \(x, y\) pairs"):
        paper_markers(ax, [1.0, 2.0])
    plt.close(fig)
