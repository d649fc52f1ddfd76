"""Masque of the Red Death worlds for ISMCTS: the Red Death cards from the seat's solver posterior.

The seat's solver (:func:`solvers.masque.solver.read_input` on its observation log) knows, per
time slot, rooms that are certainly safe (Gossip cards it saw) and certainly deadly (Red Death
cards it looked at, each at its index); its posterior is uniform over the Red Death sets that
fit, and the rooms it knows nothing of are exchangeable: nothing it saw depends on which of
them is which. So a world is drawn by relabelling, per slot, the unknown rooms with a uniform
random permutation: the Red Death cards of those rooms, and every Gossip card of those rooms
wherever it lies (other seats' Rumor cards, the deck, what other seats saw, cards excluded
from an ask under way), are renamed together. The Red Death set of each slot is then an exact
draw from the solver's posterior and every card stays where the seat's view needs it.

Also redrawn: the deck's order, and (with Personality cards) the Personality of every other
seat whose card was never revealed, from those cards and the undealt ones.
Kept as they are: how many cards of each slot every other seat holds and the deck's mix of
slots (the relabelling keeps them), other seats' secret Action card and midnight plan (their
choices, not chance). The solver's posterior is itself uniform over what the seat knows for
certain, so ``uniform`` draws the same worlds as ``exact`` here.
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.masque import NR, NS
from engine.masque.game import _sorted_cards
from engine.masque.rules import personality_cards
from solvers.masque.observations import log_from_events
from solvers.masque.solver import Knowledge, read_input

GOSSIP = NS * NR  # gossip cards are slot * NR + room; evidence cards come after


def knowledge(view: dict) -> Knowledge:
    """The seat's certain facts (the solver's own reading of its log)."""
    config, log = log_from_events(view["events"], view["seat"])
    known, _ = read_input(config, log)
    return known


def draw(k: Knowledge, st: Any, seat: int, rng: Rng) -> Any:
    """A copy of ``st`` with the unknown rooms of every slot relabelled and the deck reshuffled."""
    perm: list[list[int]] = []
    for slot in range(NS):
        unknown = [r for r in range(NR) if r not in k.safe[slot] and r not in k.deadly[slot]]
        shuffled = list(unknown)
        rng.shuffle(shuffled)
        m = list(range(NR))
        for a, b in zip(unknown, shuffled, strict=True):
            m[a] = b
        perm.append(m)

    def card(c: int) -> int:
        return (c // NR) * NR + perm[c // NR][c % NR] if c < GOSSIP else c

    s = st.copy()
    s.red = tuple(tuple(perm[slot][r] for r in red) for slot, red in enumerate(st.red))
    s.rumors = tuple(tuple(sorted(card(c) for c in h)) for h in st.rumors)
    s.seen = tuple(frozenset(card(c) for c in x) for x in st.seen)
    s.r_excl = tuple(card(c) for c in st.r_excl)
    deck = [card(c) for c in st.deck]
    rng.shuffle(deck)
    s.deck = tuple(deck)
    if st.config.personalities:
        _personalities(s, st, seat, rng)
    return s


def _personalities(s: Any, st: Any, seat: int, rng: Rng) -> None:
    """Other seats' Personality cards never revealed, redealt from those and the undealt ones."""
    shown: set[str] = set()
    for ev, seats in st.log.entries():
        if seats is None and ev["t"] == "reveal":
            shown.update(c for c in ev["cards"] if c)
    hidden = [i for i, p in enumerate(st.personality) if i != seat and p and p not in shown]
    dealt = set(st.personality)
    pool = sorted([st.personality[i] for i in hidden] + [p for p in personality_cards() if p not in dealt])
    rng.shuffle(pool)
    pers, hands, choices = list(st.personality), list(st.hands), list(st.choices)
    for i, new in zip(hidden, pool, strict=False):
        old = st.personality[i]
        pers[i] = new
        hands[i] = _sorted_cards(tuple(new if c == old else c for c in st.hands[i]))
        if choices[i] == old:
            choices[i] = new
    s.personality, s.hands, s.choices = tuple(pers), tuple(hands), tuple(choices)
