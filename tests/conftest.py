"""Shared test fixtures: an isolated cache for tiny models, offline switches, config composition."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# Tests never reach a hub or a tracking server.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("WANDB_MODE", "disabled")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Tiny models and warm starts are cached per test session (subprocesses inherit the variable)."""
    if "BOT_REPRO_TEST_CACHE" in os.environ:  # reuse across local runs when set
        os.environ["BOT_REPRO_CACHE"] = os.environ["BOT_REPRO_TEST_CACHE"]
    else:
        os.environ["BOT_REPRO_CACHE"] = str(tmp_path_factory.mktemp("bot_repro_cache"))
    yield


@pytest.fixture(scope="session")
def tiny_qwen2(tmp_path_factory) -> Path:
    from bot_repro.models.tiny import build_tiny

    return build_tiny("qwen2", tmp_path_factory.mktemp("tiny_qwen2"))


def compose(overrides: list[str]):
    """Compose conf/train.yaml with overrides, as the command line would."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        return hydra_compose(config_name="train", overrides=overrides)


def tracked(*pathspec: str) -> list[str]:
    """The repository paths ``git ls-files`` lists (of ``pathspec``) that exist in the working tree."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    r = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--", *pathspec], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"not a git checkout ({r.stderr.strip()})")
    return [p for p in r.stdout.split("\0") if p and (REPO / p).is_file()]


def committed_texts(suffixes: tuple[str, ...]) -> list[tuple[str, str]]:
    """(path, text) of every tracked file under ``results/`` whose name ends in one of ``suffixes``,
    the members of each report's archive included (path ``<folder>/runs.tar.xz/runs/<run>/...``)."""
    from bot_repro import report_folder

    out = []
    for p in tracked("results"):
        if p.endswith(suffixes):
            out.append((p, (REPO / p).read_text(errors="replace")))
        elif p.endswith(f"/{report_folder.ARCHIVE}"):
            out += [(f"{p}/{name}", data.decode(errors="replace"))
                    for name, data in report_folder.archive_members(REPO / p) if name.endswith(suffixes)]
    return out


def save_adapter(base, out: Path, r: int, alpha: int) -> Path:
    """A LoRA adapter (q_proj and v_proj) on model ``base`` saved to ``out`` as PeftModel.save_pretrained
    writes it, with its adapter.json hash record; lora_B nonzero (seeded), so the adapter changes the model."""
    import json

    import torch
    from peft import LoraConfig, get_peft_model

    from bot_repro.models import lora

    torch.manual_seed(0)
    model = get_peft_model(base, LoraConfig(r=r, lora_alpha=alpha, target_modules=["q_proj", "v_proj"]))
    with torch.no_grad():
        for name, p in model.named_parameters():
            if ".lora_B." in name:
                p.normal_(0, 0.1)
    model.save_pretrained(out)
    (out / lora.RECORD_FILE).write_text(json.dumps({"hash": lora.adapter_hash(out)}))
    return out
