"""Complete certain facts of the Tokyo Ghoul card-flow model with CP-SAT, at any table size.

The exact card-flow pass (:mod:`solvers.ghoul.flow`) counts every world; at 7-8 players (and 6
with the Mask variant) the joint state is too large for it. What a player reads as *certain*
("✓ Ben has a Dove", "✗ no Food", "not Mado") needs no counting, only possibility: a fact is
certain if and only if no world of positive weight breaks it. This module states the same
worlds as a CP-SAT model and asks, per fact, whether its negation is feasible.

The model is built by replaying the log through the very code of the card-flow pass
(:meth:`flow._Pass.run`, so every observation is the same test on a hand), with each test
recorded as constraints instead of applied to rows:

* per player and per point where its cards moved, one Boolean per possible hand (exactly one
  true); the dealt hands use up the deck suit by suit;
* per unknown player, one Boolean per character it may be (exactly one; a character at most once);
* a test on a hand forbids the hands that fail it; a turn without an instant victory forbids,
  for each character with one, its winning hands for that player when it is that character;
* a card movement links each hand before to the hand after through the move chosen: the
  preliminary phase's gifts (one suit per giver, from its hidden hand), an exchange seen (fixed)
  or unseen (none, or a suit given and one taken, from the hand or the face-up card, with the
  public face-up events of the Mask rules), exactly the moves of positive weight in the pass
  (an exchange chance of 0 leaves only "none", 1 only exchanges).

A world satisfies the model if and only if it has positive weight in the card-flow model, so
the facts are exactly the ones the counter would find (``tests/solvers/test_ghoul_cpsat.py``
checks that wherever both run). The worlds already known (sampled deals) and a sound outer bound
(the per-player relaxation: every fact it proves is true) leave only the facts between them to
check, usually none. Each check is a solve under an *assumption literal* (the fact's negation, or
the disjunction of every remaining fact's) with the last solution as a *hint*; every solution
found also settles the other facts it breaks. CP-SAT runs with one worker, a fixed seed and caps
in deterministic time (a count of work, not the clock: the same log gets the same answer on a
busy machine); a fact no check settles within them is *undecided*, reported as such and never
claimed certain (``docs/ghoul.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.ghoul.data import MASK
from solvers.cpsat import load as load_cpsat
from solvers.ghoul.flow import FlowConflict, _Pass
from solvers.ghoul.hands import universe

TIME_CAP = 2.0
"""CP-SAT's deterministic time (work units of about a second) one fact's check may take before
the fact is called undecided: a count, not a clock, so the same log gets the same answer on a
busy machine."""

LIGHT_CAP = 0.15
"""Deterministic time a check may take with the light settings before it is solved with the
defaults (and the cap of each search for a world that breaks any remaining fact)."""

BUDGET = 6.0
"""Deterministic time every check of one :func:`possible` may take together; the facts left
when it is spent are undecided."""

WALL_CAP = 30.0
"""A last guard in seconds of the clock per check (never reached on the benchmark; on a machine
so busy that it is, the fact is undecided, never claimed)."""


@dataclass
class Possible:
    """Per player, the fewest and most cards of each suit, and every character, over the worlds
    of positive weight at the end of the log: what the certain facts are read from.

    ``undecided``: the facts no check settled, ("low" | "high", player, suit, the count the fact
    would claim) or ("char", player, character, None); their ranges are the outer bound's, so
    nothing unproven is claimed."""

    low: list[list[int]]
    high: list[list[int]]
    characters: list[set[str]]
    approximate: list[str]
    solves: int
    undecided: list[tuple[str, int, Any, int | None]] = field(default_factory=list)
    spent: float = 0.0


class _Model(_Pass):
    """The card-flow pass's replay, recorded as a CP-SAT model (see the module docstring)."""

    def __init__(self, problem: Any, fixed: list[str | None], allowed: list[set[str]], chance: float) -> None:
        cp_model = load_cpsat()

        super().__init__(problem, fixed, allowed, chance)
        self.m = cp_model.CpModel()
        m, n, nh = self.m, self.n, self.nh
        self.x = [[m.new_bool_var(f"h{q}_{i}") for i in range(nh)] for q in range(n)]
        for q in range(n):
            m.add_exactly_one(self.x[q])
        for s in range(5):
            coef = self.counts[:, s]
            m.add(sum(int(coef[i]) * self.x[q][i] for q in range(n) for i in range(nh) if coef[i]) == problem.deck[s])
        self.y: dict[int, dict[str, Any]] = {}
        for q in self.unknown:
            self.y[q] = {c: m.new_bool_var(f"c{q}_{c}") for c in sorted(allowed[q])}
            if not self.y[q]:
                raise FlowConflict
            m.add_exactly_one(list(self.y[q].values()))
        chars = sorted({c for q in self.unknown for c in self.y[q]})
        for c in chars:
            lits = [self.y[q][c] for q in self.unknown if c in self.y[q]]
            if len(lits) > 1:
                m.add_at_most_one(lits)
        self._k = 0

    # --- helpers
    def _fresh(self, q: int) -> list[Any]:
        self._k += 1
        new = [self.m.new_bool_var(f"h{q}_{i}_{self._k}") for i in range(self.nh)]
        self.m.add_exactly_one(new)
        return new

    def _hidden(self, q: int) -> np.ndarray:
        """(hands x suits) cards of each suit in ``q``'s hidden hand, as :meth:`hidden_counts`."""
        c, _size = self.hidden_counts(q, np.arange(self.nh))
        return c

    # --- the pass's operations, as constraints
    def deal(self, my_hand: tuple[int, ...] | None) -> None:  # the deck constraint is set up front
        if my_hand is not None:
            self.restrict(self.p.me, (self.counts == np.array(my_hand)).all(axis=1))

    def restrict(self, q: int, ok_hand: np.ndarray) -> None:
        for i in np.nonzero(~np.asarray(ok_hand, dtype=bool))[0]:
            self.m.add(self.x[q][int(i)] == 0)

    def prune(self) -> None:
        pass

    def weigh(self, q: int, like: np.ndarray) -> None:  # a chance > 0 is possible: only the support
        self.restrict(q, np.asarray(like) > 0)

    def scale(self, f: float) -> None:
        pass

    def expand(self) -> None:
        pass

    def not_claimed(self, q: int) -> None:
        for j in range(1, len(self.instants)):
            bad = np.nonzero(self.inst_hand[j])[0]
            if q in self.y:
                for c, lit in self.y[q].items():
                    if _class_of(c, self.instants) == j:
                        for i in bad:
                            self.m.add_implication(lit, self.x[q][int(i)].negated())
            elif _class_of(self._fixed[q], self.instants) == j:
                self.restrict(q, ~self.inst_hand[j])

    def move_known(self, a: int, b: int, g: int, t: int) -> None:
        for q, give, take in ((a, g, t), (b, t, g)):
            new = self._fresh(q)
            to = self.known[give, take]
            for i in range(self.nh):
                if to[i] < 0:
                    self.m.add(self.x[q][i] == 0)
                else:
                    self.m.add_implication(self.x[q][i], new[int(to[i])])
            self.x[q] = new

    def hidden_exchange(self, a: int, b: int, changed: dict[int, int | None]) -> None:
        p, m = self.p, self.m
        board = p.mask and self.face_up[a] is not None and self.face_up[b] is not None
        if p.mask and not board:
            self.approximate.append("a face-up card is unknown at an interrogation I could not see")
        ca, cb = self._hidden(a), self._hidden(b)

        def options(c: np.ndarray, q: int) -> list[tuple[int, bool]]:
            opts = [(s, False) for s in range(5) if c[:, s].any()]
            if board:
                u = self.face_up[q]
                assert u is not None
                opts.append((u, True))
            return opts

        # (give, from board, take, from board) or None: no exchange.
        moves: list[tuple[int, bool, int, bool] | None] = []
        if self.chance < 1.0:
            moves.append(None)
        if self.chance > 0.0:
            moves += [(g, gb, t, tb) for g, gb in options(ca, a) for t, tb in options(cb, b)]
        lits = [m.new_bool_var(f"x{self._k}_{k}") for k in range(len(moves))]
        if not lits:
            raise FlowConflict
        m.add_exactly_one(lits)
        new = {a: self._fresh(a), b: self._fresh(b)}
        for lit, mv in zip(lits, moves, strict=True):
            for q, c, side in ((a, ca, 0), (b, cb, 1)):
                if mv is None:
                    give = take = None
                    left = False
                else:
                    give, gb, take, _tb = mv if side == 0 else (mv[2], mv[3], mv[0], mv[1])
                    left = gb
                for i in range(self.nh):
                    if give is None:
                        j = i
                    elif (not left and c[i, give] < 1) or self.known[give, take][i] < 0:
                        j = -1
                    else:
                        j = int(self.known[give, take][i])
                    if j < 0:
                        m.add_bool_or([lit.negated(), self.x[q][i].negated()])
                    else:
                        m.add_bool_or([lit.negated(), self.x[q][i].negated(), new[q][j]])
                if p.mask and self.face_up[q] is not None:
                    # The public face-up events must be the ones seen (flow._Pass._face_events).
                    u = self.face_up[q]
                    for j in range(self.nh):
                        has_mask = self.counts[j, MASK] >= 1
                        event = True if left else (bool(has_mask) if u != MASK else False)
                        if event != (q in changed):
                            m.add_bool_or([lit.negated(), new[q][j].negated()])
        self.x[a], self.x[b] = new[a], new[b]

    def preliminary(self, e: dict) -> None:
        opening = self._preliminary_opening(e)
        if opening is None:
            return
        n, me, right, left = opening
        m = self.m
        gift = []
        for q in range(n):
            known = e["gave"] if q == me else (e["received"] if q == left else None)
            lits = [m.new_bool_var(f"g{self._k}_{q}_{s}") for s in range(5)]
            m.add_exactly_one(lits)
            hid = self._hidden(q)
            for s in range(5):
                if known is not None and s != known:
                    m.add(lits[s] == 0)
                    continue
                for none in np.nonzero(hid[:, s] < 1)[0]:
                    m.add_bool_or([lits[s].negated(), self.x[q][int(none)].negated()])
            gift.append(lits)
        new = [self._fresh(q) for q in range(n)]
        for q in range(n):
            frm = (q + 1) % n  # the left neighbour gives to q
            for s in range(5):
                for r in range(5):
                    to = self.known[s, r]
                    for i in range(self.nh):
                        j = int(to[i])
                        clause = [gift[q][s].negated(), gift[frm][r].negated(), self.x[q][i].negated()]
                        m.add_bool_or(clause if j < 0 else [*clause, new[q][j]])
        self.x = new
        del right
        for q, c in e["face_up"].items():
            self.face_up[q] = c
        for q in range(n):
            self.face_rule(q)


def _class_of(c: str | None, instants: list[tuple[int, int] | None]) -> int:
    from solvers.ghoul.flow import _CHARS

    if c is None:
        return 0
    inst = _CHARS[c].instant
    return instants.index(inst) if inst in instants else 0


def possible(
    problem: Any,
    fixed: list[str | None],
    allowed: list[set[str]],
    chance: float,
    subset: Sequence[int] | None = None,
    seen_hands: Sequence[set[int]] | None = None,
    seen_characters: Sequence[set[str]] | None = None,
    outer_hands: Sequence[set[int]] | None = None,
    outer_characters: Sequence[set[str]] | None = None,
    time_cap: float | None = None,
    budget: float | None = None,
) -> Possible:
    """The range of every player's count of every suit, and every character, over the worlds of
    positive weight; raises :class:`FlowConflict` when there is none.

    ``seen_*`` (known possible, e.g. sampled worlds) spare solves; ``outer_*`` (a sound outer
    bound: every world's final hands and characters lie within them, e.g. the per-player
    relaxation's) are added to the model as redundant constraints, and a fact they already prove
    is not checked. First one check at a time asks for a world outside every range found so far
    (one assumption literal for that disjunction); each world found widens the ranges and hints
    the next solve; an infeasible check proves every range complete. When such a check is not
    settled quickly, each remaining fact is checked alone (its own assumption literal). A fact
    no check settles within ``time_cap`` (or once ``budget`` is spent) is *undecided*: its range
    is widened to the outer bound's (so nothing unproven is claimed) and it is listed in
    :attr:`Possible.undecided`. Both caps are CP-SAT's deterministic time (not the clock);
    by default :data:`TIME_CAP` and :data:`BUDGET`."""
    time_cap = TIME_CAP if time_cap is None else time_cap
    budget = BUDGET if budget is None else budget
    entries = [problem.entries[i] for i in (range(len(problem.entries)) if subset is None else subset)]
    n = problem.n
    counts = np.array(universe(problem.hand_size, problem.deck).hands, dtype=np.int64).reshape(-1, 5)
    nh = len(counts)
    unknown = {q: set(allowed[q]) for q in range(n) if fixed[q] is None}
    # The outer bound's ranges (the model gets its sets as constraints, below).
    outer = [set(range(nh)) if outer_hands is None else set(outer_hands[q]) for q in range(n)]
    if any(not o for o in outer) or any(not d for d in unknown.values()):
        raise FlowConflict
    olow = [[min(int(counts[i, s]) for i in outer[q]) for s in range(5)] for q in range(n)]
    ohigh = [[max(int(counts[i, s]) for i in outer[q]) for s in range(5)] for q in range(n)]
    ochars = {q: {c for c in d if outer_characters is None or c in outer_characters[q]} for q, d in unknown.items()}

    low = [[99] * 5 for _ in range(n)]
    high = [[-1] * 5 for _ in range(n)]
    chars: list[set[str]] = [set() for _ in range(n)]

    def saw(q: int, i: int) -> None:
        for s in range(5):
            low[q][s] = min(low[q][s], int(counts[i, s]))
            high[q][s] = max(high[q][s], int(counts[i, s]))

    for q in range(n):
        for i in seen_hands[q] if seen_hands is not None else ():
            saw(q, i)
        if q not in unknown:
            chars[q] = {fixed[q]} if fixed[q] is not None else set()
        elif seen_characters is not None:
            chars[q] = set(seen_characters[q])

    def candidates() -> list[tuple[str, int, Any]]:
        """The facts not yet proven nor refuted: ("low"/"high", player, suit), ("char", player, c)."""
        out: list[tuple[str, int, Any]] = []
        for q in range(n):
            for s in range(5):
                if low[q][s] > olow[q][s]:
                    out.append(("low", q, s))
                if high[q][s] < ohigh[q][s]:
                    out.append(("high", q, s))
        for q in unknown:
            out += [("char", q, c) for c in sorted(ochars[q] - chars[q])]
        return out

    if seen_hands is not None and not candidates():
        # The worlds seen and the outer bound meet: every range is proven without a solve.
        return Possible(low=low, high=high, characters=chars, approximate=[], solves=0)
    cp_model = load_cpsat()
    md = _Model(problem, fixed, allowed, chance)
    md.deal(None)
    md.run(entries)
    m = md.m
    for q in range(n):
        for i in range(nh):
            if i not in outer[q]:
                m.add(md.x[q][i] == 0)
        for c, lit in md.y.get(q, {}).items():
            if c not in ochars[q]:
                m.add(lit == 0)
    # Many small solves of one model: presolve, probing and the LP cost more than they save
    # (about 3x faster per check at 8 players); a check they cannot settle within the light
    # cap (typically an infeasibility proof) is solved again with the defaults.
    light = cp_model.CpSolver()
    light.parameters.cp_model_presolve = False
    light.parameters.cp_model_probing_level = 0
    light.parameters.linearization_level = 0
    careful = cp_model.CpSolver()
    for sv in (light, careful):
        sv.parameters.num_workers = 1
        sv.parameters.random_seed = 7
        sv.parameters.max_time_in_seconds = WALL_CAP
    solves = 0
    spent = 0.0

    def check(assume: list[Any], cap: float) -> bool | None:
        """A world under ``assume`` (True: the ranges widened by it), none (False), or no answer
        within ``cap`` (None): light settings first, then the defaults."""
        nonlocal solves, spent
        m.clear_assumptions()
        m.add_assumptions(assume)
        st = cp_model.UNKNOWN
        for solver, limit in ((light, min(LIGHT_CAP, cap)), (careful, cap)):
            left = budget - spent
            if left <= 0 or limit <= 0:
                break
            solver.parameters.max_deterministic_time = min(limit, left)
            solves += 1
            st = solver.solve(m)
            spent += solver.deterministic_time
            if st != cp_model.UNKNOWN:
                break
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            m.clear_hints()
            for q in range(n):
                for i in range(nh):
                    v = solver.boolean_value(md.x[q][i])
                    m.add_hint(md.x[q][i], v)
                    if v:
                        saw(q, i)
                for c, lit in md.y.get(q, {}).items():
                    v = solver.boolean_value(lit)
                    m.add_hint(lit, v)
                    if v:
                        chars[q].add(c)
            return True
        if st == cp_model.INFEASIBLE:
            return False
        return None

    undecided: list[tuple[str, int, Any]] = []
    claims: dict[tuple[str, int, Any], int | None] = {}  # what an undecided fact would have claimed

    def breaking(fact: tuple[str, int, Any]) -> list[Any]:
        """The literals of which one is true in a world that breaks ``fact``."""
        kind, q, s = fact
        if kind == "char":
            return [md.y[q][s]]
        if kind == "low":
            return [md.x[q][i] for i in sorted(outer[q]) if counts[i, s] < low[q][s]]
        return [md.x[q][i] for i in sorted(outer[q]) if counts[i, s] > high[q][s]]

    def enforce(lits: list[Any]) -> Any:
        lit = m.new_bool_var(f"breaks{solves}")
        m.add_bool_or(lits).only_enforce_if(lit)
        return lit

    if seen_hands is None:
        found = check([], time_cap)
        if found is False:
            raise FlowConflict
    proven: set[tuple[str, int, Any]] = set()
    if seen_hands is not None or found:
        # Worlds that break any remaining fact, while they come quickly.
        while True:
            todo = candidates()
            if not todo:
                break
            found = check([enforce([lit for fact in todo for lit in breaking(fact)])], LIGHT_CAP)
            if found is None:
                break
            if found is False:
                proven.update(todo)
                break
        # Then every remaining fact alone.
        while True:
            todo = [f for f in candidates() if f not in proven and f not in undecided]
            if not todo:
                break
            fact = todo[0]
            found = check([enforce(breaking(fact))], time_cap)
            if found is False:
                proven.add(fact)
            elif found is None:
                undecided.append(fact)
    else:
        # Not even one world found: only the outer bound is known, every fact it leaves open is
        # undecided (with no count claimed: any count within the bound's range may be certain).
        for q in range(n):
            for s in range(5):
                low[q][s], high[q][s] = ohigh[q][s], olow[q][s]
        undecided = candidates()
        claims.update((fact, None) for fact in undecided)
    for kind, q, s in undecided:
        claims.setdefault((kind, q, s), low[q][s] if kind == "low" else (high[q][s] if kind == "high" else None))
        if kind == "low":
            low[q][s] = olow[q][s]
        elif kind == "high":
            high[q][s] = ohigh[q][s]
        else:
            chars[q].add(s)
    return Possible(low=low, high=high, characters=chars, approximate=sorted(set(md.approximate)), solves=solves,
                    undecided=sorted((k, q, s, claims[(k, q, s)]) for k, q, s in undecided), spent=spent)


def certain(problem: Any, pos: Possible) -> dict[str, Any]:
    """``solve()``'s ``certain`` from the ranges (the same fields as the exact counter's)."""
    from engine.ghoul.data import SUITS

    suits = [s for s in range(5) if problem.deck[s] > 0]
    out: dict[str, Any] = {}
    for q in range(problem.n):
        lo, hi = pos.low[q], pos.high[q]
        only = all(lo[s] == hi[s] for s in suits)
        out[problem.names[q]] = {
            "has": {SUITS[s]: lo[s] for s in suits if lo[s] > 0},
            "lacks": [SUITS[s] for s in suits if hi[s] == 0],
            "at_most": {SUITS[s]: hi[s] for s in suits},
            "hand": [SUITS[s] for s in range(5) for _ in range(lo[s])] if only else None,
            "character": next(iter(pos.characters[q])) if len(pos.characters[q]) == 1 else None,
            "not_characters": sorted(c for c in problem.cast if c not in pos.characters[q]),
        }
    return out


def undecided(problem: Any, pos: Possible) -> list[dict[str, Any]]:
    """The facts CP-SAT could not settle, as ``solve()`` reports them (``"undecided"``): each one
    may be certain or not; it is left out of ``certain``."""
    from engine.ghoul.data import SUITS

    out: list[dict[str, Any]] = []
    for kind, q, what, claim in pos.undecided:
        name = problem.names[q]
        if kind in ("low", "high"):
            fact = {"player": name, "fact": "has" if kind == "low" else "at_most", "suit": SUITS[what]}
            out.append(fact if claim is None else fact | {"count": claim})
        else:
            out.append({"player": name, "fact": "not_character", "character": what})
    return out
