"""Rumor advice: what each rumor I can make is expected to tell, under the exact posterior.

The model.  The posterior over deals is the solver's (uniform over the deals that fit the log,
or weighted by the refuter model when it is on).  The answer to my rumor (S, W, L) is: the first
player clockwise from me who holds any of the three cards shows one of their matching cards,
chosen uniformly; nobody shows if no other player holds one.  The answer therefore depends on the
deal only through the *joint* holders (hS, hW, hL) of the three cards, and everything below is
computed from that joint distribution, exactly (no independence between the three cards is
assumed).

For every rumor three figures:

* ``bits``: the expected information about the envelope, I(answer; pattern), where the pattern
  says which of S, W, L lie in the envelope (the answer cannot tell more about the envelope than
  about these three cards, except through other cards' correlations, which it never observes
  directly);
* ``deal_bits``: the expected information about the whole deal, I(answer; deal), which equals
  I(answer; hS, hW, hL) because the answer depends on the deal only through those holders;
* ``deals_left``: the expected number of deals still consistent after the answer,
  sum over answers a of P(a) * #{deals compatible with a}.

How the joint is computed.  Cards that no clause or weight names and that have the same allowed
holders are interchangeable (swapping two of them maps the constraint set onto itself), so one
representative pair (S, W) serves every pair of the same two classes.  For a representative pair,
every combination of their allowed holders (a *pin*) is counted with marginals; the marginal of
each location card under a pin gives the triple's joint for every L at once.  The pins are not
counted one by one: :func:`solvers.clue.counting.count_pinned_blocks` counts every pin of every
pair of a few representatives x against every representative y in one programme, each pin's
count in its own field of one Python int, and shares the backward pass (the completions do not
depend on the pin), so the whole advice costs a handful of counts instead of one per pin (the
worst benchmark case, 6 players and 5 entries, went from 675 counts to 2 block runs).  A pair
with few pins whose cards are not in a block is still counted pin by pin.  The best envelope
triple (the accuse-now figure) is read from the same runs (pin both envelope slots, read the
third card's envelope marginal), so it is the exact triple distribution at no extra cost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import product
from math import log2
from typing import Any

from solvers.clue.counting import (
    CountResult,
    bits_of,
    count,
    count_pinned_blocks,
    count_pinned_pairs,
    propagate,
)
from solvers.clue.model import Problem, build_inputs

Holders = tuple[int, int, int]


class AdviceCancelled(Exception):
    """The caller's ``stop()`` said the answer is no longer wanted (the user typed on)."""


def envelope_triples(
    problem: Problem,
    *,
    refuter_model: bool = False,
    base: CountResult | None = None,
    joints: RumorJoints | None = None,
) -> tuple[dict[tuple[int, int, int], int], int]:
    """Exact (weighted) deal count for every envelope triple (card indexes s, w, l) and the total.

    ``base`` is the already computed full count with marginals, if the caller has it.  With
    ``joints`` (built with the same ``refuter_model``) the counts are read from its pinned runs of
    card pairs, which the rumor figures need anyway, instead of one count per pair of envelope
    cards; the numbers are the same.
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
        if joints is not None:
            for c in cands[k]:
                trip = [0, 0, 0]
                trip[i], trip[j], trip[k] = a, b, c
                v = joints.envelope_count((trip[0], trip[1], trip[2]))
                if v:
                    triples[(trip[0], trip[1], trip[2])] = v
            continue
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


PinRuns = dict[tuple[int, int], list[list[int]]]

# From this many pins of a card pair on, one shared pinned-pairs run is cheaper than a count per pin.
SHARED_PINS = 4
# From BLOCK_PAIRS pairs of BLOCK_PINS pins or more on, they share block runs of BLOCK_XS first cards
# against every second one.
BLOCK_PINS = 1
BLOCK_PAIRS = 1
BLOCK_XS = 3
BLOCK_YS = 8


def _keep(every: dict[tuple[int, int], CountResult], pins: list[tuple[int, int]]) -> PinRuns:
    """The marginals of the pins asked for that have deals."""
    runs: PinRuns = {}
    for pin in pins:
        got = every.get(pin)
        if got is not None and got.total and got.marg is not None:
            runs[pin] = got.marg
    return runs


class RumorJoints:
    """Exact joint holder distributions of rumor triples, computed once per symmetry class.

    Two symmetries of the constraint set are used; each maps every consistent deal to another of
    the same weight, so the joint distribution is invariant under it:

    * cards that no clause or weight names and that have the same allowed holders are
      interchangeable, so one representative pair (S, W) serves every pair of the same classes;
    * holders with the same capacity left whose columns agree everywhere (allowed sets, every
      literal) are interchangeable, so only one pin per orbit of holder pairs is counted, and the
      joint of any holder triple is read from its orbit's representative.
    """

    def __init__(
        self,
        problem: Problem,
        *,
        refuter_model: bool = False,
        stop: Callable[[], bool] | None = None,
        total: int | None = None,
    ) -> None:
        """``total``: the whole (weighted) count of the problem, if the caller has it."""
        self.problem = problem
        self.stop = stop
        self.pinned: tuple[int, int] = (0, 1)  # the categories whose cards are pinned (envelope_count)
        entries = range(len(problem.entries))
        self.inputs = build_inputs(problem, entries, refuter_model=refuter_model)
        self._totals: dict[int, int] = {} if total is None else {id(self.inputs): total}
        # The deal counts behind ``deals_left`` are unweighted, as the solver's ``deals`` is.
        self.plain = build_inputs(problem, entries, refuter_model=False) if refuter_model else None
        caps, allowed, clauses, wfactors = self.inputs
        n = len(problem.cards)
        nh = len(caps)
        self.nh = nh
        self.holders: list[list[int]] = [[] for _ in range(n)]
        self.key: list[tuple[Any, ...]] = [("card", c) for c in range(n)]
        self.hclass: list[list[int]] = [[h] for h in range(nh)]  # members of each holder's class
        prop = propagate(list(caps), list(allowed), list(clauses), list(wfactors))
        self.ok = prop is not None
        if prop is None:
            return
        cap, pallowed, fixed, cl, wf, _const = prop
        named = {c for lits in cl for c, _m in lits} | {c for _off, lits in wf for c, _m in lits}
        for c in range(n):
            if fixed[c] >= 0:
                self.holders[c] = [fixed[c]]
                self.key[c] = ("fixed", fixed[c])
            else:
                self.holders[c] = bits_of(pallowed[c])
                if c not in named:
                    self.key[c] = ("free", pallowed[c])
        masks = [pallowed[c] for c in range(n) if fixed[c] < 0]
        masks += [m for lits in cl for _c, m in lits] + [m for _off, lits in wf for _c, m in lits]
        groups: dict[tuple[Any, ...], list[int]] = {}
        for h in range(nh):
            column = (cap[h], tuple(m >> h & 1 for m in masks))
            groups.setdefault(column, []).append(h)
        for members in groups.values():
            for h in members:
                self.hclass[h] = members
        self._pairs: dict[tuple[Any, ...], tuple[PinRuns, PinRuns | None]] = {}
        self._class_cache: dict[tuple[int, ...], list[list[int]]] = {}

    def _classes(self, points: tuple[int, ...]) -> list[list[int]]:
        """Holder classes of the permutations that leave ``points`` in place.

        The symmetry is one of the problem left after propagation, where fixed cards are gone;
        a rumor card with a fixed holder must stay where it is, so its holder becomes a class of
        its own.
        """
        got = self._class_cache.get(points)
        if got is None:
            shared: dict[int, list[int]] = {}
            got = []
            for h in range(self.nh):
                if h in points:
                    got.append([h])
                else:
                    rest = [m for m in self.hclass[h] if m not in points]
                    got.append(shared.setdefault(rest[0], rest))
            self._class_cache[points] = got
        return got

    @staticmethod
    def _canon(cls: list[list[int]], a: int, b: int) -> tuple[int, int]:
        """The representative of the orbit of the holder pair (a, b)."""
        ca = cls[a][0]
        if b == a:
            return ca, ca
        members = cls[b]
        if members is cls[a]:
            return ca, members[1]
        return ca, members[0]

    @staticmethod
    def _image(cls: list[list[int]], canon: tuple[int, int], a: int, b: int, c: int) -> int:
        """Where a permutation taking (a, b) to ``canon`` may send holder c."""
        ca, cb = canon
        if c == a:
            return ca
        if c == b:
            return cb
        for h in cls[c]:
            if h != ca and h != cb:
                return h
        raise AssertionError("a holder class is smaller than its use")  # pragma: no cover

    def _points(self, *cards: int) -> tuple[int, ...]:
        return tuple(sorted({self.holders[c][0] for c in cards if self.key[c][0] == "fixed"}))

    def pins(self, x: int, y: int) -> list[tuple[int, int]]:
        """The holder pairs counted for the class of the card pair (x, y)."""
        cls = self._classes(self._points(x, y))
        return sorted({self._canon(cls, a, b) for a in self.holders[x] for b in self.holders[y]})

    def _pair(self, x: int, y: int) -> tuple[PinRuns, PinRuns | None]:
        """For the class of the card pair (x, y): per representative holder pair, every card's marginals."""
        k = (self.key[x], self.key[y])
        got = self._pairs.get(k)
        if got is not None:
            return got
        pins = self.pins(x, y)
        weighted = self._pin_runs(self.inputs, x, y, pins)
        plain = self._pin_runs(self.plain, x, y, pins) if self.plain is not None else None
        self._pairs[k] = (weighted, plain)
        return weighted, plain

    def _total(self, inputs: Any) -> int:
        """The whole (weighted) count of ``inputs``, which sizes the fields of a block run."""
        got = self._totals.get(id(inputs))
        if got is None:
            got = count(*inputs, marginals=False).total
            self._totals[id(inputs)] = got
        return got

    def prepare(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Count the pins of many card pairs (class representatives, x and y of two categories) at once.

        The pairs with at least ``BLOCK_PINS`` pins go into block runs of
        :func:`count_pinned_blocks`, ``BLOCK_XS`` representatives x at a time against ``BLOCK_YS`` y;
        the others are left to :meth:`_pair`, one run per pair.
        """
        todo: dict[tuple[Any, ...], tuple[int, int]] = {}
        for x, y in pairs:
            k = (self.key[x], self.key[y])
            if k in self._pairs or k in todo:
                continue
            if len(self.pins(x, y)) >= BLOCK_PINS:
                todo[k] = (x, y)
        if len(todo) < BLOCK_PAIRS:
            return
        xs = list(dict.fromkeys(x for x, _y in todo.values()))
        ys = list(dict.fromkeys(y for _x, y in todo.values()))
        cats = {self.problem.category[xs[0]], self.problem.category[ys[0]]}
        need = [c for c, cat in enumerate(self.problem.category) if cat not in cats]
        for start in range(0, len(xs), BLOCK_XS):
            for ystart in range(0, len(ys), BLOCK_YS):
                self._block(xs[start : start + BLOCK_XS], ys[ystart : ystart + BLOCK_YS], need)

    def _block(self, xs: list[int], ys: list[int], need: list[int]) -> None:
        """One block run (and its unweighted twin under the refuter model) into the pair cache."""
        if self.stop is not None and self.stop():
            raise AdviceCancelled
        weighted = count_pinned_blocks(*self.inputs, xs, ys, need, self._total(self.inputs))
        plain = None
        if self.plain is not None:
            plain = count_pinned_blocks(*self.plain, xs, ys, need, self._total(self.plain))
        for x in xs:
            for y in ys:
                k = (self.key[x], self.key[y])
                if k in self._pairs:
                    continue
                pins = self.pins(x, y)
                runs_w = _keep(weighted[(x, y)], pins)
                runs_p = _keep(plain[(x, y)], pins) if plain is not None else None
                self._pairs[k] = (runs_w, runs_p)

    def _pin_runs(self, inputs: Any, x: int, y: int, pins: list[tuple[int, int]]) -> PinRuns:
        """Marginals of every card for each pin of (x, y) in ``pins``.

        A few pins are counted one by one (a pinned count propagates the pin and merges the
        holders it leaves alike, so each is cheap); more share one pinned-pairs run, which costs
        about two plain counts whatever the number of pins.
        """
        caps, allowed, clauses, wfactors = inputs
        runs: PinRuns = {}
        if len(pins) >= SHARED_PINS:
            if self.stop is not None and self.stop():
                raise AdviceCancelled
            cats = {self.problem.category[x], self.problem.category[y]}
            need = [c for c, cat in enumerate(self.problem.category) if cat not in cats]
            every = count_pinned_pairs(caps, allowed, clauses, wfactors, x, y, need)
            for pin in pins:
                got = every.get(pin)
                if got is not None and got.total and got.marg is not None:
                    runs[pin] = got.marg
            return runs
        for hx, hy in pins:
            if self.stop is not None and self.stop():
                raise AdviceCancelled
            al = list(allowed)
            al[x] &= 1 << hx
            al[y] &= 1 << hy
            res = count(caps, al, clauses, wfactors, marginals=True)
            if res.total and res.marg is not None:
                runs[(hx, hy)] = res.marg
        return runs

    def _expand(self, runs: PinRuns, x: int, y: int, z: int, k: int) -> dict[Holders, int]:
        """Joint counts over the rumor's holders from the pinned runs of the pair (x, y).

        x and y are the rumor's cards in its two pinned positions (in order), z the one in
        position ``k``; the keys are holder triples in the rumor's own order.
        """
        cls = self._classes(self._points(x, y))
        fixed_z = self.holders[z][0] if self.key[z][0] == "fixed" else None
        nh = self.nh
        alone = all(len(m) == 1 for m in cls)  # no holder symmetry left: every pin is its own class
        out: dict[Holders, int] = {}
        for a in self.holders[x]:
            for b in self.holders[y]:
                canon = (a, b) if alone else self._canon(cls, a, b)
                marg = runs.get(canon)
                if marg is None:
                    continue
                row = marg[z]
                if fixed_z is not None:
                    # The third card never moves: the triple's weight is the pair's.
                    out[_place(k, a, b, fixed_z)] = sum(row)
                    continue
                for c in range(nh):
                    v = row[c] if alone else row[self._image(cls, canon, a, b, c)]
                    if v:
                        out[(a, b, c) if k == 2 else (a, c, b) if k == 1 else (c, a, b)] = v
        return out

    def envelope_count(self, cards: tuple[int, int, int]) -> int:
        """The (weighted) number of deals with these three cards (s, w, l) in the envelope.

        Read from the pinned runs of the pair in the positions :attr:`pinned` names (set by the
        caller that decides which two categories are pinned).
        """
        i, j = self.pinned
        (k,) = {0, 1, 2} - {i, j}
        x, y, z = cards[i], cards[j], cards[k]
        slots = self.problem.env_slots
        ex, ey, ez = slots[i], slots[j], slots[k]
        if ex not in self.holders[x] or ey not in self.holders[y] or ez not in self.holders[z]:
            return 0
        weighted, _plain = self._pair(x, y)
        cls = self._classes(self._points(x, y))
        canon = self._canon(cls, ex, ey)
        marg = weighted.get(canon)
        if marg is None:
            return 0
        row = marg[z]
        if self.key[z][0] == "fixed":
            return sum(row)
        return row[self._image(cls, canon, ex, ey, ez)]

    def joint(
        self, cards: tuple[int, int, int], pinned: tuple[int, int] = (0, 1)
    ) -> tuple[dict[Holders, int], dict[Holders, int]]:
        """(weighted, unweighted) deal counts for every joint holder triple of ``cards``.

        ``pinned`` names the two positions of ``cards`` whose holders are pinned; the third is read
        from the marginals.  The class representatives may be other cards, but never the third one
        (the three are of different categories), so the class swap leaves its marginal in place.
        """
        i, j = pinned
        (k,) = {0, 1, 2} - {i, j}
        x, y, z = cards[i], cards[j], cards[k]
        if j < i:
            raise ValueError("the pinned positions go in increasing order")
        weighted, plain = self._pair(x, y)
        jw = self._expand(weighted, x, y, z, k)
        if plain is None:
            return jw, jw
        return jw, self._expand(plain, x, y, z, k)


def _place(k: int, a: int, b: int, c: int) -> Holders:
    """The holder triple in rumor order when the pinned positions (in order) hold a, b and k holds c."""
    return (a, b, c) if k == 2 else (a, c, b) if k == 1 else (c, a, b)


def answer_model(problem: Problem, holders: Holders, cards: tuple[int, int, int]) -> list[tuple[Any, float]]:
    """The answers to my rumor when the three cards lie with ``holders``: [(answer, probability)].

    An answer is ``(player, card)`` for a shown card, or ``None`` when nobody shows.
    """
    nplayers = len(problem.players)
    for i in range(1, nplayers):
        p = (problem.me + i) % nplayers
        shown = [cards[t] for t in range(3) if holders[t] == p]
        if shown:
            return [((p, c), 1.0 / len(shown)) for c in shown]
    return [(None, 1.0)]


@lru_cache(maxsize=65536)
def _answer_slots(nplayers: int, me: int, holders: Holders) -> tuple[tuple[Any, float], ...]:
    """:func:`answer_model` with the shown card named by its position in the rumor (0, 1, 2)."""
    for i in range(1, nplayers):
        p = (me + i) % nplayers
        shown = [t for t in range(3) if holders[t] == p]
        if shown:
            return tuple(((p, t), 1.0 / len(shown)) for t in shown)
    return ((None, 1.0),)


_SLOT_INFO: dict[tuple[Any, ...], dict[Holders, Any]] = {}


def _slot_info(nplayers: int, me: int, env: tuple[int, ...]) -> dict[Holders, Any]:
    """The per-holder-triple cache of :func:`_answers_and_pattern` for one table and envelope."""
    key = (nplayers, me, env)
    got = _SLOT_INFO.get(key)
    if got is None:
        if len(_SLOT_INFO) > 64:
            _SLOT_INFO.clear()
        got = _SLOT_INFO[key] = {}
    return got


def _answers_and_pattern(nplayers: int, me: int, env: tuple[int, ...], h: Holders) -> tuple[Any, Any]:
    """The envelope pattern of holders ``h`` and its answers as (answer, probability, (pattern, answer))."""
    pat = (h[0] == env[0], h[1] == env[1], h[2] == env[2])
    return pat, tuple((a, q, (pat, a)) for a, q in _answer_slots(nplayers, me, h))


def rumor_figures(
    problem: Problem, jw: dict[Holders, int], ju: dict[Holders, int], cards: tuple[int, int, int]
) -> dict[str, float]:
    """``bits``, ``deal_bits`` and ``deals_left`` of one rumor from its exact joint.

    Answers are keyed by (player, position of the shown card) rather than (player, card): the two
    are in one-to-one correspondence (the three cards differ), and the position form lets every
    rumor share one cache of the answer model.
    """
    total = sum(jw.values())
    if not total:
        return {"bits": 0.0, "deal_bits": 0.0, "deals_left": 0.0}
    env = tuple(problem.env_slots[problem.category[c]] for c in cards)
    nplayers, me = len(problem.players), problem.me
    info = _slot_info(nplayers, me, env)
    p_ans: dict[Any, float] = {}
    p_pat_ans: dict[tuple[Any, Any], float] = {}
    p_pat: dict[Any, float] = {}
    cond: list[tuple[float, tuple[tuple[Any, float, Any], ...]]] = []
    compatible: dict[Any, int] = {}
    same = ju is jw  # no refuter weights: the deal counts are the weights (integer sums, any order)
    ans_get, pa_get, pat_get, comp_get, info_get = p_ans.get, p_pat_ans.get, p_pat.get, compatible.get, info.get
    append = cond.append
    for h, v in jw.items():
        ph = v / total
        got = info_get(h)
        if got is None:
            got = info[h] = _answers_and_pattern(nplayers, me, env, h)
        pat, answers = got
        append((ph, answers))
        p_pat[pat] = pat_get(pat, 0.0) + ph
        for a, q, pa in answers:
            t = ph * q
            p_ans[a] = ans_get(a, 0.0) + t
            p_pat_ans[pa] = pa_get(pa, 0.0) + t
            if same:
                compatible[a] = comp_get(a, 0) + v
    for h, v in ({} if same else ju).items():
        got = info_get(h)
        if got is None:
            got = info[h] = _answers_and_pattern(nplayers, me, env, h)
        for a, _q, _pa in got[1]:
            compatible[a] = comp_get(a, 0) + v
    # log2(q / P(a)) takes few values: one per answer and share (the same floats every time).
    logs: dict[tuple[Any, float], float] = {}
    deal_bits = 0.0
    for ph, answers in cond:
        for a, q, _pa in answers:
            lg = logs.get((a, q))
            if lg is None:
                lg = logs[(a, q)] = log2(q / p_ans[a])
            deal_bits += ph * q * lg
    bits = 0.0
    for (pat, a), pj in p_pat_ans.items():
        if pj > 0.0:
            bits += pj * log2(pj / (p_pat[pat] * p_ans[a]))
    deals_left = sum(p * compatible.get(a, 0) for a, p in p_ans.items())
    # Mutual information is >= 0; float sums leave a few ulps of noise around an exact zero.
    return {"bits": _clean(bits), "deal_bits": _clean(deal_bits), "deals_left": deals_left}


def _clean(x: float) -> float:
    return 0.0 if x < 1e-12 else x


def _better(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """More envelope information, then more information about the deal (ties within float noise)."""
    if a["bits"] > b["bits"] + 1e-12:
        return True
    return a["bits"] >= b["bits"] - 1e-12 and a["deal_bits"] > b["deal_bits"] + 1e-12


def compute_advice(
    problem: Problem,
    *,
    refuter_model: bool = False,
    base: CountResult | None = None,
    locations: Iterable[str] | None = None,
    budget: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Best envelope guess, every rumor's exact figures, and the best rumor per location.

    ``locations`` limits the rumors to the places I stand in or can reach this turn (default: all).
    ``budget`` caps the counting runs: over it, no rumor figures are computed and the answer says
    ``"over_budget": true`` (decided before any run, so it is deterministic); ``stop`` is asked
    between runs (:class:`AdviceCancelled`), so a worker can drop an answer nobody waits for.
    ``potential`` is, per location, the rumor whose three cards' envelope pattern is most
    uncertain (its entropy bounds what any answer can tell about the envelope); it needs no
    counting beyond the envelope triples.
    """
    if base is None:
        caps, allowed, clauses, wfactors = build_inputs(
            problem, range(len(problem.entries)), refuter_model=refuter_model
        )
        base = count(caps, allowed, clauses, wfactors)
    if base.total == 0 or base.marg is None:
        return {"best_envelope": None, "rumors": {}, "all": [], "potential": {}}
    names = problem.cards
    joints = RumorJoints(problem, refuter_model=refuter_model, stop=stop, total=base.total)
    suspects = [c for c, cat in enumerate(problem.category) if cat == 0]
    weapons = [c for c, cat in enumerate(problem.category) if cat == 1]
    index = {name: c for c, name in enumerate(names)}
    if locations is None:
        locs = [c for c, cat in enumerate(problem.category) if cat == 2]
    else:
        locs = [index[name] for name in locations if name in index and problem.category[index[name]] == 2]
    every_loc = [c for c, cat in enumerate(problem.category) if cat == 2]
    # Pin the two categories with the fewest card classes among the rumors asked for; the
    # third category comes from the marginals of the same runs.
    cats = [suspects, weapons, locs]
    sizes = [len({joints.key[c] for c in cat}) for cat in cats]
    read = max(range(3), key=lambda k: (sizes[k], k == 2))
    if budget is None and len(locs) < len(every_loc):
        # Some locations only: reading the locations keeps the pinned suspects and weapons whole,
        # so the same block runs give the envelope triples too (the figures agree either way).
        read = 2
    pinned = tuple(k for k in range(3) if k != read)
    joints.pinned = (pinned[0], pinned[1])
    over = False
    if budget is not None:
        reps: dict[tuple[Any, ...], int] = {}
        for t in product(*cats):
            x, y = t[pinned[0]], t[pinned[1]]
            k = (joints.key[x], joints.key[y])
            if k not in reps:
                reps[k] = len(joints.pins(x, y))
        over = sum(reps.values()) * (2 if joints.plain is not None else 1) > budget
    # The pinned runs cover every envelope triple when both pinned categories are whole (the
    # locations are pinned only when they are all asked for, or when the read one is another).
    if not over:
        pairs: dict[tuple[Any, ...], tuple[int, int]] = {}
        for t in product(*cats):
            x, y = t[pinned[0]], t[pinned[1]]
            pairs.setdefault((joints.key[x], joints.key[y]), (x, y))
        joints.prepare(pairs.values())
    whole = not over and (read == 2 or len(locs) == len(every_loc))
    triples, total = envelope_triples(
        problem, refuter_model=refuter_model, base=base, joints=joints if whole else None
    )
    if total == 0:
        return {"best_envelope": None, "rumors": {}, "all": [], "potential": {}}
    best = max(sorted(triples), key=lambda t: triples[t])
    potential = pattern_entropies(problem, triples, total, suspects, weapons, every_loc)
    if over:
        return {
            "best_envelope": {"cards": [names[c] for c in best], "p": triples[best] / total},
            "rumors": {},
            "all": [],
            "potential": potential,
            "over_budget": True,
        }
    cache: dict[tuple[Any, ...], dict[str, float]] = {}
    every: list[dict[str, Any]] = []
    rumors: dict[str, dict[str, Any]] = {}
    for loc in locs:
        best_rec: dict[str, Any] | None = None
        for s in suspects:
            for w in weapons:
                key = (joints.key[s], joints.key[w], joints.key[loc])
                figs = cache.get(key)
                if figs is None:
                    jw, ju = joints.joint((s, w, loc), (pinned[0], pinned[1]))
                    figs = rumor_figures(problem, jw, ju, (s, w, loc))
                    cache[key] = figs
                rec = {"suspect": names[s], "weapon": names[w], "location": names[loc], **figs}
                every.append(rec)
                if best_rec is None or _better(rec, best_rec):
                    best_rec = rec
        if best_rec is not None:
            rumors[names[loc]] = {k: v for k, v in best_rec.items() if k != "location"}
    every.sort(key=lambda r: (-r["bits"], -r["deal_bits"], r["location"], r["suspect"], r["weapon"]))
    return {
        "best_envelope": {"cards": [names[c] for c in best], "p": triples[best] / total},
        "rumors": rumors,
        "all": every,
        "potential": potential,
    }


def pattern_entropies(
    problem: Problem,
    triples: dict[tuple[int, int, int], int],
    total: int,
    suspects: list[int],
    weapons: list[int],
    locs: list[int],
) -> dict[str, dict[str, Any]]:
    """Per location, the rumor with the largest entropy of its envelope pattern (exact, in bits)."""
    n = len(problem.cards)
    p1 = [0.0] * n
    p2: dict[tuple[int, int], float] = {}
    p3 = {t: v / total for t, v in triples.items()}
    for (a, b, c), q in p3.items():
        p1[a] += q
        p1[b] += q
        p1[c] += q
        for pair in ((a, b), (a, c), (b, c)):
            p2[pair] = p2.get(pair, 0.0) + q
    names = problem.cards
    out: dict[str, dict[str, Any]] = {}
    for loc in locs:
        best: tuple[float, int, int] | None = None
        for s in suspects:
            for w in weapons:
                pswl = p3.get((s, w, loc), 0.0)
                psw, psl, pwl = p2.get((s, w), 0.0), p2.get((s, loc), 0.0), p2.get((w, loc), 0.0)
                ps, pw, pl = p1[s], p1[w], p1[loc]
                pats = (
                    pswl, psw - pswl, psl - pswl, pwl - pswl,
                    ps - psw - psl + pswl, pw - psw - pwl + pswl, pl - psl - pwl + pswl,
                    1.0 - ps - pw - pl + psw + psl + pwl - pswl,
                )
                h = -sum(q * log2(q) for q in pats if q > 1e-15)
                if best is None or h > best[0] + 1e-12:
                    best = (h, s, w)
        if best is not None:
            out[names[loc]] = {"suspect": names[best[1]], "weapon": names[best[2]], "bits": max(best[0], 0.0)}
    return out
