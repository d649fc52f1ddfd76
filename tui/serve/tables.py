"""The table service: shared tables for every app process of one ``unmask serve ssh`` server.

It runs in the server's process (asyncio), holds :class:`solvers.table.Table` objects, runs
their bots, and saves every table after every change (``data_dir()/served/<id>.json``, a
session with the seat owners) so a restart loses nothing. App processes reach it over a Unix
socket in the data dir, one JSON object per line:

==========================================  =============================================
client → service                            service → client
==========================================  =============================================
``{"op": "list"}``                          ``{"op": "tables", "tables": [...]}``
``{"op": "create", "game", "config",``      ``{"op": "created", "table": id}``
``"seats"}``
``{"op": "join", "table", "seat", "user"}`` ``{"op": "joined", ...}`` then a ``view`` push
                                            after every change of that table
``{"op": "submit", "action", "id"}``        ``{"op": "ok", "id"}`` / ``{"op": "error", ...}``
``{"op": "probe", "action", "id"}``         ``{"op": "probe", "id", "reason": str | null}``
``{"op": "end", "table", "user"}``          ``{"op": "ended", "id"}`` (only the creator), then
                                            a ``view`` push with ``ended_by`` to the table
``{"op": "replay", "id"}``                  ``{"op": "replay", "id", "session"}``: the whole game,
                                            to a seated player once it is over (else an error)
==========================================  =============================================

Seats show who sits there: when a login first takes a human seat, the table's name for that
seat becomes the login (the table is replayed with the new names; the deal and the moves are
the same), so every view, log line and end screen of every player names them.

Lifecycle: a table is finished when its game is over or its creator ends it; a finished table
is archived ``archive_after`` seconds later (a day by default; ``UNMASK_ARCHIVE_AFTER``): its
file moves to ``served/archive/`` (kept on disk) and it leaves the list. An unfinished table
nobody has played at (no move, no one sitting down) for ``idle_after`` seconds (three days by
default; ``UNMASK_IDLE_TABLE_AFTER``) is archived the same way, and one user may have made at
most ``max_per_user`` unfinished tables (5; ``UNMASK_MAX_TABLES_PER_USER``), so no account can
fill the lobby; one connection makes at most one table per ``CREATE_GAP`` (0.25 s). Bots think
in a niced thread (``BOT_THREADS``), never on the service's event loop; saves are atomic, written
at once (they survive ``kill -9``) and fsynced by a thread of their own a moment later (they
survive a power cut), so the loop never waits for the disk.

Every game with a play screen can be played (``game`` defaults to ``"clue"``; the config and
the seats' bot names are checked by the engine and ``solvers.bots``). A connection sees only the
view of the seat it joined (the seat's own cards, the redacted log); at a Clue table the hands
of the others are sent once the game is over (its end screen shows them; they are public then).
The other games' end screens need only the seat's own final view. A seat belongs to the
first user who takes it; that user (by login name) can come back to it.

``unmask serve ssh`` and ``unmask serve web`` share one service: the first server started in a
data dir runs it (:func:`start_or_attach`), a second one finds it answering on the socket
and only hands its path to its app processes. "Runs it" is decided by an ``flock`` on
``tables.sock.lock`` beside the socket, held as long as the service runs: two servers starting in the
same second cannot both start one, and a server that stops removes the socket only if it holds
the lock (it is its own).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import IllegalAction
from engine.session import Session, SessionError
from solvers.bots import bot_names
from solvers.table import HUMAN, Table
from tui.env import env_seconds
from tui.storage import BackgroundSync, atomic_write_json, data_dir, read_session_file

SOCKET_NAME = "tables.sock"
MAX_LINE = 1 << 20
# Per game, the key of every seat's view its end screen shows once the game is over (public then).
END_PUBLIC = {"clue": "hand"}
ARCHIVE_AFTER = 24 * 3600.0
IDLE_AFTER = 72 * 3600.0
MAX_PER_USER = 5
BOT_THREADS = 1  # one: bot threads share the GIL with the loop that copies players' bytes
CREATE_GAP = 0.25  # s between two tables made over one connection (a person makes a table in seconds)
LOCK_SUFFIX = ".lock"  # tables.sock.lock: held by the service listening on tables.sock
NAME_LIMIT = 20


def default_archive_after() -> float:
    """Seconds a finished table stays in the lobby: ``UNMASK_ARCHIVE_AFTER`` or a day."""
    return env_seconds("UNMASK_ARCHIVE_AFTER", ARCHIVE_AFTER)


def default_idle_after() -> float:
    """Seconds an unfinished table may go untouched: ``UNMASK_IDLE_TABLE_AFTER`` or three days."""
    return env_seconds("UNMASK_IDLE_TABLE_AFTER", IDLE_AFTER)


def default_max_per_user() -> int:
    """Unfinished tables one user may have made: ``UNMASK_MAX_TABLES_PER_USER`` or 5."""
    try:
        return max(1, int(os.environ.get("UNMASK_MAX_TABLES_PER_USER") or MAX_PER_USER))
    except ValueError:
        return MAX_PER_USER


def _nice_thread() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def seat_names(names: list[str], owners: dict[int, str], humans: list[int]) -> list[str]:
    """The table's names with every owned human seat named after its owner's login (all different)."""
    out = list(names)
    for seat in sorted(owners):
        if seat in humans and 0 <= seat < len(out):
            out[seat] = owners[seat][:NAME_LIMIT]
    seen: dict[str, int] = {}
    for i, name in enumerate(out):  # the engine wants different names (one login at two seats)
        k = seen.get(name, 0)
        seen[name] = k + 1
        if k:
            out[i] = f"{name[:NAME_LIMIT - 4]} ({k + 1})"
    return out


def socket_path() -> Path:
    return data_dir() / SOCKET_NAME


async def service_alive(path: Path) -> bool:
    """True if a table service answers on the Unix socket ``path`` (another server runs it)."""
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(str(path)), 2)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return True


async def start_or_attach(path: Path | None = None) -> tuple[Path, TableService | None]:
    """The socket of the data dir's table service, and the service if this call started it.

    Both servers call this, so ``serve ssh`` and ``serve web`` running at once share the tables:
    the second finds the first one's service alive and starts none (the first must keep running).
    """
    path = Path(path) if path else socket_path()
    for _ in range(50):
        lock = _take_lock(path)
        if lock is not None:  # ours: no other service runs on this data dir
            service = TableService(path)
            service.lock_fd = lock
            try:
                await service.start()
            except BaseException:
                await service.close()
                raise
            return path, service
        if await service_alive(path):  # another server's service: use it
            return path, None
        await asyncio.sleep(0.1)  # it is starting (it holds the lock but does not answer yet)
    raise OSError(f"the table service on {path} holds its lock but does not answer")


def _take_lock(path: Path) -> int | None:
    """The table service's lock beside ``path`` (an open fd), or None if another process holds it."""
    fd = os.open(path.with_name(path.name + LOCK_SUFFIX), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def playable() -> tuple[str, ...]:
    """The games a shared table can be made for: those with a play screen."""
    from tui.screens.home import GAMES

    return tuple(g for g, _title in GAMES)


def tables_dir() -> Path:
    path = data_dir() / "served"
    path.mkdir(parents=True, exist_ok=True)
    return path


def archive_dir() -> Path:
    path = tables_dir() / "archive"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _send(writer: asyncio.StreamWriter, msg: dict) -> None:
    if not writer.is_closing():
        writer.write((json.dumps(msg, separators=(",", ":")) + "\n").encode())


@dataclass
class Shared:
    """One table with its seat owners and the connections watching it."""

    id: str
    table: Table
    owners: dict[int, str] = field(default_factory=dict)
    watchers: dict[asyncio.StreamWriter, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None
    creator: str | None = None
    ended_by: str | None = None
    finished_at: float | None = None  # time.time() when the game ended or the creator ended it
    touched: float = field(default_factory=time.time)  # time.time() of the last move or sit-down

    @property
    def finished(self) -> bool:
        return self.ended_by is not None or self.table.is_over()

    def summary(self) -> dict:
        t = self.table
        return {"table": self.id, "game": t.game, "config": t.config.to_json(), "over": self.finished,
                "creator": self.creator, "ended_by": self.ended_by,
                "seats": [{"kind": k, "owner": self.owners.get(i), "online": i in self.watchers.values()}
                          for i, k in enumerate(t.seats)]}

    def push_for(self, seat: int) -> dict:
        t = self.table
        msg: dict[str, Any] = {"op": "view", "view": t.view(seat), "log_seats": [s for s, _a in t.log],
                               "to_act": None if self.ended_by else t.to_act(), "over": t.is_over(),
                               "result": t.result(), "bot_to_act": t.waiting_for_bot() and not self.ended_by,
                               "config": t.config.to_json(), "ended_by": self.ended_by}
        key = END_PUBLIC.get(t.game)
        if key and t.is_over():
            msg["hands"] = [t.view(s).get(key, []) for s in range(len(t.seats))]
        return msg


class TableService:
    """Holds the shared tables; ``await start()`` listens on the Unix socket, ``await close()`` stops."""

    def __init__(self, path: Path | None = None, bot_delay: float | None = None,
                 archive_after: float | None = None, idle_after: float | None = None,
                 max_per_user: int | None = None) -> None:
        self.path = Path(path) if path else socket_path()
        if bot_delay is None:
            from tui.app import default_bot_delay

            bot_delay = default_bot_delay()
        self.bot_delay = bot_delay
        self.archive_after = default_archive_after() if archive_after is None else max(0.0, archive_after)
        self.idle_after = default_idle_after() if idle_after is None else max(0.0, idle_after)
        self.max_per_user = default_max_per_user() if max_per_user is None else max(1, max_per_user)
        self.lock_fd: int | None = None  # the data dir's service lock, while this service runs
        self._bots = concurrent.futures.ThreadPoolExecutor(max_workers=BOT_THREADS, thread_name_prefix="unmask-bot",
                                                           initializer=_nice_thread)
        self.tables: dict[str, Shared] = {}
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._last_create: dict[asyncio.StreamWriter, float] = {}
        self._archiver: asyncio.Task | None = None
        self._sync = BackgroundSync()
        self._load()

    # ------------------------------------------------------------- persistence

    def _load(self) -> None:
        for path in sorted(tables_dir().glob("*.json")):
            try:
                session = read_session_file(path)
                table = Table.from_session(session)
                owners = {int(k): str(v) for k, v in (session.extra.get("serve_owners") or {}).items()}
            except (SessionError, ValueError, TypeError, AttributeError):
                continue
            extra = session.extra
            shared = Shared(path.stem, table, owners, creator=_str_or_none(extra.get("serve_creator")),
                            ended_by=_str_or_none(extra.get("serve_ended_by")))
            finished_at = extra.get("serve_finished_at")
            touched = extra.get("serve_touched")
            shared.touched = float(touched) if isinstance(touched, int | float) else path.stat().st_mtime
            if isinstance(finished_at, int | float):
                shared.finished_at = float(finished_at)
            elif shared.finished:  # finished before this was recorded: since its file last changed
                shared.finished_at = path.stat().st_mtime
            if shared.creator is None and 0 in owners:  # tables made before creators were recorded
                shared.creator = owners[0]
            with contextlib.suppress(ValueError, TypeError):
                self._rename(shared)
            self.tables[path.stem] = shared
        self.archive_finished()

    def _save(self, shared: Shared) -> None:
        session: Session = shared.table.to_session()
        session.extra["serve_owners"] = {str(k): v for k, v in shared.owners.items()}
        for key, value in (("serve_creator", shared.creator), ("serve_ended_by", shared.ended_by),
                           ("serve_finished_at", shared.finished_at), ("serve_touched", shared.touched)):
            if value is not None:
                session.extra[key] = value
        # written at once without fsync (it survives kill -9: the page is the kernel's), so the loop
        # that copies players' bytes never waits for the disk (a hundred tables of bots); a thread
        # fsyncs it a moment later, so it survives a power cut too
        path = tables_dir() / f"{shared.id}.json"
        atomic_write_json(path, session.to_json(), fsync=False)
        self._sync.add(path)

    def _rename(self, shared: Shared) -> bool:
        """Name every owned human seat after its owner; the table is replayed (same deal, same moves)."""
        t = shared.table
        old = list(t.config.seat_names())
        names = seat_names(old, shared.owners, t.humans)
        if names == old:
            return False
        t.rename_seats(names)
        return True

    def _mark_finished(self, shared: Shared) -> None:
        if shared.finished and shared.finished_at is None:
            shared.finished_at = time.time()

    def archive_finished(self, now: float | None = None) -> list[str]:
        """Move to ``served/archive/`` the tables finished more than ``archive_after`` ago and the
        unfinished ones untouched for ``idle_after``; their ids. A table someone watches stays."""
        now = time.time() if now is None else now
        moved = []
        for tid, shared in list(self.tables.items()):
            if shared.watchers:
                continue
            if shared.finished_at is not None:
                if now - shared.finished_at < self.archive_after:
                    continue
            elif now - shared.touched < self.idle_after:
                continue
            src = tables_dir() / f"{tid}.json"
            try:
                if src.exists():
                    os.replace(src, archive_dir() / src.name)
                    self._sync.add(archive_dir() / src.name)
            except OSError:
                continue
            if shared.bot_task is not None:
                shared.bot_task.cancel()
            del self.tables[tid]
            moved.append(tid)
        return moved

    async def _archive_loop(self) -> None:
        while True:
            await asyncio.sleep(max(0.2, min(60.0, self.archive_after / 4, self.idle_after / 4)))
            self.archive_finished()

    def end(self, table_id: str, user: str) -> None:
        """The creator ends a table for everyone; ValueError (a sentence) for anyone else."""
        shared = self.tables.get(table_id)
        if shared is None:
            raise ValueError("There is no such table.")
        if not user or user != shared.creator:
            raise ValueError("Only the player who made this table can end it.")
        if shared.ended_by is None and not shared.table.is_over():
            shared.ended_by = user
            if shared.bot_task is not None:
                shared.bot_task.cancel()
            self._mark_finished(shared)
            self._changed_no_bots(shared)

    # ------------------------------------------------------------- tables

    def create(self, config: dict, seats: list[str], seed: int | None = None, game: str = "clue",
               creator: str | None = None) -> str:
        """A new table; ValueError (a sentence) for a bad game, config or seats (nothing is made then)."""
        if not isinstance(game, str) or game not in playable():
            raise ValueError(f"Tables can be made for {', '.join(playable())}; not for {game!r}.")
        if not isinstance(config, dict):
            raise ValueError("The options of a table are a JSON object.")
        if not isinstance(seats, list) or not all(isinstance(k, str) for k in seats):
            raise ValueError("The seats of a table are a list of names (human or a bot).")
        if HUMAN not in seats:
            raise ValueError("A table needs at least one human seat.")
        bots = bot_names(game)
        unknown = sorted({k for k in seats if k != HUMAN and k not in bots})
        if unknown:
            raise ValueError(f"Unknown {game} bot(s) {', '.join(unknown)}; choose from: {', '.join(bots)}.")
        if creator:
            mine = sum(1 for t in self.tables.values() if t.creator == creator and not t.finished)
            if mine >= self.max_per_user:
                raise ValueError(f"You already have {mine} unfinished tables (at most {self.max_per_user}): "
                                 "end one of them first.")
        try:
            table = Table(game, config, secrets.randbelow(2**31) if seed is None else seed, seats)
        except (TypeError, KeyError, AttributeError):
            raise ValueError(f"Those options do not make a {game} table.") from None
        tid = f"t{len(self.tables) + 1}-{secrets.token_hex(2)}"
        while tid in self.tables or (tables_dir() / f"{tid}.json").exists() or (archive_dir() / f"{tid}.json").exists():
            tid = f"t{len(self.tables) + 1}-{secrets.token_hex(2)}"
        shared = Shared(tid, table, creator=creator or None)
        self.tables[tid] = shared
        self._save(shared)
        with contextlib.suppress(RuntimeError):  # no running loop: bots start with the service
            self._schedule_bots(shared)
        return tid

    def _changed(self, shared: Shared) -> None:
        shared.touched = time.time()
        self._mark_finished(shared)
        self._save(shared)
        for writer, seat in list(shared.watchers.items()):
            _send(writer, shared.push_for(seat))
        self._schedule_bots(shared)

    def _schedule_bots(self, shared: Shared) -> None:
        idle = shared.bot_task is None or shared.bot_task.done()
        if shared.ended_by is None and shared.table.waiting_for_bot() and idle:
            shared.bot_task = asyncio.get_running_loop().create_task(self._run_bots(shared))

    async def _run_bots(self, shared: Shared) -> None:
        """Bots play at the table's pace: a move appears ``bot_delay`` after its bot had to act,
        however long it thought (it thinks first, within the delay), so the pace tells nothing."""
        loop = asyncio.get_running_loop()
        while shared.table.waiting_for_bot() and shared.ended_by is None:
            started = loop.time()
            async with shared.lock:
                try:
                    choice = await loop.run_in_executor(self._bots, shared.table.bot_choice)
                except Exception:  # a bot bug must not take the server down; the table waits
                    return
            if self.bot_delay:
                await asyncio.sleep(max(0.0, self.bot_delay - (loop.time() - started)))
            async with shared.lock:
                if choice is None or shared.ended_by is not None or not shared.table.play_bot_choice(choice):
                    continue  # the table moved on meanwhile (or ended): look again
            self._changed_no_bots(shared)

    def _changed_no_bots(self, shared: Shared) -> None:
        shared.touched = time.time()
        self._mark_finished(shared)
        self._save(shared)
        for writer, seat in list(shared.watchers.items()):
            _send(writer, shared.push_for(seat))

    # ------------------------------------------------------------- connections

    async def start(self) -> None:
        """Take the socket's lock and listen on it (replacing a stale socket); OSError if another
        service holds the lock (then its socket is left alone)."""
        if self.lock_fd is None:
            self.lock_fd = _take_lock(self.path)
            if self.lock_fd is None:
                raise OSError(f"another table service runs on {self.path}")
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._server = await asyncio.start_unix_server(self._client, path=str(self.path), limit=MAX_LINE)
        os.chmod(self.path, 0o600)
        for shared in self.tables.values():
            self._schedule_bots(shared)
        self._archiver = asyncio.get_running_loop().create_task(self._archive_loop())

    async def close(self) -> None:
        if self._archiver is not None:
            self._archiver.cancel()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        for shared in self.tables.values():
            if shared.bot_task is not None:
                shared.bot_task.cancel()
        for writer in list(self._writers):
            writer.close()
        self._bots.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self._sync.close)
        if self.lock_fd is not None or not _held_elsewhere(self.path):  # never another service's socket
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        joined: Shared | None = None
        self._writers.add(writer)
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, ConnectionError, asyncio.CancelledError):
                    break
                if not line:
                    break
                try:
                    msg = json.loads(line)
                    if not isinstance(msg, dict):
                        raise ValueError
                except ValueError:
                    _send(writer, {"op": "error", "message": "Not a JSON object."})
                    continue
                joined = await self._handle(msg, writer, joined)
                with contextlib.suppress(ConnectionError):
                    await writer.drain()
        finally:
            self._writers.discard(writer)
            self._last_create.pop(writer, None)
            if joined is not None:
                joined.watchers.pop(writer, None)
            writer.close()

    async def _handle(self, msg: dict, writer: asyncio.StreamWriter, joined: Shared | None) -> Shared | None:
        op, rid = msg.get("op"), msg.get("id")
        if op == "list":
            _send(writer, {"op": "tables", "id": rid, "tables": [s.summary() for s in self.tables.values()]})
        elif op == "create":
            wait = self._last_create.get(writer, 0.0) + CREATE_GAP - time.monotonic()
            if wait > 0:  # a flood of creates from one app process cannot keep the loop busy
                await asyncio.sleep(wait)
            self._last_create[writer] = time.monotonic()
            try:
                seats = msg.get("seats")
                user = msg.get("user")
                tid = self.create(msg.get("config") or {}, seats if isinstance(seats, list) else [],
                                  game=msg.get("game", "clue"), creator=user if isinstance(user, str) else None)
            except (ValueError, TypeError, KeyError, AttributeError) as e:
                _send(writer, {"op": "error", "id": rid, "message": str(e) or "That table cannot be made."})
            else:
                _send(writer, {"op": "created", "id": rid, "table": tid})
        elif op == "join":
            shared = self.tables.get(str(msg.get("table")))
            seat, user = msg.get("seat"), str(msg.get("user") or "")
            problem = self._join_problem(shared, seat, user)
            if problem:
                _send(writer, {"op": "error", "id": rid, "message": problem})
                return joined
            assert shared is not None and isinstance(seat, int)
            if joined is not None:
                joined.watchers.pop(writer, None)
            if shared.owners.get(seat) != user:
                async with shared.lock:
                    shared.owners[seat] = user
                    shared.touched = time.time()
                    try:
                        renamed = self._rename(shared)
                    except (ValueError, TypeError):  # names the game refuses: keep the old ones
                        renamed = False
                    self._save(shared)
                if renamed:  # everyone at the table sees the new name at once
                    for other, other_seat in list(shared.watchers.items()):
                        _send(other, shared.push_for(other_seat))
            shared.watchers[writer] = seat
            _send(writer, {"op": "joined", "id": rid, **shared.summary(), "seat": seat})
            _send(writer, shared.push_for(seat))
            return shared
        elif op == "end":
            try:
                self.end(str(msg.get("table")), str(msg.get("user") or ""))
            except ValueError as e:
                _send(writer, {"op": "error", "id": rid, "message": str(e)})
            else:
                _send(writer, {"op": "ended", "id": rid})
        elif op == "replay":
            # Every hidden card of the game: for a seated player of this table, and only once it is over.
            seat = joined.watchers.get(writer) if joined is not None else None
            if joined is None or seat is None:
                _send(writer, {"op": "error", "id": rid, "message": "Join a table first."})
            elif not joined.table.is_over():
                _send(writer, {"op": "error", "id": rid,
                               "message": "This game is not over yet: a replay opens only once a game has ended."})
            else:
                _send(writer, {"op": "replay", "id": rid, "session": joined.table.replay_session().to_json()})
        elif op in ("submit", "probe"):
            if joined is None:
                _send(writer, {"op": "error", "id": rid, "message": "Join a table first."})
                return joined
            if joined.ended_by is not None and op == "submit":
                _send(writer, {"op": "error", "id": rid, "message": f"{joined.ended_by} ended this table.",
                               "illegal": True})
                return joined
            seat = joined.watchers.get(writer)
            try:
                action = joined.table.spec.action_from_json(list(msg.get("action") or []))
            except Exception:
                _send(writer, {"op": "error", "id": rid, "message": "That is not an action."})
                return joined
            async with joined.lock:
                if op == "probe":
                    reason = None
                    try:
                        Table.from_session(joined.table.to_session()).submit(seat, action)
                    except IllegalAction as e:
                        reason = str(e)
                    except Exception:
                        reason = "That is not possible now."
                    _send(writer, {"op": "probe", "id": rid, "reason": reason})
                    return joined
                try:
                    joined.table.submit(seat, action)
                except IllegalAction as e:
                    _send(writer, {"op": "error", "id": rid, "message": str(e), "illegal": True})
                    return joined
            self._changed(joined)
            _send(writer, {"op": "ok", "id": rid})
        else:
            _send(writer, {"op": "error", "id": rid, "message": f"Unknown request {op!r}."})
        return joined

    def _join_problem(self, shared: Shared | None, seat: Any, user: str) -> str | None:
        if shared is None:
            return "There is no such table."
        owner = shared.owners.get(seat) if isinstance(seat, int) else None
        if shared.ended_by is not None and owner != user:
            return f"{shared.ended_by} ended this table."
        if not isinstance(seat, int) or not 0 <= seat < len(shared.table.seats):
            return "There is no such seat."
        if shared.table.seats[seat] != HUMAN:
            return "A bot plays that seat."
        if not user:
            return "Log in with a user name to sit down."
        owner = shared.owners.get(seat)
        if owner is not None and owner != user:
            return f"That seat is {owner}'s."
        return None


def _held_elsewhere(path: Path) -> bool:
    """Whether another service holds the lock of the socket ``path`` (then the socket is its)."""
    fd = _take_lock(path)
    if fd is None:
        return True
    os.close(fd)
    return False


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
