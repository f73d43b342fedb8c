"""The React prompt corpus, loaders, split, system prompts and task config validation."""

from __future__ import annotations

import json

import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.tasks import TASKS
from bot_repro.tasks.react import build_corpus
from bot_repro.tasks.react.corpus import BUILTIN, SYSTEM_PROMPTS, load_records, split

CATEGORIES = {"dashboard", "form", "widget", "visualisation", "game", "landing", "tool", "productivity"}


def make(params=None, family="qwen2"):
    return TASKS["react"](params or {}, {"family": family})


def test_builtin_corpus_is_large_distinct_and_reproducible(tmp_path):
    rows = [json.loads(line) for line in BUILTIN.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 1000
    assert len({r["request"] for r in rows}) == len(rows) and len({r["id"] for r in rows}) == len(rows)
    assert {r["category"] for r in rows} == CATEGORIES
    out = tmp_path / "p.jsonl"
    build_corpus.main(["--out", str(out)])
    assert out.read_bytes() == BUILTIN.read_bytes()


def test_split_is_deterministic_disjoint_and_80_20():
    train, test = make().datasets()
    train2, test2 = make().datasets()
    assert [r["id"] for r in test] == [r["id"] for r in test2]
    n = len(train) + len(test)
    assert len(test) == round(0.2 * n) and 190 <= len(test) <= 215
    assert not {r["id"] for r in train} & {r["id"] for r in test}
    assert {r["category"] for r in test} == CATEGORIES
    other_seed = make({"split_seed": 1}).datasets()[1]
    assert {r["id"] for r in other_seed} != {r["id"] for r in test}


def test_rows_have_chat_prompt_with_family_system_prompt():
    row = make(family="smollm3").datasets()[1][0]
    assert set(row) == {"id", "prompt", "request", "category"}
    assert row["prompt"][0] == {"role": "system", "content": SYSTEM_PROMPTS["smollm3"]}
    assert row["prompt"][1] == {"role": "user", "content": row["request"]}
    assert SYSTEM_PROMPTS["smollm3"].endswith("/no_think")
    assert "</think>" in SYSTEM_PROMPTS["phi3"] and "think" not in SYSTEM_PROMPTS["qwen2"]


def test_unknown_family_and_bad_params_fail_early():
    with pytest.raises(ConfigError, match="unknown model family 'llama'"):
        make(family="llama")
    with pytest.raises(ConfigError, match="needs model.family"):
        TASKS["react"]({}, {})
    with pytest.raises(ConfigError, match="unknown key"):
        make({"n_test": 3})
    with pytest.raises(ConfigError, match="typecheck='strict'"):
        make({"checks": {"typecheck": "strict"}})
    with pytest.raises(ConfigError, match="test_fraction"):
        make({"test_fraction": 1.5})
    with pytest.raises(ConfigError, match="unknown react data source 'csv'"):
        make({"source": "csv", "path": "x"}).datasets()


def test_jsonl_loader_takes_strings_and_chat_messages(tmp_path):
    path = tmp_path / "prompts.jsonl"
    lines = [{"id": "a", "prompt": "Make a clock."},
             {"id": "b", "prompt": [{"role": "system", "content": "x"}, {"role": "user", "content": "Make a quiz."}],
              "category": "game"}]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    records = load_records("jsonl", str(path), "prompt", "category", "id", "train", None)
    assert records == [{"id": "a", "request": "Make a clock.", "category": "uncategorised"},
                       {"id": "b", "request": "Make a quiz.", "category": "game"}]
    train, test = make({"source": "jsonl", "path": str(path), "test_fraction": 0.5}).datasets()
    assert len(train) == len(test) == 1


@pytest.mark.parametrize("content, message", [
    ('{"id": "a", "text": "hi"}', "no column 'prompt'"),
    ('{"id": "a", "prompt": ""}', "non-empty string"),
    ('{"id": "a", "prompt": "x"}\n{"id": "a", "prompt": "y"}', "duplicate id 'a'"),
    ('not json', "not valid JSON"),
    ('[1, 2]', "must be a JSON object"),
])
def test_jsonl_loader_rejects_bad_rows(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_records("jsonl", str(path), "prompt", "category", "id", "train", None)


def test_saved_dataset_loader(tmp_path):
    datasets = pytest.importorskip("datasets")
    datasets.Dataset.from_list([{"id": f"r{i}", "question": f"Make widget {i}."} for i in range(10)]).save_to_disk(
        str(tmp_path / "ds"))
    records = load_records("disk", str(tmp_path / "ds"), "question", None, "id", "train", None)
    assert [r["request"] for r in records][:2] == ["Make widget 0.", "Make widget 1."]
    train, test = split(records, 0.2, 0)
    assert len(test) == 2 and len(train) == 8
