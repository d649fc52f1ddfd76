"""Mascarade in the replay (issue 25): every card face up (each seat's and the table's), coins and the court."""

from __future__ import annotations

from typing import Any

from tui.mascarade import model as m


def faceup(state: Any, view: dict) -> list[tuple[str, str]]:
    """(label, text) rows of the whole table at ``state``: each place's true card and coins."""
    rows = []
    for place, card in enumerate(state.cards):
        label = m.place_name(view, place)
        if place < len(state.coins):
            rows.append((label, f"{m.mask_name(view, card)} · {m.coins_text(state.coins[place])}"))
        else:
            rows.append((label, m.mask_name(view, card)))
    rows.append(("Court", m.coins_text(state.court)))
    return rows


def event_text(ev: dict, view: dict) -> str | None:
    return m.describe(ev, view)
