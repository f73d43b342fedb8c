"""An HTML gallery of evaluated rollouts that a person can open in a browser (``index.html`` next to
``rollouts.jsonl`` and ``screens/``).

The header names what was evaluated: the run, the algorithm (and model), the training step and the
checkpoint, then the metrics. One card per rollout: the request, the screenshot (or the failure
reason), the reward breakdown, and the code with every penalised line highlighted (darker = larger
penalty; hover for the diagnostics of that line).

The header's facts are passed in or, for an evaluation folder of a run (``<run>/eval/step_N/``,
``<run>/eval_offline/step_N/``), read from the run itself: its ``.hydra/config.yaml`` and its
``checkpoints/`` folder.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import yaml

from bot_repro.run_folder import config_path

_CSS = """
body{font-family:system-ui,sans-serif;margin:24px;background:#f4f4f5;color:#18181b}
h1{font-size:22px}.meta{color:#52525b}
.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0 4px;font-size:14px}
.run dt{color:#52525b}.run dd{margin:0;font-weight:600}.run dd small{font-weight:400;color:#71717a}
.howto{color:#52525b;font-size:13px}
.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;margin:18px 0;padding:16px}
.head{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
.ok{color:#15803d;font-weight:600}.fail{color:#b91c1c;font-weight:600}
.cols{display:grid;grid-template-columns:minmax(320px,640px) 1fr;gap:16px;margin-top:10px}
img{width:100%;border:1px solid #d4d4d8;border-radius:6px}
table{border-collapse:collapse;font-size:13px}td{padding:2px 8px;border-bottom:1px solid #eee}
pre{margin:0;font-size:12px;max-height:640px;overflow:auto;background:#fafafa;border:1px solid #e4e4e7}
.ln{display:block;white-space:pre}.ln i{color:#a1a1aa;font-style:normal;display:inline-block;width:3.5em;
text-align:right;margin-right:1em;user-select:none}.ln.pen i{color:#3f3f46}
.reason{white-space:pre-wrap;background:#fef2f2;padding:8px;border-radius:6px;font-size:13px}
"""


def _code_html(code: str, penalties: dict[int, float], notes: dict[int, list[str]]) -> str:
    out = []
    worst = min(penalties.values(), default=0.0)
    for i, line in enumerate(code.split("\n")):
        p = penalties.get(i, 0.0)
        attrs, cls = "", "ln"
        if p < 0:
            alpha = 0.15 + 0.6 * (p / worst if worst < 0 else 0)
            cls += " pen"
            attrs += f' data-penalty="{p:.3f}" style="background:rgba(239,68,68,{alpha:.2f})"'
        if i in notes or p:
            attrs += f' title="{html.escape(f"penalty {p:+.3f}; " + "; ".join(notes.get(i, [])))}"'
        out.append(f'<span class="{cls}"{attrs}><i>{i}</i>{html.escape(line) or " "}</span>')
    return "".join(out)


def _run_config(run_dir: Path) -> dict[str, Any]:
    path = config_path(run_dir)
    try:
        doc = yaml.safe_load(path.read_text()) if path.is_file() else None
    except (OSError, yaml.YAMLError):
        doc = None
    return doc if isinstance(doc, dict) else {}


def _get(doc: dict[str, Any], dotted: str) -> Any:
    for part in dotted.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return doc


def gallery_context(out_dir: str | Path, run: str | None = None, algorithm: str | None = None,
                    step: int | None = None, checkpoint: str | None = None) -> dict[str, str]:
    """The header's facts (run, algorithm, model, step, checkpoint) as text: the values given, else what
    the run that ``out_dir`` belongs to says (``<run>/eval*/step_N``), else ``"unknown"``."""
    out = Path(out_dir).resolve()
    match = re.fullmatch(r"step_(\d+)", out.name)
    step = step if step is not None else (int(match.group(1)) if match else None)
    run_dir = out.parent.parent if match and out.parent.name.startswith("eval") else None
    cfg = _run_config(run_dir) if run_dir is not None else {}
    if run is None and run_dir is not None and cfg:
        experiment = _get(cfg, "experiment_name")
        run = f"{run_dir.parent.name}/{run_dir.name}"  # runs/<experiment>/<time>[/<job>]
        run = f"{experiment}/{run}" if experiment and experiment != run_dir.parent.name else run
    algorithm = algorithm or _get(cfg, "algorithm.name")
    model = _get(cfg, "model.name")
    if model and _get(cfg, "smoke") and not str(model).startswith("tiny"):
        model = f"{model} (smoke run: a tiny random-init stand-in)"
    if checkpoint is None and step is not None:
        checkpoint = _checkpoint_text(run_dir, cfg, step)
    return {
        "run": str(run) if run else "unknown",
        "run_dir": str(run_dir) if run_dir is not None and cfg else "",
        "algorithm": str(algorithm) if algorithm else "unknown",
        "model": str(model) if model else "",
        "step": str(step) if step is not None else "unknown",
        "checkpoint": str(checkpoint) if checkpoint else "unknown",
    }


def _checkpoint_text(run_dir: Path | None, cfg: dict[str, Any], step: int) -> str | None:
    name = f"checkpoints/checkpoint-{step}"
    if run_dir is not None and (run_dir / name).is_dir():
        return name
    if step == 0:
        return "none: the initial policy, before any training step"
    save_steps, max_steps = _get(cfg, "trainer.save_steps"), _get(cfg, "trainer.max_steps")
    if not isinstance(save_steps, int) or save_steps <= 0:
        return None
    if step % save_steps == 0 or step == max_steps:  # the trainer saves right after it evaluates
        return f"{name} (written after this evaluation)"
    return f"none saved at this step (save_steps={save_steps}): the policy in memory at step {step}"


def write_gallery(out_dir: Path, records: list[dict[str, Any]], metrics: dict[str, float], title: str, *,
                  run: str | None = None, algorithm: str | None = None, step: int | None = None,
                  checkpoint: str | None = None) -> Path:
    """Write ``out_dir/index.html`` for saved rollout ``records`` (see evaluation.save_rollouts).

    ``run``, ``algorithm``, ``step`` and ``checkpoint`` name what was evaluated in the header; any left
    out are read from the run ``out_dir`` belongs to (``gallery_context``)."""
    out_dir = Path(out_dir)
    ctx = gallery_context(out_dir, run, algorithm, step, checkpoint)
    cards = []
    for rec in records:
        status = '<span class="ok">compiled</span>' if rec["compiled"] else '<span class="fail">failed</span>'
        start = rec.get("code_start_line") or 0
        # Penalties are on response lines; the code view is numbered in code lines.
        penalties = {int(k) - start: v for k, v in rec.get("line_penalties", {}).items()}
        notes: dict[int, list[str]] = {}
        for d in rec.get("compiler", []) + rec.get("eslint", []):
            if isinstance(d.get("line"), int):
                notes.setdefault(d["line"], []).append(f"{d['source']} {d['rule']}: {d['message']}")
        shot = (f'<img src="{html.escape(rec["screenshot"])}" alt="screenshot of {html.escape(rec["key"])}">'
                if rec.get("screenshot")
                else f'<div class="reason">{html.escape(rec.get("reason") or "no screenshot")}</div>')
        rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{v:+.3f}</td></tr>"
                       for k, v in rec.get("components", {}).items())
        rows += f"<tr><td><b>global</b></td><td><b>{rec.get('global_score', 0.0):+.3f}</b></td></tr>"
        code = rec.get("code")
        code_html = _code_html(code, penalties, notes) if code is not None else html.escape(rec["response"])
        cards.append(
            f'<div class="card" id="{html.escape(rec["key"])}"><div class="head"><b>{html.escape(rec["id"])}</b>'
            f' <span class="meta">{html.escape(rec["category"])} · rollout {rec["rollout"]}</span> {status}</div>'
            f"<p>{html.escape(rec['request'])}</p>"
            f'<div class="cols"><div>{shot}<table>{rows}</table></div><pre>{code_html}</pre></div></div>')
    summary = " · ".join(f"{html.escape(k)} {v:.3f}" for k, v in metrics.items())
    n_shots = sum(bool(r.get("screenshot")) for r in records)
    n_ok = sum(bool(r.get("compiled")) for r in records)
    run_dd = html.escape(ctx["run"]) + (f" <small>{html.escape(ctx['run_dir'])}</small>" if ctx["run_dir"] else "")
    facts = [("run", run_dd), ("algorithm", html.escape(ctx["algorithm"]))]
    facts += [("model", html.escape(ctx["model"]))] if ctx["model"] else []
    facts += [("step", html.escape(ctx["step"])), ("checkpoint", html.escape(ctx["checkpoint"]))]
    header = ('<dl class="run">' + "".join(f'<dt>{k}</dt><dd data-field="{k}">{v}</dd>' for k, v in facts)
              + "</dl>")
    page_title = f"{title}: {ctx['run']}, {ctx['algorithm']}, step {ctx['step']}"
    page = (f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(page_title)}</title>'
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>{header}"
            f"<p class=meta>{summary}</p>"
            f'<p class="howto">{len(records)} rollout(s), {n_ok} compiled, {n_shots} screenshot(s). Red code lines '
            "are penalised (darker = larger penalty); hover a line for its diagnostics.</p>"
            + "".join(cards) + "</body></html>")
    path = out_dir / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
