"""The Tokyo Ghoul table assistant without widgets: names, the setup check, sentences, entry forms.

Everything here is plain data in the solver's own format (``docs/ghoul.md``, "The solve file
format"), so what the screens build is exactly what ``unmask solve ghoul`` reads. Each entry
kind is described by a list of :class:`Field` (what a dialog asks, as tappable options) and a
``build`` function that turns the picked values into one log entry, or says what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ghoul.data import SUITS, load_data
from solvers.ghoul import log_text
from solvers.ghoul.log_text import RED_PLACES, RULE_LABEL, SUIT_LABEL, char_label, place_label, tile_label

DATA = load_data()
CHARS = DATA.characters
NONE = "\x00none"  # the "nobody" / "not seen" option of a picker
LEFT = "\x00left"  # a face-up card that left the board
MIN_PLAYERS, MAX_PLAYERS = 4, 8
DEFAULT_NAMES = ("Ann", "Ben", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal")
SUIT_SHORT = {"coffee": "Cof", "food": "Food", "transformation": "Trn", "dove": "Dove", "mask": "Mask"}
OTHER_PLACES = tuple(p for p in range(8) if p not in RED_PLACES)
RED_TILES = tuple(t for t in DATA.tile_order if DATA.tiles[t].red)
OTHER_TILES = tuple(t for t in DATA.tile_order if not DATA.tiles[t].red)

# Entry kinds: (type, button label, short label, key). "more" kinds sit behind the More… button.
MAIN_KINDS = (
    ("hand", "Hand", "Hand", "h"),
    ("preliminary", "Prelim", "Prelim", "p"),
    ("move", "Move", "Move", "m"),
    ("interrogation", "Interrogate", "Interr.", "i"),
    ("suspicion", "Suspicion", "Suspic.", "s"),
    ("cover", "Cover up", "Cover", "c"),
    ("attack", "Attack", "Attack", "a"),
)
MORE_KINDS = (
    ("face_up", "Face-up card", "Face-up", "f"),
    ("instant", "Instant win", "Instant", "n"),
    ("reveal", "Reveal", "Reveal", "v"),
    ("support", "My Support token", "Token", "t"),
    ("support_look", "Looked at a token", "Look", "l"),
    ("support_swap", "Swapped tokens", "Swap", "w"),
)
TITLES = {k: label for k, label, _s, _k in (*MAIN_KINDS, *MORE_KINDS)} | {"turn": "Move", "special": "Attack"}
DIALOG_KIND = {"turn": "move", "special": "attack"}  # entry types edited with another kind's dialog

# The log's words (one sentence per entry), shared with the Why view and ``solve ghoul --explain``.
describe = log_text.describe
with_reveals = log_text.with_reveals


def faction_letter(cid: str) -> str:
    return {"human": "H", "ghoul": "G", "inspector": "I", "human+ghoul": "H/G"}[CHARS[cid].faction]


def suits_in_play(config: Mapping[str, Any]) -> list[str]:
    return [s for s in SUITS if s != "mask" or config.get("mask")]


def hand_size(config: Mapping[str, Any]) -> int:
    return 4 if config.get("mask") else 3


# ---------------------------------------------------------------------------- setup


def default_cast(n: int, setup: str = "a", mask: bool = False) -> list[str]:
    """A legal cast for ``n`` players (the first characters of each faction); the user changes it."""
    try:
        row = DATA.setup(n, setup)
    except ValueError:
        row = DATA.setup(n, "a")
    out: list[str] = []
    for slot, k in (("human", row.humans), ("ghoul", row.ghouls), ("inspector", row.inspectors)):
        pool = [c for c in CHARS.values() if c.slot == slot and not c.variant and c.min_players <= n]
        out.extend(c.id for c in pool[:k])
    return out


def default_ring() -> list[str | None]:
    """The ring with the red places unknown and the other tiles in the data files' order."""
    ring: list[str | None] = [None] * 8
    for place, tile in zip(OTHER_PLACES, OTHER_TILES, strict=True):
        ring[place] = tile
    return ring


def allowed_characters(n: int, mask: bool) -> list[str]:
    """The characters that may be in play with ``n`` players and this variant."""
    return [c.id for c in CHARS.values() if (mask or not c.variant) and c.min_players <= n]


def cast_problems(n: int, setup: str, cast: Sequence[str], mask: bool) -> list[str]:
    """Why this cast cannot be a table of ``n`` (one sentence each; empty when it is fine)."""
    out = []
    if len(cast) != n:
        out.append(f"Tap the {n} characters in play ({len(cast)} picked).")
        return out
    try:
        return DATA.cast_problems(cast, n, setup, mask)
    except ValueError as e:
        return [str(e)]


def make_config(
    names: Sequence[str],
    me: int,
    character: str | None,
    cast: Sequence[str],
    mask: bool,
    support: bool,
    setup: str,
    ring: Sequence[str | None] | None,
) -> tuple[dict[str, Any] | None, list[str]]:
    """The solver config from the setup form, or None and every problem (nothing typed is lost)."""
    from solvers.ghoul.model import SolverInputError, build_problem

    errors: list[str] = []
    names = [x.strip() for x in names]
    n = len(names)
    if any(not x for x in names):
        errors.append("Every player needs a name.")
    elif len(set(names)) != n:
        errors.append("Two players have the same name.")
    errors += cast_problems(n, setup, cast, mask)
    if character is None:
        errors.append("Tap your own character.")
    elif character not in cast:
        errors.append(f"Your character {char_label(character)} must be one of the characters in play.")
    if ring is not None:
        tiles = [t for p, t in enumerate(ring) if p not in RED_PLACES]
        if None in tiles or len(set(tiles)) != len(tiles):
            errors.append("Each of the six face-up places needs a different tile.")
    if errors:
        return None, errors
    config: dict[str, Any] = {
        "players": names,
        "me": names[me],
        "character": character,
        "cast": list(cast),
        "mask": mask,
        "support": support,
    }
    if n in (6, 7):
        config["setup"] = setup
    if ring is not None:
        config["ring"] = list(ring)
        config["red"] = [p in RED_PLACES for p in range(8)]
        config["token"] = DATA.start_place
    try:
        build_problem(config, [])
    except SolverInputError as e:
        return None, [str(e)]
    return config, []


def config_problem(config: Any) -> str | None:
    """Why a saved config cannot be used (one line), or None."""
    from solvers.ghoul.model import SolverInputError, build_problem

    try:
        build_problem(config, [])
    except SolverInputError as e:
        return str(e)
    except Exception as e:  # a damaged file may hold anything
        return f"The setup is damaged ({e.__class__.__name__})."
    return None


# ---------------------------------------------------------------------------- entry forms


@dataclass(frozen=True)
class Field:
    """One question of an entry dialog: a row of tappable options."""

    key: str
    label: str
    options: tuple[tuple[str, Any], ...]
    multi: bool = False
    columns: int = 4
    show: Callable[[dict[str, Any]], bool] | None = None


def _players(config: Mapping[str, Any], nobody: str | None = None) -> tuple[tuple[str, Any], ...]:
    opts = [(p, p) for p in config["players"]]
    if nobody:
        opts.append((nobody, NONE))
    return tuple(opts)


def _suits(config: Mapping[str, Any], none: str | None = None) -> tuple[tuple[str, Any], ...]:
    opts = [(SUIT_LABEL[s], s) for s in suits_in_play(config)]
    if none:
        opts.append((none, NONE))
    return tuple(opts)


def _cast(config: Mapping[str, Any], none: str | None = None) -> tuple[tuple[str, Any], ...]:
    opts = [(char_label(c), c) for c in config["cast"]]
    if none:
        opts.append((none, NONE))
    return tuple(opts)


def neighbours(config: Mapping[str, Any]) -> tuple[str, str]:
    """(right, left): my right neighbour shows me 2 cards and receives my card; my left gives me one."""
    players = list(config["players"])
    i = players.index(config["me"])
    return players[(i - 1) % len(players)], players[(i + 1) % len(players)]


def fields(kind: str, config: Mapping[str, Any]) -> list[Field]:
    """The questions of the dialog for ``kind``."""
    me = config["me"]
    size = hand_size(config)
    sc = len(suits_in_play(config))
    if kind == "hand":
        hidden = size - 1 if config.get("mask") else size
        out = [Field(f"card{i}", f"Card {i + 1} in my hand", _suits(config), columns=sc) for i in range(hidden)]
        if config.get("mask"):
            out.append(Field("face_up", "My face-up card", _suits(config), columns=sc))
        return out
    if kind == "preliminary":
        right, left = neighbours(config)
        return [
            Field("shown0", f"{right} showed me (1st card)", _suits(config, "Not seen"), columns=sc + 1),
            Field("shown1", f"{right} showed me (2nd card)", _suits(config, "Not seen"), columns=sc + 1),
            Field("gave", f"I gave {right}", _suits(config, "Not noted"), columns=sc + 1),
            Field("received", f"{left} gave me", _suits(config, "Not noted"), columns=sc + 1),
        ]
    if kind == "face_up":
        return [
            Field("player", "Whose face-up card", _players(config)),
            Field("card", "The card", _suits(config), columns=sc),
        ]
    if kind == "move":
        places = tuple((place_label(config, p), p) for p in range(8))
        out = [
            Field("player", "Whose turn (no instant victory claimed)", _players(config)),
            Field("to", "Token moved to", (*places, ("Not noted", NONE)), columns=3),
        ]
        for p in RED_PLACES:
            out.append(
                Field(
                    f"red{p}",
                    f"Red place {p + 1} turned face up as",
                    (*((tile_label(t), t) for t in RED_TILES), ("Still unknown", NONE)),
                    columns=3,
                )
            )
        return out
    if kind == "interrogation":

        def party(v: dict[str, Any]) -> bool:
            return me in (v.get("by"), v.get("target"))

        def seen(v: dict[str, Any]) -> bool:
            return v.get("exchange") == "seen"

        out = [
            Field("by", "Interrogated by", _players(config)),
            Field("target", "Interrogated player", _players(config)),
            Field("count", "Cards shown", (("2 cards", 2), ("3 cards", 3), ("Not noted", NONE)), columns=3),
        ]
        for i in range(3):
            out.append(Field(f"shown{i}", f"Card {i + 1} I saw", _suits(config, "None"), columns=sc + 1, show=party))
        out.append(
            Field(
                "exchange",
                "Exchange",
                (("No exchange", "none"), ("I saw it", "seen"), ("Not seen", "unknown")),
                columns=3,
            )
        )
        out.append(Field("gave", "The asker gave", _suits(config), columns=sc, show=seen))
        out.append(Field("took", "The asker took", _suits(config), columns=sc, show=seen))
        if config.get("mask"):
            both = (("from the hand", "hand"), ("the face-up card", "board"))
            out.append(Field("gave_from", "Given card came from", both, columns=2, show=seen))
            out.append(Field("took_from", "Taken card came from", both, columns=2, show=seen))
            now = (*_suits(config), ("Left the board", LEFT), ("Unchanged", NONE))
            out.append(Field("fu_by", "The asker's face-up card now", now, columns=4))
            out.append(Field("fu_target", "The target's face-up card now", now, columns=4))
        return out
    if kind == "suspicion":
        return [
            Field("rule", "Suspicion rule", tuple((RULE_LABEL[r], r) for r in RULE_LABEL), columns=5),
            Field("players", "Who matched (everyone else did not)", _players(config), multi=True),
            Field("short", "Markers", (("All of them took one", "all"), ("The Pool ran out", "short")), columns=2),
            Field("took", "Who got a marker", _players(config), multi=True, show=lambda v: v.get("short") == "short"),
        ]
    if kind == "cover":
        return [
            Field("by", "Covered up by", _players(config)),
            Field("removed", "Removed a marker of", _players(config, "Nobody")),
            Field("added", "Gave a marker to", _players(config, "Nobody")),
        ]
    if kind == "attack":
        out = [
            Field("how", "What", (("Attack", "attack"), ("Inspector's special", "special")), columns=2),
            Field("by", "By", _players(config)),
            Field("target", "Target", _players(config)),
            Field("by_character", "Attacker revealed", _cast(config, "Not noted")),
            Field("target_character", "Target revealed", _cast(config, "Not noted")),
            Field("victim", "Who died", _players(config, "Nobody")),
        ]
        if config.get("support"):
            toks = (("Neutral", "neutral"), ("Transformed Kaneki", "kaneki"), ("Not noted", NONE))
            out.append(Field("tok_by", "Attacker's Support token", toks, columns=3))
            out.append(Field("tok_target", "Target's Support token", toks, columns=3))
        return out
    if kind == "instant":
        return [
            Field("player", "Who won", _players(config)),
            Field("character", "As", _cast(config)),
            *(Field(f"card{i}", f"Card {i + 1} shown", _suits(config, "Not noted"), columns=sc + 1) for i in range(3)),
        ]
    if kind == "reveal":
        return [
            Field("player", "Who revealed", _players(config)),
            Field("character", "Character", _cast(config, "Not noted")),
            *(Field(f"card{i}", f"Card {i + 1}", _suits(config, "Not noted"), columns=sc + 1) for i in range(size)),
        ]
    if kind == "support":
        return [
            Field("token", "My Support token", (("Neutral", "neutral"), ("Transformed Kaneki", "kaneki")), columns=2)
        ]
    if kind == "support_look":
        return [
            Field("by", "Who looked", _players(config)),
            Field("target", "At whose token", _players(config)),
            Field(
                "token",
                "What I saw",
                (("Neutral", "neutral"), ("Transformed Kaneki", "kaneki")),
                columns=2,
                show=lambda v: v.get("by") == me,
            ),
        ]
    if kind == "support_swap":
        return [Field("by", "Who swapped", _players(config)), Field("with", "With whom", _players(config))]
    raise ValueError(f"unknown entry kind {kind!r}")


def _suit_list(values: Mapping[str, Any], keys: Sequence[str]) -> list[str]:
    return [values[k] for k in keys if values.get(k) not in (None, NONE)]


def build(kind: str, values: Mapping[str, Any], config: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The entry for the picked ``values``, or None and what is still missing (one sentence)."""
    v = values
    me = config["me"]
    size = hand_size(config)
    if kind == "hand":
        hidden = size - 1 if config.get("mask") else size
        cards = _suit_list(v, [f"card{i}" for i in range(hidden)])
        if len(cards) != hidden or (config.get("mask") and not v.get("face_up")):
            return None, f"Tap each of your {size} cards."
        e: dict[str, Any] = {"type": "hand", "cards": cards}
        if config.get("mask"):
            e["face_up"] = v["face_up"]
        return e, ""
    if kind == "preliminary":
        shown = _suit_list(v, ["shown0", "shown1"])
        if len(shown) == 1:
            return None, "Tap both cards you were shown (or Not seen for both)."
        e = {"type": "preliminary"}
        if shown:
            e["shown"] = shown
        for k in ("gave", "received"):
            if v.get(k) not in (None, NONE):
                e[k] = v[k]
        if len(e) == 1:
            return None, "Tap what you were shown, gave or received."
        return e, ""
    if kind == "face_up":
        if not v.get("player") or not v.get("card"):
            return None, "Tap the player and the card."
        return {"type": "face_up", "player": v["player"], "card": v["card"]}, ""
    if kind == "move":
        if not v.get("player"):
            return None, "Tap whose turn it is."
        e = {"type": "move", "player": v["player"]}
        if v.get("to") not in (None, NONE):
            e["to"] = v["to"]
        rev = {str(p): v[f"red{p}"] for p in RED_PLACES if v.get(f"red{p}") not in (None, NONE)}
        if rev:
            e["revealed"] = rev
        return e, ""
    if kind == "interrogation":
        by, target = v.get("by"), v.get("target")
        if not by or not target:
            return None, "Tap who interrogated whom."
        if by == target:
            return None, "A player cannot interrogate himself."
        e = {"type": "interrogation", "by": by, "target": target}
        if v.get("count") not in (None, NONE):
            e["count"] = v["count"]
        party = me in (by, target)
        shown = _suit_list(v, ["shown0", "shown1", "shown2"]) if party else []
        if shown:
            if len(shown) < 2:
                return None, "Tap the 2 or 3 cards you saw (or none)."
            if e.get("count") and e["count"] != len(shown):
                return None, f"{e['count']} cards were shown but {len(shown)} are tapped."
            e["shown"] = shown
        ex = v.get("exchange") or ("none" if party else "unknown")
        if ex == "seen":
            if not v.get("gave") or not v.get("took"):
                return None, "Tap the card the asker gave and the one he took."
            x: dict[str, Any] = {"gave": v["gave"], "took": v["took"]}
            if config.get("mask"):
                x["gave_from"] = v.get("gave_from") or "hand"
                x["took_from"] = v.get("took_from") or "hand"
            e["exchange"] = x
        else:
            e["exchange"] = ex
        face = {
            p: (None if v[k] == LEFT else v[k])
            for p, k in ((by, "fu_by"), (target, "fu_target"))
            if config.get("mask") and v.get(k) not in (None, NONE)
        }
        if face:
            e["face_up"] = face
        return e, ""
    if kind == "suspicion":
        if not v.get("rule"):
            return None, "Tap the Suspicion rule of the location."
        e = {"type": "suspicion", "rule": v["rule"], "players": list(v.get("players") or [])}
        if v.get("short") == "short":
            e["took"] = list(v.get("took") or [])
        return e, ""
    if kind == "cover":
        if not v.get("by"):
            return None, "Tap who covered up tracks."
        e = {"type": "cover", "by": v["by"]}
        for k in ("removed", "added"):
            if v.get(k) not in (None, NONE):
                e[k] = v[k]
        return e, ""
    if kind == "attack":
        by, target = v.get("by"), v.get("target")
        if not by or not target:
            return None, "Tap who attacked whom."
        if by == target:
            return None, "A player cannot attack himself."
        e = {"type": v.get("how") or "attack", "by": by, "target": target}
        for k in ("by_character", "target_character", "victim"):
            if v.get(k) not in (None, NONE):
                e[k] = v[k]
        if config.get("support") and v.get("tok_by") not in (None, NONE) and v.get("tok_target") not in (None, NONE):
            e["support"] = [v["tok_by"], v["tok_target"]]
        return e, ""
    if kind == "instant":
        if not v.get("player") or not v.get("character"):
            return None, "Tap who won and as which character."
        e = {"type": "instant", "player": v["player"], "character": v["character"]}
        cards = _suit_list(v, ["card0", "card1", "card2"])
        if cards:
            e["cards"] = cards
        return e, ""
    if kind == "reveal":
        if not v.get("player"):
            return None, "Tap who revealed."
        e = {"type": "reveal", "player": v["player"]}
        if v.get("character") not in (None, NONE):
            e["character"] = v["character"]
        cards = _suit_list(v, [f"card{i}" for i in range(size)])
        if cards and len(cards) != size:
            return None, f"Tap all {size} revealed cards, or none."
        if cards:
            e["cards"] = cards
        if len(e) == 2:
            return None, "Tap the character or the cards revealed."
        return e, ""
    if kind == "support":
        if not v.get("token"):
            return None, "Tap your token."
        return {"type": "support", "token": v["token"]}, ""
    if kind == "support_look":
        if not v.get("by") or not v.get("target"):
            return None, "Tap who looked at whose token."
        e = {"type": "support_look", "by": v["by"], "target": v["target"]}
        if v["by"] == me:
            if not v.get("token"):
                return None, "Tap what you saw."
            e["token"] = v["token"]
        return e, ""
    if kind == "support_swap":
        if not v.get("by") or not v.get("with") or v["by"] == v["with"]:
            return None, "Tap the two players who swapped."
        return {"type": "support_swap", "by": v["by"], "with": v["with"]}, ""
    raise ValueError(f"unknown entry kind {kind!r}")


def values_of(
    kind: str, e: Mapping[str, Any] | None, config: Mapping[str, Any], prior: Sequence[Any]
) -> dict[str, Any]:
    """The picks that rebuild entry ``e`` (editing), or sensible defaults for a new one."""
    v: dict[str, Any] = {}
    if e is None:
        e = {}
        if kind == "move":
            turn = next_player(config, prior)
            if turn:
                v["player"] = turn
        elif kind in ("interrogation", "cover", "attack"):
            turn = current_player(config, prior)
            if turn:
                v["by"] = turn
        if kind == "interrogation":
            v["exchange"] = None
        if kind == "suspicion":
            v["short"] = "all"
        if kind == "attack":
            v["how"] = "attack"
        if kind == "hand":  # start from my last hand: after an exchange only one card changes
            last = last_index(prior, "hand")
            if last is not None:
                return values_of("hand", prior[last], config, prior)
        return v
    t = e.get("type")
    for k in (
        "player",
        "by",
        "target",
        "card",
        "character",
        "rule",
        "token",
        "with",
        "count",
        "to",
        "by_character",
        "target_character",
        "victim",
        "removed",
        "added",
    ):
        if k in e and e[k] is not None:
            v[k] = e[k]
    for k in ("removed", "added", "victim", "by_character", "target_character", "to"):
        if kind in ("cover", "attack", "move") and k not in v:
            v[k] = NONE
    if kind == "hand":
        for i, c in enumerate(e.get("cards") or []):
            v[f"card{i}"] = c
        if e.get("face_up"):
            v["face_up"] = e["face_up"]
    elif kind == "preliminary":
        for i, c in enumerate(e.get("shown") or []):
            v[f"shown{i}"] = c
        for k in ("gave", "received"):
            v[k] = e.get(k) or NONE
    elif kind == "move":
        for p, tile in (e.get("revealed") or {}).items():
            v[f"red{int(p)}"] = tile
    elif kind == "interrogation":
        for i, c in enumerate(e.get("shown") or []):
            v[f"shown{i}"] = c
        ex = e.get("exchange")
        if isinstance(ex, Mapping):
            v.update(
                exchange="seen",
                gave=ex.get("gave"),
                took=ex.get("took"),
                gave_from=ex.get("gave_from", "hand"),
                took_from=ex.get("took_from", "hand"),
            )
        elif ex in ("none", "unknown"):
            v["exchange"] = ex
        if "count" not in v:
            v["count"] = NONE
        face = e.get("face_up") or {}
        for p, k in ((e.get("by"), "fu_by"), (e.get("target"), "fu_target")):
            v[k] = (LEFT if face[p] is None else face[p]) if p in face else NONE
    elif kind == "suspicion":
        v["players"] = list(e.get("players") or [])
        v["short"] = "short" if isinstance(e.get("took"), list) else "all"
        if isinstance(e.get("took"), list):
            v["took"] = list(e["took"])
    elif kind == "attack":
        v["how"] = t if t in ("attack", "special") else "attack"
        sup = e.get("support")
        if isinstance(sup, list) and len(sup) == 2:
            v["tok_by"], v["tok_target"] = sup
    elif kind in ("instant", "reveal"):
        for i, c in enumerate(e.get("cards") or []):
            v[f"card{i}"] = c
        if kind == "reveal" and "character" not in v:
            v["character"] = NONE
    return v


def current_player(config: Mapping[str, Any], prior: Sequence[Any]) -> str | None:
    """Whose turn it is: the last player who moved."""
    for e in reversed(prior):
        if isinstance(e, Mapping) and e.get("type") in ("move", "turn") and e.get("player") in config["players"]:
            return e["player"]
    return None


def next_player(config: Mapping[str, Any], prior: Sequence[Any]) -> str | None:
    """Whose turn is likely next: the left neighbour of the last player who moved."""
    players = list(config["players"])
    now = current_player(config, prior)
    return players[(players.index(now) + 1) % len(players)] if now else None


def hand_changed(config: Mapping[str, Any], entries: Sequence[Any]) -> bool:
    """Whether my cards changed hands since my last Hand entry (so the notes want a new one)."""
    last = last_index(entries, "hand")
    for e in entries[(last + 1 if last is not None else 0) :]:
        if not isinstance(e, Mapping):
            continue
        if e.get("type") == "preliminary" and (e.get("gave") or e.get("received")):
            return True
        mine = config.get("me") in (e.get("by"), e.get("target"))
        if e.get("type") == "interrogation" and isinstance(e.get("exchange"), Mapping) and mine:
            return True
    return False


def last_index(entries: Sequence[Any], kind: str) -> int | None:
    for i in range(len(entries) - 1, -1, -1):
        e = entries[i]
        if isinstance(e, Mapping) and e.get("type") == kind:
            return i
    return None


# ---------------------------------------------------------------------------- reading the solution


def fmt_p(p: float) -> str:
    """A probability as a short percentage that never says 0% or 100% unless it is certain."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    x = round(p * 100)
    return f"{min(max(x, 1), 99)}%"


def cell(result: Mapping[str, Any], player: str, suit: str) -> tuple[str, str]:
    """One cell of the grid: its text and its mark (``yes``, ``no``, ``exact`` or ``p``)."""
    cert = result["certain"][player]
    if cert.get("hand") is not None:
        k = cert["hand"].count(suit)
        return (str(k), "exact") if k else ("-", "no")
    if suit in cert.get("lacks", []):
        return "✗", "no"
    has = cert.get("has", {}).get(suit, 0)
    p = result["hands"][player][suit]["p_at_least_one"]
    if has:
        most = cert.get("at_most", {}).get(suit, has)
        return (f"✓{has}" if most == has else f"✓{has}+"), "yes"
    return fmt_p(p), "p"
