"""The CPU study's per-report tables beyond ``analysis.summary``: the step-0 starting point every run
shares, the seeds that collapsed (Wilson intervals) and the share of identical-reward groups over
training, with their Markdown sections (``bot_repro.experiment.report`` writes them into each report with ``report.step0``),
and the baseline table (``report.baseline_table``: what each group trained on and how far it moved).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from bot_repro.analysis.bootstrap import bootstrap_ci
from bot_repro.analysis.formats import interval, number
from bot_repro.analysis.labels import group_key_label
from bot_repro.analysis.stats import collapsed_runs, wilson_interval
from bot_repro.run_folder import counter_total

DYNAMIC_SAMPLING = "algorithm.dynamic_sampling.enabled"


def step0_stats(df, policy: dict | None) -> dict:
    """The starting point all runs share (see the module docstring): policy hash, step-0 held-out
    success and pass@8 (or the largest k measured), share of identical-reward groups at step 1."""
    runs = df.drop_duplicates("run_id").set_index("run_id")
    at0 = df[df.step == 0]

    def mean_of(frame, metric):
        vals = frame[frame.metric == metric].groupby("run_id")["value"].first()
        return (float(vals.mean()), len(vals)) if len(vals) else (None, 0)

    out: dict = {"policy_hash": (policy or {}).get("policy_hash")}
    out["step0_success"], n_runs = mean_of(at0, "eval/success_rate")
    per_run = at0[at0.metric == "eval/success_rate"].groupby("run_id")["value"].first().to_numpy()
    _, lo, hi = bootstrap_ci(per_run) if len(per_run) else (None, None, None)
    measured = [k for k in (8, 4, 2, 1) if mean_of(at0, f"eval/pass@{k}")[1]]
    out["step0_pass@8"] = mean_of(at0, "eval/pass@8")[0]
    if measured and measured[0] != 8:
        out[f"step0_pass@{measured[0]}"] = mean_of(at0, f"eval/pass@{measured[0]}")[0]
    dynamic = runs[DYNAMIC_SAMPLING].fillna(False).astype(bool) if DYNAMIC_SAMPLING in runs else False
    plain = runs.index[~dynamic] if DYNAMIC_SAMPLING in runs else runs.index
    zs = df[(df.metric == "frac_zero_std_groups") & df.run_id.isin(plain) & (df.step >= 1)]
    first = zs.sort_values("step").groupby("run_id")["value"].first()
    out["step0_identical_group_share"] = float(first.mean()) if len(first) else None
    out["step0"] = {
        "n_runs": n_runs,
        "success_ci": [lo, hi],  # bootstrap over runs: same policy, different sampling seeds
        "pass_k_measured": measured[0] if measured else None,
        "identical_group_share_runs": len(first),
        "warm_start_steps": (policy or {}).get("warm_start_steps"),
        "warm_start_sampled_success": (policy or {}).get("warm_start_sampled_success"),
    }
    return out


def step0_markdown(stats: dict) -> str:
    fmt = lambda v: "n/a" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))  # noqa: E731
    keys = ["policy_hash", "step0_success", *[k for k in stats if k.startswith("step0_pass@")],
            "step0_identical_group_share"]
    lines = ["", "## Step 0 (the policy every run starts from)", "", "| field | value |", "|---|---|"]
    lines += [f"| {k} | {fmt(stats[k])} |" for k in keys]
    detail = stats["step0"]
    lines += [f"| warm start | {fmt(detail['warm_start_steps'])} supervised steps, sampled success "
              f"{fmt(detail['warm_start_sampled_success'])} |", ""]
    return "\n".join(lines)


def groups_markdown(summary: dict) -> str:
    """Per group: seeds that collapsed (Wilson interval) and the identical-reward group share over training."""
    fmt = number  # the one number format (analysis/formats.py)
    lines = ["", "## Collapses and identical-reward groups", "",
             "| group | collapsed seeds [Wilson 95%] | identical-reward groups: first 10 steps / all / last 10 |", "|---|---|---|"]
    for g in summary["groups"]:
        c, z = g["collapsed"], g["identical_group_share"]
        name = group_key_label(g["group"]) if isinstance(g.get("group"), dict) else g["label"]
        lines.append(f"| {name} | {c['n_collapsed']}/{c['n_runs']} [{fmt(c['wilson_low'])}, {fmt(c['wilson_high'])}] | "
                     f"{fmt(z['first_steps'])} / {fmt(z['all_steps'])} / {fmt(z['last_steps'])} |")
    return "\n".join(lines) + "\n"


def training_shares(df, cols: list[str], group: dict, last: int = 10) -> dict:
    """The share of training groups whose rollouts all got the same global reward (logged
    ``frac_zero_std_groups``) over training, mean over the group's runs: the first ``last`` steps,
    the whole run and the last ``last`` steps. None where no run logs it."""
    zs = df[(df.metric == "frac_zero_std_groups") & (df[cols] == pd.Series(group)).all(axis=1)]
    if zs.empty:
        return {"first_steps": None, "all_steps": None, "last_steps": None, "window": last}
    top = zs.groupby("run_id")["step"].transform("max")
    runs = lambda part: float(part.groupby("run_id")["value"].mean().mean())  # noqa: E731
    return {"first_steps": runs(zs[zs.step <= last]), "all_steps": runs(zs), "last_steps": runs(zs[zs.step > top - last]),
            "window": last}


def collapse_counts(df, metric: str, cols: list[str], summary: dict) -> None:
    """``collapsed`` per group (``stats.collapsed_runs``: the run ends below half its step-0 value),
    with the Wilson interval of the share."""
    flags = collapsed_runs(df, metric, cols)
    seeds = df.drop_duplicates("run_id").set_index("run_id")["seed"] if "seed" in df else None
    for entry in summary["groups"]:
        rows = flags[(flags[cols] == pd.Series(entry["group"])).all(axis=1)]
        ids = rows.loc[rows["collapsed"], "run_id"]
        k, n = int(rows["collapsed"].sum()), len(rows)
        lo, hi = wilson_interval(k, n)
        entry["collapsed"] = {"n_collapsed": k, "n_runs": n, "wilson_low": lo, "wilson_high": hi,
                              "seeds": sorted((seeds[ids].tolist() if seeds is not None else ids.tolist()), key=str)}


# the config columns the baseline table reads (a report with ``report.baseline_table`` loads them)
BASELINE_COLUMNS = ("model.name", "task.name", "algorithm.name", "trainer.prompts_per_step", "trainer.num_generations",
                    "trainer.learning_rate")


def baseline_markdown(df, summary: dict, machines: list[dict], labels: dict[str, str] | None = None) -> str:
    """A baseline table in the spirit of verl's (model, task, algorithm, score before and after): per group of
    the headline ``summary``, the held-out value at step 0 and at the end, the gain's interval (final - step 0
    paired by seed, bootstrap over seeds), the rollouts each run trained on (steps x prompts x completions),
    its hours (training ``time`` plus its evaluations' ``eval_seconds``) and the machines its runs ran on."""
    cols, metric = summary["group_by"], summary["metric"]
    runs = df[df.metric == metric].groupby("run_id").agg(last=("step", "max"), train=("time", "max"))
    evals = df[df.metric == "eval_seconds"].sort_values("step").groupby("run_id")["value"].agg(counter_total)
    runs["hours"] = (runs["train"] + evals.reindex(runs.index).fillna(0.0)) / 3600
    config = df.drop_duplicates("run_id").set_index("run_id")
    lines = ["", f"## Baseline table ({metric})", "",
             "| group | model | task | algorithm | prompts x completions, lr | seeds | step 0 | end | gain [95% CI] "
             "| rollouts per run | hours per run (training + evaluation) | machine |", "|" + "---|" * 12]
    for g in summary["groups"]:
        ids = config.index[(config[cols] == pd.Series(g["group"])).all(axis=1)]
        first = config.loc[ids[0]]
        sizes = f"{first['trainer.prompts_per_step']} x {first['trainer.num_generations']}, {first['trainer.learning_rate']:g}"
        rollouts = (runs.loc[ids, "last"] * first["trainer.prompts_per_step"] * first["trainer.num_generations"]).mean()
        folders = {Path(d).name for d in config.loc[ids, "run_dir"]}
        hw = sorted({f"{m['hardware'].get('cpu_model', '?')}, {m['hardware'].get('torch_threads', '?')} thread(s)"
                     for m in machines if folders & set(m["runs"])})
        cells = [group_key_label(g["group"], labels), first["model.name"], first["task.name"], first["algorithm.name"], sizes,
                 str(g["n_seeds"]), _ci(g.get("start")), _ci(g["final"]), _ci(g.get("gain")), number(float(rollouts)),
                 number(float(runs.loc[ids, "hours"].mean())), "; ".join(hw) or "?"]
        lines.append("| " + " | ".join(map(str, cells)) + " |")
    return "\n".join(lines) + "\n"


def _ci(node: dict | None) -> str:
    return "n/a" if node is None else interval(node["mean"], node["ci_low"], node["ci_high"])
