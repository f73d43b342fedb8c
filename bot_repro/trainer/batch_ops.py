"""Row selection across generation rounds of TRL's batch dicts (used by DAPO dynamic sampling).

Different rounds pad to different lengths: prompts are left-padded, completion-side tensors
right-padded; this module re-pads while picking rows so the merged dict is what TRL's loss expects.
"""

from __future__ import annotations

import torch

LEFT_PADDED = {"prompt_ids", "prompt_mask"}
RIGHT_PADDED = {
    "completion_ids",
    "completion_mask",
    "advantages",
    "old_per_token_logps",
    "ref_per_token_logps",
    "sampling_per_token_logps",
    "importance_sampling_ratio",
    "tool_mask",
}
SCALARS = {"num_items_in_batch"}


def _pad_to(t: torch.Tensor, length: int, left: bool, value) -> torch.Tensor:
    if t.dim() < 2 or t.shape[1] >= length:
        return t
    pad = t.new_full((t.shape[0], length - t.shape[1], *t.shape[2:]), value)
    return torch.cat([pad, t] if left else [t, pad], dim=1)


def select_rows(rounds: list[dict], picks: list[tuple[int, int]], pad_token_id: int) -> dict:
    """Merge ``rounds`` (TRL output dicts) keeping rows ``picks`` = [(round_index, row_index), ...]."""
    keys = set(rounds[0])
    unknown = {k for k in keys if k not in LEFT_PADDED | RIGHT_PADDED | SCALARS and rounds[0][k] is not None}
    if unknown:
        raise ValueError(f"dynamic sampling supports text-only batches; cannot merge keys {sorted(unknown)}")
    merged: dict = {}
    for key in keys - SCALARS:
        if rounds[0][key] is None:
            merged[key] = None
            continue
        tensors = [r[key] for r in rounds]
        length = max(t.shape[1] for t in tensors) if tensors[0].dim() >= 2 else 0
        left = key in LEFT_PADDED
        value = pad_token_id if key in {"prompt_ids", "completion_ids"} else (1 if key == "tool_mask" else 0)
        padded = [_pad_to(t, length, left, value) for t in tensors]
        merged[key] = torch.stack([padded[r][i] for r, i in picks])
    return merged
