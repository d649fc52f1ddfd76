"""``unmask serve web`` in headless Chromium as a tablet: log in, see the lobby, tap to make a table.

Skipped unless Debian's chromium (/usr/bin/chromium) and the playwright package are installed
(never ``playwright install``). The screen is read from the websocket frames (the page draws on
a canvas) through pyte; the tap lands on the cell where "Create table" is drawn.
"""

from __future__ import annotations

import asyncio
import os
import re
import time

import pyte
import pytest

from tui.serve.ssh import add_password
from tui.serve.web import start_web_server

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

playwright_api = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium")


def test_tablet_logs_in_and_taps():
    add_password("alice", "secret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0)
        base = f"http://127.0.0.1:{served.port}"
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                ctx = await browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True,
                                                is_mobile=True)
                page = await ctx.new_page()
                screen: dict = {}

                def on_ws(ws) -> None:
                    m = re.search(r"width=(\d+)&height=(\d+)", ws.url)
                    cols, rows = (int(m.group(1)), int(m.group(2))) if m else (80, 24)
                    screen["size"] = (cols, rows)
                    screen["screen"] = pyte.Screen(cols, rows)
                    stream = pyte.ByteStream(screen["screen"])

                    def frame(payload) -> None:
                        if isinstance(payload, bytes | bytearray):
                            stream.feed(bytes(payload))

                    ws.on("framereceived", frame)

                page.on("websocket", on_ws)
                await page.goto(base + "/")
                assert page.url.endswith("/login")
                await page.fill("input[name=user]", "alice")
                await page.fill("input[name=password]", "secret")
                await page.click("button[type=submit]")

                async def wait_for(text: str, timeout: float = 30) -> tuple[int, int]:
                    deadline = time.monotonic() + timeout
                    while time.monotonic() < deadline:
                        if "screen" in screen:
                            for y, line in enumerate(screen["screen"].display):
                                if text in line:
                                    return line.index(text), y
                        await asyncio.sleep(0.2)
                    shown = "\n".join(screen["screen"].display) if "screen" in screen else "(no websocket)"
                    raise AssertionError(f"{text!r} never appeared:\n{shown}")

                await wait_for("you are alice")  # the lobby of shared tables, as the logged-in user
                cols, rows = screen["size"]
                assert cols >= 80  # a 1024-pixel tablet gets a wide terminal
                await asyncio.sleep(0.5)
                x, y = await wait_for("Create table")
                box = await page.locator("body").bounding_box()
                term = page.locator(".xterm-screen")
                if await term.count():
                    box = await term.first.bounding_box()
                cw, ch = box["width"] / cols, box["height"] / rows
                await page.touchscreen.tap(box["x"] + (x + 2.5) * cw, box["y"] + (y + 0.5) * ch)
                await wait_for("Your cards:")  # a new shared table, alice at seat 1
                assert [s.owners for s in served.tables.tables.values()] == [{0: "alice"}]
                await browser.close()
        finally:
            await served.close()
            await asyncio.sleep(0.5)  # let the app process's pipes close inside the loop

    asyncio.run(asyncio.wait_for(scenario(), 90))
