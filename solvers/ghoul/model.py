"""The solver's input: a seat's setup and observation log, checked and normalised.

The JSON format is documented in ``docs/ghoul.md`` ("The solve file format"). Anything the
solver cannot read raises :class:`SolverInputError` with one line a person can act on; a
log that reads fine but cannot be true is a *contradiction*, reported by the solver.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ghoul.data import SUIT_INDEX, SUITS, load_data

TYPES = (
    "hand",
    "support",
    "preliminary",
    "face_up",
    "move",
    "turn",
    "interrogation",
    "suspicion",
    "cover",
    "attack",
    "special",
    "instant",
    "reveal",
    "support_look",
    "support_swap",
)
TOKENS = ("neutral", "kaneki")

EXCHANGE_CHANCE_RANGE = (0.05, 0.95)
"""The exchange chance the solver uses lies in this range. A belief setting moves probabilities,
never what is possible: at 0 (or 1) an interrogation I could not see would certainly not (or
certainly) have ended in an exchange, and the rulebook leaves that to the asker, so a value
outside the range (older files saved 0 and 1) is read as the nearest end of it."""

EXCHANGE_CHANCES = (0.1, 0.25, 0.5, 0.75, 0.9)
"""The settings the assistant's ``k`` key steps through."""


def usable_exchange_chance(chance: float) -> float:
    """``chance`` moved into :data:`EXCHANGE_CHANCE_RANGE`, so no hidden exchange is ever ruled in
    or out by the setting alone (a false certainty)."""
    lo, hi = EXCHANGE_CHANCE_RANGE
    return min(hi, max(lo, float(chance)))


class SolverInputError(ValueError):
    """Input the solver cannot read; the message is one line."""


@dataclass
class Problem:
    names: list[str]
    me: int
    mask: bool
    support: bool
    cast: list[str]
    character: str
    deck: tuple[int, ...]
    hand_size: int
    pool: int
    ring: list[str | None] | None
    red: list[bool]
    token: int
    exchange_chance: float = 0.5
    entries: list[dict] = field(default_factory=list)
    raw: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.names)

    def describe(self, i: int) -> str:
        """A short description of log entry ``i`` for messages."""
        e = self.entries[i]
        t = e["type"]
        who = e.get("player", e.get("by"))
        name = self.names[who] if isinstance(who, int) else None
        if t == "suspicion":
            ps = ", ".join(self.names[p] for p in sorted(e["players"])) or "nobody"
            return f"entry {i} (Suspicion '{e['rule']}': {ps})"
        if t == "interrogation":
            return f"entry {i} ({name} interrogated {self.names[e['target']]})"
        if name:
            return f"entry {i} ({t}, {name})"
        return f"entry {i} ({t})"


def _err(i: int | None, msg: str) -> SolverInputError:
    return SolverInputError(f"Log entry {i}: {msg}" if i is not None else msg)


def _suit(x: Any, i: int | None, what: str = "card") -> int:
    if not isinstance(x, str) or x.lower() not in SUIT_INDEX:
        raise _err(i, f"{what} {x!r} is not a suit; use one of {', '.join(SUITS)}.")
    return SUIT_INDEX[x.lower()]


def _cards(xs: Any, i: int | None, what: str = "cards") -> tuple[int, ...]:
    if not isinstance(xs, list | tuple):
        raise _err(i, f"{what} must be a list of suits.")
    h = [0] * 5
    for x in xs:
        h[_suit(x, i)] += 1
    return tuple(h)


def _player(names: list[str], x: Any, i: int | None, what: str = "player") -> int:
    if isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(names):
        return x
    if isinstance(x, str) and x in names:
        return names.index(x)
    raise _err(i, f"{what} {x!r} is not one of the players ({', '.join(names)}).")


def _opt_player(names: list[str], x: Any, i: int, what: str) -> int | None:
    return None if x is None else _player(names, x, i, what)


def _char(x: Any, i: int | None, what: str = "character") -> str:
    chars = load_data().characters
    if not isinstance(x, str) or x not in chars:
        raise _err(i, f"{what} {x!r} is not a character id ({', '.join(chars)}).")
    return x


def _face_ups(names: list[str], d: Any, i: int) -> dict[int, int]:
    if d is None:
        return {}
    if not isinstance(d, Mapping):
        raise _err(i, "face_up must map players to the card now face up.")
    return {_player(names, p, i): (None if c is None else _suit(c, i)) for p, c in d.items()}


def build_problem(config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> Problem:
    """Check and normalise ``config`` and ``log`` (see docs/ghoul.md)."""
    data = load_data()
    if not isinstance(config, Mapping):
        raise SolverInputError("The config must be a JSON object.")
    names = config.get("players")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise SolverInputError("config.players must be the list of player names, clockwise.")
    if not 4 <= len(names) <= 8:
        raise SolverInputError("Tokyo Ghoul: Bloody Masquerade is for 4 to 8 players.")
    if len(set(names)) != len(names):
        raise SolverInputError("Player names must be different.")
    n = len(names)
    me = _player(names, config.get("me"), None, "config.me")
    mask = config.get("mask", False)
    support = config.get("support", False)
    if not isinstance(mask, bool) or not isinstance(support, bool):
        raise SolverInputError("config.mask and config.support are true or false.")
    character = _char(config.get("character"), None, "config.character")
    cast = config.get("cast")
    if not isinstance(cast, list) or len(cast) != n:
        raise SolverInputError(f"config.cast must list the {n} characters in play.")
    cast = [_char(c, None, "config.cast entry") for c in cast]
    if len(set(cast)) != n:
        raise SolverInputError("config.cast names a character twice.")
    if character not in cast:
        raise SolverInputError(f"config.character {character!r} is not in config.cast.")
    setup = config.get("setup", "a")
    try:
        row = data.setup(n, setup)
    except ValueError as bad:
        raise SolverInputError(str(bad)) from None
    problems = data.cast_problems(cast, n, setup, mask)
    if problems:
        raise SolverInputError("config.cast: " + " ".join(problems))
    deck = data.deck(n, mask)
    if "deck" in config:
        d = config["deck"]
        if not isinstance(d, Mapping):
            raise SolverInputError("config.deck maps suits to how many cards are in play.")
        counts = [0] * 5
        for k, v in d.items():
            if not isinstance(v, int) or v < 0:
                raise SolverInputError(f"config.deck: {k!r} needs a whole number of cards.")
            counts[_suit(k, None, "config.deck suit")] = v
        deck = tuple(counts)
    size = 4 if mask else 3
    if sum(deck) != size * n:
        raise SolverInputError(f"The deck holds {sum(deck)} cards; {n} players need {size * n}.")
    pool = config.get("pool", row.markers)
    if not isinstance(pool, int) or pool < 0:
        raise SolverInputError("config.pool is the number of Suspicion markers in the Pool at the start.")
    ring = config.get("ring")
    if ring is not None:
        if not isinstance(ring, list) or len(ring) != 8:
            raise SolverInputError("config.ring lists the 8 tiles by place (null for a face-down unknown tile).")
        for t in ring:
            if t is not None and t not in data.tiles:
                raise SolverInputError(f"config.ring: unknown tile {t!r} ({', '.join(data.tiles)}).")
    red = config.get("red", [p in data.red_places for p in range(8)])
    token = config.get("token", data.start_place)
    chance = config.get("exchange_chance", 0.5)
    if isinstance(chance, bool) or not isinstance(chance, int | float) or not 0 <= chance <= 1:
        raise SolverInputError("config.exchange_chance is a number from 0 to 1.")
    chance = usable_exchange_chance(chance)
    p = Problem(
        names=list(names),
        me=me,
        mask=mask,
        support=support,
        cast=cast,
        character=character,
        deck=deck,
        hand_size=size,
        pool=pool,
        ring=list(ring) if ring is not None else None,
        red=list(red),
        token=token,
        exchange_chance=float(chance),
    )
    if not isinstance(log, Sequence) or isinstance(log, str | bytes):
        raise SolverInputError("The log must be a list of entries.")
    for i, e in enumerate(log):
        p.entries.append(_entry(p, i, e))
        p.raw.append(e)
    return p


def _entry(p: Problem, i: int, e: Any) -> dict:
    names = p.names
    if not isinstance(e, Mapping):
        raise _err(i, "each entry is a JSON object with a 'type'.")
    t = e.get("type")
    if t not in TYPES:
        raise _err(i, f"unknown type {t!r}; use one of {', '.join(TYPES)}.")
    out: dict[str, Any] = {"type": t}
    if t == "hand":
        cards = _cards(e.get("cards"), i)
        up = e.get("face_up")
        if up is not None:
            cards = tuple(c + (k == _suit(up, i, "face_up")) for k, c in enumerate(cards))
            out["face_up"] = _suit(up, i, "face_up")
        if sum(cards) != p.hand_size:
            raise _err(i, f"a hand holds {p.hand_size} cards (face-up card included), not {sum(cards)}.")
        out["cards"] = cards
    elif t == "support":
        tok = e.get("token")
        if tok not in TOKENS:
            raise _err(i, "token is 'neutral' or 'kaneki'.")
        out["token"] = tok
    elif t == "preliminary":
        shown = e.get("shown")
        out["shown"] = _cards(shown, i, "shown") if shown is not None else None
        if out["shown"] is not None and sum(out["shown"]) != 2:
            raise _err(i, "in the preliminary phase 2 cards are shown.")
        out["gave"] = _suit(e["gave"], i) if e.get("gave") is not None else None
        out["received"] = _suit(e["received"], i) if e.get("received") is not None else None
        out["face_up"] = _face_ups(names, e.get("face_up"), i)
        passed = e.get("passed", True)
        if not isinstance(passed, bool):
            raise _err(i, "passed is true or false (whether the cards have been passed).")
        out["passed"] = passed
    elif t == "face_up":
        out["player"] = _player(names, e.get("player"), i)
        out["card"] = _suit(e.get("card"), i)
    elif t in ("move", "turn"):
        out["player"] = _player(names, e.get("player"), i)
        to = e.get("to")
        if to is not None and (not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < 8):
            raise _err(i, "to is a place number 0-7.")
        out["to"] = to
        rev = e.get("revealed") or {}
        if not isinstance(rev, Mapping):
            raise _err(i, "revealed maps places to the tiles turned face up.")
        out["revealed"] = {int(k): v for k, v in rev.items()}
    elif t == "interrogation":
        out["by"] = _player(names, e.get("by"), i, "by")
        out["target"] = _player(names, e.get("target"), i, "target")
        if out["by"] == out["target"]:
            raise _err(i, "a player cannot interrogate himself.")
        count = e.get("count")
        if count not in (None, 2, 3):
            raise _err(i, "count is 2 or 3 cards.")
        out["count"] = count
        shown = e.get("shown")
        out["shown"] = _cards(shown, i, "shown") if shown is not None else None
        if out["shown"] is not None and sum(out["shown"]) not in (2, 3):
            raise _err(i, "an interrogation shows 2 or 3 cards.")
        party = p.me in (out["by"], out["target"])
        ex = e.get("exchange", "none" if party else "unknown")
        if ex is None:
            ex = "none" if party else "unknown"
        if ex in ("none", "unknown"):
            out["exchange"] = ex
        elif isinstance(ex, Mapping):
            gave, took = _suit(ex.get("gave"), i, "exchange.gave"), _suit(ex.get("took"), i, "exchange.took")
            gf, tf = ex.get("gave_from", "hand"), ex.get("took_from", "hand")
            if gf not in ("hand", "board") or tf not in ("hand", "board"):
                raise _err(i, "gave_from and took_from are 'hand' or 'board'.")
            out["exchange"] = (gave, took, gf, tf)
        else:
            raise _err(i, "exchange is 'none', 'unknown' or {gave, took}.")
        if not party and isinstance(out["exchange"], tuple):
            pass  # a table where everyone saw the exchange: allowed
        out["face_up"] = _face_ups(names, e.get("face_up"), i)
    elif t == "suspicion":
        rule = e.get("rule")
        if rule not in ("coffee", "food", "dove", "pair", "transformation"):
            raise _err(i, "rule is coffee, food, dove, pair or transformation.")
        out["rule"] = rule
        players = e.get("players", [])
        if not isinstance(players, list):
            raise _err(i, "players lists who drew suspicion.")
        out["players"] = {_player(names, x, i) for x in players}
        took = e.get("took")
        out["took"] = [_player(names, x, i) for x in took] if isinstance(took, list) else None  # type: ignore[attr-defined]
    elif t == "cover":
        out["by"] = _opt_player(names, e.get("by"), i, "by")
        out["removed"] = _opt_player(names, e.get("removed"), i, "removed")
        out["added"] = _opt_player(names, e.get("added"), i, "added")
    elif t in ("attack", "special"):
        out["by"] = _player(names, e.get("by"), i, "by")
        out["target"] = _player(names, e.get("target"), i, "target")
        out["by_character"] = _char(e["by_character"], i) if e.get("by_character") else None
        out["target_character"] = _char(e["target_character"], i) if e.get("target_character") else None
        out["victim"] = _opt_player(names, e.get("victim"), i, "victim")
        sup = e.get("support")
        if sup is not None and (not isinstance(sup, list) or len(sup) != 2 or any(x not in TOKENS for x in sup)):
            raise _err(i, "support lists the attacker's and the target's tokens.")
        out["support"] = sup
    elif t == "instant":
        out["player"] = _player(names, e.get("player"), i)
        out["character"] = _char(e.get("character"), i)
        out["cards"] = _cards(e["cards"], i) if e.get("cards") is not None else None
    elif t == "reveal":
        out["player"] = _player(names, e.get("player"), i)
        out["character"] = _char(e["character"], i) if e.get("character") else None
        cards = e.get("cards")
        out["cards"] = _cards(cards, i) if cards is not None else None
        if out["cards"] is not None and sum(out["cards"]) != p.hand_size:
            raise _err(i, f"a revealed hand holds {p.hand_size} cards.")
    elif t == "support_look":
        out["by"] = _player(names, e.get("by"), i, "by")
        out["target"] = _player(names, e.get("target"), i, "target")
        tok = e.get("token")
        if tok is not None and tok not in TOKENS:
            raise _err(i, "token is 'neutral', 'kaneki' or null.")
        out["token"] = tok
    elif t == "support_swap":
        out["by"] = _player(names, e.get("by"), i, "by")
        out["with"] = _player(names, e.get("with"), i, "with")
    return out
