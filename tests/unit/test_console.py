"""What one training run prints (bot_repro.trainer.console): a few key values per step, never TRL's
metric dictionary; a sweep's job prints no step at all."""

from __future__ import annotations

from types import SimpleNamespace

from transformers import PrinterCallback, ProgressCallback

from bot_repro.trainer import console

RECORD = {"step": 3, "time": 9.5, "reward_mean": 0.41, "reward_std": 0.2, "loss": 0.012345, "kl": None,
          "frac_zero_std_groups": 0.25, "step_seconds": 3.2049, "adv_max": 1.7}  # fmt: skip


def test_a_step_line_shows_a_few_key_values_in_three_digits():
    assert console.step_line(RECORD, 20) == "step 3/20  reward 0.410  loss 0.0123  kl n/a  zero-std groups 0.250  3.2 s"
    assert console.step_line({"step": 1}, 2) == "step 1/2"
    moved = {"step": 2, "policy/weight_delta": 0.0012345, "policy/kl_start": 4.5e-05, "policy/kl_seconds": 0.3}
    assert console.step_line(moved, 20) == "step 2/20  weight delta 0.00123  kl start 4.50e-05"


def test_a_held_out_line_only_on_evaluation_steps():
    assert console.held_out_line(RECORD) is None
    assert console.held_out_line({"step": 0, "eval/success_rate": 0.3125, "eval/pass@8": 1.0}) == (
        "step 0 held-out: success_rate 0.312, pass@8 1.00")


class _Trainer:
    def __init__(self, printer):
        self.callbacks = [SimpleNamespace(), printer]

    def remove_callback(self, kind):
        self.callbacks = [c for c in self.callbacks if not isinstance(c, kind)]

    def add_callback(self, callback):
        self.callbacks.append(callback)


def test_install_replaces_the_dictionary_printers():
    for printer in (PrinterCallback(), ProgressCallback()):  # progress_bar=false / true
        single, job = _Trainer(printer), _Trainer(printer)
        console.install(single, metrics=None, step_lines=True, bar=False)
        console.install(job, metrics=None, step_lines=False, bar=False)
        assert [type(c) for c in single.callbacks] == [SimpleNamespace, console.StepLines]
        assert [type(c) for c in job.callbacks] == [SimpleNamespace]


def test_step_lines_write_each_step_once(capsys):
    metrics = SimpleNamespace(last={"step": 0, "eval/success_rate": 0.25})
    lines = console.StepLines(metrics, bar=False)
    state = SimpleNamespace(is_world_process_zero=True, global_step=0, max_steps=2)
    lines.on_train_begin(None, state, None)
    for step in (1, 2, 2):  # the end-of-training log repeats step 2's record
        state.global_step, metrics.last = step, {"step": step, "reward_mean": 0.5, "step_seconds": 1.0}
        lines.on_log(None, state, None, logs={"loss": 0.0})
    assert capsys.readouterr().out.splitlines() == [
        "step 0 held-out: success_rate 0.250", "step 1/2  reward 0.500  1.0 s", "step 2/2  reward 0.500  1.0 s"]
