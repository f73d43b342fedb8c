"""GPU check (issue #16) -> ``results/bench/gpu.json``: the real training path on one GPU.

Builds the Qwen2.5-3B architecture with random weights from its published config values (hidden
2048, 36 layers, 16 heads, 2 KV heads, intermediate 11008, vocab 151,936, bf16, tied embeddings)
and a byte-level BPE tokenizer trained here (``bot_repro.models.tiny.build_tokenizer``) on the
mini task's corpus plus synthetic words, so no download is needed. Then, for each completion
length (256 and 1024), it times training steps of

- ours: ``algorithm=bot_grpo`` composed from ``conf/`` with Hydra overrides and built by
  ``bot_repro.trainer.build.build_trainer``, the function ``bot_repro.train.run`` calls;
- vanilla TRL ``GRPOTrainer``: the same ``GRPOConfig`` object (so the same seed, batch shape,
  loss and settings), the same data set and the same reward source, with TRL's own
  sequence-level advantages and a plain reward function (decode, score, return G), as in
  ``bench/core.py`` and ``tests/integration/test_trl_equivalence.py``.

8 prompts x 8 rollouts per step, generation with transformers' ``generate`` (vLLM cannot travel to
the lent machine), gradient checkpointing on, micro-batches of 16 (4 accumulation steps, one
generation per optimizer step). A random policy almost never samples EOS, so every completion runs
to the full length and both trainers see the same token counts.

Per step it reports (median over the timed steps, after the warm-up steps): ``generation_s``
(``_generate``), ``scoring_s`` (``_calculate_rewards``: our token reward mapping included),
``advantage_s`` (ours: ``compute_advantages``; TRL's group normalisation is inline, so it falls into
``prep_other_s``), ``fwd_bwd_s`` (``training_step`` minus generation-and-scoring, i.e. every
micro-batch's forward and backward), ``optimizer_other_s`` (the rest of the step: clip, optimizer,
logging), peak GPU memory, tokens/s, and the MFU of the training pass. TRL logs no phase times of its
own (its ``profiling_context`` reports to wandb/mlflow only), so the phases are timed by wrapping
these methods on the trainer instance, with ``torch.cuda.synchronize()`` on both sides of each.

It also times our advantage computation (``compute_advantages("bot_grpo", ...)`` with the options
the trainer used) at B = 64, T = 2048..32768 on the GPU against one elementwise add of the same
[B, T] size (the memory floor).

``--dry-run`` runs the same code on CPU with a tiny model of the same architecture class, 2 steps
per trainer and short completions (``tests/integration/test_bench_gpu.py``).

Usage, from the repository root: ``python -m bench.gpu [--out results/bench/gpu.json]`` (GPU) or
``python -m bench.gpu --dry-run --out /tmp/gpu.json``. bench/README.md has the device command.

The package: ``plan`` (architectures and plans), ``model`` (the random-init model and tokenizer),
``trainers`` (ours and vanilla TRL), ``timing`` (phase timers, MFU, the advantage timing),
``provenance`` (machine and versions) and ``cli`` (the command line and run order).
"""

from bench.gpu.cli import main, parse, timed_steps_that_fit
from bench.gpu.plan import DRY_PLAN, GPU_PLAN, QWEN25_3B, TINY, Plan
from bench.gpu.timing import PEAK_BF16_TFLOPS, PhaseTimer, peak_flops, time_advantages, time_trainer

__all__ = [
    "DRY_PLAN",
    "GPU_PLAN",
    "PEAK_BF16_TFLOPS",
    "QWEN25_3B",
    "TINY",
    "PhaseTimer",
    "Plan",
    "main",
    "parse",
    "peak_flops",
    "time_advantages",
    "time_trainer",
    "timed_steps_that_fit",
]
