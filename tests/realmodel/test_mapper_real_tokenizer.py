"""The span/line -> token mapper on SmolLM2's real BPE tokenizer: exact-overlap properties.

The reference is independent of the mapper: the Rust tokenizer's own ``offset_mapping`` for the
same ids (a token covers every character any of its bytes belongs to). The mapper computes its
offsets from the ids alone (``token_char_offsets``), as it does for sampled completions.

Properties, checked on React code and on AIME step-formatted text (newline-spanning tokens,
leading spaces, multi-byte characters split over tokens, first and last line):
* a span reward reaches exactly the tokens overlapping the span, and no other;
* a line reward (window 0) reaches exactly the tokens holding characters of that line (a token
  of newlines only belongs to the line its first newline ends), and every token has one line.
A deliberately broken offset mapping (off by one) must fail them.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from bot_repro.rewards import mapper
from bot_repro.rewards.base import RewardCfg, RewardResult, SpanReward
from bot_repro.tasks.aime.tags import parse_solution
from bot_repro.tasks.react.checker import CheckOutcome
from bot_repro.tasks.react.extract import extract_code
from bot_repro.tasks.react.reward import ReactReward
from bot_repro.trainer.token_reward import score_completions

DATA = Path(__file__).resolve().parents[1] / "data" / "react_realistic"

REACT_SNIPPET = (
    "import React, { useState } from 'react';\n"
    "\n"
    "export default function App() {\n"
    "  const [n, setN] = useState(0); // café ✓ 日本 🎉\n"
    "    return (\n"
    "      <div className=\"p-4\">{n} × 2 — “ok”</div>\n"
    "  );\n\n\n"
    "}"  # last line without a trailing newline
)
AIME_TEXT = (
    "<step 1> Ana has 12 + 7 = 19 apples. </step 1>\n"
    "<step 2>   19 × 2 = 38 — café 日本 🎉 </step 2>\n\n"
    "<step 3>19 - 4 = 16</step 3><final> 16 </final>\n"
    "  trailing words ünïcödé"
)


def texts():
    app = (DATA / "tsx" / "memory_match.tsx").read_text()
    jsx = next(p for p in sorted((DATA / "jsx").iterdir()) if any(ord(c) > 127 for c in p.read_text()))
    return {"react_snippet": REACT_SNIPPET, "react_tsx": app, "react_jsx_unicode": jsx.read_text(),
            "aime": AIME_TEXT, "aime_fenced": "Solution:\n" + AIME_TEXT + "\n"}


def reference(tok, text):
    enc = tok(text, add_special_tokens=False, return_offsets_mapping=True)
    return enc["input_ids"], [tuple(o) for o in enc["offset_mapping"]]


def line_of_chars(text):
    """Line index of every character (a newline belongs to the line it ends)."""
    out, line = [], 0
    for ch in text:
        out.append(line)
        line += ch == "\n"
    return out


def violations(tok, text, spans):
    """Every way the mapper's token rewards differ from the reference overlap (empty: none)."""
    ids, ref = reference(tok, text)
    decoded, offsets = mapper.token_char_offsets(tok, ids)
    found = []
    if decoded != text:
        found.append(f"decoded text differs: {decoded[:60]!r}")
    for a, b in spans:
        got = mapper.local_token_rewards(decoded, offsets, RewardResult(0.0, spans=[SpanReward(a, b, 1.0)]), 0)
        want = np.array([float(s < b and a < e) for s, e in ref])
        if not np.array_equal(got, want):
            bad = np.flatnonzero(got != want)[:3]
            found.append(f"span [{a},{b}) {text[a:b]!r}: tokens {[(int(t), ref[t]) for t in bad]}")
    chars = line_of_chars(text)
    token_lines = []
    for s, e in ref:
        content = {chars[i] for i in range(s, e) if text[i] != "\n"}
        assert len(content) <= 1, f"a token holds characters of two lines: {text[s:e]!r}"
        token_lines.append(content.pop() if content else chars[s])
    for line in sorted(set(chars)):
        got = mapper.local_token_rewards(decoded, offsets, RewardResult(0.0, lines={line: -1.0}), 0)
        want = -np.array([float(t == line) for t in token_lines])
        if not np.array_equal(got, want):
            found.append(f"line {line} {text.split(chr(10))[line][:40]!r}: tokens {np.flatnonzero(got != want)[:3]}")
    return found


def spans_for(text, seed=0):
    """Step blocks, every non-ASCII character alone, the first and last characters, random spans."""
    rng = random.Random(seed)
    spans = [(s.start, s.end) for s in parse_solution(text).steps]
    spans += [(i, i + 1) for i, ch in enumerate(text) if ord(ch) > 127]
    spans += [(0, 1), (len(text) - 1, len(text)), (0, len(text))]
    for _ in range(150):
        a = rng.randrange(len(text))
        spans.append((a, min(len(text), a + rng.randint(1, 40))))
    return spans


@pytest.mark.parametrize("name", sorted(texts()))
def test_span_and_line_rewards_reach_exactly_the_overlapping_tokens(smollm2_tok, name):
    text = texts()[name]
    ids, ref = reference(smollm2_tok, text)
    pieces = [text[s:e] for s, e in ref]
    if name.startswith("react"):  # the cases the properties are about really occur in this text
        assert any("\n" in p and p.strip("\n") for p in pieces), "no token spans a newline"
        assert any(p.startswith(" ") for p in pieces)
    if name in ("react_snippet", "aime", "aime_fenced"):  # a character split over several tokens
        assert any(sum(1 for s, _ in ref if s == i) > 1 for i in range(len(text)))
    assert violations(smollm2_tok, text, spans_for(text)) == []


def test_an_off_by_one_offset_mapping_fails_the_properties(smollm2_tok, monkeypatch):
    real = mapper.token_char_offsets

    def shifted(tok, ids):
        text, offsets = real(tok, ids)
        return text, [(min(s + 1, len(text)), min(e + 1, len(text))) for s, e in offsets]

    monkeypatch.setattr(mapper, "token_char_offsets", shifted)
    for name, text in texts().items():
        found = violations(smollm2_tok, text, spans_for(text))
        assert found, f"an off-by-one mapping passed the checks on {name}"


def test_aime_step_scores_end_to_end_on_real_tokens(smollm2_tok):
    from bot_repro.rewards import REWARD_SOURCES

    text = "<step 1> 12 + 7 = 19 </step 1>\n<step 2> 19 × 2 = 40 </step 2>\n<step 3> so é </step 3>\n<final> 40 </final>"
    section = RewardCfg(source="aime", w_g=3.0, window=0, params={"step_source": "rule", "check_workers": 1})
    source = REWARD_SOURCES["aime"](section, {})
    ids, ref = reference(smollm2_tok, text)
    batch = score_completions(source, smollm2_tok, [ids + [smollm2_tok.eos_token_id]], [{"answer": "38", "problem": "Ann has 12 pens and buys 7 more. She then doubles them. How many?"}],
                              section.window)
    res, s = batch.results[0], batch.local_rewards[0]
    # a true claim on the problem's numbers, a false claim, no claim (the grounded rule reads the problem)
    assert res.info["step_scores"] == [1.0, -1.0, 0.0]
    assert res.global_score == pytest.approx(0.2 / 3.0)  # wrong answer, perfect format
    steps = parse_solution(text).steps
    want = np.zeros(len(ids) + 1)
    for step, value in zip(steps, [1 / 3, -1 / 3, 0.0]):
        want[: len(ids)] += value * np.array([float(a < step.end and step.start < b) for a, b in ref])
    np.testing.assert_allclose(s, want)
    assert s[-1] == 0.0  # EOS: no step
    assert all(v == 0 for v, (a, _) in zip(s, ref) if a >= steps[-1].end)  # the final answer's tokens


def test_react_line_penalties_end_to_end_on_real_tokens(smollm2_tok):
    code = "import React from 'react';\nexport default function App() {\n  return <div>{x × 2}</div>;\n}"
    response = "Here is the app:\n```tsx\n" + code + "\n```\n"
    diag = {"line": 2, "col": 0, "severity": "error", "source": "tsc", "rule": "TS2304", "message": "x"}
    out = CheckOutcome(extract_code(response), False, "typecheck", "bad", compiler=[diag], eslint=[], png=None)
    static = RewardCfg(source="react", window=1, params={"code_judge": False, "code_judge_lines": False})
    source = ReactReward(static, {"judge": None})
    res = source.score_outcomes([out], [{"request": "r"}])[0]
    assert res.lines == {4: -1.0}  # code line 2 is response line 4 (after the prose and the fence)
    ids, ref = reference(smollm2_tok, response)
    decoded, offsets = mapper.token_char_offsets(smollm2_tok, ids)
    s = mapper.local_token_rewards(decoded, offsets, res, window=static.window)
    chars = line_of_chars(response)
    for t, (a, b) in enumerate(ref):
        content = {chars[i] for i in range(a, b) if response[i] != "\n"}
        line = content.pop() if content else chars[a]
        assert s[t] == pytest.approx({4: -1.0, 3: -0.5, 5: -0.5}.get(line, 0.0)), (t, response[a:b], line)
