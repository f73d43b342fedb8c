"""Render page scripts in headless Chromium (Playwright) and take 1280x800 screenshots.

Owns the browser: a pool of pages (one browser context each, so a hung page can be thrown away
alone), the offline page shell, request blocking and the render verdict. A render fails on a
page error, a console error, an empty root or a timeout. Every request except the page's own
four files is aborted and counted; the page is served from a route, never from file://.
Playwright runs on its own event loop in a background thread, so callers stay synchronous
(the trainer) and may even have their own asyncio loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot_repro.tasks.react.lifecycle import OwnsProcesses
from bot_repro.tasks.react.sourcemap import SourceMap, line_from_stack

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ORIGIN = "http://app.local"
SHELL = (
    '<!doctype html><html><head><meta charset="utf-8"><title>app</title>'
    '<script src="/tailwind.js"></script></head>'
    '<body><div id="root"></div><script src="/vendor.js"></script><script src="/app.js"></script></body></html>'
)
# Console noise caused by our own blocking; a blocked request is counted, not a failure.
_BLOCK_NOISE = ("Failed to load resource", "net::ERR_BLOCKED_BY_CLIENT", "net::ERR_FAILED")


def renderer_missing(chromium: str = CHROMIUM) -> str | None:
    """Why rendering cannot run here, or None when it can."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed"
    if not Path(chromium).exists():
        return f"{chromium} is missing; run scripts/install_react_deps.sh (apt-get install chromium)"
    return None


@dataclass
class RenderResult:
    ok: bool
    png: bytes | None = None
    reason: str = ""
    errors: list[dict] = field(default_factory=list)  # {"kind", "message", "line" (sample line or None)}
    blocked: list[str] = field(default_factory=list)  # URLs of aborted requests
    elapsed_s: float = 0.0


class _Slot:
    """One page in its own context; ``app_js`` is what the route serves as /app.js right now."""

    def __init__(self) -> None:
        self.context = None
        self.page = None
        self.app_js = ""
        self.errors: list[dict] = []
        self.blocked: list[str] = []


class Renderer(OwnsProcesses):
    """``render(scripts, sourcemaps)`` -> one RenderResult per script (None script: not rendered)."""

    def __init__(self, vendor_js: str, tailwind_js: str, pages: int = 2, timeout_s: float = 10.0,
                 settle_ms: int = 150, viewport: tuple[int, int] = (1280, 800), chromium: str = CHROMIUM):
        missing = renderer_missing(chromium)
        if missing:
            raise RuntimeError(f"cannot start the React renderer: {missing}")
        self.assets = {"/": (SHELL, "text/html"), "/tailwind.js": (tailwind_js, "text/javascript"),
                       "/vendor.js": (vendor_js, "text/javascript")}
        self.n_pages, self.timeout_s, self.settle_ms = pages, timeout_s, settle_ms
        self.viewport = {"width": viewport[0], "height": viewport[1]}
        self.chromium = chromium
        self.recycled = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="react-renderer", daemon=True)
        self._thread.start()
        self._closed = False
        self._cleanup_with(Renderer._shutdown, self._loop, self._thread, self.__dict__)
        try:
            self._call(self._start(), timeout=120)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ sync facade
    def _call(self, coro, timeout: float):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def render(self, scripts: list[str | None], sourcemaps: list[str | None] | None = None) -> list[RenderResult | None]:
        maps = sourcemaps or [None] * len(scripts)
        budget = self.timeout_s * (len(scripts) / self.n_pages + 2) + 60
        return self._call(self._render_all(scripts, maps), timeout=budget)

    @staticmethod
    def _shutdown(loop: asyncio.AbstractEventLoop, thread: threading.Thread, state: dict) -> None:
        if state.get("_closed", True) or not loop.is_running():
            return
        state["_closed"] = True

        async def stop() -> None:
            for obj in (state.get("_browser"), state.get("_pw")):
                if obj is None:
                    continue
                try:
                    await asyncio.wait_for(obj.close() if obj is state.get("_browser") else obj.stop(), 15)
                except Exception:  # shutting down; the process exits anyway
                    pass

        try:
            asyncio.run_coroutine_threadsafe(stop(), loop).result(30)
        except Exception:
            pass
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)

    # ------------------------------------------------------------------ async side
    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        self._pw = await async_playwright().start()
        self._browser = await self._pw.chromium.launch(executable_path=self.chromium, args=CHROMIUM_ARGS,
                                                       headless=True)
        self._slots: asyncio.Queue[_Slot] = asyncio.Queue()
        for _ in range(self.n_pages):
            slot = _Slot()
            await self._open(slot)
            self._slots.put_nowait(slot)

    async def _open(self, slot: _Slot) -> None:
        slot.context = await self._browser.new_context(viewport=self.viewport, service_workers="block",
                                                       java_script_enabled=True)

        async def route(r) -> None:
            url = r.request.url
            path = url[len(ORIGIN):] if url.startswith(ORIGIN) else None
            if path == "/app.js":
                await r.fulfill(status=200, body=slot.app_js, content_type="text/javascript")
            elif path in self.assets:
                body, ctype = self.assets[path]
                await r.fulfill(status=200, body=body, content_type=ctype)
            else:
                slot.blocked.append(url)
                await r.abort("blockedbyclient")

        await slot.context.route("**/*", route)
        if hasattr(slot.context, "route_web_socket"):
            async def ws(r) -> None:
                slot.blocked.append(r.url)
                await r.close()

            await slot.context.route_web_socket("**/*", ws)
        slot.page = await slot.context.new_page()
        slot.page.on("pageerror", lambda exc: slot.errors.append(
            {"kind": "pageerror", "message": f"{exc.name}: {exc.message}" if exc.name else exc.message,
             "stack": exc.stack or ""}))

        def on_console(msg) -> None:
            if msg.type == "error" and not any(n in msg.text for n in _BLOCK_NOISE):
                loc = msg.location or {}
                slot.errors.append({"kind": "console", "message": msg.text,
                                    "stack": f"app.js:{loc.get('lineNumber', 0) + 1}:{loc.get('columnNumber', 0) + 1}"
                                    if str(loc.get("url", "")).endswith("/app.js") else ""})

        slot.page.on("console", on_console)

    async def _recycle(self, slot: _Slot) -> None:
        """Throw away a page that hung (its renderer may be stuck in a loop) and open a fresh one."""
        self.recycled += 1
        try:
            await asyncio.wait_for(slot.context.close(), 10)
        except Exception:  # the context is abandoned either way
            pass
        await self._open(slot)

    async def _render_all(self, scripts, maps) -> list[RenderResult | None]:
        async def one(script, smap):
            if script is None:
                return None
            slot = await self._slots.get()
            try:
                return await self._render_one(slot, script, smap)
            finally:
                self._slots.put_nowait(slot)

        return list(await asyncio.gather(*(one(s, m) for s, m in zip(scripts, maps))))

    async def _render_one(self, slot: _Slot, script: str, smap_json: str | None) -> RenderResult:
        started = time.monotonic()
        slot.app_js, slot.errors, slot.blocked = script, [], []
        try:
            outcome = await asyncio.wait_for(self._visit(slot), self.timeout_s)
        except TimeoutError:
            outcome = None
        except Exception as exc:  # a broken page must score, not crash the run
            outcome = ("error", f"browser error: {exc}")
        result = RenderResult(ok=False, blocked=list(slot.blocked))
        if outcome is None:
            result.reason = f"render timed out after {self.timeout_s:g}s (page hung or never loaded)"
            await self._recycle(slot)
        smap = None
        if slot.errors and smap_json:
            try:
                smap = SourceMap(smap_json)
            except (ValueError, KeyError):
                smap = None
        result.errors = [{"kind": e["kind"], "message": e["message"][:1000], "line": line_from_stack(e["stack"], smap)}
                         for e in slot.errors]
        if outcome is not None:
            kind, value = outcome
            if result.errors:
                first = result.errors[0]
                result.reason = f"{first['kind']}: {first['message']}"
            elif kind == "error":
                result.reason = value
            elif kind == "empty":
                result.reason = "empty root: the app rendered nothing"
            else:
                result.ok, result.png = True, value
        result.elapsed_s = time.monotonic() - started
        return result

    async def _visit(self, slot: _Slot):
        page = slot.page
        await page.goto(ORIGIN + "/", wait_until="load")
        # Let React commit, effects run and Tailwind (which watches the DOM) emit its styles.
        await page.evaluate(
            "ms => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, ms))))",
            self.settle_ms)
        if slot.errors:
            return ("errors", None)
        filled = await page.evaluate(
            "() => { const r = document.getElementById('root');"
            " return !!r && r.childNodes.length > 0 && (r.innerText.trim().length > 0 ||"
            " r.getBoundingClientRect().height > 0); }")
        if not filled:
            return ("empty", None)
        png = await page.screenshot(type="png", full_page=False)
        return ("png", png)
