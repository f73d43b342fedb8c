"""Easy two-step arithmetic word problems, generated deterministically from a seed.

Each problem is solved by two claims of the form "a op b = c" (one per step), small numbers
(results under 200), a non-negative integer answer. Four templates cover + - * and exact /.
``steps`` keeps the reference solution for tests and for reading samples, not for the reward.
"""

from __future__ import annotations

import random
from typing import Any

NAMES = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Gus", "Hana", "Ivan", "Jade", "Kofi", "Lena"]
ITEMS = ["apples", "pencils", "stickers", "marbles", "cookies", "books", "coins", "shells"]


def _problem(rng: random.Random) -> tuple[str, list[str], int]:
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


def make_problems(n: int, seed: int, prefix: str) -> list[dict[str, Any]]:
    """``n`` rows {id, problem, answer (str), steps, year: None}; distinct problem texts."""
    if n < 1:
        raise ValueError(f"n={n} must be >= 1")
    rng = random.Random(seed)
    rows, seen = [], set()
    while len(rows) < n:
        text, steps, answer = _problem(rng)
        if text in seen:
            continue
        seen.add(text)
        rows.append({"id": f"{prefix}-{len(rows):04d}", "problem": text, "answer": str(answer),
                     "steps": steps, "year": None})
    return rows
