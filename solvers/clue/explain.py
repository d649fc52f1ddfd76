"""Why is a Clue fact certain: the notes that prove each ✓ and ✗ of the sheet.

Facts are ``("at", card, holder)`` (a ✓: every deal that fits has the card there) and
``("not", card, holder)`` (a ✗), holders by their public names (players, ``envelope``, piles,
``face_up``).  Every log entry is a note; leaving one out simply drops its constraints.

The judge of "certain from these notes" is a yes/no question: is there a deal of those notes
with the fact's negation?  It is answered without counting: first by a deal found earlier that
happens to fit (a witness), else by a depth-first search with the counter's propagation
(:func:`feasible`), and when that search runs past a small node budget, by CP-SAT.  The exact
counter of :mod:`solvers.clue.counting` lists the certain facts themselves.

CP-SAT (OR-Tools) has one model of the deal: one Boolean per (card, holder slot), "each card once"
and "each holder full" as linear constraints, and one *assumption literal* per note that switches
its constraints on.  It serves two ways: the hard yes/no questions above (feasibility of the
negated fact under the kept notes' assumptions), and the candidate set of an explanation: under all
the assumptions the negated fact is infeasible, and ``sufficient_assumptions_for_infeasibility()``
names a subset of the notes that already is, which the deletion pass of :mod:`solvers.explain`
then makes minimal.  The first fact of an explainer is found by divide and conquer instead (a tap
answers without building a model); every later one by its core (a sheet pays the model once, and
cores need fewer oracle calls; figures in ``docs/performance.md``).  Every CP-SAT solve is
single-threaded, with a fixed seed and a time limit (deterministic).  CP-SAT is reached through
:mod:`solvers.cpsat` (the same model and answers as ``cp_model``, without its pandas import: the
first core from a cold process no longer waits about half a second).
:meth:`ClueOracle.cpsat_certain` lists every ✓/✗ by CP-SAT alone (each negated fact's
feasibility), which the tests check against the counter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solvers.clue.counting import count, propagate
from solvers.clue.model import ENVELOPE, Problem, build_inputs, build_problem
from solvers.cpsat import load as load_cpsat
from solvers.explain import Explainer

__all__ = ["ClueOracle", "clue_explainer", "fact_json", "fact_sentence", "note_sentence"]

Fact = tuple[str, str, str]
_WITNESSES = 48  # deals kept to answer "not certain" without a search
_NODES = 64  # search nodes before a yes/no question goes to CP-SAT


class _Budget(Exception):
    """The search took more nodes than it may."""


def feasible(
    caps: list[int], allowed: list[int], clauses: list[Any], budget: list[int] | None = None
) -> list[int] | None:
    """Is there one deal (every card at an allowed holder, every holder full, every clause met)?

    Depth-first search with the counter's own propagation at every node (sound: it only applies
    forced facts).  A yes/no question is much cheaper than a count: most answers come from
    propagation alone, and a deal, when there is one, is usually found on the first path.
    Returns the deal (the holder of every card) or None.  ``budget`` (a one-item list) caps the
    nodes searched; :class:`_Budget` is raised when they run out.
    """
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Budget
    prop = propagate(caps, allowed, clauses, [])
    if prop is None:
        return None
    cap, allowed, fixed, cl, _, _ = prop
    unfixed = [c for c in range(len(allowed)) if fixed[c] < 0]
    if not unfixed:
        return [a.bit_length() - 1 for a in allowed] if not cl and not any(cap) else None
    if not cl:
        deal = _greedy(cap, allowed, unfixed)
        if deal is not None:
            return deal
    if cl:  # satisfy a clause first: try its literals' holders before the others
        c0, m0 = cl[0][0]
        card, first = c0, allowed[c0] & m0
    else:
        card = min(unfixed, key=lambda c: bin(allowed[c]).count("1"))
        first = allowed[card]
    a = allowed[card]
    order = [h for h in range(len(caps)) if first >> h & 1]
    order += [h for h in range(len(caps)) if a >> h & 1 and not first >> h & 1]
    for h in order:
        trial = list(allowed)
        trial[card] = 1 << h
        deal = feasible(caps, trial, list(cl), budget)
        if deal is not None:
            return deal
    return None


def _greedy(cap: list[int], allowed: list[int], unfixed: list[int]) -> list[int] | None:
    """A quick try at filling the holders without clauses: the most constrained card first, to the
    holder with the most room to spare; None when it gets stuck (the search then decides)."""
    room = list(cap)
    demand = [0] * len(cap)
    for c in unfixed:
        for h in range(len(cap)):
            if allowed[c] >> h & 1:
                demand[h] += 1
    deal = [a.bit_length() - 1 for a in allowed]
    for c in sorted(unfixed, key=lambda c: bin(allowed[c]).count("1")):
        options = [h for h in range(len(cap)) if allowed[c] >> h & 1 and room[h] > 0]
        if not options:
            return None
        h = max(options, key=lambda h: (room[h] - demand[h], room[h]))
        deal[c] = h
        room[h] -= 1
        for g in range(len(cap)):
            if allowed[c] >> g & 1:
                demand[g] -= 1
    return deal if not any(room) else None


class ClueOracle:
    """Certain ✓/✗ facts of a Clue problem from any subset of its notes."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.notes = list(range(len(problem.entries)))
        names = problem.holder_names
        self.holders = problem.public_holders
        self.hmask = {h: sum(1 << i for i, n in enumerate(names) if n == h) for h in self.holders}
        self.card_index = {c: i for i, c in enumerate(problem.cards)}
        self._model: Any = None
        self._witnesses: list[list[int]] = []  # deals found by earlier searches, newest first
        self._asked = False

    def _inputs(self, kept: frozenset[int]) -> tuple[list[int], list[int], list[Any]]:
        caps, allowed, clauses, _ = build_inputs(self.problem, sorted(kept))
        return caps, allowed, clauses

    def certain(self, kept: frozenset[int]) -> list[Fact]:
        """Every ✓ and ✗ of the sheet from the notes ``kept`` (cards in deck order)."""
        caps, allowed, clauses = self._inputs(kept)
        res = count(caps, allowed, clauses, marginals=True)
        if res.total == 0 or res.marg is None:
            return []
        out: list[Fact] = []
        names = self.problem.holder_names
        for c, card in enumerate(self.problem.cards):
            merged = dict.fromkeys(self.holders, 0)
            for h, v in enumerate(res.marg[c]):
                merged[names[h]] += v
            out.extend(("at", card, h) for h, v in merged.items() if v == res.total)
            out.extend(("not", card, h) for h, v in merged.items() if v == 0)
        return out

    def holds(self, fact: Fact, kept: frozenset[int]) -> bool:
        """No deal of ``kept`` has the fact's negation (a search for one such deal)."""
        kind, card, holder = fact
        caps, allowed, clauses = self._inputs(kept)
        c = self.card_index[card]
        m = self.hmask[holder]
        allowed[c] &= ~m if kind == "at" else m
        neg = (c, ~m if kind == "at" else m)
        for k, deal in enumerate(self._witnesses):
            if self._fits(deal, kept, neg):
                if k:
                    self._witnesses.insert(0, self._witnesses.pop(k))
                return False
        try:
            deal = feasible(caps, allowed, clauses, [_NODES])
        except _Budget:  # a hard case: CP-SAT decides, or else the exact counter
            verdict = self._cpsat_holds(fact, kept)
            if verdict is None:
                verdict = count(caps, allowed, clauses, marginals=False).total == 0
            return verdict
        if deal is None:
            return True
        self._witnesses.insert(0, deal)
        del self._witnesses[_WITNESSES:]
        return False

    def _fits(self, deal: list[int], kept: frozenset[int], neg: tuple[int, int]) -> bool:
        """Does a deal found before meet the notes ``kept`` and the negated fact?  (No search needed.)"""
        if not neg[1] >> deal[neg[0]] & 1:
            return False
        entries = self.problem.entries
        for i in kept:
            atoms = entries[i]
            for c, m in atoms.restrict:
                if not m >> deal[c] & 1:
                    return False
            for clause in atoms.clauses:
                if not any(m >> deal[c] & 1 for c, m in clause):
                    return False
        return True

    # ---------------------------------------------------------------- CP-SAT

    def _build_model(self) -> None:
        cp_model = load_cpsat()

        p = self.problem
        model = cp_model.CpModel()
        nh = len(p.caps)
        x: dict[tuple[int, int], Any] = {}
        for c in range(len(p.cards)):
            for h in range(nh):
                if p.base_allowed[c] >> h & 1:
                    x[c, h] = model.new_bool_var(f"x{c}_{h}")
            model.add_exactly_one(x[c, h] for h in range(nh) if (c, h) in x)
        for h in range(nh):
            model.add(sum(x[c, h] for c in range(len(p.cards)) if (c, h) in x) == p.caps[h])
        lits = []
        for i, atoms in enumerate(p.entries):
            a = model.new_bool_var(f"note{i}")
            lits.append(a)
            for c, m in atoms.restrict:  # "c lies with a holder in m": one clause, given exactly one holder
                inside = [x[c, h] for h in range(nh) if (c, h) in x and m >> h & 1]
                if len(inside) < sum(1 for h in range(nh) if (c, h) in x):
                    model.add_bool_or([*inside, a.Not()])
            for clause in atoms.clauses:
                terms = [x[c, h] for c, m in clause for h in range(nh) if (c, h) in x and m >> h & 1]
                model.add_bool_or([*terms, a.Not()])
        self._model = (model, x, lits)

    def candidate(self, fact: Fact) -> list[int] | None:
        """None for the first fact asked (divide and conquer), a CP-SAT core for the others."""
        if not self._asked:
            self._asked = True
            return None
        return self.core(fact)

    def core(self, fact: Fact, *, time_limit: float = 1.0) -> list[int] | None:
        """Notes in a CP-SAT core for the fact's negation; None if CP-SAT did not prove it."""
        cp_model = load_cpsat()

        _model, _x, lits = self._cp_model()
        run = self._solve_negation(fact, lits, time_limit)
        if run is None or run[0] != cp_model.INFEASIBLE:
            return None
        index = {lit.index: i for i, lit in enumerate(lits)}
        return sorted(index[v] for v in run[1].sufficient_assumptions_for_infeasibility() if v in index)

    def _cpsat_holds(self, fact: Fact, kept: frozenset[int], *, time_limit: float = 1.0) -> bool | None:
        """CP-SAT's verdict: is the fact's negation infeasible under the notes ``kept``? (None: gave up.)"""
        cp_model = load_cpsat()

        _model, _x, lits = self._cp_model()
        run = self._solve_negation(fact, [lits[i] for i in sorted(kept)], time_limit)
        if run is None:
            return None
        if run[0] == cp_model.INFEASIBLE:
            return True
        return False if run[0] in (cp_model.FEASIBLE, cp_model.OPTIMAL) else None

    def _cp_model(self) -> Any:
        if self._model is None:
            self._build_model()
        return self._model

    def _solve_negation(self, fact: Fact, notes: list[Any], time_limit: float) -> tuple[Any, Any] | None:
        """Solve the model under the fact's negation and the given note literals: (status, solver)."""
        negation = self._negation(fact)
        if negation is None:
            return None
        model = self._cp_model()[0]
        model.clear_assumptions()
        model.add_assumptions([*negation, *notes])
        solver = _cp_solver(time_limit)
        return solver.solve(model), solver

    def _negation(self, fact: Fact) -> list[Any] | None:
        """The fact's negation as CP-SAT literals (None when it is not one conjunction of literals)."""
        _model, x, _lits = self._model
        kind, card, holder = fact
        c = self.card_index[card]
        slots = [h for h in range(len(self.problem.caps)) if (c, h) in x and self.hmask[holder] >> h & 1]
        if kind == "at":
            return [x[c, h].Not() for h in slots]
        return [x[c, slots[0]]] if len(slots) == 1 else None

    def cpsat_certain(self, *, time_limit: float = 1.0) -> list[Fact] | None:
        """Every ✓/✗ by the feasibility of each negated fact under every note (None if CP-SAT gave up)."""
        cp_model = load_cpsat()

        if self._model is None:
            self._build_model()
        model, x, lits = self._model
        out: list[Fact] = []
        for c, card in enumerate(self.problem.cards):
            for holder in self.holders:
                slots = [h for h in range(len(self.problem.caps)) if (c, h) in x and self.hmask[holder] >> h & 1]
                tests = [("at", [x[c, h].Not() for h in slots])]
                tests.append(("not", [x[c, slots[0]]] if slots else []))
                for kind, negation in tests:
                    if kind == "not" and not slots:
                        out.append((kind, card, holder))
                        continue
                    model.clear_assumptions()
                    model.add_assumptions([*negation, *lits])
                    solver = _cp_solver(time_limit)
                    status = solver.solve(model)
                    if status == cp_model.INFEASIBLE:
                        out.append((kind, card, holder))
                    elif status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
                        return None
        order = {f: i for i, f in enumerate(self.certain(frozenset(self.notes)))}
        return sorted(out, key=lambda f: order.get(f, len(order)))


def _cp_solver(time_limit: float) -> Any:
    """One deterministic CP-SAT solver: one worker, a fixed seed, a time limit, and none of the
    set-up work (presolve, LP, symmetry, probing) that costs more than it saves on a model this
    small: 10 ms a core instead of 43 (benchmarks/explain.py)."""
    cp_model = load_cpsat()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0  # no LP: the model is pure Boolean
    solver.parameters.symmetry_level = 0
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.max_time_in_seconds = time_limit
    return solver


def clue_explainer(
    config: Mapping[str, Any], log: Sequence[Mapping[str, Any]], *, cpsat: bool = True
) -> Explainer:
    """An :class:`Explainer` of every ✓/✗ (raises ``SolverInputError`` on unreadable input).

    With ``cpsat`` the first fact asked is found by divide and conquer (a tap answers without
    building a model) and every later one from a CP-SAT core (a sheet of facts pays the model once).
    """
    oracle = ClueOracle(build_problem(config, log))
    return Explainer(oracle, candidates=oracle.candidate if cpsat else None, holds=oracle.holds)


def fact_json(fact: Fact) -> dict[str, str] | None:
    """The CLI form of a ✓ (an item of ``certain``: ``{"card", "holder"}``); None for a ✗."""
    kind, card, holder = fact
    return {"card": card, "holder": holder} if kind == "at" else None


def _holder_words(holder: str) -> str:
    return {ENVELOPE: "in the envelope", "face_up": "face up"}.get(holder, f"at {holder}")


def fact_sentence(fact: Fact) -> str:
    """'the Arakh is at Bob' / 'the Arakh is not in the envelope'."""
    kind, card, holder = fact
    where = _holder_words(holder)
    return f"{card} is {where}" if kind == "at" else f"{card} is not {where}"


def note_sentence(entry: Mapping[str, Any], me: str) -> str:
    """One note as a sentence: '#3 Cat could not show Jaime, the Arakh or the Privy'-style."""
    kind = entry.get("type")
    cards = [str(c) for c in entry.get("cards") or []]
    if kind == "hand":
        return f"my hand is {_and(cards)}"
    if kind == "face_up":
        return f"{_and(cards)} lie face up"
    if kind == "reveal":
        return f"{entry.get('player')} holds {_and(cards)}"
    if kind == "not_held":
        return f"{entry.get('player')} holds none of {_and(cards, 'or')}"
    if kind == "accusation":
        if entry.get("correct"):
            return f"{entry.get('by')}'s accusation {_and(cards)} was right"
        return f"{entry.get('by')}'s accusation {_and(cards)} was wrong"
    parts = [f"{p} could not show {_and(cards, 'or')}" for p in entry.get("passed") or []]
    shower = entry.get("shown_by")
    if shower is None:
        parts.append("nobody showed a card")
    elif entry.get("card") is not None:
        who = "I" if shower == me else str(shower)
        parts.append(f"{who} showed {entry.get('card')}")
    else:
        parts.append(f"{shower} showed one of {_and(cards, 'or')}")
    return f"{entry.get('by')} asked {_and(cards)}: " + "; ".join(parts)


def _and(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} {items[-1]}"

explainer = clue_explainer  # the name every game's explain module exports (solvers.why)
