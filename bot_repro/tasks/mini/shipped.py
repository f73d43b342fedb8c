"""The warm-started mini policies that ship in the package (``policies/<key>/``), so step 0 is the
same on every machine.

The supervised warm start is deterministic on one machine, but CPUs with other vector units (AVX2
vs AVX-512) round its 600 steps differently and end at another policy (issue 23: three hashes on
two machine types). So the policies the committed results start from are files in the repository:
``policies/<key>/`` holds the weights (``model.safetensors``), the tokenizer, and ``warm_start.json``
as the warm start wrote it (``policy_hash``, the task parameters, the sampled success) plus
``built_on``, the hardware that made it. ``<key>`` is ``MiniTask.warm_start_key``: a hash of the
tiny model's build name and the task parameters, so any change of data or warm-start setting
misses the shipped policy and builds its own. A shipped folder whose weights do not hash to its
recorded ``policy_hash`` (a truncated file, a Git LFS pointer) is an error, never a silent rebuild.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot_repro.config_schema import ConfigError
from bot_repro.models.fingerprint import policy_hash

POLICIES = Path(__file__).resolve().parent / "policies"
# what a shipped policy folder holds (the rest of a warm-start folder, e.g. checkpoints, stays behind)
FILES = ("config.json", "generation_config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
         "chat_template.jinja", "warm_start.json")


def shipped_policy(key: str, root: Path = POLICIES) -> Path | None:
    """The shipped policy folder for ``key``, checked against its recorded hash; None when none ships."""
    path = Path(root) / key
    record = path / "warm_start.json"
    if not record.exists():
        return None
    expected = json.loads(record.read_text()).get("policy_hash")
    try:
        found = policy_hash(path)
    except Exception as exc:  # unreadable weights: say which file, not a safetensors traceback
        raise ConfigError(f"shipped mini policy {path}: cannot read its weights ({exc}); restore it with "
                          "`git checkout -- bot_repro/tasks/mini/policies` (Git LFS pointers are not weights)") from exc
    if found != expected:
        raise ConfigError(f"shipped mini policy {path}: weights hash to {found}, warm_start.json records {expected}; "
                          "restore the folder from git, or set task.params.warm_start_source=build")
    return path


def ship(built: Path, key: str, extra: dict, root: Path = POLICIES) -> Path:
    """Copy the warm-start folder ``built`` into ``root/key`` as a shipped policy, adding ``extra``
    (the task parameters, ``built_on``: the hardware that made it) to its ``warm_start.json``."""
    built = Path(built)
    missing = [f for f in FILES if not (built / f).exists()]
    if missing:
        raise FileNotFoundError(f"{built} is not a finished warm start: no {', '.join(missing)}")
    dest = Path(root) / key
    tmp = dest.with_name(f"{dest.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for f in FILES:
        shutil.copy2(built / f, tmp / f)
    record = json.loads((tmp / "warm_start.json").read_text())
    (tmp / "warm_start.json").write_text(json.dumps({**record, **extra}, indent=2) + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest
