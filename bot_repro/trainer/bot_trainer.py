"""``BoTGRPOTrainer``: TRL's GRPOTrainer with per-token advantages from the registry.

TRL generates, scores (through our ``TokenRewardFunction``) and computes per-sequence
advantages; we then replace ``advantages`` with the registry's [B, T] tensor. TRL's loss already
accepts [B, T] advantages, so clipping, sequence-level ratios (GSPO), aggregation and KL stay
TRL's (configured through GRPOConfig fields). This class only orchestrates: per round it gathers
the rewards from all processes and hands them to ``advantage_step``; DAPO's resampling is
``dynamic_sampling.refill``; what is logged and saved is ``step_log``'s, written by the run folder's
writers. Rollouts without a score (``RewardResult.excluded``) take their groups out of the round
(``advantage_step``); a step whose judge is down, or in which no group kept a scored rollout, follows
``judge.on_outage``, and a step whose loss has no token makes no optimizer step (``outage``). How far the
policy moved from its start (``policy/*``) is ``drift``'s; the KL's forward runs here, beside the loss.

Judge accounting goes through TRL's public ``log_metric`` reward hook (``TokenRewardFunction``).
The rest of the logging describes the batch that trains (after dynamic sampling drops groups),
which no public hook sees, so it appends to ``_metrics``. Private names of TRL 1.16 /
transformers 5.23 this module depends on, each guarded by tests/unit/test_trl_surface.py:
- ``GRPOTrainer._generate_and_score_completions(inputs)``: overridden; its output dict's
  ``completion_ids``, ``completion_mask``, ``advantages`` (and optional ``tool_mask``).
- ``GRPOTrainer._metrics``: ``{"train": defaultdict(list), "eval": ...}``, averaged and logged by TRL.
- ``GRPOTrainer._calculate_rewards`` passing ``log_metric`` to reward functions.
- ``Trainer._issue_warnings_after_load(load_result)``: overridden to drop the tied-head false alarm.
- ``Trainer._save_checkpoint(model, trial)``: the checkpoint a judge outage stop saves (``outage``), with
  the ``on_save`` event after it as ``save_steps`` fires it; ``on_pre_optimizer_step`` (a callback event)
  for a step that makes no update.
- ``GRPOTrainer._compute_loss(model, inputs)``, calling ``_get_per_token_logps_and_entropies(model, input_ids,
  attention_mask, logits_to_keep, ...)`` once, which returns ``(logps, entropies, aux_loss)`` and calls ``model(...)``:
  the KL from the starting policy keeps the loss's logprobs and calls the same method with the start's weights
  (``drift``); ``self.state.global_step`` counts finished optimizer steps there.
- ``GRPOTrainer.vllm_generation`` (with ``use_vllm``): handed to ``vllm_engine.adapt_sync``, whose own
  private names are listed in that module.
- ``GRPOTrainer._generate_single_turn(prompt_ids, images, multimodal_fields, num_generations, ...)`` returning
  ``(completion_ids, logprobs)`` (``sampler: shared_prefix``), with ``eos_token_ids`` and ``_tokenizer``.
- ``GRPOTrainer._get_per_token_logps_and_entropies`` (the loss's logprobs; ``shared_prefix``) and
  ``_prepare_inputs`` with ``_step``, ``_buffered_inputs``, ``args.steps_per_generation`` and
  ``trl.trainer.grpo_trainer.split_tensor_dict`` (its train branch, less the shuffle, under ``shared_prefix``).
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from pathlib import Path

import torch
from accelerate.utils import gather_object
from trl import GRPOTrainer
from trl.trainer.grpo_trainer import split_tensor_dict

from bot_repro.algorithms import ADVANTAGES
from bot_repro.algorithms.advantages import drops_groups
from bot_repro.config import DriftCfg, DynamicSampling
from bot_repro.models import sampling
from bot_repro.models.fused_lora import install as fuse_lora
from bot_repro.run_folder import write_rollouts
from bot_repro.trainer import shared_prefix as prefix
from bot_repro.trainer.advantage_step import (
    RoundStats,
    into_batch,
    loss_mask,
    padded_local_rewards,
    round_advantages,
)
from bot_repro.trainer.drift import DriftLog, PolicyDrift, at_start, kl_terms
from bot_repro.trainer.dynamic_sampling import refill
from bot_repro.trainer.outage import NoEmptyUpdate, OutageGuard
from bot_repro.trainer.step_log import batch_metrics, exclusion_metrics, rollout_rows
from bot_repro.trainer.token_reward import ScoredBatch, TokenRewardFunction
from bot_repro.trainer.vllm_engine import Engine, adapt_sync, engine_arguments

# TRL 1.16 reads the deprecated ``model.is_gradient_checkpointing`` at every generation
# (trl/models/utils.py); transformers 5 warns each time. The setting itself uses the new name.
warnings.filterwarnings("ignore", message="`is_gradient_checkpointing` is deprecated", category=FutureWarning)


class BoTGRPOTrainer(GRPOTrainer):
    def __init__(
        self,
        *args,
        token_reward: TokenRewardFunction,
        advantage: str,
        advantage_options: dict,
        dynamic_sampling: DynamicSampling | None = None,
        rollout_dir: str | Path | None = None,
        rollouts_per_step: int = 8,
        engine: Engine | None = None,
        shared_prefix: bool = True,
        fused_lora: bool = False,
        sampler: str = "transformers",
        drift: DriftCfg | None = None,
        **kwargs,
    ):
        ADVANTAGES[advantage]  # fail fast on an unknown name
        with engine_arguments(engine):  # the colocated vLLM's dtype, eager mode, KV cache (vllm_engine.py)
            super().__init__(*args, reward_funcs=[token_reward], **kwargs)
        self.engine = engine if self.use_vllm else None
        if fused_lora:  # LoRA layers compute through their merged weight (models/fused_lora.py)
            fuse_lora(self.model)
        if self.engine is not None:
            adapt_sync(self.vllm_generation, self.engine)
        self.generation_fallback: str | None = None  # why vLLM was not used although the preset asked for it
        self.token_reward = token_reward
        self.advantage = advantage
        self.advantage_options = dict(advantage_options)  # w_g, w_s included (``RunConfig.advantage_options``)
        self.dynamic_sampling = dynamic_sampling or DynamicSampling()
        self.rollout_dir = Path(rollout_dir) if rollout_dir else None
        self.rollouts_per_step = rollouts_per_step
        self.generated_tokens = 0
        self.sampler = sampler  # "shared_prefix": rollouts from bot_repro.models.sampling (_generate_single_turn)
        # the loss forward computes each distinct prompt once where it can (trainer/shared_prefix.py)
        self.shared_prefix = shared_prefix and prefix.applies(self.accelerator.num_processes,
                                                              bool(self.args.activation_checkpointing))
        # one stream on every rank: each draws the whole round and keeps its slice (as one process would)
        self._draw_gen = torch.Generator().manual_seed(int(self.args.seed))
        judge = token_reward.judge
        self.outage = OutageGuard(judge, judge.opts.on_outage if judge else "skip",
                                  judge.opts.outage_max_wait_s if judge else 0.0, self._any_rank, self._outage_checkpoint)
        self.add_callback(NoEmptyUpdate(self.outage, self._pop_loss_tokens))
        self._excluded: Counter = Counter()  # rollouts without a score this step, by reason
        self._excluded_groups = 0
        self._scored_rollouts = 0  # rollouts this step scored (every round and process): excluded/out_of
        self._loss_tokens = 0  # tokens the loss has seen since the last optimizer step (this process)
        # the policy's distance from its start (drift.py): the start is copied before a resume loads anything
        self.drift = PolicyDrift(self.model, drift) if drift is not None and drift.enabled else None
        if self.drift is not None:
            self.add_callback(DriftLog(self))
        self.sampled_at = -1  # the global step at which the rollouts in use were sampled
        self._loss_logps: list[torch.Tensor] | None = None  # the loss's logprobs, kept while a KL is due

    def generation_info(self) -> dict:
        """What generated the rollouts (run.json's ``generation``)."""
        if self.engine is not None:
            return self.engine.describe()
        info = {"engine": "vllm-server" if self.use_vllm else "transformers"}
        if self.generation_fallback:
            info["fallback_from_vllm"] = self.generation_fallback
        return info

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

    def _any_rank(self, flag: bool) -> bool:
        if self.accelerator.num_processes == 1:
            return flag
        return bool(self.accelerator.gather(torch.tensor([float(flag)], device=self.accelerator.device)).max() > 0)

    def _judged(self, scored: ScoredBatch) -> bool:
        """Some group of the round, gathered from every process, has no excluded rollout."""
        flags = torch.tensor([float(r.excluded is not None) for r in scored.results], device=self.accelerator.device)
        if self.accelerator.num_processes > 1:
            flags = self.accelerator.gather(flags)
        return bool((flags.view(-1, self.num_generations).sum(1) == 0).any())

    def compute_loss(self, model, inputs, *args, **kwargs):
        if model.training:  # the tokens of this micro-batch that enter the loss (NoEmptyUpdate reads the sum)
            self._loss_tokens += int(loss_mask(inputs).sum())
        return super().compute_loss(model, inputs, *args, **kwargs)

    def _pop_loss_tokens(self) -> int:
        """The loss's tokens since the last optimizer step, summed over every process; resets the count."""
        tokens, self._loss_tokens = self._loss_tokens, 0
        if self.accelerator.num_processes > 1:
            tokens = int(self.accelerator.gather(torch.tensor([tokens], device=self.accelerator.device)).sum())
        return tokens

    def _outage_checkpoint(self) -> str | None:
        """A resumable checkpoint of the last finished step (None before the first), as ``save_steps`` makes."""
        if self.state.global_step == 0:
            return None
        self._save_checkpoint(self.model, trial=None)
        self.control = self.callback_handler.on_save(self.args, self.state, self.control)
        return str(Path(self.args.output_dir) / f"checkpoint-{self.state.global_step}")

    def _add_to_logged(self, metrics: dict[str, float]) -> None:
        """Fold a second scoring's judge counters into the values TRL's ``log_metric`` logged for this step
        (appending them would log the mean of the two passes): counts add up, ``breaker_open`` is the
        maximum, a mean is averaged."""
        for name, value in metrics.items():
            logged = self._metrics["train"][name]
            if not logged:
                logged.append(value)
            elif name == "judge/breaker_open":
                logged[-1] = max(logged[-1], value)
            else:
                logged[-1] = (logged[-1] + value) / 2 if name.endswith("_mean") else logged[-1] + value

    def _score_round(self, inputs: list[dict]) -> tuple[dict, ScoredBatch, RoundStats]:
        out = super()._generate_and_score_completions(inputs)
        scored = self.outage.settle(self.token_reward.pop(), self.token_reward.rescore, self._judged)
        if scored.metrics:  # judged again after an outage: its judge counters join the step's
            self._add_to_logged(scored.metrics)
            scored.metrics = {}
        mask = loss_mask(out)
        local = padded_local_rewards(scored.local_rewards, mask.shape[1], mask.device)
        glob = torch.tensor(scored.global_rewards, dtype=torch.float32, device=mask.device)
        excluded = torch.tensor([self.outage.skip or r.excluded is not None for r in scored.results],
                                dtype=torch.float32, device=mask.device)
        g_all, l_all, m_all, x_all = self._gather_padded(glob, local, mask.float(), excluded)
        self.generated_tokens += int(m_all.sum())  # every generated token, kept or dropped later
        self._scored_rollouts += x_all.numel()
        stats = round_advantages(self.advantage, self.advantage_options, g_all, l_all, m_all, self.num_generations,
                                 excluded=x_all.bool())
        drops = drops_groups(self.advantage, self.advantage_options)
        into_batch(out, stats, self.accelerator.process_index * mask.shape[0], drops)
        self._excluded.update(r.excluded for r in scored.results if r.excluded is not None)
        if stats.kept is not None:  # the loss is normalised over the tokens that train
            out["num_items_in_batch"] = self.accelerator.gather(loss_mask(out).sum()).sum()
            self._excluded_groups += int((~stats.kept).sum())
        return out, scored, stats

    def _draw_inputs(self, n_groups: int) -> list[dict]:
        """This rank's ``n_groups`` prompts of a round that draws ``n_groups`` per rank."""
        world, rank = self.accelerator.num_processes, self.accelerator.process_index
        idx = torch.randint(len(self.train_dataset), (n_groups * world,), generator=self._draw_gen).tolist()
        return [self.train_dataset[i] for i in idx[rank * n_groups : (rank + 1) * n_groups] for _ in range(self.num_generations)]

    # ---- the loss's logprobs ---------------------------------------------------------------
    def _get_per_token_logps_and_entropies(self, model, input_ids, attention_mask, logits_to_keep, batch_size=None,
                                           compute_entropy=False, compute_aux_loss=False, **multimodal):
        """TRL's, or with each distinct prompt of a chunk computed once (``shared_prefix``) on text inputs; the
        loss's logprobs are also kept (detached) while a KL from the start is due (``_compute_loss``)."""
        out = self._logps(model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy,
                          compute_aux_loss, **multimodal)
        if self._loss_logps is not None:  # the loss's forward: the current policy's logprobs of its rows
            self._loss_logps.append(out[0].detach())
        return out

    def _logps(self, model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy, compute_aux_loss,
               **multimodal):
        if (not self.shared_prefix or compute_aux_loss or input_ids.size(1) - logits_to_keep < 2
                or any(v is not None for v in multimodal.values())):
            return super()._get_per_token_logps_and_entropies(
                model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy, compute_aux_loss,
                **multimodal)
        size = batch_size or input_ids.size(0)
        bonus = self.args.entropy_coef != 0.0 or self.args.use_adaptive_entropy  # the loss reads the entropy
        entropy = ("grad" if bonus else "value") if compute_entropy else "none"
        with self.accelerator.autocast():
            parts = [prefix.logprobs(model, input_ids[i : i + size], attention_mask[i : i + size], logits_to_keep,
                                     self.temperature, entropy) for i in range(0, input_ids.size(0), size)]
        logps = torch.cat([p[0] for p in parts])
        return logps, (torch.cat([p[1] for p in parts]) if compute_entropy else None), None

    def _prepare_inputs(self, generation_batch):
        """TRL's, less its shuffle of the generation batch under ``shared_prefix``: a micro-batch then holds
        whole groups (rows in draw order), whose prompt it computes once. With one optimizer step per
        generation round the shuffle changes only which rows share a backward pass, not the update."""
        if not (self.shared_prefix and self.model.training):
            return super()._prepare_inputs(generation_batch)
        every = self.args.steps_per_generation * self.num_iterations
        if self._step % every == 0 or self._buffered_inputs is None:
            batch = self._generate_and_score_completions(generation_batch)
            torch.randperm(len(batch["completion_ids"]))  # TRL's shuffle draw, unused: the same random stream after it
            self._buffered_inputs = split_tensor_dict(batch, self.args.steps_per_generation)
        return self._buffered_inputs[self._step % self.args.steps_per_generation]

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
        """TRL's, or with ``sampler: shared_prefix`` (text prompts, no vLLM) ``models.sampling.sample``: the same
        distribution, each distinct prompt prefilled once. ``config.validate`` refuses the sampling settings it
        does not draw (top-p, top-k, min-p, a repetition penalty)."""
        if self.sampler != "shared_prefix" or self.use_vllm or images is not None or multimodal_fields:
            return super()._generate_single_turn(prompt_ids, images, multimodal_fields, num_generations,
                                                 has_tool_images)
        model = self.accelerator.unwrap_model(self.model)
        completions = sampling.sample(model, prompt_ids, self.max_completion_length, self.temperature,
                                      self.eos_token_ids, self._tokenizer.pad_token_id)
        return completions, None

    # ---- the TRL hook --------------------------------------------------------------------
    def _generate_and_score_completions(self, inputs):
        if not self.model.training:
            return super()._generate_and_score_completions(inputs)
        self.sampled_at = self.state.global_step
        self.outage.begin_step()
        out, scored, stats = self._score_round(inputs)
        if self.dynamic_sampling.enabled and not self.outage.skip:  # a skipped step has nothing to refill
            out, scored, stats = self._dynamic_sampling(inputs, out, scored, stats)
        self._record(out, scored, stats)
        return out

    def _dynamic_sampling(self, inputs, out, scored, stats):
        k = self.num_generations
        n = len(inputs) // k  # groups per process (refill refuses a batch of partial groups first)
        acc = self.accelerator
        r = refill((out, scored, stats), lambda: self._score_round(self._draw_inputs(n)), self._pool_rounds,
                   self.dynamic_sampling, k=k, world=acc.num_processes, rank=acc.process_index,
                   pad_token_id=self.processing_class.pad_token_id)  # fmt: skip
        r.batch["num_items_in_batch"] = acc.gather(loss_mask(r.batch).sum()).sum()
        for key, value in r.metrics.items():
            self._metrics["train"][key].append(value)
        return r.batch, r.scored, r.stats

    def _pool_rounds(self, rounds: list[tuple[dict, ScoredBatch]]) -> list[list[tuple[dict, ScoredBatch]]]:
        """Every rank's rounds, indexed [rank][round] (one process: its own, not copied)."""
        if self.accelerator.num_processes == 1:
            return [rounds]
        local = [({key: v.cpu() if isinstance(v, torch.Tensor) else v for key, v in o.items()}, s) for o, s in rounds]
        return gather_object([local])

    # ---- logging ---------------------------------------------------------------------------
    def _record(self, out: dict, scored: ScoredBatch, stats: RoundStats) -> None:
        w_g, w_s = float(self.advantage_options["w_g"]), float(self.advantage_options["w_s"])
        reasons = self._excluded
        if self.accelerator.num_processes > 1:
            reasons = sum(gather_object([reasons]), Counter())
        logged = {**batch_metrics(stats, scored, self.num_generations, w_g, w_s),
                  **exclusion_metrics(reasons, self._excluded_groups, self.outage.skip, self._scored_rollouts)}
        self._excluded, self._excluded_groups, self._scored_rollouts = Counter(), 0, 0
        for key, value in logged.items():
            self._metrics["train"][key].append(value)
        if self.rollout_dir is None or self.rollouts_per_step <= 0 or not self.accelerator.is_main_process:
            return
        step = self.state.global_step + 1
        write_rollouts(self.rollout_dir, step, rollout_rows(out, scored, step, self.rollouts_per_step, self.processing_class))

    # ---- the KL from the starting policy (drift.py) -------------------------------------------
    def _kl_rows(self, inputs: dict) -> torch.Tensor:
        """Rows of this micro-batch whose KL from the start is measured: none unless this step is due and the
        current weights sampled them; rows with tokens that train, ``trainer.drift.kl_share`` of this process's
        rollouts of the step in all."""
        drift, step = self.drift, self.state.global_step
        if drift is None or not self.model.training or not drift.kl_due(step + 1) or self.sampled_at != step:
            return torch.zeros(0, dtype=torch.long)
        local = self.args.per_device_train_batch_size * self.args.steps_per_generation  # this process's rollouts
        return loss_mask(inputs).any(dim=1).nonzero().flatten()[: drift.rows_left(local)]

    def _compute_loss(self, model, inputs):
        rows = self._kl_rows(inputs)
        if rows.numel() == 0:
            return super()._compute_loss(model, inputs)
        self._loss_logps = []
        try:
            loss = super()._compute_loss(model, inputs)
            logps = self._loss_logps[-1]
        finally:
            self._loss_logps = None
        self._kl_from_start(model, inputs, logps, rows)
        return loss

    def _kl_from_start(self, model, inputs: dict, logps: torch.Tensor, rows: torch.Tensor) -> None:
        """Add the k3 and k1 terms of ``rows`` (current logprobs ``logps``, the loss's) to the step's sums."""
        t0 = time.perf_counter()
        rows = rows.to(logps.device)
        if self.drift.last == 0.0:  # the weights are the start's: pi = pi_0, no forward
            logps0 = logps[rows]
        else:
            ids = torch.cat([inputs["prompt_ids"], inputs["completion_ids"]], dim=1)[rows]
            mask = torch.cat([inputs["prompt_mask"], inputs["completion_mask"]], dim=1)[rows]
            with torch.no_grad(), at_start(self.accelerator.unwrap_model(model), self.drift.start) as start:
                logps0, _, _ = self._logps(start, ids, mask, inputs["completion_ids"].shape[1], None, False, False)
        self.drift.kl[:3] += kl_terms(logps[rows], logps0, loss_mask(inputs)[rows]).cpu()
        self.drift.kl[3] += time.perf_counter() - t0
        self.drift.kl_rows += rows.numel()
