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
==========================================  =============================================

Every game with a play screen can be played (``game`` defaults to ``"clue"``; the config and
the seats' bot names are checked by the engine and ``solvers.bots``). A connection sees only the
view of the seat it joined (the seat's own cards, the redacted log); at a Clue table the hands
of the others are sent once the game is over (its end screen shows them; they are public then).
The other games' end screens need only the seat's own final view. A seat belongs to the
first user who takes it; that user (by login name) can come back to it.

``unmask serve ssh`` and ``unmask serve web`` share one service: the first server started in a
data dir runs it (:func:`start_or_attach`), a second one finds it answering on the socket and
only hands its path to its app processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core import IllegalAction
from engine.session import Session, SessionError
from solvers.bots import bot_names
from solvers.table import HUMAN, Table
from tui.storage import atomic_write_json, data_dir, read_session_file

SOCKET_NAME = "tables.sock"
MAX_LINE = 1 << 20
# Per game, the key of every seat's view its end screen shows once the game is over (public then).
END_PUBLIC = {"clue": "hand"}


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
    if await service_alive(path):
        return path, None
    service = TableService(path)
    await service.start()
    return path, service


def playable() -> tuple[str, ...]:
    """The games a shared table can be made for: those with a play screen."""
    from tui.screens.home import GAMES

    return tuple(g for g, _title in GAMES)


def tables_dir() -> Path:
    path = data_dir() / "served"
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

    def summary(self) -> dict:
        t = self.table
        return {"table": self.id, "game": t.game, "config": t.config.to_json(), "over": t.is_over(),
                "seats": [{"kind": k, "owner": self.owners.get(i), "online": i in self.watchers.values()}
                          for i, k in enumerate(t.seats)]}

    def push_for(self, seat: int) -> dict:
        t = self.table
        msg: dict[str, Any] = {"op": "view", "view": t.view(seat), "log_seats": [s for s, _a in t.log],
                               "to_act": t.to_act(), "over": t.is_over(), "result": t.result(),
                               "bot_to_act": t.waiting_for_bot()}
        key = END_PUBLIC.get(t.game)
        if key and t.is_over():
            msg["hands"] = [t.view(s).get(key, []) for s in range(len(t.seats))]
        return msg


class TableService:
    """Holds the shared tables; ``await start()`` listens on the Unix socket, ``await close()`` stops."""

    def __init__(self, path: Path | None = None, bot_delay: float | None = None) -> None:
        self.path = Path(path) if path else socket_path()
        if bot_delay is None:
            from tui.app import default_bot_delay

            bot_delay = default_bot_delay()
        self.bot_delay = bot_delay
        self.tables: dict[str, Shared] = {}
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._load()

    # ------------------------------------------------------------- persistence

    def _load(self) -> None:
        for path in sorted(tables_dir().glob("*.json")):
            try:
                session = read_session_file(path)
                table = Table.from_session(session)
            except (SessionError, ValueError):
                continue
            owners = session.extra.get("serve_owners") or {}
            self.tables[path.stem] = Shared(path.stem, table, {int(k): str(v) for k, v in owners.items()})

    def _save(self, shared: Shared) -> None:
        session: Session = shared.table.to_session()
        session.extra["serve_owners"] = {str(k): v for k, v in shared.owners.items()}
        atomic_write_json(tables_dir() / f"{shared.id}.json", session.to_json())

    # ------------------------------------------------------------- tables

    def create(self, config: dict, seats: list[str], seed: int | None = None, game: str = "clue") -> str:
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
        try:
            table = Table(game, config, secrets.randbelow(2**31) if seed is None else seed, seats)
        except (TypeError, KeyError, AttributeError):
            raise ValueError(f"Those options do not make a {game} table.") from None
        tid = f"t{len(self.tables) + 1}-{secrets.token_hex(2)}"
        shared = Shared(tid, table)
        self.tables[tid] = shared
        self._save(shared)
        with contextlib.suppress(RuntimeError):  # no running loop: bots start with the service
            self._schedule_bots(shared)
        return tid

    def _changed(self, shared: Shared) -> None:
        self._save(shared)
        for writer, seat in list(shared.watchers.items()):
            _send(writer, shared.push_for(seat))
        self._schedule_bots(shared)

    def _schedule_bots(self, shared: Shared) -> None:
        if shared.table.waiting_for_bot() and (shared.bot_task is None or shared.bot_task.done()):
            shared.bot_task = asyncio.get_running_loop().create_task(self._run_bots(shared))

    async def _run_bots(self, shared: Shared) -> None:
        loop = asyncio.get_running_loop()
        while shared.table.waiting_for_bot():
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            async with shared.lock:
                if not shared.table.waiting_for_bot():
                    break
                try:
                    await loop.run_in_executor(None, shared.table.step_bot)
                except Exception:  # a bot bug must not take the server down; the table waits
                    return
            self._changed_no_bots(shared)

    def _changed_no_bots(self, shared: Shared) -> None:
        self._save(shared)
        for writer, seat in list(shared.watchers.items()):
            _send(writer, shared.push_for(seat))

    # ------------------------------------------------------------- connections

    async def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._server = await asyncio.start_unix_server(self._client, path=str(self.path), limit=MAX_LINE)
        os.chmod(self.path, 0o600)
        for shared in self.tables.values():
            self._schedule_bots(shared)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        for shared in self.tables.values():
            if shared.bot_task is not None:
                shared.bot_task.cancel()
        for writer in list(self._writers):
            writer.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

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
            if joined is not None:
                joined.watchers.pop(writer, None)
            writer.close()

    async def _handle(self, msg: dict, writer: asyncio.StreamWriter, joined: Shared | None) -> Shared | None:
        op, rid = msg.get("op"), msg.get("id")
        if op == "list":
            _send(writer, {"op": "tables", "id": rid, "tables": [s.summary() for s in self.tables.values()]})
        elif op == "create":
            try:
                seats = msg.get("seats")
                tid = self.create(msg.get("config") or {}, seats if isinstance(seats, list) else [],
                                  game=msg.get("game", "clue"))
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
                shared.owners[seat] = user
                self._save(shared)
            shared.watchers[writer] = seat
            _send(writer, {"op": "joined", "id": rid, **shared.summary(), "seat": seat})
            _send(writer, shared.push_for(seat))
            return shared
        elif op in ("submit", "probe"):
            if joined is None:
                _send(writer, {"op": "error", "id": rid, "message": "Join a table first."})
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
