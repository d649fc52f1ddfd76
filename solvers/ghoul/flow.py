"""Exact Tokyo Ghoul posteriors over the dealt hands with the hidden card flow.

A *world* is the dealt deal (every player's hand, with the character assignment) together
with every choice made since: the card each player passed in the preliminary phase, the cards
shown, whether an interrogation ended in an exchange and which two cards moved, the cards placed
face up. Its weight is the uniform deal times the chance of every choice under one model (the
model of ``docs/ghoul.md``, "The card-flow model"), whether I saw the choice or not: a choice I
could not see is summed over its options, one I saw multiplies the weight by its chance
(:meth:`_Pass.weigh`); facts about the hands (Suspicion, instant victories, reveals) constrain.

Method: a forward pass over the log whose state is the joint holdings of all players (one
hand index per player, encoded in one int64) with a weight per *instant-class vector* (which
players are a character with an instant victory, the only part of the identities that hands
depend on). Observations zero rows or columns; hidden choices expand rows and merge equal
ones. The character assignments behind each class vector are enumerated once with
python-constraint (all-different over the characters each player may still be).

The joint state grows with the table; :func:`solve_flow` returns ``None`` when it would pass
``budget`` rows, and the caller tries the deal factored by player (:func:`solve_factored`: exact
until the first exchange, at any table size), the pruned pass from the deals that can meet the log, then
sampled deals (:mod:`solvers.ghoul.sampled`) with CP-SAT's certain facts
(:mod:`solvers.ghoul.cpsat`), and last the per-player bound (``exact: false``).

For explanations, ``solve_flow(..., prune=True)`` first replays the log backwards per player
(:class:`_Backward`: which hands can still meet the rest of the log) and drops every row with a
hand outside those sets as it goes (:class:`_Pruned`): the same rows reach the end with the same
weights, but a subset of the notes whose last ones (cards revealed at the end) undo most of the
early spread costs a few milliseconds instead of a few hundred.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import constraint
import numpy as np

from engine.ghoul.data import DOVE, MASK, load_data
from solvers.ghoul.hands import Universe, matches, universe

_CHARS = load_data().characters

DEFAULT_EXCHANGE_CHANCE = 0.5
"""The chance that an interrogation I could not see ended in an exchange (config key
``exchange_chance``)."""

BUDGET = 150_000
"""Most joint states the exact pass keeps (rows); beyond it the caller falls back to the bound."""


DEAL_BUDGET = 60_000
"""Most dealt deals (rows) the exact pass starts from."""


class TooLarge(Exception):
    """The joint state would exceed the budget."""


class FlowConflict(Exception):
    """No world of positive weight fits the log."""


@dataclass
class FlowResult:
    """The exact posterior: per-player hand marginals, identities and (class, hand) joints."""

    total: float
    approximate: list[str]
    hand_probs: list[dict[int, float]]  # hand index -> p
    identity: list[dict[str, float]]
    char_hand: list[dict[tuple[str, int], float]]  # (character, hand index) -> p
    states: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ characters (python-constraint)


@lru_cache(maxsize=256)
def assignments(domains: tuple[tuple[int, tuple[str, ...]], ...]) -> tuple[tuple[str, ...], ...]:
    """Every one-to-one assignment of characters to the players ``domains`` lists (player,
    characters it may be): the all-different model, solved by python-constraint."""
    if not domains:
        return ((),)
    prob = constraint.Problem()
    for q, dom in domains:
        prob.addVariable(q, list(dom))
    prob.addConstraint(constraint.AllDifferentConstraint(), [q for q, _ in domains])
    sols = prob.getSolutions()
    return tuple(sorted(tuple(s[q] for q, _ in domains) for s in sols))


@lru_cache(maxsize=256)
def _class_vectors(
    dom: tuple[tuple[int, tuple[str, ...]], ...], fixed: tuple[str | None, ...], instants: tuple, n: int
) -> tuple[tuple[tuple[str, ...], ...], list[int], list[tuple[int, ...]]]:
    """The assignments, the class vector of each (index) and the class vectors."""
    sols = assignments(dom)
    unknown = [q for q, _ in dom]
    cls = {c: (instants.index(ch.instant) if ch.instant in instants else 0) for c, ch in _CHARS.items()}
    base = [cls[fixed[q]] if fixed[q] is not None else 0 for q in range(n)]
    vecs: dict[tuple[int, ...], int] = {}
    sol_vec = []
    for sol in sols:
        v = list(base)
        for q, c in zip(unknown, sol, strict=True):
            v[q] = cls[c]
        key = tuple(v)
        if key not in vecs:
            vecs[key] = len(vecs)
        sol_vec.append(vecs[key])
    return sols, sol_vec, list(vecs)


def possible_characters(domains: dict[int, set[str]]) -> dict[int, set[str]]:
    """Per player, the characters it is in at least one all-different assignment (for the
    certain facts: a character no assignment gives a player is certainly not theirs)."""
    key = tuple(sorted((q, tuple(sorted(d))) for q, d in domains.items()))
    out: dict[int, set[str]] = {q: set() for q in domains}
    for sol in assignments(key):
        for (q, _), c in zip(key, sol, strict=True):
            out[q].add(c)
    return out


# ------------------------------------------------------------------ the deal (it depends on the table only)


@lru_cache(maxsize=64)
def _deal_count(hand_size: int, deck_: tuple[int, ...], n: int, my_hand: tuple[int, ...] | None) -> int:
    """How many deals of ``n`` hands (with mine, when given) the deck makes."""
    uni = universe(hand_size, deck_)
    deck = np.array(deck_, dtype=np.int64)
    players = n
    if my_hand is not None:
        deck = deck - np.array(my_hand)
        players -= 1
        if (deck < 0).any():
            raise FlowConflict
    shape = tuple(int(d) + 1 for d in deck)
    a = np.zeros(shape)
    a[(0,) * 5] = 1.0
    fits = [h for h in uni.hands if all(k <= d for k, d in zip(h, deck, strict=True))]
    for _ in range(players - 1):
        b = np.zeros(shape)
        for h in fits:
            src = tuple(slice(0, d - k) for d, k in zip(shape, h, strict=True))
            dst = tuple(slice(k, d) for d, k in zip(shape, h, strict=True))
            b[dst] += a[src]
        a = b
    # The last hand is what is left: count the cells that leave a hand.
    total = 0.0
    for h in fits:
        total += a[tuple(int(d) - k for d, k in zip(deck, h, strict=True))]
    return int(total)


@lru_cache(maxsize=4)
def _every_deal(
    hand_size: int, deck: tuple[int, ...], n: int, me: int, my_hand: tuple[int, ...] | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_deals` without sets, kept for the next pass over the same table (read-only
    arrays); ``None`` when over the budget while built."""
    try:
        rows, w = _deals(hand_size, deck, n, me, my_hand, None)
    except TooLarge:
        return None
    rows.flags.writeable = False
    w.flags.writeable = False
    return rows, w


def _deals(
    hand_size: int, deck_: tuple[int, ...], n: int, me: int, my_hand: tuple[int, ...] | None,
    sets: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every deal (one hand index per player; mine is ``my_hand`` when given) and its weight (the
    product of the hands' 1 / prod(count!)), player by player; with ``sets``, only the hands
    each player's row of ``sets`` allows. Raises :class:`TooLarge` past the budget."""
    uni = universe(hand_size, deck_)
    nh = len(uni.hands)
    counts = np.array(uni.hands, dtype=np.int64).reshape(nh, 5)
    deck = np.array(deck_, dtype=np.int64)
    order = list(range(n))
    if my_hand is not None and me == n - 1:
        # The last hand is what is left, so mine cannot be last: deal it first (then every prefix
        # holds it, the budget is that of a seat dealt first, and the columns go back at the end).
        order = [me, *range(n - 1)]
    mine = None
    if my_hand is not None and order[0] == 0 and me != order[-1]:
        # The players dealt before me keep only the deals that leave my hand (the others never
        # reach the end): the same rows in the same order, far fewer on the way. The budget is
        # the one of the deals built without that, counted without building them (the pruned
        # pass, with ``sets``, has only its own).
        if sets is None and _prefix_peak(hand_size, deck_, n, me, my_hand) > BUDGET:
            raise TooLarge
        mine = np.array(my_hand, dtype=np.int64)
    rows = np.zeros((1, 0), dtype=np.int64)
    rem = deck[None, :].copy()
    w = np.ones(1)
    inv_fact = np.array(uni.weight)
    rem_radix = np.cumprod([1] + [int(d) + 1 for d in deck[:0:-1]])[::-1].astype(np.int64)
    for q in order:
        if q == me and my_hand is not None:
            cand = np.array([uni.index[my_hand]], dtype=np.int64)
        elif q == order[-1]:
            cand = None
        else:
            cand = np.arange(nh, dtype=np.int64)
        if cand is not None and sets is not None:
            cand = cand[sets[q][cand]]
        if cand is None:
            # The last hand is what is left: look it up by a mixed-radix code of the counts.
            radix = np.cumprod([1] + [hand_size + 1] * 4)
            table = np.full((hand_size + 1) ** 5, -1, dtype=np.int64)
            table[counts @ radix] = np.arange(nh)
            code = np.minimum(rem, hand_size + 1) @ radix
            over = (rem > hand_size).any(axis=1)
            idx = np.where(over, -1, table[np.where(over, 0, code)])
            ok = idx >= 0
            if sets is not None:
                ok &= sets[q][idx]
            rows, rem, w = rows[ok], rem[ok], w[ok]
            rows = np.concatenate([rows, idx[ok][:, None]], axis=1)
            w = w * inv_fact[idx[ok]]
            rem = rem * 0
            continue
        # Which candidate hands fit in what is left, per distinct remainder (the remainders
        # numbered by a mixed-radix code, first suit most significant: the rows' order, as
        # ``np.unique(rem, axis=0)`` gives it, at a fraction of its cost).
        _u, first, inv = np.unique(rem @ rem_radix, return_index=True, return_inverse=True)
        urem = rem[first]
        fit = (urem[:, None, :] >= counts[cand][None, :, :]).all(axis=2)
        r_idx, k_idx = np.nonzero(fit[inv.ravel()])  # type: ignore[index]  # .all(axis=2) is an array
        if len(r_idx) > BUDGET:
            raise TooLarge
        c_rep = cand[k_idx]
        rows = np.concatenate([rows[r_idx], c_rep[:, None]], axis=1)
        rem = rem[r_idx] - counts[c_rep]
        w = w[r_idx] * inv_fact[c_rep]
        if mine is not None and q < me:
            ok = np.asarray((rem >= mine).all(axis=1), dtype=bool)
            rows, rem, w = rows[ok], rem[ok], w[ok]
    if order[0] != 0:
        rows = rows[:, np.argsort(order)]
    return rows, w


@lru_cache(maxsize=64)
def _prefix_peak(hand_size: int, deck_: tuple[int, ...], n: int, me: int, my_hand: tuple[int, ...]) -> int:
    """The most rows :func:`_deals` (without sets) would hold after a player's hand, had it kept
    the deals that cannot leave my hand: one count per remainder of the deck, player by player."""
    uni = universe(hand_size, deck_)
    shape = tuple(int(d) + 1 for d in deck_)
    a = np.zeros(shape, dtype=np.int64)
    a[tuple(int(d) for d in deck_)] = 1
    peak = 0
    for q in range(n - 1):
        hands = [my_hand] if q == me else uni.hands
        b = np.zeros(shape, dtype=np.int64)
        for h in hands:
            # Remainders r >= h go to r - h.
            src = tuple(slice(k, d) for d, k in zip(shape, h, strict=True))
            dst = tuple(slice(0, d - k) for d, k in zip(shape, h, strict=True))
            b[dst] += a[src]
        a = b
        peak = max(peak, int(a.sum()))
    return peak


def clear_deal_caches() -> None:
    """Forget the deals kept from earlier passes (benchmarks measure cold passes with it)."""
    _deal_count.cache_clear()
    _every_deal.cache_clear()
    _prefix_peak.cache_clear()


# ------------------------------------------------------------------ the forward pass


class _Pass:
    def __init__(self, problem: Any, fixed: list[str | None], allowed: list[set[str]], chance: float) -> None:
        p = self.p = problem
        self.n = n = p.n
        self._fixed = fixed
        self.uni: Universe = universe(p.hand_size, p.deck)
        uni = self.uni
        self.nh = len(uni.hands)
        self.counts = np.array(uni.hands, dtype=np.int64).reshape(self.nh, 5)
        self.chance = chance
        self.approximate: list[str] = []
        # Transition table: give suit y, receive suit x -> new hand index or -1.
        self.known = np.array(uni.known, dtype=np.int64)  # (5, 5, nh)
        self.unknown = [q for q in range(n) if fixed[q] is None]
        self._allowed = allowed
        instants: list[tuple[int, int] | None] = [None]
        for c in p.cast:
            inst = _CHARS[c].instant
            if inst and inst not in instants:
                instants.append(inst)
        self.instants = instants
        self.inst_hand = [np.zeros(self.nh, dtype=bool)] + [
            self.counts[:, s] >= k
            for s, k in instants[1:]
        ]
        self.face_up: list[int | None] = [None] * n
        self.H = np.zeros((0, n), dtype=np.int64)
        self.W: np.ndarray = np.zeros((0, 1), dtype=float)
        self.lazy = False
        # Set by :class:`_Pruned` only: per player, the hands from which the rest of the log can
        # still be met, dealt (``_deal_sets``) and right after the cards of the current entry
        # moved (``_post``); ``None`` in the ordinary pass, which then runs exactly as without them.
        self._deal_sets: np.ndarray | None = None
        self._post: np.ndarray | None = None
        # With the sets: the deal's budget is the rows' only (not the count of every deal).
        self.restricted_deal = False

    def characters(self) -> None:
        """The character assignments (python-constraint) grouped by instant-class vector."""
        n, fixed, instants = self.n, self._fixed, self.instants
        dom = tuple((q, tuple(sorted(self._allowed[q]))) for q in self.unknown)
        self.sols, self.sol_vec, self.vecs = _class_vectors(dom, tuple(fixed), tuple(instants), n)
        if not self.sols:
            raise FlowConflict
        self.nv = len(self.vecs)
        self.vec_arr = np.array(self.vecs, dtype=np.int64).reshape(self.nv, n)
        self.prior = np.bincount(np.array(self.sol_vec, dtype=np.int64), minlength=self.nv).astype(float)

    # --- helpers
    def mask_of(self, bits_int: int) -> np.ndarray:
        return np.array([(bits_int >> i) & 1 for i in range(self.nh)], dtype=bool)

    def restrict(self, q: int, ok_hand: np.ndarray) -> None:
        keep = ok_hand[self.H[:, q]]
        self.H = self.H[keep]
        self.W = self.W[keep]
        self._check()

    def weigh(self, q: int, like: np.ndarray) -> None:
        """Multiply each row's weight by ``like[q's hand]``: the model's chance of a choice I saw
        (a card shown, given or taken). A hand where it is 0 drops out, as with :meth:`restrict`;
        passes that only keep what is possible (:class:`_Backward`, CP-SAT) restrict to ``like > 0``."""
        f = np.asarray(like, dtype=float)[self.H[:, q]]
        keep = f > 0
        self.H = self.H[keep]
        self.W = self.W[keep] * f[keep][:, None]
        self._check()

    def scale(self, f: float) -> None:
        """Multiply every weight by the chance ``f`` of a choice that does not depend on the hands
        (an exchange seen not to happen: ``1 - exchange_chance``); nothing becomes impossible."""
        self.W = self.W * f

    def _check(self) -> None:
        if len(self.H) == 0 or not (self.W > 0).any():
            raise FlowConflict

    def prune(self) -> None:
        keep = (self.W > 0).any(axis=1)
        self.H = self.H[keep]
        self.W = self.W[keep]
        self._check()

    def _merge_rows(self, H: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows with equal columns summed into one."""
        if len(H) > BUDGET:
            raise TooLarge
        if len(H) == 0:
            raise FlowConflict
        key = np.zeros(len(H), dtype=np.int64)
        for q in range(H.shape[1]):
            key = key * self.nh + H[:, q]
        uniq, inv = np.unique(key, return_inverse=True)
        inv = inv.ravel()
        out = np.zeros((len(uniq), W.shape[1]))
        for j in range(W.shape[1]):
            out[:, j] = np.bincount(inv, weights=W[:, j], minlength=len(uniq))
        first = np.zeros(len(uniq), dtype=np.int64)
        first[inv] = np.arange(len(H))
        return H[first], out

    def merge(self, H: np.ndarray, W: np.ndarray) -> None:
        self.H, self.W = self._merge_rows(H, W)
        self.prune()

    def hidden_counts(self, q: int, col: np.ndarray) -> tuple[np.ndarray, int]:
        """Per row, the cards of each suit in ``q``'s hidden hand (holding minus face-up)."""
        c = self.counts[col]  # (a fresh array: fancy indexing copies)
        size = self.p.hand_size
        if self.p.mask:
            u = self.face_up[q]
            if u is None:
                self.approximate.append(f"{self.p.names[q]}'s face-up card is unknown")
            else:
                c[:, u] -= 1
                size -= 1
        return c, size

    # --- the deal
    def deal_count(self, my_hand: tuple[int, ...] | None) -> int:
        """How many deals (rows) :meth:`deal` would make: a count over the cards left per suit."""
        return _deal_count(self.p.hand_size, self.p.deck, self.n, my_hand)

    def deal(self, my_hand: tuple[int, ...] | None) -> None:
        p = self.p
        if not self.restricted_deal and self.deal_count(my_hand) > DEAL_BUDGET:
            raise TooLarge
        self.characters()
        got = _every_deal(p.hand_size, p.deck, self.n, p.me, my_hand)
        if got is not None and self._deal_sets is not None:
            # The deals the sets allow, in the order :func:`_deals` would build them.
            rows, w = got
            keep = self._deal_sets[0][rows[:, 0]]
            for q in range(1, self.n):
                keep &= self._deal_sets[q][rows[:, q]]
            got = rows[keep], w[keep]
        elif got is None:  # over the budget while built: the sets may make it smaller
            if self._deal_sets is None:
                raise TooLarge
            got = _deals(p.hand_size, p.deck, self.n, p.me, my_hand, self._deal_sets)
        rows, w = got
        if len(rows) == 0:
            raise FlowConflict
        self.H = rows
        # The class vectors share every row's weight until a turn tells them apart (``expand``).
        self.W = w[:, None]
        self.lazy = True
        self.prune()  # (fancy indexing copies: the cached deal is never written)

    def expand(self) -> None:
        if self.lazy:
            self.W = self.W * self.prior[None, :]
            self.lazy = False

    # --- entries
    def face_rule(self, q: int) -> None:
        u = self.face_up[q]
        if u is None:
            return
        ok = self.counts[:, u] >= 1
        if u != MASK:
            ok &= self.counts[:, MASK] == 0
        self.restrict(q, ok)

    def not_claimed(self, q: int) -> None:
        if len(self.instants) > 1:
            self.expand()
        for j in range(1, len(self.instants)):
            cols = self.vec_arr[:, q] == j
            if not cols.any():
                continue
            rows = self.inst_hand[j][self.H[:, q]]
            if rows.any():
                sub = self.W[rows]
                sub[:, cols] = 0.0
                self.W[rows] = sub
        self.prune()

    def contains(self, q: int, cards: tuple[int, ...], hidden: bool = True) -> None:
        need = list(cards)
        if hidden and self.p.mask and self.face_up[q] is not None:
            need[self.face_up[q]] += 1
        if sum(need) == self.p.hand_size:
            ok = (self.counts == np.array(need)).all(axis=1)
        else:
            ok = (self.counts >= np.array(need)).all(axis=1)
        self.restrict(q, ok)

    def shown_like(self, q: int, cards: Sequence[int]) -> np.ndarray:
        """Per hand of ``q``, the chance that ``cards`` are the ones shown: ``q`` shows that many of
        his hidden cards, every set of them equally likely (prod C(held, shown) / C(hidden, shown))."""
        hc, size = self.hidden_counts(q, np.arange(self.nh))
        k = np.asarray(cards, dtype=np.int64)
        like = np.ones(self.nh)
        for s in range(5):
            if k[s]:
                like *= np.array([math.comb(int(x), int(k[s])) if x >= k[s] else 0 for x in hc[:, s]], dtype=float)
        return like / math.comb(size, int(k.sum())) if k.sum() <= size else like * 0.0

    def placed_like(self, u: int) -> np.ndarray:
        """Per holding, the chance that the card placed face up (at setup, or a refill after an
        exchange took the face-up card) is a ``u``: a Mask when the player holds one (the rules),
        otherwise any of his cards, each equally likely."""
        c = self.counts
        if u == MASK:
            return (c[:, MASK] >= 1).astype(float)
        return np.where(c[:, MASK] == 0, c[:, u] / float(self.p.hand_size), 0.0)

    def shown(self, q: int, cards: Sequence[int]) -> None:
        """``q`` showed me ``cards``: weighted by the chance of that show (:meth:`shown_like`)."""
        self.weigh(q, self.shown_like(q, cards))

    def exchange_seen(self, a: int, b: int, ex: tuple, shown: Sequence[int] | None) -> None:
        """The model's chance of an exchange I saw (before the cards move): it happened
        (``exchange_chance``), ``a`` gave ``g`` (each of his cards equally likely, the face-up one
        included) and took ``t`` (each of ``b``'s cards equally likely: one of the cards shown,
        each shown card alike, or the face-up one)."""
        g, t, gf, tf = ex
        size = float(self.p.hand_size)
        self.scale(self.chance)
        if gf == "board":
            self.scale(1.0 / size)
        else:
            ca, _ = self.hidden_counts(a, np.arange(self.nh))
            self.weigh(a, np.maximum(ca[:, g], 0) / size)
        if tf == "board":
            self.scale(1.0 / size)
            return
        cb, sb = self.hidden_counts(b, np.arange(self.nh))
        if shown is not None and shown[t] >= 1:
            # Given the show (already weighted): a card of the hand, then one of those shown.
            self.scale(sb / size * shown[t] / float(sum(shown)))
            self.restrict(b, cb[:, t] >= 1)
        else:
            # Not shown to me, or (a note error the rules exclude) not among the cards shown:
            # the chance of taking t from the hand, the show summed over.
            self.weigh(b, np.maximum(cb[:, t], 0) / size)

    def move_known(self, a: int, b: int, g: int, t: int) -> None:
        """``a`` gives ``g`` to ``b`` and takes ``t`` from ``b`` (both seen)."""
        na = self.known[g, t][self.H[:, a]]
        nb = self.known[t, g][self.H[:, b]]
        ok = (na >= 0) & (nb >= 0)
        H = self.H[ok].copy()
        H[:, a] = na[ok]
        H[:, b] = nb[ok]
        self.merge(H, self.W[ok])

    def hidden_exchange(self, a: int, b: int, changed: dict[int, int | None]) -> None:
        """An interrogation I could not see: no exchange, or ``a`` gives one of his cards and takes
        one of ``b``'s, every card equally likely. In the Mask variant the face-up cards count
        among them; a face-up card that leaves the board, or a Mask that replaces a face-up card,
        is seen by everyone (``changed``: the players whose face-up card changed, and how)."""
        p = self.p
        board = p.mask and self.face_up[a] is not None and self.face_up[b] is not None
        if p.mask and not board:
            self.approximate.append("a face-up card is unknown at an interrogation I could not see")
        ca, sa = self.hidden_counts(a, self.H[:, a])
        cb, sb = self.hidden_counts(b, self.H[:, b])
        if board:
            sa, sb = sa + 1, sb + 1

        # Options per side: (suit, from board, count per row).
        def options(c: np.ndarray, q: int) -> list[tuple[int, bool, np.ndarray]]:
            opts = [(s, False, c[:, s]) for s in range(5) if c[:, s].any()]
            if board:
                opts.append((self.face_up[q], True, np.ones(len(c), dtype=np.int64)))
            return opts

        if len(self.H) * (1 + len(options(ca, a)) * len(options(cb, b))) > 4 * BUDGET:
            raise TooLarge
        Hs = [self.H]
        Ws = [self.W * (1.0 - self.chance)]
        if p.mask:
            keep0 = self._face_events(self.H, a, b, False, False, changed)
            Hs, Ws = [self.H[keep0]], [self.W[keep0] * (1.0 - self.chance)]
        for g, g_board, ng in options(ca, a):
            for t, t_board, nt in options(cb, b):
                pr = self.chance * ng * nt / float(sa * sb)
                ok = pr > 0
                if not ok.any():
                    continue
                H = self.H[ok].copy()
                H[:, a] = self.known[g, t][self.H[ok, a]]
                H[:, b] = self.known[t, g][self.H[ok, b]]
                w = self.W[ok] * pr[ok][:, None]
                if p.mask:
                    keep = self._face_events(H, a, b, g_board, t_board, changed)
                    H, w = H[keep], w[keep]
                    for q, left in ((a, g_board), (b, t_board)):
                        if left and changed.get(q) is not None:  # the refill: its chance
                            w = w * self.placed_like(changed[q])[H[:, q]][:, None]
                Hs.append(H)
                Ws.append(w)
        self.merge(np.concatenate(Hs), np.concatenate(Ws))

    def _face_events(
        self, H: np.ndarray, a: int, b: int, a_left: bool, b_left: bool, changed: dict[int, int | None]
    ) -> np.ndarray:
        """Rows whose public face-up events match what was seen: a card left the board, or a
        Mask received replaced a face-up card that was not a Mask (the rulebook's Mask rules)."""
        keep = np.ones(len(H), dtype=bool)
        for q, left in ((a, a_left), (b, b_left)):
            u = self.face_up[q]
            if u is None:  # unknown face-up card: already marked approximate
                continue
            has_mask = self.counts[H[:, q], MASK] >= 1
            event = np.full(len(H), True) if left else (has_mask if u != MASK else np.zeros(len(H), dtype=bool))
            keep &= event == (q in changed)
        return keep

    def _preliminary_opening(self, e: dict) -> tuple[int, int, int, int] | None:
        """What both directions of the preliminary phase start with: the card my right neighbour showed
        me; then (n, me, right, left), or None when the cards were not passed."""
        n, me = self.n, self.p.me
        right, left = (me - 1) % n, (me + 1) % n
        if e["shown"] is not None:
            self.shown(right, e["shown"])
        return (n, me, right, left) if e["passed"] else None

    def preliminary(self, e: dict) -> None:
        opening = self._preliminary_opening(e)
        if opening is None:
            return
        n, me, _right, left = opening
        # Everyone gives one card to the right at once, chosen from the hand before the phase.
        # Walk the ring to the right from me, one player at a time: an extra column holds the card
        # on its way into the current player (given by the player on its left, already removed).
        # Columns n and n + 1: the card in transit, and the card I gave (settled at the end).
        H = np.concatenate([self.H, np.zeros((len(self.H), 2), dtype=np.int64)], axis=1)
        W = self.W
        order = [(me - k) % n for k in range(n)]  # me, right, ..., left
        for q in order:
            known = e["gave"] if q == me else (e["received"] if q == left else None)
            cq, sq = self.hidden_counts(q, H[:, q])
            parts = []
            for s in range(5):
                if known is not None and s != known:
                    continue
                # Any card of the giver's hidden hand, each equally likely, whether I saw it or
                # not: a card I saw given is weighted by that chance too (it does not only constrain).
                pr = np.maximum(cq[:, s], 0) / float(sq)
                ok = pr > 0
                if not ok.any():
                    continue
                if q == me:
                    parts.append((ok, s, pr, None))
                    continue
                # The hand after giving s and taking the card in transit; rows with no such hand
                # drop out here, before the rows are copied (same rows, same order as after).
                new = self.known[s, H[:, n], H[:, q]]
                ok &= new >= 0
                if self._post is not None:
                    ok &= self._post[q][new]  # (new is -1 only where ok is already false)
                if ok.any():
                    parts.append((ok, s, pr, new))
            if not parts:
                raise FlowConflict
            Hs = []
            for ok, s, _pr, new in parts:
                Hp = H[ok]
                if new is None:
                    Hp[:, n + 1] = s
                else:
                    Hp[:, q] = new[ok]
                Hp[:, n] = s
                Hs.append(Hp)
            W = np.concatenate([W[ok] * pr[ok][:, None] for ok, _s, pr, _new in parts])
            H = np.concatenate(Hs)
            H, W = self._merge_rows(H, W)
        # What is in transit now is my left neighbour's gift to me.
        new = self.known[H[:, n + 1], H[:, n], H[:, me]]
        ok = new >= 0
        if self._post is not None:
            ok &= self._post[me][new]
        H, W = H[ok], W[ok]
        H[:, me] = new[ok]
        self.merge(H[:, :n], W)
        for q, c in e["face_up"].items():
            self.face_up[q] = c
        for q in range(n):
            self.face_rule(q)

    def run(self, entries: Sequence[dict]) -> None:
        p = self.p
        self.me_ = p.me
        for i, e in enumerate(entries):
            self._before(i)
            t = e["type"]
            if t == "hand":
                if "face_up" in e:
                    self.face_up[p.me] = e["face_up"]
                ok = (self.counts == np.array(e["cards"])).all(axis=1)
                self.restrict(p.me, ok)
            elif t == "preliminary":
                self.preliminary(e)
            elif t == "face_up":
                if e["card"] is not None and e["card"] != self.face_up[e["player"]]:
                    # A card placed face up: the same chance as every card choice.
                    self.weigh(e["player"], self.placed_like(e["card"]))
                self.face_up[e["player"]] = e["card"]
                self.face_rule(e["player"])
            elif t in ("move", "turn"):
                self.not_claimed(e["player"])
            elif t == "interrogation":
                a, b = e["by"], e["target"]
                if e["shown"] is not None:
                    self.shown(b, e["shown"])
                ex = e["exchange"]
                if isinstance(ex, tuple):
                    self.exchange_seen(a, b, ex, e["shown"])
                    self.move_known(a, b, ex[0], ex[1])
                    for q, left in ((a, ex[2] == "board"), (b, ex[3] == "board")):
                        if left and e["face_up"].get(q) is not None:  # the refill: its chance
                            self.weigh(q, self.placed_like(e["face_up"][q]))
                elif ex == "none":
                    self.scale(1.0 - self.chance)
                elif ex == "unknown":
                    self.hidden_exchange(a, b, e["face_up"])
                for q, c in e["face_up"].items():
                    self.face_up[q] = c
                self.face_rule(a)
                self.face_rule(b)
            elif t == "suspicion":
                rule = e["rule"]
                m = np.array([matches(h, rule) for h in self.uni.hands], dtype=bool)
                for q in range(self.n):
                    self.restrict(q, m if q in e["players"] else ~m)
            elif t == "special":
                self.not_claimed(e["by"])
                self.restrict(e["by"], self.counts[:, DOVE] >= 2)
            elif t == "instant":
                q = e["player"]
                inst = _CHARS[e["character"]].instant
                if inst:
                    self.restrict(q, self.counts[:, inst[0]] >= inst[1])
                if e["cards"] is not None:
                    self.contains(q, e["cards"], hidden=False)
            elif t == "reveal" and e["cards"] is not None:
                self.contains(e["player"], e["cards"], hidden=False)

    def _before(self, i: int) -> None:
        """Called before entry ``i`` of :meth:`run` (a hook for :class:`_Pruned`)."""

    # --- results
    def result(self) -> FlowResult:
        self.expand()
        n = self.n
        tot_rows = self.W.sum(axis=1)
        total = float(tot_rows.sum())
        if total <= 0:
            raise FlowConflict
        hand_probs: list[dict[int, float]] = []
        for q in range(n):
            acc = np.bincount(self.H[:, q], weights=tot_rows, minlength=self.nh) / total
            hand_probs.append({int(i): float(acc[i]) for i in np.nonzero(acc > 0)[0]})
        # Identities and (character, hand) joints: each class vector's weight is shared by the
        # assignments behind it.
        per_vec_hand = []  # per player: (nh, nv) weights
        nv = self.W.shape[1]
        cols = np.arange(nv)
        for q in range(n):
            idx = (self.H[:, q][:, None] * nv + cols[None, :]).ravel()
            m = np.bincount(idx, weights=self.W.ravel(), minlength=self.nh * nv).reshape(self.nh, nv)
            per_vec_hand.append(m / total)
        return self._posterior(total, hand_probs, per_vec_hand, len(self.H),
                               {"H": self.H, "W": self.W, "sols": self.sols, "sol_vec": self.sol_vec,
                                "unknown": self.unknown})

    def _posterior(self, total: float, hand_probs: list[dict[int, float]], per_vec_hand: list[np.ndarray],
                   states: int, extra: dict[str, Any]) -> FlowResult:
        """The result from each player's (hand x class vector) weights, normalised."""
        n = self.n
        vec_count = self.prior
        identity = [dict[str, float]() for _ in range(n)]
        char_hand = [dict[tuple[str, int], float]() for _ in range(n)]
        for q in range(n):
            if q not in self.unknown:
                c = self._fixed[q]
                identity[q][c] = 1.0
                col = per_vec_hand[q].sum(axis=1)
                for hi in np.nonzero(col > 0)[0]:
                    char_hand[q][(c, int(hi))] = float(col[hi])
        # Per unknown player: (class vector x character) share of the assignments behind it.
        chars = sorted({c for sol in self.sols for c in sol})
        cidx = {c: k for k, c in enumerate(chars)}
        sol_vec = np.array(self.sol_vec, dtype=np.int64)
        sol_char = np.array([[cidx[c] for c in sol] for sol in self.sols], dtype=np.int64).reshape(len(self.sols), -1)
        for k, q in enumerate(self.unknown):
            share = np.zeros((self.nv, len(chars)))
            # The same additions in the same order as a loop over the assignments (unbuffered).
            np.add.at(share, (sol_vec, sol_char[:, k]), 1.0 / vec_count[sol_vec])
            m = per_vec_hand[q] @ share  # (nh, characters)
            for j, c in enumerate(chars):
                col = m[:, j]
                mass = float(col.sum())
                if mass <= 0:
                    continue
                identity[q][c] = mass
                for hi in np.nonzero(col > 0)[0]:
                    char_hand[q][(c, int(hi))] = float(col[hi])
        return FlowResult(
            total=total,
            approximate=sorted(set(self.approximate)),
            hand_probs=hand_probs,
            identity=identity,
            char_hand=char_hand,
            states=states,
            extra=extra,
        )

    # (sampling lives with the result: see :func:`sample`)


# ------------------------------------------------------------------ rows that cannot reach the end


class _Backward(_Pass):
    """Per player and entry, the hands from which that player alone can still meet the rest of
    the log: the same entries replayed by :meth:`_Pass.run` (so with the very same tests), but
    each test recorded on one player's hand instead of applied to the joint rows, and every
    card movement recorded as the moves the card-flow model allows it (any card given and any
    received when unseen), then read backwards.

    The sets hold every hand a world of positive weight gives that player at that point (the
    turns' instant-victory test, which depends on the characters, is left out, so the sets are
    only larger), so a joint row with one hand outside them has no completion: dropping it
    changes no row that survives to the end of the log, nor its weights."""

    def __init__(self, problem: Any, fixed: list[str | None], allowed: list[set[str]], chance: float) -> None:
        super().__init__(problem, fixed, allowed, chance)
        # ("test", player, hands allowed) | ("move", player, nh x nh moves) | ("mark", key, None)
        self.ops: list[tuple[str, Any, np.ndarray | None]] = []
        self._moves: dict[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray] = {}

    def moves(self, give: Sequence[int], get: Sequence[int]) -> np.ndarray:
        """Hand i -> hand j when one card of a suit in ``give`` is given and one in ``get`` received."""
        key = (tuple(give), tuple(get))
        m = self._moves.get(key)
        if m is None:
            m = np.zeros((self.nh, self.nh), dtype=bool)
            rows = np.arange(self.nh)
            for y in give:
                for x in get:
                    j = self.known[y, x]
                    ok = j >= 0
                    m[rows[ok], j[ok]] = True
            self._moves[key] = m
        return m

    def restrict(self, q: int, ok_hand: np.ndarray) -> None:
        self.ops.append(("test", q, np.asarray(ok_hand, dtype=bool)))

    def not_claimed(self, q: int) -> None:
        pass  # depends on the characters: left out (the sets only get larger)

    def weigh(self, q: int, like: np.ndarray) -> None:
        self.restrict(q, np.asarray(like) > 0)

    def scale(self, f: float) -> None:
        pass  # the same for every hand: what is possible does not change

    def move_known(self, a: int, b: int, g: int, t: int) -> None:
        self.ops.append(("move", a, self.moves((g,), (t,))))
        self.ops.append(("move", b, self.moves((t,), (g,))))
        self.ops.append(("mark", ("post", self._entry), None))

    def hidden_exchange(self, a: int, b: int, changed: dict[int, int | None]) -> None:
        any_move = self.moves(range(5), range(5)) | np.eye(self.nh, dtype=bool)  # or no exchange
        self.ops.append(("move", a, any_move))
        self.ops.append(("move", b, any_move))
        self.ops.append(("mark", ("post", self._entry), None))

    def preliminary(self, e: dict) -> None:
        opening = self._preliminary_opening(e)
        if opening is None:
            return
        n, me, right, left = opening
        every = tuple(range(5))
        for q in range(n):
            give = (e["gave"],) if q == me and e["gave"] is not None else (
                (e["received"],) if q == left and e["received"] is not None else every)
            get = (e["received"],) if q == me and e["received"] is not None else (
                (e["gave"],) if q == right and e["gave"] is not None else every)
            self.ops.append(("move", q, self.moves(give, get)))
        self.ops.append(("mark", ("post", self._entry), None))
        for q, c in e["face_up"].items():
            self.face_up[q] = c
        for q in range(n):
            self.face_rule(q)

    def _before(self, i: int) -> None:
        self._entry = i
        self.ops.append(("mark", i, None))

    def sets(self) -> dict[Any, np.ndarray]:
        """Per mark (an entry's index: before it; ``("post", i)``: right after the cards of entry
        ``i`` moved), the (players x hands) table of hands that can meet the rest."""
        b = np.ones((self.n, self.nh), dtype=bool)
        out: dict[Any, np.ndarray] = {}
        for kind, q, arr in reversed(self.ops):
            if kind == "mark":
                out[q] = b.copy()
            elif kind == "test":
                b[q] &= arr
            else:
                b[q] = (arr & b[q][None, :]).any(axis=1)
        out.setdefault(0, b)  # no entries (an explanation's weakened log can have none): the deal's own sets
        return out


class _Pruned(_Pass):
    """The card-flow pass that drops, before each entry, inside the preliminary phase's passes
    and right after cards move (before the rows are merged), the rows with a hand that cannot
    meet the rest of the log (:class:`_Backward`).

    The rows that reach the end, and their weights, are the very same as the ordinary pass's
    (a dropped row has no completion, and a merged row keeps the same contributions in the same
    order), so :meth:`result` is the same; only fewer rows are carried, which makes a
    table whose later notes (cards revealed at the end) undo most of the early spread far
    cheaper. Its budgets therefore trip later than the ordinary pass's, which is why
    :func:`solve` does not use it: see :func:`solve_flow`'s ``prune``."""

    def __init__(self, problem: Any, fixed: list[str | None], allowed: list[set[str]], chance: float,
                 sets: dict[Any, np.ndarray]) -> None:
        super().__init__(problem, fixed, allowed, chance)
        self._sets = sets
        self._deal_sets = sets.get(0)
        self._entries_post = {k[1]: v for k, v in sets.items() if isinstance(k, tuple)}

    def preliminary(self, e: dict) -> None:
        self._post = self._entries_post.get(self._entry)
        try:
            super().preliminary(e)
        finally:
            self._post = None

    def move_known(self, a: int, b: int, g: int, t: int) -> None:
        self._post = self._entries_post.get(self._entry)
        try:
            super().move_known(a, b, g, t)
        finally:
            self._post = None

    def hidden_exchange(self, a: int, b: int, changed: dict[int, int | None]) -> None:
        self._post = self._entries_post.get(self._entry)
        try:
            super().hidden_exchange(a, b, changed)
        finally:
            self._post = None

    def merge(self, H: np.ndarray, W: np.ndarray) -> None:
        """Merge the rows that moved, less those with a hand that cannot meet the rest."""
        post = self._post
        if post is not None and len(H):
            keep = post[0][H[:, 0]]
            for q in range(1, self.n):
                keep &= post[q][H[:, q]]
            H, W = H[keep], W[keep]
        super().merge(H, W)

    def _before(self, i: int) -> None:
        self._entry = i
        b = self._sets[i]
        if not len(self.H):
            return
        keep = b[0][self.H[:, 0]]
        for q in range(1, self.n):
            keep &= b[q][self.H[:, q]]
        if not keep.all():
            self.H = self.H[keep]
            self.W = self.W[keep]
            self._check()


# ------------------------------------------------------------------ the deal factored by player


class CardsMoved(Exception):
    """The log moves a card in a way the factored pass cannot represent (an exchange)."""


FACTORED_BUDGET = 40_000_000
"""Most cell updates the factored pass makes (table columns x cells per column x hands summed, for
the forward, backward and marginal sums): about half a second here; past it the caller goes on to
the pruned pass."""


class _Factored(_Pass):
    """The card-flow model for a log in which no card has moved between players but the
    preliminary gifts (no exchange, seen or not, yet): the same worlds and weights as
    :class:`_Pass`, without a row per deal.

    Until then every entry is a test or a chance on one player's holding (a Suspicion answer,
    cards shown, a face-up card, a turn without an instant victory for the characters of each
    class vector), so a deal's weight is a product over players: ``phi[q, hand, column]`` (the
    shuffle's 1 / prod(count!) times every test and chance on the dealt hand) and, after the
    gifts, ``psi[q, holding, column]`` (every test on the holding then); the players are linked
    only by their hands using up the deck and, once the gifts are passed, by the card each gives
    to the right. The sums over deals are a dynamic programme over players in the order the gifts
    travel from me (me, my right neighbour, ..., my left neighbour) whose state is the cards dealt
    so far per suit (the most numerous suit implied by the others) and the card in transit: my
    own gift and the one I received close the ring. Forward and backward tables give every
    player's (holding, column) weight, which :meth:`_Pass.result`'s own tail turns into the
    answer. At 8 players this is a few thousand cells instead of millions of rows.

    An exchange (seen or not), a second passing of the gifts, or gifts passed with mine or the
    one I received not noted raise :class:`CardsMoved`; :func:`solve_factored` then returns
    ``None``."""

    def deal(self, my_hand: tuple[int, ...] | None) -> None:
        self.characters()
        self.phi = np.repeat(np.array(self.uni.weight)[None, :, None], self.n, axis=0)  # (n, nh, 1): lazy
        self.psi: np.ndarray | None = None  # after the gifts: tests on the holdings
        self.gift: tuple[np.ndarray, int, int] | None = None  # per player (hand, suit) chance; mine; received
        self.coef = 1.0

    def _table(self) -> np.ndarray:
        return self.phi if self.psi is None else self.psi

    def expand(self) -> None:
        if self.phi.shape[2] == 1 and self.nv > 1:
            self.phi = np.repeat(self.phi, self.nv, axis=2)
            if self.psi is not None:
                self.psi = np.repeat(self.psi, self.nv, axis=2)

    def restrict(self, q: int, ok_hand: np.ndarray) -> None:
        t = self._table()
        t[q] *= np.asarray(ok_hand, dtype=float)[:, None]
        if not t[q].any():
            raise FlowConflict

    def weigh(self, q: int, like: np.ndarray) -> None:
        self.restrict(q, like)

    def scale(self, f: float) -> None:
        self.coef *= f

    def not_claimed(self, q: int) -> None:
        if len(self.instants) > 1:
            self.expand()
        t = self._table()
        for j in range(1, len(self.instants)):
            cols = self.vec_arr[:, q] == j
            if cols.any():
                sub = t[q][self.inst_hand[j]]
                sub[:, cols] = 0.0
                t[q][self.inst_hand[j]] = sub
        if not t[q].any():
            raise FlowConflict

    def preliminary(self, e: dict) -> None:
        if self._preliminary_opening(e) is None:
            return
        if self.psi is not None or e["gave"] is None or e["received"] is None:
            raise CardsMoved
        # Any card of the giver's hidden hand (as the phase starts), each equally likely.
        pr = np.zeros((self.n, self.nh, 5))
        for q in range(self.n):
            hc, size = self.hidden_counts(q, np.arange(self.nh))
            pr[q] = np.maximum(hc, 0) / float(size)
        self.gift = (pr, e["gave"], e["received"])
        self.psi = np.ones_like(self.phi)
        for q, c in e["face_up"].items():
            self.face_up[q] = c
        for q in range(self.n):
            self.face_rule(q)

    def move_known(self, a: int, b: int, g: int, t: int) -> None:
        raise CardsMoved

    def hidden_exchange(self, a: int, b: int, changed: dict[int, int | None]) -> None:
        raise CardsMoved

    def _local(self, q: int, cols: np.ndarray) -> np.ndarray:
        """``q``'s factor (hand, card received, card given, column) on the columns ``cols``: the
        dealt hand's weight, the gift's chance and the tests on the holding after it."""
        phi = self.phi[q][:, cols]
        if self.gift is None:  # no gifts: received = given = 0, holding = hand
            out = np.zeros((self.nh, 5, 5, len(cols)))
            out[:, 0, 0, :] = phi
            return out
        pr, gave, received = self.gift
        me, n = self.p.me, self.n
        after = self.known.transpose(2, 1, 0)  # (hand, received, given) -> holding or -1
        psi = self.psi[q][:, cols]  # (set with the gift)
        out = np.where((after >= 0)[..., None], psi[np.maximum(after, 0)], 0.0)
        out *= phi[:, None, None, :] * pr[q][:, None, :, None]
        if q == me:
            keep_in, keep_out = received, gave
        else:
            keep_in = gave if q == (me - 1) % n else None
            keep_out = received if q == (me + 1) % n else None
        if keep_in is not None:
            out[:, np.arange(5) != keep_in] = 0.0
        if keep_out is not None:
            out[:, :, np.arange(5) != keep_out] = 0.0
        return out

    def result(self) -> FlowResult:
        n, nh = self.n, self.nh
        me = self.p.me
        self.expand()
        # Columns with equal tables are summed once.
        both = self.phi if self.psi is None else np.concatenate([self.phi, self.psi])
        uniq, inv = np.unique(both.reshape(-1, both.shape[2]).T, axis=0, return_inverse=True)
        inv = inv.ravel()
        first = np.zeros(len(uniq), dtype=np.int64)
        first[inv[::-1]] = np.arange(len(inv))[::-1]  # one original column per table column
        cols = first
        ncol = len(cols)
        deck = np.array(self.p.deck, dtype=np.int64)
        drop = int(np.argmax(deck))
        keep = [s for s in range(5) if s != drop]
        shape = tuple(int(deck[s]) + 1 for s in keep)
        hands = [tuple(int(self.counts[h, s]) for s in keep) for h in range(nh)]
        order = [(me - k) % n for k in range(n)]
        local = [self._local(q, cols) for q in order]
        start = self.gift[2] if self.gift is not None else 0
        fits = [all(k < d for k, d in zip(hands[h], shape, strict=True)) for h in range(nh)]
        live = [[h for h in range(nh) if fits[h] and local[k][h].any()] for k in range(n)]
        if 3 * ncol * math.prod(shape) * 5 * sum(map(len, live)) > FACTORED_BUDGET:
            raise TooLarge
        fwd = [np.zeros((ncol, *shape, 5))]
        fwd[0][(slice(None), 0, 0, 0, 0, start)] = 1.0
        for k in range(n):
            nxt = np.zeros_like(fwd[0])
            for h in live[k]:
                nxt[_cells(shape, hands[h], True)] += np.einsum(
                    "cabdet,tgc->cabdeg", fwd[k][_cells(shape, hands[h], False)], local[k][h])
            fwd.append(nxt)
        end = (slice(None), *(int(deck[s]) for s in keep), start)
        bwd = [np.zeros_like(fwd[0]) for _ in range(n + 1)]
        bwd[n][end] = 1.0
        for k in range(n - 1, -1, -1):
            for h in live[k]:
                bwd[k][_cells(shape, hands[h], False)] += np.einsum("cabdeg,tgc->cabdet",
                                                                    bwd[k + 1][_cells(shape, hands[h], True)],
                                                                    local[k][h])
        col_total = bwd[0][(slice(None), 0, 0, 0, 0, start)][inv] * self.coef  # per original column
        total = float((col_total * self.prior).sum())
        if total <= 0:
            raise FlowConflict
        after = self.known.transpose(2, 1, 0)
        hand_probs: list[dict[int, float]] = [{} for _ in range(n)]
        per_vec_hand: list[np.ndarray] = [np.zeros(0)] * n
        for k, q in enumerate(order):
            m = np.zeros((nh, ncol))
            for h in live[k]:
                pair = np.einsum("cabdet,cabdeg->ctg", fwd[k][_cells(shape, hands[h], False)],
                                 bwd[k + 1][_cells(shape, hands[h], True)])
                w = local[k][h] * pair.transpose(1, 2, 0)  # (received, given, column)
                if self.gift is None:
                    m[h] += w[0, 0]
                    continue
                for t_in, g_out in zip(*np.nonzero(w.any(axis=2)), strict=True):
                    m[after[h, t_in, g_out]] += w[t_in, g_out]
            m = m[:, inv] * self.coef
            acc = (m * self.prior[None, :]).sum(axis=1) / total
            hand_probs[q] = {int(i): float(acc[i]) for i in np.nonzero(acc > 0)[0]}
            per_vec_hand[q] = m * self.prior[None, :] / total
        cells = sum(int(np.count_nonzero(f)) for f in fwd)
        sampler = _FactoredSampler(self, order, local, bwd, hands, shape, col_total * self.prior, inv, start)
        return self._posterior(total, hand_probs, per_vec_hand, cells,
                               {"sampler": sampler, "sols": self.sols, "sol_vec": self.sol_vec,
                                "unknown": self.unknown})


def _cells(shape: tuple[int, ...], hand: tuple[int, ...], after: bool) -> tuple[slice, ...]:
    """Every column's cells of cards used before (``after`` false) or after adding ``hand``, in
    the same order: ``table[_cells(h, True)] += other[_cells(h, False)]`` adds a hand."""
    if after:
        return (slice(None), *(slice(k, d) for d, k in zip(shape, hand, strict=True)))
    return (slice(None), *(slice(0, d - k) for d, k in zip(shape, hand, strict=True)))


class _FactoredSampler:
    """Draws worlds exactly from :class:`_Factored`'s posterior: a class vector by its weight,
    then each player's dealt hand and gift in the order of the dynamic programme, given the cards
    dealt before and the card in transit (the backward tables)."""

    def __init__(self, ps: _Factored, order: list[int], local: list[np.ndarray], bwd: list[np.ndarray],
                 hands: list[tuple[int, ...]], shape: tuple[int, ...], vec_weight: np.ndarray, inv: np.ndarray,
                 start: int) -> None:
        self.order, self.local, self.bwd, self.hands, self.shape = order, local, bwd, hands, shape
        self.vec_weight, self.inv, self.start = vec_weight, inv, start
        self.after = ps.known.transpose(2, 1, 0)
        self.gifts = ps.gift is not None

    def __call__(self, rng: Any) -> tuple[list[int], int]:
        """(holding index per player, class vector)."""
        vec = _draw(self.vec_weight, rng)
        col = int(self.inv[vec])
        used = [0, 0, 0, 0]
        t = self.start
        out = [0] * len(self.order)
        for k, q in enumerate(self.order):
            nh = len(self.hands)
            w = np.zeros((nh, 5))
            for h in range(nh):
                at = tuple(u + x for u, x in zip(used, self.hands[h], strict=True))
                if all(a < d for a, d in zip(at, self.shape, strict=True)):
                    w[h] = self.local[k][h, t, :, col] * self.bwd[k + 1][(col, *at)]
            h, g = divmod(_draw(w.ravel(), rng), 5)
            out[q] = int(self.after[h, t, g]) if self.gifts else h
            used = [u + x for u, x in zip(used, self.hands[h], strict=True)]
            t = g
        return out, vec


def _draw(weights: np.ndarray, rng: Any) -> int:
    """An index drawn with probability proportional to ``weights`` (one ``rng.random()``)."""
    cum = np.cumsum(weights)
    k = int(np.searchsorted(cum, rng.random() * float(cum[-1]), side="right"))
    k = min(k, len(weights) - 1)
    while weights[k] <= 0:
        k -= 1
    return k


def solve_factored(
    problem: Any,
    fixed: list[str | None],
    allowed: list[set[str]],
    subset: Sequence[int] | None = None,
    chance: float = DEFAULT_EXCHANGE_CHANCE,
) -> FlowResult | None:
    """The exact posterior of the card-flow model by :class:`_Factored`, or ``None`` when a card
    has moved between players (or the tables are over :data:`FACTORED_BUDGET`); raises
    :class:`FlowConflict`. Where both run, the same answer as :func:`solve_flow` (to float noise)."""
    entries = [problem.entries[i] for i in (range(len(problem.entries)) if subset is None else subset)]
    ps = _Factored(problem, fixed, allowed, chance)
    try:
        ps.deal(None)
        ps.run(entries)
        return ps.result()
    except (CardsMoved, TooLarge):
        return None


def _my_dealt_hand(problem: Any, entries: Sequence[dict]) -> tuple[int, ...] | None:
    """My dealt hand, when a ``hand`` entry comes before anything could change my cards."""
    me = problem.me
    for e in entries:
        t = e["type"]
        if t == "hand":
            return e["cards"]
        if t == "preliminary":
            return None
        if t == "interrogation" and me in (e["by"], e["target"]) and e["exchange"] != "none":
            return None
    return None


def solve_flow(
    problem: Any,
    fixed: list[str | None],
    allowed: list[set[str]],
    subset: Sequence[int] | None = None,
    chance: float = DEFAULT_EXCHANGE_CHANCE,
    prune: bool = False,
    restricted_deal: bool = False,
) -> FlowResult | None:
    """The exact posterior of the card-flow model for ``problem`` (or the entries in ``subset``);
    ``None`` when the joint state is over the budget; raises :class:`FlowConflict`.

    ``prune`` drops early the rows that cannot reach the end of the log (:class:`_Pruned`): the
    same result whenever the ordinary pass is within its budget, but also one on some tables
    where it is not (a test for explanations; :func:`solvers.ghoul.solver.solve` never prunes,
    so that its answers stay what they are, until the ordinary pass is over its budget).

    ``restricted_deal`` (with ``prune``) lets the pruned pass start from a table whose every deal
    is over ``DEAL_BUDGET``: only the deals within the backward sets are built, under the rows'
    own budget (``solve()``'s second try at 7-8 players, and 6 with the Mask variant)."""
    entries = [problem.entries[i] for i in (range(len(problem.entries)) if subset is None else subset)]
    if prune:
        back = _Backward(problem, fixed, allowed, chance)
        back.run(entries)
        ps: _Pass = _Pruned(problem, fixed, allowed, chance, back.sets())
        ps.restricted_deal = restricted_deal
    else:
        ps = _Pass(problem, fixed, allowed, chance)
    try:
        ps.deal(_my_dealt_hand(problem, entries))
        ps.run(entries)
    except TooLarge:
        return None
    return ps.result()


def sample(fr: FlowResult, fixed: list[str | None], rng: Any) -> tuple[list[int], list[str]]:
    """One world drawn exactly from the posterior: (hand index per player, characters)."""
    if "sampler" in fr.extra:
        hands, vec = fr.extra["sampler"](rng)
        return hands, _characters(fr, fixed, vec, rng)
    H, W = fr.extra["H"], fr.extra["W"]
    flat = W.ravel()
    x = rng.random() * float(flat.sum())
    k = int(np.searchsorted(np.cumsum(flat), x, side="right"))
    k = min(k, len(flat) - 1)
    while flat[k] <= 0:
        k -= 1
    row, vec = divmod(k, W.shape[1])
    return [int(h) for h in H[row]], _characters(fr, fixed, vec, rng)


def _characters(fr: FlowResult, fixed: list[str | None], vec: int, rng: Any) -> list[str]:
    """The characters of one of the assignments behind class vector ``vec``, each alike."""
    pool = [s for s, v in zip(fr.extra["sols"], fr.extra["sol_vec"], strict=True) if v == vec]
    pick = pool[int(rng.random() * len(pool)) % len(pool)]
    chars = [c or "" for c in fixed]
    for q, c in zip(fr.extra["unknown"], pick, strict=True):
        chars[q] = c
    return chars
