"""model=gemma3_270m's smoke path: debug=smoke stands in a tiny random-init Gemma3ForCausalLM whose
tokenizer, like the real base model's, has no chat template, so the run takes the plain prompt format."""

from __future__ import annotations

from transformers import AutoTokenizer

from bot_repro.models.prompt_format import plain_template
from bot_repro.run_folder import read_metrics, read_run_json
from tests.integration.helpers import run_inprocess


def test_tiny_gemma3_trains_one_smoke_step_in_the_plain_format(tmp_path):
    run_dir = tmp_path / "r"
    run_inprocess(["debug=smoke", "model=gemma3_270m", "task=arith", "trainer.max_steps=1"], run_dir)
    info = read_run_json(run_dir)
    assert info["status"] == "completed" and info["steps"] == 1 and info["prompt_format"] == "plain"
    assert [r["step"] for r in read_metrics(run_dir / "metrics.jsonl") if "loss" in r] == [1]
    config = (run_dir / "checkpoints" / "checkpoint-1" / "config.json").read_text()
    assert '"model_type": "gemma3_text"' in config  # the real architecture class, shrunk
    tok = AutoTokenizer.from_pretrained(run_dir / "checkpoints" / "checkpoint-1")
    assert tok.chat_template == plain_template("<bos>")  # what TRL rendered the prompts with
    text = tok.apply_chat_template([{"role": "user", "content": "2 + 2?"}], tokenize=False, add_generation_prompt=True)
    assert text == "<bos>Problem: 2 + 2?\nSolution:\n"
