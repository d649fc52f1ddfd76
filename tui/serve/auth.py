"""Passwords and the guard in front of them: what makes guessing slow for the servers.

The passwords file holds a salted scrypt hash per user (:func:`add_password`). Checking one
costs ~50 ms of CPU on purpose, so the servers never hash on their event loop: :class:`AuthGuard`
runs the hash in a small thread pool (``hash_workers`` threads, niced so that the app
processes of seated players win the CPU) and in front of it keeps, per source address and per
user name, a count of recent failures:

- after a failure the next try for that address or name waits ``fail_delay`` seconds, doubling
  with each further failure up to ``max_fail_delay`` (as Dovecot does); tries from one address
  (and for one name) are answered one at a time, so parallel connections do not go faster;
- the same wrong password tried again for the same name does not count again (a client with
  a stale saved password);
- after ``lockout_failures`` failures the address (or the name) is refused without hashing for
  ``lockout_time`` seconds; counts are forgotten ``lockout_time`` after the last failure, and a
  name's count is cleared when its password is given right;
- every failure, lockout and accepted login is a line in ``data_dir()/auth.log`` (standard
  ``logging``, a :class:`~logging.handlers.RotatingFileHandler`).

User names are letters, digits and ``._-`` (1 to 32, starting with a letter or digit): they
are file names in the data dir and are drawn on other players' screens.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import hmac
import json
import logging
import logging.handlers
import os
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tui.storage import atomic_write_json, data_dir

SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
MAX_USER_LEN = 32
USER_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_USER_LEN - 1}}}")
LOG_NAME = "unmask.auth"
log = logging.getLogger(LOG_NAME)


class ServeError(Exception):
    """A one-line problem with the server's configuration (the CLI prints it)."""


# --------------------------------------------------------------------------- names and the file


def valid_user_name(name: str) -> bool:
    """A name the servers accept: it is used as a file name and shown to other players."""
    return bool(USER_NAME.fullmatch(name))


def user_name_problem(name: str) -> str | None:
    """Why ``name`` is not a user name (a sentence), or None when it is one."""
    if valid_user_name(name):
        return None
    if not name:
        return "A user name cannot be empty."
    if len(name) > MAX_USER_LEN:
        return f"A user name has at most {MAX_USER_LEN} characters ({len(name)} given)."
    return (f"{safe_name(name)} is not a user name: use letters (a-z, A-Z), digits, '.', '_' or '-', "
            f"starting with a letter or a digit.")


def safe_name(name: str, limit: int = 40) -> str:
    """A name as it may appear in a log line or a message: quoted, control characters escaped."""
    shown = name if len(name) <= limit else name[:limit] + "…"
    return repr(shown)


def default_passwords_file() -> Path:
    return data_dir() / "ssh_passwords.json"


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
    problem = user_name_problem(user)
    if problem:
        raise ServeError(problem)
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
    """Whether ``password`` is ``user``'s (CPU-heavy: call it off the event loop)."""
    entry = users.get(user)
    if not isinstance(entry, dict) or entry.get("scheme") != "scrypt":
        _hash(password, b"x" * 16, SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN)  # same cost for unknown users
        return False
    try:
        want = bytes.fromhex(entry["hash"])
        salt = bytes.fromhex(entry["salt"])
        n, r, p = int(entry["n"]), int(entry["r"]), int(entry["p"])
        if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16 and 16 <= len(want) <= 64):
            return False  # a damaged entry must not make the server hash for minutes
        got = _hash(password, salt, n, r, p, len(want))
    except (KeyError, ValueError, TypeError, MemoryError):
        return False
    return hmac.compare_digest(want, got)


# --------------------------------------------------------------------------- the log


def setup_auth_log(path: Path | None = None, max_bytes: int = 1 << 20, backups: int = 5) -> Path:
    """Log every failure to ``path`` (default ``data_dir()/auth.log``), rotated; once per path."""
    path = Path(path) if path else data_dir() / "auth.log"
    for h in log.handlers:
        if isinstance(h, logging.handlers.RotatingFileHandler) and Path(h.baseFilename) == path.resolve():
            return path
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups,
                                                   encoding="utf-8")
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)  # who tried which name from where: for the host only
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


def close_auth_log() -> None:
    """Detach and close the log's files (a server's ``wait_closed``)."""
    for h in list(log.handlers):
        if isinstance(h, logging.handlers.RotatingFileHandler):
            log.removeHandler(h)
            h.close()


# --------------------------------------------------------------------------- the guard


@dataclass(frozen=True)
class AuthLimits:
    """How hard guessing is made; every field is a server setting (docs/serving.md)."""

    max_auth_tries: int = 4          # password tries per connection, then it is closed
    fail_delay: float = 2.0          # wait before the next try after one failure (s) ...
    max_fail_delay: float = 15.0     # ... doubling per failure up to this
    lockout_failures: int = 10       # failures (per address or per name) that lock it out ...
    lockout_time: float = 600.0      # ... for this long (s); counts are forgotten as long after the last failure
    hash_workers: int = 1            # password hashes computed at once (threads, niced)


@dataclass
class _Record:
    """Recent failures of one address or one user name."""

    failures: int = 0
    last: float = 0.0
    not_before: float = 0.0          # no try is checked before this (monotonic)
    locked_until: float = 0.0
    seen: deque[bytes] = field(default_factory=lambda: deque(maxlen=16))  # keyed digests of wrong passwords
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _nice_thread() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class AuthGuard:
    """Checks passwords for a server without letting guessing slow anyone else down."""

    def __init__(self, lookup: Callable[[], dict[str, dict]], limits: AuthLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lookup = lookup
        self.limits = limits or AuthLimits()
        self.clock = clock
        self._records: dict[tuple[str, str], _Record] = {}
        self._key = secrets.token_bytes(32)  # wrong passwords are remembered only as keyed digests
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, self.limits.hash_workers), thread_name_prefix="unmask-scrypt",
            initializer=_nice_thread)
        self._hashing = asyncio.Semaphore(max(1, self.limits.hash_workers))
        self.hashes = 0  # how many passwords were actually hashed (tests, benchmarks)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------- records

    def _record(self, kind: str, key: str) -> _Record:
        now = self.clock()
        if len(self._records) > 4096:  # forget the stale ones; a flood of names cannot grow this forever
            for k, r in list(self._records.items()):
                if now - r.last > self.limits.lockout_time and not r.lock.locked():
                    del self._records[k]
        rec = self._records.get((kind, key))
        if rec is None:
            rec = self._records[(kind, key)] = _Record()
        elif rec.failures and now - rec.last > self.limits.lockout_time:
            rec.failures, rec.not_before, rec.locked_until = 0, 0.0, 0.0
            rec.seen.clear()
        return rec

    def delay_after(self, failures: int) -> float:
        """The wait before the next try after ``failures`` failures (0 for none)."""
        if failures <= 0:
            return 0.0
        lim = self.limits
        return min(lim.max_fail_delay, lim.fail_delay * 2 ** min(failures - 1, 30))

    def locked(self, address: str, user: str) -> bool:
        now = self.clock()
        return any(self._record(kind, key).locked_until > now for kind, key in (("addr", address), ("user", user)))

    # ------------------------------------------------------------- checking

    async def check(self, address: str, user: str, password: str) -> bool:
        """Whether ``password`` is ``user``'s; slow after failures, False while locked out."""
        by_addr = self._record("addr", address)
        by_user = self._record("user", user)
        async with by_addr.lock, by_user.lock:  # always address first: no two tries wait on each other in a cycle
            now = self.clock()
            if by_addr.locked_until > now or by_user.locked_until > now:
                log.warning("refused password for user %s from %s: locked out for %.0f s more",
                            safe_name(user), address, max(by_addr.locked_until, by_user.locked_until) - now)
                return False
            wait = max(by_addr.not_before, by_user.not_before) - now
            if wait > 0:
                await asyncio.sleep(wait)
            async with self._hashing:
                loop = asyncio.get_running_loop()
                users = await loop.run_in_executor(self._pool, self.lookup)
                ok = await loop.run_in_executor(self._pool, check_password, users, user, password)
                self.hashes += 1
            if ok:
                by_user.failures, by_user.not_before, by_user.locked_until = 0, 0.0, 0.0
                by_user.seen.clear()
                log.info("accepted password for user %s from %s", safe_name(user), address)
                return True
            self._failed(by_addr, by_user, address, user, password)
            return False

    def _failed(self, by_addr: _Record, by_user: _Record, address: str, user: str, password: str) -> None:
        now = self.clock()
        digest = hmac.new(self._key, user.encode("utf-8", "surrogatepass") + b"\0" + password.encode(
            "utf-8", "surrogatepass"), "sha256").digest()
        repeated = digest in by_user.seen
        lim = self.limits
        notes = []
        for kind, rec in (("address", by_addr), ("user", by_user)):
            if not repeated:
                rec.failures += 1
                rec.seen.append(digest)
            rec.last = now
            rec.not_before = now + self.delay_after(rec.failures)
            if rec.failures >= lim.lockout_failures and rec.locked_until <= now:
                rec.locked_until = now + lim.lockout_time
                notes.append(f"{kind} locked out for {lim.lockout_time:g} s")
        log.warning("failed password for user %s from %s (failure %d from this address, %d for this user%s)%s",
                    safe_name(user), address, by_addr.failures, by_user.failures,
                    ", the same password again" if repeated else "",
                    "; " + "; ".join(notes) if notes else "")
