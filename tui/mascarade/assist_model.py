"""View model of the Mascarade table assistant: setup, sentences, entry building, the grid's cells.

Nothing here imports Textual, so the wording, the defaults (who answers an announcement, in
which order) and the setup rules are testable on their own. Every entry built here is an entry
of the ``unmask solve mascarade`` session format (``docs/mascarade.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.mascarade.data_files import load_masks, load_rules

MIN_PLAYERS, MAX_PLAYERS = 4, 12
DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou")
VARIANT_DEFAULT: dict[str, Any] = {"revealed_rule": "no-announce", "spy_table": True, "fool_table": True}
CLAIM_WEIGHT = 3.0  # "claims as evidence": what the strong bot uses
SHORT = {"beggar": "Beg", "cheater": "Che", "empress": "Emp", "fool": "Foo", "guru": "Gur", "judge": "Jud",
         "king": "Kin", "patron": "Pat", "peasant": "Pea", "princess": "Pri", "puppeteer": "Pup",
         "sorceress": "Sor", "spy": "Spy", "thief": "Thi", "trickster": "Tri", "widow": "Wid"}


def mask_name(mask: str) -> str:
    """The display name of a mask id ("king" -> "King")."""
    m = load_masks().get(mask)
    return m.name if m else str(mask).title()


def short_mask(mask: str) -> str:
    """A three-letter column head for the grid."""
    return SHORT.get(mask, mask[:3].title())


def all_masks() -> list[str]:
    """Every mask id, in the data file's order."""
    return list(load_masks())


def table_count(players: int, cards: int | None = None) -> int:
    """Table cards: 6 cards in play with fewer than 6 players (2 with 4, 1 with 5), or a custom set's extra."""
    if cards is not None:
        return max(0, cards - players)
    return max(0, load_rules().cards - players)


def standard_set(players: int) -> list[str]:
    """The mask set printed for ``players`` players."""
    return list(load_rules().sets[players])


# --------------------------------------------------------------------------- config readers


def players_of(config: Mapping[str, Any]) -> list[str]:
    return [str(p) for p in config.get("players") or []]


def cards_of(config: Mapping[str, Any]) -> list[str]:
    """The cards in play (Peasants twice)."""
    masks = config.get("masks")
    return list(masks) if masks else standard_set(len(players_of(config)))


def masks_of(config: Mapping[str, Any]) -> list[str]:
    """The distinct masks in play, in the set's order."""
    return list(dict.fromkeys(cards_of(config)))


def places_of(config: Mapping[str, Any]) -> list[str]:
    """Players in seat order, then the table cards T1, T2."""
    players = players_of(config)
    table = config.get("table")
    if not isinstance(table, int):
        table = table_count(len(players), len(cards_of(config)))
    return [*players, *(f"T{i + 1}" for i in range(table))]


def order_of(config: Mapping[str, Any]) -> list[str]:
    """Players clockwise (the config's order when the Puppeteer moved people)."""
    order = config.get("order")
    players = players_of(config)
    if isinstance(order, list) and sorted(map(str, order)) == sorted(players):
        return [str(x) for x in order]
    return players


def place_title(place: str) -> str:
    """``T1`` -> ``Table 1``; players keep their names."""
    return f"Table {place[1:]}" if place[:1] == "T" and place[1:].isdigit() else place


# --------------------------------------------------------------------------- setup


@dataclass
class SetupData:
    """What the setup form holds while the user fills it (validated only on Start)."""

    count: int = 4
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    me: int = 0
    custom: bool = False
    custom_masks: list[str] = field(default_factory=list)  # distinct ids; the Peasant stands for the pair
    opening_seen: bool = True
    opening: dict[int, str] = field(default_factory=dict)  # place index -> mask
    variant: dict[str, Any] = field(default_factory=lambda: dict(VARIANT_DEFAULT))
    claims_evidence: bool = False

    def cards(self) -> list[str]:
        """The cards in play: the custom pick (Peasant doubled) or the printed set."""
        if not self.custom:
            return standard_set(self.count)
        out: list[str] = []
        for m in all_masks():
            if m in self.custom_masks:
                out.extend([m, m] if m == "peasant" else [m])
        return out

    def places(self) -> list[str]:
        names = [n.strip() or f"Player {i + 1}" for i, n in enumerate(self.names[: self.count])]
        table = table_count(self.count, len(self.cards()) if self.custom else None)
        return [*names, *(f"T{i + 1}" for i in range(table))]

    def needed(self) -> int:
        """Cards a custom set needs: one per seat, 6 in all with 4 or 5 players."""
        return max(self.count, load_rules().cards)

    def opening_left(self) -> dict[str, int]:
        """Masks not yet placed in the opening, with how many of each remain."""
        left: dict[str, int] = {}
        for m in self.cards():
            left[m] = left.get(m, 0) + 1
        for i, m in self.opening.items():
            if i < len(self.places()) and m in left:
                left[m] -= 1
        return left

    def autocomplete_opening(self) -> None:
        """When one place is left and one card, the card is known: fill it in."""
        places = self.places()
        free = [i for i in range(len(places)) if i not in self.opening]
        left = [m for m, k in self.opening_left().items() for _ in range(max(k, 0))]
        if len(free) == 1 and len(left) == 1:
            self.opening[free[0]] = left[0]

    def summary(self) -> str:
        cards = self.cards()
        table = len(self.places()) - self.count
        where = f" + {table} table card{'s' if table != 1 else ''}" if table else ""
        names = ", ".join(mask_name(m) for m in dict.fromkeys(cards))
        return f"{self.count} players{where}: {len(cards)} cards ({names})."

    def validate(self) -> tuple[dict[str, Any] | None, dict[str, Any], list[str]]:
        """(config for the solver, the variant options, problems); config None while there are problems."""
        errors: list[str] = []
        names = [n.strip() for n in self.names[: self.count]]
        if any(not n for n in names):
            errors.append("Every player needs a name.")
        if len(set(names)) != len(names):
            errors.append("Two players have the same name.")
        bad = [n for n in names if n[:1] == "T" and n[1:].isdigit()]
        if bad:
            errors.append(f"{bad[0]} is the name of a table card; pick another name.")
        cards = self.cards()
        if self.custom:
            if len(cards) != self.needed():
                errors.append(f"A custom set needs {self.needed()} cards; {len(cards)} are picked "
                              "(the Peasant counts twice).")
            if "judge" not in cards:
                errors.append("A custom set always has the Judge.")
        config: dict[str, Any] = {"players": names, "me": names[self.me] if self.me < len(names) else ""}
        if self.custom:
            config["masks"] = cards
            config["table"] = max(0, len(cards) - self.count)
        places = self.places()
        if self.opening_seen:
            missing = [place_title(places[i]) for i in range(len(places)) if i not in self.opening]
            over = [mask_name(m) for m, k in self.opening_left().items() if k < 0]
            if over:
                errors.append(f"The opening shows too many: {', '.join(over)}.")
            elif missing:
                errors.append(f"Tap the opening mask of: {', '.join(missing)}.")
            else:
                config["opening"] = {places[i]: self.opening[i] for i in range(len(places))}
        else:
            config["opening"] = None
        if self.claims_evidence:
            config["claim_weight"] = CLAIM_WEIGHT
        if not errors:
            from solvers.mascarade import SolverInputError, parse_config

            try:
                parse_config(config)
            except SolverInputError as e:
                errors.append(str(e))
        return (None if errors else config), dict(self.variant), errors


# --------------------------------------------------------------------------- sentences


def _m(mask: Any) -> str:
    return f"the {mask_name(str(mask))}"


def _p(place: Any) -> str:
    return place_title(str(place))


def describe(e: Any, me: str | None = None) -> str:
    """One log entry as a short sentence (the log panel, the dialogs' preview)."""
    if not isinstance(e, Mapping):
        return f"(unreadable entry: {e!r})"
    t = e.get("t")
    by = str(e.get("by", ""))
    if t == "turn":
        return f"— {by}'s turn —"
    if t == "swap":
        if "with" in e:
            what = f"{by} swaps or pretends with {_p(e['with'])}"
        else:
            what = f"{by} swaps or pretends {_p(e.get('a'))} and {_p(e.get('b'))}"
        if "swapped" in e:
            what += ": really swapped" if e["swapped"] else ": only pretended"
        return what
    if t == "look":
        return f"{by} looks at their card" + (f": {_m(e['card'])}" if e.get("card") else "")
    if t == "spy":
        s = f"{by} (Spy) looks at {_p(e.get('target'))}'s card and their own"
        if e.get("mine"):
            s += f": mine {mask_name(e['mine'])}, theirs {mask_name(e.get('theirs', ''))}"
        return s
    if t == "shown":
        s = f"{by} (Princess) shows {_p(e.get('target'))}'s card"
        return s + (f": {_m(e['card'])}" if e.get("card") else " (to everyone but me)")
    if t == "announce":
        return f"{by} announces {_m(e.get('mask'))}"
    if t == "claim":
        return f"{by} claims too (“me too”)"
    if t == "pass":
        return f"{by} passes"
    if t == "uncontested":
        return f"Nobody contests {by}" + (f": {_m(e['mask'])} power used" if e.get("mask") else "")
    if t == "reveal":
        cards = e.get("cards") or {}
        if isinstance(cards, list):
            cards = {str(c[0]): c[1] for c in cards if isinstance(c, list | tuple) and len(c) == 2}
        return "Revealed: " + ", ".join(f"{k} {mask_name(str(v))}" for k, v in cards.items())
    if t == "puppeteer":
        return f"{by} (Puppeteer): {e.get('a')} and {e.get('b')} trade places"
    if t == "coins":
        coins = e.get("coins") or {}
        s = "Coins: " + ", ".join(f"{k} {v}" for k, v in coins.items()) if isinstance(coins, Mapping) else "Coins"
        return s + (f", court {e['court']}" if "court" in e else "")
    if t == "power":
        return f"{by} uses the power of {_m(e.get('mask'))}"
    if t == "name":
        return f"{by} names {_m(e.get('mask'))} (Guru)"
    return str(dict(e))


def is_mine(e: Mapping[str, Any], me: str) -> bool:
    """My own swaps, looks and Spy looks, and the cards a Princess showed me (the "mine" panel)."""
    t = e.get("t")
    if t in ("swap", "look", "spy"):
        return e.get("by") == me
    return t == "shown" and bool(e.get("card"))


# --------------------------------------------------------------------------- the log's state


def pending_announcement(log: Sequence[Any]) -> tuple[int, str, str, list[str], list[str]] | None:
    """The last announcement still open: (index, announcer, mask, claimants, passed), else None.

    Open means no reveal, "nobody contested", new turn or new announcement came after it.
    """
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if not isinstance(e, Mapping):
            continue
        t = e.get("t")
        if t in ("reveal", "uncontested", "turn"):
            return None
        if t == "announce":
            claims = [str(x.get("by")) for x in log[i + 1:] if isinstance(x, Mapping) and x.get("t") == "claim"]
            passes = [str(x.get("by")) for x in log[i + 1:] if isinstance(x, Mapping) and x.get("t") == "pass"]
            return i, str(e.get("by")), str(e.get("mask")), claims, passes
    return None


def answer_order(config: Mapping[str, Any], announcer: str) -> list[str]:
    """Who answers an announcement, in order: clockwise from the announcer's left."""
    order = order_of(config)
    if announcer not in order:
        return [p for p in order if p != announcer]
    k = order.index(announcer)
    return order[k + 1:] + order[:k]


def answer_entries(config: Mapping[str, Any], announcer: str, mask: str, claimants: Sequence[str],
                   reveal: Mapping[str, str], already: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Everyone's answer (claim or pass, clockwise) then the reveal, or "nobody contested"."""
    out: list[dict[str, Any]] = []
    for p in answer_order(config, announcer):
        if p in already:
            continue
        out.append({"t": "claim", "by": p} if p in claimants else {"t": "pass", "by": p})
    if claimants:
        out.append({"t": "reveal", "cards": {p: reveal[p] for p in [announcer, *answer_order(config, announcer)]
                                             if p in reveal}})
        out += power_entries(config, announcer, mask, reveal)
    else:
        out.append({"t": "uncontested", "by": announcer, "mask": mask})
    return out


def power_entries(config: Mapping[str, Any], announcer: str, mask: str,
                  reveal: Mapping[str, str]) -> list[dict[str, Any]]:
    """After a challenge every claimant who truly holds the mask uses its power (announcer first, then
    clockwise), as "nobody contested" does for the announcer: so the coins follow (a King gains 2)."""
    return [{"t": "power", "by": p, "mask": mask} for p in [announcer, *answer_order(config, announcer)]
            if reveal.get(p) == mask]


def current_coins(result: Mapping[str, Any] | None, config: Mapping[str, Any]) -> tuple[dict[str, int], int]:
    """The coins as the solver last saw them (start coins before any answer)."""
    table = (result or {}).get("table") or {}
    coins = table.get("coins")
    players = players_of(config)
    if isinstance(coins, Mapping) and all(p in coins for p in players):
        return {p: int(coins[p]) for p in players}, int(table.get("court", 0))
    start = config.get("coins", load_rules().coins)
    if isinstance(start, Mapping):
        return {p: int(start.get(p, 0)) for p in players}, int(config.get("court", 0))
    return dict.fromkeys(players, int(start)), int(config.get("court", 0))


def entry_kind(e: Mapping[str, Any]) -> str:
    """Which dialog edits this entry."""
    t = e.get("t")
    if t == "swap":
        return "swap" if "with" in e else "fool"
    if t in ("look", "spy", "shown", "announce", "reveal", "puppeteer", "coins"):
        return t
    return "other"


# --------------------------------------------------------------------------- typed lines (keyboard fast path)

SYNTAX = ("NAME swap PLACE [yes|no] · NAME look [MASK] · NAME announce MASK · NAME claim · NAME pass · "
          "reveal NAME=MASK … · NAME spy TARGET [MINE THEIRS] · NAME fool A B · NAME shown TARGET [MASK] · "
          "NAME puppeteer A B · coins NAME=N … [court=N]")


def parse_line(line: str, config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One typed line -> one log entry; ValueError with a sentence when it is not understood.

    With a config, names and masks are matched case-insensitively and checked, so a typo is
    refused here with a clear message instead of reaching the solver.
    """
    words = line.split()
    if not words:
        raise ValueError("Type what happened, e.g. “Bob swap T1”.")
    places = places_of(config) if config else []
    masks = masks_of(config) if config else []

    def place(w: str) -> str:
        if not config:
            return w
        for p in places:
            if p.lower() == w.lower():
                return p
        raise ValueError(f"“{w}” is not a player or a table card ({', '.join(places)}).")

    def mask(w: str) -> str:
        w = w.lower()
        if not config:
            return w
        for m in masks:
            if m == w or mask_name(m).lower() == w:
                return m
        raise ValueError(f"“{w}” is not a mask of this game ({', '.join(masks)}).")

    head = words[0].lower()
    if head == "reveal":
        pairs = [w.split("=", 1) for w in words[1:] if "=" in w]
        if not pairs:
            raise ValueError("reveal NAME=MASK …: which cards were shown?")
        return {"t": "reveal", "cards": {place(k): mask(v) for k, v in pairs}}
    if head == "coins":
        coins: dict[str, int] = {}
        court = None
        for w in words[1:]:
            k, _, v = w.partition("=")
            if not v.isdigit():
                raise ValueError("coins NAME=N … [court=N]: numbers please.")
            if k.lower() == "court":
                court = int(v)
            else:
                coins[place(k)] = int(v)
        entry: dict[str, Any] = {"t": "coins", "coins": coins}
        if config and set(coins) != set(players_of(config)):
            raise ValueError("coins: give every player's coins (NAME=N for each).")
        if court is not None:
            entry["court"] = court
        return entry
    if len(words) < 2:
        raise ValueError(f"What did {words[0]} do? {SYNTAX}")
    by, verb, rest = place(words[0]), words[1].lower(), words[2:]
    if verb == "swap" and rest:
        e: dict[str, Any] = {"t": "swap", "by": by, "with": place(rest[0])}
        if len(rest) > 1:
            e["swapped"] = rest[1].lower() in ("yes", "y", "true", "1")
        return e
    if verb == "look":
        return {"t": "look", "by": by, **({"card": mask(rest[0])} if rest else {})}
    if verb == "announce" and rest:
        return {"t": "announce", "by": by, "mask": mask(rest[0])}
    if verb in ("claim", "pass"):
        return {"t": verb, "by": by}
    if verb == "spy" and rest:
        e = {"t": "spy", "by": by, "target": place(rest[0])}
        if len(rest) >= 3:
            e.update(mine=mask(rest[1]), theirs=mask(rest[2]))
        return e
    if verb == "fool" and len(rest) >= 2:
        return {"t": "swap", "by": by, "a": place(rest[0]), "b": place(rest[1])}
    if verb == "shown" and rest:
        return {"t": "shown", "by": by, "target": place(rest[0]), **({"card": mask(rest[1])} if len(rest) > 1 else {})}
    if verb == "puppeteer" and len(rest) >= 2:
        return {"t": "puppeteer", "by": by, "a": place(rest[0]), "b": place(rest[1])}
    raise ValueError(f"Not understood: “{line}”. {SYNTAX}")


def typed_entries(line: str, config: Mapping[str, Any], prior: Sequence[Any]) -> list[dict[str, Any]]:
    """One typed line -> the entries it stands for: a reveal brings the powers of the claimants who truly
    hold the announced mask, as the dialog does, so the coins follow (issue 23: a typed challenge never
    applied the Trickster's take). ValueError with a sentence when the line is not understood."""
    entry = parse_line(line, config)
    if entry["t"] != "reveal":
        return [entry]
    for e in reversed(prior):
        if isinstance(e, Mapping) and e.get("t") in ("reveal", "uncontested"):
            break
        if isinstance(e, Mapping) and e.get("t") == "announce":
            return [entry, *power_entries(config, e["by"], e["mask"], entry["cards"])]
    return [entry]


# --------------------------------------------------------------------------- the grid


def grid_cell(result: Mapping[str, Any], place: str, mask: str) -> tuple[str, str]:
    """(text, kind) of one cell: kind is "at" (✓ certainly here), "not" (✗ certainly not), or "p"."""
    certain = result.get("certain") or {}
    if (certain.get("at") or {}).get(place) == mask:
        return "✓", "at"
    if mask in ((certain.get("not") or {}).get(place) or []):
        return "✗", "not"
    p = float(((result.get("probabilities") or {}).get(place) or {}).get(mask, 0.0))
    pct = round(p * 100)
    if pct >= 100:
        return ">99", "p"
    if pct <= 0:
        return "<1", "p"
    return f"{pct}", "p"


def mode_text(result: Mapping[str, Any]) -> str:
    """Exact or particle mode, with the error bound."""
    layouts = int(result.get("layouts", 0))
    unseen = int(result.get("unseen", 0))
    if result.get("exact") and unseen:
        return f"exact · {unseen} place{'s' if unseen != 1 else ''} never seen"
    if result.get("exact"):
        return f"exact · {layouts:,} layout{'s' if layouts != 1 else ''}"
    return f"particles · {layouts:,} samples · ±{float(result.get('error_bound', 0)) * 100:.1f} points"
