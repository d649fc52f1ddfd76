"""Waiting on a server from a test: run a scenario with a deadline, wait for a condition the server
reaches by itself, tell whether an app process has ended (the warm-pool tests of SSH and web)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path


def run(coro, timeout: float = 150.0):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(test, timeout: float = 90.0, what: str = "") -> None:
    """Wait for ``test()`` to hold, at most ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or test}")
        await asyncio.sleep(0.05)


def gone(pid: int) -> bool:
    """The process has ended (reaped, or a zombie waiting for the fork server to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def alive(pid: int) -> bool:
    return not gone(pid)
