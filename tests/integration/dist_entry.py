"""Training runs with test-only instruments, as one process or under torchrun (every rank the same).

``python dist_entry.py <spec.json>``: the spec lists runs ``{"name", "overrides", "env"}``; each is
composed from conf/ and trained in this process by ``bot_repro.train.run`` into ``<spec dir>/<name>``,
one after the other (one interpreter and one process group for all: seconds per run, not a
launch each). Used by tests/integration/test_distributed.py. A run's ``env`` switches:

- ``BOT_REPRO_TEST_INJECT=1``: generation is replaced by completions that depend only on the
  rollout's prompt and its place in its group (ragged lengths; every fourth prompt's group is
  identical, so it has no learning signal): sampling plays no part, so a one-process run and a
  run over N ranks see the same rollouts.
- ``BOT_REPRO_TEST_RECORD=1``: rank 0 saves to ``<name>.pt``, per optimizer step, every rollout's completion
  ids, mask and advantages (gathered from all ranks, in global order), the logged loss, the
  gradient (after DDP's all-reduce) and, per rank, DAPO's rounds.
- ``BOT_REPRO_TEST_BREAK=gather|slice``: break the cross-rank gather (each rank sees copies of its
  own rollouts as the batch) or the rank slice (every rank takes rank 0's rows), to show that the
  equivalence test catches either.
- ``BOT_REPRO_TEST_DIE=<rank>:<step>``: that rank exits with code 3 when it reaches that step.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import torch
from transformers import TrainerCallback

from bot_repro.tasks.mini.checker import solution
from bot_repro.trainer.bot_trainer import BoTGRPOTrainer

TRUE_GATHER = BoTGRPOTrainer._gather_padded  # the recorder's, whatever BOT_REPRO_TEST_BREAK does


def _completion(tok, document: str, j: int, max_len: int) -> list[int]:
    closers = solution(document).replace("></", ">\n</").split("\n") if solution(document) else []
    h = int(hashlib.sha256(document.encode()).hexdigest(), 16)
    if h % 4 == 0:
        j = 0  # an identical group: no signal (DAPO drops it and draws again)
    variants = [
        closers,  # right
        closers[:-1],  # stops one closer early
        closers + ["</x>"],  # one closer too many
        ["</q>"] + closers[1:],  # a wrong name first
    ]
    text = "".join(variants[(j + h) % len(variants)])
    ids = tok(text, add_special_tokens=False)["input_ids"][: max_len - 1]
    return ids + [tok.eos_token_id]


def _fake_generate(self, prompt_ids, images, multimodal_fields, num_generations, has_tool_images=False):
    tok, b = self.processing_class, len(prompt_ids)
    out = []
    for i, ids in enumerate(prompt_ids):
        row = self.accelerator.process_index * b + i  # the rollout's place in the global batch
        document = tok.decode(ids).split("<|im_start|>user\n")[-1].split("<|im_end|>")[0]
        out.append(_completion(tok, document, row % self.num_generations, self.args.max_completion_length))
    return out, None


class _Rank0View:
    """The accelerator, except that every rank believes it is rank 0 (breaks the rank slice)."""

    def __init__(self, acc):
        self._acc = acc

    def __getattr__(self, name):
        return 0 if name == "process_index" else getattr(self._acc, name)


def _install_breaks(kind: str) -> None:
    if kind == "gather":
        def local_only(self, *tensors):  # every rank's "global" batch is copies of its own rows
            n = self.accelerator.num_processes
            return [torch.cat([t] * n) for t in tensors]

        BoTGRPOTrainer._gather_padded = local_only
    elif kind == "slice":
        original = BoTGRPOTrainer._score_round

        def rank0_slice(self, inputs):
            acc = self.accelerator
            self.accelerator = _Rank0View(acc)
            try:
                return original(self, inputs)
            finally:
                self.accelerator = acc

        BoTGRPOTrainer._score_round = rank0_slice
    elif kind:
        raise SystemExit(f"BOT_REPRO_TEST_BREAK={kind!r}: valid are gather, slice")


class _Recorder(TrainerCallback):
    def __init__(self, trainer, path):
        self.trainer, self.path, self.steps = trainer, path, []
        self.current: dict = {}

    def on_pre_optimizer_step(self, args, state, control, model=None, **kw):
        grads = [p.grad.detach().flatten() for p in self.trainer.model.parameters() if p.grad is not None]
        self.current["grad"] = torch.cat(grads).clone()

    def on_log(self, args, state, control, logs=None, **kw):
        if logs and "loss" in logs:
            self.current["loss"] = float(logs["loss"])
            self.current["step"] = state.global_step
            self.steps.append(self.current)
            self.current = {}

    def on_train_end(self, args, state, control, **kw):
        if self.trainer.accelerator.is_main_process:
            torch.save(self.steps, self.path)


def _install_recorder(path: str) -> None:
    generate_and_score = BoTGRPOTrainer._generate_and_score_completions
    dynamic = BoTGRPOTrainer._dynamic_sampling
    init = BoTGRPOTrainer.__init__

    def patched_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self._test_recorder = _Recorder(self, path)
        self.add_callback(self._test_recorder)

    def recording(self, inputs):
        out = generate_and_score(self, inputs)
        if self.model.training:
            ids, mask, adv = TRUE_GATHER(self, out["completion_ids"], out["completion_mask"], out["advantages"])
            self._test_recorder.current.update(ids=ids.cpu(), mask=mask.cpu(), adv=adv.cpu())
        return out

    def recording_dynamic(self, inputs, out, scored, stats):
        merged = dynamic(self, inputs, out, scored, stats)
        rounds = self._metrics["train"]["dapo/extra_rounds"][-1]
        self._test_recorder.current["rounds"] = self.accelerator.gather_for_metrics([rounds])
        return merged

    BoTGRPOTrainer.__init__ = patched_init
    BoTGRPOTrainer._generate_and_score_completions = recording
    BoTGRPOTrainer._dynamic_sampling = recording_dynamic


def _install_death(spec: str) -> None:
    rank, step = (int(x) for x in spec.split(":"))
    generate_and_score = BoTGRPOTrainer._generate_and_score_completions

    def dying(self, inputs):
        if self.accelerator.process_index == rank and self.state.global_step + 1 >= step:
            print(f"rank {rank}: dying at step {step} (BOT_REPRO_TEST_DIE)", file=sys.stderr, flush=True)
            os._exit(3)
        return generate_and_score(self, inputs)

    BoTGRPOTrainer._generate_and_score_completions = dying


ORIGINAL = {name: getattr(BoTGRPOTrainer, name) for name in (
    "__init__", "_generate_single_turn", "_generate_and_score_completions", "_dynamic_sampling", "_score_round",
    "_gather_padded",
)}  # fmt: skip


def _instrument(env: dict, record_path: Path) -> None:
    for name, fn in ORIGINAL.items():  # undo the previous run's instruments
        setattr(BoTGRPOTrainer, name, fn)
    if env.get("BOT_REPRO_TEST_INJECT") == "1":
        BoTGRPOTrainer._generate_single_turn = _fake_generate
    _install_breaks(env.get("BOT_REPRO_TEST_BREAK", ""))
    if env.get("BOT_REPRO_TEST_RECORD") == "1":
        _install_recorder(str(record_path))
    if env.get("BOT_REPRO_TEST_DIE"):
        _install_death(env["BOT_REPRO_TEST_DIE"])


def main(spec_path: Path) -> None:
    from bot_repro.train import run
    from bot_repro.trainer import distributed
    from tests.conftest import compose

    spec = json.loads(spec_path.read_text())
    for item in spec["runs"]:
        run_dir = spec_path.parent / item["name"]
        _instrument(item.get("env", {}), spec_path.parent / f"{item['name']}.pt")
        run(compose(item["overrides"]), run_dir)
        distributed.barrier()  # rank 0 saved the record before any rank starts the next run


if __name__ == "__main__":
    main(Path(sys.argv[1]))
