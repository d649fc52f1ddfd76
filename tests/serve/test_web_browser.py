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
        served = await start_web_server("127.0.0.1", 0, pool=1)
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


def test_a_page_of_another_origin_cannot_drive_the_app_and_the_user_sees_only_their_space():
    """Chromium logged in as alice: a page on another port of the same host (same site, so the
    SameSite cookie goes along) tries the websocket and is refused; alice's own page works, its
    websocket address comes from the browser's location, and "My games" holds none of the host's."""
    from aiohttp import web

    from solvers.table import Table
    from tui import storage

    add_password("alice", "secret")
    table = Table("clue", {"players": 3, "board": "red-keep"}, 5, ["human", "notes", "notes"])
    storage.save_session(table.to_session(), "clue-play-hostsecret")

    async def scenario():
        served = await start_web_server("127.0.0.1", 0, pool=1)
        base = f"http://127.0.0.1:{served.port}"
        evil_page = f"""<!doctype html><html><body><script>
          window.result = "pending";
          const ws = new WebSocket("ws://127.0.0.1:{served.port}/ws?width=80&height=24");
          ws.onopen = () => {{ window.result = "open"; }};
          ws.onerror = () => {{ window.result = "refused"; }};
        </script></body></html>"""
        evil = web.Application()
        evil.router.add_get("/", lambda request: web.Response(text=evil_page, content_type="text/html"))
        runner = web.AppRunner(evil)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        evil_port = site._server.sockets[0].getsockname()[1]
        try:
            async with playwright_api.async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                ctx = await browser.new_context(viewport={"width": 1024, "height": 768})
                page = await ctx.new_page()
                frames: dict = {}

                def on_ws(ws) -> None:
                    frames["url"] = ws.url
                    m = re.search(r"width=(\d+)&height=(\d+)", ws.url)
                    frames["screen"] = pyte.Screen(int(m.group(1)), int(m.group(2))) if m else pyte.Screen(80, 24)
                    stream = pyte.ByteStream(frames["screen"])
                    ws.on("framereceived", lambda payload: stream.feed(bytes(payload))
                          if isinstance(payload, bytes | bytearray) else None)

                page.on("websocket", on_ws)
                await page.goto(base + "/login")
                await page.fill("input[name=user]", "alice")
                await page.fill("input[name=password]", "secret")
                await page.click("button[type=submit]")

                async def wait_for(text: str, timeout: float = 30) -> None:
                    deadline = time.monotonic() + timeout
                    while time.monotonic() < deadline:
                        if "screen" in frames and any(text in line for line in frames["screen"].display):
                            return
                        await asyncio.sleep(0.2)
                    shown = "\n".join(frames["screen"].display) if "screen" in frames else "(no websocket)"
                    raise AssertionError(f"{text!r} never appeared ({frames.get('url')}):\n{shown}")

                await wait_for("you are alice")
                assert frames["url"].startswith(f"ws://127.0.0.1:{served.port}/ws?")  # from the page's location
                running = served.server.running
                # Another origin, same site: Chromium sends alice's cookie, the server refuses the Origin.
                other = await ctx.new_page()
                await other.goto(f"http://127.0.0.1:{evil_port}/")
                deadline = time.monotonic() + 15
                while await other.evaluate("window.result") == "pending" and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                assert await other.evaluate("window.result") == "refused"
                assert served.server.running == running  # no app was started for it
                # Alice's own space: "My games" (key m) lists nothing of the host's.
                await page.bring_to_front()
                await page.locator(".xterm-screen").first.click()
                await page.keyboard.press("m")
                await wait_for("No saved games yet")
                assert not any("hostsecret" in line for line in frames["screen"].display)
                await browser.close()
        finally:
            await runner.cleanup()
            await served.close()
            await asyncio.sleep(0.5)

    asyncio.run(asyncio.wait_for(scenario(), 90))
