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


def sessions_dir() -> Path:
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
    if not re.fullmatch(r"[A-Za-z0-9._-]+", session_id):
        raise SessionError(f"{session_id!r} is not a session name (letters, digits, '.', '_' and '-' only).")
    return sessions_dir() / f"{session_id}.json"


def atomic_write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


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

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.updated))


def list_sessions() -> list[SessionInfo]:
    """Every saved session, newest first; damaged ones are listed with their problem."""
    out = []
    for path in sessions_dir().glob("*.json"):
        sid = path.stem
        updated = path.stat().st_mtime
        try:
            s = read_session_file(path)
            out.append(SessionInfo(sid, path, s.game, s.mode, updated, len(s.log)))
        except SessionError as e:
            out.append(SessionInfo(sid, path, "?", "?", updated, 0, str(e)))
    out.sort(key=lambda i: (-i.updated, i.id))
    return out
