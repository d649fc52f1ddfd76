"""Tokyo Ghoul in the replay (issue 25): every character and every hand face up, markers and the ring."""

from __future__ import annotations

from typing import Any

from engine.ghoul.data import SUITS
from tui.ghoul import model as m


def faceup(state: Any, view: dict) -> list[tuple[str, str]]:
    """(label, text) rows of the whole table at ``state``: each seat's character, cards and markers, then the ring."""
    rows = []
    for i, counts in enumerate(state.hands):
        cards = [SUITS[s] for s, k in enumerate(counts) for _ in range(k)]
        up = f" · face up: {m.suit(SUITS[state.up[i]])}" if state.up[i] >= 0 else ""
        rows.append((view["players"][i],
                     f"{m.char_label(view, state.chars[i])} · {m.markers(state.markers[i])} · "
                     f"{m.cards_text(cards)}{up}"))
    ring = " · ".join(("▶" if p == state.token else "") + m.tile_name(view, t) for p, t in enumerate(state.ring))
    rows.append(("Ring", ring))
    rows.append(("Pool", m.markers(state.pool)))
    return rows


def event_text(ev: dict, view: dict) -> str | None:
    """The play screen's sentence; the hidden choices it leaves out (cards chosen to show or give) told too."""
    text = m.describe(ev, view)
    if text:
        return text
    who = view["players"][ev["seat"]] if "seat" in ev else ""
    if ev["t"] == "show_chosen" and ev.get("cards"):
        return f"{who} chooses to show {m.cards_text(ev['cards'])}."
    if ev["t"] == "give_chosen" and ev.get("card"):
        return f"{who} chooses to give {m.suit(ev['card'])}."
    return None


def action_text(action: tuple, view: dict) -> str:
    """One legal action in words, as the play screen's button says it (the bot's reasons name moves)."""
    return m.action_label(view, action)
