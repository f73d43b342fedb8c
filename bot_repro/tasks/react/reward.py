"""The React reward stack (docs/method.md §3, Eqs. 6-7), registered as reward source ``react``.

Global G = compile/render failure penalty + ESLint (-0.5 fatal, -0.1 error, -0.02 warning)
+ code judge score (non-React: -0.3) + screenshot judge score (-0.3 when extraction or
transpilation failed, 0 without a screenshot). Local: per-line penalties on lines of the full
response: compiler -1 per flagged line (or -1/|E|), ESLint with the same weights, the code
judge's (at most three) lines impact/10 and optionally the VLM judge's lines. Every signal is a
switch, so the reward stacks of figures 4 and 10 (docs/method.md §6) are configs. The shared mapper spreads the
line penalties with the decay window (``RewardCfg.window``, which this module never reads) and maps
them to tokens; this module never sees tokens.

A judge call that gave no verdict (a ``failed`` verdict: no reply, or one that cannot be read; or the
whole batch call raised) is not a score: the response is marked ``excluded="judge_outage"`` and does not
train (docs/method.md §3); its components keep placeholder 0s.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.judges.types import CodeJudgeInput, ScreenshotInput
from bot_repro.rewards.base import JUDGE_OUTAGE, REWARD_SOURCES, WORKER_STALLED, RewardCfg, RewardResult
from bot_repro.tasks.react.checker import CheckOptions, CheckOutcome, shared_checker

log = logging.getLogger(__name__)

VLM_MODES = ("off", "global", "one_turn", "two_turn")
LINE_MODES = ("per_line", "renormalise")
SEVERITIES = ("fatal", "error", "warning")


@dataclass
class ReactRewardOptions:
    """``reward.params`` of the react source; defaults are the paper's BoT stack without the VLM."""

    compile_fail_penalty: float = -1.0
    eslint: bool = True
    eslint_weights: dict[str, float] = field(default_factory=lambda: {"fatal": -0.5, "error": -0.1, "warning": -0.02})
    compiler_lines: bool = True
    compiler_line_mode: str = "per_line"
    eslint_lines: bool = True
    code_judge: bool = True
    code_judge_lines: bool = True
    non_react_penalty: float = -0.3
    vlm_judge: str = "off"
    vlm_lines: bool = False
    vlm_line_weight: float = 1.0
    vlm_fail_penalty: float = -0.3
    max_judge_lines: int = 3
    save_screenshots: bool = False  # write PNGs under <run_dir>/react_screens and name them in info
    checks: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.vlm_judge is False:  # YAML reads a bare `off` as false
            self.vlm_judge = "off"
        if self.vlm_judge not in VLM_MODES:
            raise ValueError(f"vlm_judge={self.vlm_judge!r}; allowed: {', '.join(VLM_MODES)}")
        if self.compiler_line_mode not in LINE_MODES:
            raise ValueError(f"compiler_line_mode={self.compiler_line_mode!r}; allowed: {', '.join(LINE_MODES)}")
        self.eslint_weights = dict(self.eslint_weights)
        if set(self.eslint_weights) != set(SEVERITIES):
            raise ValueError(f"eslint_weights keys {sorted(self.eslint_weights)}; required: {', '.join(SEVERITIES)}")
        if self.vlm_lines and self.vlm_judge not in ("one_turn", "two_turn"):
            raise ValueError("vlm_lines needs vlm_judge one_turn or two_turn (the global judge names no lines)")
        if self.code_judge_lines and not self.code_judge:
            raise ValueError("code_judge_lines needs code_judge: true")

    @property
    def uses_judge(self) -> bool:
        return self.code_judge or self.vlm_judge != "off"


def _verdicts(call, items: list, what: str) -> tuple[list | None, str]:
    """Judge verdicts, or (None, error) when the batch call failed: the responses are excluded, not a crash."""
    if not items:
        return [], ""
    try:
        out = call(items)
    except Exception as exc:  # network/judge failures must not stop training
        log.warning("%s judge failed: %s", what, exc)
        return None, f"{what} judge failed: {exc}"
    if len(out) != len(items):
        return None, f"{what} judge returned {len(out)} verdicts for {len(items)} items"
    return out, ""


class ReactReward:
    """Scores responses with the checker (shared with the task) and, if enabled, the judges."""

    def __init__(self, reward: RewardCfg, context: dict[str, Any]):
        self.options = build_options(ReactRewardOptions, reward.params, "reward.params (react)")
        self.judge = (context or {}).get("judge")
        if self.options.uses_judge and self.judge is None:
            raise ConfigError("reward.params enables a judge (code_judge or vlm_judge) but no judge client is "
                              "configured; set code_judge: false and vlm_judge: off, or configure a judge")
        self.check_options = CheckOptions.from_dict(self.options.checks, "reward.params.checks")
        run_dir = (context or {}).get("run_dir")
        self.screens_dir = Path(run_dir) / "react_screens" if run_dir is not None else None
        self._checker = None

    @property
    def checker(self):
        if self._checker is None:
            self._checker = shared_checker(self.check_options)
        return self._checker

    def score(self, completions: list[str], rows: list[dict[str, Any]]) -> list[RewardResult]:
        return self.score_outcomes(self.checker.check(completions), rows)

    def score_outcomes(self, outcomes: list[CheckOutcome], rows: list[dict[str, Any]]) -> list[RewardResult]:
        o = self.options
        results = [self._static(out) for out in outcomes]
        requests = [str(r.get("request") or "") for r in rows]
        if o.code_judge:
            self._code_judge(outcomes, requests, results)
        if o.vlm_judge != "off":
            self._vlm_judge(outcomes, requests, results)
        if o.save_screenshots and self.screens_dir is not None:
            self._save_screens(outcomes, results)
        for res in results:
            res.global_score = sum(res.components[k] for k in ("compile_fail", "eslint", "code_judge", "vlm_judge"))
        return results

    def _save_screens(self, outcomes: list[CheckOutcome], results: list[RewardResult]) -> None:
        self.screens_dir.mkdir(parents=True, exist_ok=True)
        for out, res in zip(outcomes, results):
            if out.png is not None:
                path = self.screens_dir / f"{hashlib.sha1(out.png).hexdigest()[:16]}.png"
                path.write_bytes(out.png)
                res.info["screenshot"] = str(path)

    def _static(self, out: CheckOutcome) -> RewardResult:
        o = self.options
        res = RewardResult(global_score=0.0, info={**out.summary(), "failure": "" if out.compiled else out.reason})
        if out.stage == "stalled":  # its check worker was stopped every try: no verdict to train on
            res.excluded = WORKER_STALLED
        # compiled, console_error and blank_render are indicators (logged as rates), not reward terms.
        res.components = {"compile_fail": 0.0 if out.compiled else o.compile_fail_penalty, "eslint": 0.0,
                          "code_judge": 0.0, "vlm_judge": 0.0, "compiled": 1.0 if out.compiled else 0.0,
                          "console_error": 1.0 if out.console else 0.0,
                          "blank_render": 1.0 if out.compiled and out.blank else 0.0}
        ex = out.extraction
        if ex is None:
            return res
        if o.eslint:
            res.components["eslint"] = sum(o.eslint_weights.get(m["severity"], 0.0) for m in out.eslint)
        if o.compiler_lines:
            lines = sorted(out.compiler_lines())
            each = -1.0 / len(lines) if lines and o.compiler_line_mode == "renormalise" else -1.0
            for line in lines:
                res.add_line(ex.response_line(line), each)
        if o.eslint_lines:
            for m in out.eslint:
                if 0 <= m["line"] < out.n_code_lines:
                    res.add_line(ex.response_line(m["line"]), o.eslint_weights.get(m["severity"], 0.0))
        return res

    def _judge_lines(self, res: RewardResult, out: CheckOutcome, lines, weight: float) -> None:
        worst = sorted((li for li in lines if 0 <= li.line < out.n_code_lines and li.impact in (-1, -2, -3)),
                       key=lambda li: li.impact)[: self.options.max_judge_lines]
        for li in worst:
            res.add_line(out.extraction.response_line(li.line), weight * li.impact / 10.0)

    def _code_judge(self, outcomes, requests, results) -> None:
        o = self.options
        idx = [i for i, out in enumerate(outcomes) if out.extraction is not None]
        for i, out in enumerate(outcomes):
            if out.extraction is None:  # no code at all: treated as non-React output
                results[i].components["code_judge"] = o.non_react_penalty
        items = [CodeJudgeInput(prompt=requests[i], code=outcomes[i].extraction.code) for i in idx]
        verdicts, err = _verdicts(lambda xs: self.judge.code_judge(xs, with_lines=o.code_judge_lines), items, "code")
        for k, i in enumerate(idx):
            res = results[i]
            if verdicts is None or verdicts[k].failed:
                res.info["judge_error"] = err or verdicts[k].error
                res.excluded = JUDGE_OUTAGE
                continue
            v = verdicts[k]
            res.info["code_judge"] = {"score": v.score, "ok": v.ok, "non_react": v.non_react,
                                      "lines": [vars(li) for li in v.lines]}
            res.components["code_judge"] = o.non_react_penalty if v.non_react else v.score
            if o.code_judge_lines and not v.non_react:
                self._judge_lines(res, outcomes[i], v.lines, 1.0)

    def _vlm_judge(self, outcomes, requests, results) -> None:
        o = self.options
        with_code = o.vlm_judge in ("one_turn", "two_turn")
        idx = []
        for i, out in enumerate(outcomes):
            if out.stage in ("extract", "transpile"):
                results[i].components["vlm_judge"] = o.vlm_fail_penalty
            elif out.png is not None:
                idx.append(i)
        items = [ScreenshotInput(prompt=requests[i], png=outcomes[i].png,
                                 code=outcomes[i].extraction.code if with_code else "") for i in idx]
        verdicts, err = _verdicts(lambda xs: self.judge.screenshot_judge(xs, mode=o.vlm_judge), items, "screenshot")
        for k, i in enumerate(idx):
            res = results[i]
            if verdicts is None or verdicts[k].failed:
                res.info["judge_error"] = (res.info.get("judge_error", "") + " " + (err or verdicts[k].error)).strip()
                res.excluded = JUDGE_OUTAGE
                continue
            v = verdicts[k]
            res.info["vlm_judge"] = {"score": v.score, "ok": v.ok, "lines": [vars(li) for li in v.lines]}
            res.components["vlm_judge"] = v.score
            if o.vlm_lines:
                self._judge_lines(res, outcomes[i], v.lines, o.vlm_line_weight)


@REWARD_SOURCES.register("react")
def make_react_reward(reward: RewardCfg, context: dict[str, Any]) -> ReactReward:
    return ReactReward(reward, context)
