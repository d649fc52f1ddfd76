"""Tokyo Ghoul: Bloody Masquerade as data: suits, card marks, characters, setup table, tiles.

Everything a user may need to correct to match the box on their table lives in the TOML
files beside this module (``data/*.toml``); this module only reads and checks them, once.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine import words

SUITS = ("coffee", "food", "transformation", "dove", "mask")
"""Suit order used everywhere: a hand is a 5-tuple of counts in this order."""
COFFEE, FOOD, TRANSFORMATION, DOVE, MASK = range(5)
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
KINDS = ("human", "ghoul", "inspector")
SUSPICION_RULES = ("coffee", "food", "dove", "pair", "transformation")
ATTACK_RULES = ("most", "three")


class GhoulDataError(ValueError):
    """A data file that does not describe a usable game."""


@dataclass(frozen=True)
class Suit:
    id: str
    name: str
    colour: str
    assumed: bool


@dataclass(frozen=True)
class Character:
    """One character card: what it counts as and how it wins."""

    id: str
    name: str
    kinds: frozenset[str]
    slot: str  # "human" | "ghoul" | "inspector" | "either"
    variant: str  # "" or "mask"
    instant: tuple[int, int] | None  # (suit index, count)
    alive_with: tuple[tuple[int, int], ...]  # ((suit index, count), ...)
    partner: str | None
    kill: str | None
    inspector_x: int | None
    min_players: int
    excludes: tuple[str, ...]
    assumed: bool

    @property
    def faction(self) -> str:
        """The faction shown to players: 'human', 'ghoul', 'inspector' or 'human+ghoul'."""
        if len(self.kinds) > 1:
            return "+".join(k for k in KINDS if k in self.kinds)
        return next(iter(self.kinds))

    @property
    def is_inspector(self) -> bool:
        return "inspector" in self.kinds

    @property
    def is_killer(self) -> bool:
        return self.kill is not None

    def objectives(self) -> list[str]:
        """Plain sentences for the Rules screen and the player's own panel."""
        out = []
        if self.instant:
            s, n = self.instant
            out.append(f"Instant victory: hold {n} {SUITS[s].title()} cards at the start of your turn.")
        if self.kill:
            who = words.a(self.kill.title())
            team = " (the Inspectors win or lose together)" if self.is_inspector else ""
            out.append(f"Kill {who}{team}.")
        if self.inspector_x:
            out.append(
                "Special action: with two Dove cards, kill a player with at least "
                f"{words.count(self.inspector_x, 'Suspicion marker')} instead of moving."
            )
        if self.alive_with:
            cards = " and ".join(f"{n} {SUITS[s].title()}" for s, n in self.alive_with)
            out.append(f"Stay alive and hold {cards} at the end.")
        if self.partner:
            out.append(f"Also win if {self.partner.upper()} is alive at the end.")
        return out

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "faction": self.faction,
            "kinds": [k for k in KINDS if k in self.kinds],
            "variant": self.variant or None,
            "instant": [SUITS[self.instant[0]], self.instant[1]] if self.instant else None,
            "alive_with": {SUITS[s]: n for s, n in self.alive_with},
            "partner": self.partner,
            "kill": self.kill,
            "inspector_x": self.inspector_x,
            "objectives": self.objectives(),
            "assumed": self.assumed,
        }


@dataclass(frozen=True)
class SetupRow:
    players: int
    option: str
    ghouls: int
    inspectors: int
    humans: int
    markers: int
    assumed: bool


@dataclass(frozen=True)
class TileAction:
    kind: str  # "interrogation" | "suspicion" | "cover" | "attack"
    rule: str | None

    def to_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule}


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    red: bool
    actions: tuple[TileAction, ...]
    assumed: bool

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "red": self.red, "actions": [a.to_json() for a in self.actions]}


@dataclass(frozen=True)
class GhoulData:
    suits: tuple[Suit, ...]
    marks: dict[str, tuple[int, ...]]
    characters: dict[str, Character]
    setups: tuple[SetupRow, ...]
    tiles: dict[str, Tile]
    tile_order: tuple[str, ...]
    red_places: tuple[int, ...]  # 0-based places
    start_place: int  # 0-based
    options: dict
    assumptions: tuple[tuple[str, str], ...]

    def deck(self, players: int, mask: bool) -> tuple[int, ...]:
        """How many cards of each suit are in play (every card is dealt)."""
        counts = [sum(1 for m in self.marks[s] if m <= players) for s in SUITS[:4]]
        counts.append(players if mask else 0)
        return tuple(counts)

    def setup(self, players: int, option: str = "a") -> SetupRow:
        rows = [r for r in self.setups if r.players == players]
        if not rows:
            raise ValueError(f"Tokyo Ghoul: Bloody Masquerade is for 4 to 8 players, not {players}.")
        for r in rows:
            if r.option == option:
                return r
        raise ValueError(f"{players} players have setup(s) {', '.join(r.option for r in rows)}, not {option!r}.")

    def cast_problems(self, cast: Sequence[str], players: int, option: str = "a", mask: bool = False) -> list[str]:
        """Why ``cast`` cannot be the characters of this table (one sentence each; empty when legal).

        One check for every path that takes a fixed cast (game options, the assistant, ``solve``):
        the setup table's Ghoul/Inspector/Human counts, the Mask-only characters, the minimum
        players and the characters that never play together. A character whose slot is "either"
        (Kaneki, half Human, half Ghoul) counts as a Ghoul or a Human, never as an Inspector.
        """
        row = self.setup(players, option)  # raises with a sentence
        if len(cast) != players:
            return [f"Give {players} characters, one per player, not {len(cast)}."]
        unknown = [c for c in cast if c not in self.characters]
        if unknown:
            return [f"Unknown character {unknown[0]!r}; choose among {', '.join(self.characters)}."]
        out: list[str] = []
        if len(set(cast)) != len(cast):
            out.append("Each character can be in play only once.")
        chars = [self.characters[c] for c in dict.fromkeys(cast)]
        for c in chars:
            if c.variant == "mask" and not mask:
                out.append(f"{c.name} plays only in the Mask variant.")
            if c.min_players > players:
                out.append(f"{c.name} plays only from {c.min_players} players.")
        for c in chars:
            clash = [self.characters[x].name for x in c.excludes if x in cast]
            if clash:
                out.append(f"{c.name} cannot be in play together with {', '.join(clash)}.")
        count = {slot: sum(1 for c in chars if c.slot == slot) for slot in ("ghoul", "inspector", "human", "either")}
        fits = (
            count["inspector"] == row.inspectors
            and count["ghoul"] <= row.ghouls
            and count["human"] <= row.humans
            and count["ghoul"] + count["human"] + count["either"] == row.ghouls + row.humans
        )
        if not fits and len(chars) == len(cast):
            either = [c.name for c in chars if c.slot == "either"]
            note = f" ({' and '.join(either)} counts as a Ghoul or a Human)" if either else ""
            out.append(
                f"{players} players (setup {row.option}) play {words.count(row.ghouls, 'Ghoul')}, "
                f"{words.count(row.inspectors, 'Inspector')} and {words.count(row.humans, 'Human')}{note}."
            )
        return out


def _text(name: str) -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data", name).read_text("utf-8"))


def _suit(name: str, where: str) -> int:
    if name not in SUIT_INDEX:
        raise GhoulDataError(f"{where}: unknown suit {name!r}; use one of {', '.join(SUITS)}.")
    return SUIT_INDEX[name]


@cache
def load_data() -> GhoulData:
    """Read and check every data file once."""
    cards = _text("cards.toml")
    suits = tuple(Suit(s["id"], s["name"], s["colour"], bool(s.get("assumed"))) for s in cards["suits"])
    if tuple(s.id for s in suits) != SUITS:
        raise GhoulDataError(f"cards.toml must list the suits {', '.join(SUITS)} in that order.")
    marks = {s: tuple(int(m) for m in cards["marks"][s]) for s in SUITS[:4]}
    chars: dict[str, Character] = {}
    cdata = _text("characters.toml")
    for c in cdata["characters"]:
        where = f"character {c['id']}"
        inst = c.get("instant")
        chars[c["id"]] = Character(
            id=c["id"],
            name=c["name"],
            kinds=frozenset(c["kinds"]),
            slot=c["slot"],
            variant=c.get("variant", ""),
            instant=(_suit(inst[0], where), int(inst[1])) if inst else None,
            alive_with=tuple((_suit(s, where), int(n)) for s, n in c.get("alive_with", {}).items()),
            partner=c.get("partner"),
            kill=c.get("kill"),
            inspector_x=c.get("inspector_x"),
            min_players=int(c.get("min_players", 4)),
            excludes=tuple(c.get("excludes", ())),
            assumed=bool(c.get("assumed")),
        )
    for ch in chars.values():
        if not ch.kinds <= set(KINDS):
            raise GhoulDataError(f"character {ch.id}: kinds must be among {', '.join(KINDS)}.")
        if ch.partner and ch.partner not in chars:
            raise GhoulDataError(f"character {ch.id}: unknown partner {ch.partner!r}.")
        if ch.kill and ch.kill not in KINDS:
            raise GhoulDataError(f"character {ch.id}: unknown kill target {ch.kill!r}.")
    setups = tuple(
        SetupRow(
            int(r["players"]),
            r.get("option", "a"),
            int(r["ghouls"]),
            int(r["inspectors"]),
            int(r["humans"]),
            int(r["markers"]),
            bool(r.get("assumed")),
        )
        for r in cdata["setup"]
    )
    for r in setups:
        if r.ghouls + r.inspectors + r.humans != r.players:
            raise GhoulDataError(f"setup {r.players}{r.option}: the characters do not add up to the players.")
    ldata = _text("locations.toml")
    tiles = {}
    for t in ldata["tiles"]:
        acts = []
        for a in t["actions"]:
            kind, rule = a["kind"], a.get("rule")
            if kind == "suspicion" and rule not in SUSPICION_RULES:
                raise GhoulDataError(f"tile {t['id']}: unknown Suspicion rule {rule!r}.")
            if kind == "attack" and rule not in ATTACK_RULES:
                raise GhoulDataError(f"tile {t['id']}: unknown Attack rule {rule!r}.")
            if kind not in ("interrogation", "suspicion", "cover", "attack"):
                raise GhoulDataError(f"tile {t['id']}: unknown action {kind!r}.")
            acts.append(TileAction(kind, rule))
        tiles[t["id"]] = Tile(t["id"], t["name"], bool(t.get("red")), tuple(acts), bool(t.get("assumed")))
    if len(tiles) != 8 or sum(t.red for t in tiles.values()) != 2:
        raise GhoulDataError("locations.toml must list 8 tiles, 2 of them red-edged.")
    red_places = tuple(int(p) - 1 for p in ldata["red_places"])
    rules = _text("rules.toml")
    return GhoulData(
        suits=suits,
        marks=marks,
        characters=chars,
        setups=setups,
        tiles=tiles,
        tile_order=tuple(tiles),
        red_places=red_places,
        start_place=int(ldata["start_place"]) - 1,
        options=dict(rules.get("options", {})),
        assumptions=tuple((a["id"], a["text"]) for a in rules.get("assumptions", [])),
    )


_SUSPICION_TEXT = {
    "coffee": "2 Coffee",
    "food": "2 Food",
    "dove": "2 Dove",
    "pair": "2 identical cards of any suit",
    "transformation": "any Transformation card",
}
_ATTACK_TEXT = {"most": "the most suspicious player", "three": "anyone with 3 or more Suspicion markers"}


def _action_text(a: dict) -> str:
    kind, rule = a["kind"], str(a.get("rule"))
    if kind == "suspicion":
        return f"Suspicion ({_SUSPICION_TEXT.get(rule, rule)})"
    if kind == "attack":
        return f"Attack ({_ATTACK_TEXT.get(rule, rule)})"
    return {"interrogation": "Interrogation", "cover": "Cover Up Tracks"}.get(kind, kind)


def describe_assumed(stem: str, key: str, record: dict) -> tuple[str, str] | None:
    """How the Rules screen words a record of the data files flagged ``assumed = true``."""
    data = load_data()
    if key == "suits":
        return "Cards", f"{record['name']} cards are {record['colour']}."
    if key == "marks":
        marks = "; ".join(f"{s.title()} {', '.join(f'{m}+' for m in record[s])}" for s in SUITS[:4] if s in record)
        return "Cards", f"Player-count marks of the six cards of each suit: {marks}."
    if key == "characters":
        c = data.characters[record["id"]]
        kind = {"human": "Human", "ghoul": "Ghoul", "inspector": "Inspector"}
        faction = " and ".join(kind[k] for k in KINDS if k in c.kinds)
        variant = ", Mask variant" if c.variant else ""
        return "Characters (the objectives on the cards)", f"{c.name} ({faction}{variant}): {' '.join(c.objectives())}"
    if key == "setup":
        return "Setup table", (
            f"{record['players']} players, setup {record['option']}: {words.count(record['ghouls'], 'Ghoul')}, "
            f"{words.count(record['inspectors'], 'Inspector')}, {words.count(record['humans'], 'Human')}, "
            f"{record['markers']} Suspicion markers in the Pool."
        )
    if key == "tiles":
        edge = " (red edge)" if record.get("red") else ""
        return "Ring", f"{record['name']}{edge}: {', then '.join(_action_text(a) for a in record['actions'])}."
    if stem == "locations" and not key:
        places = " and ".join(str(p) for p in record["red_places"])
        return "Ring", (
            f"The red-edged tiles lie face down on places {places}; the Action token starts on place "
            f"{record['start_place']}; the other tiles are shuffled face up onto the other places."
        )
    return None
