"""Where every mask sits: a distribution over card layouts, for one seat.

A *layout* gives the mask in front of every place (players, then table cards). The seat
starts from the opening (every card shown face up, so one layout is certain) and updates:

* a swap-or-pretend it did not decide (someone else's, or a Fool's between two others) splits
  every layout in two — the cards at the two places exchanged, with the prior probability ``q``
  that this player really swaps, or left alone with ``1 - q``;
* a swap it decided (its own, its Fool, its Spy) and the Puppeteer's trade are certain;
* a card it saw (its look, its Spy look, a Princess showing, a public reveal) keeps only the
  layouts that agree;
* optionally, a claim nobody contested multiplies the weight of the layouts that agree by a
  likelihood ratio (soft evidence; off by default).

A row of the support may be *partial*: places the seat has never seen hold ``FREE``, and the
row stands for every way to deal the masks it has not pinned onto them, all equally likely.
That is exact because a uniform deal stays uniform under any swap of two unseen places: with
no opening, the belief starts as one all-free row, a hidden swap between two free places
changes nothing, a hidden swap between a seen place and a free one moves the pin (or not), and
seeing a free place pins it with weight (copies of that mask still unplaced) / (free places).
So large tables without an opening stay exact for as long as they would with one.

Exact mode keeps every reachable (partial) layout with its weight (identical rows merged), so
the probabilities are exact up to float rounding and the certain facts are complete. Each hidden
swap at most doubles the support, and it can never exceed the number of distinct layouts
(720 with 4-6 players, 20,160 with 8). When the support would pass ``exact_limit`` the belief
switches to *particles*: :data:`REPLICAS` independent particle filters, each started from its own
draw of the exact distribution and then run with the same update followed by resampling down to
``particles / REPLICAS`` weighted layouts (sampling importance resampling). The probabilities are
the replicas' mean, and the stated error bound is the 95% half-width of that mean read off the
spread of the replicas (Student's t, the widest over every place and mask), plus the floor below.
An effective sample size would not do: it restarts at every resampling, so a collapse of the
weights (most particles killed by what the seat saw) is forgotten and the bound is far too small
(issue 21: a stated 0.012 against runs that disagree by 0.4). Independent replicas that collapse
onto different layouts disagree, and the bound shows it. Particle mode mixes a small floor over
every mask a sound propagation still allows (so the truth never gets probability 0), and takes
its certain facts from that propagation (sound, possibly incomplete).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from engine.core import Rng

FREE = -1  # a place this seat has not seen since the cards were dealt (see the module doc)
FLOOR = 0.005  # particle mode: weight mixed over every still-possible mask (see module doc)
MIN_Q, MAX_Q = 0.001, 0.999
REPLICAS = 8  # particle mode: independent filters whose spread states the error (see module doc)
T_975 = 2.364624  # Student's t, 97.5% quantile, REPLICAS - 1 degrees of freedom


class Contradiction(Exception):
    """No layout fits what was observed."""


class Belief:
    """The distribution over layouts, updated one observation at a time."""

    def __init__(self, cards: Sequence[str], opening: Sequence[str] | None = None, *,
                 exact_limit: int = 200_000, particles: int = 20_000, seed: int = 0) -> None:
        self.ids: list[str] = list(dict.fromkeys(cards))
        self.index = {m: i for i, m in enumerate(self.ids)}
        self.counts = np.array([list(cards).count(m) for m in self.ids], dtype=np.int64)
        self.P = len(cards)
        self.M = len(self.ids)
        self.exact_limit = max(1, exact_limit)
        self.particles = max(1, min(particles, exact_limit))
        self.rng = np.random.default_rng(seed)
        self._pow = np.array([(self.M + 1) ** i for i in range(self.P)], dtype=np.int64)
        self.exact = True
        self.degraded = False
        self.ess = math.inf
        self.replicas: list[Belief] | None = None  # particle mode: the independent filters
        if opening is not None:
            if sorted(opening) != sorted(cards):
                raise ValueError("The opening layout does not hold exactly the game's cards.")
            self.perms = np.array([[self.index[m] for m in opening]], dtype=np.int8)
            self.w = np.ones(1)
        else:
            self._start_uniform(cards)
        self.poss = self._support_poss()

    # ------------------------------------------------------------------ set-up

    def _start_uniform(self, cards: Sequence[str]) -> None:
        """No opening seen: every distinct layout equally likely, as one all-free row (exact)."""
        del cards
        self.perms = np.full((1, self.P), FREE, dtype=np.int8)
        self.w = np.ones(1)

    def copy(self) -> Belief:
        """An independent copy (for what-if reasoning) with its own random stream."""
        b = Belief.__new__(Belief)
        b.__dict__.update(self.__dict__)
        b.perms = self.perms.copy()
        b.w = self.w.copy()
        b.poss = self.poss.copy()
        b.rng = np.random.default_rng(self.rng.integers(1 << 62))
        if self.replicas is not None:
            b.replicas = [r.copy() for r in self.replicas]
        return b

    # ------------------------------------------------------------------ internals

    def _merge(self) -> None:
        keys = (self.perms.astype(np.int64) + 1) @ self._pow
        uniq, first, inv = np.unique(keys, return_index=True, return_inverse=True)
        if len(uniq) != len(keys):
            self.w = np.bincount(inv, weights=self.w, minlength=len(uniq))  # type: ignore[assignment]  # floats
            self.perms = self.perms[first]

    def _normalise(self) -> None:
        total = self.w.sum()
        if not total > 0:
            raise Contradiction("no layout fits the observations")
        self.w = self.w / total

    def _partial(self) -> bool:
        return bool((self.perms < 0).any())

    def _left(self) -> tuple[np.ndarray, np.ndarray]:
        """Per row: the copies of each mask not pinned anywhere, and the number of free places."""
        pinned = np.stack([(self.perms == m).sum(axis=1) for m in range(self.M)], axis=1)
        return self.counts[None, :] - pinned, (self.perms < 0).sum(axis=1)

    def _support_poss(self) -> np.ndarray:
        """Which mask each place can hold, read off the support (exact mode: complete).

        A free place can hold any mask the row still has a copy of: the rest of the row's free
        places can always take the other copies.
        """
        poss = np.zeros((self.P, self.M), dtype=bool)
        left = None
        if self._partial():
            left, _nfree = self._left()
        for p in range(self.P):
            col = self.perms[:, p]
            vals = np.unique(col[col >= 0])
            poss[p, vals] = True
            if left is not None:
                free = col < 0
                if free.any():
                    poss[p] |= (left[free] > 0).any(axis=0)
        return poss

    def _propagate(self) -> None:
        """Sound pruning of ``poss`` (particle mode): all-different with the mask counts."""
        poss = self.poss
        changed = True
        while changed:
            changed = False
            sizes = poss.sum(axis=1)
            if (sizes == 0).any():
                raise Contradiction("a place can hold no mask")
            single = sizes == 1
            for m in range(self.M):
                fixed = single & poss[:, m]
                nf = int(fixed.sum())
                c = int(self.counts[m])
                if nf > c:
                    raise Contradiction("too many places hold one mask")
                if nf == c:
                    drop = poss[:, m] & ~fixed
                    if drop.any():
                        poss[drop, m] = False
                        changed = True
                cand = poss[:, m]
                nc = int(cand.sum())
                if nc < c:
                    raise Contradiction("a mask has no place left")
                if nc == c:
                    forced = cand & ~single  # only c places left for c copies: they hold m
                    if forced.any():
                        poss[forced] = False
                        poss[forced, m] = True
                        changed = True

    def _resample(self) -> None:
        """Particle mode: draw ``particles`` layouts by weight (systematic), merge duplicates."""
        k = self.particles
        cum = np.cumsum(self.w)
        cum /= cum[-1]
        u = (self.rng.random() + np.arange(k)) / k
        idx = np.searchsorted(cum, u, side="left")
        idx = np.minimum(idx, len(self.w) - 1)
        self.perms = self.perms[idx]
        self.w = np.full(k, 1.0 / k)
        self._merge()
        self.ess = float(k)

    # ------------------------------------------------------------------ updates

    def swap(self, a: int, b: int, q: float = 0.5) -> None:
        """A swap-or-pretend between places ``a`` and ``b`` whose outcome this seat does not know."""
        if a == b:
            return
        if self.replicas is not None:
            for r in self.replicas:
                r.swap(a, b, q)
            return
        q = min(MAX_Q, max(MIN_Q, q))
        if not self.exact:  # the sound sets widen whatever the particles say
            row_a = self.poss[a] | self.poss[b]
            self.poss[a] = row_a
            self.poss[b] = row_a
        differ = self.perms[:, a] != self.perms[:, b]
        if not differ.any():
            return
        moved = self.perms[differ].copy()
        moved[:, [a, b]] = moved[:, [b, a]]
        wm = self.w[differ] * q
        self.w = self.w.copy()
        self.w[differ] *= 1.0 - q
        self.perms = np.concatenate([self.perms, moved])
        self.w = np.concatenate([self.w, wm])
        self._merge()
        self._check_size()

    def _check_size(self) -> None:
        """Past ``exact_limit`` rows the belief turns to particles; in particle mode it stays at ``particles``."""
        if self.exact and len(self.w) > self.exact_limit:
            self.poss = self._support_poss()  # complete at this moment; sound from now on
            self.exact = False
            self._split()
        elif not self.exact and len(self.w) > self.particles:
            self._resample()

    def _split(self) -> None:
        """Turn to particles: :data:`REPLICAS` independent filters, each resampled from the exact
        distribution with its own random stream; this object then only hands updates on."""
        per = max(1, self.particles // REPLICAS)
        reps = []
        for _ in range(REPLICAS):
            r = self.copy()
            r.particles = per
            r._resample()
            reps.append(r)
        self.replicas = reps
        self.perms = self.perms[:0]
        self.w = self.w[:0]

    def swap_known(self, a: int, b: int, swapped: bool) -> None:
        """A swap this seat decided (or the Puppeteer's certain trade)."""
        if not swapped or a == b:
            return
        if self.replicas is not None:
            for r in self.replicas:
                r.swap_known(a, b, swapped)
            return
        self.perms = self.perms.copy()
        self.perms[:, [a, b]] = self.perms[:, [b, a]]
        self.poss[[a, b]] = self.poss[[b, a]]

    def observe(self, place: int, mask: str) -> None:
        """This seat saw ``mask`` at ``place``. Raises Contradiction if no layout agrees."""
        m = self.index.get(mask)
        if m is None:
            raise Contradiction(f"{mask!r} is not in this game")
        if self.replicas is not None:  # the sound sets are the same in every replica: all fit or none
            for r in self.replicas:
                r.observe(place, mask)
            return
        col = self.perms[:, place]
        factor = (col == m).astype(float)
        free = col < 0
        if free.any():
            left, nfree = self._left()
            factor[free] = left[free, m] / nfree[free]  # the chance the unseen card there is ``mask``
        keep = factor > 0
        if not keep.any():
            if self.exact or not self.poss[place, m]:
                raise Contradiction(f"{mask!r} cannot be there")
            self._rejuvenate(place, m)
            return
        before = float(self.w.sum())
        self.perms = self.perms[keep].copy()
        self.perms[:, place] = m
        self.w = self.w[keep] * factor[keep]
        kept = float(self.w.sum() / before)
        self._merge()
        self._normalise()
        if not self.exact:
            self.ess *= kept  # the particles that survive
            self.poss[place] = False
            self.poss[place, m] = True
            self._propagate()

    def _pin(self, place: int) -> None:
        """Split every row where ``place`` is free into one row per mask it could be (exactly)."""
        col = self.perms[:, place]
        free = col < 0
        if not free.any():
            return
        left, nfree = self._left()
        rows, ws = [self.perms[~free]], [self.w[~free]]
        fp, fw, fl, fn = self.perms[free], self.w[free], left[free], nfree[free]
        for m in range(self.M):
            has = fl[:, m] > 0
            if has.any():
                r = fp[has].copy()
                r[:, place] = m
                rows.append(r)
                ws.append(fw[has] * fl[has, m] / fn[has])
        self.perms = np.concatenate(rows)
        self.w = np.concatenate(ws)
        self._merge()
        self._check_size()

    def weigh(self, place: int, mask: str, ratio: float) -> None:
        """Soft evidence: layouts with ``mask`` at ``place`` become ``ratio`` times as likely."""
        m = self.index.get(mask)
        if m is None or ratio == 1.0 or ratio <= 0:
            return
        if self.replicas is not None:
            for rep in self.replicas:
                rep.weigh(place, mask, ratio)
            return
        self._pin(place)
        r = np.where(self.perms[:, place] == m, ratio, 1.0)
        if not self.exact:  # Kish's effective sample size after reweighting
            self.ess *= float((self.w @ r) ** 2 / (self.w @ (r * r)) / self.w.sum())
        self.w = self.w * r
        self._normalise()

    def _rejuvenate(self, place: int, m: int) -> None:
        """Particle depletion: no particle agrees, but the layout is still possible.

        Draw fresh layouts among those the propagation allows (place by place, uniformly among
        the masks still allowed and not used up). The probabilities are then no longer a fair
        sample of the posterior: ``degraded`` is set and the error bound becomes 1.
        """
        self.poss[place] = False
        self.poss[place, m] = True
        self._propagate()
        rows = self._sample_allowed(self.particles)
        for _ in range(20):
            if len(rows):
                break
            rows = self._sample_allowed(self.particles)
        if not len(rows):
            raise Contradiction("no layout found that fits the observations")
        self.perms = rows
        self.w = np.full(len(rows), 1.0 / len(rows))
        self._merge()
        self.degraded = True
        self.ess = 1.0

    def _sample_allowed(self, k: int) -> np.ndarray:
        """``k`` random layouts drawn place by place within ``poss`` (dead ends dropped), vectorised."""
        left = np.tile(self.counts, (k, 1))
        rows = np.zeros((k, self.P), dtype=np.int8)
        alive = np.ones(k, dtype=bool)
        for p in np.argsort(self.poss.sum(axis=1), kind="stable"):
            ok = (left > 0) & self.poss[p][None, :]
            score = np.where(ok, self.rng.random((k, self.M)), -1.0)
            pick = score.argmax(axis=1)
            alive &= ok.any(axis=1)
            rows[:, p] = pick
            left[np.arange(k), pick] -= 1
        return rows[alive]

    def sample(self, rng: Rng) -> tuple[str, ...]:
        """One full layout drawn from the distribution: a row by its weight, then the masks it has
        not pinned dealt uniformly onto its free places (each fill of a row is equally likely)."""
        x = rng.random()
        cum = np.cumsum(self.w)
        i = min(int(np.searchsorted(cum, x * cum[-1], side="right")), len(self.w) - 1)
        row = self.perms[i].tolist()
        free = [p for p, v in enumerate(row) if v < 0]
        if free:
            left = self.counts.copy()
            for v in row:
                if v >= 0:
                    left[v] -= 1
            bag = rng.shuffled([m for m in range(self.M) for _ in range(int(left[m]))])
            for p, m in zip(free, bag, strict=True):
                row[p] = m
        return tuple(self.ids[v] for v in row)

    # ------------------------------------------------------------------ reading

    def unseen(self) -> int:
        """Places free in some row: never seen since the deal, each of their fills equally likely."""
        if self.replicas is not None:
            return max(r.unseen() for r in self.replicas)
        return int((self.perms < 0).any(axis=0).sum())

    def size(self) -> int:
        """Rows in the support: full layouts, or partial ones standing for every way to fill their free places."""
        if self.replicas is not None:
            return sum(r.size() for r in self.replicas)
        return len(self.w)

    def marginals(self) -> np.ndarray:
        """``[place, mask]`` probabilities (rows sum to 1); in particle mode the replicas' mean."""
        if self.replicas is not None:
            return np.mean([r.marginals() for r in self.replicas], axis=0)
        out = np.empty((self.P, self.M))
        spread = None
        if self._partial():
            left, nfree = self._left()
            spread = np.where(nfree[:, None] > 0, left / np.maximum(nfree, 1)[:, None], 0.0) * self.w[:, None]
        for p in range(self.P):
            col = self.perms[:, p]
            pinned = col >= 0
            out[p] = np.bincount(col[pinned], weights=self.w[pinned], minlength=self.M)
            if spread is not None and not pinned.all():
                out[p] += spread[~pinned].sum(axis=0)
        if not self.exact:
            allowed = self.poss / self.poss.sum(axis=1, keepdims=True)
            out = (1.0 - FLOOR) * out + FLOOR * allowed
        return out

    def possible(self) -> np.ndarray:
        """``[place, mask]`` booleans: may the mask be there? (exact mode: exactly the support)."""
        if self.replicas is not None:
            return self.replicas[0].possible()
        return self._support_poss() if self.exact else self.poss.copy()

    def error_bound(self) -> float:
        """0 when exact; else the 95% half-width of every probability, from the replicas' spread
        (1 when a replica had to draw fresh layouts: its sample is no longer fair)."""
        if self.exact:
            return 0.0
        if self.degraded or self.replicas is None or any(r.degraded for r in self.replicas):
            return 1.0
        each = np.array([r.marginals() for r in self.replicas])
        spread = float(each.std(axis=0, ddof=1).max())
        return min(1.0, T_975 * spread / math.sqrt(len(self.replicas)) + FLOOR)

    def layouts(self) -> list[tuple[tuple[str, ...], float]]:
        """The support as (full layout, weight) pairs, partial rows expanded (for tests and small cases)."""
        out: dict[tuple[str, ...], float] = {}
        if self.replicas is not None:
            for r in self.replicas:
                for lay, w in r.layouts():
                    out[lay] = out.get(lay, 0.0) + w / len(self.replicas)
            return list(out.items())
        left, nfree = self._left()
        for row, w, lf, nf in zip(self.perms.tolist(), self.w.tolist(), left.tolist(), nfree.tolist(), strict=True):
            if nf == 0:
                fills: list[tuple[int, ...]] = [()]
            else:
                bag = [m for m in range(self.M) for _ in range(lf[m])]
                fills = sorted(set(itertools.permutations(bag)))
            share = w / len(fills)
            for fill in fills:
                it = iter(fill)
                lay = tuple(self.ids[v if v >= 0 else next(it)] for v in row)
                out[lay] = out.get(lay, 0.0) + share
        return list(out.items())
