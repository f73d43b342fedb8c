"""Easy arithmetic word problems, generated deterministically from a seed, at two levels.

``two_step`` (the default; the problem set of every run before levels existed): each problem is
solved by two claims "a op b = c" (one per step), the second using the first's result; small
numbers (results under 200), a non-negative integer answer; four templates cover + - * and exact
/. ``one_step``: one claim solves it and its result is the answer; four templates, one per
operation (a + b, a - b, a * b, exact division). ``steps`` keeps the reference solution for tests,
worked examples and reading samples, not for the reward.
"""

from __future__ import annotations

import random
from typing import Any

NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena"]
ITEMS = ["apples", "pencils", "stickers", "marbles", "cookies", "books", "coins", "shells"]


LEVELS = ("one_step", "two_step")


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


def make_problems(n: int, seed: int, prefix: str, level: str) -> list[dict[str, Any]]:
    """``n`` rows {id, problem, answer (str), steps, year: None} of ``level``; distinct problem texts."""
    if n < 1:
        raise ValueError(f"n={n} must be >= 1")
    if level not in LEVELS:
        raise ValueError(f"level={level!r} is unknown; allowed: {', '.join(LEVELS)}")
    make = _one_step if level == "one_step" else _two_step
    rng = random.Random(seed)
    rows, seen = [], set()
    while len(rows) < n:
        text, steps, answer = make(rng)
        if text in seen:
            continue
        seen.add(text)
        rows.append({"id": f"{prefix}-{len(rows):04d}", "problem": text, "answer": str(answer),
                     "steps": steps, "year": None})
    return rows
