"""Which file set each size (bot_repro.sizes): the named file holds the composed value, and the order
trainer < sizing < experiment < debug < command line decides."""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from bot_repro import sizes
from bot_repro.experiment import sweep as fsweep
from tests.conftest import REPO


def _sources(name: str, overrides: list[str]):
    cfg = fsweep.compose_experiment(name, overrides)
    dirs = [Path(s.path) for s in cfg.hydra.runtime.config_sources if s.schema == "file"]
    return cfg, sizes.sources(cfg.hydra.runtime.choices, list(cfg.hydra.overrides.task), dirs)


def _value_in(path: str, key: str, composed):
    """The value the file gives ``key``; an interpolation (``${trainer.num_generations}``) resolved against the
    composed config, as Hydra resolves it."""
    node = OmegaConf.load(REPO / path)
    if path.startswith("conf/trainer/"):  # the trainer group's files hold the trainer section itself
        node = OmegaConf.create({"trainer": node})
    raw = OmegaConf.to_container(node).get(key.split(".")[0], {}) if "." in key else node
    for part in key.split(".")[1:]:
        raw = raw.get(part, "<absent>") if isinstance(raw, dict) else "<absent>"
    if isinstance(raw, str) and raw.startswith("${"):
        return OmegaConf.select(composed, raw[2:-1])
    return OmegaConf.select(node, key, default="<absent>")


@pytest.mark.parametrize("name, overrides, expected", [
    ("real_study", ["+arm=arith_grpo", "seed=0"], {
        "trainer.per_device_train_batch_size": "conf/sizing/smollm2_135m_cpu.yaml",
        "trainer.rollouts_per_step": "conf/experiment/real_study.yaml",
        "trainer.gradient_accumulation_steps": "conf/trainer/default.yaml"}),
    ("mini_demo", ["algorithm=grpo"], {
        "trainer.max_completion_length": "conf/trainer/mini.yaml", "trainer.num_generations": "conf/trainer/default.yaml"}),
    ("real_study", ["debug=smoke", "trainer.eval.batch_size=4"], {
        "trainer.max_completion_length": "conf/debug/smoke.yaml",
        "trainer.per_device_train_batch_size": "conf/sizing/smollm2_135m_cpu.yaml",
        "trainer.eval.batch_size": sizes.COMMAND_LINE}),
])  # fmt: skip
def test_each_size_names_the_file_that_set_it(name, overrides, expected):
    cfg, found = _sources(name, overrides)
    assert set(found) == set(sizes.SIZES)
    assert {key: found[key] for key in expected} == expected
    for key, source in found.items():
        if source.startswith("conf/"):
            assert _value_in(source, key, cfg) == OmegaConf.select(cfg, key), (key, source)
    assert sizes.line(found).startswith("sizes from ") and "conf/trainer/default.yaml (" in sizes.line(found)


def test_without_a_hydra_app_no_sources_are_claimed():
    assert sizes.from_hydra() == {}


@pytest.mark.parametrize("model", ["smollm2_135m", "gemma3_270m"])
@pytest.mark.parametrize("resources", ["cpu", "cpu_vllm", "cpu_x2"])
def test_every_cpu_preset_composes_cpu_sizes_for_the_real_models(model, resources):
    """#51: no CPU preset trains a real model at the paper's 8 x 8 x 2048 (no sizing file used to cover
    cpu_x2); each composes its sizing file, whose sizes divide over the preset's processes."""
    from bot_repro.config import check_batch, training_processes, validate
    from tests.conftest import compose

    assert (REPO / "conf" / "sizing" / f"{model}_{resources}.yaml").is_file()
    run = validate(compose([f"model={model}", f"resources={resources}", "task=arith"]))
    assert run.trainer.max_completion_length == 256 and run.trainer.prompts_per_step * run.trainer.num_generations == 8
    assert run.trainer.sampler == "shared_prefix"
    check_batch(run.trainer, training_processes(run.resources))
