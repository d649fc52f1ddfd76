"""The Masque of the Red Death's board, clock and Action cards, loaded from TOML data.

Everything a user may need to correct to match the box on their table (the ring order,
the card counts, the Personality cards) lives in ``data/*.toml``; this module only parses
and checks it, so the engine can index rooms and slots by small ints.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

# Effects the engine knows how to resolve, and whether each takes a number.
EFFECTS: dict[str, bool] = {
    "gain": True, "lose": True, "draw": True, "twice": False, "other_gain": True, "other_lose": True,
    "look": True, "take": True, "give": False, "look_each": False, "nearby_lose": True,
    "anywhere": False, "premonition": False, "least_gain": True, "encore": True,
}
TARGETED = frozenset({"other_gain", "other_lose", "look", "take", "give"})
"""Effects that act on "a nearby noble": one card's targeted effects all share one target."""


class RulesDataError(ValueError):
    """A data file that does not describe a playable game; the message names the problem."""


@dataclass(frozen=True)
class Rules:
    rounds: int
    track: int
    red_death: int
    red_death_harder: int
    evidence_per_slot: int
    prince_tiles_per_room: int
    prince_tiles_in_box: int
    plan_length: int
    rooms: tuple[str, ...]
    room_names: tuple[str, ...]
    slots: tuple[str, ...]
    prince_slots: tuple[str, ...]
    assumptions: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ActionCard:
    id: str
    name: str
    text: str
    effects: tuple[tuple[str, int], ...]
    keep: bool
    personality: bool
    assumed: bool

    @property
    def targeted(self) -> bool:
        return any(e in TARGETED for e, _ in self.effects)


def _read(name: str) -> dict:
    return tomllib.loads((resources.files("engine.masque") / "data" / name).read_text(encoding="utf-8"))


@cache
def load_rules() -> Rules:
    d = _read("rules.toml")
    g = d["game"]
    rules = Rules(
        rounds=g["rounds"], track=g["track"], red_death=g["red_death_per_slot"],
        red_death_harder=g["red_death_per_slot_harder"], evidence_per_slot=g["evidence_per_slot"],
        prince_tiles_per_room=g["prince_tiles_per_room"], prince_tiles_in_box=g["prince_tiles_in_box"],
        plan_length=g["plan_length"], rooms=tuple(g["rooms"]), room_names=tuple(g["room_names"]),
        slots=tuple(g["slots"]), prince_slots=tuple(g["prince_slots"]),
        assumptions=tuple((a["id"], a["text"]) for a in d.get("assumptions", [])),
    )
    if len(rules.room_names) != len(rules.rooms) or len(set(rules.rooms)) != len(rules.rooms):
        raise RulesDataError("rules.toml: rooms and room_names must be as many, and rooms all different.")
    if len(rules.slots) != rules.plan_length:
        raise RulesDataError("rules.toml: there must be one time slot per Movement tile.")
    if len(rules.prince_slots) != rules.rounds:
        raise RulesDataError("rules.toml: the Prince board needs one slot per round.")
    if rules.prince_tiles_per_room * len(rules.rooms) - rules.prince_tiles_in_box != rules.rounds:
        raise RulesDataError("rules.toml: the Prince tiles left after the box must fill one slot per round.")
    if not 1 <= rules.red_death < rules.red_death_harder < len(rules.rooms):
        raise RulesDataError("rules.toml: the Red Death cards per slot must be fewer than the rooms.")
    return rules


def parse_effect(text: str) -> tuple[str, int]:
    """``"gain 3"`` -> ``("gain", 3)``; RulesDataError for an effect the engine cannot resolve."""
    parts = text.split()
    if not parts or parts[0] not in EFFECTS:
        raise RulesDataError(f"actions.toml: unknown effect {text!r}; known: {', '.join(EFFECTS)}.")
    if EFFECTS[parts[0]]:
        if len(parts) != 2 or not parts[1].isdigit() or int(parts[1]) < 1:
            raise RulesDataError(f"actions.toml: effect {text!r} needs one positive number.")
        return parts[0], int(parts[1])
    if len(parts) != 1:
        raise RulesDataError(f"actions.toml: effect {text!r} takes no number.")
    return parts[0], 0


@cache
def load_actions() -> dict[str, ActionCard]:
    """Every Action card by id, standard cards first, in the data file's order."""
    out: dict[str, ActionCard] = {}
    for c in _read("actions.toml")["card"]:
        card = ActionCard(
            id=c["id"], name=c["name"], text=c["text"],
            effects=tuple(parse_effect(e) for e in c["effects"]), keep=bool(c.get("keep", False)),
            personality=bool(c.get("personality", False)), assumed=bool(c.get("assumed", False)),
        )
        if card.id in out:
            raise RulesDataError(f"actions.toml: card {card.id!r} is listed twice.")
        out[card.id] = card
    return out


def standard_cards() -> tuple[str, ...]:
    return tuple(c.id for c in load_actions().values() if not c.personality)


def personality_cards() -> tuple[str, ...]:
    return tuple(c.id for c in load_actions().values() if c.personality)


def describe_assumed(stem: str, key: str, record: dict) -> tuple[str, str] | None:
    """How the Rules screen words a record of the data files flagged ``assumed = true``."""
    if key == "card":
        kind = "Personality card" if record.get("personality") else "Action card"
        return "Personality cards (their effects)", f"{record['name']} ({kind}): {record['text']}"
    return None
