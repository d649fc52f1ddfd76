"""Tokyo Ghoul probabilities by sampled deals, with a 95% error that holds, where counting runs out.

At 7-8 players (and 6 with the Mask variant) the exact card-flow pass of
:mod:`solvers.ghoul.flow` cannot hold every deal. This estimator keeps its exactness for
everything *after* the deal and samples only the deal:

1. The deals are drawn from the uniform shuffle restricted to hands each player could have
   been dealt and still meet the log alone (:class:`flow._Backward`'s sets before the first
   entry): a backward count over the cards left per suit, then player by player forwards.
   No deal of positive weight is outside those sets, so this is a valid importance proposal.
2. Each batch of drawn deals goes through the card-flow pass itself (:class:`flow._Pruned`):
   every hidden choice afterwards is summed exactly, so a deal's importance weight is the
   exact chance of the whole log given that deal (the shuffle's weight cancels).
3. The estimate of each probability is the ratio of the batches' sums; its error comes from
   the spread between the ``BATCHES``-or-more independent batches (the ratio estimator's delta
   method, Student's t with batches - 1 degrees of freedom), and batches are added until the
   widest 95% half-width over every probability reported (each player's suits at least one and
   at least two, every identity) is at most ``TARGET`` or the work budget is spent.

The half-width is stated in the answer (``"error_95"``); ``tests/solvers/test_ghoul_sampled.py``
checks on tables the exact pass also solves that the exact answers lie within it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from solvers.ghoul.flow import FlowConflict, FlowResult, TooLarge, _Backward, _Pruned
from solvers.ghoul.hands import universe

TARGET = 0.02
"""The 95% half-width the sampler aims at (the widest over every probability it reports)."""

BATCHES = 12
"""Fewest independent batches behind an error estimate."""

BATCH_DEALS = 100
"""Deals drawn in the first batch; the others are sized so that ``BATCHES`` fit in the work budget
(at most ``MAX_BATCH_DEALS``: larger batches cost less per deal)."""

MAX_BATCH_DEALS = 3000

WORK_BUDGET = 6000000
"""How much the sampler may do before it reports the error it reached, in rows x class columns
merged by the passes (a count, not a clock, so that the same log always gets the same answer;
about 0.6 s of CPU on the benchmark machine)."""

ENTRY_WORK = 2000
"""An entry's fixed cost in the pass, in rows x columns (the work measure's constant)."""

MIN_BATCH_DEALS = 10
"""Fewest deals per batch: below it the sampler gives up (the bound answers)."""

MAX_BATCHES = 400

SEED = 21
"""The sampler's own seed: the same log gets the same answer."""

# Student's t, two-sided 95%, by degrees of freedom (beyond the table: 1.96 + 2.4/df).
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23,
        11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09,
        20: 2.09, 25: 2.06, 30: 2.04}


def t95(df: int) -> float:
    """Student's t quantile for a two-sided 95% interval with ``df`` degrees of freedom."""
    if df in _T95:
        return _T95[df]
    if df < 30:
        return _T95[max(k for k in _T95 if k <= df)]
    return 1.96 + 2.4 / df


@dataclass
class Sampled:
    """The combined estimate (a :class:`FlowResult` whose numbers are estimates), its error."""

    result: FlowResult
    error: float
    deals: int
    batches: int


@lru_cache(maxsize=16)
def _backward_counts(hand_size: int, deck: tuple[int, ...], allowed: tuple[tuple[bool, ...], ...]) -> np.ndarray:
    """B[q][rem]: the weight of dealing players q.. from the cards ``rem`` (per suit), each hand
    in its allowed set, weighted by the shuffle (1 / prod count!). Every suit's axis starts
    ``hand_size`` cells early (zeros), so ``rem - h`` is always an index: 0 where it is negative."""
    uni = universe(hand_size, deck)
    n = len(allowed)
    pad = hand_size
    shape = tuple(int(d) + 1 + pad for d in deck)
    out = np.zeros((n + 1, *shape))
    out[(n, *(pad,) * 5)] = 1.0
    for q in range(n - 1, -1, -1):
        b = np.zeros(shape)
        nxt = out[q + 1]
        for i, h in enumerate(uni.hands):
            if not allowed[q][i]:
                continue
            # b[rem] += w * nxt[rem - h] over the real cells rem >= 0.
            src = tuple(slice(pad - k, d - k) for d, k in zip(shape, h, strict=True))
            dst = tuple(slice(pad, d) for d in shape)
            b[dst] += uni.weight[i] * nxt[src]
        out[q] = b
    return out


def draw_deals(
    hand_size: int, deck: tuple[int, ...], allowed: np.ndarray, k: int, rng: np.random.Generator
) -> np.ndarray:
    """``k`` deals (hand index per player) from the shuffle restricted to ``allowed`` (players x
    hands); raises :class:`FlowConflict` when no deal fits."""
    uni = universe(hand_size, deck)
    n, nh = allowed.shape
    B = _backward_counts(hand_size, deck, tuple(tuple(bool(x) for x in row) for row in allowed))
    pad = hand_size
    shape = B.shape[1:]
    if B[(0, *(d + pad for d in deck))] <= 0:
        raise FlowConflict
    radix = np.cumprod((1, *shape[:0:-1]))[::-1].astype(np.int64)
    counts = np.array(uni.hands, dtype=np.int64).reshape(nh, 5)
    hcode = counts @ radix
    flat = B.reshape(n + 1, -1)
    w = np.array(uni.weight)
    code = np.full(k, int((np.array(deck) + pad) @ radix), dtype=np.int64)
    out = np.zeros((k, n), dtype=np.int64)
    for q in range(n):
        p = flat[q + 1][code[:, None] - hcode[None, :]] * (w * allowed[q])[None, :]
        cum = np.cumsum(p, axis=1)
        u = rng.random(k) * cum[:, -1]
        pick = np.minimum((cum < u[:, None]).sum(axis=1), nh - 1)
        out[:, q] = pick
        code = code - hcode[pick]
    return out


class _FromDeals(_Pruned):
    """The pruned card-flow pass started from given deals (each with its multiplicity) instead
    of every deal."""

    def __init__(self, problem: Any, fixed: list[str | None], allowed: list[set[str]], chance: float,
                 sets: dict[Any, np.ndarray], deals: np.ndarray) -> None:
        super().__init__(problem, fixed, allowed, chance, sets)
        self._given = deals
        self.work = 0  # rows x class columns merged: a measure of the pass's cost, not a clock

    def _merge_rows(self, H: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.work += len(H) * (1 + W.shape[1])
        return super()._merge_rows(H, W)

    def _before(self, i: int) -> None:
        # The rows an entry's tests go over, and its fixed cost (as many rows).
        self.work += len(self.H) * (1 + self.W.shape[1]) + ENTRY_WORK
        super()._before(i)

    def deal(self, my_hand: tuple[int, ...] | None) -> None:
        self.characters()
        rows, mult = np.unique(self._given, axis=0, return_counts=True)
        self.H = rows.astype(np.int64)
        self.W = mult.astype(float)[:, None]
        self.lazy = True
        self.prune()


class _Summary:
    """Every probability reported (each player's suits at least one and at least two, every
    identity), unnormalised, from a finished pass's rows: one vector per batch."""

    def __init__(self, ps: _FromDeals, chars: list[str]) -> None:
        self.chars = chars
        self.at_least = np.stack([ps.counts >= 1, ps.counts >= 2], axis=2).reshape(ps.nh, 10).astype(float)
        cidx = {c: k for k, c in enumerate(chars)}
        self.share = {}
        for k, q in enumerate(ps.unknown):
            share = np.zeros((ps.nv, len(chars)))
            for sol, v in zip(ps.sols, ps.sol_vec, strict=True):
                share[v, cidx[sol[k]]] += 1.0 / ps.prior[v]
            self.share[q] = share
        self.fixed = {q: cidx[c] for q, c in enumerate(ps._fixed) if c is not None}

    def __call__(self, ps: _FromDeals) -> np.ndarray:
        ps.expand()
        rows = ps.W.sum(axis=1)
        out = []
        for q in range(ps.n):
            hand = np.bincount(ps.H[:, q], weights=rows, minlength=ps.nh)
            out.append(hand @ self.at_least)
            if q in self.share:
                out.append(ps.W.sum(axis=0) @ self.share[q])
            else:
                ident = np.zeros(len(self.chars))
                ident[self.fixed[q]] = rows.sum()
                out.append(ident)
        return np.concatenate(out)


def estimate(
    problem: Any,
    fixed: list[str | None],
    allowed: list[set[str]],
    chance: float,
    subset: Sequence[int] | None = None,
    target: float = TARGET,
    budget: int = WORK_BUDGET,
    seed: int = SEED,
) -> Sampled | None:
    """The card-flow posterior estimated from sampled deals (see the module docstring); ``None``
    when even a small batch is over the pass's budget, or when no drawn deal fits; raises
    :class:`FlowConflict` only when no deal is possible at all (none within the sets)."""
    work = 0
    entries = [problem.entries[i] for i in (range(len(problem.entries)) if subset is None else subset)]
    back = _Backward(problem, fixed, allowed, chance)
    back.run(entries)
    sets = back.sets()
    chars = sorted(problem.cast)
    rng = np.random.default_rng(seed)
    summary: _Summary | None = None
    rows: list[tuple[np.ndarray, np.ndarray]] = []
    vecs: list[np.ndarray] = []
    totals: list[float] = []
    drawn = 0
    err = float("inf")
    last: _FromDeals | None = None
    size = BATCH_DEALS
    while len(totals) < MAX_BATCHES:
        deals = draw_deals(problem.hand_size, problem.deck, sets[0], size, rng)
        ps = _FromDeals(problem, fixed, allowed, chance, sets, deals)
        try:
            ps.deal(None)
            ps.run(entries)
            ps.expand()
        except TooLarge:
            # Too many rows after the hidden choices: smaller batches (the batch is not used,
            # which biases nothing: whether it was too large does not depend on its weights).
            if size <= MIN_BATCH_DEALS or totals:
                return None
            size = max(MIN_BATCH_DEALS, size // 4)
            continue
        except FlowConflict:
            # No deal of this batch fits: a batch of weight 0 (it still counts).
            totals.append(0.0)
            vecs.append(np.zeros(0))
        else:
            if summary is None:
                summary = _Summary(ps, chars)
            last = ps
            rows.append((ps.H, ps.W))
            vecs.append(summary(ps))
            totals.append(float(ps.W.sum()))
        drawn += len(deals)
        work += ps.work
        if len(totals) == 1:
            # Batches sized so that ``BATCHES`` of them fit in the budget.
            size = min(MAX_BATCH_DEALS, max(MIN_BATCH_DEALS, int(size * budget / (BATCHES * max(ps.work, 1)))))
        if len(totals) >= BATCHES:
            if last is None:
                # No drawn deal fits (yet some deal may: only CP-SAT can say there is none).
                return None
            err = _error(vecs, totals)
            if err <= target or work > budget:
                break
    if last is None:
        return None
    # One result over every batch's rows: the ratio estimates. Equal rows of different batches
    # are left apart (merging them would change no number, and cost more than the result itself).
    last.H = np.concatenate([h for h, _w in rows])
    last.W = np.concatenate([w for _h, w in rows])
    fr = last.result()
    # The weight of the worlds that fit, estimated: the proposal's mass times the mean weight.
    mass = _backward_counts(problem.hand_size, problem.deck, tuple(tuple(bool(x) for x in r) for r in sets[0]))
    fr.total *= float(mass[(0, *(d + problem.hand_size for d in problem.deck))]) / drawn
    return Sampled(result=fr, error=err, deals=drawn, batches=len(totals))


def _error(vecs: list[np.ndarray], totals: list[float]) -> float:
    """The widest 95% half-width of the ratio estimates over the batches."""
    size = max(len(v) for v in vecs)
    F = np.array([v if len(v) else np.zeros(size) for v in vecs])
    T = np.array(totals)
    b = len(T)
    mu = F.sum(axis=0) / T.sum()
    resid = F - mu[None, :] * T[:, None]
    var = (resid**2).sum(axis=0) * b / (b - 1) / T.sum() ** 2
    return float(t95(b - 1) * np.sqrt(var.max()))
