"""A tiny SSH terminal for tests: an asyncssh client with a pty whose output feeds a pyte screen."""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncssh
import pyte

from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server


async def serving_ssh(scenario, users: dict[str, str], **kw):
    """Run ``scenario(server)`` against an SSH server on loopback that knows ``users``; always close it."""
    for user, password in users.items():
        add_password(user, password)
    kw.setdefault("passwords_file", default_passwords_file())
    kw.setdefault("tables", False)
    kw.setdefault("pool", 1)  # a warm pool of one app (the default, one per --max-sessions, is for real servers)
    server = await start_ssh_server("127.0.0.1", 0, **kw)
    try:
        return await scenario(server)
    finally:
        server.close()
        await server.wait_closed()


class Term:
    """One SSH session with a pty; ``text()`` is what a person would see now."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: asyncssh.SSHClientProcess,
                 width: int, height: int) -> None:
        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, port: int, user: str = "alice", *, password: str | None = None, client_keys=None,
                   width: int = 80, height: int = 24, term: str = "xterm-256color") -> Term:
        conn = await asyncssh.connect("127.0.0.1", port, username=user, password=password,
                                      client_keys=client_keys, known_hosts=None, agent_path=None,
                                      preferred_auth="publickey,password" if client_keys else "password")
        proc = await conn.create_process(term_type=term, term_size=(width, height), encoding=None)
        return cls(conn, proc, width, height)

    async def _read(self) -> None:
        while True:
            data = await self.proc.stdout.read(65536)
            if not data:
                self.changed.set()
                return
            self.raw += data
            self.stream.feed(data)
            self.changed.set()

    @property
    def closed(self) -> bool:
        return self._reader.done()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, predicate, timeout: float = 20.0) -> str:
        """Wait until ``predicate(screen_text)`` (a str means "appears on screen")."""
        test = (lambda s: predicate in s) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while True:
            if test(self.text()):
                return self.text()
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise AssertionError(f"timed out waiting for {predicate!r}; screen:\n{self.text()}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Wait until nothing has been drawn for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), quiet)
            except TimeoutError:
                return

    def send(self, data: str | bytes) -> None:
        self.proc.stdin.write(data.encode() if isinstance(data, str) else data)

    def find(self, word: str) -> tuple[int, int]:
        """0-based (x, y) of the first cell of ``word`` on screen."""
        for y, line in enumerate(self.screen.display):
            x = line.find(word)
            if x >= 0:
                return x, y
        raise AssertionError(f"{word!r} is not on screen:\n{self.text()}")

    def click(self, x: int, y: int) -> None:
        """An SGR mouse click (press and release of the left button) at 0-based cell (x, y)."""
        self.send(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")

    async def close(self) -> None:
        self.conn.close()
        self._reader.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 5)
