"""Model judges of docs/method.md §5 (code, screenshot, pairwise ABBA, AIME steps) as real, cached API clients.

``build_judge_client(cfg, run_dir)`` gives a ``JudgeClient`` (or None when ``judge: none``); its
sync methods take batches of the inputs in ``bot_repro.judges.types`` and return verdicts. See
``options`` (config schema), ``roles`` (prompts and strategies), ``parsers`` (reply formats and
failure values), ``abba`` (pairwise aggregation), ``calls`` (retries, cache, concurrency).
"""

from bot_repro.judges.abba import ABBA_ORDER, abba_result
from bot_repro.judges.client import JudgeClient, build_judge_client, preflight
from bot_repro.judges.options import JudgeOptions, parse_options
from bot_repro.judges.parsers import NON_REACT_SENTINEL
from bot_repro.judges.types import (
    CodeJudgeInput,
    CodeVerdict,
    LineImpact,
    PairInput,
    PairResult,
    ScreenshotInput,
    ScreenshotVerdict,
    StepJudgeInput,
)

__all__ = [
    "ABBA_ORDER",
    "NON_REACT_SENTINEL",
    "CodeJudgeInput",
    "CodeVerdict",
    "JudgeClient",
    "JudgeOptions",
    "LineImpact",
    "PairInput",
    "PairResult",
    "ScreenshotInput",
    "ScreenshotVerdict",
    "StepJudgeInput",
    "abba_result",
    "build_judge_client",
    "parse_options",
    "preflight",
]
