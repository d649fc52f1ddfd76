"""Open mutated sessions in each game's assistant, one app for many files, and report what went wrong.

For each file: it is written to the data dir, the game's assistant screen opens it by name,
the solver's answer is awaited, and then either the notes are up (``main``) or the screen says
in one line why it cannot open them; the app never crashes, and the file is byte for byte
what it was (nothing the user typed is lost).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import tempfile
from pathlib import Path
from typing import Any

from fuzz.mutate import file_text
from tui.storage import sessions_dir


def _problem_of(screen: Any) -> tuple[str, str]:
    """(mode, one-line message) of an assistant screen after it opened a file."""
    if hasattr(screen, "load_error"):  # the shared assistant base
        return screen.mode, screen.load_error
    return ("damaged" if screen.error else "main"), (screen.error or "")


async def _settle(pilot: Any, screen: Any) -> None:
    await pilot.pause()
    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        state = getattr(screen, "state", None)
        if state != "solving" and (getattr(screen, "mode", "main") != "main" or state != "idle"):
            break
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def _open_all(game: str, files: list[dict]) -> list[str]:
    from tui.app import UnmaskApp

    screen_cls = importlib.import_module(f"tui.{game}.assist").AssistScreen
    failures: list[str] = []
    app = UnmaskApp(bot_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        for k, data in enumerate(files):
            sid = f"fuzz-{game}-{k}"
            path = sessions_dir() / f"{sid}.json"
            path.write_text(file_text(data), encoding="utf-8")
            before = path.read_bytes()
            screen = screen_cls(session_id=sid)
            await app.push_screen(screen)
            await _settle(pilot, screen)
            if app._exception is not None:
                failures.append(f"file {k}: the app crashed ({app._exception!r}): {json.dumps(data)[:300]}")
                break
            mode, message = _problem_of(screen)
            if mode == "damaged" and (not message or "\n" in message.strip()):
                failures.append(f"file {k}: no one-line message ({message!r})")
            if mode not in ("main", "damaged"):
                failures.append(f"file {k}: the screen is in mode {mode!r}")
            if path.read_bytes() != before:
                failures.append(f"file {k}: the file was rewritten on opening")
            app.pop_screen()
            await pilot.pause()
            path.unlink()
    if app._exception is not None and not failures:
        failures.append(f"the app crashed: {app._exception!r}")
    return failures


def open_in_assistant(game: str, files: list[dict], timeout: float = 3000) -> list[str]:
    """Every problem found opening ``files`` (assist session dicts) in ``game``'s assistant."""
    return asyncio.run(asyncio.wait_for(_open_all(game, files), timeout))


def check_without_screen(game: str, data: dict) -> str | None:
    """The loader's decision without drawing: the one-line refusal, or None (then every log line
    is written from the session here, as the screen would). Exceptions escape."""
    from engine.session import SessionError
    from tui.storage import read_session_file

    screen_cls = importlib.import_module(f"tui.{game}.assist").AssistScreen
    with tempfile.TemporaryDirectory() as tmp:  # read as the app reads it: the file's text
        path = Path(tmp) / "fuzz.json"
        path.write_text(file_text(data), encoding="utf-8")
        try:
            session = read_session_file(path)
        except SessionError as e:
            return str(e)
    try:
        screen_cls._check_session(session)
    except SessionError as e:
        return str(e)
    if game == "masque":
        from tui.masque.assist import entry_text

        for e in session.log:
            entry_text(e)
        return None
    screen = screen_cls(session_id="fuzz", session=session)
    screen.config = session.config
    screen.entries = list(session.log)
    screen._log_sentences()
    return None
