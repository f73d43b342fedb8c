"""The policy's distance from its start (bot_repro/trainer/drift.py) on hand-computed values: the KL
estimators, the LoRA low-rank distance against the matrices formed, the relative distance of a full and
a LoRA model (against peft's own merged weights), and the start-weights forward, which leaves the
model's tensors and the loss's graph alone."""

from __future__ import annotations

import copy
import math
from types import SimpleNamespace

import pytest
import torch
from torch import nn

from bot_repro.config import DriftCfg
from bot_repro.trainer.drift import PolicyDrift, at_start, kl_terms, low_rank_delta_sq, split_lora


def test_kl_terms_by_hand():
    logp = torch.tensor([[-1.0, -2.0, 0.0]])
    logp0 = torch.tensor([[-1.5, -1.0, 9.0]])  # the last token is padding
    k3, k1, n = kl_terms(logp, logp0, torch.tensor([[1, 1, 0]])).tolist()
    # d = logp0 - logp = (-0.5, 1): k3 = sum(exp(d) - d - 1), k1 = sum(-d)
    assert k3 == pytest.approx((math.exp(-0.5) - 0.5) + (math.e - 2), rel=1e-12)
    assert (k1, n) == (-0.5, 2.0)
    same = kl_terms(logp, logp.clone(), torch.ones(1, 3))
    assert same.tolist() == [0.0, 0.0, 3.0]  # no movement: exactly 0


def test_low_rank_delta_by_hand_and_against_the_formed_matrices():
    a, b = torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0], [0.0]])
    a0, b0 = torch.tensor([[0.0, 1.0]]), torch.tensor([[1.0], [0.0]])
    assert low_rank_delta_sq(a, b, a0, b0) == pytest.approx(2.0)  # BA - B0A0 = [[1, -1], [0, 0]]
    gen = torch.Generator().manual_seed(0)
    a, a0 = torch.randn(3, 7, generator=gen), torch.randn(3, 7, generator=gen)
    b, b0 = torch.randn(5, 3, generator=gen), torch.randn(5, 3, generator=gen)
    formed = float(((b.double() @ a.double()) - (b0.double() @ a0.double())).square().sum())
    assert low_rank_delta_sq(a, b, a0, b0) == pytest.approx(formed, rel=1e-10)
    # a small step from a large start: no cancellation (the terms are of the step's size)
    a1 = a + 1e-6 * torch.randn(3, 7, generator=gen)
    formed = float((b.double() @ (a1.double() - a.double())).square().sum())
    assert low_rank_delta_sq(a1, b, a, b) == pytest.approx(formed, rel=1e-6)
    assert low_rank_delta_sq(a, b, a.clone(), b.clone()) == 0.0


def test_split_lora_pairs_factors_and_keeps_the_rest():
    names = ["m.q.lora_A.default.weight", "m.q.lora_B.default.weight", "m.emb.lora_embedding_A.default",
             "m.emb.lora_embedding_B.default", "m.k.lora_A.default.weight", "m.norm.weight"]
    pairs, other = split_lora(names)
    assert pairs == {("m.q", "default"): {"A": names[0], "B": names[1]},
                     ("m.emb", "default"): {"A": names[2], "B": names[3]}}
    assert other == ["m.norm.weight", "m.k.lora_A.default.weight"]  # an unpaired factor counts as itself


def test_full_model_relative_distance_by_hand():
    model = nn.Linear(2, 2)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[3.0, 0.0], [0.0, 4.0]]))
    model.bias.requires_grad_(False)  # frozen: not measured
    drift = PolicyDrift(model, DriftCfg())
    assert drift.start_norm == 5.0 and drift.weight_delta(model) == 0.0
    with torch.no_grad():
        model.weight[1, 1] += 1.0
        model.bias += 100.0
    assert drift.weight_delta(model) == pytest.approx(0.2) and drift.last == pytest.approx(0.2)


def _lora_model(seed: int):
    peft = pytest.importorskip("peft")
    torch.manual_seed(seed)
    base = nn.Sequential(nn.Embedding(6, 4), nn.Linear(4, 3), nn.Linear(3, 2))
    config = peft.LoraConfig(r=2, lora_alpha=4, target_modules=["0", "1", "2"], init_lora_weights=True)
    return peft.get_peft_model(base, config)


def _effective(model) -> dict[str, torch.Tensor]:
    """Each wrapped module's W + s B A, formed by peft (``get_delta_weight``: linear and embedding alike)."""
    with torch.no_grad():
        return {name: (mod.get_base_layer().weight + mod.get_delta_weight("default")).double()
                for name, mod in model.named_modules() if hasattr(mod, "get_delta_weight")}


@pytest.mark.parametrize("fresh", [True, False])
def test_lora_distance_is_that_of_the_effective_weights(fresh):
    model = _lora_model(0)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        if not fresh:  # a starting adapter: B_0 != 0
            for name, p in model.named_parameters():
                if "lora_" in name:
                    p.copy_(torch.randn(p.shape, generator=gen))
    start = _effective(model)
    drift = PolicyDrift(model, DriftCfg())
    assert set(drift.pairs) == {(f"base_model.model.{i}", "default") for i in range(3)} and drift.other == []
    assert drift.weight_delta(model) == 0.0
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_" in name:
                p.add_(0.01 * torch.randn(p.shape, generator=gen))
    now = _effective(model)
    want = math.sqrt(sum(float((now[k] - start[k]).square().sum()) for k in start))
    want /= math.sqrt(sum(float(start[k].square().sum()) for k in start))
    assert want > 0 and drift.weight_delta(model) == pytest.approx(want, rel=1e-5)  # peft forms it in float32


def test_the_start_forward_uses_the_start_and_leaves_the_model_and_its_graph_alone():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
    frozen_start = copy.deepcopy(model)
    drift = PolicyDrift(model, DriftCfg())
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1)
    x = torch.randn(5, 3)
    reference = copy.deepcopy(model)
    ref_loss = reference(x).square().sum()
    ref_loss.backward()
    loss = model(x).square().sum()  # the loss's graph is alive while the start forward runs
    with torch.no_grad(), at_start(model, drift.start) as start:
        out0 = start(x)
    loss.backward()
    assert torch.equal(out0, frozen_start(x).detach())
    assert torch.equal(model(x), reference(x))  # the model's own weights are unchanged
    for p, q in zip(model.parameters(), reference.parameters()):
        assert torch.equal(p.grad, q.grad)


def test_the_kl_scores_a_share_of_due_steps_rollouts_of_the_current_weights():
    from bot_repro.trainer.bot_trainer import BoTGRPOTrainer

    drift = PolicyDrift(nn.Linear(2, 2), DriftCfg(kl_every=2, kl_share=0.3))
    # 10 rollouts per process and step, in micro-batches of 3 (the last one short): kl_share 0.3 scores 3
    args = SimpleNamespace(per_device_train_batch_size=3, steps_per_generation=10 / 3)
    trainer = SimpleNamespace(drift=drift, state=SimpleNamespace(global_step=1), model=nn.Linear(1, 1), sampled_at=1,
                              args=args)
    batch = {"completion_ids": torch.zeros(3, 5), "completion_mask": torch.tensor([[1, 1, 0], [0, 0, 0], [1, 0, 0]])}

    def rows():
        return BoTGRPOTrainer._kl_rows(trainer, batch).tolist()

    assert rows() == [0, 2]  # step 2 is due (kl_every=2); row 1 has no token that trains (a dropped group)
    drift.kl_rows = 2
    assert rows() == [0]
    drift.kl_rows = 3
    assert rows() == []
    drift.kl_rows = 0
    batch["tool_mask"] = torch.tensor([[1, 1, 1], [1, 1, 1], [0, 0, 0]])  # tokens that train: the loss's mask
    assert rows() == [0]
    del batch["tool_mask"]
    trainer.sampled_at = 0  # rollouts sampled before the last update (num_iterations > 1): not the policy's own
    assert rows() == []
    trainer.sampled_at = trainer.state.global_step = 0  # step 1: not due
    assert rows() == []
    trainer.sampled_at = trainer.state.global_step = 3
    trainer.model.eval()  # TRL's evaluation, not training
    assert rows() == []
    trainer.model.train()
    assert rows() == [0, 2]
    drift.cfg = DriftCfg(kl_share=1.0)
    assert [drift.rows_left(10), drift.rows_left(1)] == [10, 1]
    drift.cfg = DriftCfg(kl_share=0.01)
    assert drift.rows_left(10) == 1  # rounded up: a KL step scores at least one rollout
    assert DriftCfg().kl_share * 8 == 2  # the default: 2 of real_study's 8 rollouts per step
    trainer.drift = None  # trainer.drift.enabled=false
    assert rows() == []
