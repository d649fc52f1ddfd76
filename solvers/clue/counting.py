"""Exact counting of card deals under per-card holder sets, capacities and clauses.

The problem handed to :func:`count` is purely combinatorial:

* holders ``0..H-1`` with capacities (how many cards each must end up with);
* for every card a bitmask of holders it may lie with;
* clauses: "at least one of these literals holds", a literal being (card, holder mask);
* optional weight factors for the refuter model: (offset, literals), each deal is weighted by
  ``6 // (1 + offset + number of true literals)`` (6 keeps every weight an integer, it cancels
  out of every probability).

The count is the number (or total weight) of assignments of every card to an allowed holder that
fill each holder exactly and satisfy every clause.

Method.

1. Propagation (sound: it only applies forced facts, so the set of deals is unchanged): a card
   with one allowed holder is fixed; a full holder is removed from every other card; a holder that
   needs every card still allowed to it gets them; clauses drop impossible literals, vanish when a
   literal is certain, and a clause left with one literal restricts that card.
2. Symmetry: holders that every remaining constraint treats alike (same capacity left, same
   allowed column, same membership in every literal) are merged into one holder of the summed
   capacity; the count is multiplied by the ways to split its cards among the members, and each
   member gets 1/m of the merged marginal.  Early in a game this collapses the unknown opponents.
3. Dynamic programme over the cards.  *Clause cards* (named by a clause or weight factor) come
   first, one card per step, in a greedy order that keeps the information about open clauses small
   (open clauses whose processed literals coincide share their status, so the order minimises the
   number of distinct processed-literal sets).  *Free cards* with the same holder set are
   interchangeable: the group with the most ways to spread goes last, where its spread is forced
   by the capacities left (one multinomial per state); other groups are either one step weighted
   by multinomials or, when that would enumerate too many spreads, single-card steps.
   The state is one Python int packing the remaining capacity of every holder (a bit field each
   with a guard bit, so "room left" is one AND and "spread fits" is one subtraction and one AND),
   one "already satisfied" bit per open clause and a 2-bit counter per open weight factor.  States
   in which some holder can no longer be filled by the cards still to come are pruned.
4. Marginals: the forward layers are kept; a backward pass computes for every state the number of
   completions, and forward x transition x backward summed over a step gives the exact number of
   deals with that card at each holder (for a group, the expected number of its cards at the
   holder, divided by the group size).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any, NamedTuple

Literal = tuple[int, int]
WFactor = tuple[int, tuple[Literal, ...]]


@dataclass
class CountResult:
    """Exact totals.  ``marg[c][h]`` is the (weighted) number of deals with card c at holder h."""

    total: int
    marg: list[list[int]] | None



def bits_of(mask: int) -> list[int]:
    """The holders (bit positions) set in ``mask``, lowest first."""
    out = []
    h = 0
    while mask:
        if mask & 1:
            out.append(h)
        mask >>= 1
        h += 1
    return out

def _popcount(x: int) -> int:
    """Number of set bits (holders in a mask)."""
    return bin(x).count("1")


def propagate(
    caps: list[int],
    allowed: list[int],
    clauses: list[tuple[Literal, ...]],
    wfactors: list[WFactor],
) -> tuple[list[int], list[int], list[int], list[tuple[Literal, ...]], list[WFactor], int] | None:
    """Apply forced deductions; return (cap, allowed, fixed, clauses, wfactors, const) or None.

    Every step keeps the set of consistent deals unchanged (only forced facts are applied), so
    counting afterwards is still exact; ``None`` means no deal is possible.  ``const`` is the
    product of weight factors that became constant.
    """
    n = len(allowed)
    nh = len(caps)
    full = (1 << nh) - 1
    cap = list(caps)
    allowed = [a & full for a in allowed]
    fixed = [-1] * n
    const = 1
    cl: list[list[Literal]] = [[(c, m & full) for c, m in lits] for lits in clauses]
    wf: list[tuple[int, list[Literal]]] = [(off, [(c, m & full) for c, m in lits]) for off, lits in wfactors]
    unfixed = list(range(n))
    while True:
        changed = False
        still = []
        for c in unfixed:
            a = allowed[c]
            if a == 0:
                return None
            if a & (a - 1) == 0:
                h = a.bit_length() - 1
                fixed[c] = h
                cap[h] -= 1
                if cap[h] < 0:
                    return None
                changed = True
            else:
                still.append(c)
        unfixed = still
        for h in range(nh):
            bit = 1 << h
            users = [c for c in unfixed if allowed[c] & bit]
            if len(users) < cap[h]:
                return None
            if users and cap[h] == 0:
                for c in users:
                    allowed[c] &= ~bit
                changed = True
            elif users and len(users) == cap[h]:
                for c in users:
                    allowed[c] = bit
                changed = True
        new_cl: list[list[Literal]] = []
        for lits in cl:
            keep: list[Literal] = []
            sat = False
            for c, m in lits:
                a = allowed[c]
                if a & m == 0:
                    continue
                if a & ~m == 0:
                    sat = True
                    break
                keep.append((c, m))
            if sat:
                changed = True
                continue
            if not keep:
                return None
            if len(keep) == 1:
                c, m = keep[0]
                allowed[c] &= m
                changed = True
                continue
            if len(keep) != len(lits):
                changed = True
            new_cl.append(keep)
        if len(new_cl) != len(cl):
            changed = True
        cl = new_cl
        new_wf: list[tuple[int, list[Literal]]] = []
        for off, lits in wf:
            keep = []
            for c, m in lits:
                a = allowed[c]
                if a & m == 0:
                    continue
                if a & ~m == 0:
                    off += 1
                    continue
                keep.append((c, m))
            if keep:
                new_wf.append((off, keep))
            else:
                const *= 6 // (1 + off)
        wf = new_wf
        if not changed:
            break
    # Drop duplicate and subsumed clauses (a clause implied by a smaller one adds nothing).
    sets = sorted({frozenset(lits) for lits in cl}, key=len)
    kept: list[frozenset[Literal]] = []
    for s in sets:
        if not any(k <= s for k in kept):
            kept.append(s)
    out_cl = [tuple(sorted(s)) for s in kept]
    out_wf = [(off, tuple(lits)) for off, lits in wf]
    return cap, allowed, fixed, out_cl, out_wf, const


def _order_clause_cards(
    cards: list[int], factors: list[tuple[Literal, ...]], allowed: list[int], first: list[int] = ()  # type: ignore[assignment]
) -> list[int]:
    """Greedy order keeping the information carried about open factors small.

    A factor is open from its first to its last card.  Two open factors whose already processed
    literals are the same always have the same status, so they cost one bit together; the greedy
    step therefore minimises the number of *distinct* processed-literal sets among open factors
    (ties: close more factors, then fewer allowed holders).  ``first`` are cards already placed
    before these (a pinned run's pinned cards).
    """
    touching: dict[int, list[int]] = {c: [] for c in cards}
    before = set(first)
    left = [0] * len(factors)
    done: list[frozenset[Literal]] = [frozenset()] * len(factors)
    open_sigs: dict[int, frozenset[Literal]] = {}
    for f, lits in enumerate(factors):
        for c, _m in lits:
            if c in before:
                done[f] = done[f] | {(c, _m)}
            else:
                touching[c].append(f)
                left[f] += 1
        if done[f] and left[f]:
            open_sigs[f] = done[f]
    remaining = set(cards)
    order: list[int] = []
    while remaining:
        best = None
        best_key = None
        for c in remaining:
            sigs = dict(open_sigs)
            closes = 0
            for f in touching[c]:
                if left[f] == 1:
                    sigs.pop(f, None)
                    closes += 1
                else:
                    sigs[f] = done[f] | {lit for lit in factors[f] if lit[0] == c}
            key = (len(set(sigs.values())), -closes, _popcount(allowed[c]), c)
            if best_key is None or key < best_key:
                best_key = key
                best = c
        assert best is not None
        remaining.discard(best)
        order.append(best)
        for f in touching[best]:
            left[f] -= 1
            done[f] = done[f] | {lit for lit in factors[f] if lit[0] == best}
            if left[f] == 0:
                open_sigs.pop(f, None)
            else:
                open_sigs[f] = done[f]
    return order


def _compositions(n: int, caps: list[int]) -> list[tuple[int, ...]]:
    """All ways to write n as an ordered sum of len(caps) parts with part i <= caps[i]."""
    out: list[tuple[int, ...]] = []
    k = len(caps)
    suffix = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i]

    def rec(i: int, rest: int, acc: list[int]) -> None:
        if i == k - 1:
            if rest <= caps[i]:
                out.append((*acc, rest))
            return
        lo = max(0, rest - suffix[i + 1])
        for x in range(lo, min(caps[i], rest) + 1):
            acc.append(x)
            rec(i + 1, rest - x, acc)
            acc.pop()

    if k == 0:
        return [()] if n == 0 else []
    rec(0, n, [])
    return out


def count(
    caps: list[int],
    allowed: list[int],
    clauses: list[tuple[Literal, ...]] = (),  # type: ignore[assignment]
    wfactors: list[WFactor] = (),  # type: ignore[assignment]
    *,
    marginals: bool = True,
) -> CountResult:
    """Count (weighted) deals exactly; with ``marginals`` also every card x holder count."""
    got = _count(caps, allowed, clauses, wfactors, marginals=marginals, tag=None)
    assert isinstance(got, CountResult)
    return got


def count_pinned_pairs(
    caps: list[int],
    allowed: list[int],
    clauses: list[tuple[Literal, ...]],
    wfactors: list[WFactor],
    x: int,
    y: int,
    need: Collection[int] | None = None,
) -> dict[tuple[int, int], CountResult]:
    """For every holder pair (a, b): the count and marginals of the deals with x at a and y at b.

    Equal, pin by pin, to ``count`` with ``allowed[x] = 1 << a`` and ``allowed[y] = 1 << b``; see
    :func:`count_pinned_blocks`, of which this is the one-pair case.  Pins with no deal are left
    out.  With ``need``, only those cards' marginals (besides x's, y's and the fixed cards') are
    computed; the other rows are left at 0.
    """
    if x == y:
        raise ValueError("the two pinned cards must differ")
    return count_pinned_blocks(caps, allowed, clauses, wfactors, (x,), (y,), need)[(x, y)]


def count_pinned_blocks(
    caps: list[int],
    allowed: list[int],
    clauses: list[tuple[Literal, ...]],
    wfactors: list[WFactor],
    xs: Sequence[int],
    ys: Sequence[int],
    need: Collection[int] | None = None,
    total: int | None = None,
) -> dict[tuple[int, int], dict[tuple[int, int], CountResult]]:
    """:func:`count_pinned_pairs` for every pair (x, y) of ``xs`` x ``ys`` at once, in one programme.

    The cards of ``xs`` and then of ``ys`` are its first steps.  Along them a state carries, besides
    its count, one count per (x, holder of x) and one per (y, holder of y, x, holder of x), each in
    its own field of one Python int (fields wide enough for any count of the problem, so
    additions and products with a completion count never carry into the next field): placing x
    at a adds the state's count to the field (x, a); placing y at b copies the (x, a) fields into
    the block (y, b) with one shift.  From there on only the pair fields go on, through the
    ordinary steps; the backward pass (completions of a state) does not depend on the pins, so
    it is shared.  The result has an entry for every pair (empty when no deal fits).  Rows of
    cards outside ``need`` (other than the pinned and the fixed cards) are 0 and shared: read
    them, never write them.

    ``total``, when given, must be the (weighted) count of the whole problem, as :func:`count`
    gives it; the fields are then sized by it rather than by a product bound.  That is enough:
    in a state that can still be completed (completion count >= 1) no pin's count exceeds the
    whole count, a state that cannot be completed never reaches a completed deal nor a
    marginal, so whatever its fields hold stays there.  Every pair's pins must add up to it
    (checked).
    """
    if set(xs) & set(ys) or len(set(xs)) != len(xs) or len(set(ys)) != len(ys):
        raise ValueError("the pinned cards must all differ")
    got = _count(
        caps, allowed, clauses, wfactors, marginals=True, tag=(tuple(xs), tuple(ys)), need=need, total=total
    )
    assert isinstance(got, dict)
    return got


def _count(
    caps: list[int],
    allowed: list[int],
    clauses: list[tuple[Literal, ...]],
    wfactors: list[WFactor],
    *,
    marginals: bool,
    tag: tuple[tuple[int, ...], tuple[int, ...]] | None,
    need: Collection[int] | None = None,
    total: int | None = None,
) -> CountResult | dict[tuple[int, int], dict[tuple[int, int], CountResult]]:
    """:func:`count`, or with ``tag`` (the xs and the ys) :func:`count_pinned_blocks`."""
    n = len(allowed)
    nh = len(caps)
    full_mask = (1 << nh) - 1
    total_given = total
    # Field width of a packed per-pin count: every (weighted) count of a prefix of the deal, and
    # so every count the passes add up, is at most the product of the cards' choices times the
    # largest weight of every factor (or the whole count, when given); a group's marginal sums
    # its cards' counts before dividing by their number, so the width also covers that factor
    # (set below, once the groups are known).  Whole bytes, so the fields unpack from bytes.
    bound = 0
    if tag is not None:
        bound = 6 ** len(wfactors)
        for a in allowed:
            bound *= max(1, _popcount(a & full_mask))
        if total is not None:
            bound = min(bound, total)
    prop = propagate(list(caps), list(allowed), list(clauses), list(wfactors))
    if prop is None:
        return _no_pins(tag) if tag is not None else CountResult(0, [[0] * nh for _ in range(n)] if marginals else None)
    cap, allowed, fixed, cl, wf, const = prop
    unfixed = [c for c in range(n) if fixed[c] < 0]
    active = [h for h in range(nh) if cap[h] > 0]
    if sum(cap[h] for h in active) != len(unfixed) or any(cap[h] < 0 for h in range(nh)):
        return _no_pins(tag) if tag is not None else CountResult(0, [[0] * nh for _ in range(n)] if marginals else None)
    tagged = [c for c in (*tag[0], *tag[1]) if fixed[c] < 0] if tag is not None else []

    # ---- merge interchangeable holders ---------------------------------------------------------
    # Holders that every constraint treats alike (same remaining capacity, same allowed column,
    # same membership in every literal) form one holder of the summed capacity; the count is then
    # multiplied by the number of ways to split its cards among the members, and each member gets
    # 1/m of the merged marginal.  This collapses e.g. all unknown opponents early in a game.
    lit_masks = [m for lits in cl for _, m in lits] + [m for _, lits in wf for _, m in lits]
    signature: dict[tuple[object, ...], list[int]] = {}
    for h in active:
        sig = (cap[h], tuple(allowed[c] >> h & 1 for c in unfixed), tuple(m >> h & 1 for m in lit_masks))
        signature.setdefault(sig, []).append(h)
    # A pinned run keeps every holder apart (a pin tells holders apart that merging would not).
    classes = [hs for hs in signature.values() if len(hs) > 1] if tag is None else []
    for hs in classes:
        each = cap[hs[0]]
        const *= factorial(each * len(hs)) // factorial(each) ** len(hs)
        cap[hs[0]] = each * len(hs)
        drop = 0
        for h in hs[1:]:
            cap[h] = 0
            drop |= 1 << h
        allowed = [a & ~drop for a in allowed]
        cl = [tuple((c, m & ~drop) for c, m in lits) for lits in cl]
        wf = [(off, tuple((c, m & ~drop) for c, m in lits)) for off, lits in wf]
    if classes:
        active = [h for h in active if cap[h] > 0]

    # ---- layout of the packed state ------------------------------------------------------------
    b = max([cap[h] for h in active], default=0).bit_length()
    width = b + 1
    g = 1 << b
    shift = {h: f * width for f, h in enumerate(active)}
    guards = sum(g << shift[h] for h in active)
    capmask = (1 << (len(active) * width)) - 1
    key0 = sum((g + cap[h]) << shift[h] for h in active)
    rmask = {h: (g - 1) << shift[h] for h in active}
    unit = {h: 1 << shift[h] for h in active}
    pos = len(active) * width
    clause_bit: list[int] = []
    for _ in cl:
        clause_bit.append(1 << pos)
        pos += 1
    wf_shift: list[int] = []
    for _ in wf:
        wf_shift.append(pos)
        pos += 2

    factor_cards: list[tuple[int, ...]] = [tuple(c for c, _ in lits) for lits in cl]
    factor_cards += [tuple(c for c, _ in lits) for _, lits in wf]
    in_factor = {c for fc in factor_cards for c in fc}
    factor_lits: list[tuple[Literal, ...]] = [tuple(lits) for lits in cl] + [tuple(lits) for _, lits in wf]
    clause_cards = tagged + _order_clause_cards(sorted(in_factor - set(tagged)), factor_lits, allowed, tagged)
    groups: dict[int, list[int]] = {}
    for c in unfixed:
        if c not in in_factor and c not in tagged:
            groups.setdefault(allowed[c], []).append(c)
    # Free groups: the one with the most ways to spread over its holders goes last, where its
    # spread is forced by the capacities left (one multinomial per state, nothing to enumerate).
    # The others are expanded into single-card steps when that is cheaper than enumerating
    # their spreads, else they stay one step weighted by multinomials.
    group_items = []
    for mask, cs in groups.items():
        hs = [h for h in active if mask >> h & 1]
        group_items.append((_n_compositions(len(cs), [cap[h] for h in hs]), mask, cs, hs))
    group_items.sort()
    final_group = group_items.pop() if group_items else None
    single_cards: list[int] = []
    comp_groups = []
    for ncomp, _mask, cs, hs in group_items:
        if ncomp > len(cs) * len(hs):
            single_cards.extend(cs)
        else:
            comp_groups.append((cs, hs))

    last_of: dict[int, int] = {}
    for f, fc in enumerate(factor_cards):
        last_of[f] = max(fc, key=clause_cards.index)

    # Remaining-card supply per holder after each step, for dead-state pruning.
    steps_cards: list[list[int]] = [[c] for c in clause_cards] + [[c] for c in single_cards]
    steps_cards += [cs for cs, _hs in comp_groups]
    if final_group is not None:
        steps_cards.append(final_group[2])
    nsteps = len(steps_cards)
    supply_after: list[dict[int, int]] = []
    running = {h: 0 for h in active}
    for s in range(nsteps - 1, -1, -1):
        supply_after.append(dict(running))
        for c in steps_cards[s]:
            for h in active:
                if allowed[c] >> h & 1:
                    running[h] += 1
    supply_after.reverse()

    def lim_const(s: int) -> int:
        # 0 = no pruning needed; -1 = final step (every holder must end empty).
        sup = supply_after[s]
        if all(sup[h] >= cap[h] for h in active):
            return 0
        if all(sup[h] == 0 for h in active):
            return -1
        return sum((g + min(sup[h], cap[h])) << shift[h] for h in active) + guards

    # ---- build step descriptions ---------------------------------------------------------------
    steps: list[_CardStep | _GroupStep | _FinalStep] = []
    for s, c in enumerate(clause_cards + single_cards):
        trans = []
        a = allowed[c]
        for h in active:
            if not a >> h & 1:
                continue
            orb = 0
            addb = 0
            for f, lits in enumerate(cl):
                for lc, m in lits:
                    if lc == c and m >> h & 1:
                        orb |= clause_bit[f]
            for f, (_, lits) in enumerate(wf):
                for lc, m in lits:
                    if lc == c and m >> h & 1:
                        addb += 1 << wf_shift[f]
            trans.append((h, rmask[h], unit[h], orb, addb))
        req = 0
        wclose = []
        for f in range(len(cl)):
            if last_of[f] == c:
                req |= clause_bit[f]
        for f, (off, lits) in enumerate(wf):
            if last_of[len(cl) + f] == c:
                table = tuple(6 // (1 + off + k) for k in range(len(lits) + 1))
                wclose.append((wf_shift[f], 3 << wf_shift[f], table))
        steps.append(_CardStep(c, trans, req, tuple(wclose), lim_const(s)))
    for cs, hs in comp_groups:
        ng = len(cs)
        comps = []
        for k in _compositions(ng, [cap[h] for h in hs]):
            mult = factorial(ng)
            pk = 0
            for h, x in zip(hs, k, strict=True):
                mult //= factorial(x)
                pk += x << shift[h]
            comps.append((pk, mult, k))
        steps.append(_GroupStep(cs, hs, comps, lim_const(len(steps))))
    if final_group is not None:
        _ncomp, mask, cs, hs = final_group
        outside = sum((g - 1) << shift[h] for h in active if not mask >> h & 1)
        steps.append(_FinalStep(cs, hs, [shift[h] for h in hs], outside, g - 1))

    # ---- forward pass --------------------------------------------------------------------------
    layers: list[dict[int, int]] = []
    cur: dict[int, int] = {key0: 1}
    width_tag = 0
    if tag is not None:
        most = max([len(st.cards) for st in steps if not isinstance(st, _CardStep)], default=1)
        width_tag = ((bound * most).bit_length() + 7) // 8 * 8
        lay = _Layout(tag, allowed, fixed)
        cur = _block_forward(steps, layers, lay, fixed, width_tag, key0, capmask, guards)
    for step in steps[len(layers) :]:
        layers.append(cur)
        if isinstance(step, _CardStep):
            cur = _card_forward(cur, step.trans, step.req, step.wclose, step.lim, capmask, guards)
        elif isinstance(step, _GroupStep):
            cur = _group_forward(cur, step.comps, step.lim, guards)
        else:
            tot = 0
            for key, v in cur.items():
                mult = _forced_spread(key - guards, len(step.cards), step.shifts, step.outside, step.fmask)
                if mult:
                    tot += v * mult
            cur = {guards: tot} if tot else {}
    total = cur.get(guards, 0) * const
    if not marginals:
        return CountResult(total, None)
    if tag is not None:
        return _pinned_results(
            total, steps, layers, len(tagged), const, guards, n, nh, fixed, lay, width_tag, need, total_given
        )

    marg = [[0] * nh for _ in range(n)]
    if total == 0:
        return CountResult(0, marg)
    for c in range(n):
        if fixed[c] >= 0:
            marg[c][fixed[c]] = total

    # ---- backward pass -------------------------------------------------------------------------
    # bnext[key] = weighted number of ways to finish from state key after the step.
    bnext: dict[int, int] = {guards: const}
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if isinstance(step, _CardStep):
            bnext, acc = _card_backward(layers[i], step.trans, step.req, step.wclose, bnext)
            for (h, *_rest), v in zip(step.trans, acc, strict=True):
                marg[step.card][h] = v
        elif isinstance(step, _GroupStep):
            bnext, acc = _group_backward(layers[i], step.comps, bnext)
            for hi, h in enumerate(step.holders):
                tot_h = sum(w * k[hi] for w, (_pk, _mult, k) in zip(acc, step.comps, strict=True) if w)
                for c in step.cards:
                    marg[c][h] = tot_h // len(step.cards)
        else:
            bnext, per_h = _final_backward(layers[i], step, bnext.get(guards, 0), guards)
            for hi, h in enumerate(step.holders):
                for c in step.cards:
                    marg[c][h] = per_h[hi] // len(step.cards)
    for hs in classes:
        for c in unfixed:
            share = marg[c][hs[0]] // len(hs)
            for h in hs:
                marg[c][h] = share
    return CountResult(total, marg)


def _no_pins(tag: tuple[tuple[int, ...], tuple[int, ...]]) -> dict[tuple[int, int], dict[tuple[int, int], CountResult]]:
    """The answer of a pinned run when no deal fits at all."""
    return {(x, y): {} for x in tag[0] for y in tag[1]}


class _Layout:
    """Where each pin of a block run lives in a packed count.

    Only the holders a pinned card can still have get a field: the per-x fields are the x in
    turn, each with one field per holder of its own; a pair block (y, b) holds one copy of them,
    and the blocks are the y in turn, one per holder of each.
    """

    def __init__(self, tag: tuple[tuple[int, ...], tuple[int, ...]], allowed: list[int], fixed: list[int]) -> None:
        self.xs, self.ys = tag

        def holders(c: int) -> list[int]:
            return [fixed[c]] if fixed[c] >= 0 else bits_of(allowed[c])

        self.hold = {c: holders(c) for c in (*self.xs, *self.ys)}
        self.pos: dict[int, dict[int, int]] = {}
        f = 0
        for c in self.xs:
            self.pos[c] = {}
            for h in self.hold[c]:
                self.pos[c][h] = f
                f += 1
        self.px = f  # fields of the per-x counts, and of one pair block
        f = 0
        for c in self.ys:
            self.pos[c] = {}
            for h in self.hold[c]:
                self.pos[c][h] = f
                f += 1
        self.py = f  # pair blocks

    def field(self, x: int, a: int, y: int, b: int) -> int:
        """The field of the pin (x at a, y at b)."""
        return self.pos[y][b] * self.px + self.pos[x][a]


def _block_forward(
    steps: list[Any],
    layers: list[dict[int, int]],
    lay: _Layout,
    fixed: list[int],
    width: int,
    key0: int,
    capmask: int,
    guards: int,
) -> dict[int, int]:
    """The pinned cards' steps of :func:`count_pinned_blocks`; returns the layer after them.

    Along them a state's value packs, field by field, its count (field 0), the per-x counts
    (fields 1 .. px) and the pair counts (the rest), so merging states stays one addition: placing
    x at a adds field 0 into the field of (x, a); placing y at b adds the per-x fields into the
    block of (y, b).  A fixed x starts with its field set, a fixed y takes the per-x fields once
    every x is placed.  The layer after the block keeps the pair fields only.
    """
    xs, ys = lay.xs, lay.ys
    px = lay.px
    bmask = (1 << width) - 1
    pmask = (1 << (px * width)) - 1
    v0 = 1
    for c in xs:
        if fixed[c] >= 0:
            v0 += 1 << ((1 + lay.pos[c][fixed[c]]) * width)
    cur: dict[int, int] = {key0: v0}
    kinds = dict.fromkeys(xs, True) | dict.fromkeys(ys, False)
    k = 0
    while k < len(steps) and isinstance(steps[k], _CardStep) and steps[k].card in kinds and fixed[steps[k].card] < 0:
        step = steps[k]
        is_x = kinds[step.card]
        pos = lay.pos[step.card]
        # Where the copied fields go, per holder of this card.
        if is_x:
            dest = {h: (1 + f) * width for h, f in pos.items()}
        else:
            dest = {h: (1 + px + f * px) * width for h, f in pos.items()}
        req, wclose, lim = step.req, step.wclose, step.lim
        layers.append({})
        nd: dict[int, int] = {}
        get = nd.get
        for key, v in cur.items():
            src = v & bmask if is_x else (v >> width) & pmask
            for h, rm, u, ob, ad in step.trans:
                if not key & rm:
                    continue
                nk = ((key - u) | ob) + ad
                if req:
                    if nk & req != req:
                        continue
                    nk ^= req
                if lim and (nk & capmask != guards if lim < 0 else (lim - (nk & capmask)) & guards != guards):
                    continue
                val = v + (src << dest[h])
                for sh, fm, table in wclose:
                    val *= table[(nk & fm) >> sh]
                    nk &= ~fm
                nd[nk] = get(nk, 0) + val
        cur = nd
        k += 1
    out: dict[int, int] = {}
    drop = (1 + px) * width
    for key, v in cur.items():
        for c in ys:
            if fixed[c] >= 0:
                v += ((v >> width) & pmask) << ((1 + px + lay.pos[c][fixed[c]] * px) * width)
        pairs = v >> drop
        if pairs:
            out[key] = pairs
    return out


def _pinned_results(
    total: int,
    steps: list[Any],
    layers: list[dict[int, int]],
    ntag: int,
    const: int,
    guards: int,
    n: int,
    nh: int,
    fixed: list[int],
    lay: _Layout,
    width: int,
    need: Collection[int] | None,
    expect: int | None,
) -> dict[tuple[int, int], dict[tuple[int, int], CountResult]]:
    """The backward pass of a pinned run and the unpacking of its per-pin counts.

    A step none of whose cards is in ``need`` only passes the completions on: its marginals,
    the products of the wide per-pin forward counts, are not formed.  The fields are laid out
    by :class:`_Layout`.
    """
    xs, ys = lay.xs, lay.ys
    nf = lay.px * lay.py
    wanted = None if need is None else set(need)
    unpack = _unpacker(nf, width)

    totals = unpack(total)
    if expect is not None and sum(totals) != expect * len(xs) * len(ys):
        raise AssertionError("the pins' counts do not add up to the whole count it was given")
    # rows[c][h]: the unpacked per-pin counts of card c at holder h (only for the cards read).
    rows: dict[int, list[list[int] | None]] = {}
    bnext: dict[int, int] = {guards: const}
    for i in range(len(steps) - 1, ntag - 1, -1):
        step = steps[i]
        cards = [step.card] if isinstance(step, _CardStep) else step.cards
        if wanted is not None and wanted.isdisjoint(cards):
            bnext = _completions(layers[i], step, bnext, guards)
            continue
        if isinstance(step, _CardStep):
            bnext, acc = _card_backward(layers[i], step.trans, step.req, step.wclose, bnext)
            row: list[list[int] | None] = [None] * nh
            for (h, *_rest), v in zip(step.trans, acc, strict=True):
                row[h] = unpack(v)
            rows[step.card] = row
        else:
            if isinstance(step, _GroupStep):
                bnext, acc = _group_backward(layers[i], step.comps, bnext)
                per_h = [
                    sum(w * k[hi] for w, (_pk, _mult, k) in zip(acc, step.comps, strict=True) if w)
                    for hi in range(len(step.holders))
                ]
            else:
                bnext, per_h = _final_backward(layers[i], step, bnext.get(guards, 0), guards)
            row = [None] * nh
            for hi, h in enumerate(step.holders):
                row[h] = [x // len(step.cards) for x in unpack(per_h[hi])]
            for c in step.cards:
                rows[c] = row
    zero = [0] * nh
    # cols[c][f]: card c's row (one count per holder) for the pin in field f.
    nothing = [0] * nf
    cols: dict[int, list[list[int]]] = {}
    for c, row in rows.items():
        cols[c] = [list(col) for col in zip(*[nothing if r is None else r for r in row], strict=True)]
    out: dict[tuple[int, int], dict[tuple[int, int], CountResult]] = {}
    for y in ys:
        for x in xs:
            pins: dict[tuple[int, int], CountResult] = {}
            for b in lay.hold[y]:
                for a in lay.hold[x]:
                    f = lay.field(x, a, y, b)
                    t = totals[f]
                    if not t:
                        continue
                    marg = [zero] * n
                    for c, col in cols.items():
                        marg[c] = col[f]
                    for c in range(n):
                        if fixed[c] >= 0:
                            marg[c] = [0] * nh
                            marg[c][fixed[c]] = t
                    marg[x] = [0] * nh
                    marg[x][a] = t
                    marg[y] = [0] * nh
                    marg[y][b] = t
                    pins[(a, b)] = CountResult(t, marg)
            out[(x, y)] = pins
    return out


def _unpacker(nf: int, width: int) -> Callable[[int], list[int]]:
    """A function splitting a packed value of ``nf`` fields of ``width`` bits (whole bytes) into its fields.

    The bytes of each field are spread into slots of 1, 2, 4 or 8 bytes (or whole 8-byte words
    for wider fields) with one strided copy per byte, and read as a machine array.
    """
    k = width // 8
    slot = next((s for s in (1, 2, 4, 8) if s >= k), -(-k // 8) * 8)
    code = next(t for t in "BHILQ" if array(t).itemsize == min(slot, 8))
    words = slot // 8 if slot > 8 else 1

    def unpack(v: int) -> list[int]:
        raw: bytes | bytearray = v.to_bytes(nf * k, "little")
        if slot != k:
            spread = bytearray(nf * slot)
            for j in range(k):
                spread[j::slot] = raw[j::k]
            raw = spread
        got = array(code)
        got.frombytes(raw)
        if sys.byteorder == "big":
            got.byteswap()
        out = got.tolist()
        if words == 1:
            return out
        return [sum(out[f * words + w] << (64 * w) for w in range(words)) for f in range(nf)]

    return unpack


def _completions(fwd: dict[int, int], step: Any, bnext: dict[int, int], guards: int) -> dict[int, int]:
    """Completions from each state of ``fwd`` before ``step`` (a backward step without marginals)."""
    bcur: dict[int, int] = {}
    get = bnext.get
    if isinstance(step, _CardStep) and not step.wclose and not any(t[4] for t in step.trans):
        tr = [(rm, u, ob) for _h, rm, u, ob, _a in step.trans]
        req = step.req
        for key in fwd:
            s = 0
            for rm, u, ob in tr:
                if key & rm:
                    nk = (key - u) | ob
                    if req:
                        if nk & req != req:
                            continue
                        nk ^= req
                    bv = get(nk)
                    if bv:
                        s += bv
            if s:
                bcur[key] = s
    elif isinstance(step, _CardStep):
        trans, req, wclose = step.trans, step.req, step.wclose
        for key in fwd:
            s = 0
            for _h, rm, u, ob, ad in trans:
                if key & rm:
                    nk = ((key - u) | ob) + ad
                    if req:
                        if nk & req != req:
                            continue
                        nk ^= req
                    wgt = 1
                    for sh, fm, table in wclose:
                        wgt *= table[(nk & fm) >> sh]
                        nk &= ~fm
                    bv = get(nk)
                    if bv:
                        s += bv * wgt
            if s:
                bcur[key] = s
    elif isinstance(step, _GroupStep):
        for key in fwd:
            s = 0
            for pk, mult, _k in step.comps:
                bv = get(key - pk)
                if bv:
                    s += bv * mult
            if s:
                bcur[key] = s
    else:
        end = get(guards, 0)
        for key in fwd:
            mult = _forced_spread(key - guards, len(step.cards), step.shifts, step.outside, step.fmask)
            if mult:
                bcur[key] = mult * end
    return bcur


Trans = tuple[int, int, int, int, int]  # holder, its capacity bits, its unit, clause bits set, counter increments
WClose = tuple[tuple[int, int, tuple[int, ...]], ...]  # (shift, field mask, weight by counter) per closing factor
Comp = tuple[int, int, tuple[int, ...]]  # packed spread, multinomial, spread per holder


class _CardStep(NamedTuple):
    """One card placed on one of its allowed holders; closes the factors whose last card it is."""

    card: int
    trans: list[Trans]
    req: int
    wclose: WClose
    lim: int


class _GroupStep(NamedTuple):
    """A group of interchangeable free cards spread over their holders in one go."""

    cards: list[int]
    holders: list[int]
    comps: list[Comp]
    lim: int


class _FinalStep(NamedTuple):
    """The last group: its spread is forced by the capacities left."""

    cards: list[int]
    holders: list[int]
    shifts: list[int]
    outside: int
    fmask: int


def _final_backward(fwd: dict[int, int], step: _FinalStep, end: int, guards: int) -> tuple[dict[int, int], list[int]]:
    """Completions from each state before the forced last group, and its cards' expected spread."""
    bcur: dict[int, int] = {}
    per_h = [0] * len(step.holders)
    n = len(step.cards)
    for key, fv in fwd.items():
        rest = key - guards
        mult = _forced_spread(rest, n, step.shifts, step.outside, step.fmask)
        if mult:
            bcur[key] = mult * end
            t = fv * mult * end
            for hi, sh in enumerate(step.shifts):
                per_h[hi] += t * (rest >> sh & step.fmask)
    return bcur, per_h


_FACT = [factorial(i) for i in range(64)]


def _fact(i: int) -> int:
    """Factorial, cached for the small arguments the spreads need."""
    return _FACT[i] if i < 64 else factorial(i)


def _forced_spread(rest: int, n: int, shifts: list[int], outside: int, fmask: int) -> int:
    """n! / prod(r_h!) for the capacities ``rest`` left; 0 if a holder outside the group is not empty."""
    if rest & outside:
        return 0
    mult = _fact(n)
    for sh in shifts:
        mult //= _fact(rest >> sh & fmask)
    return mult


def _n_compositions(n: int, caps: list[int]) -> int:
    """How many ways to split n into len(caps) ordered parts, part i at most caps[i]."""
    ways = [1] + [0] * n
    for cp in caps:
        new = [0] * (n + 1)
        for total, w in enumerate(ways):
            if w:
                for x in range(min(cp, n - total) + 1):
                    new[total + x] += w
        ways = new
    return ways[n]


def _card_forward(
    cur: dict[int, int],
    trans: list[Trans],
    req: int,
    wclose: WClose,
    lim: int,
    capmask: int,
    guards: int,
) -> dict[int, int]:
    """Place one card on each allowed holder with room; close factors; drop dead states."""
    nd: dict[int, int] = {}
    get = nd.get
    if not wclose and not any(t[4] for t in trans):
        tr = [(rm, u, ob) for _h, rm, u, ob, _a in trans]
        for key, v in cur.items():
            for rm, u, ob in tr:
                if key & rm:
                    nk = (key - u) | ob
                    if req:
                        if nk & req != req:
                            continue
                        nk ^= req
                    if lim and (nk != guards if lim < 0 else (lim - (nk & capmask)) & guards != guards):
                        continue
                    nd[nk] = get(nk, 0) + v
        return nd
    for key, v in cur.items():
        for _h, rm, u, ob, ad in trans:
            if key & rm:
                nk = ((key - u) | ob) + ad
                if req:
                    if nk & req != req:
                        continue
                    nk ^= req
                if lim and (nk & capmask != guards if lim < 0 else (lim - (nk & capmask)) & guards != guards):
                    continue
                val = v
                for sh, fm, table in wclose:
                    val *= table[(nk & fm) >> sh]
                    nk &= ~fm
                nd[nk] = get(nk, 0) + val
    return nd


def _card_backward(
    fwd: dict[int, int],
    trans: list[Trans],
    req: int,
    wclose: WClose,
    bnext: dict[int, int],
) -> tuple[dict[int, int], list[int]]:
    """Completions from each state before a card step, and the deal count per holder of that card."""
    bcur: dict[int, int] = {}
    acc = [0] * len(trans)
    get = bnext.get
    if not wclose and not any(t[4] for t in trans):
        # No weight factor on this step: the same sums, without the weights (all 1).
        tr = [(i, rm, u, ob) for i, (_h, rm, u, ob, _a) in enumerate(trans)]
        for key, fv in fwd.items():
            s = 0
            for i, rm, u, ob in tr:
                if key & rm:
                    nk = (key - u) | ob
                    if req:
                        if nk & req != req:
                            continue
                        nk ^= req
                    bv = get(nk)
                    if bv:
                        s += bv
                        acc[i] += fv * bv
            if s:
                bcur[key] = s
        return bcur, acc
    for key, fv in fwd.items():
        s = 0
        for i, (_h, rm, u, ob, ad) in enumerate(trans):
            if key & rm:
                nk = ((key - u) | ob) + ad
                if req:
                    if nk & req != req:
                        continue
                    nk ^= req
                wgt = 1
                for sh, fm, table in wclose:
                    wgt *= table[(nk & fm) >> sh]
                    nk &= ~fm
                bv = get(nk)
                if bv:
                    t = bv * wgt
                    s += t
                    acc[i] += fv * t
        if s:
            bcur[key] = s
    return bcur, acc


def _group_forward(cur: dict[int, int], comps: list[Comp], lim: int, guards: int) -> dict[int, int]:
    """Spread a group of interchangeable cards in every way that fits, weighted by multinomials."""
    nd: dict[int, int] = {}
    get = nd.get
    for key, v in cur.items():
        for pk, mult, _k in comps:
            nk = key - pk
            if nk & guards != guards:
                continue
            if lim and (lim - nk) & guards != guards:
                continue
            nd[nk] = get(nk, 0) + v * mult
    return nd


def _group_backward(fwd: dict[int, int], comps: list[Comp], bnext: dict[int, int]) -> tuple[dict[int, int], list[int]]:
    """Completions from each state before a group step, and the deal weight of every spread."""
    bcur: dict[int, int] = {}
    acc = [0] * len(comps)
    get = bnext.get
    for key, fv in fwd.items():
        s = 0
        for i, (pk, mult, _k) in enumerate(comps):
            bv = get(key - pk)
            if bv:
                t = bv * mult
                s += t
                acc[i] += fv * t
        if s:
            bcur[key] = s
    return bcur, acc
