"""The step judge's prompts ask about relevance as well as truth (#34 item 2), and their replies
still parse: the fake judge's answer, the strict reply pattern and both step strategies."""

from __future__ import annotations

import re

import pytest

from bot_repro.judges import parse_options, parsers
from bot_repro.judges.fake_server import default_responder
from bot_repro.judges.prompts import PromptBook
from bot_repro.judges.types import StepJudgeInput
from tests.judge_server import scripted_client, text_of

ROLES = ("step_independent", "step_context_aware")
VALUES = {"problem": "Chen has 31 coins. Chen gets 25 more, then gives away 26. How many coins?",
          "reference": "30", "previous_steps": "(none: this is the first step)",
          "step": "30 + 26 = 56", "step_number": 1, "n_steps": 2}


@pytest.mark.parametrize("role", ROLES)
def test_prompt_asks_for_truth_and_relevance_and_the_fake_reply_parses(role):
    prompt = PromptBook(parse_options({"backend": "loopback"})).render(role, **VALUES)
    assert "Truth:" in prompt and "Relevance:" in prompt
    assert "problem's own quantities, or on results of earlier correct steps" in prompt
    assert "0 if it is correct but not relevant" in prompt
    assert prompt.rstrip().endswith("VERDICT: <+1, 0 or -1>")  # the reply format is the last field named
    reply = default_responder({"messages": [{"role": "user", "content": [{"type": "text", "text": prompt}]}]})
    assert re.fullmatch(parsers.REPLY_PATTERNS[role], reply)
    assert parsers.parse_verdict(reply) in (-1, 0, 1)


@pytest.mark.parametrize("strategy", ["independent", "context_aware"])
def test_step_strategies_send_the_relevance_question(strategy):
    # a judge that, as the prompt asks, gives 0 to the true step on numbers not in the problem
    def judge(messages):
        prompt = text_of(messages)
        assert "Relevance:" in prompt
        step = re.search(r"\(the step to judge(?: now)?\):\n(.*)\n", prompt).group(1)
        return "VERDICT: 0" if step.startswith("30 + 26") else "VERDICT: +1"

    with scripted_client(judge) as client:
        labels = client.step_judge([StepJudgeInput(VALUES["problem"], ["31 + 25 = 56", "30 + 26 = 56"], "30")],
                                   strategy=strategy)
    assert labels == [[1, 0]]
