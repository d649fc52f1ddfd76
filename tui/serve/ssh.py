"""``unmask serve ssh``: every SSH connection gets its own unmask app in a pty.

Only the app is served: no shell, no commands, no port forwarding, no SFTP. Authentication is
by an authorized-keys file and/or a passwords file of salted scrypt hashes
(:func:`add_password` writes it). The host key is generated once into ``data_dir()/ssh_host_key``
so clients see the same server after a restart.

Per connection: ``os.openpty()``; the app runs as a child process (``python -m tui.serve.child``)
on the slave side in a new session; this module copies bytes between the SSH channel and the
master side, passes window-size changes on, and ends the child cleanly (SIGHUP, then SIGTERM,
then SIGKILL) when the client goes away or stays idle too long.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import re
import secrets
import signal
import struct
import sys
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from tui.storage import atomic_write_json, data_dir

if TYPE_CHECKING:
    from tui.serve.tables import TableService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 2222
DEFAULT_MAX_SESSIONS = 20
DEFAULT_IDLE_TIMEOUT = 30 * 60.0
SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
# Leave the alternate screen, stop mouse reporting, show the cursor: in case a child died badly.
TERMINAL_RESET = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?25h\x1b[?1049l"


class ServeError(Exception):
    """A one-line problem with the server's configuration (the CLI prints it)."""


# --------------------------------------------------------------------------- files


def host_key_path() -> Path:
    return data_dir() / "ssh_host_key"


def default_passwords_file() -> Path:
    return data_dir() / "ssh_passwords.json"


def default_authorized_keys() -> Path:
    return data_dir() / "ssh_authorized_keys"


def load_or_create_host_key(path: Path | None = None) -> asyncssh.SSHKey:
    """The server's persistent host key; generated (ed25519, mode 0600) the first time."""
    path = path or host_key_path()
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError) as e:
            raise ServeError(f"Cannot read the SSH host key {path}: {e}.") from None
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    return key


def _hash(password: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length, maxmem=64 * 1024 * 1024)


def read_passwords(path: Path) -> dict[str, dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise ServeError(f"Cannot read the passwords file {path}: {e.__class__.__name__}.") from None
    users = data.get("users") if isinstance(data, dict) else None
    return users if isinstance(users, dict) else {}


def add_password(user: str, password: str, path: Path | str | None = None) -> Path:
    """Set ``user``'s password in the passwords file (salted scrypt hash; file mode 0600)."""
    if not user or any(c.isspace() or c in ":/" for c in user):
        raise ServeError(f"{user!r} is not a user name (no spaces, ':' or '/').")
    if not password:
        raise ServeError("An empty password is not allowed.")
    path = Path(path) if path else default_passwords_file()
    users = read_passwords(path)
    salt = secrets.token_bytes(16)
    digest = _hash(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN)
    users[user] = {"scheme": "scrypt", "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P,
                   "salt": salt.hex(), "hash": digest.hex()}
    atomic_write_json(path, {"users": users})
    os.chmod(path, 0o600)
    return path


def check_password(users: dict[str, dict], user: str, password: str) -> bool:
    entry = users.get(user)
    if not isinstance(entry, dict) or entry.get("scheme") != "scrypt":
        _hash(password, b"x" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN)  # same cost for unknown users
        return False
    try:
        want = bytes.fromhex(entry["hash"])
        salt = bytes.fromhex(entry["salt"])
        got = _hash(password, salt, int(entry["n"]), int(entry["r"]), int(entry["p"]), len(want))
    except (KeyError, ValueError, TypeError):
        return False
    return hmac.compare_digest(want, got)


def set_winsize(fd: int, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("hhhh", height, width, pixwidth, pixheight))


# --------------------------------------------------------------------------- sessions


@dataclass
class ServerState:
    """What every connection shares: limits, auth files, the command that runs the app, live sessions."""

    passwords_file: Path | None
    authorized_keys: Path | None
    max_sessions: int
    idle_timeout: float | None
    app_argv: list[str]
    extra_env: dict[str, str] = field(default_factory=dict)
    sessions: set[AppSession] = field(default_factory=set)

    def check_password(self, user: str, password: str) -> bool:
        if self.passwords_file is None:
            return False
        try:
            users = read_passwords(self.passwords_file)
        except ServeError:
            return False
        return check_password(users, user, password)


class AppSession:
    """One SSH session running one app child process on a pty."""

    def __init__(self, state: ServerState, process: asyncssh.SSHServerProcess) -> None:
        self.state = state
        self.process = process
        self.child: asyncio.subprocess.Process | None = None
        self.master: int | None = None
        self.last_input = time.monotonic()
        self._output_done = asyncio.Event()

    # ------------------------------------------------------------- refusing

    def _refuse(self, message: str, code: int = 1) -> None:
        self.process.stdout.write((f"unmask: {message}\r\n").encode())
        self.process.exit(code)

    async def run(self) -> None:
        p = self.process
        if p.command is not None or p.subsystem is not None:
            self._refuse("this server only runs the game; connect without a command (ssh -t host -p port).")
            return
        if not p.get_terminal_type():
            self._refuse("this server needs a terminal; connect with ssh -t.")
            return
        if len(self.state.sessions) >= self.state.max_sessions:
            self._refuse(f"the server is full ({self.state.max_sessions} players); please try again later.")
            return
        self.state.sessions.add(self)
        try:
            await self._serve()
        finally:
            self.state.sessions.discard(self)

    # ------------------------------------------------------------- serving

    def _env(self) -> dict[str, str]:
        p = self.process
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SSH_", "TEXTUAL_DRIVER"))}
        env.update(self.state.extra_env)
        env["TERM"] = p.get_terminal_type() or "xterm-256color"
        env["COLORTERM"] = "truecolor"  # OpenSSH does not pass it; without it colours fall to 256
        env["PYTHONIOENCODING"] = "utf-8"
        env.setdefault("LANG", "C.UTF-8")
        env["UNMASK_SERVE_PTY"] = "1"
        env["UNMASK_USER"] = env["UNMASK_SSH_USER"] = p.get_extra_info("username") or ""
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        return env

    async def _serve(self) -> None:
        p = self.process
        loop = asyncio.get_running_loop()
        width, height, pw, ph = p.term_size
        master, slave = os.openpty()
        self.master = master
        set_winsize(slave, width or 80, height or 24, pw, ph)
        try:
            self.child = await asyncio.create_subprocess_exec(
                *self.state.app_argv, stdin=slave, stdout=slave, stderr=slave,
                start_new_session=True, env=self._env(), close_fds=True)
        except OSError as e:
            os.close(slave)
            os.close(master)
            self._refuse(f"the game could not start ({e.__class__.__name__}).")
            return
        os.close(slave)
        os.set_blocking(master, False)
        loop.add_reader(master, self._on_output)
        reader = asyncio.create_task(self._pump_input())
        child_done = asyncio.create_task(self.child.wait())
        waits = {reader, child_done}
        idle = None
        if self.state.idle_timeout:
            idle = asyncio.create_task(self._watch_idle(self.state.idle_timeout))
            waits.add(idle)
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        timed_out = idle is not None and idle in done
        for t in (reader, idle):
            if t is not None and not t.done():
                t.cancel()
        if not child_done.done():
            await self._end_child()
        # Let the last frames (the app restoring the terminal) reach the client.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._output_done.wait(), 1.0)
        self._close_master()
        code = self.child.returncode if self.child.returncode is not None else 0
        with contextlib.suppress(Exception):
            if not p.channel.is_closing():  # type: ignore[attr-defined]
                p.stdout.write(TERMINAL_RESET)
                if timed_out:
                    minutes = self.state.idle_timeout / 60 if self.state.idle_timeout else 0
                    p.stdout.write(f"\r\nunmask: disconnected after {minutes:g} minutes without input.\r\n".encode())
                p.exit(code if code >= 0 else 0)

    def _on_output(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: every slave fd is closed, the child is gone
            data = b""
        if not data:
            self._stop_output()
            return
        try:
            self.process.stdout.write(data)
        except Exception:  # the channel is closed: the client is gone
            self._stop_output()

    def _stop_output(self) -> None:
        if self.master is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
        self._output_done.set()

    def _close_master(self) -> None:
        if self.master is not None:
            self._stop_output()
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None

    async def _pump_input(self) -> None:
        p = self.process
        while True:
            try:
                data = await p.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as e:
                if self.master is not None:
                    set_winsize(self.master, e.width, e.height, e.pixwidth, e.pixheight)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            except (asyncssh.Error, OSError, asyncio.IncompleteReadError):
                return
            if not data:
                return
            self.last_input = time.monotonic()
            await self._write_master(data)

    async def _write_master(self, data: bytes) -> None:
        view = memoryview(data)
        while view and self.master is not None:
            try:
                n = os.write(self.master, view)
            except BlockingIOError:
                await asyncio.sleep(0.01)
                continue
            except OSError:
                return
            view = view[n:]

    async def _watch_idle(self, timeout: float) -> None:
        while True:
            left = self.last_input + timeout - time.monotonic()
            if left <= 0:
                return
            await asyncio.sleep(min(left, 5.0))

    async def _end_child(self) -> None:
        """Ask the app to quit (it restores the terminal), then insist."""
        child = self.child
        if child is None or child.returncode is not None:
            return
        for sig, wait in ((signal.SIGHUP, 3.0), (signal.SIGTERM, 2.0), (signal.SIGKILL, 2.0)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(child.pid, sig)
            try:
                await asyncio.wait_for(child.wait(), wait)
                return
            except TimeoutError:
                continue

    async def close(self) -> None:
        await self._end_child()


USER_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,63}")


class _Server(asyncssh.SSHServer):
    def __init__(self, state: ServerState) -> None:
        self._state = state
        self._conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn

    def begin_auth(self, username: str) -> bool:
        keys = self._state.authorized_keys
        if keys is not None and keys.is_dir() and self._conn is not None and USER_NAME.fullmatch(username):
            path = keys / username  # per-user keys: the name a player is known by is bound to their key
            if path.is_file():
                with contextlib.suppress(ValueError, OSError):
                    self._conn.set_authorized_keys(str(path))
        return True  # always authenticate

    def password_auth_supported(self) -> bool:
        return self._state.passwords_file is not None

    def validate_password(self, username: str, password: str) -> bool:
        return self._state.check_password(username, password)


@dataclass
class SSHServer:
    """A running server: ``port`` (the real one when 0 was asked), ``close()`` then ``await wait_closed()``."""

    acceptor: asyncssh.SSHAcceptor
    state: ServerState
    host: str
    port: int

    tables: TableService | None = None  # None when tables are off or another server runs the service

    def close(self) -> None:
        self.acceptor.close()

    async def wait_closed(self) -> None:
        await self.acceptor.wait_closed()
        await asyncio.gather(*(s.close() for s in list(self.state.sessions)), return_exceptions=True)
        if self.tables is not None:
            await self.tables.close()


async def open_tables() -> tuple[Path, TableService | None]:
    """The shared table service's socket, starting the service unless another server runs it."""
    from tui.serve.tables import socket_path, start_or_attach

    try:
        return await start_or_attach()
    except OSError as e:
        raise ServeError(f"Cannot open the table service socket {socket_path()}: {e.strerror or e}.") from None


def _resolve_auth(authorized_keys: Path | str | None,
                  passwords_file: Path | str | None) -> tuple[Path | None, Path | None]:
    keys = Path(authorized_keys) if authorized_keys else None
    pw = Path(passwords_file) if passwords_file else None
    if keys is None and pw is None:
        if default_authorized_keys().exists():
            keys = default_authorized_keys()
        if default_passwords_file().exists():
            pw = default_passwords_file()
    if keys is not None and not keys.exists():
        raise ServeError(f"No authorized-keys file or directory at {keys}.")
    if keys is None and pw is None:
        raise ServeError(f"No way to log in: give an authorized-keys file, or add a password "
                         f"(unmask serve passwd USER) which writes {default_passwords_file()}.")
    return keys, pw


async def start_ssh_server(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
                           authorized_keys: Path | str | None = None, passwords_file: Path | str | None = None,
                           max_sessions: int = DEFAULT_MAX_SESSIONS,
                           idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
                           app_argv: Sequence[str] | None = None,
                           extra_env: dict[str, str] | None = None, tables: bool = True) -> SSHServer:
    """Listen on ``host:port`` (0 = any free port); ServeError (one line) for a bad configuration.

    ``authorized_keys`` is an OpenSSH authorized_keys file (its keys log in under any user name)
    or a directory holding one such file per user, named after the user (a key then logs in
    only as its user: use this when seats at shared tables matter).

    With ``tables`` (the default) the server also runs the table service, and every app opens
    on the lobby of shared tables.
    """
    keys, pw = _resolve_auth(authorized_keys, passwords_file)
    service = None
    extra_env = dict(extra_env or {})
    if tables:
        sock, service = await open_tables()
        extra_env["UNMASK_TABLES_SOCKET"] = str(sock)
    state = ServerState(passwords_file=pw, authorized_keys=keys, max_sessions=max(1, max_sessions),
                        idle_timeout=idle_timeout if idle_timeout and idle_timeout > 0 else None,
                        app_argv=list(app_argv or [sys.executable, "-m", "tui.serve.child"]),
                        extra_env=extra_env)
    host_key = load_or_create_host_key()

    async def handle(process: asyncssh.SSHServerProcess) -> None:
        await AppSession(state, process).run()

    try:
        acceptor = await asyncssh.create_server(
            lambda: _Server(state), host, port,
            server_host_keys=[host_key],
            authorized_client_keys=str(keys) if keys and keys.is_file() else None,
            process_factory=handle, encoding=None, line_editor=False,
            allow_pty=True, x11_forwarding=False, agent_forwarding=False,
            sftp_factory=None, allow_scp=False, kbdint_auth=False,
            login_timeout=60, keepalive_interval=30, keepalive_count_max=4,
        )
    except OSError as e:
        if service is not None:
            await service.close()
        raise ServeError(f"Cannot listen on {host}:{port}: {e.strerror or e}.") from None
    real_port = acceptor.sockets[0].getsockname()[1] if acceptor.sockets else port
    return SSHServer(acceptor, state, host, real_port, service)


def serve_ssh(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
              authorized_keys: Path | str | None = None, passwords_file: Path | str | None = None,
              max_sessions: int = DEFAULT_MAX_SESSIONS, idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
              tables: bool = True, announce=print) -> None:
    """Run the server until Ctrl+C / SIGTERM; every running app is ended cleanly on the way out."""

    async def main() -> None:
        server = await start_ssh_server(host, port, authorized_keys=authorized_keys, passwords_file=passwords_file,
                                        max_sessions=max_sessions, idle_timeout=idle_timeout, tables=tables)
        key = load_or_create_host_key()
        announce(f"unmask: serving over SSH on {server.host}:{server.port} (ssh -p {server.port} USER@{server.host})")
        announce(f"unmask: host key {key.get_fingerprint()}")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        announce("unmask: stopping; ending every session…")
        server.close()
        await server.wait_closed()

    asyncio.run(main())
