"""Time plotly.js drawing a figure in real Chromium (headless, Debian's binary), with a hard limit per figure.

The page loads the plotly.js bundled with plotly.py (the v4 line Streamlit bundles too); each figure is drawn
with ``Plotly.newPlot`` into a fresh 1000x600 div and timed from the call until plotly.js resolves the draw and
the browser has produced the next frame (a ``requestAnimationFrame`` after the promise), so layout and paint
count.  A figure that does not finish within the limit counts as the limit, and its browser is replaced (a tab
whose script hangs cannot be interrupted from inside).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import plotly

from tests.e2e.conftest import CHROMIUM

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
DRAW = """async (text) => {
  const fig = JSON.parse(text);
  document.body.innerHTML = '<div id="g" style="width:1000px;height:600px"></div>';
  const started = performance.now();
  await Plotly.newPlot('g', fig.data, fig.layout || {}, {responsive: false});
  if (fig.frames) { await Plotly.addFrames('g', fig.frames); }
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - started;
}"""
LEGEND = """() => Array.from(document.querySelectorAll('#g .legend .traces .legendtext'), e => e.textContent)"""


class DrawTimer:
    """``seconds(fig)``: how long Chromium takes to draw ``fig`` (``limit_s`` when it does not finish in time)."""

    def __init__(self, limit_s: float) -> None:
        self.limit_s = limit_s
        # its own loop on its own thread: a test process whose main thread runs Playwright's sync API (the pytest
        # fixtures) already has a running loop there
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="draw-timer", daemon=True)
        self.thread.start()
        self.pw = None
        self.browser = None
        self.page = None

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        if self.pw is None:
            self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])
        self.page = await self.browser.new_page(viewport={"width": 1100, "height": 700})
        await self.page.set_content("<html><body></body></html>")
        await self.page.add_script_tag(path=str(PLOTLY_JS))

    async def _stop_browser(self) -> None:
        if self.browser is not None:
            try:
                await asyncio.wait_for(self.browser.close(), 20)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - a hung browser: its process is killed below
                process = getattr(getattr(self.browser, "_impl_obj", None), "_browser_process", None)
                if process is not None:
                    process.kill()
        self.browser = self.page = None

    async def _seconds(self, fig: dict) -> float:
        if self.page is None:
            await self._start()
        assert self.page is not None
        try:
            return float(await asyncio.wait_for(self.page.evaluate(DRAW, json.dumps(fig)), self.limit_s)) / 1000
        except asyncio.TimeoutError:
            await self._stop_browser()
            return self.limit_s
        except Exception as exc:  # a crashed tab ("Target crashed") did not draw either
            await self._stop_browser()
            if "crash" in str(exc).lower() or "closed" in str(exc).lower():
                return self.limit_s
            raise

    async def _legend(self) -> list[str]:
        assert self.page is not None
        return list(await self.page.evaluate(LEGEND))

    def legend_names(self) -> list[str]:
        """The legend entries' texts of the chart drawn last (what a person reads to tell the series apart)."""
        return list(self._run(self._legend()))

    def _run(self, coro):  # noqa: ANN001, ANN202 - a coroutine and its result
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def seconds(self, fig: dict) -> float:
        return float(self._run(self._seconds(fig)))

    def close(self) -> None:
        self._run(self._stop_browser())
        if self.pw is not None:
            self._run(self.pw.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()


@contextmanager
def draw_timer(limit_s: float = 10.0) -> Iterator[DrawTimer]:
    timer = DrawTimer(limit_s)
    try:
        yield timer
    finally:
        timer.close()
