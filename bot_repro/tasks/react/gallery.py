"""A self-contained HTML gallery of evaluated rollouts that a person can open in a browser.

One card per rollout: the request, the screenshot (or the failure reason), the reward breakdown,
and the code with every penalised line highlighted (darker = larger penalty; hover for the
diagnostics of that line).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

_CSS = """
body{font-family:system-ui,sans-serif;margin:24px;background:#f4f4f5;color:#18181b}
h1{font-size:22px}.meta{color:#52525b}
.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;margin:18px 0;padding:16px}
.head{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
.ok{color:#15803d;font-weight:600}.fail{color:#b91c1c;font-weight:600}
.cols{display:grid;grid-template-columns:minmax(320px,640px) 1fr;gap:16px;margin-top:10px}
img{width:100%;border:1px solid #d4d4d8;border-radius:6px}
table{border-collapse:collapse;font-size:13px}td{padding:2px 8px;border-bottom:1px solid #eee}
pre{margin:0;font-size:12px;max-height:640px;overflow:auto;background:#fafafa;border:1px solid #e4e4e7}
.ln{display:block;white-space:pre}.ln i{color:#a1a1aa;font-style:normal;display:inline-block;width:3.5em;
text-align:right;margin-right:1em;user-select:none}
.reason{white-space:pre-wrap;background:#fef2f2;padding:8px;border-radius:6px;font-size:13px}
"""


def _code_html(code: str, penalties: dict[int, float], notes: dict[int, list[str]]) -> str:
    out = []
    worst = min(penalties.values(), default=0.0)
    for i, line in enumerate(code.split("\n")):
        p = penalties.get(i, 0.0)
        style, title = "", ""
        if p < 0:
            alpha = 0.15 + 0.6 * (p / worst if worst < 0 else 0)
            style = f' style="background:rgba(239,68,68,{alpha:.2f})"'
        if i in notes or p:
            title = f' title="{html.escape(f"penalty {p:+.3f}; " + "; ".join(notes.get(i, [])))}"'
        out.append(f'<span class="ln"{style}{title}><i>{i}</i>{html.escape(line) or " "}</span>')
    return "".join(out)


def write_gallery(out_dir: Path, records: list[dict[str, Any]], metrics: dict[str, float], title: str) -> Path:
    """Write ``out_dir/index.html`` for saved rollout ``records`` (see evaluation.save_rollouts)."""
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
        shot = (f'<img src="{html.escape(rec["screenshot"])}" alt="screenshot">' if rec.get("screenshot")
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
    page = (f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1><p class=meta>{summary}</p>"
            + "".join(cards) + "</body></html>")
    path = out_dir / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
