"""Profile the React render: where one render's wall time and CPU go, by stage and by process.

Renders the components of tests/data/react_realistic with whichever checkout of bot_repro is
imported (PYTHONPATH=<checkout>; its js/ builds the pages), so an old commit's renderer and pages
can be compared with the current ones on the same machine. CPU, not wall time, is the measure
that survives a busy machine: every figure comes from /proc (utime+stime of this process, the
Playwright driver and every Chromium process), split by process kind.

Phases (printed as one JSON object):
  launch          Renderer() (Playwright, Chromium, the page pool): wall and CPU;
  page_creation   opening one more page (context, routes, page, CDP session);
  sequential      one page at a time, each Playwright call timed: navigation to DOMContentLoaded
                  (the shell and its scripts through the route, vendor and app evaluated), the load
                  event, the settle wait (React commit, effects, idle), the filled check, the
                  screenshot, the PNG's base64 decode, then the blank check (PIL decode and
                  compare); medians over renders, per stage and per process kind;
  throughput      the bench's setting (2 pages per core, all pages in one call): renders/s and CPU
                  per render by process kind (1000 * cores / cpu_ms is the idle-core rate).

    PYTHONPATH=. .venv/bin/python scripts/profile_render.py --out results/react_profile/new.json
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

CLK = os.sysconf("SC_CLK_TCK")
STAGES = ("goto_domcontentloaded", "load_event", "settle", "filled_check", "screenshot", "b64decode", "blank_check")


# ---------------------------------------------------------------------------------------- CPU
def _proc(pid: int) -> tuple[int, int, str] | None:
    """(ppid, utime+stime ticks, kind) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    return int(fields[1]), int(fields[11]) + int(fields[12]), kind_of(pid, cmd)


def kind_of(pid: int, cmd: str) -> str:
    if pid == os.getpid():
        return "python"
    if "run-driver" in cmd:
        return "playwright_driver"
    if "chrom" not in cmd:
        return "other"
    for t in ("renderer", "gpu-process", "utility", "zygote"):
        if f"--type={t}" in cmd:
            return "chromium_" + t.replace("-process", "")
    return "chromium_crashpad" if "crashpad" in cmd else "chromium_browser"


class Tree:
    """CPU ticks of this process and its descendants, per process kind, as deltas between reads.

    Each live pid is followed by its own utime+stime (a process born between reads counts from 0);
    a process that exits between reads loses at most one interval, and reaped children's cutime is
    not used, so nothing is counted twice.
    """

    def __init__(self) -> None:
        self.last: dict[int, int] = {}
        self.kinds: dict[int, str] = {}
        self.overhead_s = 0.0  # this profiler's own reads (charged to "python" and taken off again)
        self.read()

    def read(self) -> dict[str, float]:
        t0 = time.thread_time()
        stats = {}
        for name in os.listdir("/proc"):
            if name.isdigit() and (p := _proc(int(name))):
                stats[int(name)] = p
        children: dict[int, list[int]] = {}
        for pid, (ppid, _, _) in stats.items():
            children.setdefault(ppid, []).append(pid)
        delta: dict[str, float] = {}
        stack, seen = [os.getpid()], set()
        while stack:
            pid = stack.pop()
            if pid in seen or pid not in stats:
                continue
            seen.add(pid)
            stack.extend(children.get(pid, []))
            ticks, kind = stats[pid][1], stats[pid][2]
            self.kinds[pid] = kind
            delta[kind] = delta.get(kind, 0.0) + (ticks - self.last.get(pid, 0)) / CLK
            self.last[pid] = ticks
        spent = time.thread_time() - t0
        self.overhead_s += spent
        delta["python"] = max(0.0, delta.get("python", 0.0) - spent)
        return delta


def ms(d: dict[str, float]) -> dict[str, float]:
    return {k: round(1000 * v, 2) for k, v in sorted(d.items()) if v}


def medians(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = sorted({k for r in rows for k in r})
    return {k: round(statistics.median(r.get(k, 0.0) for r in rows), 2) for k in keys}


def means(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = sorted({k for r in rows for k in r})
    return {k: round(statistics.fmean(r.get(k, 0.0) for r in rows), 2) for k in keys}


def busy_s() -> float:
    """CPU seconds the whole machine has been busy (all processes), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / CLK  # less idle and iowait


# ---------------------------------------------------------------------------------------- pages
def build_pages(root: Path, n: int, transpiler: str | None):
    from bot_repro.tasks.react.checker import page_of
    from bot_repro.tasks.react.mutants import load_corpus
    from bot_repro.tasks.react.workers import CheckPool

    components = load_corpus(root / "tests" / "data" / "react_realistic")[:n]
    codes = [f"{c.code}\n// profile copy\n" for c in components]
    options = {"transpiler": transpiler} if transpiler else {}
    with CheckPool(n_workers=os.cpu_count() or 1, timeout_s=300.0, **options) as pool:
        assets = pool.vendor()
        answers = pool.check(codes, langs=[c.lang for c in components])
    bad = [a.get("reason") for a in answers if not a.get("ok")]
    if bad:
        raise SystemExit(f"{len(bad)} of {len(answers)} components did not compile: {bad[:3]}")
    return assets, [page_of(a) for a in answers]


def sizes(assets: dict, pages: list) -> dict:
    kib = lambda s: round(len(s.encode()) / 1024, 1)  # noqa: E731
    per_page = [{"app_js": kib(p.app_js), "deps_js": kib(p.deps_js), "css": kib(p.css or ""),
                 "chunks": kib("".join(assets["chunks"][c] for c in p.chunks))} for p in pages]
    return {"vendor_js_kib": kib(assets["vendor_js"]), "tailwind_js_kib": kib(assets["tailwind_js"]),
            "chunk_kib": {k: kib(v) for k, v in assets["chunks"].items()},
            "pages_with_chunks": sum(bool(p.chunks) for p in pages),
            "page_median_kib": medians(per_page),
            "served_per_page_median_kib": round(statistics.median(
                r["app_js"] + r["deps_js"] + r["css"] + r["chunks"] for r in per_page) + kib(assets["vendor_js"]), 1)}


# ---------------------------------------------------------------------------------------- timing
class Stages:
    """Wraps the Playwright calls the renderer makes, so each one's wall time and CPU is recorded."""

    def __init__(self, tree: Tree) -> None:
        self.tree, self.rows, self.current = tree, [], None

    def begin(self) -> None:
        self.tree.read()
        self.current = {"wall": {}, "cpu": {}}

    def record(self, stage: str, wall_s: float) -> None:
        if self.current is None:
            return
        self.current["wall"][stage] = self.current["wall"].get(stage, 0.0) + 1000 * wall_s
        self.current["cpu"][stage] = ms(self.tree.read())

    def end(self) -> None:
        self.rows.append(self.current)
        self.current = None

    def install(self, render_mod) -> None:
        from playwright.async_api import CDPSession, Page

        evals = iter(())

        def timed_async(cls, name, stage_of):
            original = getattr(cls, name)

            async def wrapper(obj, *a, **k):
                start = time.perf_counter()
                try:
                    return await original(obj, *a, **k)
                finally:
                    self.record(stage_of(a), time.perf_counter() - start)

            setattr(cls, name, wrapper)

        def eval_stage(_args):  # _visit evaluates twice: the settle wait, then the filled check
            return next(evals, "filled_check")

        def goto(obj_args):
            nonlocal evals
            evals = iter(("settle", "filled_check"))
            return "goto_domcontentloaded"

        timed_async(Page, "goto", goto)
        timed_async(Page, "wait_for_load_state", lambda a: "load_event")
        timed_async(Page, "evaluate", eval_stage)
        timed_async(CDPSession, "send", lambda a: "screenshot")
        decode = base64.b64decode

        def b64decode(data):
            start = time.perf_counter()
            try:
                return decode(data)
            finally:
                self.record("b64decode", time.perf_counter() - start)

        render_mod.base64 = type("timed_base64", (), {"b64decode": staticmethod(b64decode)})

    def summary(self) -> dict:
        wall = [r["wall"] for r in self.rows]
        cpu_total = [{s: sum(c.values()) for s, c in r["cpu"].items()} for r in self.rows]
        by_kind = []
        for r in self.rows:
            kinds: dict[str, float] = {}
            for c in r["cpu"].values():
                for k, v in c.items():
                    kinds[k] = kinds.get(k, 0.0) + v
            by_kind.append(kinds)
        per_render_cpu = [sum(c.values()) for c in cpu_total]
        # CPU comes in 10 ms ticks: a stage's median is mostly 0 or 10, its mean is what it costs.
        return {"renders": len(self.rows), "wall_ms_median": medians(wall), "cpu_ms_median": medians(cpu_total),
                "cpu_ms_mean": means(cpu_total),
                "cpu_ms_by_stage_and_process_mean": {s: means([r["cpu"].get(s, {}) for r in self.rows])
                                                     for s in STAGES},
                "cpu_ms_per_render_median": round(statistics.median(per_render_cpu), 2),
                "cpu_ms_per_render_mean": round(statistics.fmean(per_render_cpu), 2),
                "cpu_ms_by_process_mean": means(by_kind),
                "wall_ms_per_render_median": round(statistics.median(sum(w.values()) for w in wall), 2)}


# ---------------------------------------------------------------------------------------- main
def git_sha(root: Path) -> str:
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + ("-dirty" if dirty else "")


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    chromium = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True).stdout.strip()
    return {"cpu_model": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "playwright": metadata.version("playwright"), "chromium": chromium.splitlines()[-1] if chromium else "",
            "load_avg_1m_at_start": round(os.getloadavg()[0], 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=60, help="components of the realistic corpus to render")
    parser.add_argument("--sequential-rounds", type=int, default=1, help="passes over the pages, one at a time")
    parser.add_argument("--throughput-rounds", type=int, default=1, help="passes over the pages, 2 per core")
    parser.add_argument("--transpiler", default=None, help="the pages' transpiler (default: the checkout's)")
    parser.add_argument("--timeout", type=float, default=None, help="Renderer timeout_s (default: the checkout's)")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON here too")
    args = parser.parse_args(argv)

    import bot_repro.tasks.react.render as render_mod
    from bot_repro.tasks.react.checker import is_blank_png

    root = Path(render_mod.__file__).resolve().parents[3]
    report = {"checkout": git_sha(root), "machine": machine(), "n": args.n, "transpiler": args.transpiler}
    assets, pages = build_pages(root, args.n, args.transpiler)
    report["sizes"] = sizes(assets, pages)
    cores = os.cpu_count() or 1
    extra = {"timeout_s": args.timeout} if args.timeout else {}
    tree = Tree()
    stages = Stages(tree)
    stages.install(render_mod)

    def make(n_pages: int):
        start = time.perf_counter()
        tree.read()
        renderer = render_mod.Renderer(assets["vendor_js"], assets["tailwind_js"], pages=n_pages,
                                       chunks=assets["chunks"], **extra)
        return renderer, {"wall_ms": round(1000 * (time.perf_counter() - start), 1), "cpu_ms": ms(tree.read())}

    renderer, report["launch"] = make(1)
    with renderer:
        start = time.perf_counter()
        tree.read()
        renderer._call(renderer._open(render_mod._Slot()), timeout=60)  # one more page, as a recycle opens
        report["page_creation"] = {"wall_ms": round(1000 * (time.perf_counter() - start), 1), "cpu_ms": ms(tree.read())}
        renderer.render(pages[:2])  # warm-up
        for _ in range(args.sequential_rounds):
            for page in pages:
                stages.begin()
                (result,) = renderer.render([page])
                if not result.ok:
                    raise SystemExit(f"a page failed to render: {result.reason}")
                start = time.perf_counter()
                is_blank_png(result.png)
                stages.record("blank_check", time.perf_counter() - start)
                stages.end()
    report["sequential"] = stages.summary()

    renderer, _ = make(2 * cores)
    with renderer:
        renderer.render(pages[:4])  # warm-up, as the bench does
        batch = pages * args.throughput_rounds
        tree.read()
        busy0, start = busy_s(), time.perf_counter()
        results = renderer.render(batch)
        wall = time.perf_counter() - start
        cpu = tree.read()
        other = busy_s() - busy0 - sum(cpu.values())
    if not all(r.ok for r in results):
        raise SystemExit(f"renders failed: {[r.reason for r in results if not r.ok][:3]}")
    total = sum(cpu.values())
    report["throughput"] = {"pages": 2 * cores, "renders": len(batch), "per_s_wall": round(len(batch) / wall, 3),
                            "cpu_ms_per_render": round(1000 * total / len(batch), 1),
                            "cpu_ms_per_render_by_process": {k: round(1000 * v / len(batch), 1) for k, v in
                                                             sorted(cpu.items()) if v},
                            "idle_cores_per_s": round(cores * len(batch) / total, 3),
                            # CPU of every process outside this tree during the batch, per wall second
                            "other_cores": round(max(0.0, other) / wall, 3),
                            "load_avg_1m_at_end": round(os.getloadavg()[0], 2)}
    report["profiler_overhead_cpu_ms"] = round(1000 * tree.overhead_s, 1)
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    sys.exit(main())
