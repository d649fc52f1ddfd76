"""Random but consistent Clue games, for benchmarks and tests.

A true deal is drawn first, then every log entry is generated from it with the real rules
(players pass clockwise until one can show, the shower picks a matching card at random), so a log
from here always has at least one consistent deal: the true one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

RED_KEEP: dict[str, list[str]] = {
    "suspects": ["Cersei", "Jaime", "Tyrion", "Sansa", "Joffrey", "Varys"],
    "weapons": ["Crossbow", "Poison", "Sword", "Axe", "Dagger", "Wildfire"],
    "locations": [
        "Throne Room", "Sept", "Godswood", "Kitchens", "Dungeons", "Kingsguard Tower",
        "Small Council", "Great Hall", "Armory", "Stables", "Tower of the Hand",
    ],
}  # fmt: skip
MEEREEN: dict[str, list[str]] = {
    "suspects": ["Daenerys", "Jorah", "Missandei", "Grey Worm", "Daario", "Hizdahr"],
    "weapons": ["Arakh", "Whip", "Spear", "Dragon", "Poison Cup", "Sellsword"],
    "locations": [
        "Great Pyramid", "Fighting Pit", "Temple", "Harbour", "Plaza",
        "Gardens", "Slave Market", "Gates", "Catacombs",
    ],
}  # fmt: skip
PLAYER_NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


@dataclass
class SimulatedGame:
    """A config, a log consistent with ``truth`` and the truth itself (card -> holder name)."""

    config: dict[str, Any]
    log: list[dict[str, Any]]
    truth: dict[str, str]


def tiny_deck(size: int = 3) -> dict[str, list[str]]:
    """A small deck with ``size`` cards per category (brute force friendly)."""
    return {
        "suspects": [f"S{i}" for i in range(size)],
        "weapons": [f"W{i}" for i in range(size)],
        "locations": [f"L{i}" for i in range(size)],
    }


def random_game(
    rng: random.Random,
    deck: dict[str, list[str]],
    nplayers: int,
    n_entries: int,
    *,
    piles: dict[str, int] | None = None,
    hand_sizes: list[int] | None = None,
    me: int = 0,
    p_reveal: float = 0.06,
    p_accuse: float = 0.04,
    p_not_held: float = 0.0,
) -> SimulatedGame:
    """Deal at random and log ``n_entries`` observations (hand, face-up cards, then rumors etc.)."""
    players = list(PLAYER_NAMES[:nplayers])
    piles = dict(piles or {})
    envelope = [rng.choice(deck[cat]) for cat in ("suspects", "weapons", "locations")]
    rest = [c for cat in ("suspects", "weapons", "locations") for c in deck[cat] if c not in envelope]
    rng.shuffle(rest)
    spare = len(rest) - sum(piles.values())
    sizes = list(hand_sizes) if hand_sizes is not None else [spare // nplayers] * nplayers
    truth: dict[str, str] = {c: "envelope" for c in envelope}
    hands: list[list[str]] = []
    pos = 0
    for size in sizes:
        hands.append(rest[pos : pos + size])
        pos += size
    for name, size in piles.items():
        for c in rest[pos : pos + size]:
            truth[c] = name
        pos += size
    face_up = rest[pos:]
    for p, hand in zip(players, hands, strict=True):
        for c in hand:
            truth[c] = p
    for c in face_up:
        truth[c] = "face_up"
    config: dict[str, Any] = {"deck": deck, "players": players, "me": players[me]}
    if hand_sizes is not None:
        config["hand_sizes"] = dict(zip(players, sizes, strict=True))
    if piles:
        config["piles"] = piles

    log: list[dict[str, Any]] = []
    if n_entries > 0:
        log.append({"type": "hand", "cards": sorted(hands[me])})
    if face_up and len(log) < n_entries:
        log.append({"type": "face_up", "cards": sorted(face_up)})
    while len(log) < n_entries:
        r = rng.random()
        if r < p_reveal:
            holder = rng.choice([p for p in players if truth_count(truth, p)] + list(piles))
            held = [c for c, h in truth.items() if h == holder]
            if held:
                log.append({"type": "reveal", "player": holder, "cards": [rng.choice(held)]})
            continue
        if r < p_reveal + p_accuse:
            triple = [rng.choice(deck[cat]) for cat in ("suspects", "weapons", "locations")]
            if triple != envelope:
                log.append({"type": "accusation", "by": rng.choice(players), "cards": triple, "correct": False})
            continue
        if r < p_reveal + p_accuse + p_not_held:
            holder = rng.choice(players)
            cards = [c for c in rng.sample(sorted(truth), 2) if truth[c] != holder]
            if cards:
                log.append({"type": "not_held", "player": holder, "cards": cards})
            continue
        log.append(_rumor(rng, deck, players, me, truth))
    return SimulatedGame(config=config, log=log, truth=truth)


def truth_count(truth: dict[str, str], holder: str) -> int:
    """How many cards ``holder`` truly has."""
    return sum(1 for h in truth.values() if h == holder)


def _rumor(
    rng: random.Random, deck: dict[str, list[str]], players: list[str], me: int, truth: dict[str, str]
) -> dict[str, Any]:
    by = rng.randrange(len(players))
    cards = [rng.choice(deck[cat]) for cat in ("suspects", "weapons", "locations")]
    passed: list[str] = []
    shown_by = None
    card = None
    for step in range(1, len(players)):
        q = (by + step) % len(players)
        matching = [c for c in cards if truth[c] == players[q]]
        if matching:
            shown_by = players[q]
            if by == me or q == me:
                card = rng.choice(matching)
            break
        passed.append(players[q])
    return {"type": "rumor", "by": players[by], "cards": cards, "passed": passed, "shown_by": shown_by, "card": card}
