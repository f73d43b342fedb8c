"""The span/line -> token mapper: offsets from sampled ids, multi-byte text, line decay."""

from __future__ import annotations

import numpy as np
import pytest

from bot_repro.rewards.base import RewardResult, SpanReward
from bot_repro.rewards.mapper import _prefix_offsets, local_token_rewards, spread_lines, token_char_offsets


@pytest.fixture(scope="module")
def tok(tiny_qwen2):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_qwen2)


RESPONSE = "Here is the app — ünïcødé ✓:\n```tsx\nconst A = 1;\nconst B = 2;\nexport default A;\n```\nDone 日本."


def test_offsets_cover_decoded_text_exactly(tok):
    ids = tok(RESPONSE, add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    text, offsets = token_char_offsets(tok, ids)
    assert text == RESPONSE == tok.decode(ids, skip_special_tokens=True)
    assert len(offsets) == len(ids)
    assert offsets[-1] == (len(text), len(text))  # EOS: empty range at the end
    # consecutive, non-decreasing, covering every character
    covered = set()
    for s, e in offsets:
        assert 0 <= s <= e <= len(text)
        covered.update(range(s, e))
    assert covered == set(range(len(text)))


def test_byte_level_offsets_match_prefix_decoding(tok):
    ids = tok(RESPONSE, add_special_tokens=False)["input_ids"]
    text, fast = token_char_offsets(tok, ids)
    _, slow = _prefix_offsets(tok, ids)
    # both agree on where each token ends whenever the token completes a character
    for (_, fe), (_, se) in zip(fast, slow):
        assert fe == se or fe == se + 1  # a token holding only the first bytes of a character


def test_split_multibyte_character_belongs_to_that_character(tok):
    # force byte-by-byte tokens for a 3-byte character by building ids from single-byte tokens
    raw = "✓".encode()
    from bot_repro.rewards.mapper import _byte_decoder

    inv = {b: c for c, b in _byte_decoder().items()}
    ids = [tok.convert_tokens_to_ids(inv[b]) for b in raw]
    text, offsets = token_char_offsets(tok, ids)
    assert text == "✓"
    assert offsets == [(0, 1), (0, 1), (0, 1)]


def test_line_penalty_reaches_exactly_the_tokens_of_that_line_and_decays(tok):
    ids = tok(RESPONSE, add_special_tokens=False)["input_ids"]
    text, offsets = token_char_offsets(tok, ids)
    lines = text.split("\n")
    bad = 3  # "const B = 2;" (line 3 of the full response: prose comes first)
    assert lines[bad] == "const B = 2;"
    res = RewardResult(0.0, lines={bad: -1.0})
    s = local_token_rewards(text, offsets, res, window=1)
    line_start = sum(len(x) + 1 for x in lines[:bad])
    for t, (a, b) in enumerate(offsets):
        chunk = text[a:b].lstrip("\n")
        if not chunk:
            continue
        line = text[: a + (len(text[a:b]) - len(chunk))].count("\n")
        expected = {bad: -1.0, bad - 1: -0.5, bad + 1: -0.5}.get(line, 0.0)
        assert s[t] == pytest.approx(expected), (t, text[a:b], line)
    # the token that starts "const B" is on the penalised line
    first = next(t for t, (a, _) in enumerate(offsets) if a == line_start)
    assert s[first] == -1.0


def test_spans_and_lines_add_up(tok):
    ids = tok("abc\ndef", add_special_tokens=False)["input_ids"]
    text, offsets = token_char_offsets(tok, ids)
    res = RewardResult(0.0, lines={0: -1.0}, spans=[SpanReward(4, 7, 0.25)])
    s = local_token_rewards(text, offsets, res, window=0)
    for t, (a, b) in enumerate(offsets):
        piece = text[a:b]
        # documented rule: a token's line is that of its first non-newline character, or of its
        # start when it holds only newlines (so a lone "\n" belongs to the line it ends)
        first = a + (len(piece) - len(piece.lstrip("\n"))) if piece.strip("\n") else a
        line = text[:first].count("\n")
        want = (-1.0 if line == 0 else 0.0) + (0.25 if a < 7 and b > 4 else 0.0)
        assert s[t] == pytest.approx(want), (piece, s[t])
    assert s.sum() == pytest.approx(-1.0 * sum(1 for a, b in offsets if text[:a].count("\n") == 0)
                                    + 0.25 * sum(1 for a, b in offsets if a < 7 and b > 4))


def test_spread_lines_phi():
    lines = np.array([0, 1, 2, 3, 4, 5])
    s = spread_lines(lines, {2: -1.0, 3: -0.5}, window=3)
    # phi(d) = max(0, 1 - d/4)
    phi = lambda d: max(0.0, 1 - d / 4)  # noqa: E731
    want = [-1.0 * phi(abs(i - 2)) - 0.5 * phi(abs(i - 3)) for i in range(6)]
    np.testing.assert_allclose(s, want)
    with pytest.raises(ValueError, match="window"):
        spread_lines(lines, {0: 1.0}, window=-1)
