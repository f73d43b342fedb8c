"""Checks of the verl plugin that run inside .venv-verl (verl 0.9.1 and its own stack).

``tests/integration/test_verl.py`` runs this file with ``.venv-verl/bin/python -m pytest`` (the
file name keeps the main suite, whose venv has no verl, from collecting it). verl imports on CPU;
its workers need GPUs, so nothing here starts a rollout: the checks drive verl's own advantage
dispatch (``compute_advantage``, the v1 trainer's ``compute_advantage_for_multi_trajectories``),
its batch containers (``DataProto``, TransferQueue's ``list_of_dict_to_tensordict`` and
``to_padded_tensor``), its ``AgentLoopOutput.as_dict`` and its config schema, with our plugin.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

verl = pytest.importorskip("verl")

from omegaconf import OmegaConf, open_dict  # noqa: E402
from verl import DataProto  # noqa: E402
from verl.experimental.agent_loop.agent_loop import AgentLoopOutput  # noqa: E402
from verl.trainer.ppo.ray_trainer import compute_advantage  # noqa: E402
from verl.trainer.ppo.v1.utils import compute_advantage_for_multi_trajectories  # noqa: E402
from verl.utils.tensordict_utils import list_of_dict_to_tensordict  # noqa: E402

from bot_repro.algorithms import ADVANTAGES  # noqa: E402
from bot_repro.config_schema import ConfigError  # noqa: E402
from bot_repro.integrations.verl.agent_loop import as_split_output  # noqa: E402
from bot_repro.integrations.verl.data import verl_row, write_task  # noqa: E402
from bot_repro.integrations.verl.layout import LayoutError, pack_split  # noqa: E402
from bot_repro.integrations.verl.reward_manager import (  # noqa: E402
    SPLIT_KEY,
    BoTTokenRewardManager,
    row_from_item,
)
from bot_repro.integrations.verl.stack import build_source, compose_stack, stack_from_config  # noqa: E402
from bot_repro.trainer.token_reward import TokenRewardFunction  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
CONF_VERL = REPO / "conf" / "verl"
OPTIONS = {
    "bot_grpo": {"std": "population", "weighting": "inverse_length", "zero_std": "zero"},
    "ps_grpo": {"std": "population", "reduce": "mean"},
    "pure": {"temperature": 0.1, "whiten": False},
}


def verl_config(name: str = "bot_grpo_react", **algorithm):
    """One of conf/verl/*.yaml composed against verl 0.9.1's ppo_trainer, as main_ppo composes it."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_VERL), version_base=None):
        cfg = compose(config_name=name)
    with open_dict(cfg):
        for key, value in algorithm.items():
            cfg.algorithm[key] = value
    return cfg


# ---- the entry point -------------------------------------------------------------------------

PROBE = """
import json, sys
import verl
loaded = "bot_repro.integrations.verl.plugin" in sys.modules
from verl.trainer.ppo.core_algos import ADV_ESTIMATOR_REGISTRY as A
from verl.experimental.reward_loop.reward_manager.registry import REWARD_MANAGER as R
from verl.experimental.agent_loop.agent_loop import _agent_loop_registry as L
print(json.dumps({
    "loaded": loaded,
    "estimators": {n: getattr(A.get(n), "__module__", None) for n in ("bot_grpo", "ps_grpo", "pure")},
    "reward_manager": getattr(R.get("bot_token"), "__module__", None),
    "agent_loop": L.get("bot_single_turn", {}).get("_target_"),
}))
"""


def _probe(**env) -> dict:
    full_env = {**os.environ, **env}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", PROBE], capture_output=True, text=True,
                         env=full_env, cwd="/", timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_plugin_is_discovered_through_the_entry_point():
    from importlib.metadata import entry_points

    eps = {ep.name: ep.value for ep in entry_points(group="verl.plugins")}
    assert eps.get("bot_repro") == "bot_repro.integrations.verl.plugin"
    # a fresh interpreter that only imports verl, from outside the checkout: verl loads the plugin itself
    found = _probe(VERL_USE_EXTERNAL_PLUGINS="auto")
    assert found["loaded"], "verl did not import bot_repro's plugin (a failing plugin is only logged at DEBUG)"
    assert found["estimators"] == {n: "bot_repro.integrations.verl.estimators" for n in OPTIONS}
    assert found["reward_manager"] == "bot_repro.integrations.verl.reward_manager"
    assert found["agent_loop"] == "bot_repro.integrations.verl.agent_loop.BoTSingleTurnAgentLoop"
    # and it was the entry point: with plugin discovery off, nothing of ours is registered
    off = _probe(VERL_USE_EXTERNAL_PLUGINS="none")
    assert not off["loaded"] and off["estimators"] == {n: None for n in OPTIONS}


# ---- verl's advantage dispatch == the registry --------------------------------------------------


def _ragged_batch(K: int, n_groups: int, seed: int, w_g: float, w_s: float):
    """Reference (contiguous groups, unweighted G, S) and verl's view (split layout, shuffled uids)."""
    gen = torch.Generator().manual_seed(seed)
    B = K * n_groups
    T = 12
    lengths = torch.randint(1, T + 1, (B,), generator=gen)
    lengths[torch.randint(0, B, (1,), generator=gen)] = 1  # a one-token response
    mask = (torch.arange(T)[None, :] < lengths[:, None]).float()
    G = torch.randint(-2, 3, (B,), generator=gen).float() / 2
    S = (torch.rand(B, T, generator=gen) - 0.7).clamp(min=0) * -1.5 * mask  # sparse penalties
    S[::3] += 0.25 * mask[::3]
    uids = np.array([f"prompt-{seed}-{g}" for g in range(n_groups) for _ in range(K)], dtype=object)
    rows = [pack_split(w_g * float(G[i]), (w_s * S[i, : lengths[i]].double()).tolist()) for i in range(B)]
    perm = torch.randperm(B, generator=gen)
    tlr = torch.zeros(B, T + 1)
    for j, i in enumerate(perm.tolist()):
        tlr[j, : len(rows[i])] = torch.tensor(rows[i])
    return G, S, mask, uids, perm, tlr


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("K", [2, 4, 8])
def test_compute_advantage_dispatch_matches_registry(name, K):
    w_g, w_s = 3.0, 0.5
    cfg = verl_config(adv_estimator=name, bot_options=OPTIONS[name])
    for seed in range(3):
        G, S, mask, uids, perm, tlr = _ragged_batch(K, n_groups=5, seed=seed + 10 * K, w_g=w_g, w_s=w_s)
        expected = ADVANTAGES[name](G, S, mask, K, w_g=w_g, w_s=w_s, **OPTIONS[name])
        data = DataProto.from_dict(
            tensors={"token_level_rewards": tlr, "response_mask": mask[perm]},
            non_tensors={"uid": uids[perm.numpy()]},
        )
        out = compute_advantage(data, adv_estimator=cfg.algorithm.adv_estimator, config=cfg.algorithm)
        torch.testing.assert_close(out.batch["advantages"], expected[perm], atol=1e-6, rtol=1e-6)
        torch.testing.assert_close(out.batch["returns"], expected[perm], atol=1e-6, rtol=1e-6)
        assert torch.all(out.batch["advantages"][mask[perm] == 0] == 0)

        # the v1 trainer's entry (keys uid_session_index) delegates to the same dispatch
        keys = [f"{u}_{j}_0" for j, u in enumerate(uids[perm.numpy()])]
        data2 = DataProto.from_dict(tensors={"token_level_rewards": tlr.clone(), "response_mask": mask[perm]},
                                    non_tensors={"uid": uids[perm.numpy()]})
        out2 = compute_advantage_for_multi_trajectories(data2, keys, adv_estimator=name, config=cfg.algorithm)
        torch.testing.assert_close(out2.batch["advantages"], expected[perm], atol=1e-6, rtol=1e-6)


def test_verl_padding_rows_are_ignored_and_uneven_groups_rejected():
    K, w_g, w_s = 4, 1.0, 0.2
    cfg = verl_config(adv_estimator="bot_grpo", bot_options=OPTIONS["bot_grpo"])
    G, S, mask, uids, perm, tlr = _ragged_batch(K, n_groups=3, seed=7, w_g=w_g, w_s=w_s)
    expected = ADVANTAGES["bot_grpo"](G, S, mask, K, w_g=w_g, w_s=w_s, **OPTIONS["bot_grpo"])[perm]
    # verl's upsample_batch_to_divisible_size: rows with one EOS token, response_mask 0, one shared pad uid
    n_pad = 3
    tlr_p = torch.cat([tlr, torch.zeros(n_pad, tlr.shape[1])])
    mask_p = torch.cat([mask[perm], torch.zeros(n_pad, mask.shape[1])])
    uids_p = np.concatenate([uids[perm.numpy()], np.array(["pad0123"] * n_pad, dtype=object)])
    data = DataProto.from_dict(tensors={"token_level_rewards": tlr_p, "response_mask": mask_p},
                               non_tensors={"uid": uids_p})
    adv = compute_advantage(data, adv_estimator="bot_grpo", config=cfg.algorithm).batch["advantages"]
    torch.testing.assert_close(adv[: len(perm)], expected, atol=1e-6, rtol=1e-6)
    assert torch.all(adv[len(perm):] == 0)

    uneven = DataProto.from_dict(tensors={"token_level_rewards": tlr[:-1], "response_mask": mask[perm][:-1]},
                                 non_tensors={"uid": uids[perm.numpy()][:-1]})
    with pytest.raises(ValueError, match="uneven group sizes"):
        compute_advantage(uneven, adv_estimator="bot_grpo", config=cfg.algorithm)

    # verl's default placement (scalar on the last token, response-aligned) is refused, not misread
    aligned = DataProto.from_dict(tensors={"token_level_rewards": tlr[:, 1:], "response_mask": mask[perm]},
                                  non_tensors={"uid": uids[perm.numpy()]})
    with pytest.raises(LayoutError, match="split layout"):
        compute_advantage(aligned, adv_estimator="bot_grpo", config=cfg.algorithm)


def test_estimator_options_are_checked():
    G, S, mask, uids, perm, tlr = _ragged_batch(2, n_groups=2, seed=1, w_g=1.0, w_s=1.0)
    for bad, match in (({"w_g": 2.0}, "reward manager applies w_g"), ({"temperature": 0.1}, "unknown option"),
                       ({"zero_std": "drop"}, "filter_groups")):
        cfg = verl_config(adv_estimator="bot_grpo", bot_options=bad)
        data = DataProto.from_dict(tensors={"token_level_rewards": tlr, "response_mask": mask[perm]},
                                   non_tensors={"uid": uids[perm.numpy()]})
        with pytest.raises(ConfigError, match=match):
            compute_advantage(data, adv_estimator="bot_grpo", config=cfg.algorithm)


# ---- configs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name,source", [("bot_grpo_react", "react"), ("bot_grpo_aime", "aime")])
def test_verl_configs_pass_verl_validation_and_name_our_stack(name, source):
    from verl.utils.config import validate_config

    cfg = verl_config(name)
    validate_config(cfg, use_reference_policy=False, use_critic=False)
    assert cfg.algorithm.adv_estimator == "bot_grpo" and not cfg.algorithm.use_kl_in_reward
    assert cfg.reward.reward_manager.name == "bot_token"
    assert cfg.actor_rollout_ref.rollout.agent.default_agent_loop == "bot_single_turn"
    assert cfg.actor_rollout_ref.rollout.n == 8 and cfg.data.train_batch_size == 8
    assert cfg.actor_rollout_ref.actor.loss_agg_mode == "seq-mean-token-mean"
    stack = stack_from_config(OmegaConf.to_container(cfg.reward.bot, resolve=True))
    assert stack.reward.source == source
    assert stack == compose_stack(list(cfg.reward.bot.overrides))  # the TRL path's equal: test_verl.py


# ---- the reward manager == the TRL path --------------------------------------------------------


def _corrupt(text: str, i: int) -> str:
    return [text, text[:-4], text + "<b>", text.replace("</", "<", 1), "plain words " + text][i % 5]


def _mini_batch(tok, K: int, n_prompts: int):
    from bot_repro.tasks.base import build_task
    from bot_repro.tasks.mini.checker import solution

    stack = compose_stack(["task=mini", "reward=mini_progress", "task.params.n_train=16", "task.params.n_test=4",
                           "task.params.warm_start=false"])
    task, _ = build_task(stack, with_reward=False)
    rows = task.datasets()[0][:n_prompts]
    texts, all_rows = [], []
    for g, row in enumerate(rows):
        for k in range(K):
            texts.append(_corrupt(solution(row["document"]), g + k))
            all_rows.append(row)
    ids = [tok(t, add_special_tokens=False)["input_ids"] + [tok.eos_token_id] for t in texts]
    return stack, all_rows, texts, ids


def _agent_loop_sample(prompt_ids, response_ids, verl_row_dict, uid):
    """The one-trajectory DataProto verl's agent loop hands the reward loop (AgentLoopWorker._compute_score)."""
    prompts = torch.tensor(prompt_ids)
    responses = torch.tensor(response_ids)
    input_ids = torch.cat([prompts, responses])
    attention = torch.ones_like(input_ids)
    kwargs = {**verl_row_dict, "raw_prompt": verl_row_dict["prompt"], "uid": uid}
    non_tensor = {k: np.array([v], dtype=object) if not isinstance(v, str) else np.array([v]) for k, v in kwargs.items()}
    non_tensor["__num_turns__"] = np.array([2])
    return DataProto.from_dict(
        tensors={"prompts": prompts[None], "responses": responses[None], "input_ids": input_ids[None],
                 "attention_mask": attention[None], "position_ids": torch.arange(len(input_ids))[None]},
        non_tensors=non_tensor,
    )


def test_reward_manager_gives_the_trl_token_rewards_and_advantages(tmp_path):
    from bot_repro.models.tiny import build_tokenizer

    tok = build_tokenizer(["<a><b></b><c></c></a> </d></e></f> plain words"], vocab_size=300)
    K = 4
    stack, rows, texts, ids = _mini_batch(tok, K=K, n_prompts=3)

    # the TRL path: TokenRewardFunction on the same sampled ids
    source, _ = build_source(stack, tmp_path)
    trl_fn = TokenRewardFunction(source, tok, stack.reward.window)
    columns = {k: [r[k] for r in rows] for k in rows[0] if k != "prompt"}
    trl_fn([r["prompt"] for r in rows], texts, ids, **columns)
    trl = trl_fn.pop()
    assert trl.texts == [tok.decode(i, skip_special_tokens=True) for i in ids]
    assert any(np.any(s != 0) for s in trl.local_rewards), "the batch should carry local rewards"

    # the verl path: the reward manager on the agent loop's samples, all in flight at once
    cfg = OmegaConf.create({"reward": {"bot": {"overrides": ["task=mini", "reward=mini_progress"],
                                                "run_dir": str(tmp_path / "rm"), "batch_wait_s": 0.01}}})
    manager = BoTTokenRewardManager(cfg, tok)
    prompt_ids = tok("<|im_start|>user\nclose<|im_end|>\n", add_special_tokens=False)["input_ids"]
    uids = [f"u{i // K}" for i in range(len(ids))]
    samples = [_agent_loop_sample(prompt_ids, ids[i], verl_row(rows[i], "mini", "train", i), uids[i])
               for i in range(len(ids))]
    assert row_from_item(samples[0][0].non_tensor_batch) == json.loads(json.dumps(rows[0], default=str))

    async def run_all():
        return await asyncio.gather(*(manager.run_single(s) for s in samples))

    results = asyncio.run(run_all())
    for res, G, S in zip(results, trl.global_rewards, trl.local_rewards):
        split = res["reward_extra_info"][SPLIT_KEY]
        assert split == pack_split(stack.reward.w_g * G, (stack.reward.w_s * np.asarray(S)).tolist())
        assert res["reward_extra_info"]["bot/global"] == G
        assert res["reward_score"] == pytest.approx(sum(split))

    # the agent loop output carries them into rm_scores; TransferQueue stores and pads them
    fields = []
    for i, res in enumerate(results):
        out = as_split_output(AgentLoopOutput(prompt_ids=prompt_ids, response_ids=ids[i],
                                              response_mask=[1] * len(ids[i]), num_turns=2, metrics={}))
        out.reward_score = res["reward_score"]  # what AgentLoopWorker._compute_score assigns
        out.extra_fields["reward_extra_info"] = res["reward_extra_info"]
        field = out.as_dict()
        assert SPLIT_KEY not in field["extra_fields"]["reward_extra_info"]  # not logged as a list
        assert field["rm_scores"].tolist() == pytest.approx(res["reward_extra_info"][SPLIT_KEY], abs=1e-6)
        fields.append({"rm_scores": field["rm_scores"], "response_mask": field["response_mask"],
                       "responses": field["responses"]})
    padded = list_of_dict_to_tensordict(fields).to_padded_tensor()
    data = DataProto(batch=padded)
    data.batch["token_level_rewards"] = data.batch["rm_scores"]
    data.non_tensor_batch["uid"] = np.array(uids, dtype=object)
    cfg_v = verl_config(adv_estimator="bot_grpo", bot_options=OPTIONS["bot_grpo"])
    adv = compute_advantage(data, adv_estimator="bot_grpo", config=cfg_v.algorithm).batch["advantages"]

    T = max(len(i) for i in ids)
    mask = torch.zeros(len(ids), T)
    local = torch.zeros(len(ids), T)
    for i, s in enumerate(trl.local_rewards):
        mask[i, : len(s)] = 1
        local[i, : len(s)] = torch.as_tensor(s, dtype=torch.float32)
    expected = ADVANTAGES["bot_grpo"](torch.tensor(trl.global_rewards), local, mask, K, w_g=stack.reward.w_g,
                                      w_s=stack.reward.w_s, **OPTIONS["bot_grpo"])
    torch.testing.assert_close(adv, expected, atol=1e-6, rtol=1e-6)


def test_data_prep_writes_rows_the_reward_manager_reads(tmp_path):
    import pandas as pd

    counts = write_task(["task=mini", "task.params.n_train=12", "task.params.n_test=4",
                         "task.params.warm_start=false"], tmp_path)
    assert counts == {"train": 12, "test": 4}
    df = pd.read_parquet(tmp_path / "train.parquet")
    assert set(df["agent_name"]) == {"bot_single_turn"} and set(df["data_source"]) == {"bot_repro/mini"}
    first = df.iloc[0].to_dict()
    row = row_from_item(first)
    assert row["document"] and row["prompt"][0]["content"] == first["prompt"][0]["content"]
    assert json.loads((tmp_path / "stack.json").read_text())["reward"]["source"] == "mini"

    # verl's own dataset reads the files; what it hands the agent loop gives the reward manager the task row
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from bot_repro.models.tiny import build_tokenizer

    ds = RLHFDataset(data_files=str(tmp_path / "train.parquet"), tokenizer=build_tokenizer(None, 300),
                     config=verl_config().data)
    item = ds[0]
    assert item["agent_name"] == "bot_single_turn"
    assert row_from_item(item) == json.loads(first["extra_info"]["bot_row"]) == row
