"""Fixtures of the assistant's tests: a private data dir, no cursor blink, and a way to wait for the solver."""

from __future__ import annotations

import os

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")  # read when textual is imported

import pytest
from textual.widgets import Input


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    """Sessions go to a temp dir, never to the user's."""
    monkeypatch.setenv("UNMASK_DATA_DIR", str(tmp_path / "unmask-data"))
    return tmp_path / "unmask-data"


@pytest.fixture(autouse=True)
def _frozen_cursor(monkeypatch):
    """The Input cursor blinks on a wall-clock timer: freeze it so snapshots are stable."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
