"""The React gallery (index.html of an evaluation folder): its header names the run, algorithm, step and
checkpoint; opened in the real Chromium (Debian's /usr/bin/chromium, driven by Playwright with the
renderer's flags) it shows one card per rollout, the screenshots, and the penalised lines highlighted."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest
import yaml

from bot_repro.tasks.react.gallery import gallery_context, write_gallery
from tests.conftest import REPO


def _renderer_missing() -> str | None:
    from bot_repro.tasks.react.render import renderer_missing

    return renderer_missing()


def _png(color: str, width: int = 100, height: int = 60) -> bytes:
    """A plain one-colour PNG (written by hand: no plotting library state can change its size)."""
    rgb = bytes.fromhex(color.lstrip("#"))
    raw = b"".join(b"\x00" + rgb * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _run(tmp_path: Path, checkpoints: tuple[int, ...] = (2,)) -> Path:
    run_dir = tmp_path / "runs" / "fig1_compile_rate" / "2026-01-01_00-00-00" / "4_bot_grpo_s0"
    (run_dir / ".hydra").mkdir(parents=True)
    config = {"experiment_name": "fig1_compile_rate", "smoke": True, "algorithm": {"name": "bot_grpo"},
              "model": {"name": "qwen2_5_3b"}, "trainer": {"save_steps": 4, "max_steps": 10}}
    (run_dir / ".hydra" / "config.yaml").write_text(yaml.safe_dump(config))
    for step in checkpoints:
        (run_dir / "checkpoints" / f"checkpoint-{step}").mkdir(parents=True)
    return run_dir


def _record(key: str, compiled: bool, shot: str | None, code: str | None, penalties: dict[str, float],
            compiler: list | None = None) -> dict:
    return {"key": key, "id": f"counter-{key}", "category": "widget", "request": "A counter with +5/-5 buttons.",
            "rollout": int(key[-2:]), "response": code or "no code", "code": code, "screenshot": shot,
            "compiled": compiled, "reason": None if compiled else "typecheck: line 1: bad type",
            "code_start_line": 1, "compiler": compiler or [], "eslint": [], "global_score": 0.0 if compiled else -1.0,
            "components": {"compile_fail": 0.0 if compiled else -1.0}, "line_penalties": penalties}


CODE = 'export default function App() {\n  const step: number = "five";\n  return <p>{step}</p>;\n}\n'


def _gallery(out: Path, **header) -> tuple[Path, list[dict]]:
    (out / "screens").mkdir(parents=True)
    (out / "screens" / "0000_00.png").write_bytes(_png("#4f46e5"))
    (out / "screens" / "0001_00.png").write_bytes(_png("#16a34a"))
    records = [
        _record("0000_00", True, "screens/0000_00.png", CODE.replace('"five"', "5"), {}),
        _record("0001_00", True, "screens/0001_00.png", CODE.replace('"five"', "5"), {"3": -0.02}),
        # response lines 2 and 3 are code lines 1 and 2 (code_start_line 1)
        _record("0002_01", False, None, CODE, {"2": -1.0, "3": -0.3},
                compiler=[{"line": 1, "source": "tsc", "rule": "TS2322", "message": "Type 'string' is not number"}]),
    ]
    return write_gallery(out, records, {"compile_rate": 2 / 3}, "React evaluation", **header), records


def test_header_facts_come_from_the_run_or_the_caller(tmp_path):
    run_dir = _run(tmp_path)
    ctx = gallery_context(run_dir / "eval" / "step_000002")
    assert ctx["run"] == "fig1_compile_rate/2026-01-01_00-00-00/4_bot_grpo_s0" and ctx["run_dir"] == str(run_dir)
    assert ctx["algorithm"] == "bot_grpo" and ctx["step"] == "2" and ctx["checkpoint"] == "checkpoints/checkpoint-2"
    assert ctx["model"] == "qwen2_5_3b (smoke run: a tiny random-init stand-in)"
    assert gallery_context(run_dir / "eval" / "step_000000")["checkpoint"].startswith("none: the initial policy")
    assert gallery_context(run_dir / "eval" / "step_000008")["checkpoint"] == (
        "checkpoints/checkpoint-8 (written after this evaluation)")  # save_steps 4: saved right after
    assert gallery_context(run_dir / "eval_offline" / "step_000003")["checkpoint"].startswith(
        "none saved at this step (save_steps=4)")
    given = gallery_context(tmp_path / "anywhere", run="my run", algorithm="grpo", step=7, checkpoint="/ckpt/7")
    assert {k: given[k] for k in ("run", "algorithm", "step", "checkpoint")} == {
        "run": "my run", "algorithm": "grpo", "step": "7", "checkpoint": "/ckpt/7"}
    assert gallery_context(tmp_path / "loose")["run"] == "unknown"


def test_gallery_in_chromium_shows_header_cards_screenshots_and_highlighted_lines(tmp_path):
    missing = _renderer_missing()
    if missing:
        pytest.skip(f"Chromium unavailable: {missing}")
    run_dir = _run(tmp_path)
    index, records = _gallery(run_dir / "eval" / "step_000002")
    page = _open_in_chromium(index)
    assert page["header"] == {"run": "fig1_compile_rate/2026-01-01_00-00-00/4_bot_grpo_s0 " + str(run_dir),
                              "algorithm": "bot_grpo", "model": "qwen2_5_3b (smoke run: a tiny random-init stand-in)",
                              "step": "2", "checkpoint": "checkpoints/checkpoint-2"}
    assert "4_bot_grpo_s0, bot_grpo, step 2" in page["title"]
    assert page["cards"] == [r["key"] for r in records]
    assert page["images"] == [{"src": "screens/0000_00.png", "loaded": True, "width": 100},
                              {"src": "screens/0001_00.png", "loaded": True, "width": 100}]
    assert page["reasons"] == ["typecheck: line 1: bad type"]
    # card 2: code line 2 of 0001_00 (light); card 3: code lines 1 (worst: darkest) and 2
    assert page["highlighted"] == [
        {"card": "0001_00", "line": "2", "alpha": 0.75},
        {"card": "0002_01", "line": "1", "alpha": 0.75, "title": "penalty -1.000; tsc TS2322: Type 'string' is not number"},
        {"card": "0002_01", "line": "2", "alpha": 0.33},
    ]


def _open_in_chromium(index: Path) -> dict:
    """Load ``index`` from disk in headless Chromium (the renderer's binary and flags) and read back what
    the page shows."""
    from playwright.sync_api import sync_playwright

    from bot_repro.tasks.react.render import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(index.resolve().as_uri(), wait_until="load")
            return page.evaluate("""() => ({
                title: document.title,
                header: Object.fromEntries([...document.querySelectorAll('dl.run dd')].map(
                    d => [d.dataset.field, d.innerText.trim()])),
                cards: [...document.querySelectorAll('.card')].map(c => c.id),
                images: [...document.querySelectorAll('.card img')].map(i => (
                    {src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0, width: i.naturalWidth})),
                reasons: [...document.querySelectorAll('.card .reason')].map(r => r.innerText.trim()),
                highlighted: [...document.querySelectorAll('.ln.pen')].map(l => {
                    const alpha = Number(getComputedStyle(l).backgroundColor.match(/[\\d.]+\\)$/)[0].slice(0, -1));
                    const out = {card: l.closest('.card').id, line: l.querySelector('i').innerText,
                                 alpha: Math.round(alpha * 100) / 100};
                    if (l.title.includes('tsc') || l.title.includes('babel')) out.title = l.title;
                    return out;
                }),
            })""")
        finally:
            browser.close()


def test_gallery_of_a_real_react_evaluation_in_chromium(tmp_path):
    """The task's own evaluate_and_save (real checker and renderer) on a valid and a broken component: the
    gallery it writes shows the valid one's screenshot and highlights the broken one's bad lines."""
    from bot_repro.tasks.react.workers import toolchain_missing

    missing = _renderer_missing() or toolchain_missing()
    if missing:
        pytest.skip(f"React toolchain unavailable: {missing}")
    from bot_repro.plugins import load_plugins
    from bot_repro.tasks import TASKS

    load_plugins()
    task = TASKS["react"]({"name": "react", "params": {"limit_test": 1}}, {"family": "qwen2"})
    _, rows = task.datasets()
    good = (REPO / "tests" / "data" / "react_components" / "counter.tsx").read_text()
    bad = good.replace("const step = 5;", "const step = ;")  # a syntax error fails in every type-check mode
    run_dir = _run(tmp_path, checkpoints=())
    out = run_dir / "eval" / "step_000004"
    metrics = task.evaluate_and_save([[f"```tsx\n{good}```", f"```tsx\n{bad}```"]], rows, out)
    assert metrics["compile_rate"] == 0.5
    page = _open_in_chromium(out / "index.html")
    assert page["header"]["step"] == "4" and page["header"]["algorithm"] == "bot_grpo"
    assert page["header"]["checkpoint"] == "checkpoints/checkpoint-4 (written after this evaluation)"
    assert page["cards"] == ["0000_00", "0000_01"]
    (image,) = page["images"]
    assert image["src"] == "screens/0000_00.png" and image["loaded"] and image["width"] >= 640
    rollouts = [json.loads(line) for line in (out / "rollouts.jsonl").read_text().splitlines()]
    diagnostic = rollouts[1]["compiler"][0]
    (line,) = [h for h in page["highlighted"] if h["card"] == "0000_01"]
    assert line["line"] == str(diagnostic["line"]) and line["alpha"] == 0.75
    assert diagnostic["rule"] in line["title"] and diagnostic["message"] in line["title"]
