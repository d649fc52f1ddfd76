"""Benchmark: N simultaneous SSH sessions of ``unmask serve ssh`` on loopback, each pressing a key.

The server runs in its own process (temporary data dir, one test user). Each client opens a pty
session (xterm-256color, 100x30), waits for the home screen, then presses Tab (focus moves to the
next button, so the screen changes) every ``--interval`` seconds; the latency is the time from
sending the key to the first screen bytes that follow it. Sessions start together.

Usage: ``python benchmarks/ssh_load.py [--sessions N] [--presses K] [--interval S]``.
Prints start-up time (connect to home screen) and key-to-update latency: median, p90, worst.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncssh

HOME = b"Hidden-information"


def _serve(port: int, data: str, max_sessions: int) -> None:
    os.environ["UNMASK_DATA_DIR"] = data
    os.environ["TEXTUAL_ANIMATIONS"] = "none"
    from tui.serve.ssh import serve_ssh

    serve_ssh("127.0.0.1", port, passwords_file=Path(data) / "ssh_passwords.json",
              max_sessions=max_sessions, tables=False, announce=lambda *_: None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _wait_port(port: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            _r, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


async def _session(port: int, presses: int, interval: float, latencies: list[float], startups: list[float]) -> None:
    t0 = time.monotonic()
    async with asyncssh.connect("127.0.0.1", port, username="bench", password="bench", known_hosts=None,
                                agent_path=None, client_keys=None) as conn:
        proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30), encoding=None)
        seen = bytearray()
        while HOME not in seen:
            chunk = await asyncio.wait_for(proc.stdout.read(65536), 60)
            if not chunk:
                raise RuntimeError("the session closed before the home screen")
            seen += chunk
        startups.append(time.monotonic() - t0)
        # Let the first frames settle.
        while True:
            try:
                await asyncio.wait_for(proc.stdout.read(65536), 0.5)
            except TimeoutError:
                break
        for _ in range(presses):
            sent = time.monotonic()
            proc.stdin.write(b"\t")
            await asyncio.wait_for(proc.stdout.read(65536), 30)
            latencies.append(time.monotonic() - sent)
            # Drain the rest of this update, then wait for the next press.
            end = time.monotonic() + interval
            while (left := end - time.monotonic()) > 0:
                try:
                    await asyncio.wait_for(proc.stdout.read(65536), left)
                except TimeoutError:
                    break
        proc.stdin.write(b"q")
        conn.close()


async def _run(port: int, sessions: int, presses: int, interval: float) -> tuple[list[float], list[float], int]:
    await _wait_port(port)
    latencies: list[float] = []
    startups: list[float] = []
    results = await asyncio.gather(*(_session(port, presses, interval, latencies, startups) for _ in range(sessions)),
                                   return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    for r in failed[:3]:
        print(f"  a session failed: {r.__class__.__name__}: {r}")
    return latencies, startups, len(failed)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--presses", type=int, default=10)
    ap.add_argument("--interval", type=float, default=0.5, help="seconds between two presses of one session")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="unmask-ssh-load-") as data:
        os.environ["UNMASK_DATA_DIR"] = data
        from tui.serve.ssh import add_password

        add_password("bench", "bench", Path(data) / "ssh_passwords.json")
        port = _free_port()
        server = multiprocessing.get_context("spawn").Process(target=_serve, args=(port, data, args.sessions + 1))
        server.start()
        try:
            t0 = time.monotonic()
            lat, start, failed = asyncio.run(_run(port, args.sessions, args.presses, args.interval))
            wall = time.monotonic() - t0
        finally:
            server.terminate()  # SIGTERM: the server ends every app cleanly
            server.join(20)
    ms = [x * 1000 for x in lat]
    print(f"ssh_load: {args.sessions} sessions ({failed} failed), {len(ms)} key presses, {os.cpu_count()} cores, "
          f"{wall:.1f} s wall")
    print(f"  start-up (connect → home screen): median {statistics.median(start):.2f} s, "
          f"p90 {_pct(start, 0.9):.2f} s, worst {max(start):.2f} s" if start else "  no session started")
    if ms:
        print(f"  key → screen update: median {statistics.median(ms):.1f} ms, p90 {_pct(ms, 0.9):.1f} ms, "
              f"worst {max(ms):.1f} ms")
    return 1 if failed or not ms else 0


if __name__ == "__main__":
    sys.exit(main())
