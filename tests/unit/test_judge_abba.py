"""ABBA aggregation: all 16 outcome combinations by hand, failures as no vote, and the call order."""

from __future__ import annotations

import itertools

import pytest

from bot_repro.judges.abba import ABBA_ORDER, abba_result, map_back
from bot_repro.judges.types import PairInput
from tests.judge_server import scripted_client, text_of

# votes (original labels, in call order) -> win rate of A, written out by hand
ALL_16 = {
    "aaaa": 1.0, "aaab": 1.0, "aaba": 1.0, "aabb": 0.5,
    "abaa": 1.0, "abab": 0.5, "abba": 0.5, "abbb": 0.0,
    "baaa": 1.0, "baab": 0.5, "baba": 0.5, "babb": 0.0,
    "bbaa": 0.5, "bbab": 0.0, "bbba": 0.0, "bbbb": 0.0,
}


def test_table_covers_all_16():
    assert set(ALL_16) == {"".join(p) for p in itertools.product("ab", repeat=4)}


@pytest.mark.parametrize("votes,win_a", sorted(ALL_16.items()))
def test_all_16_combinations(votes, win_a):
    result = abba_result(list(votes))
    assert result.win_a == win_a
    assert result.tie is (win_a == 0.5)
    assert result.ok is True
    assert result.votes == list(votes)
    swapped = abba_result(["b" if v == "a" else "a" for v in votes])  # relabelling mirrors the result
    assert swapped.win_a == 1.0 - win_a


@pytest.mark.parametrize(
    "votes,win_a,tie,ok",
    [
        (["a", "", "", ""], 1.0, False, True),  # one vote decides when the others failed
        (["a", "a", "b", ""], 1.0, False, True),
        (["", "b", "a", "b"], 0.0, False, True),
        (["a", "b", "", ""], 0.5, True, True),  # 1-1: a tie
        (["", "", "", ""], 0.5, True, False),  # nothing known: a tie flagged as not ok
    ],
)
def test_failed_calls_are_no_votes(votes, win_a, tie, ok):
    result = abba_result(votes)
    assert (result.win_a, result.tie, result.ok) == (win_a, tie, ok)


def test_bad_vote_is_refused():
    with pytest.raises(ValueError, match="'x'"):
        abba_result(["a", "x", "b", "a"])


def test_order_and_map_back():
    assert ABBA_ORDER == ("ab", "ba", "ba", "ab")
    assert [map_back(o, "a") for o in ABBA_ORDER] == ["a", "b", "b", "a"]
    assert map_back("ba", "") == ""


PNG_A, PNG_B = b"\x89PNG-image-of-a", b"\x89PNG-image-of-b"


def _first_image(messages) -> bytes:
    return [p["png"] for p in messages[0]["content"] if p["type"] == "image"][0]


@pytest.mark.parametrize("votes", sorted(ALL_16))
def test_client_runs_abba_and_maps_answers_back(votes):
    """End to end over the client: the judge's positional answers become the original votes."""
    shown = [v if order == "ab" else ("b" if v == "a" else "a") for v, order in zip(votes, ABBA_ORDER)]
    answers = iter(shown)
    with scripted_client(lambda m: f"WINNER: {next(answers).upper()}") as client:
        result = client.pairwise_abba([PairInput("make a todo app", PNG_A, PNG_B)])[0]
        firsts = [_first_image(m) for m in client.backend.calls]
    assert firsts == [PNG_A, PNG_B, PNG_B, PNG_A]  # A-B, B-A, B-A, A-B
    assert result.votes == list(votes)
    assert result.win_a == ALL_16[votes]


def test_position_biased_judge_gives_a_tie_and_loyal_judge_a_sweep():
    with scripted_client(lambda m: "WINNER: A") as client:
        biased = client.pairwise_abba([PairInput("p", PNG_A, PNG_B)])[0]
    assert (biased.win_a, biased.tie, biased.votes) == (0.5, True, ["a", "b", "b", "a"])

    def loyal_to_b(messages):
        return "WINNER: A" if _first_image(messages) == PNG_B else "WINNER: B"

    with scripted_client(loyal_to_b) as client:
        loyal = client.pairwise_abba([PairInput("p", PNG_A, PNG_B)])[0]
    assert (loyal.win_a, loyal.votes) == (0.0, ["b", "b", "b", "b"])


def test_pairwise_prompt_labels_the_screenshots():
    with scripted_client(lambda m: "WINNER: A") as client:
        client.pairwise_abba([PairInput("build a clock", PNG_A, PNG_B)])
        text = text_of(client.backend.calls[0])
    assert "build a clock" in text and "Screenshot A:" in text and "Screenshot B:" in text


def test_missing_screenshot_loses_without_calls():
    with scripted_client(lambda m: "WINNER: A") as client:
        results = client.pairwise_abba([PairInput("p", PNG_A, None), PairInput("p", None, None)])
        assert client.backend.calls == []
    assert (results[0].win_a, results[0].ok) == (1.0, True)
    assert (results[1].win_a, results[1].tie, results[1].ok) == (0.5, True, False)


def test_unparseable_replies_are_counted_apart_from_failures():
    replies = iter(["WINNER: A", "I cannot decide", "WINNER: B", "WINNER: maybe"])
    with scripted_client(lambda m: next(replies)) as client:
        result = client.pairwise_abba([PairInput("p", PNG_A, PNG_B)])[0]
        metrics = client.pop_metrics()
    # call 0 (A-B) says A -> a; call 2 (B-A) says B -> a; two unparseable replies, no failed call
    assert (result.votes, result.win_a) == (["a", "", "a", ""], 1.0)
    assert (metrics["judge/calls"], metrics["judge/unparseable"], metrics["judge/failures"]) == (4.0, 2.0, 0.0)
