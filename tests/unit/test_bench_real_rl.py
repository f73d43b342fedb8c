"""``bench/real_rl.py``'s FLOP count (#51), against a hand count on a toy config."""

from __future__ import annotations

from bench.real_rl import flops


def test_flops_per_rollout_by_hand():
    # h 4, 1 layer, I 8, vocab 10, 2 query heads of 2, 1 kv head: q 4, kv 2
    config = {"hidden_size": 4, "num_hidden_layers": 1, "intermediate_size": 8, "vocab_size": 10,
              "num_attention_heads": 2, "num_key_value_heads": 1}
    got = flops(config, prompt=8, completion=4, k=2, lora_r=1)
    # N_body = 4 (4 + 2 * 2) + 4 * 4 + 3 * 4 * 8 = 144; N_head = 40; attention 4 q layers = 16 per token x context
    assert (got["n_body"], got["n_head"]) == (144, 40)
    assert got["generation_prefill"] == 4 * 288 + 16 * 4 * 4  # P/K = 4 tokens at context P/2 = 4
    assert got["generation"] == got["generation_prefill"] + 4 * (288 + 80) + 16 * 4 * 10  # context P + C/2
    assert got["loss_forward"] == 8 * 288 + 4 * 80 + 16 * 8 * 8  # P/K + C tokens, C scored, context P
    # LoRA's in + out over the 7 adapted layers: 8 + 2*6 + 8 + 2*12 + 12 = 64; x 2 r, x 2 (A and B grads)
    assert got["backward"] == got["loss_forward"] + 2 * 2 * 1 * 64 * 8
    assert got["total"] == 12864
