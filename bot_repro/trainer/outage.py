"""What a training step does when its judge did not judge it (``judge.on_outage``, docs/method.md §5), and
what a run says when too many of its rollouts had no score (docs/method.md §3).

An *outage step* is one whose judge work ends with the circuit breaker open on any process
(``bot_repro.judges.breaker``), or in which no group kept a scored rollout, whatever the cause (failed
calls, deadline cuts, a rate-limit storm, unparseable replies, stalled checkers). A few failed calls
that leave some groups scored only exclude their rollouts (``advantage_step``). For an outage step:

- ``wait`` (default): the step does not train on what it has. It waits while the breaker probes (with
  the breaker closed: one probe interval, then one probe), up to ``judge.outage_max_wait_s`` in all;
  when the judge answers it judges the same rollouts again (with a fresh step deadline) and goes on.
  Past the maximum it stops like ``stop``.
- ``stop``: a checkpoint of the last finished step, then ``JudgeOutageStop`` (run.json ``failed``, exit
  code 3 and the resume command: ``bot_repro.train``).
- ``skip``: the step makes no update and logs ``judge/step_skipped``; the run goes on.

Whatever the policy (and with no judge), a step whose loss has no token makes no optimizer step
(``NoEmptyUpdate``): its weights and optimizer state stay as they were. ``excluded_note`` is what a run
that excluded more than ``trainer.max_excluded_share`` of its rollouts says at its end.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from transformers import TrainerCallback

log = logging.getLogger(__name__)


class JudgeOutageStop(RuntimeError):
    """The run stopped because its judge did not answer (``on_outage=stop``, or ``wait`` past its maximum)."""


class OutageGuard:
    """Applies ``policy`` to one round's scored batch; ``any_rank(flag)`` is True when any process's
    flag is (the decision is the same on every rank); ``checkpoint()`` saves the last finished step."""

    def __init__(self, judge, policy: str, max_wait_s: float, any_rank: Callable[[bool], bool],
                 checkpoint: Callable[[], str | None]):
        self.judge, self.policy, self.max_wait_s = judge, policy, max_wait_s
        self.any_rank, self.checkpoint = any_rank, checkpoint
        self.skip = False  # this step makes no update

    def begin_step(self) -> None:
        self.skip = False
        if self.judge is not None:
            self.judge.begin_step()

    def not_judged(self, scored, judged: Callable[[object], bool]) -> str | None:
        """Why the round ``scored`` is an outage (None when it is not); ``judged(scored)``: some group of
        the round, gathered from every process, kept a scored rollout."""
        if self.any_rank(self.judge.outage()):
            return f"{self.judge.where} is not answering (circuit breaker open)"
        if not judged(scored):
            return (f"no group of this step kept a rollout scored by {self.judge.where} (failed calls, deadline "
                    "cuts, rate limits or unparseable replies)")
        return None

    def settle(self, scored, rescore: Callable[[], object], judged: Callable[[object], bool]):
        """``scored``, or the same rollouts judged again after the outage ended (``wait``); sets ``skip``
        (``skip``) or raises ``JudgeOutageStop`` (``stop``, or ``wait`` past ``max_wait_s``)."""
        if self.judge is None:
            return scored
        start = time.monotonic()
        while True:
            self.judge.check_replies()  # the step's warning about unreadable replies, if any
            why = self.not_judged(scored, judged)
            if why is None:
                return scored
            if self.policy == "skip":
                log.warning("judge outage (%s): step skipped, no update (judge.on_outage=skip)", why)
                self.skip = True
                return scored
            left = self.max_wait_s - (time.monotonic() - start)
            if self.policy == "stop" or left <= 0:
                how = ("judge.on_outage=stop" if self.policy == "stop"
                       else f"it did not come back within judge.outage_max_wait_s={self.max_wait_s:g}s")
                saved = self.checkpoint()
                raise JudgeOutageStop(f"judge outage: {why} and {how}; "
                                      + (f"saved {saved}" if saved else "no step finished, nothing to save"))
            log.warning("judge outage (%s): this step waits up to %.0fs for the judge, probing "
                        "(judge.on_outage=wait)", why, left)
            if self.judge.wait_for_recovery(left):
                log.warning("judge %s answers after %.0fs: judging the step's rollouts again", self.judge.where,
                            time.monotonic() - start)
                self.judge.begin_step()
                scored = rescore()


class NoEmptyUpdate(TrainerCallback):
    """No optimizer step for a step that must not train: one skipped for an outage (``guard.skip``) or one
    whose loss had no token (``loss_tokens()``, summed over its micro-batches and every process: every
    group dropped). Its gradients are dropped before the optimizer step, so that AdamW's moments and
    weight decay do not move the weights and the optimizer state stays as it was (a zero loss alone
    would still update both). The learning-rate schedule and the step counter move on."""

    def __init__(self, guard: OutageGuard, loss_tokens: Callable[[], int]):
        self.guard, self.loss_tokens = guard, loss_tokens

    def on_pre_optimizer_step(self, args, state, control, model=None, **kw):
        tokens = self.loss_tokens()  # on every rank: it gathers
        if model is not None and (self.guard.skip or tokens == 0):
            for p in model.parameters():
                p.grad = None


def excluded_note(records: list[dict], max_share: float) -> str | None:
    """What a run whose ``metrics.jsonl`` ``records`` excluded more than ``max_share`` of its rollouts
    (``excluded/rollouts`` over ``excluded/out_of``, every step) says at its end; None when it did not."""
    excluded = sum(float(r.get("excluded/rollouts") or 0.0) for r in records)
    scored = sum(float(r.get("excluded/out_of") or 0.0) for r in records)
    if not scored or excluded <= max_share * scored:
        return None
    return (f"{excluded:.0f} of {scored:.0f} rollouts ({100 * excluded / scored:.0f}%) had no score and were "
            f"excluded, above trainer.max_excluded_share={max_share:g}: the run is degraded (see excluded/* and "
            "judge/* in metrics.jsonl, and judge_failures.jsonl)")
