"""ABBA aggregation of the pairwise judge (docs/method.md §5): four calls, majority, 2-2 tie worth 0.5 each.

The four calls show the pair in orders A-B, B-A, B-A, A-B; for B-A the screenshots are swapped in
the prompt and the judge's answer is mapped back to the original labels before counting.
Resolution rules (ours where the paper is silent):

- a failed call (transport failure after retries, or a reply naming neither screenshot) is no
  vote; the remaining votes decide by majority, so 2-1 with one failure is a win;
- equal counts (2-2, 1-1, 0-0) are a tie: ``win_a = 0.5``, ``tie = True``;
- when no call gave a vote the result is also a tie, with ``ok = False`` so reports can count
  judge failures apart from genuine ties.
"""

from __future__ import annotations

from bot_repro.judges.types import PairResult

ABBA_ORDER = ("ab", "ba", "ba", "ab")  # per call: the original pair shown as (first, second)


def map_back(order: str, shown_winner: str) -> str:
    """The original label ("a"/"b") of the screenshot the judge preferred, or "" for no vote."""
    if shown_winner not in ("a", "b"):
        return ""
    if order == "ab":
        return shown_winner
    return "b" if shown_winner == "a" else "a"


def abba_result(votes: list[str]) -> PairResult:
    """Aggregate original-label votes ("a", "b" or "" for no vote) into a ``PairResult``."""
    bad = [v for v in votes if v not in ("a", "b", "")]
    if bad:
        raise ValueError(f"pairwise votes must be 'a', 'b' or '' (no vote), got {bad}")
    n_a, n_b = votes.count("a"), votes.count("b")
    if n_a > n_b:
        return PairResult(win_a=1.0, votes=list(votes))
    if n_b > n_a:
        return PairResult(win_a=0.0, votes=list(votes))
    return PairResult(win_a=0.5, votes=list(votes), tie=True, ok=n_a + n_b > 0)
