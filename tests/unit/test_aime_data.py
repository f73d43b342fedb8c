"""AIME data: layouts, validation errors naming file and row, de-duplication, the split, the eval
sets of ../shared/data/aime, the hub path (mocked) and the task's rows, prompts and evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bot_repro.config_schema import ConfigError
from bot_repro.tasks import TASKS
from bot_repro.tasks.aime.data import AimeDataError, load_rows, parse_spec, split_rows
from bot_repro.tasks.aime.prompts import system_prompt

SHARED_AIME = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "aime"
GOOD = "<step 1> 3 + 4 = 7 </step 1>\n<final> {} </final>"


def shared(name: str) -> str:
    if not SHARED_AIME.is_dir():
        pytest.skip(f"../shared/data/aime not present: {SHARED_AIME} holds the AIME 2024/2025 eval files")
    return str(SHARED_AIME / name)


def write_jsonl(path: Path, records: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def kaggle_rows(n: int) -> list[dict]:
    return [
        {
            "ID": f"{1983 + i // 15}-{i % 15 + 1}",
            "Year": 1983 + i // 15,
            "Question": f"Problem number {i}?",
            "Answer": i % 1000,
        }
        for i in range(n)
    ]


def task(params: dict, family: str = "qwen2"):
    return TASKS["aime"](params, {"family": family})


def test_smoke_set_is_valid_and_small():
    rows = load_rows(parse_spec("smoke", "t"))
    assert len(rows) == 16
    assert len({r["id"] for r in rows}) == 16
    assert all(0 <= int(r["answer"]) <= 999 for r in rows)


def test_kaggle_csv_layout_and_split(tmp_path):
    path = tmp_path / "aime.csv"
    pd.DataFrame(kaggle_rows(20)).to_csv(path, index=False)
    rows = load_rows(parse_spec(str(path), "t"))
    assert rows[0] == {"id": "1983-1", "problem": "Problem number 0?", "answer": "0", "year": 1983}
    train, test = split_rows(rows, seed=0, test_fraction=0.2)
    assert (len(train), len(test)) == (16, 4)
    assert not {r["id"] for r in train} & {r["id"] for r in test}
    again = split_rows(list(reversed(rows)), seed=0, test_fraction=0.2)  # file order does not matter
    assert [r["id"] for r in again[1]] == [r["id"] for r in test]
    other = split_rows(rows, seed=1, test_fraction=0.2)
    assert [r["id"] for r in other[1]] != [r["id"] for r in test]


def test_split_of_933_rows_is_80_20():
    rows = [{"id": str(i), "problem": f"p{i}", "answer": "1", "year": None} for i in range(933)]
    train, test = split_rows(rows, 0, 0.2)
    assert (len(train), len(test)) == (746, 187)


def test_duplicates_removed_first_kept(tmp_path):
    recs = [
        {"id": "a", "problem": "Find  x.", "answer": "1"},
        {"id": "b", "problem": "Find x. ", "answer": "2"},  # same text up to whitespace
        {"id": "c", "problem": "Find y.", "answer": "3"},
    ]
    rows = load_rows(parse_spec(write_jsonl(tmp_path / "d.jsonl", recs), "t"))
    assert [(r["id"], r["answer"]) for r in rows] == [("a", "1"), ("c", "3")]


@pytest.mark.parametrize(
    "bad,message",
    [
        ({"id": "x", "problem": "P?", "answer": "abc"}, "answer 'abc' is not an integer in 0-999"),
        ({"id": "x", "problem": "P?", "answer": "1000"}, "answer '1000'"),
        ({"id": "x", "problem": "P?", "answer": "-1"}, "answer '-1'"),
        ({"id": "x", "problem": "   ", "answer": "1"}, "problem '   ' is empty"),
        ({"id": "x", "problem": None, "answer": "1"}, "problem None"),
        ({"id": "x", "problem": "Let \x0crac{1}{2}", "answer": "1"}, "control character U+000C"),
        ({"id": "a", "problem": "Another problem", "answer": "1"}, "id 'a' already used by row 0"),
    ],
)
def test_bad_row_names_file_and_row(tmp_path, bad, message):
    recs = [
        {"id": "a", "problem": "Fine?", "answer": "1"},
        {"id": "b", "problem": "Also fine?", "answer": "2"},
        bad,
    ]
    path = write_jsonl(tmp_path / "bad.jsonl", recs)
    with pytest.raises(AimeDataError) as err:
        load_rows(parse_spec(path, "t"))
    assert "bad.jsonl: row 2" in str(err.value) and message in str(err.value)


def test_bad_json_line_names_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"problem": "a", "answer": "1"}\n{"problem": \n')
    with pytest.raises(AimeDataError, match="broken.jsonl: line 2"):
        load_rows(parse_spec(str(path), "t"))


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".csv"])
def test_invalid_utf8_names_file_and_line(tmp_path, suffix):
    # line 3 holds a Latin-1 "é" (0xe9), not UTF-8: a bare UnicodeDecodeError would name neither
    rows = {
        ".jsonl": b'{"problem": "a?", "answer": "1"}\n{"problem": "b?", "answer": "2"}\n{"problem": "caf\xe9?", "answer": "3"}\n',
        ".json": b'[\n{"problem": "a?", "answer": "1"},\n{"problem": "caf\xe9?", "answer": "3"}\n]\n',
        ".csv": b'problem,answer\n"a?",1\n"caf\xe9?",3\n',
    }
    path = tmp_path / f"latin1{suffix}"
    path.write_bytes(rows[suffix])
    with pytest.raises(AimeDataError, match=rf"latin1\{suffix}: line 3 is not valid UTF-8 \(bytes e9 at offset"):
        load_rows(parse_spec(str(path), "t"))


def test_bad_json_file_names_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('[\n{"problem": "a", "answer": "1"},\n{"problem": }\n]')
    with pytest.raises(AimeDataError, match="broken.json: line 3 is not valid JSON"):
        load_rows(parse_spec(str(path), "t"))


def test_jsonl_lines_are_split_on_newlines_only(tmp_path):
    # U+2028 inside a JSON string is valid JSON; str.splitlines() would cut the record in two
    path = tmp_path / "sep.jsonl"
    path.write_text(json.dumps({"problem": "a\u2028b?", "answer": "1"}, ensure_ascii=False) + "\r\n", encoding="utf-8")
    assert [r["problem"] for r in load_rows(parse_spec(str(path), "t"))] == ["a\u2028b?"]


def test_unknown_layout_and_explicit_columns(tmp_path):
    path = write_jsonl(tmp_path / "odd.jsonl", [{"q": {"text": ["x", "What is 1+1?"]}, "gt": "2", "key": 5}])
    with pytest.raises(ConfigError, match="no known layout fits fields \\['gt', 'key', 'q'\\]"):
        load_rows(parse_spec(path, "t"))
    spec = parse_spec(
        {"source": path, "columns": {"problem": "q.text.-1", "answer": "gt", "id": "key"}, "year": 1999}, "t"
    )
    assert load_rows(spec) == [{"id": "5", "problem": "What is 1+1?", "answer": "2", "year": 1999}]
    with pytest.raises(ConfigError, match="column 'nope'"):
        load_rows(parse_spec({"source": path, "columns": {"problem": "nope", "answer": "gt"}}, "t"))
    with pytest.raises(ConfigError, match="unknown column key"):
        parse_spec({"source": path, "columns": {"problem": "q", "answer": "gt", "solution": "s"}}, "t")


def test_missing_file_and_bad_source():
    with pytest.raises(ConfigError, match="not found"):
        load_rows(parse_spec("does/not/exist.parquet", "t"))
    with pytest.raises(ConfigError, match="neither a file"):
        load_rows(parse_spec("not a hub id", "t"))


def test_hub_source_uses_load_dataset(monkeypatch):
    import datasets

    calls = []

    def fake_load_dataset(name, split):
        calls.append((name, split))
        return datasets.Dataset.from_list(kaggle_rows(10))

    monkeypatch.setattr(datasets, "load_dataset", fake_load_dataset)
    t = task({"source": "gneubig/aime-1983-2024"})
    train, test = t.datasets()
    assert calls == [("gneubig/aime-1983-2024", "train")]
    assert (len(train), len(test)) == (8, 2)


def test_shared_eval_sets_load_with_quirks_fixed():
    aime24 = load_rows(parse_spec(shared("skywork_or1_aime24.parquet"), "t"))
    aime25 = load_rows(parse_spec(shared("skywork_or1_aime25.parquet"), "t"))
    qwen24 = load_rows(parse_spec(shared("qwen25math_aime24_test.jsonl"), "t"))
    assert (len(aime24), len(aime25), len(qwen24)) == (30, 30, 30)
    assert not any(r["problem"].endswith("\\boxed{}.") for r in aime24)  # Skywork suffix stripped
    assert aime24[1]["answer"] == "25"  # zero-padded "025"
    assert aime25[19]["answer"] == "336"  # "336^\circ"
    assert {r["year"] for r in aime24} == {2024} and {r["year"] for r in aime25} == {2025}
    assert {r["year"] for r in qwen24} == {2024}  # read from the url column
    assert sorted(int(r["answer"]) for r in aime24) == sorted(int(r["answer"]) for r in qwen24)


def test_eval_set_removes_overlap_and_excluded_years(tmp_path):
    eval_path = shared("qwen25math_aime24_test.jsonl")
    qwen = [json.loads(line) for line in Path(eval_path).read_text().splitlines()]
    recs = kaggle_rows(6) + [
        {"ID": "2024-I-1", "Year": 2024, "Question": qwen[0]["problem"], "Answer": qwen[0]["answer"]},
        {"ID": "2024-I-2", "Year": 2024, "Question": "A 2024 problem worded differently", "Answer": 5},
    ]
    src = write_jsonl(tmp_path / "train.jsonl", recs)
    t = task({"source": src, "columns": {"problem": "Question", "answer": "Answer", "id": "ID", "year": "Year"},
              "eval_set": {"source": eval_path, "id_prefix": "aime24-"}, "exclude_years": [2024]})  # fmt: skip
    train, test = t.datasets()
    assert len(test) == 30 and all(r["id"].startswith("aime24-") for r in test)
    assert [r["id"] for r in train] == sorted(r["ID"] for r in recs[:6])
    only_text = task({"source": src, "eval_set": eval_path})
    assert "2024-I-2" in {r["id"] for r in only_text.datasets()[0]}
    assert "2024-I-1" not in {r["id"] for r in only_text.datasets()[0]}


def test_task_rows_prompts_and_limit():
    t = task({"source": "smoke", "limit": 2}, family="tiny-smollm3")
    train, test = t.datasets()
    assert (len(train), len(test)) == (2, 2)
    row = test[0]
    assert set(row) == {"id", "prompt", "answer", "problem", "year"}
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert row["prompt"][1]["content"] == row["problem"]
    assert row["prompt"][0]["content"].endswith("/no_think")
    assert "<think>" in system_prompt("phi3") and "/no_think" not in system_prompt("qwen2")
    assert "<step 1>" in system_prompt("qwen2_tiny") and "<final>" in system_prompt("qwen2")
    # the whole {name, params} section is accepted too
    assert TASKS["aime"]({"name": "aime", "params": {"source": "smoke"}}, {"family": "qwen2"}).datasets()[1]


@pytest.mark.parametrize(
    "params,model,match",
    [
        ({"sourse": "smoke"}, {"family": "qwen2"}, "unknown key"),
        ({"source": "smoke"}, {"family": "llama"}, "no AIME system prompt"),
        ({"source": "smoke"}, {}, "model.family is required"),
        ({"source": "smoke", "ks": [0]}, {"family": "qwen2"}, "ks="),
        ({"source": "smoke", "test_fraction": 1.0}, {"family": "qwen2"}, "test_fraction"),
        ({"source": "smoke", "exclude_years": [2024]}, {"family": "qwen2"}, "exclude_years"),
        ({"source": "smoke", "eval_set": {"source": "e.jsonl", "colums": {}}}, {"family": "qwen2"}, "unknown key"),
    ],
)
def test_task_config_errors(params, model, match):
    with pytest.raises(ConfigError, match=match):
        TASKS["aime"](params, model)


def test_evaluate_hand_computed_and_saved(tmp_path):
    t = task({"source": "smoke"})
    _, test = t.datasets()
    rows = test[:2]
    a = rows[0]["answer"]
    wrong = str((int(a) + 1) % 1000)
    completions = [
        [GOOD.format(a), "Sure. " + GOOD.format(wrong), "<final>", f"\\boxed{{{a}}}"],  # 2 of 4 correct
        [GOOD.format(wrong)] * 4,  # never correct
    ]
    metrics = t.evaluate_and_save(completions, rows, tmp_path / "step_000002")
    # row a: n=4, c=2 -> pass@1 0.5, pass@2 1 - C(2,2)/C(4,2) = 5/6, pass@4 1; row b: 0
    assert metrics["pass@1"] == pytest.approx(0.25)
    assert metrics["pass@2"] == pytest.approx(5 / 12)
    assert metrics["pass@4"] == pytest.approx(0.5)
    assert metrics["format_perfect_rate"] == pytest.approx(5 / 8)
    assert metrics["format_ok_rate"] == pytest.approx(6 / 8)
    assert metrics["answer_found_rate"] == pytest.approx(7 / 8)
    assert metrics["sample_accuracy"] == pytest.approx(2 / 8)
    assert all(0.0 <= v <= 1.0 for v in metrics.values())
    samples = [json.loads(x) for x in (tmp_path / "step_000002" / "samples.jsonl").read_text().splitlines()]
    problems = [json.loads(x) for x in (tmp_path / "step_000002" / "problems.jsonl").read_text().splitlines()]
    assert len(samples) == 8 and samples[2]["reason"] == "no answer" and samples[1]["format"] == "loose"
    assert [(p["id"], p["correct"], p["n"]) for p in problems] == [
        (rows[0]["id"], 2, 4),
        (rows[1]["id"], 0, 4),
    ]


def test_evaluate_leaves_out_k_above_n():
    t = task({"source": "smoke"})
    _, test = t.datasets()
    metrics = t.evaluate([[GOOD.format(test[0]["answer"]), "x"]], test[:1])
    assert metrics["pass@1"] == 0.5 and metrics["pass@2"] == 1.0 and "pass@4" not in metrics


def _unreachable_hub(monkeypatch):
    import datasets

    def offline(name, split):
        raise ConnectionError(f"Couldn't reach '{name}' on the Hub (OfflineModeIsEnabled)")

    monkeypatch.setattr(datasets, "load_dataset", offline)


def test_unreachable_hub_set_is_one_clear_line(monkeypatch):
    _unreachable_hub(monkeypatch)
    with pytest.raises(ConfigError) as info:
        task({"source": "gneubig/aime-1983-2024"}).datasets()
    message = str(info.value)
    assert "\n" not in message
    assert "task.params.source='gneubig/aime-1983-2024'" in message and "OfflineModeIsEnabled" in message
    assert "task.params.source=smoke" in message and ".parquet" in message  # the offline alternatives


def test_auto_source_reads_the_hub_set_else_the_smoke_set(monkeypatch, caplog):
    import datasets

    monkeypatch.setattr(datasets, "load_dataset", lambda name, split: datasets.Dataset.from_list(kaggle_rows(10)))
    train, test = task({"source": "auto"}).datasets()
    assert (len(train), len(test)) == (8, 2) and train[0]["problem"].startswith("Problem number")
    _unreachable_hub(monkeypatch)
    with caplog.at_level("WARNING"):
        train, test = task({"source": "auto"}).datasets()
    assert len(train) + len(test) == len(load_rows(parse_spec("smoke", "t")))
    assert all(r["id"].startswith("smoke-") for r in train + test)
    assert "source=auto" in caplog.text and "smoke" in caplog.text


def test_task_default_is_auto_and_the_figures_pin_the_hub_set():
    from omegaconf import OmegaConf

    conf = Path(__file__).resolve().parents[2] / "conf"
    assert OmegaConf.load(conf / "task" / "aime.yaml").params.source == "auto"
    for name in ("aime24", "aime25"):
        assert OmegaConf.load(conf / "task" / f"{name}.yaml").params.source == "gneubig/aime-1983-2024"
    figures = sorted((conf / "experiment").glob("fig[5-9]_*.yaml"))
    assert len(figures) == 5
    for path in figures:
        assert OmegaConf.load(path).task.params.source == "gneubig/aime-1983-2024", path.name
