"""``BoTGRPOTrainer``: TRL's GRPOTrainer with per-token advantages from the registry.

TRL generates, scores (through our ``TokenRewardFunction``) and computes per-sequence
advantages; we then replace ``advantages`` with the registry's [B, T] tensor. TRL's loss already
accepts [B, T] advantages, so clipping, sequence-level ratios (GSPO), aggregation and KL stay
TRL's (configured through GRPOConfig fields). The group statistics are computed on the batch
gathered from all processes, so a group whose rollouts sit on different processes is normalised
as one group. DAPO's dynamic sampling (``DynamicSampling``) also lives here; it decides on the
gathered rounds, so N ranks keep the groups one process with the whole batch would keep.

Judge accounting goes through TRL's public ``log_metric`` reward hook (``TokenRewardFunction``).
The rest of the logging describes the batch that trains (after dynamic sampling drops groups),
which no public hook sees, so it appends to ``_metrics``. Private names of TRL 1.16 /
transformers 5.23 this module depends on, each guarded by tests/unit/test_trl_surface.py:
- ``GRPOTrainer._generate_and_score_completions(inputs)``: overridden; its output dict's
  ``completion_ids``, ``completion_mask``, ``advantages`` (and optional ``tool_mask``).
- ``GRPOTrainer._metrics``: ``{"train": defaultdict(list), "eval": ...}``, averaged and logged by TRL.
- ``GRPOTrainer._calculate_rewards`` passing ``log_metric`` to reward functions.
- ``Trainer._issue_warnings_after_load(load_result)``: overridden to drop the tied-head false alarm.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch
from accelerate.utils import gather_object
from trl import GRPOTrainer

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.registry import compute_advantages, drops_groups
from bot_repro.trainer.batch_ops import select_rows
from bot_repro.trainer.token_reward import ScoredBatch, TokenRewardFunction

# TRL 1.16 reads the deprecated ``model.is_gradient_checkpointing`` at every generation
# (trl/models/utils.py); transformers 5 warns each time. The setting itself uses the new name.
warnings.filterwarnings("ignore", message="`is_gradient_checkpointing` is deprecated", category=FutureWarning)


@dataclass
class DynamicSampling:
    """DAPO: drop groups with no learning signal and regenerate, at most ``max_rounds`` extra rounds."""

    enabled: bool = False
    max_rounds: int = 3


class BoTGRPOTrainer(GRPOTrainer):
    def __init__(
        self,
        *args,
        token_reward: TokenRewardFunction,
        advantage: str,
        advantage_options: dict | None = None,
        dynamic_sampling: DynamicSampling | None = None,
        rollout_dir: str | Path | None = None,
        rollouts_per_step: int = 8,
        **kwargs,
    ):
        ADVANTAGES[advantage]  # fail fast on an unknown name
        super().__init__(*args, reward_funcs=[token_reward], **kwargs)
        self.token_reward = token_reward
        self.advantage = advantage
        self.advantage_options = dict(advantage_options or {})
        self.dynamic_sampling = dynamic_sampling or DynamicSampling()
        self.rollout_dir = Path(rollout_dir) if rollout_dir else None
        self.rollouts_per_step = rollouts_per_step
        self.generated_tokens = 0
        # one stream on every rank: each draws the whole round and keeps its slice (as one process would)
        self._draw_gen = torch.Generator().manual_seed(int(self.args.seed))

    def create_model_card(self, *args, **kwargs) -> None:
        """No TRL model card in checkpoints/: it describes a hub upload of vanilla GRPO; a run's
        provenance is its run.json and .hydra/ config."""

    def _issue_warnings_after_load(self, load_result) -> None:
        """On resume, a tied ``lm_head.weight`` is reported missing: it is saved once, as the input
        embedding it shares, and the model ties it again. Drop that one false alarm."""
        if getattr(self.model.config, "tie_word_embeddings", False) and "lm_head.weight" in load_result.missing_keys:
            load_result.missing_keys.remove("lm_head.weight")
        super()._issue_warnings_after_load(load_result)

    # ---- one generation round ------------------------------------------------------------
    def _gather_padded(self, *tensors: torch.Tensor) -> list[torch.Tensor]:
        acc = self.accelerator
        out = []
        for t in tensors:
            if t.dim() == 2:
                t = acc.pad_across_processes(t, dim=1, pad_index=0)
            out.append(acc.gather(t))
        return out

    def _score_round(self, inputs: list[dict]) -> tuple[dict, ScoredBatch, torch.Tensor, dict]:
        out = super()._generate_and_score_completions(inputs)
        scored = self.token_reward.pop()
        mask = out["completion_mask"]
        if out.get("tool_mask") is not None:
            mask = mask * out["tool_mask"]
        b, width = mask.shape
        local = torch.zeros(b, width, dtype=torch.float32, device=mask.device)
        for i, s in enumerate(scored.local_rewards):
            n = min(len(s), width)
            local[i, :n] = torch.as_tensor(s[:n], dtype=torch.float32)
        glob = torch.tensor(scored.global_rewards, dtype=torch.float32, device=mask.device)
        g_all, l_all, m_all = self._gather_padded(glob, local, mask.float())
        self.generated_tokens += int(m_all.sum())  # every generated token, kept or dropped later
        k = self.num_generations
        adv_all = compute_advantages(self.advantage, g_all, l_all, m_all, k, **self.advantage_options)
        group_valid = (adv_all.abs() * m_all).view(-1, k, adv_all.shape[1]).sum(dim=(1, 2)) > 0
        if drops_groups(self.advantage, self.advantage_options):
            keep = group_valid.repeat_interleave(k)
            m_all = m_all * keep[:, None]
        start = self.accelerator.process_index * b
        out["advantages"] = adv_all[start : start + b, :width].to(mask.device)
        if drops_groups(self.advantage, self.advantage_options):
            out["completion_mask"] = out["completion_mask"] * m_all[start : start + b, :width].bool().any(1)[:, None]
        stats = {"global": g_all, "local": l_all, "mask": m_all, "adv": adv_all, "group_valid": group_valid}
        return out, scored, group_valid, stats

    def _draw_inputs(self, n_groups: int) -> list[dict]:
        """This rank's ``n_groups`` prompts of a round that draws ``n_groups`` per rank."""
        world, rank = self.accelerator.num_processes, self.accelerator.process_index
        idx = torch.randint(len(self.train_dataset), (n_groups * world,), generator=self._draw_gen).tolist()
        return [self.train_dataset[i] for i in idx[rank * n_groups : (rank + 1) * n_groups] for _ in range(self.num_generations)]

    # ---- the TRL hook --------------------------------------------------------------------
    def _generate_and_score_completions(self, inputs):
        if not self.model.training:
            return super()._generate_and_score_completions(inputs)
        out, scored, group_valid, stats = self._score_round(inputs)
        if self.dynamic_sampling.enabled:
            out, scored, stats = self._dynamic_sampling(inputs, out, scored, stats)
        self._record(out, scored, stats)
        return out

    def _dynamic_sampling(self, inputs, out, scored, stats):
        k, b = self.num_generations, len(inputs)
        if b % k:
            raise ValueError(
                f"dynamic sampling needs whole groups per process: per-process generation batch {b} is not a "
                f"multiple of num_generations {k}; make per_device_train_batch_size * steps_per_generation a "
                f"multiple of {k}"
            )
        # Every decision is taken on the gathered validity of whole rounds, so all ranks take the same
        # ones, in the same rounds, as one process with the whole batch would: the kept groups are the
        # first valid ones of the global batch in round order, and a rank's slots may be filled with
        # rows generated on another rank.
        n, world, rank = b // k, self.accelerator.num_processes, self.accelerator.process_index
        rounds, generated = [(out, scored)], [stats]
        while len(rounds) <= self.dynamic_sampling.max_rounds and sum(
            int(st["group_valid"].sum()) for st in generated
        ) < world * n:
            o, s, _, st = self._score_round(self._draw_inputs(n))
            rounds.append((o, s))
            generated.append(st)
        order = [(r, g) for r, st in enumerate(generated) for g in range(world * n) if st["group_valid"][g]]
        order = order[: world * n]
        n_filled = min(n, max(0, len(order) - rank * n))
        order += [(r, g) for r, st in enumerate(generated) for g in range(world * n) if not st["group_valid"][g]]
        pool = self._pool_rounds(rounds)  # pool[owner rank][round] = (out, scored)
        picks = [(r, g, j) for r, g in order[rank * n : (rank + 1) * n] for j in range(k)]
        sources = sorted({(g // n, r) for r, g, _ in picks})  # (owner rank, round) of the kept rows
        at = {src: i for i, src in enumerate(sources)}
        rows = [(at[g // n, r], (g % n) * k + j) for r, g, j in picks]
        merged = select_rows([pool[o][r][0] for o, r in sources], rows, self.processing_class.pad_token_id)
        device = out["completion_mask"].device
        merged = {key: v.to(device) if isinstance(v, torch.Tensor) else v for key, v in merged.items()}
        # unfilled slots keep a degenerate group with zero loss weight
        for slot in range(n_filled, n):
            merged["completion_mask"][slot * k : (slot + 1) * k] = 0
        loss_mask = merged["completion_mask"]
        if merged.get("tool_mask") is not None:
            loss_mask = loss_mask * merged["tool_mask"]
        merged["num_items_in_batch"] = self.accelerator.gather(loss_mask.sum()).sum()
        sc = [pool[o][r][1] for o, r in sources]
        scored = ScoredBatch(
            [sc[src].global_rewards[i] for src, i in rows],
            [sc[src].local_rewards[i] for src, i in rows],
            [sc[src].results[i] for src, i in rows],
            [sc[src].texts[i] for src, i in rows],
        )
        n_groups = sum(len(st["group_valid"]) for st in generated)
        n_valid = sum(int(st["group_valid"].sum()) for st in generated)
        self._metrics["train"]["dapo/dropped_groups"].append(float(n_groups - n_valid))
        self._metrics["train"]["dapo/extra_rounds"].append(float(len(rounds) - 1))
        self._metrics["train"]["dapo/unfilled_groups"].append(float(n - n_filled))
        # statistics of the kept batch, local rows only (the full batch was already reduced above)
        stats = {
            "global": torch.tensor(scored.global_rewards),
            "local": merged["advantages"].new_zeros(merged["advantages"].shape),
            "mask": loss_mask.float(),
            "adv": merged["advantages"],
        }
        for i, s in enumerate(scored.local_rewards):
            w = min(len(s), stats["local"].shape[1])
            stats["local"][i, :w] = torch.as_tensor(s[:w], dtype=torch.float32)
        return merged, scored, stats

    def _pool_rounds(self, rounds: list[tuple[dict, ScoredBatch]]) -> list[list[tuple[dict, ScoredBatch]]]:
        """Every rank's rounds, indexed [rank][round] (one process: its own, not copied)."""
        if self.accelerator.num_processes == 1:
            return [rounds]
        local = [({key: v.cpu() if isinstance(v, torch.Tensor) else v for key, v in o.items()}, s) for o, s in rounds]
        return gather_object([local])

    # ---- logging ---------------------------------------------------------------------------
    def _record(self, out: dict, scored: ScoredBatch, stats: dict) -> None:
        m, g, s, a = stats["mask"], stats["global"], stats["local"], stats["adv"]
        w_g = float(self.advantage_options.get("w_g", 1.0))
        w_s = float(self.advantage_options.get("w_s", 1.0))
        lengths = m.sum(1)
        local_mean = (s * m).sum(1) / lengths.clamp(min=1)
        seq_reward = w_g * g + w_s * local_mean
        valid = m.bool()
        adv = a[valid] if valid.any() else a.new_zeros(1)
        metrics = {
            "reward_mean": seq_reward.mean(),
            "reward_std": seq_reward.std(unbiased=False),
            "global_reward_mean": g.mean(),
            "local_reward_mean": local_mean.mean(),
            "adv_mean": adv.mean(),
            "adv_std": adv.std(unbiased=False),
            "adv_min": adv.min(),
            "adv_max": adv.max(),
        }
        for key, val in metrics.items():
            self._metrics["train"][key].append(float(val))
        comps: dict[str, list[float]] = {}
        for res in scored.results:
            for name, val in res.components.items():
                comps.setdefault(name, []).append(float(val))
        for name, vals in comps.items():
            self._metrics["train"][f"reward/{name}"].append(sum(vals) / len(vals))
        for name, val in scored.metrics.items():
            self._metrics["train"][name].append(float(val))
        self._save_rollouts(out, scored)

    def _save_rollouts(self, out: dict, scored: ScoredBatch) -> None:
        if self.rollout_dir is None or self.rollouts_per_step <= 0 or not self.accelerator.is_main_process:
            return
        self.rollout_dir.mkdir(parents=True, exist_ok=True)
        n = min(self.rollouts_per_step, len(scored.texts))
        ids = out["completion_ids"]
        mask = out["completion_mask"]
        path = self.rollout_dir / f"step_{self.state.global_step + 1:06d}.jsonl"
        with path.open("w") as f:
            for i in range(n):
                length = int(mask[i].sum())
                row = {
                    "step": self.state.global_step + 1,
                    "index": i,
                    "text": scored.texts[i],
                    "tokens": self.processing_class.convert_ids_to_tokens(ids[i, :length].tolist()),
                    "global_reward": scored.global_rewards[i],
                    "local_rewards": [round(float(x), 5) for x in scored.local_rewards[i][:length]],
                    "advantages": [round(float(x), 5) for x in out["advantages"][i, :length].tolist()],
                    "components": scored.results[i].components,
                    "info": scored.results[i].info,
                }
                f.write(json.dumps(row, default=str) + "\n")
