"""A fact is shown as certain if and only if it holds in every world of positive weight.

Each game's answer is checked against a brute force written from the rules, not from the solver:
every physical deal (Clue: the envelope and every hand; Masque: the Red Death cards of each slot,
card by card; Mascarade: the opening layout and every hidden swap decision) is listed, the ones
the notes rule out are dropped, and what holds in all that remain is what must be certain; the
probabilities are the weighted shares.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine.core import Rng

# ----------------------------------------------------------------------------- Masque

def _masque_rooms() -> tuple[str, ...]:
    from engine.masque import ROOMS

    return tuple(ROOMS)


def masque_brute(log: list[dict], r: int, slots: tuple[str, ...]) -> list[dict[str, tuple[str, ...]]]:
    """Every way to deal the Red Death cards of ``slots`` (card i of a slot is a room; the R cards of
    a slot are R different rooms) that the notes allow; a Gossip card of a room is not a Red Death room."""
    rooms = _masque_rooms()
    worlds = []
    for deal in itertools.product(itertools.permutations(rooms, r), repeat=len(slots)):
        red = dict(zip(slots, deal, strict=True))
        ok = True
        for e in log:
            if e["type"] in ("rumor", "seen"):
                cards = [e["card"]]
            elif e["type"] == "hand":
                cards = e["cards"]
            else:
                cards = []
            for c in cards:
                k, room = c.split()
                ok &= room not in red[k]
            if e["type"] == "evidence":
                cards_of = red[e["slot"]]
                ok &= (cards_of[e["index"]] == e["room"]) if "index" in e else e["room"] in cards_of
        if ok:
            worlds.append(red)
    return worlds


def _masque_log(rng: Rng, slots: tuple[str, ...], r: int) -> list[dict]:
    rooms = _masque_rooms()
    log = []
    for _ in range(rng.below(7)):
        k = slots[rng.below(len(slots))]
        room = rooms[rng.below(len(rooms))]
        kind = rng.below(4)
        if kind == 0:
            log.append({"type": "rumor", "card": f"{k} {room}"})
        elif kind == 1:
            log.append({"type": "hand", "cards": [f"{k} {room}", f"{slots[0]} {rooms[rng.below(7)]}"]})
        else:
            e = {"type": "evidence", "slot": k, "room": room}
            if kind == 3:
                e["index"] = rng.below(r)
            log.append(e)
    return log


@pytest.mark.parametrize("r", [2, 3])
def test_masque_certain_facts_are_exactly_what_every_deal_agrees_on(r):
    from solvers.masque.solver import solve

    slots = ("12:00", "12:10")
    rng = Rng(1300 + r)
    for case in range(120 if r == 2 else 10):
        log = _masque_log(rng, slots, r)
        worlds = masque_brute(log, r, slots)
        out = solve({"red_death": r}, log)
        if not worlds:
            assert out["status"] == "contradiction", (case, log)
            continue
        assert out["status"] == "ok", (case, log, out)
        for k in slots:
            for room in _masque_rooms():
                share = Fraction(sum(room in w[k] for w in worlds), len(worlds))
                assert abs(out["deadly"][k][room] - float(share)) < 1e-12, (case, log, k, room)
                assert (f"{k} {room}" in out["certain"]["deadly"]) == (share == 1), (case, log, k, room)
                assert (f"{k} {room}" in out["certain"]["safe"]) == (share == 0), (case, log, k, room)


# ----------------------------------------------------------------------------- Clue

CLUE_DECK = {"suspects": ["S0", "S1", "S2"], "weapons": ["W0", "W1"], "locations": ["L0", "L1", "L2"]}
CLUE_CONFIG = {"board": "custom", "deck": CLUE_DECK, "players": ["A", "B", "C"], "me": "A",
               "hand_sizes": {"A": 2, "B": 2, "C": 1}}
CLUE_SIZES = {"A": 2, "B": 2, "C": 1}


def clue_deals() -> list[dict[str, str]]:
    """Every deal: one card of each kind in the envelope, the other five dealt to hands of 2, 2 and 1."""
    deals = []
    for env in itertools.product(*CLUE_DECK.values()):
        rest = [c for cards in CLUE_DECK.values() for c in cards if c not in env]
        for order in set(itertools.permutations("AABBC")):
            deal = dict.fromkeys(env, "envelope")
            deal.update(zip(rest, order, strict=True))
            deals.append(deal)
    return deals


def clue_fits(deal: dict[str, str], e: dict) -> bool:
    """Whether one note can be true of one deal (the rules of a rumor and its refutation)."""
    t = e["type"]
    if t == "hand":
        return {c for c, h in deal.items() if h == "A"} == set(e["cards"])
    if t == "rumor":
        if any(deal[c] == p for p in e["passed"] for c in e["cards"]):
            return False
        if e["shown_by"] is None:
            return True
        if e["card"] is not None:
            return deal[e["card"]] == e["shown_by"]
        return any(deal[c] == e["shown_by"] for c in e["cards"])
    if t == "reveal":
        return all(deal[c] == e["player"] for c in e["cards"])
    if t == "not_held":
        return all(deal[c] != e["player"] for c in e["cards"])
    if t == "accusation":
        right = all(deal[c] == "envelope" for c in e["cards"])
        return right == e["correct"]
    raise AssertionError(t)


def _clue_note(rng: Rng, deal: dict[str, str]) -> dict:
    """A note true of ``deal`` (what the table would show), or now and then a random, maybe false one."""
    players = ["A", "B", "C"]
    triple = [cards[rng.below(len(cards))] for cards in CLUE_DECK.values()]
    kind = rng.below(5)
    if kind <= 1:
        by = players[rng.below(3)]
        passed, shown_by, card = [], None, None
        i = players.index(by)
        for p in players[i + 1:] + players[:i]:
            held = [c for c in triple if deal[c] == p]
            if held:
                shown_by = p
                card = held[rng.below(len(held))] if "A" in (by, p) else None
                break
            passed.append(p)
        if rng.below(6) == 0:  # a mistaken note: the notes may contradict
            passed, shown_by, card = passed[:1], None, None
        return {"type": "rumor", "by": by, "cards": triple, "passed": passed, "shown_by": shown_by, "card": card}
    if kind == 2:
        c = [c for cards in CLUE_DECK.values() for c in cards][rng.below(8)]
        who = players[rng.below(3)]
        return {"type": "not_held" if deal[c] != who else "reveal", "player": who, "cards": [c]}
    if kind == 3:
        right = all(deal[c] == "envelope" for c in triple)
        return {"type": "accusation", "by": players[rng.below(3)], "cards": triple,
                "correct": right if rng.below(5) else not right}
    return {"type": "hand", "cards": sorted(c for c, h in deal.items() if h == "A")}


def test_clue_certain_holders_are_exactly_what_every_deal_agrees_on():
    from solvers.clue.solver import solve

    deals = clue_deals()
    assert len(deals) == 18 * 30
    rng = Rng(2024)
    for case in range(60):
        truth = deals[rng.below(len(deals))]
        log = [_clue_note(rng, truth) for _ in range(rng.below(6))]
        worlds = [d for d in deals if all(clue_fits(d, e) for e in log)]
        out = solve(CLUE_CONFIG, log, advice=False)
        if not worlds:
            assert out.status == "contradiction", (case, log)
            continue
        assert out.status == "ok", (case, log, out.message)
        assert out.deals == len(worlds)
        for card in truth:
            holders = {d[card] for d in worlds}
            for h in ("A", "B", "C", "envelope"):
                share = Fraction(sum(d[card] == h for d in worlds), len(worlds))
                assert abs(out.holders[card][h] - float(share)) < 1e-12, (case, log, card, h)
            certain = next(iter(holders)) if len(holders) == 1 else None
            assert out.certain.get(card) == certain, (case, log, card)


# ----------------------------------------------------------------------------- Mascarade

MX_PLAYERS = ["A", "B", "C", "D"]
MX_PLACES = [*MX_PLAYERS, "T1", "T2"]


def _mx_masks() -> list[str]:
    from engine.mascarade.data_files import load_rules

    return list(load_rules().sets[4])


def mascarade_brute(opening: list[str] | None, log: list[dict], prior: float = 0.5) -> dict[tuple, Fraction]:
    """The weight of each present layout: every starting layout (the opening, or each arrangement of
    the masks alike), times every yes/no of each swap I did not see decided, kept when every look,
    Princess and reveal fits the layout of its moment."""
    masks = _mx_masks()
    starts = [tuple(opening)] if opening else sorted(set(itertools.permutations(masks)))
    hidden = [i for i, e in enumerate(log) if e["t"] == "swap" and e["by"] != "A"]
    p = Fraction(prior).limit_denominator(1000)
    out: dict[tuple, Fraction] = {}
    for start in starts:
        for choice in itertools.product((True, False), repeat=len(hidden)):
            did = dict(zip(hidden, choice, strict=True))
            layout = list(start)
            weight = Fraction(1, len(starts))
            ok = True
            for i, e in enumerate(log):
                t = e["t"]
                if t == "swap":
                    swapped = did[i] if i in did else e["swapped"]
                    if i in did:
                        weight *= p if swapped else 1 - p
                    if swapped:
                        a, b = MX_PLACES.index(e["by"]), MX_PLACES.index(e["with"])
                        layout[a], layout[b] = layout[b], layout[a]
                elif t == "look" and "card" in e:
                    ok &= layout[MX_PLACES.index(e["by"])] == e["card"]
                elif t == "shown":
                    ok &= layout[MX_PLACES.index(e["target"])] == e["card"]
                elif t == "reveal":
                    ok &= all(layout[MX_PLACES.index(q)] == m for q, m in e["cards"].items())
                if not ok:
                    break
            if ok:
                out[tuple(layout)] = out.get(tuple(layout), Fraction(0)) + weight
    return out


def _mx_log(rng: Rng, truth: list[str]) -> list[dict]:
    """A short table: swaps (mine known, the others' decided by a coin), looks, Princess shows, reveals."""
    log: list[dict] = []
    for _ in range(1 + rng.below(5)):
        kind = rng.below(6)
        by = MX_PLAYERS[rng.below(4)]
        if kind <= 2:
            other = [q for q in MX_PLACES if q != by][rng.below(5)]
            swapped = rng.below(2) == 0
            e = {"t": "swap", "by": by, "with": other}
            if by == "A":
                e["swapped"] = swapped
            if swapped:
                a, b = MX_PLACES.index(by), MX_PLACES.index(other)
                truth[a], truth[b] = truth[b], truth[a]
            log.append(e)
        elif kind == 3:
            log.append({"t": "look", "by": "A", "card": truth[0]})
        elif kind == 4:
            target = MX_PLAYERS[1 + rng.below(3)]
            log.append({"t": "shown", "by": "A", "target": target, "card": truth[MX_PLAYERS.index(target)]})
        else:
            q = MX_PLAYERS[rng.below(4)]
            card = truth[MX_PLAYERS.index(q)] if rng.below(6) else _mx_masks()[rng.below(6)]  # now and then wrong
            log.append({"t": "reveal", "cards": {q: card}})
    return log


@pytest.mark.parametrize("with_opening", [True, False])
def test_mascarade_certain_facts_are_exactly_what_every_history_agrees_on(with_opening):
    from solvers.mascarade import solve

    masks = _mx_masks()
    rng = Rng(77 if with_opening else 78)
    for case in range(40 if with_opening else 12):
        truth = list(masks)
        for i in range(len(truth) - 1, 0, -1):
            j = rng.below(i + 1)
            truth[i], truth[j] = truth[j], truth[i]
        opening = list(truth) if with_opening else None
        log = _mx_log(rng, truth)
        worlds = mascarade_brute(opening, log)
        out = solve({"players": MX_PLAYERS, "me": "A", "opening": opening}, log, advice=False)
        if not worlds:
            assert out["status"] == "contradiction", (case, log)
            continue
        assert out["status"] == "ok" and out["exact"], (case, log, out.get("message"))
        total = sum(worlds.values())
        for k, place in enumerate(MX_PLACES):
            for m in set(masks):
                share = sum(w for layout, w in worlds.items() if layout[k] == m) / total
                assert abs(out["probabilities"][place][m] - float(share)) < 1e-9, (case, log, place, m)
                assert (m in out["certain"]["not"].get(place, [])) == (share == 0), (case, log, place, m)
                assert (out["certain"]["at"].get(place) == m) == (share == 1), (case, log, place, m)
