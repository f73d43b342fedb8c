"""React reward stack on hand-made check outcomes and fake judges; token mapping of its line penalties."""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from bot_repro.config_schema import ConfigError, build_options
from bot_repro.judges.types import CodeVerdict, LineImpact, ScreenshotVerdict
from bot_repro.rewards import REWARD_SOURCES, RewardCfg
from bot_repro.tasks.react.checker import CheckOutcome
from bot_repro.tasks.react.extract import extract_code
from bot_repro.tasks.react.reward import ReactReward

CONF = Path(__file__).resolve().parents[2] / "conf"
STATIC = {"code_judge": False, "code_judge_lines": False}
RESPONSE = "Intro line\n```tsx\nimport x from 'y';\nconst a = 1;\nexport default a;\n```\n"  # code at lines 2..4


def diag(line, severity="error", source="tsc"):
    return {"line": line, "col": 0, "severity": severity, "source": source, "rule": "R", "message": "m"}


def outcome(compiled=False, stage="typecheck", compiler=(), eslint=(), png=None, response=RESPONSE):
    return CheckOutcome(extract_code(response), compiled, None if compiled else stage, "" if compiled else "bad",
                        compiler=list(compiler), eslint=list(eslint), png=png)


class FakeJudge:
    def __init__(self, code=None, shots=None, fail=False):
        self.code, self.shots, self.fail, self.calls = code, shots, fail, []

    def code_judge(self, items, with_lines=True):
        self.calls.append(("code", len(items), with_lines))
        if self.fail:
            raise ConnectionError("judge down")
        return self.code[: len(items)]

    def screenshot_judge(self, items, mode="global"):
        self.calls.append(("shot", len(items), mode, [bool(i.code) for i in items]))
        return self.shots[: len(items)]


def reward(params, judge=None):
    return ReactReward(RewardCfg(source="react", params=params), {"judge": judge})


def test_static_stack_global_and_lines_hand_computed():
    out = outcome(compiler=[diag(0), diag(0), diag(2)],
                  eslint=[diag(1, "warning", "eslint"), diag(1, "error", "eslint"), diag(0, "fatal", "eslint")])
    res = reward(STATIC).score_outcomes([out], [{"request": "r"}])[0]
    # -1 (compile) + ESLint -0.5 - 0.1 - 0.02
    assert res.global_score == pytest.approx(-1.62)
    assert res.components == pytest.approx({"compile_fail": -1.0, "eslint": -0.62, "code_judge": 0.0,
                                            "vlm_judge": 0.0, "compiled": 0.0, "console_error": 0.0,
                                            "blank_render": 0.0})
    # response lines = code lines + 2; compiler -1 once per flagged line, ESLint weights add up
    assert res.lines == pytest.approx({2: -1.5, 3: -0.12, 4: -1.0})
    assert res.info["failure"] == "bad" and res.info["code_start_line"] == 2


def test_renormalised_compiler_lines_and_switches_off():
    out = outcome(compiler=[diag(0), diag(1), diag(2), diag(7)])  # line 7 is outside the code: ignored
    res = reward({**STATIC, "compiler_line_mode": "renormalise", "eslint_lines": False}).score_outcomes([out], [{}])[0]
    assert res.lines == pytest.approx({2: -1 / 3, 3: -1 / 3, 4: -1 / 3})
    res = reward({**STATIC, "compiler_lines": False, "eslint": False}).score_outcomes([out], [{}])[0]
    assert res.lines == {} and res.global_score == -1.0


def test_no_code_block_is_a_failure_without_lines():
    out = CheckOutcome(None, False, "extract", "no fenced code block in the response")
    judge = FakeJudge(code=[], shots=[])
    res = reward({"vlm_judge": "global"}, judge).score_outcomes([out], [{"request": "r"}])[0]
    assert res.components["code_judge"] == -0.3 and res.components["vlm_judge"] == -0.3
    assert res.global_score == pytest.approx(-1.6) and res.lines == {}
    assert judge.calls == []  # nothing to judge


def test_code_judge_score_lines_and_non_react():
    lines = [LineImpact(0, -1), LineImpact(1, -3), LineImpact(2, -2), LineImpact(0, -2), LineImpact(9, -3),
             LineImpact(1, -7)]
    judge = FakeJudge(code=[CodeVerdict(0.7, lines), CodeVerdict(0.9, [LineImpact(0, -3)], non_react=True)])
    outs = [outcome(compiled=True), outcome(compiled=True)]
    res = reward({"compiler_lines": False, "eslint_lines": False}, judge).score_outcomes(outs, [{}, {}])
    assert judge.calls == [("code", 2, True)]
    assert res[0].global_score == pytest.approx(0.7)
    # three worst valid lines (impact -3, -2, -2); line 9 is outside the code, -7 is malformed
    assert res[0].lines == pytest.approx({3: -0.3, 4: -0.2, 2: -0.2})
    assert res[1].components["code_judge"] == -0.3 and res[1].lines == {}


def test_vlm_judge_modes_and_fail_values():
    judge = FakeJudge(code=[CodeVerdict(0.5)] * 3, shots=[ScreenshotVerdict(0.8, [LineImpact(1, -2)])])
    outs = [outcome(compiled=True, png=b"png"), outcome(stage="transpile"), outcome(stage="render")]
    res = reward({"code_judge_lines": False, "vlm_judge": "one_turn", "vlm_lines": True, "vlm_line_weight": 0.2,
                  "compiler_lines": False}, judge).score_outcomes(outs, [{}] * 3)
    assert judge.calls[-1] == ("shot", 1, "one_turn", [True])
    assert res[0].components["vlm_judge"] == 0.8 and res[0].lines == pytest.approx({3: -0.04})
    assert res[1].components["vlm_judge"] == -0.3  # transpilation failed
    assert res[2].components["vlm_judge"] == 0.0  # compiled code, no screenshot


def test_judge_failure_excludes_the_response_and_says_why():
    judge = FakeJudge(fail=True)
    res = reward({}, judge).score_outcomes([outcome(compiled=True)], [{}])[0]
    assert res.excluded == "judge_outage" and "judge down" in res.info["judge_error"]


def test_a_failed_call_and_an_unparseable_reply_both_exclude():
    """Neither is a verdict (docs/method.md §5): the judge returns both as failed verdicts, the reward excludes."""
    failed = CodeVerdict(0.0, ok=False, error="judge call failed: timeout", failed=True)
    unparsed = CodeVerdict(0.0, ok=False, error="unparseable judge reply: 'I would rather not say.'", failed=True)
    shots = [ScreenshotVerdict(0.6)] * 2 + [ScreenshotVerdict(0.0, ok=False, error="judge call failed", failed=True)]
    judge = FakeJudge(code=[failed, unparsed, CodeVerdict(0.5)], shots=shots)
    outs = [outcome(compiled=True, png=b"png")] * 3
    res = reward({"code_judge_lines": False, "vlm_judge": "global"}, judge).score_outcomes(outs, [{}] * 3)
    assert [r.excluded for r in res] == ["judge_outage"] * 3  # the 3rd: its screenshot call
    assert res[0].info["judge_error"].startswith("judge call failed")
    assert res[1].info["judge_error"].startswith("unparseable judge reply")


def test_judge_required_when_enabled_and_bad_params():
    with pytest.raises(ConfigError, match="no judge client"):
        reward({})
    with pytest.raises(ConfigError, match="vlm_judge='sometimes'"):
        reward({**STATIC, "vlm_judge": "sometimes"})
    with pytest.raises(ConfigError, match="vlm_lines needs"):
        reward({**STATIC, "vlm_lines": True})
    with pytest.raises(ConfigError, match="unknown key"):
        reward({**STATIC, "eslint_weight": 1})


@pytest.mark.parametrize("path", sorted(CONF.glob("reward/react_*.yaml")), ids=lambda p: p.stem)
def test_reward_configs_build(path):
    from tests.conftest import compose

    cfg = compose(["task=react", f"reward={path.stem}"])
    section = build_options(RewardCfg, OmegaConf.to_container(cfg.reward, resolve=True), "reward")
    src = REWARD_SOURCES[section.source](section, {"judge": FakeJudge(), "run_dir": None, "seed": 0})
    assert section.window == 3  # react_bot's lines spread to 3 neighbours each side (docs/method.md §3)
    assert src.check_options.typecheck == "penalise" and not src.check_options.render_strict
    assert src.check_options.allowed_imports == ("react", "react-dom", "lucide-react", "react-icons", "recharts",
                                                 "framer-motion")
    if path.stem != "react_bot":  # every other stack inherits the BoT stack and holds only what differs
        raw = OmegaConf.load(path)
        assert list(raw.get("defaults", [])) == ["react_bot", "_self_"], path.name
        assert "source" not in raw and "checks" not in raw.get("params", {}), path.name
    o = src.options
    if path.stem == "react_global":
        assert not (o.compiler_lines or o.eslint_lines or o.code_judge_lines) and section.w_s == 0
    if path.stem == "react_static_only":
        assert not o.uses_judge
    if path.stem.startswith("react_vlm_1turn"):
        assert o.vlm_judge == "one_turn" and o.vlm_line_weight == (1.0 if path.stem.endswith("w1") else 0.2)


def test_token_penalties_for_code_after_prose_with_multibyte_text(tmp_path):
    from transformers import AutoTokenizer

    from bot_repro.models.tiny import build_tiny
    from bot_repro.rewards.mapper import local_token_rewards, token_char_offsets

    response = ("Voilà — a café app ☕ for you:\n\n```tsx\nconst naïve = \"日本\";\nexport default "
                "function App() { return <p>{naïve} 🎉</p>; }\n```\nDone ✓")
    tok = AutoTokenizer.from_pretrained(build_tiny("qwen2", tmp_path / "tiny", corpus=[response] * 4))
    ids = tok(response, add_special_tokens=False)["input_ids"]
    text, offsets = token_char_offsets(tok, ids)
    assert text == response
    out = outcome(compiler=[diag(1)], response=response)
    assert out.extraction.start_line == 3
    res = reward(STATIC).score_outcomes([out], [{}])[0]
    assert res.lines == {4: -1.0}
    local = local_token_rewards(text, offsets, res, window=1)
    checked = 0
    for t, (s, e) in enumerate(offsets):
        if not text[s:e].strip("\n"):
            continue  # newline-only tokens sit between lines; their line is the mapper's choice
        d = abs(text.count("\n", 0, s) - 4)
        assert local[t] == pytest.approx(-max(0.0, 1 - d / 2)), (t, text[s:e])
        checked += 1
    assert checked > 10
    # multi-byte characters on the penalised line carry its full penalty; prose far above gets none
    assert any(local[t] == -1.0 and not text[s:e].isascii() for t, (s, e) in enumerate(offsets))
    assert all(local[t] == 0.0 for t, (s, e) in enumerate(offsets) if e <= text.index("\n"))
