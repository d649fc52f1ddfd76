"""Every possible hand of one player, and the bit-set operations the solver runs on them.

A *hand* here is everything a player holds (hidden hand + face-up card) as a 5-tuple of
counts per suit (``engine.ghoul.data.SUITS`` order). With 3 or 4 cards over at most 5 suits
there are at most 70 hands, so a *set* of hands is one Python int used as a bit set, and
every rule the solver applies (a Suspicion answer, cards seen, an exchange) is an ``&`` with
a precomputed mask or a walk over the set bits through a precomputed transition table.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

from engine.ghoul.data import COFFEE, DOVE, FOOD, MASK, TRANSFORMATION


def matches(h: tuple[int, ...], rule: str) -> bool:
    """The engine's Suspicion rules, restated so the solver does not depend on engine internals."""
    if rule == "transformation":
        return h[TRANSFORMATION] >= 1
    if rule == "pair":
        return max(h) >= 2
    if rule == "coffee":
        return h[COFFEE] >= 2
    if rule == "food":
        return h[FOOD] >= 2
    if rule == "dove":
        return h[DOVE] >= 2
    raise ValueError(rule)


def bits(mask: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Universe:
    """All hands of ``size`` cards within the deck's ``caps``, with masks and transition tables."""

    def __init__(self, size: int, caps: tuple[int, ...]) -> None:
        self.size = size
        self.caps = caps
        self.hands: list[tuple[int, ...]] = [
            h for h in itertools.product(*(range(min(c, size) + 1) for c in caps)) if sum(h) == size
        ]
        self.index = {h: i for i, h in enumerate(self.hands)}
        self.all = (1 << len(self.hands)) - 1
        # How many physical deals give this multiset hand, up to a constant: 1 / prod(h_s!).
        self.weight = [1.0 / math.prod(math.factorial(k) for k in h) for h in self.hands]
        self._rule: dict[str, int] = {}
        self._contains: dict[tuple[int, ...], int] = {}
        self._at_least: dict[tuple[int, int], int] = {}
        self.no_mask = self.where(lambda h: h[MASK] == 0)
        # Transition tables: index -> mask of successors.
        n = len(self.hands)
        self.any_swap = [0] * n  # give any card you hold, receive any card (or the same one back)
        self.give_known = [[0] * n for _ in range(5)]  # give suit y, receive any
        self.get_known = [[0] * n for _ in range(5)]  # give any, receive suit x
        self.known = [[[-1] * n for _ in range(5)] for _ in range(5)]  # give y, receive x
        for i, h in enumerate(self.hands):
            for y in range(5):
                if not h[y]:
                    continue
                for x in range(5):
                    g = list(h)
                    g[y] -= 1
                    g[x] += 1
                    j = self.index.get(tuple(g))
                    if j is None:
                        continue
                    bit = 1 << j
                    self.any_swap[i] |= bit
                    self.give_known[y][i] |= bit
                    self.get_known[x][i] |= bit
                    self.known[y][x][i] = j

    def where(self, pred) -> int:
        m = 0
        for i, h in enumerate(self.hands):
            if pred(h):
                m |= 1 << i
        return m

    def rule(self, rule: str) -> int:
        """Hands that draw suspicion under a Suspicion rule."""
        m = self._rule.get(rule)
        if m is None:
            m = self._rule[rule] = self.where(lambda h: matches(h, rule))
        return m

    def contains(self, cards: tuple[int, ...]) -> int:
        """Hands holding at least these cards (a 5-tuple of counts)."""
        m = self._contains.get(cards)
        if m is None:
            m = self._contains[cards] = self.where(lambda h: all(a >= b for a, b in zip(h, cards, strict=True)))
        return m

    def at_least(self, suit: int, k: int) -> int:
        key = (suit, k)
        m = self._at_least.get(key)
        if m is None:
            m = self._at_least[key] = self.where(lambda h: h[suit] >= k)
        return m

    def exactly(self, cards: tuple[int, ...]) -> int:
        i = self.index.get(cards)
        return 0 if i is None else 1 << i

    def step(self, mask: int, table: list[int]) -> int:
        """The set of successors of every hand in ``mask`` under a transition table."""
        out = 0
        while mask:
            low = mask & -mask
            out |= table[low.bit_length() - 1]
            mask ^= low
        return out

    def step_known(self, mask: int, give: int, get: int) -> int:
        """Give a known suit and receive a known suit."""
        table = self.known[give][get]
        out = 0
        while mask:
            low = mask & -mask
            j = table[low.bit_length() - 1]
            if j >= 0:
                out |= 1 << j
            mask ^= low
        return out


@cache
def universe(size: int, caps: tuple[int, ...]) -> Universe:
    return Universe(size, caps)
