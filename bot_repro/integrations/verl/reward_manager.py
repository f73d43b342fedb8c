"""``bot_token``: a verl reward manager that runs a bot_repro reward source on verl's rollouts.

verl 0.9's reward loop calls ``run_single(data)`` once per rollout (many at once, as asyncio
tasks) and expects ``{"reward_score": float, "reward_extra_info": dict}``. For each response this
manager:

1. takes the sampled response ids (``responses`` up to the attention mask; EOS included, as the
   TRL path's ``completion_ids``) and the dataset row (``extra_info.bot_row``, written by
   ``python -m bot_repro.integrations.verl.data``; verl-style rows fall back to ``raw_prompt`` and
   ``reward_model.ground_truth`` as ``prompt`` and ``answer``);
2. scores it with ``bot_repro.trainer.token_reward.score_completions``, the function the TRL
   reward uses: text and token offsets from the sampled ids, the reward source's global score G
   and its line/span signals mapped to per-token S_t (same mapper, same window);
3. returns the split layout [w_g G, w_s S_0, ..., w_s S_{L-1}] (``layout``) under
   ``reward_extra_info[SPLIT_KEY]`` (the ``bot_single_turn`` agent loop moves it into
   ``rm_scores``), ``reward_score`` = its sum, and G, mean S and the source's components as
   ``bot/...`` entries for logging. A rollout without a score (``RewardResult.excluded``) gets a
   row of zeros and ``bot/excluded`` = 1 (``layout.exclusion_info``): the agent loop masks it and
   the estimator drops its group.

Concurrent calls are gathered into one ``source.score`` batch (``reward.bot.batch_wait_s``,
``max_batch``) and batches run one at a time in one thread, so the React checker pool and the
judges see batches as in a TRL run. The stack (source, weights, window, judge) is composed from
bot_repro's conf/ by ``reward.bot.overrides`` (``stack``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from verl import DataProto
from verl.experimental.reward_loop.reward_manager import register
from verl.experimental.reward_loop.reward_manager.base import RewardManagerBase

from bot_repro.config import StackConfig
from bot_repro.integrations.verl.layout import exclusion_info, pack_split
from bot_repro.integrations.verl.stack import build_source, stack_from_config
from bot_repro.trainer.token_reward import score_completions

logger = logging.getLogger(__name__)

NAME = "bot_token"
SPLIT_KEY = "bot_split_rm_scores"  # reward_extra_info key the agent loop turns into rm_scores
ROW_KEY = "bot_row"  # extra_info key holding the task row (JSON)


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def row_from_item(non_tensor: Mapping[str, Any]) -> dict[str, Any]:
    """The bot_repro task row of one verl sample (see the module docstring)."""
    extra = _plain(non_tensor.get("extra_info")) or {}
    if isinstance(extra, Mapping) and ROW_KEY in extra:
        row = extra[ROW_KEY]
        return dict(json.loads(row) if isinstance(row, str) else row)
    row: dict[str, Any] = dict(extra) if isinstance(extra, Mapping) else {}
    if "raw_prompt" in non_tensor:
        row.setdefault("prompt", _plain(non_tensor["raw_prompt"]))
    reward_model = _plain(non_tensor.get("reward_model")) or {}
    if isinstance(reward_model, Mapping) and reward_model.get("ground_truth") is not None:
        row.setdefault("answer", reward_model["ground_truth"])
    if "index" in row:
        row.setdefault("id", row["index"])
    return row


def response_ids_of(data_item) -> list[int]:
    """The sampled response ids of one sample (``responses`` up to its attention mask)."""
    responses = data_item.batch["responses"]
    length = int(data_item.batch["attention_mask"][-responses.shape[-1]:].sum())
    return [int(t) for t in responses[:length].tolist()]


class TokenRewardScorer:
    """Scores (ids, row) pairs with a stack's reward source; the piece of the manager without verl's loop."""

    def __init__(self, stack: StackConfig, tokenizer, run_dir: Path):
        self.stack = stack
        self.tokenizer = tokenizer
        self.source, self.judge = build_source(stack, run_dir)

    def score(self, completion_ids: list[list[int]], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        reward = self.stack.reward
        if self.judge is not None:  # each scored batch gets one step deadline (judge.step_deadline_s)
            self.judge.begin_step()
        batch = score_completions(self.source, self.tokenizer, completion_ids, rows, reward.window)
        w_g, w_s = float(reward.w_g), float(reward.w_s)
        out = []
        for G, S, res in zip(batch.global_rewards, batch.local_rewards, batch.results):
            if res.excluded is not None:  # placeholders: zeros, so no made-up number reaches verl's sums
                G, S = 0.0, np.zeros(len(S))
            split = pack_split(w_g * G, w_s * np.asarray(S, dtype=np.float64))
            n = len(S)
            info: dict[str, Any] = {
                "bot/global": float(G),
                "bot/local_mean": float(np.mean(S)) if n else 0.0,
                "bot/token_reward_mean": float(w_g * G + w_s * np.mean(S)) if n else float(w_g * G),
                "bot/n_tokens": n,
            }
            info.update({f"bot/{k}": float(v) for k, v in res.components.items()})
            info.update(exclusion_info(res.excluded))
            info[SPLIT_KEY] = split
            out.append({"reward_score": float(sum(split)), "reward_extra_info": info})
        excluded = sum(res.excluded is not None for res in batch.results)
        if excluded:
            logger.warning("bot_token: %d of %d rollouts have no score (%s); their groups get no advantage", excluded,
                           len(batch.results), ", ".join(sorted({r.excluded for r in batch.results if r.excluded})))
        if self.judge is not None:
            self.judge.check_replies()  # one WARNING when too many of the batch's replies could not be read
            metrics = self.judge.pop_metrics()
            if metrics:
                logger.info("bot_token judge metrics: %s", metrics)
        return out


@register(NAME)
class BoTTokenRewardManager(RewardManagerBase):
    """Per-token rewards from a bot_repro reward stack (``reward.bot``), for the BoT estimators."""

    def __init__(self, config, tokenizer, compute_score=None, reward_router_address=None,
                 reward_model_tokenizer=None, **_unused):
        super().__init__(config, tokenizer, compute_score)
        bot_cfg = _plain(dict(config.reward.get("bot") or {}))
        stack = stack_from_config(bot_cfg)
        run_dir = Path(bot_cfg.get("run_dir") or "runs/verl/bot_reward")
        run_dir.mkdir(parents=True, exist_ok=True)
        self.scorer = TokenRewardScorer(stack, tokenizer, run_dir)
        self.batch_wait_s = float(bot_cfg.get("batch_wait_s", 0.05))
        self.max_batch = int(bot_cfg.get("max_batch", 64))
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot_token")
        self._pending: list[tuple[list[int], dict[str, Any], asyncio.Future]] = []
        self._timer: asyncio.TimerHandle | None = None

    async def run_single(self, data: DataProto) -> dict:
        item = data[-1]  # multi-output trajectories: the last output, as verl's naive manager
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._pending.append((response_ids_of(item), row_from_item(item.non_tensor_batch), future))
        if len(self._pending) >= self.max_batch:
            self._flush()
        elif self._timer is None:
            self._timer = loop.call_later(self.batch_wait_s, self._flush)
        return await future

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        batch, self._pending = self._pending, []
        if batch:
            asyncio.get_running_loop().create_task(self._score(batch))

    async def _score(self, batch) -> None:
        ids, rows, futures = zip(*batch)
        try:
            results = await asyncio.get_running_loop().run_in_executor(self._pool, self.scorer.score, list(ids),
                                                                       list(rows))
        except Exception as exc:  # every waiting sample sees the error
            for fut in futures:
                if not fut.done():
                    fut.set_exception(exc)
            return
        for fut, res in zip(futures, results):
            if not fut.done():
                fut.set_result(res)
