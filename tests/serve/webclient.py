"""What a browser's websocket receives from ``unmask serve web``, for tests."""

from __future__ import annotations

import time

import aiohttp


async def first_frames(ws: aiohttp.ClientWebSocketResponse, want: bytes, timeout: float = 30, *,
                       text: bool = False) -> bytes:
    """The frames received until ``want`` shows, the time is up or the socket closes.

    Binary frames carry the terminal's output; ``text`` keeps the text (control) frames too, for a
    test that must see that something never appears in any frame.
    """
    got = bytearray()
    deadline = time.monotonic() + timeout
    while want not in got and time.monotonic() < deadline:
        try:
            msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        if msg.type == aiohttp.WSMsgType.BINARY:
            got += msg.data
        elif msg.type == aiohttp.WSMsgType.TEXT:
            if text:
                got += msg.data.encode()
        else:
            break
    return bytes(got)
