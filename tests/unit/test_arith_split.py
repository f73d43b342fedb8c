"""task=arith's split (#51 item 3): no held-out problem asks a training problem's arithmetic (the same
numbers and operations under other names) or another held-out one's, no worked example asks any of
theirs, the training rows are the generator's first ``n_train`` as before, and a size the generator
cannot fill is refused with the sizes named."""

from __future__ import annotations

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.tasks import TASKS
from bot_repro.tasks.arith import data
from bot_repro.tasks.arith.data import LEVELS, make_problems, split_problems
from tests.unit.test_arith_adapter import arithmetic_of

STUDY_SIZES = [(level, n_test, shots) for level in LEVELS for n_test in (32, 128) for shots in (0, 4)]


def index(row) -> int:
    """A row's place in its seed's generated sequence (ids are ``arith-<place>``)."""
    return int(row["id"].rsplit("-", 1)[1])


@pytest.mark.parametrize("level,n_test,shots", STUDY_SIZES)
def test_held_out_and_examples_share_no_arithmetic_at_the_studies_sizes(level, n_test, shots):
    task = TASKS["arith"]({"n_train": 256, "n_test": n_test, "shots": shots, "level": level, "seed": 0},
                          {"family": "qwen2"})
    train, test = task.datasets()
    examples = task.examples
    assert len(train) == 256 and len(test) == n_test and len(examples) == shots
    # training is what it always was: the generator's first 256 problems, in order
    assert [r["problem"] for r in train] == [r["problem"] for r in make_problems(256, 0, "arith", level)]
    trained = {arithmetic_of(r["problem"]) for r in train}
    later = [arithmetic_of(r["problem"]) for r in test + examples]  # read off the texts, not off `steps`
    assert not trained & set(later)
    assert len(set(later)) == len(later)  # no held-out or example problem repeats another's arithmetic
    # drawn from the problems that follow training, in order, skipping only problems whose arithmetic is taken
    places = [index(r) for r in test + examples]
    assert places == sorted(places) and places[0] >= 256
    kept = set(places)
    taken = set(trained)
    for row in make_problems(places[-1] + 1, 0, "arith", level)[256:]:
        if index(row) in kept:
            taken.add(arithmetic_of(row["problem"]))
        else:
            assert arithmetic_of(row["problem"]) in taken, row  # skipped only for an overlap


def test_the_issue_case_arith_0265_is_no_longer_held_out():
    rows = make_problems(288, 0, "arith", "two_step")
    # before #51 the held-out rows were 256-287, and 265 asked training row 152's sums
    assert rows[265]["id"] == "arith-0265" and rows[152]["id"] == "arith-0152"
    assert rows[265]["steps"] == rows[152]["steps"] == ["27 / 9 = 3", "3 + 3 = 6"]
    assert rows[265]["problem"] != rows[152]["problem"]
    _, test, _ = split_problems(256, 32, 0, 0, "two_step")
    ids = [r["id"] for r in test]
    assert "arith-0265" not in ids and len(ids) == 32
    # every other earlier held-out row stays, in order; the 32nd is the next new problem, arith-0288
    assert ids == [r["id"] for r in rows[256:] if r["id"] != "arith-0265"] + ["arith-0288"]


def test_adding_examples_or_held_out_rows_leaves_the_earlier_rows_unchanged():
    for level in LEVELS:
        train, test, _ = split_problems(256, 32, 0, 0, level)
        more_train, more_test, examples = split_problems(256, 128, 4, 0, level)
        assert more_train == train and more_test[:32] == test and len(examples) == 4


def test_sizes_the_generator_cannot_fill_are_refused_with_the_sizes_named(monkeypatch):
    monkeypatch.setattr(data, "SCAN_PER_ROW", 1)  # read only 132 rows after training: too few new ones at one_step
    with pytest.raises(ValueError, match=r"of the 132 one_step problems after the 256 training ones .* n_test \+ shots = 132"):
        split_problems(256, 128, 4, 0, "one_step")
    task = TASKS["arith"]({"n_train": 256, "n_test": 128, "shots": 4, "level": "one_step"}, {"family": "qwen2"})
    with pytest.raises(ConfigError, match=r"task.params \(arith\): only \d+ of the 132"):
        task.datasets()
    monkeypatch.setattr(data, "MAX_REDRAWS", 0)  # a stream that gives up at its first repeated text
    with pytest.raises(ValueError, match="generator at seed 0 gave no new problem text in 0 draws after"):
        make_problems(5000, 0, "x", "one_step")
