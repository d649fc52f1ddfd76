"""The served app's drawing shortcuts (tui/serve/child.py) leave the screens as they were.

The same key presses go to an app with the shortcuts and to one with Textual as shipped
(``UNMASK_SERVE_PLAIN=1``); after each, the terminal (pyte: every character with its colours and
attributes) must be identical (lobby, a shared table's play screen, My games), while the shortcuts
send fewer bytes.
"""

from __future__ import annotations

import asyncio

import pytest
from sshterm import Term

from engine.clue import ClueConfig
from tui.serve import tables
from tui.serve.lobby import table_names
from tui.serve.ssh import add_password, default_passwords_file, start_ssh_server

SEATS = ["human", "human", "random"]
# (keys, what must be on screen after them, compare the screens?)
STEPS = [
    ("", "Sit at seat 1", True),
    ("\t", None, True), ("\t", None, True), ("\t", None, True), ("\x1b[Z", None, True), ("\t\t\t", None, True),
    ("click:Sit at seat 1", "Your cards:", True),
    ("\t", None, True), ("\t\t", None, True), ("\x1b[Z", None, True),
    ("\x1b", "seats 1: alice, 2: open", True),  # back in the lobby, once it has seen alice leave the table
    ("\t", None, True), ("\t\t", None, True),
    ("m", "No saved games yet", True),  # the user's own games (Escape in the lobby goes nowhere)
    ("\t", None, True), ("\t", None, True), ("\t\t\t", None, True), ("\x1b[Z", None, True),
]


def grid(term: Term) -> list[list[tuple]]:
    buf = term.screen.buffer
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.reverse)
             for c in (buf[y][x] for x in range(term.screen.columns))] for y in range(term.screen.lines)]


async def play(plain: bool, data: str, monkeypatch) -> tuple[list, int]:
    monkeypatch.setenv("UNMASK_DATA_DIR", data)
    add_password("alice", "a")
    server = await start_ssh_server("127.0.0.1", 0, passwords_file=default_passwords_file(), tables=True,
                                    extra_env={"UNMASK_SERVE_PLAIN": "1" if plain else "0"})
    shots = []
    try:
        server.tables.create(ClueConfig(board="red-keep", players=3, names=table_names("alice", SEATS)).to_json(),
                             SEATS, seed=3)
        t = await Term.open(server.port, "alice", password="a", width=110, height=36)
        for keys, expect, _compare in STEPS:
            if keys.startswith("click:"):
                x, y = t.find(keys.removeprefix("click:"))
                t.click(x + 2, y)
            elif keys:
                t.send(keys)
            if expect:
                await t.wait_for(expect)
            await t.settle(0.6)
            shots.append(grid(t))
        sent = len(t.raw)
        await t.close()
    finally:
        server.close()
        await server.wait_closed()
    return shots, sent


def test_shortcuts_draw_the_same_screens(tmp_path, monkeypatch):
    monkeypatch.setattr(tables.secrets, "token_hex", lambda n: "ab" * n)  # the same table id both times

    async def scenario():
        plain, plain_bytes = await play(True, str(tmp_path / "plain"), monkeypatch)
        quick, quick_bytes = await play(False, str(tmp_path / "quick"), monkeypatch)
        for i, (a, b) in enumerate(zip(plain, quick, strict=True)):
            if STEPS[i][2] and a != b:
                rows = [y for y in range(len(a)) if a[y] != b[y]]
                text = lambda g, y: "".join(c[0] for c in g[y])  # noqa: E731
                pytest.fail(f"step {i} ({STEPS[i][0]!r}) differs on rows {rows}:\n"
                            + "\n".join(f"plain {text(a, y)}\nquick {text(b, y)}" for y in rows[:4]))
        assert "╸━━━╺" in "".join(c[0] for c in quick[6][2])  # the wide layout (the Log tab underlined)
        assert quick_bytes < plain_bytes
        return plain_bytes, quick_bytes

    print(asyncio.run(asyncio.wait_for(scenario(), 120)))
