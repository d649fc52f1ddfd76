"""Masque in the replay (issue 25): every hand, plan, Personality and the Red Death cards face up."""

from __future__ import annotations

from typing import Any

from engine.masque import ROOMS, SLOTS
from tui.masque import model as m


def faceup(state: Any, view: dict) -> list[tuple[str, str]]:
    """(label, text) rows of the whole table at ``state``: each noble's room, plan and cards, then the Red Death."""
    rows = []
    for i, hand in enumerate(state.hands):
        where = ROOMS[state.pos[i]].title() if state.pos[i] >= 0 else "not in yet"
        alive = "" if state.alive[i] else " · dead"
        pers = state.personality[i]
        plan = "-".join(m.ROOM_ABBR.get(r, r) for r in m.plan_rooms(ROOMS[state.pos[i]], list(state.plans[i]))) \
            if state.pos[i] >= 0 else "—"
        text = (f"{where}{alive} · popularity {state.pop[i]} · plan {plan}"
                + (f" · {m.card_name(pers)}" if pers else "")
                + f" · hand: {', '.join(m.card_name(c) for c in hand) or '—'}")
        rows.append((view["players"][i], text))
    red = ", ".join(f"{SLOTS[k]}: " + "/".join(ROOMS[r].title() for r in rooms) for k, rooms in enumerate(state.red))
    rows.append(("Red Death", red))
    return rows


def event_text(ev: dict, view: dict) -> str | None:
    """The play screen's sentence; the hidden choices it leaves out (a card chosen, a tile set) told too."""
    text = m.describe(ev, view)
    if text:
        return text
    t, who = ev["t"], view["players"][ev["seat"]] if "seat" in ev else ""
    if t == "chosen" and ev.get("card"):
        return f"{who} chooses {m.card_name(ev['card'])} (face down)."
    if t == "resolve":
        return f"{who}'s {m.card_name(ev['card'])} is played."
    if t == "tile" and ev.get("dir"):
        return f"{who} plans {m.DIR_LABEL.get(ev['dir'], ev['dir'])} for {SLOTS[ev['slot']]} (face down)."
    if t == "ready":
        return f"{who} is ready."
    return None
