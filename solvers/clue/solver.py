"""Exact Clue deduction: probabilities of every card at every holder, by exact counting.

Public entry point: :func:`solve`.  The distribution is uniform over every deal (every card to the
envelope or a holder, hands and piles at their known sizes, one envelope card per category) that
agrees with the log.  Counting is exact (:mod:`solvers.clue.counting`), so ``deals`` is the true
number of consistent deals, probabilities are exact ratios rounded once to float, and a fact is
"certain" exactly when every consistent deal has it.

Refuter model (``refuter_model=True``, off by default).  Plain counting treats "Dan showed me the
Dagger" as "Dan holds the Dagger".  Under the model where a shower picks uniformly among the matching
cards they hold, the chance of that exact observation is ``1/m`` (m = how many of the rumor's
three cards the shower holds), so each deal is weighted by the product of ``1/m`` over the rumors in
which a card shown by another player is named in the log.  A show whose card I did not see has
likelihood 1 in every consistent deal, and a card I showed was my own choice, so neither is
weighted.  The weights only ever touch the two other rumor cards, so they fit in the same counting
programme as a 2-bit counter per rumor; ``deals`` stays the unweighted count, probabilities and
advice use the weights.

Advice (``advice=True``): the most likely envelope triple (exact: the accuse-now figure) and, for
every rumor in the given locations (default all), its exact expected information about the
envelope and about the deal and the expected number of deals left after its answer, from the exact
joint holders of its three cards; the model and the method are in :mod:`solvers.clue.advice`.

Contradictions.  When no deal fits, :func:`solve` returns status ``"contradiction"`` with a minimal
set of log entries that cannot all hold (removing any one makes the rest consistent).  It is found
by deletion: the shortest inconsistent prefix of the log is located by bisection, then each of its
entries is dropped in turn and kept out if the rest is still inconsistent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solvers.clue.advice import compute_advice
from solvers.clue.counting import CountResult, count
from solvers.clue.model import ENVELOPE, Problem, SolverInputError, build_inputs, build_problem

__all__ = ["ClueSolution", "SolverInputError", "minimal_conflict", "solve"]


@dataclass
class ClueSolution:
    """Result of :func:`solve`; ``to_json()`` gives the public dict form."""

    status: str
    exact: bool = True
    deals: int = 0
    envelope: dict[str, float] = field(default_factory=dict)
    holders: dict[str, dict[str, float]] = field(default_factory=dict)
    certain: dict[str, str] = field(default_factory=dict)
    advice: dict[str, Any] | None = None
    conflict: list[int] = field(default_factory=list)
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """The documented JSON shape (``deals`` stays a Python int, possibly huge)."""
        if self.status == "contradiction":
            return {"status": "contradiction", "conflict": list(self.conflict), "message": self.message}
        return {
            "status": self.status,
            "exact": self.exact,
            "deals": self.deals,
            "envelope": dict(self.envelope),
            "holders": {c: dict(h) for c, h in self.holders.items()},
            "certain": dict(self.certain),
            "advice": self.advice,
        }


def _consistent(problem: Problem, entries: Sequence[int]) -> bool:
    caps, allowed, clauses, _ = build_inputs(problem, entries)
    return count(caps, allowed, clauses, marginals=False).total > 0


def minimal_conflict(problem: Problem) -> list[int]:
    """A minimal inconsistent subset of log entries (deletion-based; assumes the full log is inconsistent)."""
    n = len(problem.entries)
    lo, hi = 1, n  # the shortest inconsistent prefix has length in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if _consistent(problem, range(mid)):
            lo = mid + 1
        else:
            hi = mid
    keep = list(range(lo))
    # The last entry of the shortest inconsistent prefix is needed; test the others.
    for i in reversed(range(lo - 1)):
        trial = [j for j in keep if j != i]
        if not _consistent(problem, trial):
            keep = trial
    return keep


def _conflict_message(problem: Problem, conflict: list[int]) -> str:
    """One plain sentence naming the conflicting entries."""
    parts = [problem.describe(i) for i in conflict]
    if len(parts) == 1:
        return f"No deal fits {parts[0]}: it contradicts the game setup."
    if len(parts) == 2:
        return f"{parts[0][0].upper()}{parts[0][1:]} and {parts[1]} contradict each other: no deal fits both."
    return "No deal fits all of " + ", ".join(parts[:-1]) + f" and {parts[-1]} together."


def _fill(problem: Problem, res: CountResult, sol: ClueSolution) -> None:
    assert res.marg is not None
    total = res.total
    public = problem.public_holders
    # The internal holders are the public ones with the envelope as three slots side by side:
    # a card's public row is its row with those three added up.
    e = problem.env_slots[0]
    assert problem.env_slots == (e, e + 1, e + 2) and public[e] == ENVELOPE
    for c, card in enumerate(problem.cards):
        row = res.marg[c]
        merged = [*row[:e], row[e] + row[e + 1] + row[e + 2], *row[e + 3:]]
        sol.holders[card] = dict(zip(public, [v / total for v in merged], strict=True))
        sol.envelope[card] = merged[e] / total
        if total in merged:  # the marginals of a card add up to the total: at most one holder has it all
            sol.certain[card] = public[merged.index(total)]


def solve(
    config: Mapping[str, Any],
    log: Sequence[Mapping[str, Any]],
    *,
    refuter_model: bool = False,
    advice: bool = False,
    advice_locations: Sequence[str] | None = None,
    advice_budget: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> ClueSolution:
    """Exact deduction for ``config`` + ``log``; raises :class:`SolverInputError` on unreadable input."""
    problem = build_problem(config, log)
    everything = range(len(problem.entries))
    caps, allowed, clauses, wfactors = build_inputs(problem, everything, refuter_model=refuter_model)
    weighted = bool(wfactors)
    res = count(caps, allowed, clauses, marginals=not weighted)
    if res.total == 0:
        conflict = minimal_conflict(problem)
        return ClueSolution(status="contradiction", conflict=conflict, message=_conflict_message(problem, conflict))
    sol = ClueSolution(status="ok", deals=res.total)
    probs = count(caps, allowed, clauses, wfactors) if weighted else res
    _fill(problem, probs, sol)
    if advice:
        sol.advice = compute_advice(
            problem,
            refuter_model=refuter_model,
            base=probs,
            locations=advice_locations,
            budget=advice_budget,
            stop=stop,
        )
    return sol
