"""The four judge roles of docs/method.md §5 as async functions over ``CallRunner``: prompts in, verdicts out.

Failed verdicts. A call that gave no reply (retries spent, breaker open, step deadline) and a reply
that cannot be read (no score, no verdict, no winner: e.g. valid JSON with other text, or the empty
``content: null`` of a reasoning model out of tokens) are not verdicts: code and screenshot verdicts
say ``failed=True`` and a solution's step labels are None, so rewards exclude the rollout
(``RewardResult.excluded``) instead of training on a 0; a pairwise call gives no vote (see
``bot_repro.judges.abba``). Each role hands the runner its ``valid`` check, so an unreadable reply is
never cached; it is counted as ``unparseable`` and the step's share of them is warned about
(``JudgeClient.check_replies``).

Step strategies: ``independent`` judges every step in its own call, all in parallel, showing the
problem and the earlier steps but no verdicts; ``context_aware`` judges the steps of a solution
one after another, each call seeing the judge's own earlier verdicts; ``error_propagation`` uses
the independent prompt, but once a step gets -1 every later step gets 0 without being judged:
steps are sent ``step_lookahead`` at a time (1 = strictly in order, the fewest calls; larger
trades calls for latency), and calls for steps after a -1 are cancelled or never sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

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

    async def _ask(self, role: str, messages: list[dict], valid: Callable[[str], bool],
                   sample: int = 0) -> tuple[str | None, str]:
        """(reply, "") for a reply that ``valid`` can read, else (None, why): the call failed or its reply
        cannot be read. Counted here (``failures``; ``replies``, ``unparseable``)."""
        try:
            reply = await self.runner.call(role, messages, sample, valid)
        except JudgeCallFailed as exc:
            self.metrics.add(failures=1)
            return None, f"judge call failed: {exc}"
        readable = valid(reply)
        self.metrics.reply(reply, readable)
        return (reply, "") if readable else (None, f"unparseable judge reply: {reply[:200]!r}")

    # -- code judge ---------------------------------------------------------------------------

    async def code(self, item: CodeJudgeInput, with_lines: bool) -> CodeVerdict:
        code = item.code or ""
        role = "code_lines" if with_lines else "code_score"
        n_lines = len(code_lines(code))
        prompt = self.book.render(role, prompt=item.prompt, code=number_code(code), n_lines=n_lines)
        reply, error = await self._ask(role, [user(text(prompt))], _has_code_verdict)
        if reply is None:
            return CodeVerdict(score=0.0, ok=False, error=error, failed=True)
        return parsers.parse_code_reply(reply, n_lines if with_lines else None)

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
        reply, error = await self._ask(role, [user(text(prompt), image(item.png))], _has_score)
        if reply is None:
            return ScreenshotVerdict(score=0.0, ok=False, error=error, failed=True)
        return parsers.parse_screenshot_reply(reply, None if mode == "global" else n_lines)

    async def _two_turn(self, item: ScreenshotInput, code: str, n_lines: int) -> ScreenshotVerdict:
        first = [user(text(self.book.render("screenshot_two_turn_score", prompt=item.prompt)), image(item.png))]
        reply1, error = await self._ask("screenshot_two_turn_score", first, _has_score)
        if reply1 is None:  # no fixed score: the line turn would be meaningless
            return ScreenshotVerdict(score=0.0, ok=False, error=error, failed=True)
        second_prompt = self.book.render(
            "screenshot_two_turn_lines", prompt=item.prompt, code=number_code(code), n_lines=n_lines
        )
        second = [*first, assistant(reply1), user(text(second_prompt))]
        reply2, error = await self._ask("screenshot_two_turn_lines", second, _has_lines)
        verdict = parsers.parse_two_turn(reply1, reply2, n_lines)
        verdict.error = error  # a failed line turn keeps the fixed score for the record ...
        verdict.failed = reply2 is None  # ... but its lines are missing or unreadable: not a verdict
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
            reply, _ = await self._ask("pairwise", messages, _has_winner, sample=i)
            return "" if reply is None else map_back(order, parsers.parse_winner(reply))

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
        reply, _ = await self._ask(role, [user(text(prompt))], _has_verdict)
        return None if reply is None else parsers.parse_verdict(reply)


# what each role can read in a reply (``Roles._ask``'s ``valid``): anything else is a failed verdict
def _has_code_verdict(reply: str) -> bool:
    return parsers.is_non_react(reply) or parsers.parse_score(reply) is not None


def _has_score(reply: str) -> bool:
    return parsers.parse_score(reply) is not None


def _has_lines(reply: str) -> bool:
    return parsers.has_field(reply, "LINE_ANALYSIS")


def _has_winner(reply: str) -> bool:
    return parsers.parse_winner(reply) != ""


def _has_verdict(reply: str) -> bool:
    return parsers.parse_verdict(reply) is not None


def _label(value: int) -> str:
    return "+1" if value > 0 else str(value)
