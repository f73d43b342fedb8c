"""The on-disk judge cache: what the key depends on, persistence, WAL mode, and the retry schedule."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.judges.backends.base import PermanentError
from bot_repro.judges.cache import CachedReply, JudgeCache, cache_key
from bot_repro.judges.calls import CallRunner
from bot_repro.judges.metrics import JudgeMetrics
from bot_repro.judges.options import parse_options
from bot_repro.judges.prompts import image, text, user
from bot_repro.judges.types import CodeJudgeInput
from tests.judge_server import scripted_client

PARAMS = {"temperature": 0.0, "max_tokens": 64, "sample": 0}


def _msgs(png: bytes = b"png-1", words: str = "judge this") -> list[dict]:
    return [user(text(words), image(png))]


def test_key_depends_on_everything_that_changes_the_answer():
    base = cache_key("openai", "m", _msgs(), PARAMS)
    assert base == cache_key("openai", "m", _msgs(), dict(PARAMS))  # deterministic
    variants = [
        cache_key("anthropic", "m", _msgs(), PARAMS),
        cache_key("openai", "m2", _msgs(), PARAMS),
        cache_key("openai", "m", _msgs(png=b"png-2"), PARAMS),
        cache_key("openai", "m", _msgs(words="judge that"), PARAMS),
        cache_key("openai", "m", _msgs(), {**PARAMS, "temperature": 0.7}),
        cache_key("openai", "m", _msgs(), {**PARAMS, "max_tokens": 65}),
        cache_key("openai", "m", _msgs(), {**PARAMS, "sample": 1}),
        cache_key("openai", "m", [*_msgs(), {"role": "assistant", "content": [text("SCORE: 5")]}], PARAMS),
    ]
    assert len({base, *variants}) == len(variants) + 1


def test_images_are_keyed_by_content_not_identity():
    a = cache_key("openai", "m", _msgs(png=bytes(bytearray(b"same-bytes"))), PARAMS)
    b = cache_key("openai", "m", _msgs(png=b"same-bytes"), PARAMS)
    assert a == b


def test_roundtrip_reopen_and_wal(tmp_path):
    path = tmp_path / "c.sqlite"
    cache = JudgeCache(path)
    assert cache.get("k") is None
    cache.put("k", CachedReply("SCORE: 7", 11, 3))
    cache.close()
    reopened = JudgeCache(path)
    assert reopened.get("k") == CachedReply("SCORE: 7", 11, 3)
    assert len(reopened) == 1
    reopened.close()
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_client_cache_answers_repeats_without_calls(tmp_path):
    cfg = {"cache": True, "cache_dir": str(tmp_path)}
    items = [CodeJudgeInput("p", "a"), CodeJudgeInput("p", "b")]
    with scripted_client(lambda m: "SCORE: 5", **cfg) as client:
        client.code_judge(items)
        client.pop_metrics()
        again = client.code_judge(items)
        assert len(client.backend.calls) == 2
        metrics = client.pop_metrics()
    assert [v.score for v in again] == [0.5, 0.5]
    assert (metrics["judge/calls"], metrics["judge/cache_hits"], metrics["judge/tokens_in"]) == (2.0, 2.0, 0.0)
    # a new client on the same directory (a rerun) pays nothing either
    with scripted_client(lambda m: "SCORE: 9", **cfg) as client:
        assert [v.score for v in client.code_judge(items)] == [0.5, 0.5]
        assert client.backend.calls == []


def test_failures_are_not_cached(tmp_path):
    calls = []

    def fails_once(messages):
        calls.append(1)
        if len(calls) == 1:
            raise PermanentError("scripted")
        return "SCORE: 8"

    with scripted_client(fails_once, cache=True, cache_dir=str(tmp_path)) as client:
        first = client.code_judge([CodeJudgeInput("p", "a")])[0]
        second = client.code_judge([CodeJudgeInput("p", "a")])[0]
    assert (first.ok, first.error) == (False, "judge call failed: scripted")
    assert (second.ok, second.score, len(calls)) == (True, 0.8, 2)


@pytest.mark.parametrize(
    "attempt,retry_after,low,high",
    [
        (0, None, 0.5, 1.0),  # base 1 s, jitter factor in [0.5, 1]
        (2, None, 2.0, 4.0),
        (10, None, 5.0, 10.0),  # capped at backoff_max_s = 10
        (0, 3.0, 3.0, 4.5),  # the server asks for longer: honoured, spread by a factor in [1, 1.5]
        (0, 500.0, 60.0, 90.0),  # ... up to retry_after_max_s
        (3, 0.1, 4.0, 8.0),  # a shorter Retry-After does not shorten the backoff
    ],
)
def test_backoff_schedule(attempt, retry_after, low, high):
    opts = parse_options({"backend": "loopback", "backoff_base_s": 1.0, "backoff_max_s": 10.0,
                          "retry_after_max_s": 60.0})
    runner = CallRunner(opts, backend=None, cache=None, metrics=JudgeMetrics(), rng=random.Random(0))
    waits = [runner._backoff(attempt, retry_after) for _ in range(200)]
    assert low <= min(waits) and max(waits) <= high
    if low < high:
        assert max(waits) - min(waits) > 0.2 * (high - low)  # jittered, not constant


def test_a_broken_cache_costs_calls_not_the_run(tmp_path, caplog):
    with scripted_client(lambda m: "SCORE: 5", cache=True, cache_dir=str(tmp_path)) as client:
        client.cache.close()  # every read and write now raises sqlite3.ProgrammingError
        first = client.code_judge([CodeJudgeInput("p", "a")])[0]
        second = client.code_judge([CodeJudgeInput("p", "a")])[0]
        assert len(client.backend.calls) == 2
    assert first.score == second.score == 0.5
    assert "judge cache read failed" in caplog.text and "judge cache write failed" in caplog.text


def test_unusable_cache_dir_is_a_config_error(tmp_path):
    blocker = tmp_path / "not_a_dir"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="judge cache .*not_a_dir.*judge.cache_dir"):
        scripted_client(lambda m: "SCORE: 5", cache=True, cache_dir=str(blocker))


WRITER = """
import sys, time
from pathlib import Path
from bot_repro.judges.cache import CachedReply, JudgeCache
path, me, n = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
barrier = path.parent.parent  # the judges/ folder is the cache's to create
(barrier / f"ready-{me}").touch()  # go once every writer's interpreter has started
deadline = time.monotonic() + 120
while len(list(barrier.glob("ready-*"))) < n:
    assert time.monotonic() < deadline, "not every writer started within 120 s"
    time.sleep(0.001)
cache = JudgeCache(path)  # every writer opens (and may create) the file at the same moment
for i in range(150):
    cache.put(f"shared-{i}", CachedReply(f"same answer {i}", i, 1))  # all ranks judge the same samples
    cache.put(f"own-{me}-{i}", CachedReply(f"writer {me} answer {i}", i, me))
cache.close()
"""


def test_concurrent_writers_of_the_same_keys_lose_nothing(tmp_path):
    """N training processes share one judge cache file: none of their replies is lost."""
    import os
    import subprocess
    import sys

    from tests.conftest import REPO

    path, n = tmp_path / "judges" / "judge_cache.sqlite", 4
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(me), str(n)], env=env, stderr=subprocess.PIPE,
                              text=True) for me in range(n)]  # fmt: skip
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    cache = JudgeCache(path)
    assert len(cache) == 150 + n * 150
    assert all(cache.get(f"shared-{i}") == CachedReply(f"same answer {i}", i, 1) for i in range(150))
    assert all(cache.get(f"own-{me}-{i}").text == f"writer {me} answer {i}" for me in range(n) for i in range(150))
    cache.close()
