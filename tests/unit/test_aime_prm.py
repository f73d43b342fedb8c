"""The learned-PRM step source with a tiny random Qwen2 token-classification model built in process
(Qwen2.5-Math-PRM convention: <extra_0> after each step, e_s = 2 p(positive) - 1)."""

from __future__ import annotations

import math

import pytest
import torch
from transformers import AutoConfig, AutoTokenizer, Qwen2ForTokenClassification

import bot_repro.tasks.aime.reward  # noqa: F401  (registers the "aime" reward source)
from bot_repro.config_schema import ConfigError
from bot_repro.models.tiny import build_tiny
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.tasks.aime.steps import PrmOptions, PrmStepScorer

SEP = "<extra_0>"
STEPS = [["3 + 4 = 7", "2 * 7 = 14", "so 14"], [], ["one step only"]]
PROBLEMS = ["What is 2 * (3 + 4)?", "empty", "Say one."]


def build_prm(tmp_path, bias: tuple[float, float] | None, with_separator: bool = True):
    base = build_tiny("qwen2", tmp_path / "base", vocab_size=300, hidden_size=32, num_layers=1)
    tok = AutoTokenizer.from_pretrained(base)
    if with_separator:
        tok.add_special_tokens({"additional_special_tokens": [SEP]})
    config = AutoConfig.from_pretrained(base, num_labels=2)
    config.vocab_size = len(tok)
    torch.manual_seed(0)
    model = Qwen2ForTokenClassification(config)
    if bias is not None:
        with torch.no_grad():
            model.score.weight.zero_()
            model.score.bias.copy_(torch.tensor(bias))
    out = tmp_path / "prm"
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


def scorer(path, **kw) -> PrmStepScorer:
    return PrmStepScorer(PrmOptions(model=str(path), loader="token_classification", device="cpu", **kw))


def test_known_head_gives_known_scores(tmp_path):
    # zero weights, bias (0, ln 3): p(positive) = 3/4 at every token, so e_s = 2 * 3/4 - 1 = 0.5
    prm = scorer(build_prm(tmp_path, bias=(0.0, math.log(3.0))))
    scores, failures = prm.score(PROBLEMS, STEPS, ["14", "0", "1"])
    assert scores == [pytest.approx([0.5] * 3), [], pytest.approx([0.5])]
    assert failures == [None, None, None]


def test_scores_are_read_at_the_separators(tmp_path):
    path = build_prm(tmp_path, bias=None)
    prm = scorer(path, batch_size=2)
    scores, _ = prm.score(PROBLEMS, STEPS, ["14", "0", "1"])
    # recompute by hand for the first solution
    text = prm._text(PROBLEMS[0], STEPS[0])
    assert text.count(SEP) == 3
    ids = prm.tokenizer(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        probs = torch.softmax(prm.model(input_ids=ids).logits[0], dim=-1)[:, 1]
    positions = (ids[0] == prm.sep_id).nonzero(as_tuple=True)[0]
    assert scores[0] == pytest.approx((2 * probs[positions] - 1).tolist(), abs=1e-5)
    assert all(-1.0 <= v <= 1.0 for v in scores[0])
    # a separator written by the policy does not add a step
    assert prm._text("p", ["a" + SEP + "b"]).count(SEP) == 1


def test_truncated_input_leaves_steps_unscored(tmp_path):
    prm = scorer(build_prm(tmp_path, bias=(0.0, math.log(3.0))), max_length=40)
    long_steps = [["word " * 20, "more " * 20, "end"]]
    scores, failures = prm.score(["p"], long_steps, ["1"])
    assert scores[0][-1] == 0.0 and "unscored" in failures[0]


def test_missing_separator_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no single token '<extra_0>'"):
        scorer(build_prm(tmp_path, bias=None, with_separator=False))


def test_reward_source_with_prm(tmp_path):
    path = build_prm(tmp_path, bias=(0.0, math.log(3.0)))
    prm = {"model": str(path), "loader": "token_classification", "device": "cpu"}
    cfg = RewardCfg(source="aime", w_g=3.0, w_s=0.5, window=0, params={"step_source": "prm", "prm": prm})
    src = REWARD_SOURCES["aime"](cfg, {"judge": None})
    text = "<step 1> 3 + 4 = 7 </step 1>\n<step 2> 2 * 7 = 14 </step 2>\n<final> 14 </final>"
    result = src.score([text], [{"problem": "What is 2 * (3 + 4)?", "answer": "14"}])[0]
    assert [s.value for s in result.spans] == pytest.approx([0.25, 0.25])  # 0.5 / |S| with |S| = 2
