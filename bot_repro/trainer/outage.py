"""What a training step does when its judge is down (``judge.on_outage``, docs/method.md §5).

A step has a judge outage when its judge work ends with the circuit breaker open on any process
(``bot_repro.judges.breaker``; a few failed calls with the breaker closed only exclude their rollouts,
``advantage_step``). Then, for the whole step:

- ``wait`` (default): the step does not train on what it has. It waits while the breaker probes, up
  to ``judge.outage_max_wait_s`` in all; when the breaker closes it judges the same rollouts again
  (with a fresh step deadline) and goes on. Past the maximum it stops like ``stop``.
- ``stop``: a checkpoint of the last finished step, then ``JudgeOutageStop`` (run.json ``failed``, a
  non-zero exit and the resume command: ``bot_repro.train``).
- ``skip``: the step makes no update (every group dropped, no optimizer step) and logs
  ``judge/step_skipped``; the run goes on.
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
    """Applies ``policy`` to one step's scored batch; ``any_rank(flag)`` is True when any process's
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

    def settle(self, scored, rescore: Callable[[], object]):
        """``scored``, or the same rollouts judged again after the outage ended (``wait``); sets ``skip``
        (``skip``) or raises ``JudgeOutageStop`` (``stop``, or ``wait`` past ``max_wait_s``)."""
        if self.judge is None:
            return scored
        start = time.monotonic()
        while self.any_rank(self.judge.outage()):
            where = self.judge.where
            if self.policy == "skip":
                log.warning("judge outage (%s not answering): step skipped, no update (judge.on_outage=skip)", where)
                self.skip = True
                return scored
            left = self.max_wait_s - (time.monotonic() - start)
            if self.policy == "stop" or left <= 0:
                why = ("judge.on_outage=stop" if self.policy == "stop"
                       else f"it did not come back within judge.outage_max_wait_s={self.max_wait_s:g}s")
                saved = self.checkpoint()
                raise JudgeOutageStop(f"judge outage: {where} is not answering and {why}; "
                                      + (f"saved {saved}" if saved else "no step finished, nothing to save"))
            log.warning("judge outage (%s not answering): this step waits up to %.0fs for it, probing "
                        "(judge.on_outage=wait)", where, left)
            if self.judge.wait_for_recovery(left):
                log.warning("judge %s answers again after %.0fs: judging the step's rollouts again", where,
                            time.monotonic() - start)
                self.judge.begin_step()
                scored = rescore()
        return scored


class SkipUpdate(TrainerCallback):
    """No optimizer step for a skipped step: gradients dropped before it, so that AdamW's moments and
    weight decay do not move the weights either (a zero loss alone would still update them)."""

    def __init__(self, guard: OutageGuard):
        self.guard = guard

    def on_pre_optimizer_step(self, args, state, control, model=None, **kw):
        if self.guard.skip and model is not None:
            for p in model.parameters():
                p.grad = None
