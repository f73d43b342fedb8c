"""Figure titles that carry the numbers they state, filled from the runs the figure draws.

A ``report.plot.title`` never types a measured number: it names it with a placeholder, and
``fill_title`` fills it from the figure's long table (the runs the report draws), so the title and
the figure cannot disagree:

- ``{step0:METRIC}``: METRIC's mean over the runs at step 0 (each run's first step-0 value, as the
  report's step-0 record computes it), in ``bot_repro.analysis.formats.number``'s format (``0.111``);
- ``{seeds}``: the seeds per curve (``3``, or ``3-10`` where the curves differ).

A quantity no run logged reads ``n/a``. Literal braces are written ``{{`` and ``}}``.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence

import pandas as pd

from bot_repro.analysis.formats import number
from bot_repro.config_schema import ConfigError


def _step0(frame: pd.DataFrame, metric: str, group_by: Sequence[str]) -> str:
    if not metric:
        raise ConfigError("title placeholder {step0:METRIC} needs a metric, e.g. {step0:eval/success_rate}")
    rows = frame[(frame["step"] == 0) & (frame["metric"] == metric)]
    values = rows.groupby("run_id")["value"].first()
    return number(float(values.mean()) if len(values) else None)


def _seeds(frame: pd.DataFrame, spec: str, group_by: Sequence[str]) -> str:
    if spec:
        raise ConfigError(f"title placeholder {{seeds}} takes no argument, got {{seeds:{spec}}}")
    runs = frame.drop_duplicates("run_id")
    keys = [c for c in group_by if c in runs.columns]
    counts = sorted({int(n) for n in (runs.groupby(keys, dropna=False)["run_id"].nunique() if keys
                                      else pd.Series([len(runs)]))})
    if not counts or counts == [0]:
        return number(None)
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


PLACEHOLDERS: dict[str, Callable[[pd.DataFrame, str, Sequence[str]], str]] = {"step0": _step0, "seeds": _seeds}


def fill_title(title: str, frame: pd.DataFrame, group_by: Sequence[str] = ()) -> str:
    """``title`` with each placeholder (module docstring) filled from ``frame`` (a figure's long
    table; ``group_by``: the columns whose values are its curves)."""
    out = []
    try:
        parsed = list(string.Formatter().parse(title))
    except ValueError as exc:  # a lone "{" or "}"
        raise ConfigError(f"title {title!r}: {exc} (write a literal brace as {{{{ or }}}})") from exc
    for literal, field, spec, conversion in parsed:
        out.append(literal)
        if field is None:
            continue
        if field not in PLACEHOLDERS or conversion:
            raise ConfigError(f"title {title!r} has placeholder {{{field}}}; allowed: "
                              f"{', '.join('{' + k + (':METRIC' if k == 'step0' else '') + '}' for k in PLACEHOLDERS)}")
        out.append(PLACEHOLDERS[field](frame, spec or "", group_by))
    return "".join(out)
