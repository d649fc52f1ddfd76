"""View model of the Clue table assistant: setup validation, sentences, defaults, sheet cells.

Nothing here imports Textual. The screens draw what these functions return, so the wording,
the defaults ("who asks next", "who passed") and the validation rules are testable on their own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.clue.board import BOARDS, load_board
from solvers.clue.solver import SolverInputError, solve

CATEGORIES: tuple[str, str, str] = ("suspects", "weapons", "locations")
CATEGORY_TITLES = {"suspects": "Suspects", "weapons": "Weapons", "locations": "Locations"}
BOARD_CHOICES: tuple[tuple[str, str], ...] = (("red-keep", "Red Keep"), ("meereen", "Meereen"), ("custom", "Custom"))
ENVELOPE = "envelope"
FACE_UP = "face_up"
CENTRE = "centre"
ASIDE = "aside"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
TWO_PLAYER_ASIDE = 4  # two-player rules: four cards set aside face down (as the engine deals)


# --------------------------------------------------------------------------- deck and holders


def board_deck(board_id: str) -> dict[str, list[str]]:
    """The deck of a built-in board, in the board file's order."""
    b = load_board(board_id)
    return {"suspects": list(b.suspects), "weapons": list(b.weapons), "locations": list(b.locations)}


def deck_of(config: Mapping[str, Any]) -> dict[str, list[str]]:
    """The config's deck (a built-in board's when the config names one and carries none)."""
    deck = config.get("deck")
    if isinstance(deck, Mapping) and all(isinstance(deck.get(c), list) for c in CATEGORIES):
        return {c: [str(x) for x in deck[c]] for c in CATEGORIES}
    board = config.get("board")
    if board in BOARDS:
        return board_deck(str(board))
    return {c: [] for c in CATEGORIES}


def all_cards(deck: Mapping[str, Sequence[str]]) -> list[str]:
    """Every card, suspects then weapons then locations (the sheet's row order)."""
    return [c for cat in CATEGORIES for c in deck[cat]]


def piles_of(config: Mapping[str, Any]) -> dict[str, int]:
    """Face-down piles (centre, aside) and their sizes; none when the config has none."""
    piles = config.get("piles") or {}
    return {str(k): int(v) for k, v in piles.items()} if isinstance(piles, Mapping) else {}


def hand_sizes_of(config: Mapping[str, Any]) -> dict[str, int]:
    """Every player's hand size: the config's, or equal hands (leftovers face up) by default."""
    players = list(config.get("players") or [])
    sizes = config.get("hand_sizes")
    if isinstance(sizes, Mapping) and all(p in sizes for p in players):
        return {p: int(sizes[p]) for p in players}
    n = len(all_cards(deck_of(config))) - 3 - sum(piles_of(config).values())
    each = max(n, 0) // max(len(players), 1)
    return dict.fromkeys(players, each)


def face_up_count(config: Mapping[str, Any]) -> int:
    """Cards left over after the envelope, piles and hands: they lie face up."""
    n = len(all_cards(deck_of(config))) - 3 - sum(piles_of(config).values())
    return max(n - sum(hand_sizes_of(config).values()), 0)


def sheet_holders(config: Mapping[str, Any]) -> list[str]:
    """Columns of the detective sheet: players in seat order, the envelope, piles, face-up cards."""
    out = [*list(config.get("players") or []), ENVELOPE, *piles_of(config)]
    if face_up_count(config):
        out.append(FACE_UP)
    return out


def holder_title(holder: str) -> str:
    """A holder as people say it ("envelope" -> "Envelope"); players keep their names."""
    return {ENVELOPE: "Envelope", FACE_UP: "Face up", CENTRE: "Centre", ASIDE: "Aside"}.get(holder, holder)


def reveal_targets(config: Mapping[str, Any]) -> list[str]:
    """Who can show cards to everyone: a player, or a face-down pile."""
    return [*list(config.get("players") or []), *piles_of(config)]


# --------------------------------------------------------------------------- short labels


def _unique(labels: dict[str, str]) -> bool:
    return len(set(labels.values())) == len(labels)


def short_labels(deck: Mapping[str, Sequence[str]], board_id: str | None, width: int) -> dict[str, str]:
    """Card -> a label of at most ``width`` characters, still telling every card apart.

    On a built-in board: suspects by first name (all of them when one is too long), long weapons
    by their last word, long locations by the board's short label. A custom deck's names are only
    cut (with an ellipsis): we cannot guess which word matters.
    """
    builtin = board_id in BOARDS
    board_short: dict[str, str] = {}
    if builtin:
        b = load_board(str(board_id))
        board_short = dict(zip(b.locations, b.short, strict=False))
    out: dict[str, str] = {}
    for k, cat in enumerate(CATEGORIES):
        names = list(deck[cat])
        long = any(len(n) > width for n in names)  # shorten the whole group alike, or none of it
        for name in names:
            label = name
            words = name.split()
            if not builtin:
                pass
            elif cat == "locations" and name in board_short and len(name) > width:
                label = board_short[name]
            elif k == 0 and long and len(words) > 1:
                label = words[0]  # suspects by first name, all alike
            elif k == 1 and len(name) > width and len(words) > 1:
                label = words[-1] if len(words[-1]) >= 4 else words[0]  # "Vial of Poison" -> "Poison"
            out[name] = label
        if not _unique({n: out[n] for n in names}):  # a clash: fall back to the names themselves
            out.update({n: n for n in names})
    for name, label in out.items():
        if len(label) > width:
            out[name] = label[: max(width - 1, 1)] + "…"
    return out


def player_labels(players: Sequence[str], width: int) -> dict[str, str]:
    """Player -> a label of at most ``width`` characters that still tells the players apart.

    Cut names when that keeps them distinct ("Margaret" -> "Marga…"), else initials with any
    digits kept ("Player 3" -> "P3"), else seat numbers.
    """
    def cut(name: str) -> str:
        return name if len(name) <= width else name[: max(width - 1, 1)] + "…"

    out = {p: cut(p) for p in players}
    if _unique(out):
        return out
    out = {p: cut("".join(w if w.isdigit() else w[:1] for w in p.split())) for p in players}
    if _unique(out):
        return out
    return {p: cut(f"#{i + 1}") for i, p in enumerate(players)}


def short_player(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters with an ellipsis."""
    return name if len(name) <= width else name[: max(width - 1, 1)] + "…"


# --------------------------------------------------------------------------- setup form


@dataclass
class SetupData:
    """Everything the setup form holds; kept as typed so that a failed validation loses nothing."""

    board: str = "red-keep"
    custom: dict[str, str] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, ""))
    players: list[str] = field(default_factory=lambda: ["Player 1", "Player 2", "Player 3"])
    me: int = 0
    hand_sizes: list[str] | None = None  # None: equal hands, recomputed whenever the table changes
    centre: bool = False

    def deck(self) -> dict[str, list[str]]:
        """The chosen board's deck, or the custom lists as typed."""
        if self.board == "custom":
            return {c: split_names(self.custom.get(c, "")) for c in CATEGORIES}
        return board_deck(self.board)

    def piles(self) -> dict[str, int]:
        """Face-down piles other than the centre: the two-player aside."""
        return {ASIDE: TWO_PLAYER_ASIDE} if len(self.players) == 2 else {}

    def default_sizes(self) -> list[int]:
        """Equal hands; the leftovers go face up (or to the centre pile)."""
        n = len(all_cards(self.deck())) - 3 - sum(self.piles().values())
        return [max(n, 0) // max(len(self.players), 1)] * len(self.players)

    def sizes(self) -> list[str]:
        """The hand sizes as shown in the form (text, so a half-typed number survives)."""
        if self.hand_sizes is None or len(self.hand_sizes) != len(self.players):
            return [str(n) for n in self.default_sizes()]
        return list(self.hand_sizes)

    def summary(self) -> str:
        """One line: where the cards of the deck go."""
        cards = len(all_cards(self.deck()))
        try:
            hands = sum(int(s) for s in self.sizes())
        except ValueError:
            return f"{cards} cards in the deck."
        aside = sum(self.piles().values())
        rest = cards - 3 - aside - hands
        parts = [f"{cards} cards: 3 in the envelope", f"{hands} in hands"]
        if aside:
            parts.append(f"{aside} set aside face down")
        if rest > 0:
            parts.append(f"{rest} in the face-down centre pile" if self.centre else f"{rest} face up")
        return ", ".join(parts) + "."

    def validate(self) -> tuple[dict[str, Any] | None, list[str]]:
        """The config, or every problem found, each as a sentence the user can act on."""
        errors: list[str] = []
        deck = self.deck()
        if self.board == "custom":
            for cat in CATEGORIES:
                if not deck[cat]:
                    errors.append(f"Type the {cat} of the custom deck, separated by commas.")
            cards = all_cards(deck)
            dups = sorted({c for c in cards if cards.count(c) > 1})
            if dups:
                errors.append(f"Card {dups[0]!r} appears twice in the deck.")
        names = [p.strip() for p in self.players]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            errors.append(f"Clue needs {MIN_PLAYERS} to {MAX_PLAYERS} players; there are {len(names)}.")
        for i, name in enumerate(names, start=1):
            if not name:
                errors.append(f"Player {i} has no name.")
            elif name.lower() in (ENVELOPE, FACE_UP, CENTRE, ASIDE, "nobody"):
                errors.append(f"Player {i} cannot be called {name!r}; that word is taken.")
        seen: set[str] = set()
        for name in names:
            if name and name in seen:
                errors.append(f"Two players are called {name!r}; give them different names.")
            seen.add(name)
        if not 0 <= self.me < len(names):
            errors.append("Tap 'Me' on your own row.")
        sizes: list[int] = []
        for name, raw in zip(names, self.sizes(), strict=False):
            try:
                n = int(str(raw).strip())
                if n < 0:
                    raise ValueError
                sizes.append(n)
            except ValueError:
                errors.append(f"Hand size of {name or 'a player'} must be a whole number, not {raw!r}.")
        if not errors:
            free = len(all_cards(deck)) - 3 - sum(self.piles().values())
            if sum(sizes) > free:
                errors.append(f"The hands hold {sum(sizes)} cards but only {free} are dealt; lower a hand size.")
        if errors:
            return None, errors
        config: dict[str, Any] = {"board": self.board, "deck": deck, "players": names, "me": names[self.me]}
        config["hand_sizes"] = dict(zip(names, sizes, strict=True))
        piles = self.piles()
        leftover = len(all_cards(deck)) - 3 - sum(piles.values()) - sum(sizes)
        if self.centre and leftover > 0:
            piles = {CENTRE: leftover, **piles}
        if piles:
            config["piles"] = piles
        try:
            solve(config, [])
        except SolverInputError as e:
            return None, [str(e.args[0])]
        return config, []


def split_names(text: str) -> list[str]:
    """A comma-separated list typed by the user, without blanks."""
    return [part.strip() for part in text.split(",") if part.strip()]


# --------------------------------------------------------------------------- log entries


def _names(cards: Any) -> str:
    if not isinstance(cards, (list, tuple)):
        return str(cards)
    items = [str(c) for c in cards]
    if len(items) <= 1:
        return "".join(items) or "no cards"
    return ", ".join(items[:-1]) + " and " + items[-1]


def _people(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def describe(entry: Any, me: str | None = None) -> str:
    """One log entry as a sentence (any entry, even an unreadable one, gets one)."""
    if not isinstance(entry, Mapping):
        return f"Unreadable entry: {entry!r}"
    kind = entry.get("type")
    try:
        if kind == "hand":
            return f"My hand: {_names(entry.get('cards'))}."
        if kind == "face_up":
            cards = entry.get("cards") or []
            return f"Face up on the table: {_names(cards)}." if cards else "No cards face up."
        if kind == "rumor":
            by = str(entry.get("by"))
            who = "I" if by == me else by
            text = f"{who} asked {_names(entry.get('cards'))}."
            passed = [str(p) for p in entry.get("passed") or []]
            if passed:  # "Cy, Dee and I passed": the others first, me last
                names = [p for p in passed if p != me] + (["I"] if me in passed else [])
                text += " " + _people(names) + " passed."
            shower, card = entry.get("shown_by"), entry.get("card")
            if shower is None:
                return text + " Nobody showed."
            if shower == me:
                return text + (f" I showed {card}." if card else " I showed a card.")
            if card:
                return text + f" {shower} showed {'me ' if by == me else ''}{card}."
            return text + f" {shower} showed a card."
        if kind == "reveal":
            player = entry.get("player")
            who = {CENTRE: "The centre pile", ASIDE: "The aside pile", ENVELOPE: "The envelope"}.get(
                str(player), "I" if player == me else str(player)
            )
            return f"{who} revealed {_names(entry.get('cards'))}."
        if kind == "accusation":
            by = str(entry.get("by"))
            right = "right" if entry.get("correct") else "wrong"
            return f"{'I' if by == me else by} accused {_names(entry.get('cards'))}: {right}."
        if kind == "not_held":
            return f"{entry.get('player')} holds none of {_names(entry.get('cards'))}."
    except (TypeError, AttributeError):
        pass
    return f"Unreadable entry: {entry!r}"


def seen_by(config: Mapping[str, Any], log: Sequence[Any]) -> dict[str, list[str]]:
    """For every other player, the cards I showed them (my rumor notes "I showed X"), first shown first.

    What a player asks before choosing which card to show: showing one they have seen tells them nothing new.
    """
    me = config.get("me")
    seen: dict[str, list[str]] = {str(p): [] for p in config.get("players") or [] if p != me}
    for entry in log:
        if not isinstance(entry, Mapping) or entry.get("type") != "rumor" or entry.get("shown_by") != me:
            continue
        asker, card = entry.get("by"), entry.get("card")
        if isinstance(asker, str) and asker in seen and isinstance(card, str) and card not in seen[asker]:
            seen[asker].append(card)
    return seen


def seen_lines(config: Mapping[str, Any], log: Sequence[Any]) -> list[str]:
    """The "seen" panel: one line per other player ("Bran: Arakh, Privy"; "Sansa: none")."""
    return [f"{who}: {', '.join(cards) if cards else 'none'}" for who, cards in seen_by(config, log).items()]


def default_asker(log: Sequence[Any], players: Sequence[str]) -> str:
    """Who asks the next rumor: the player clockwise after the last rumor's asker."""
    for entry in reversed(log):
        if isinstance(entry, Mapping) and entry.get("type") == "rumor" and entry.get("by") in players:
            i = list(players).index(entry["by"])
            return players[(i + 1) % len(players)]
    return players[0]


def default_passed(players: Sequence[str], asker: str, shower: str | None) -> list[str]:
    """Everyone strictly between the asker and the shower clockwise (all others if nobody showed)."""
    n = len(players)
    i = list(players).index(asker)
    out = []
    for k in range(1, n):
        p = players[(i + k) % n]
        if p == shower:
            break
        out.append(p)
    return out


def rumor_entry(by: str, cards: Sequence[str], passed: Sequence[str], shown_by: str | None,
                card: str | None) -> dict[str, Any]:
    """A rumor entry in the public log format (the card only when someone showed)."""
    return {"type": "rumor", "by": by, "cards": list(cards), "passed": list(passed),
            "shown_by": shown_by, "card": card if shown_by is not None else None}


def entry_number_text(message: str) -> str:
    """The solver counts entries from 0 ("entry 3"); the log shows them from 1 ("#4")."""
    return re.sub(r"\b[Ee]ntry (\d+)", lambda m: f"#{int(m.group(1)) + 1}", message)


def last_index(log: Sequence[Any], kind: str) -> int | None:
    """Index of the last entry of type ``kind`` (my hand, the face-up cards are edited in place)."""
    for i in range(len(log) - 1, -1, -1):
        entry = log[i]
        if isinstance(entry, Mapping) and entry.get("type") == kind:
            return i
    return None


# --------------------------------------------------------------------------- numbers


def fmt_count(n: int) -> str:
    """A deal count that fits a status line: exact up to a billion, then 3.4e12."""
    if n < 1_000_000_000:
        return f"{n:,}"
    exp = int(math.log10(n))
    return f"{n / 10**exp:.1f}e{exp}"


def fmt_p(p: float) -> str:
    """A probability as a short percentage; never "0%" or "100%" for what is not certain."""
    if p <= 0.0:
        return "0%"
    if p >= 1.0:
        return "100%"
    pct = p * 100
    if pct < 1:
        return "<1%"
    if pct > 99:
        return ">99%"
    return f"{pct:.0f}%"


@dataclass(frozen=True)
class Cell:
    """One sheet cell: its text and a shading strength (0..1); ``mark`` is "yes", "no" or ""."""

    text: str
    shade: float
    mark: str = ""


def sheet_cell(solution: Mapping[str, Any], card: str, holder: str) -> Cell:
    """What the sheet shows for ``card`` at ``holder``: ✓ certain, ✗ impossible, else a percentage."""
    p = float(solution.get("holders", {}).get(card, {}).get(holder, 0.0))
    if solution.get("certain", {}).get(card) == holder:
        return Cell("✓", 1.0, "yes")
    if p <= 0.0:
        return Cell("✗", 0.0, "no")
    return Cell(fmt_p(p), p)


def likely_envelope(solution: Mapping[str, Any], deck: Mapping[str, Sequence[str]]) -> list[tuple[str, float]]:
    """Per category, the card most likely in the envelope with its (marginal) probability."""
    env = solution.get("envelope", {})
    out = []
    for cat in CATEGORIES:
        cards = list(deck[cat])
        if cards:
            best = max(cards, key=lambda c: (env.get(c, 0.0), -cards.index(c)))
            out.append((best, float(env.get(best, 0.0))))
    return out


def solved_envelope(solution: Mapping[str, Any], deck: Mapping[str, Sequence[str]]) -> list[str] | None:
    """The envelope when the solver is certain of all three cards."""
    certain = solution.get("certain", {})
    found = [c for cat in CATEGORIES for c in deck[cat] if certain.get(c) == ENVELOPE]
    return found if len(found) == 3 else None
