"""The four judge roles of docs/method.md §5 as async functions over ``CallRunner``: prompts in, verdicts out.

Failure values. A reply that cannot be parsed is a verdict: code and screenshot judges give
``ok=False``, score 0, no lines; a step call gives label 0 (no evidence either way), which also
means error propagation does not cut the solution there; a pairwise call gives no vote (see
``bot_repro.judges.abba``). A call that gave no reply (retries spent, breaker open, step deadline)
is not a verdict: code and screenshot verdicts say ``failed=True`` and a solution's step labels
are None, so rewards exclude the rollout (``RewardResult.excluded``) instead of training on a 0.

Step strategies: ``independent`` judges every step in its own call, all in parallel, showing the
problem and the earlier steps but no verdicts; ``context_aware`` judges the steps of a solution
one after another, each call seeing the judge's own earlier verdicts; ``error_propagation`` uses
the independent prompt, but once a step gets -1 every later step gets 0 without being judged:
steps are sent ``step_lookahead`` at a time (1 = strictly in order, the fewest calls; larger
trades calls for latency), and calls for steps after a -1 are cancelled or never sent.
"""

from __future__ import annotations

import asyncio

from bot_repro.config_schema import ConfigError
from bot_repro.judges import parsers
from bot_repro.judges.abba import ABBA_ORDER, abba_result, map_back
from bot_repro.judges.calls import CallRunner, JudgeCallFailed
from bot_repro.judges.metrics import JudgeMetrics
from bot_repro.judges.options import JudgeOptions
from bot_repro.judges.prompts import PromptBook, assistant, code_lines, image, number_code, text, user
from bot_repro.judges.types import (
    CodeJudgeInput,
    CodeVerdict,
    PairInput,
    PairResult,
    ScreenshotInput,
    ScreenshotVerdict,
    StepJudgeInput,
)

SCREENSHOT_MODES = ("global", "one_turn", "two_turn")
STEP_STRATEGIES = ("independent", "context_aware", "error_propagation")


def check_choice(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise ConfigError(f"{what}={value!r} is not supported; allowed: {', '.join(allowed)}")


class Roles:
    def __init__(self, runner: CallRunner, book: PromptBook, opts: JudgeOptions, metrics: JudgeMetrics):
        self.runner = runner
        self.book = book
        self.opts = opts
        self.metrics = metrics

    async def _ask(self, role: str, messages: list[dict], sample: int = 0) -> tuple[str | None, str]:
        """(reply, "") or (None, reason) when the call failed; failures are counted here."""
        try:
            return await self.runner.call(role, messages, sample), ""
        except JudgeCallFailed as exc:
            self.metrics.add(failures=1)
            return None, f"judge call failed: {exc}"

    def _unparsed(self) -> str:
        self.metrics.add(unparseable=1)
        return "unparseable judge reply"

    # -- code judge ---------------------------------------------------------------------------

    async def code(self, item: CodeJudgeInput, with_lines: bool) -> CodeVerdict:
        code = item.code or ""
        role = "code_lines" if with_lines else "code_score"
        n_lines = len(code_lines(code))
        prompt = self.book.render(role, prompt=item.prompt, code=number_code(code), n_lines=n_lines)
        reply, error = await self._ask(role, [user(text(prompt))])
        if reply is None:
            return CodeVerdict(score=0.0, ok=False, error=error, failed=True)
        verdict = parsers.parse_code_reply(reply, n_lines if with_lines else None)
        if not verdict.ok:
            verdict.error = self._unparsed()
        return verdict

    # -- screenshot judge ---------------------------------------------------------------------

    async def screenshot(self, item: ScreenshotInput, mode: str) -> ScreenshotVerdict:
        check_choice(mode, SCREENSHOT_MODES, "screenshot judge mode")
        if not item.png:
            return ScreenshotVerdict(score=0.0, ok=False, error="no screenshot")
        code = item.code or ""
        n_lines = len(code_lines(code))
        if mode == "two_turn":
            return await self._two_turn(item, code, n_lines)
        role = "screenshot_global" if mode == "global" else "screenshot_one_turn"
        prompt = self.book.render(role, prompt=item.prompt, code=number_code(code), n_lines=n_lines)
        reply, error = await self._ask(role, [user(text(prompt), image(item.png))])
        if reply is None:
            return ScreenshotVerdict(score=0.0, ok=False, error=error, failed=True)
        verdict = parsers.parse_screenshot_reply(reply, None if mode == "global" else n_lines)
        if not verdict.ok:
            verdict.error = self._unparsed()
        return verdict

    async def _two_turn(self, item: ScreenshotInput, code: str, n_lines: int) -> ScreenshotVerdict:
        first = [user(text(self.book.render("screenshot_two_turn_score", prompt=item.prompt)), image(item.png))]
        reply1, error = await self._ask("screenshot_two_turn_score", first)
        if reply1 is None:
            return ScreenshotVerdict(score=0.0, ok=False, error=error, failed=True)
        if parsers.parse_score(reply1) is None:  # no fixed score: the line turn would be meaningless
            return ScreenshotVerdict(score=0.0, ok=False, raw=reply1, error=self._unparsed())
        second_prompt = self.book.render(
            "screenshot_two_turn_lines", prompt=item.prompt, code=number_code(code), n_lines=n_lines
        )
        second = [*first, assistant(reply1), user(text(second_prompt))]
        reply2, error = await self._ask("screenshot_two_turn_lines", second)
        verdict = parsers.parse_two_turn(reply1, reply2, n_lines)
        verdict.error = error  # a failed line turn keeps the fixed score for the record ...
        verdict.failed = reply2 is None  # ... but its lines are missing, not judged: not a verdict
        return verdict

    # -- pairwise judge -----------------------------------------------------------------------

    async def pair(self, item: PairInput) -> PairResult:
        if not item.png_a or not item.png_b:
            # a missing screenshot (the app did not render) loses to a present one, without a call
            winner = "" if not item.png_a and not item.png_b else ("a" if item.png_a else "b")
            return abba_result([winner] * len(ABBA_ORDER))
        prompt = self.book.render("pairwise", prompt=item.prompt)

        async def one(i: int, order: str) -> str:
            first, second = (item.png_a, item.png_b) if order == "ab" else (item.png_b, item.png_a)
            messages = [user(text(prompt), text("Screenshot A:"), image(first), text("Screenshot B:"), image(second))]
            reply, _ = await self._ask("pairwise", messages, sample=i)
            if reply is None:
                return ""
            shown = parsers.parse_winner(reply)
            if not shown:
                self._unparsed()
            return map_back(order, shown)

        votes = await asyncio.gather(*(one(i, order) for i, order in enumerate(ABBA_ORDER)))
        return abba_result(list(votes))

    # -- step judge ---------------------------------------------------------------------------

    async def steps(self, item: StepJudgeInput, strategy: str) -> list[int] | None:
        """One label per step, or None when a call the labels needed gave no reply."""
        check_choice(strategy, STEP_STRATEGIES, "step judge strategy")
        n = len(item.steps)
        if strategy == "independent":
            labels = list(await asyncio.gather(*(self._step(item, i, None) for i in range(n))))
            return None if None in labels else labels
        if strategy == "context_aware":
            labels = []
            for i in range(n):
                label = await self._step(item, i, labels)
                if label is None:  # later calls would show the judge a verdict it never gave
                    return None
                labels.append(label)
            return labels
        return await self._propagate(item)

    async def _propagate(self, item: StepJudgeInput) -> list[int] | None:
        n = len(item.steps)
        labels = [0] * n
        cut = n  # index of the earliest step known to be -1
        pending: dict[int, asyncio.Task] = {}
        next_step = 0
        try:
            while pending or (next_step < cut and next_step < n):
                while next_step < min(cut, n) and len(pending) < self.opts.step_lookahead:
                    pending[next_step] = asyncio.ensure_future(self._step(item, next_step, None))
                    next_step += 1
                done, _ = await asyncio.wait(pending.values(), return_when=asyncio.FIRST_COMPLETED)
                for i in [i for i, task in pending.items() if task in done]:
                    label = pending.pop(i).result()
                    if label is None:
                        return None  # the finally cancels the rest
                    labels[i] = label
                    if labels[i] == -1:
                        cut = min(cut, i)
                for i in [i for i in pending if i > cut]:
                    pending.pop(i).cancel()
        finally:
            for task in pending.values():
                task.cancel()
        return [label if i <= cut else 0 for i, label in enumerate(labels)]

    async def _step(self, item: StepJudgeInput, i: int, verdicts: list[int] | None) -> int | None:
        role = "step_independent" if verdicts is None else "step_context_aware"
        previous = []
        for j in range(i):
            entry = f"Step {j + 1}: {item.steps[j]}"
            if verdicts is not None:
                entry += f"\nYour verdict: {_label(verdicts[j])}"
            previous.append(entry)
        prompt = self.book.render(
            role,
            problem=item.problem,
            reference=item.reference_answer if item.reference_answer is not None else "(not given)",
            previous_steps="\n\n".join(previous) if previous else "(none: this is the first step)",
            step=item.steps[i],
            step_number=i + 1,
            n_steps=len(item.steps),
        )
        reply, _ = await self._ask(role, [user(text(prompt))])
        if reply is None:
            return None
        label = parsers.parse_verdict(reply)
        if label is None:
            self._unparsed()
            return 0
        return label


def _label(value: int) -> str:
    return "+1" if value > 0 else str(value)
