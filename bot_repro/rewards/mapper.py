"""Map located reward signals (character spans, lines) of a completion onto its sampled tokens.

Offsets come from the sampled token ids themselves, never from re-tokenising the decoded text
(re-tokenising can merge or split differently and silently shift every penalty). For byte-level
BPE vocabularies (Qwen2, SmolLM3, Phi-4) each token's bytes are read off the vocabulary and fed
through an incremental UTF-8 decoder, so a token's character range is exact even when a
multi-byte character is split across tokens. Any other tokenizer falls back to decoding
prefixes, which is quadratic but exact.

Lines are spread with the paper's line-distance decay (docs/method.md §3):
    S_t = sum_l p_l * phi(|line(t) - l|),   phi(d) = max(0, 1 - d / (w + 1)).
``phi`` is the one definition of that decay: the mini task spreads over tag units and AIME over
steps with it too.
"""

from __future__ import annotations

import bisect
import codecs
from functools import lru_cache

import numpy as np

from bot_repro.rewards.base import RewardResult


@lru_cache(maxsize=1)
def _byte_decoder() -> dict[str, int]:
    """Inverse of GPT-2's bytes_to_unicode: the printable stand-in character -> raw byte."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
    bs += list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def _byte_level_offsets(tokenizer, ids: list[int]) -> tuple[str, list[tuple[int, int]]] | None:
    decoder = _byte_decoder()
    special = set(tokenizer.all_special_ids)
    pieces = tokenizer.convert_ids_to_tokens(ids)
    dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
    out: list[str] = []
    n_chars = 0
    offsets = []
    for tid, piece in zip(ids, pieces):
        if tid in special or piece is None:
            offsets.append((n_chars, n_chars))
            continue
        try:
            raw = bytes(decoder[c] for c in piece)
        except KeyError:
            return None  # not a byte-level vocabulary
        text = dec.decode(raw)
        start = n_chars
        n_chars += len(text)
        out.append(text)
        pending = bool(dec.getstate()[0])
        # A token holding the first bytes of a multi-byte character also covers that character
        # (as the tokenizer's own offset mapping says), whether or not it completed others first.
        offsets.append((start, n_chars + 1 if pending else n_chars))
    tail = dec.decode(b"", final=True)
    out.append(tail)
    n_chars += len(tail)
    offsets = [(min(s, n_chars), min(e, n_chars)) for s, e in offsets]
    return "".join(out), offsets


def _prefix_offsets(tokenizer, ids: list[int]) -> tuple[str, list[tuple[int, int]]]:
    offsets, prev = [], 0
    for i in range(len(ids)):
        n = len(tokenizer.decode(ids[: i + 1], skip_special_tokens=True))
        offsets.append((min(prev, n), n))
        prev = n
    return tokenizer.decode(ids, skip_special_tokens=True), offsets


def token_char_offsets(tokenizer, ids: list[int]) -> tuple[str, list[tuple[int, int]]]:
    """Return (text, offsets): the decoded completion and each token's [start, end) in it.

    ``text`` equals ``tokenizer.decode(ids, skip_special_tokens=True)``; special tokens (EOS) get
    an empty range at their position.
    """
    ids = [int(i) for i in ids]
    reference = tokenizer.decode(ids, skip_special_tokens=True)
    fast = _byte_level_offsets(tokenizer, ids)
    if fast is not None and fast[0] == reference:
        return fast
    return _prefix_offsets(tokenizer, ids)


def _token_lines(text: str, offsets: list[tuple[int, int]]) -> np.ndarray:
    """Line index of each token: the line of its first character that is not a newline."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    lines = np.empty(len(offsets), dtype=np.int64)
    last_line = len(starts) - 1
    for t, (s, e) in enumerate(offsets):
        pos = s
        while pos < e and text[pos] == "\n":
            pos += 1
        if pos >= e:
            pos = s
        lines[t] = min(bisect.bisect_right(starts, pos) - 1, last_line)
    return lines


def phi(distance, window: int):
    """phi(d) = max(0, 1 - |d| / (window + 1)), elementwise on a number or an array of distances."""
    if window < 0:
        raise ValueError(f"window must be >= 0, got {window}")
    return np.maximum(0.0, 1.0 - np.abs(distance) / (window + 1))


def spread_lines(token_lines: np.ndarray, penalties: dict[int, float], window: int) -> np.ndarray:
    """S_t = sum_l p_l * phi(line_t - l)."""
    if not penalties:
        return np.zeros(len(token_lines), dtype=np.float64)
    lines = np.fromiter(penalties.keys(), dtype=np.float64)
    values = np.fromiter(penalties.values(), dtype=np.float64)
    return phi(token_lines[:, None].astype(np.float64) - lines[None, :], window) @ values


def local_token_rewards(
    text: str, offsets: list[tuple[int, int]], result: RewardResult, window: int
) -> np.ndarray:
    """Per-token local reward S_t of one completion from its line and span signals."""
    local = spread_lines(_token_lines(text, offsets), result.lines, window)
    if result.spans:
        starts = np.array([s for s, _ in offsets])
        ends = np.array([e for _, e in offsets])
        for span in result.spans:
            # a token overlaps [a, b) when s < b and a < e; an empty token counts when a <= s < b
            hit = (starts < span.end) & ((ends > span.start) | ((ends == starts) & (starts >= span.start)))
            local[hit] += span.value
    return local
