"""The shipped starting adapter's build (#44 item 2): its supervised problems share nothing with the
studies' arith problems, the build is deterministic and its snapshots are shorter builds, a shipped
folder whose weights do not hash to its record is refused, and the rebuild check names the hardware
fields that differ."""

from __future__ import annotations

import json
import re

import pytest

from bot_repro.models.lora import ADAPTERS_DIR as ADAPTERS
from bot_repro.models.lora import RECORD_FILE as RECORD
from bot_repro.models.lora import adapter_hash, resolve_adapter
from bot_repro.tasks import TASKS
from bot_repro.tasks.arith.data import ITEMS, LEVELS, NAMES, make_problems
from bot_repro.tasks.arith.warm_start import SPECS, STUDY_PREFIX, SftSpec, sft_problems


def arithmetic_of(problem: str) -> tuple[str, tuple[int, ...]]:
    """What a problem asks, read off its text alone: the sentence with names, items and numbers blanked,
    and its numbers in order (the same numbers under another name are the same problem)."""
    numbers = tuple(int(n) for n in re.findall(r"\d+", problem))
    shape = re.sub(r"\d+", "#", problem)
    for word, blank in [(n, "NAME") for n in NAMES] + [(i, "ITEM") for i in ITEMS]:
        shape = re.sub(rf"\b{word}\b", blank, shape)
    return shape, numbers


def _study_problems() -> list[str]:
    """Every problem a study run sees: train, held-out and worked examples at both levels, at the
    experiments' largest sizes (n_train 256; n_test 128 as #52's evaluation, shots 4 as real_small and
    real_seeds: a smaller n_test or fewer shots uses a subset of these rows), all among the first
    ``STUDY_PREFIX`` problems of the seed that ``study_keys`` excludes from the adapters' data."""
    out = []
    for level in LEVELS:
        task = TASKS["arith"]({"level": level, "n_test": 128, "shots": 4}, {"family": "qwen2"})
        train, test = task.datasets()
        rows = train + test + task.examples
        assert max(int(r["id"].rsplit("-", 1)[1]) for r in rows) < STUDY_PREFIX
        out += [r["problem"] for r in rows]
    return out


@pytest.mark.parametrize("name", sorted(SPECS))
def test_sft_problems_share_no_problem_and_no_arithmetic_with_the_studies(name):
    spec = SPECS[name]
    sft = [r["problem"] for r in sft_problems(spec)]
    study = _study_problems()
    assert len(sft) == spec.steps * spec.batch and len(study) == 2 * (256 + 128 + 4)
    assert not set(sft) & set(study)
    study_arith = {arithmetic_of(p) for p in study}
    shared = [p for p in sft if arithmetic_of(p) in study_arith]
    assert not shared, shared[:3]
    # the check itself can fail: the unfiltered sequence of the same generator does share arithmetic
    raw = make_problems(4 * len(sft), spec.data_seed, "sft", spec.level)
    assert any(arithmetic_of(r["problem"]) in study_arith for r in raw)


def test_a_shorter_build_trains_on_the_first_batches_of_a_longer_one():
    short, long = (sft_problems(SftSpec(model="m", level="two_step", steps=k)) for k in (3, 20))
    assert long[: len(short)] == short


@pytest.mark.parametrize("name", sorted(p.name for p in ADAPTERS.glob("*") if (p / RECORD).exists()))
def test_each_shipped_adapter_matches_its_record_and_states_its_step0_numbers(name):
    record = json.loads((ADAPTERS / name / RECORD).read_text())
    assert resolve_adapter(f"shipped:{name}") == ADAPTERS / name and record["name"] == name and record["hash"] == adapter_hash(ADAPTERS / name)
    spec = SPECS[name]
    assert record["training"]["spec"] == spec.__dict__  # the record is the spec the command builds
    for key in ("format_ok_rate", "pass@1", "pass@4"):
        assert 0 <= record["step0"][key] <= 1
    assert record["built_on"]["cpu_count"] and record["training"]["seconds"] > 0


def test_build_is_deterministic_and_a_snapshot_is_the_shorter_build(tmp_path):
    pytest.importorskip("peft")
    from transformers import AutoTokenizer

    from bot_repro.models.tiny import build_tiny
    from bot_repro.tasks.arith.warm_start import build_adapter

    task = TASKS["arith"]({"level": "two_step", "shots": 0}, {"family": "qwen2"})
    corpus = [r["problem"] for r in task.datasets()[0]]
    base = build_tiny("qwen2", tmp_path / "base", corpus, vocab_size=400, hidden_size=32, num_layers=1)
    tok = AutoTokenizer.from_pretrained(base)
    spec = SftSpec(model="tiny", level="two_step", steps=3, batch=2)
    a = build_adapter(base, tok, task, spec, tmp_path / "a", snapshots=(1,), log=lambda _: None)
    b = build_adapter(base, tok, task, spec, tmp_path / "b", log=lambda _: None)
    one = build_adapter(base, tok, task, SftSpec(**{**spec.__dict__, "steps": 1}), tmp_path / "one",
                        log=lambda _: None)
    assert a["hash"] == b["hash"] == adapter_hash(tmp_path / "b")
    assert adapter_hash(tmp_path / "a" / "step1") == one["hash"] != a["hash"]
    assert a["loss"] == b["loss"] and len(a["loss"]) == 3 and a["trainable_params"] > 0


def test_the_rebuild_check_names_the_hardware_fields_that_differ():
    from bot_repro.experiment.adapter import hardware_diff

    here = {"cpu_model": "AMD EPYC", "torch_cpu_capability": "AVX512", "cpu_count": 2}
    assert hardware_diff(here, dict(here)) == []
    assert hardware_diff(here, {**here, "torch_cpu_capability": "AVX2", "MKL_CBWR": "AVX2"}) == [
        "MKL_CBWR", "torch_cpu_capability"]
