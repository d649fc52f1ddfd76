"""Shared test setup: no animations, no blinking cursor, a private data dir, instant bots."""

from __future__ import annotations

import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")  # read by Textual at import time

import pytest


@pytest.fixture(autouse=True)
def _isolated_unmask(tmp_path, monkeypatch):
    """Sessions go to a temp dir; bots never wait; text cursors never blink (stable snapshots)."""
    monkeypatch.setenv("UNMASK_DATA_DIR", str(tmp_path / "unmask-data"))
    monkeypatch.setenv("UNMASK_BOT_DELAY", "0")
    # An in-process served app (the robot's lobby, the space tests) confines this worker's storage to
    # its login's space; every test starts with the private data dir above, whatever ran before it.
    from tui.storage import confine_to

    confine_to(None)
    try:
        from textual.widgets._input import Input
    except ImportError:  # textual is only needed by the TUI tests
        return
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
