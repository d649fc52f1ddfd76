"""The Tokyo Ghoul log in words: one short sentence per entry of the solve file format.

The assistant's log list, its contradiction line, the Why view and ``unmask solve ghoul
--explain`` all say an entry in these words, so a note cited as a reason reads exactly as the
line the player tapped in the log ("#8 Cai interrogated me (saw Coffee, Coffee; gave Food, took
Food)"). Plain text from the log and the config: no widgets (``tui/ghoul/assist_model.py``
re-exports these for the screens).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import words
from engine.ghoul.data import load_data

__all__ = [
    "RED_PLACES",
    "RULE_LABEL",
    "SUIT_LABEL",
    "char_label",
    "describe",
    "entry_sentence",
    "place_label",
    "tile_label",
    "with_reveals",
]

DATA = load_data()
RED_PLACES = tuple(DATA.red_places)
SUIT_LABEL = {"coffee": "Coffee", "food": "Food", "transformation": "Transf.", "dove": "Dove", "mask": "Mask"}
RULE_LABEL = {
    "pair": "Any pair",
    "coffee": "2 Coffee",
    "food": "2 Food",
    "dove": "2 Dove",
    "transformation": "Any Transf.",
}


def char_label(cid: str) -> str:
    """A short character name for buttons and the grid."""
    return "Half-Kaneki" if cid == "kaneki-half" else cid.title()


def tile_label(tid: str | None) -> str:
    """A tile's name, or "?" for a tile still face down."""
    return DATA.tiles[tid].name if tid and tid in DATA.tiles else "?"


def place_label(config: Mapping[str, Any], place: int) -> str:
    """A place of the ring as the table sees it: its number (1-8) and tile."""
    ring = config.get("ring") or [None] * 8
    tile = ring[place] if place < len(ring) else None
    if tile is None:
        return f"{place + 1} red ?" if place in RED_PLACES else f"{place + 1} ?"
    return f"{place + 1} {tile_label(tile)}"


def with_reveals(config: Mapping[str, Any], entries: Sequence[Any]) -> dict[str, Any]:
    """The config with every red place that ``entries`` turned face up named on the ring: labels only
    (a tile never changes place), so a later move reads "5 Cochlea", not "5 red ?"."""
    ring = list(config.get("ring") or [None] * 8)
    for e in entries:
        if isinstance(e, Mapping) and e.get("type") in ("move", "turn"):
            for p, tile in (e.get("revealed") or {}).items():
                if str(p).isdigit() and int(p) < len(ring) and tile in DATA.tiles:
                    ring[int(p)] = tile
    return {**config, "ring": ring}


def _cards(xs: Any) -> str:
    return ", ".join(SUIT_LABEL.get(x, str(x)) for x in xs or []) or "nothing"


def describe(e: Any, config: Mapping[str, Any]) -> str:
    """One log entry as a short sentence for the log list and the contradiction message."""
    if not isinstance(e, Mapping):
        return str(e)
    me = config.get("me")
    t = e.get("type")

    def who(x: Any) -> str:
        return "I" if x == me else str(x)

    def whom(x: Any) -> str:
        return "me" if x == me else str(x)

    if t == "hand":
        up = f" (face up: {SUIT_LABEL.get(e['face_up'], e['face_up'])})" if e.get("face_up") else ""
        return f"My hand: {_cards(e.get('cards'))}{up}"
    if t == "support":
        return f"My Support token: {'Transformed Kaneki' if e.get('token') == 'kaneki' else 'neutral'}"
    if t == "face_up":
        return f"{e.get('player')}'s face-up card: {SUIT_LABEL.get(e.get('card'), e.get('card'))}"
    if t == "preliminary":
        players = list(config.get("players") or [])
        i = players.index(me) if me in players else 0
        right = players[(i - 1) % len(players)] if players else "?"
        parts = []
        if e.get("shown"):
            parts.append(f"{right} showed me {_cards(e['shown'])}")
        if e.get("gave"):
            parts.append(f"I gave {SUIT_LABEL.get(e['gave'])}")
        if e.get("received"):
            parts.append(f"got {SUIT_LABEL.get(e['received'])}")
        return "Preliminary: " + ("; ".join(parts) or "nothing seen")
    if t in ("move", "turn"):
        to = e.get("to")
        text = f"{e.get('player')}'s turn"
        if isinstance(to, int):
            text += f": token to {place_label(config, to)}"
        rev = e.get("revealed") or {}
        if rev:
            text += " (" + ", ".join(f"place {int(p) + 1} is {tile_label(x)}" for p, x in rev.items()) + ")"
        return text
    if t == "interrogation":
        text = f"{who(e.get('by'))} interrogated {whom(e.get('target'))}"
        extra = []
        if e.get("count"):
            extra.append(words.count(e["count"], "card"))
        if e.get("shown"):
            extra.append(f"saw {_cards(e['shown'])}")
        ex = e.get("exchange")
        if isinstance(ex, Mapping):
            extra.append(f"gave {SUIT_LABEL.get(ex.get('gave'))}, took {SUIT_LABEL.get(ex.get('took'))}")
        elif ex == "unknown":
            extra.append("exchange unseen")
        elif ex == "none":
            extra.append("no exchange")
        for p, c in (e.get("face_up") or {}).items():
            extra.append(f"{p}'s face-up card {'left' if c is None else 'now ' + SUIT_LABEL.get(c, str(c))}")
        return text + (f" ({'; '.join(extra)})" if extra else "")
    if t == "suspicion":
        ps = ", ".join(e.get("players") or []) or "nobody"
        took = e.get("took")
        tail = f"; only {', '.join(took) or 'nobody'} took one" if isinstance(took, list) else ""
        return f"Suspicion ({RULE_LABEL.get(e.get('rule'), e.get('rule'))}): {ps}{tail}"
    if t == "cover":
        parts = []
        if e.get("removed"):
            parts.append(f"removed {e['removed']}'s marker")
        if e.get("added"):
            parts.append(f"gave one to {e['added']}")
        return f"{e.get('by') or '?'} covered up: " + (", ".join(parts) or "nothing")
    if t in ("attack", "special"):
        by = e.get("by")
        if e.get("by_character"):
            by = f"{by} ({char_label(e['by_character'])})"
        target = e.get("target")
        if e.get("target_character"):
            target = f"{target} ({char_label(e['target_character'])})"
        verb = "used the special action on" if t == "special" else "attacked"
        victim = f"; {e['victim']} died" if e.get("victim") else "; nobody died"
        return f"{by} {verb} {target}{victim}"
    if t == "instant":
        return f"{e.get('player')} won instantly as {char_label(str(e.get('character')))}"
    if t == "reveal":
        ch = char_label(e["character"]) if e.get("character") else "?"
        cards = f": {_cards(e['cards'])}" if e.get("cards") else ""
        return f"{e.get('player')} revealed {ch}{cards}"
    if t == "support_look":
        tok = e.get("token")
        seen = f" ({'Transformed Kaneki' if tok == 'kaneki' else 'neutral'})" if tok else ""
        return f"{who(e.get('by'))} looked at {e.get('target')}'s Support token{seen}"
    if t == "support_swap":
        return f"{who(e.get('by'))} swapped Support tokens with {whom(e.get('with'))}"
    return str(dict(e))


def entry_sentence(config: Mapping[str, Any], log: Sequence[Any], i: int) -> str:
    """Entry ``i`` of ``log`` as the assistant's log shows it (places named as the table saw them then)."""
    return describe(log[i], with_reveals(config, log[:i]))
