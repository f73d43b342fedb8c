"""Easy arithmetic word problems, generated deterministically from a seed, at two levels.

``two_step`` (the default; the problem set of every run before levels existed): each problem is
solved by two claims "a op b = c" (one per step), the second using the first's result; small
numbers (results under 200), a non-negative integer answer; four templates cover + - * and exact
/. ``one_step``: one claim solves it and its result is the answer; four templates, one per
operation (a + b, a - b, a * b, exact division). ``steps`` keeps the reference solution for tests,
worked examples and reading samples, not for the reward. ``split_problems`` makes a task's
training, held-out and worked-example rows from one seed's stream, the held-out and example rows
sharing no arithmetic (``arithmetic_key``) with the training rows or each other.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena"]
ITEMS = ["apples", "pencils", "stickers", "marbles", "cookies", "books", "coins", "shells"]


LEVELS = ("one_step", "two_step")
MAX_REDRAWS = 100_000  # draws in a row with no new text before the stream gives up (it never ends otherwise)
SCAN_PER_ROW = 64  # split_problems reads at most this many rows per held-out or example row wanted


def _one_step(rng: random.Random) -> tuple[str, list[str], int]:
    name, item = rng.choice(NAMES), rng.choice(ITEMS)
    kind = rng.randrange(4)
    if kind == 0:  # a + b
        a, b = rng.randint(5, 60), rng.randint(2, 40)
        text = f"{name} has {a} {item} and gets {b} more. How many {item} does {name} have now?"
        return text, [f"{a} + {b} = {a + b}"], a + b
    if kind == 1:  # a - b
        a = rng.randint(10, 90)
        b = rng.randint(1, a - 1)
        text = f"{name} has {a} {item} and gives away {b}. How many {item} does {name} have left?"
        return text, [f"{a} - {b} = {a - b}"], a - b
    if kind == 2:  # a * b
        a, b = rng.randint(2, 12), rng.randint(2, 9)
        text = f"A box holds {a} {item}. {name} fills {b} boxes. How many {item} are in the boxes?"
        return text, [f"{a} * {b} = {a * b}"], a * b
    b, q = rng.randint(2, 9), rng.randint(2, 12)  # (b * q) / b
    text = f"{name} shares {b * q} {item} equally among {b} friends. How many {item} does each friend get?"
    return text, [f"{b * q} / {b} = {q}"], q


def _two_step(rng: random.Random) -> tuple[str, list[str], int]:
    name, item = rng.choice(NAMES), rng.choice(ITEMS)
    kind = rng.randrange(4)
    if kind == 0:  # a + b - c
        a, b = rng.randint(5, 40), rng.randint(2, 30)
        c = rng.randint(1, a + b - 1)
        text = f"{name} has {a} {item}. {name} gets {b} more, then gives away {c}. How many {item} does {name} have now?"
        return text, [f"{a} + {b} = {a + b}", f"{a + b} - {c} = {a + b - c}"], a + b - c
    if kind == 1:  # a * b - c
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        c = rng.randint(1, a * b - 1)
        text = (f"A box holds {a} {item}. {name} fills {b} boxes, then uses {c} of the {item}. "
                f"How many {item} are left?")
        return text, [f"{a} * {b} = {a * b}", f"{a * b} - {c} = {a * b - c}"], a * b - c
    if kind == 2:  # a + b * c
        a, b, c = rng.randint(3, 50), rng.randint(2, 9), rng.randint(2, 9)
        text = (f"{name} has {a} {item} and gets {b} more every day for {c} days. "
                f"How many {item} does {name} have after those days?")
        return text, [f"{b} * {c} = {b * c}", f"{a} + {b * c} = {a + b * c}"], a + b * c
    b, q, c = rng.randint(2, 9), rng.randint(2, 12), rng.randint(1, 20)  # (b * q) / b + c
    text = (f"{name} shares {b * q} {item} equally among {b} friends. Each friend then finds {c} more. "
            f"How many {item} does each friend have?")
    return text, [f"{b * q} / {b} = {q}", f"{q} + {c} = {q + c}"], q + c


def problem_stream(seed: int, prefix: str, level: str) -> Iterator[dict[str, Any]]:
    """Rows {id, problem, answer (str), steps, year: None} of ``level``, distinct problem texts, in the
    order of the generator at ``seed``; a row's id is ``<prefix>-<its place in this order, 4 digits>``.
    Stops with a ValueError once ``MAX_REDRAWS`` draws in a row give only texts already made."""
    if level not in LEVELS:
        raise ValueError(f"level={level!r} is unknown; allowed: {', '.join(LEVELS)}")
    make = _one_step if level == "one_step" else _two_step
    rng = random.Random(seed)
    seen: set[str] = set()
    redraws = 0
    while True:
        text, steps, answer = make(rng)
        if text in seen:
            redraws += 1
            if redraws > MAX_REDRAWS:
                raise ValueError(f"the {level} generator at seed {seed} gave no new problem text in "
                                 f"{MAX_REDRAWS} draws after {len(seen)} distinct problems")
            continue
        redraws = 0
        seen.add(text)
        yield {"id": f"{prefix}-{len(seen) - 1:04d}", "problem": text, "answer": str(answer),
               "steps": steps, "year": None}


def make_problems(n: int, seed: int, prefix: str, level: str) -> list[dict[str, Any]]:
    """The first ``n`` rows of ``problem_stream(seed, prefix, level)``."""
    if n < 1:
        raise ValueError(f"n={n} must be >= 1")
    return list(islice(problem_stream(seed, prefix, level), n))


def arithmetic_key(row: dict[str, Any]) -> tuple[str, ...]:
    """A problem's arithmetic, names and items aside: its reference steps' claims (template and numbers).
    Two problems with the same key ask the same sums under other names ("27 / 9 = 3", "3 + 3 = 6")."""
    return tuple(row["steps"])


def split_problems(n_train: int, n_test: int, shots: int, seed: int, level: str,
                   prefix: str = "arith") -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """(training, held-out, worked-example) rows of one problem set, all from ``problem_stream``.

    Training is the stream's first ``n_train`` rows, as it always was (duplicated arithmetic kept), so
    training data, starting adapters and committed studies stay comparable. The held-out rows, then
    the worked examples, are the following rows in order, skipping every row whose arithmetic
    (``arithmetic_key``) a training row or an earlier held-out or example row already has: no
    held-out problem asks a training problem's sums under other names (before #51 held-out
    ``arith-0265`` was training ``arith-0152``'s "27 / 9 = 3, 3 + 3 = 6"), none repeats another, and
    no worked example (shown in every prompt) is a training or held-out problem's arithmetic either.
    Row ids are their places in the stream, so held-out ids are no longer consecutive. At most
    ``SCAN_PER_ROW`` rows are read per row wanted; fewer new problems there is a ValueError naming the
    sizes (too large an ``n_train`` for the level's arithmetic).
    """
    if min(n_train, n_test) < 1 or shots < 0:
        raise ValueError(f"n_train={n_train} and n_test={n_test} must be >= 1 and shots={shots} >= 0")
    stream = problem_stream(seed, prefix, level)
    train = list(islice(stream, n_train))
    seen = {arithmetic_key(r) for r in train}
    wanted, limit, picked = n_test + shots, SCAN_PER_ROW * (n_test + shots), []
    for row in islice(stream, limit):
        if arithmetic_key(row) not in seen:
            seen.add(arithmetic_key(row))
            picked.append(row)
            if len(picked) == wanted:
                return train, picked[:n_test], picked[n_test:]
    raise ValueError(
        f"only {len(picked)} of the {limit} {level} problems after the {n_train} training ones (seed {seed}) "
        f"ask arithmetic no training problem does; n_test + shots = {wanted} are needed: lower n_train, "
        "n_test or shots")
