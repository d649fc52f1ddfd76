"""Why is a Masque room certainly safe or deadly: the notes behind each certain fact.

Facts are ``("safe", "12:30 orange")`` and ``("deadly", "12:30 orange")``, the items of the
solver's ``certain`` lists.  The notes are the entries that say something about the Red Death
cards (``hand``, ``rumor``, ``seen``, ``evidence``); ``start`` and ``ask`` entries never make a
room certain and always stay in.  The oracle is the solver's own reading of the log
(:func:`solvers.masque.solver.read_input`) and its exact per-slot table, so "certain" means
exactly what ``solve`` reports.  Slots are independent, so the search is quick without a model.
"""

from __future__ import annotations

from typing import Any

from engine.masque import NR, NS, ROOMS, SLOTS
from solvers.explain import Explainer
from solvers.masque.solver import _room, _slot, death_table, parse_card, read_input

__all__ = ["MasqueOracle", "masque_explainer", "note_sentence"]

NOTE_TYPES = ("hand", "rumor", "seen", "evidence")
Fact = tuple[str, str]


class MasqueOracle:
    """Certain safe/deadly rooms from the config and any subset of the notes."""

    def __init__(self, config: dict, log: list[dict]) -> None:
        read_input(config, log)  # validates; SolverInputError names the entry
        self.config = config
        self.log = log
        self.notes = [i for i, e in enumerate(log) if is_note(e)]

    def certain(self, kept: frozenset[int]) -> list[Fact]:
        """Safe rooms first, then deadly ones, slot by slot (the solver's order)."""
        log = [e if i in kept or not is_note(e) else _without_card(e) for i, e in enumerate(self.log)]
        log = [e for e in log if e is not None]
        know, _ = read_input(self.config, log)
        safe, deadly = know.masks()
        p = death_table(safe, deadly, know.red_death)
        out: list[Fact] = [("safe", f"{SLOTS[k]} {ROOMS[x]}") for k in range(NS) for x in range(NR) if p[k][x] == 0.0]
        out += [("deadly", f"{SLOTS[k]} {ROOMS[x]}") for k in range(NS) for x in range(NR) if p[k][x] == 1.0]
        return out


def is_note(entry: dict) -> bool:
    """An entry that says something about the Red Death cards: a card I know, or a Red Death look
    (a table note that showed me a card counts: the card is a Gossip card, so its room is safe)."""
    t = entry.get("type")
    return t in NOTE_TYPES or (t in ("ask", "give") and entry.get("card") is not None)


def _without_card(entry: dict) -> dict | None:
    """A note left out: gone, but a table ask or gift stays as a move whose card I did not see."""
    if entry.get("type") in ("ask", "give"):
        return {k: v for k, v in entry.items() if k != "card"}
    return None


def masque_explainer(config: dict, log: list[dict]) -> Explainer:
    """An :class:`Explainer` of every certain room (SolverInputError on unreadable input)."""
    return Explainer(MasqueOracle(config, log))


def fact_json(fact: Fact) -> dict[str, str]:
    """The CLI form: ``{"safe": "12:00 blue"}`` or ``{"deadly": "12:30 orange"}``."""
    return {fact[0]: fact[1]}


def fact_sentence(fact: Fact) -> str:
    """'12:30 orange is certainly deadly'."""
    return f"{fact[1]} is certainly {fact[0]}"


def note_sentence(entry: dict[str, Any], me: str = "") -> str:
    """One note in words (the card names are the solver's)."""
    t = entry.get("type")
    if t == "hand":
        cards = [_card(c) for c in entry.get("cards") or []]
        return "my hand holds " + ", ".join(cards) + " (safe)"
    if t == "rumor":
        return f"I held {_card(entry.get('card'))} (safe)"
    if t == "seen":
        who = entry.get("from")
        return f"I saw {_card(entry.get('card'))}" + (f" from {who}" if who else "") + " (safe)"
    if t in ("ask", "give") and entry.get("card") is not None:
        how = "a gift" if t == "give" else "a take" if entry.get("how") == "take" else "a look"
        what = entry.get("action") or how
        return f"I saw {_card(entry.get('card'))} ({what}: {entry.get('by')} and {entry.get('target')}) (safe)"
    if t == "evidence":
        idx = entry.get("index")
        which = f" (Red Death card {idx + 1})" if isinstance(idx, int) else ""
        k, x = _slot(entry.get("slot"), "note"), _room(entry.get("room"), "note")
        return f"the Red Death was in {ROOMS[x]} at {SLOTS[k]}{which}"
    return str(t)


def _card(value: Any) -> str:
    try:
        k, x = parse_card(value, "note")
    except ValueError:
        return str(value)
    return f"{SLOTS[k]} {ROOMS[x]}"

explainer = masque_explainer  # the name every game's explain module exports (solvers.why)
