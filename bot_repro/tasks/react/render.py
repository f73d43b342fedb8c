"""Render page scripts in headless Chromium (Playwright) and take 1280x800 screenshots.

Owns the browser: a pool of pages (one browser context each, so a hung page can be thrown away
alone), the offline page shell, request blocking and the render verdict. A render fails on a
page error (docs/method.md §4) or a timeout; console errors and an empty root are reported (``strict``:
they fail too). Image requests get a local placeholder image, so an image-heavy page loads; every
other request except the page's own files is aborted and counted; the page is served from a
route, never from file://. The screenshot is taken once the page has loaded and gone idle; the
timeout only bounds that wait (a page still loading at half the timeout is shot as it is).
Playwright runs on its own event loop in a background thread, so callers stay synchronous
(the trainer) and may even have their own asyncio loop.
"""

from __future__ import annotations

import asyncio
import base64
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
HEAD = '<!doctype html><html><head><meta charset="utf-8"><title>app</title>'
BODY = '</head><body><div id="root"></div><script src="/vendor.js"></script>'
# What an <img> (or CSS background) gets instead of a remote image: a neutral 400x300 grey card.
PLACEHOLDER_IMAGE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">'
    '<rect width="400" height="300" fill="#d4d4d8"/><path d="M150 200l40-50 30 35 20-20 40 35z" fill="#a1a1aa"/>'
    '<circle cx="250" cy="110" r="16" fill="#a1a1aa"/></svg>'
)
MAX_MESSAGES = 50  # page and console errors kept per render
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
class Page:
    """One sample's page: its script (app.js), the icons it imports (deps.js), the library chunks
    it loads, the source map of app.js (lines of the sample) and its Tailwind CSS (app.css; None:
    Tailwind's browser build styles the page at run time)."""

    app_js: str
    deps_js: str = ""
    chunks: list[str] = field(default_factory=list)
    sourcemap: str | None = None
    css: str | None = None

    def shell(self) -> str:
        style = '<script src="/tailwind.js"></script>' if self.css is None else '<link rel="stylesheet" href="/app.css">'
        tags = "".join(f'<script src="/lib/{name}.js"></script>' for name in self.chunks)
        if self.deps_js:
            tags += '<script src="/deps.js"></script>'
        return HEAD + style + BODY + tags + '<script src="/app.js"></script></body></html>'


@dataclass
class RenderResult:
    ok: bool
    png: bytes | None = None
    reason: str = ""
    errors: list[dict] = field(default_factory=list)  # page errors: {"kind", "message", "line" (sample line or None)}
    console: list[dict] = field(default_factory=list)  # console errors, same keys
    empty_root: bool = False  # the root element stayed empty (React rendered nothing)
    load_timed_out: bool = False  # still loading at the wait bound; shot as it was
    blocked: list[str] = field(default_factory=list)  # URLs of aborted requests
    placeholders: list[str] = field(default_factory=list)  # image URLs answered with the placeholder
    elapsed_s: float = 0.0


class _Slot:
    """One page in its own context; ``page_files`` is what the route serves for this slot right now."""

    def __init__(self) -> None:
        self.context = None
        self.page = None
        self.cdp = None
        self.page_files: dict[str, tuple[str, str]] = {}
        self.errors: list[dict] = []
        self.console: list[dict] = []
        self.blocked: list[str] = []
        self.placeholders: list[str] = []


class Renderer(OwnsProcesses):
    """``render(pages)`` -> one RenderResult per ``Page`` (None: not rendered).

    chunks: the prebuilt library scripts (name -> script) that pages may load as /lib/<name>.js.
    strict: console errors and an empty root fail the render too (the verdict before issue #12).
    """

    def __init__(self, vendor_js: str, tailwind_js: str, pages: int = 2, timeout_s: float = 10.0,
                 settle_ms: int = 150, viewport: tuple[int, int] = (1280, 800), chromium: str = CHROMIUM,
                 chunks: dict[str, str] | None = None, strict: bool = False):
        missing = renderer_missing(chromium)
        if missing:
            raise RuntimeError(f"cannot start the React renderer: {missing}")
        self.assets = {"/tailwind.js": (tailwind_js, "text/javascript"), "/vendor.js": (vendor_js, "text/javascript"),
                       **{f"/lib/{name}.js": (js, "text/javascript") for name, js in (chunks or {}).items()}}
        self.n_pages, self.timeout_s, self.settle_ms, self.strict = pages, timeout_s, settle_ms, strict
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

    def render(self, pages: list[Page | str | None]) -> list[RenderResult | None]:
        """Render each page (a bare string is an app.js without deps); None entries stay None."""
        pages = [Page(p) if isinstance(p, str) else p for p in pages]
        for p in pages:
            missing = [c for c in (p.chunks if p else []) if f"/lib/{c}.js" not in self.assets]
            if missing:
                raise ValueError(f"page needs library chunks {missing} that this renderer was not given")
        budget = self.timeout_s * (len(pages) / self.n_pages + 2) + 60
        return self._call(self._render_all(pages), timeout=budget)

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
            if path in slot.page_files or path in self.assets:
                body, ctype = slot.page_files.get(path) or self.assets[path]
                await r.fulfill(status=200, body=body, content_type=ctype)
            elif r.request.resource_type == "image":
                slot.placeholders.append(url)
                await r.fulfill(status=200, body=PLACEHOLDER_IMAGE, content_type="image/svg+xml")
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
        slot.cdp = await slot.context.new_cdp_session(slot.page)
        slot.page.on("pageerror", lambda exc: len(slot.errors) < MAX_MESSAGES and slot.errors.append(
            {"kind": "pageerror", "message": f"{exc.name}: {exc.message}" if exc.name else exc.message,
             "stack": exc.stack or ""}))

        def on_console(msg) -> None:
            if len(slot.console) >= MAX_MESSAGES:  # a page may log in a loop; the first ones tell
                return
            if msg.type == "error" and not any(n in msg.text for n in _BLOCK_NOISE):
                loc = msg.location or {}
                slot.console.append({"kind": "console", "message": msg.text,
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

    async def _render_all(self, pages: list[Page | None]) -> list[RenderResult | None]:
        async def one(page: Page | None):
            if page is None:
                return None
            slot = await self._slots.get()
            try:
                return await self._render_one(slot, page)
            finally:
                self._slots.put_nowait(slot)

        return list(await asyncio.gather(*(one(p) for p in pages)))

    async def _render_one(self, slot: _Slot, page: Page) -> RenderResult:
        started = time.monotonic()
        slot.page_files = {"/": (page.shell(), "text/html"), "/app.js": (page.app_js, "text/javascript"),
                           "/deps.js": (page.deps_js, "text/javascript"), "/app.css": (page.css or "", "text/css")}
        slot.errors, slot.console, slot.blocked, slot.placeholders = [], [], [], []
        state: dict = {}
        try:
            outcome = await asyncio.wait_for(self._visit(slot, state), self.timeout_s)
        except TimeoutError:
            outcome = None
        except Exception as exc:  # a broken page must score, not crash the run
            outcome = ("error", f"browser error: {exc}")
        result = RenderResult(ok=False, blocked=list(slot.blocked), placeholders=list(slot.placeholders),
                              load_timed_out=bool(state.get("load_timed_out")))
        if outcome is None:
            result.reason = f"render timed out after {self.timeout_s:g}s (page hung)"
            await self._recycle(slot)
        smap = None
        if (slot.errors or slot.console) and page.sourcemap:
            try:
                smap = SourceMap(page.sourcemap)
            except (ValueError, KeyError):
                smap = None

        def located(entries: list[dict]) -> list[dict]:
            return [{"kind": e["kind"], "message": e["message"][:1000], "line": line_from_stack(e["stack"], smap)}
                    for e in entries]

        result.errors, result.console = located(slot.errors), located(slot.console)
        if outcome is not None:
            kind, value = outcome
            result.empty_root = kind == "empty"
            failures = result.errors + (result.console if self.strict else [])
            if failures:
                first = failures[0]
                result.reason = f"{first['kind']}: {first['message']}"
            elif kind == "error":
                result.reason = value
            elif kind == "empty" and self.strict:
                result.reason = "empty root: the app rendered nothing"
            else:
                result.ok, result.png = True, value
        result.elapsed_s = time.monotonic() - started
        return result

    async def _visit(self, slot: _Slot, state: dict):
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        page = slot.page
        started = time.monotonic()
        # Scripts run before DOMContentLoaded; a page whose script hangs never gets here (timeout).
        await page.goto(ORIGIN + "/", wait_until="domcontentloaded")
        # Then wait for the load event (images, now placeholders) for at most half the timeout: a
        # page that keeps loading is shot as it is rather than failed.
        bound_ms = max(1.0, (self.timeout_s / 2 - (time.monotonic() - started)) * 1000)
        try:
            await page.wait_for_load_state("load", timeout=bound_ms)
        except PlaywrightTimeout:
            state["load_timed_out"] = True
        # Let React commit, effects run and Tailwind (which watches the DOM) emit its styles, then
        # wait for an idle main thread (bounded, so a busy animation loop cannot hold the shot).
        await page.evaluate(
            "ms => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() =>"
            " (window.requestIdleCallback ? requestIdleCallback(r, {timeout: 500}) : r()), ms))))",
            self.settle_ms)
        if slot.errors:
            return ("errors", None)
        filled = await page.evaluate(
            "() => { const r = document.getElementById('root');"
            " return !!r && r.childNodes.length > 0 && (r.innerText.trim().length > 0 ||"
            " r.getBoundingClientRect().height > 0); }")
        if not filled and self.strict:
            return ("empty", None)
        # Chromium's fast PNG encoder (CDP optimizeForSpeed): a third of Playwright's screenshot cost.
        shot = await slot.cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        return ("png" if filled else "empty", base64.b64decode(shot["data"]))
