"""Passwords and the guard in front of them: what makes guessing slow for the servers.

The passwords file holds a salted scrypt hash per user (:func:`add_password`). Checking one
costs ~50 ms of CPU on purpose, so the servers never hash on their event loop: :class:`AuthGuard`
runs the hash in a small thread pool (``hash_workers`` threads; for a try after a failure a
niced one, so that the app processes of seated players win the CPU over a guesser, while real
players arriving together are not starved by the apps they start) and in front of it keeps, per
source address and per user name, a count of recent failures:

- after a failure the next try for that address or name waits ``fail_delay`` seconds, doubling
  with each further failure up to ``max_fail_delay`` (as Dovecot does); tries from one address
  (and for one name) are answered one at a time, so parallel connections do not go faster;
- the same wrong password tried again for the same name does not count again (a client with
  a stale saved password);
- after ``lockout_failures`` failures an address is refused without hashing for ``lockout_time``
  seconds (as fail2ban bans an address). A name with that many failures is locked out only for
  the addresses its failures came from (as OpenSSH's ``PerSourcePenalties``): from anywhere
  else its owner still logs in (after the name's delay), and with a key over SSH at once, so a
  guesser cannot keep a real user out. Counts are forgotten ``lockout_time`` after the last
  failure; a name's count is cleared when its password is given right; the host clears a name
  or an address at once with ``unmask serve unlock NAME`` (:func:`unlock`);
- a name that cannot be a user (no account can have it) is refused without hashing but counted
  and delayed for its address like any wrong password;
- the counts live in ``data_dir()/auth_guard.json`` too (under ``flock``), so ``serve ssh`` and
  ``serve web`` on one data dir count together and an unlock reaches both;
- every failure, lockout and accepted login is a line in ``data_dir()/auth.log`` (standard
  ``logging``, rotated, every file 0600); lines about failures are rate-limited per source address
  and overall, and lines anyone can cause without an account (refused connections) have a smaller
  budget (:class:`RepeatFilter`, the log's one limiter), so a flood cannot rotate the real lines away.

User names are letters, digits and ``._-`` (1 to 32, starting with a letter or digit): they
are file names in the data dir and are drawn on other players' screens.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import hashlib
import hmac
import json
import logging
import logging.handlers
import os
import re
import secrets
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.words import count
from tui.storage import atomic_write_json, data_dir

SCRYPT_N, SCRYPT_R, SCRYPT_P, SCRYPT_LEN = 2**14, 8, 1, 32
MAX_USER_LEN = 32
USER_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_USER_LEN - 1}}}")
LOG_NAME = "unmask.auth"
log = logging.getLogger(LOG_NAME)
_log_users = 0  # servers in this process writing the log (``serve ssh`` and ``serve web`` may share one)


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
    """Log every failure to ``path`` (default ``data_dir()/auth.log``), rotated; once per path.

    Each call is paired with one :func:`close_auth_log`; the files close with the last server.
    """
    global _log_users
    _log_users += 1
    path = Path(path) if path else data_dir() / "auth.log"
    for h in log.handlers:
        if isinstance(h, logging.handlers.RotatingFileHandler) and Path(h.baseFilename) == path.resolve():
            return path
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = PrivateRotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    with contextlib.suppress(OSError):
        os.chmod(path, 0o600)  # who tried which name from where: for the host only (a file made before)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    handler.addFilter(RepeatFilter())
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return path


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose every file (the live one after each rotation too) is created 0600."""

    def _open(self):  # type: ignore[no-untyped-def]
        return open(self.baseFilename, self.mode, encoding=self.encoding, errors=self.errors,
                    opener=lambda path, flags: os.open(path, flags, 0o600))


NOISE_LINES_PER_MINUTE = 20  # lines a window about connections that never logged in (``noise``)


class RepeatFilter(logging.Filter):
    """Keeps a flood from rotating the real lines away: the one limiter of the auth log.

    Per source address (the record's ``source``, given as ``extra``) at most ``per_source`` lines
    per ``window`` seconds, and at most ``overall`` lines of warnings in all; of those, lines that
    anyone can cause without an account (a record with ``noise`` in its ``extra``: a refused or
    silent connection) at most ``noise`` in all. The rest are counted, and the next line let
    through says how many were left out. Accepted logins always pass.
    """

    def __init__(self, per_source: int = 10, overall: int = 120, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, noise: int = NOISE_LINES_PER_MINUTE) -> None:
        super().__init__()
        self.per_source, self.overall, self.window, self.clock = per_source, overall, window, clock
        self.noise = noise
        self._start = clock()
        self._by_source: dict[str, int] = {}
        self._total = 0
        self._noise = 0
        self._dropped: dict[str, int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            self._say_dropped(record)  # accepted logins
            return True
        now = self.clock()
        if now - self._start >= self.window:
            self._start, self._by_source, self._total, self._noise = now, {}, 0, 0
        source = str(getattr(record, "source", "") or "?")
        seen = self._by_source.get(source, 0)
        noise = bool(getattr(record, "noise", False))
        if seen >= self.per_source or self._total >= self.overall or (noise and self._noise >= self.noise):
            if source in self._dropped or len(self._dropped) < 1024:
                self._dropped[source] = self._dropped.get(source, 0) + 1
            else:
                self._dropped["others"] = self._dropped.get("others", 0) + 1
            return False
        self._by_source[source] = seen + 1
        self._total += 1
        self._noise += noise
        self._say_dropped(record)
        return True

    def _say_dropped(self, record: logging.LogRecord) -> None:
        """The first line let through after some were left out says how many, and from where."""
        if self._dropped:
            total = sum(self._dropped.values())
            worst = sorted(self._dropped.items(), key=lambda kv: -kv[1])[:3]
            record.msg = f"{record.msg} [{count(total, 'similar line')} left out before this one, most from " \
                         f"{', '.join(f'{k} ({v})' for k, v in worst)}]"
            self._dropped = {}


def close_auth_log() -> None:
    """Detach and close the log's files (a server's ``wait_closed``) once no server uses them."""
    global _log_users
    _log_users = max(0, _log_users - 1)
    if _log_users:
        return
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
    hash_workers: int = 1            # password hashes computed at once, clean tries and (niced) after failures


GUARD_FILE = "auth_guard.json"
GUARD_KEEP = 2048  # records kept in the shared file per kind (the most recent); a flood cannot grow it


@dataclass
class _Record:
    """Recent failures of one address or one user name."""

    failures: int = 0
    last: float = 0.0
    not_before: float = 0.0          # no try is checked before this (the guard's clock)
    locked_until: float = 0.0
    sources: dict[str, int] = field(default_factory=dict)  # a name's failures per address
    seen: deque[bytes] = field(default_factory=lambda: deque(maxlen=16))  # keyed digests of wrong passwords
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _nice_thread() -> None:
    """Ten steps nicer than the server itself (a server already at nice 10 hashes at 19)."""
    with contextlib.suppress(OSError, AttributeError):
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + 10))


def guard_file() -> Path:
    return data_dir() / GUARD_FILE


class SharedCounts:
    """The guard's counts in a small JSON file, so every server on one data dir counts together.

    Times in the file are wall-clock (``time.time()``); each guard converts them to its own clock.
    Every change is a read-modify-write under ``flock`` on a lock file beside it; a damaged or
    missing file is an empty one (the guard still works from memory).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._data: dict[str, dict[str, dict]] = {"addr": {}, "user": {}}

    @contextlib.contextmanager
    def _locked(self):  # type: ignore[no-untyped-def]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def read(self) -> dict[str, dict[str, dict]]:
        """The file's records (cached until the file changes)."""
        try:
            st = os.stat(self.path)
        except OSError:
            self._stamp, self._data = None, {"addr": {}, "user": {}}
            return self._data
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            try:
                raw = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raw = {}
            data: dict[str, dict[str, dict]] = {"addr": {}, "user": {}}
            if isinstance(raw, dict):
                for kind in data:
                    part = raw.get(kind)
                    if isinstance(part, dict):
                        data[kind] = {str(k): v for k, v in part.items() if isinstance(v, dict)}
            self._stamp, self._data = stamp, data
        return self._data

    def update(self, change: Callable[[dict[str, dict[str, dict]]], None], stale_before: float) -> None:
        """Apply ``change`` to the file's records under the lock; drop those older than ``stale_before``."""
        with contextlib.suppress(OSError), self._locked():
            self._stamp = None
            data = self.read()
            change(data)
            for kind, part in data.items():
                keep = sorted(((k, v) for k, v in part.items() if _num(v.get("last")) >= stale_before
                               or _num(v.get("locked_until")) > time.time()),
                              key=lambda kv: -_num(kv[1].get("last")))[:GUARD_KEEP]
                data[kind] = dict(keep)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, separators=(",", ":"))
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
            self._stamp = None


def _num(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def unlock(who: str, path: Path | None = None) -> list[str]:
    """Clear the failures and lockouts of a user name or an address (``unmask serve unlock``).

    Running servers read it before their next check. Returns what was cleared ("user alice",
    "address 10.0.0.5"); ServeError for something that is neither a user name nor an address.
    """
    kinds = []
    if valid_user_name(who):
        kinds.append(("user", who))
    address = _address(who)
    if address is not None:
        kinds.append(("addr", address))
    if not kinds:
        raise ServeError(f"{safe_name(who)} is neither a user name nor an IP address.")
    shared = SharedCounts(Path(path) if path else guard_file())
    cleared: list[str] = []
    now = time.time()

    def change(data: dict[str, dict[str, dict]]) -> None:
        for kind, key in kinds:
            if data[kind].get(key, {}).get("failures"):
                cleared.append(f"{'user' if kind == 'user' else 'address'} {key}")
            # a record newer than every server's memory, with nothing in it: they all take it
            data[kind][key] = {"failures": 0, "last": now, "locked_until": 0, "sources": {}, "cleared": True}
        if address is not None:  # the address's share of every name's count, too
            for rec in data["user"].values():
                sources = rec.get("sources")
                if isinstance(sources, dict) and address in sources:
                    sources.pop(address)
                    rec["last"] = now

    shared.update(change, now - 7 * 24 * 3600)
    log.info("unlocked %s by the host", " and ".join(f"{k} {safe_name(v)}" for k, v in kinds))
    return cleared


def _address(value: str) -> str | None:
    import ipaddress

    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


class AuthGuard:
    """Checks passwords for a server without letting guessing slow anyone else down.

    Tries from an address (or for a name) with no recent failure are hashed at normal priority;
    tries after a failure in a niced thread: a guesser's hashes yield the CPU to seated players
    and to real logins, and twenty real players arriving together are not starved by the apps
    they start.
    """

    def __init__(self, lookup: Callable[[], dict[str, dict]], limits: AuthLimits | None = None,
                 clock: Callable[[], float] = time.monotonic, shared: Path | bool | None = None) -> None:
        self.lookup = lookup
        self.limits = limits or AuthLimits()
        self.clock = clock
        self._records: dict[tuple[str, str], _Record] = {}
        self._key = secrets.token_bytes(32)  # wrong passwords are remembered only as keyed digests
        workers = max(1, self.limits.hash_workers)
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="unmask-scrypt", initializer=_nice_thread)
        self._clean_pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="unmask-scrypt-clean")
        self._hashing = asyncio.Semaphore(workers)
        self._clean_hashing = asyncio.Semaphore(workers)
        self.hashes = 0  # how many passwords were actually hashed (tests, benchmarks)
        # False: memory only; None: the data dir's file; a path: that file
        self.shared = None if shared is False else SharedCounts(guard_file() if shared in (None, True)
                                                               else Path(shared))  # type: ignore[arg-type]
        self._offset = time.time() - clock()  # wall-clock time of the guard's clock's zero

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._clean_pool.shutdown(wait=False, cancel_futures=True)

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
        self._pull(kind, key, rec)
        if rec.failures and now - rec.last > self.limits.lockout_time:
            rec.failures, rec.not_before, rec.locked_until = 0, 0.0, 0.0
            rec.sources.clear()
            rec.seen.clear()
        return rec

    def _pull(self, kind: str, key: str, rec: _Record) -> None:
        """Take the shared file's record when it is newer than ours (another server's, or an unlock)."""
        if self.shared is None:
            return
        entry = self.shared.read()[kind].get(key)
        if not entry:
            return
        last = _num(entry.get("last")) - self._offset
        if last <= rec.last:
            return
        rec.failures = int(_num(entry.get("failures")))
        rec.last = last
        rec.locked_until = _num(entry.get("locked_until")) - self._offset if entry.get("locked_until") else 0.0
        sources = entry.get("sources")
        rec.sources = {str(a): int(_num(n)) for a, n in sources.items()} if isinstance(sources, dict) else {}
        rec.not_before = rec.last + self.delay_after(rec.failures) if rec.failures else 0.0
        if entry.get("cleared"):
            rec.seen.clear()

    def _push(self, *records: tuple[str, str, _Record]) -> None:
        if self.shared is None:
            return
        off = self._offset

        def change(data: dict[str, dict[str, dict]]) -> None:
            for kind, key, rec in records:
                entry: dict[str, Any] = {"failures": rec.failures, "last": rec.last + off,
                                         "locked_until": rec.locked_until + off if rec.locked_until else 0}
                if kind == "user":
                    entry["sources"] = dict(sorted(rec.sources.items(), key=lambda kv: -kv[1])[:64])
                data[kind][key] = entry

        self.shared.update(change, time.time() - self.limits.lockout_time)

    def delay_after(self, failures: int) -> float:
        """The wait before the next try after ``failures`` failures (0 for none)."""
        if failures <= 0:
            return 0.0
        lim = self.limits
        return min(lim.max_fail_delay, lim.fail_delay * 2 ** min(failures - 1, 30))

    def locked(self, address: str, user: str) -> bool:
        return self.locked_for(address, user) > 0

    def locked_for(self, address: str, user: str) -> float:
        """Seconds this address may not log in as this name (0: it may try).

        An address is locked out for every name; a name only from the addresses that failed it.
        """
        now = self.clock()
        by_addr, by_user = self._record("addr", address), self._record("user", user)
        waits = [by_addr.locked_until - now]
        if address in by_user.sources:
            waits.append(by_user.locked_until - now)
        return max(0.0, *waits)

    # ------------------------------------------------------------- checking

    async def check(self, address: str, user: str, password: str) -> bool:
        """Whether ``password`` is ``user``'s; slow after failures, False while locked out."""
        by_addr = self._record("addr", address)
        by_user = self._record("user", user)
        async with by_addr.lock, by_user.lock:  # always address first: no two tries wait on each other in a cycle
            now = self.clock()
            left = self.locked_for(address, user)
            if left > 0:
                log.warning("refused password for user %s from %s: locked out for %.0f s more",
                            safe_name(user), address, left, extra={"source": address})
                return False
            wait = max(by_addr.not_before, by_user.not_before) - now
            if wait > 0:
                await asyncio.sleep(wait)
            clean = by_addr.failures == 0 and by_user.failures == 0
            pool, hashing = (self._clean_pool, self._clean_hashing) if clean else (self._pool, self._hashing)
            async with hashing:
                loop = asyncio.get_running_loop()
                users = await loop.run_in_executor(pool, self.lookup)
                ok = await loop.run_in_executor(pool, check_password, users, user, password)
                self.hashes += 1
            if ok:
                had = by_user.failures
                by_user.failures, by_user.not_before, by_user.locked_until = 0, 0.0, 0.0
                by_user.sources.clear()
                by_user.seen.clear()
                if had:
                    by_user.last = self.clock()
                    self._push(("user", user, by_user))
                log.info("accepted password for user %s from %s", safe_name(user), address)
                return True
            self._failed(by_addr, by_user, address, user, password)
            return False

    async def refuse(self, address: str, user: str, why: str) -> None:
        """A try that needs no hash (a name no account can have): counted and delayed like a wrong password."""
        by_addr = self._record("addr", address)
        async with by_addr.lock:
            wait = by_addr.not_before - self.clock()
            if wait > 0 and by_addr.locked_until <= self.clock():
                await asyncio.sleep(wait)
            if by_addr.locked_until > self.clock():
                log.warning("refused %s from %s: address locked out", why, address, extra={"source": address})
                return
            now = self.clock()
            by_addr.failures += 1
            by_addr.last = now
            by_addr.not_before = now + self.delay_after(by_addr.failures)
            note = ""
            if by_addr.failures >= self.limits.lockout_failures:
                by_addr.locked_until = now + self.limits.lockout_time
                note = f"; address locked out for {self.limits.lockout_time:g} s"
            self._push(("addr", address, by_addr))
            log.warning("refused %s from %s (failure %d from this address)%s", why, address, by_addr.failures,
                        note, extra={"source": address})

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
                notes.append(f"{kind} locked out for {lim.lockout_time:g} s"
                             + (" (from the addresses that failed it)" if kind == "user" else ""))
        if not repeated:
            by_user.sources[address] = by_user.sources.get(address, 0) + 1
        self._push(("addr", address, by_addr), ("user", user, by_user))
        log.warning("failed password for user %s from %s (failure %d from this address, %d for this user%s)%s",
                    safe_name(user), address, by_addr.failures, by_user.failures,
                    ", the same password again" if repeated else "",
                    "; " + "; ".join(notes) if notes else "", extra={"source": address})
