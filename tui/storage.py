"""Where sessions live on disk, and how they are written so that none is ever lost.

Sessions autosave into the user data dir (``platformdirs``; ``UNMASK_DATA_DIR`` overrides
it, which the tests use). Each save writes a temp file, fsyncs it and renames it over the
old one, so a crash leaves either the old session or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from engine.session import Session, SessionError


def data_dir() -> Path:
    override = os.environ.get("UNMASK_DATA_DIR")
    if override:
        path = Path(override)
    else:
        from platformdirs import user_data_dir

        path = Path(user_data_dir("unmask", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


# A login name that may own a space on a served host: it becomes a directory name, so no '/',
# no leading '.', nothing a shell or a file system reads specially.
LOGIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,63}")
_space: Path | None = None  # set in a served app: every session of this process lives there
_forbidden: str | None = None  # set in a served app whose login has no space: no session at all


class SpaceError(SessionError):
    """A login name that cannot have a space of its own (the message is one line)."""


def user_space(login: str) -> Path:
    """``data_dir()/users/<login>/sessions``: where a served user's games and table notes live.

    The name is checked first (letters, digits, '.', '_', '-'; not starting with '.'), so no
    login can point outside ``users/``; the folders are private to the server's OS user (0700).
    """
    if not isinstance(login, str) or not LOGIN_NAME.fullmatch(login):
        raise SpaceError(f"{login!r} cannot have saved games here: a login is letters, digits, '.', '_' and '-'.")
    users = data_dir() / "users"
    path = users / login / "sessions"
    for folder in (users, users / login, path):
        folder.mkdir(mode=0o700, exist_ok=True)
    if path.resolve().parent.parent != users.resolve():  # a planted symlink: refuse rather than follow it
        raise SpaceError(f"The saved games of {login!r} are not where they should be.")
    return path


def confine_to(path: Path | None) -> None:
    """From now on every session of this process is read from and written to ``path`` only.

    The served app calls this once at start with its user's :func:`user_space`: Resume, the
    assistants and the play screens all go through :func:`sessions_dir`, so none of them can
    reach the host's own sessions or another user's.
    """
    global _space, _forbidden
    _space, _forbidden = path, None


def forbid_storage(reason: str) -> None:
    """No session at all for this process (a served login without a space): every use says ``reason``."""
    global _space, _forbidden
    _space, _forbidden = None, reason


def sessions_dir() -> Path:
    if _forbidden is not None:
        raise SpaceError(_forbidden)
    if _space is not None:
        _space.mkdir(mode=0o700, parents=True, exist_ok=True)
        return _space
    path = data_dir() / "sessions"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_session_id(game: str, mode: str = "play") -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{game}-{mode}-{stamp}"
    sid, k = base, 1
    while (sessions_dir() / f"{sid}.json").exists():
        k += 1
        sid = f"{base}-{k}"
    return sid


def _path_for(session_id: str) -> Path:
    if not isinstance(session_id, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}", session_id):
        raise SessionError(f"{session_id!r} is not a session name (letters, digits, '.', '_' and '-' only).")
    path = sessions_dir() / f"{session_id}.json"
    if _space is not None and path.is_symlink():  # a served user's space holds only files it wrote
        raise SessionError(f"{session_id} is not a saved game of yours.")
    return path


def atomic_write_json(path: Path, data: object, *, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` whole or not at all; ``fsync=False`` survives a killed process
    (the kernel keeps the page) but not a power cut, and costs no disk wait (the shared tables)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


IDLE_SYNC_THREAD = 5.0  # seconds a sync thread waits for work before it ends


class BackgroundSync:
    """fsyncs files already renamed into place, on a thread of its own.

    The shared tables are written at once without ``fsync`` (a ``kill -9`` of the server loses
    nothing: the kernel holds the page) and handed to this thread, which makes them survive a
    power cut too, a few milliseconds later, without the event loop ever waiting for the disk.
    """

    def __init__(self) -> None:
        self._pending: set[Path] = set()
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None  # started on demand, ends when idle

    def add(self, path: Path) -> None:
        with self._cond:
            if self._closed:  # after close nothing waits: sync here
                _fsync_path(path)
                return
            self._pending.add(path)
            self._cond.notify_all()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="unmask-fsync", daemon=True)
                self._thread.start()

    def flush(self, timeout: float | None = 10.0) -> bool:
        """Wait until every file handed over so far is on disk; False if ``timeout`` ran out."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self, timeout: float | None = 10.0) -> None:
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending or self._closed, IDLE_SYNC_THREAD)
                if not self._pending:  # closed, or idle: a later add starts a new thread
                    self._thread = None
                    self._cond.notify_all()
                    return
                paths, self._pending = self._pending, set()
                self._busy = True
            try:
                for folder in {_fsync_path(path) for path in sorted(paths)} - {None}:
                    _fsync_dir(folder)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()


def _fsync_path(path: Path) -> Path | None:
    """fsync one file by name; its folder, or None when it is gone (archived, replaced)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        os.fsync(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    return path.parent


def _fsync_dir(folder: Path) -> None:
    """The rename itself is durable only once the folder's entry is on disk."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def save_session(session: Session, session_id: str) -> Path:
    path = _path_for(session_id)
    atomic_write_json(path, session.to_json())
    return path


def read_session_file(path: Path | str) -> Session:
    """Read a session from any path; SessionError (one line) for anything wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SessionError(f"No session file at {path}.") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SessionError(f"Cannot read {path}: {e.__class__.__name__}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SessionError(f"{path.name} is damaged: not valid JSON (line {e.lineno}, column {e.colno}).") from None
    except RecursionError:
        raise SessionError(f"{path.name} is damaged: its values are nested too deeply.") from None
    except ValueError:  # Python's int-string limit (4,300 digits): no session holds such a number
        raise SessionError(f"{path.name} is damaged: a number in it is too long to read.") from None
    return Session.from_json(data)


def load_session(session_id: str) -> Session:
    return read_session_file(_path_for(session_id))


def delete_session(session_id: str) -> None:
    _path_for(session_id).unlink(missing_ok=True)


@dataclass(frozen=True)
class SessionInfo:
    id: str
    path: Path
    game: str
    mode: str
    updated: float
    moves: int
    error: str | None = None
    over: bool = False  # a play session whose game has ended: Resume offers its replay

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.updated))


def _is_over(session: Session) -> bool:
    """Whether a play session's game has ended (a damaged log counts as not over: opening it says why)."""
    if session.mode != "play":
        return False
    from engine.registry import get_game

    try:
        return bool(get_game(session.game).is_over(session.replay()))
    except Exception:
        return False


def list_sessions() -> list[SessionInfo]:
    """Every saved session, newest first; damaged ones are listed with their problem."""
    out = []
    for path in sessions_dir().glob("*.json"):
        if _space is not None and (path.is_symlink() or not path.is_file()):
            continue
        sid = path.stem
        updated = path.stat().st_mtime
        try:
            s = read_session_file(path)
            out.append(SessionInfo(sid, path, s.game, s.mode, updated, len(s.log), over=_is_over(s)))
        except SessionError as e:
            out.append(SessionInfo(sid, path, "?", "?", updated, 0, str(e)))
    out.sort(key=lambda i: (-i.updated, i.id))
    return out


def keep_beliefs(path: Path, session: Session) -> bool:
    """Write ``session``'s cached belief series (issue 25) into the file at ``path``, and nothing else.

    The file is read again first and must hold the very same game (config, seed, moves): whatever
    else it keeps (a Clue sheet's marks) stays as it is. False when it does not match or cannot be
    written; the replay works on without its cache then.
    """
    from solvers.beliefs import CACHE_KEY

    try:
        on_disk = read_session_file(path)
        if (on_disk.game, on_disk.mode, on_disk.config, on_disk.seed, on_disk.log) != (
                session.game, session.mode, session.config, session.seed, session.log):
            return False
        on_disk.extra[CACHE_KEY] = session.extra[CACHE_KEY]
        atomic_write_json(path, on_disk.to_json())
    except (SessionError, OSError, KeyError):
        return False
    return True


def session_path(session_id: str) -> Path:
    """Where the session ``session_id`` is saved (the checks of every other use included)."""
    return _path_for(session_id)
