"""Clue in the replay (issue 25): every hand, the envelope and the piles face up, and the log's sentences."""

from __future__ import annotations

from typing import Any

from engine.clue.board import load_board
from tui.clue import model as m
from tui.clue.board import BoardView


def faceup(state: Any, view: dict) -> list[tuple[str, str]]:
    """(label, text) rows of the whole table at ``state``: each seat's hand and place, then the envelope."""
    board = load_board(state.config.board)
    names = view["players"]
    rows = []
    for i, hand in enumerate(state.hands):
        char = state.chars[i]
        where = m.node_label(board, state.pos[char]) if char in state.pos else "?"
        marks = " · out (wrong accusation)" if state.eliminated[i] else ""
        plots = f" · plot: {', '.join(state.plot_hands[i])}" if state.plot_hands[i] else ""
        rows.append((names[i], f"{char} at {where}{marks}: {', '.join(hand) or '—'}{plots}"))
    rows.append(("Envelope", ", ".join(state.envelope)))
    for label, cards in (("Face up", state.face_up), ("Centre", state.centre), ("Set aside", state.aside)):
        if cards:
            rows.append((label, ", ".join(cards)))
    return rows


def board(final: Any) -> BoardView:
    """The play screen's board map, for the replay's Board view (``b``): built once per replay."""
    return BoardView(load_board(final.config.board), id="board")


def draw_board(widget: BoardView, view: dict) -> None:
    """Every token and weapon where it was (``view``: the chosen seat's at that step; its token marked)."""
    widget.show(m.board_cells(view, widget.board, set()), view["characters"][view["seat"]], set(view["characters"]))


def event_text(ev: dict, view: dict) -> str | None:
    """The play screen's sentence for one event, told to ``view["seat"]``."""
    text = m.describe(ev, m.Seats.from_view(view), load_board(view["board"]))
    if text is None and ev["t"] == "envelope" and ev.get("cards"):
        return f"{view['players'][ev['seat']]} looks into the envelope: {', '.join(ev['cards'])}."
    return text
