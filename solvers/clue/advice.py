"""Rumor advice: which rumor, per location, tells me most about the envelope.

How it is computed.

1. The distribution of the envelope *triple* is exact.  Pick the two categories with the fewest
   envelope candidates; for every candidate pair (a, b) of those categories, count the deals with a
   and b in the envelope, reading the third category's envelope marginal from the same run.  This
   gives the exact (weighted, under the refuter model) count of deals for every triple, with at most
   |candidates_1| x |candidates_2| counting runs.
2. The answer to rumor (S, W, L) asked by me is "the first player clockwise from me who holds one of
   the rumor cards shows one of their matching cards, uniformly" (or nobody shows).  Given the
   envelope, the holders of the rumor cards that are not in the envelope are modelled as
   independent, each distributed as its exact marginal conditioned on not being in the envelope.
   This is the one approximation: capacities correlate the three cards a little, and conditioning on
   the whole envelope triple would shift their marginals a little.  Under it, the answer depends on
   the envelope only through which of S, W, L are in it (8 patterns, whose probabilities come
   exactly from step 1).
3. bits = mutual information I(envelope; answer) = H(answer) - H(answer | envelope pattern), which is
   the entropy of the envelope minus the expected entropy after seeing the answer; it is >= 0.
"""

from __future__ import annotations

from itertools import product
from math import log2
from typing import Any

from solvers.clue.counting import CountResult, count
from solvers.clue.model import Problem, build_inputs


def envelope_triples(
    problem: Problem, *, refuter_model: bool = False, base: CountResult | None = None
) -> tuple[dict[tuple[int, int, int], int], int]:
    """Exact (weighted) deal count for every envelope triple (card indexes s, w, l) and the total.

    ``base`` is the already computed full count with marginals, if the caller has it.
    """
    caps, allowed, clauses, wfactors = build_inputs(problem, range(len(problem.entries)), refuter_model=refuter_model)
    if base is None:
        base = count(caps, allowed, clauses, wfactors, marginals=True)
    if base.total == 0 or base.marg is None:
        return {}, 0
    slots = problem.env_slots
    cands: list[list[int]] = [[] for _ in range(3)]
    for c, cat in enumerate(problem.category):
        if base.marg[c][slots[cat]]:
            cands[cat].append(c)
    order = sorted(range(3), key=lambda k: len(cands[k]))
    i, j, k = order
    triples: dict[tuple[int, int, int], int] = {}
    for a, b in product(cands[i], cands[j]):
        al = list(allowed)
        al[a] &= 1 << slots[i]
        al[b] &= 1 << slots[j]
        res = count(caps, al, clauses, wfactors, marginals=True)
        if res.total == 0 or res.marg is None:
            continue
        for c in cands[k]:
            v = res.marg[c][slots[k]]
            if v:
                trip = [0, 0, 0]
                trip[i], trip[j], trip[k] = a, b, c
                triples[(trip[0], trip[1], trip[2])] = v
    return triples, base.total


def compute_advice(problem: Problem, *, refuter_model: bool = False, base: CountResult | None = None) -> dict[str, Any]:
    """Best envelope guess and, for every location, the most informative rumor for ``me``."""
    if base is None:
        caps, allowed, clauses, wfactors = build_inputs(
            problem, range(len(problem.entries)), refuter_model=refuter_model
        )
        base = count(caps, allowed, clauses, wfactors)
    triples, total = envelope_triples(problem, refuter_model=refuter_model, base=base)
    if total == 0 or base.marg is None:
        return {"best_envelope": None, "rumors": {}}
    marg = base.marg
    names = problem.cards
    best = max(sorted(triples), key=lambda t: triples[t])
    scorer = RumorScorer(problem, triples, total, marg)
    rumors: dict[str, dict[str, Any]] = {}
    suspects = [c for c, cat in enumerate(problem.category) if cat == 0]
    weapons = [c for c, cat in enumerate(problem.category) if cat == 1]
    locations = [c for c, cat in enumerate(problem.category) if cat == 2]
    for loc in locations:
        best_sw = None
        best_bits = -1.0
        for s in suspects:
            for w in weapons:
                bits = scorer.bits(s, w, loc)
                if bits > best_bits + 1e-12:
                    best_bits = bits
                    best_sw = (s, w)
        assert best_sw is not None
        rumors[names[loc]] = {"suspect": names[best_sw[0]], "weapon": names[best_sw[1]], "bits": max(best_bits, 0.0)}
    return {
        "best_envelope": {"cards": [names[c] for c in best], "p": triples[best] / total},
        "rumors": rumors,
    }


class RumorScorer:
    """Expected information (bits) about the envelope from one rumor asked by ``me``."""

    def __init__(
        self, problem: Problem, triples: dict[tuple[int, int, int], int], total: int, marg: list[list[int]]
    ) -> None:
        self.problem = problem
        n = len(problem.cards)
        self.p1 = [0.0] * n
        self.p2: dict[tuple[int, int], float] = {}
        self.p3 = {t: v / total for t, v in triples.items()}
        for (s, w, loc), p in self.p3.items():
            self.p1[s] += p
            self.p1[w] += p
            self.p1[loc] += p
            for pair in ((s, w), (s, loc), (w, loc)):
                self.p2[pair] = self.p2.get(pair, 0.0) + p
        nplayers = len(problem.players)
        self.order = [(problem.me + i) % nplayers for i in range(1, nplayers)]
        # q[c][i]: P(card c is with the i-th player clockwise from me | c not in the envelope).
        slots = problem.env_slots
        self.q: list[list[float]] = []
        for c in range(n):
            row = marg[c]
            out = sum(row) - row[slots[problem.category[c]]]
            self.q.append([row[x] / out if out else 0.0 for x in self.order])
        self._answers: dict[tuple[int, ...], dict[int, float]] = {}

    def answers(self, cards: tuple[int, ...]) -> dict[int, float]:
        """Distribution of the answer when exactly ``cards`` are outside the envelope.

        Outcome code: ``i * n_cards + card`` = the i-th player clockwise shows ``card``; -1 = nobody.
        """
        cached = self._answers.get(cards)
        if cached is not None:
            return cached
        n = len(self.problem.cards)
        dist: dict[int, float] = {}
        before = [0.0] * len(cards)  # P(card held by one of the players already passed)
        k = len(cards)
        for i in range(len(self.order)):
            qi = [self.q[c][i] for c in cards]
            for mask in range(1, 1 << k):
                p = 1.0
                size = 0
                for t in range(k):
                    if mask >> t & 1:
                        p *= qi[t]
                        size += 1
                    else:
                        p *= 1.0 - before[t] - qi[t]
                    if p <= 0.0:
                        break
                if p <= 0.0:
                    continue
                share = p / size
                for t in range(k):
                    if mask >> t & 1:
                        code = i * n + cards[t]
                        dist[code] = dist.get(code, 0.0) + share
            before = [before[t] + qi[t] for t in range(k)]
        nobody = 1.0
        for t in range(k):
            nobody *= max(0.0, 1.0 - before[t])
        if nobody > 0.0:
            dist[-1] = nobody
        self._answers[cards] = dist
        return dist

    def bits(self, s: int, w: int, loc: int) -> float:
        """Mutual information between the envelope and the answer to rumor (s, w, loc)."""
        p1, p2 = self.p1, self.p2
        pswl = self.p3.get((s, w, loc), 0.0)
        psw, psl, pwl = p2.get((s, w), 0.0), p2.get((s, loc), 0.0), p2.get((w, loc), 0.0)
        ps, pw, pl = p1[s], p1[w], p1[loc]
        patterns = (
            (pswl, ()),
            (psw - pswl, (loc,)),
            (psl - pswl, (w,)),
            (pwl - pswl, (s,)),
            (ps - psw - psl + pswl, (w, loc)),
            (pw - psw - pwl + pswl, (s, loc)),
            (pl - psl - pwl + pswl, (s, w)),
            (1.0 - ps - pw - pl + psw + psl + pwl - pswl, (s, w, loc)),
        )
        mix: dict[int, float] = {}
        parts: list[tuple[float, dict[int, float]]] = []
        for p, outside in patterns:
            if p <= 1e-15:
                continue
            dist = self.answers(outside) if outside else {-1: 1.0}
            parts.append((p, dist))
            for code, v in dist.items():
                mix[code] = mix.get(code, 0.0) + p * v
        info = 0.0
        for p, dist in parts:
            for code, v in dist.items():
                if v > 0.0:
                    info += p * v * log2(v / mix[code])
        return max(info, 0.0)
