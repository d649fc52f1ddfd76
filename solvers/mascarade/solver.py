"""``solve(config, log)``: where every mask sits, from one seat's notes of a Mascarade table.

The input is the session format of ``docs/mascarade.md`` (the same entries the bots build from
their views). The output is one JSON object::

    {"status": "ok", "exact": true, "error_bound": 0.0, "layouts": 12,
     "probabilities": {place: {mask: p}}, "certain": {"at": {place: mask}, "not": {place: [mask]}},
     "table": {"coins": {...}, "court": 0, "order": [...], "coins_unsure": [...]}, "advice": {...}}

or ``{"status": "contradiction", "conflict": [entry indexes], "message": "..."}`` when no
layout fits the notes; index ``-1`` stands for the opening layout in the config. Malformed
input raises :class:`SolverInputError` with a one-line message.
"""

from __future__ import annotations

import time
from typing import Any

from engine.mascarade.data_files import load_rules
from solvers.mascarade.advice import announce_ev, best_turn, counter_ev, situation_of
from solvers.mascarade.belief import Contradiction
from solvers.mascarade.model import Setup, SolverInputError, Tracker, parse_config, run_log
from solvers.mascarade.validate import validate

__all__ = ["CONFLICT_BUDGET", "SolverInputError", "find_conflict", "minimal_conflict", "solve"]


def _consistent(setup: Setup, log: list, keep: list[int], opening: bool) -> bool:
    skip = frozenset(range(len(log))) - frozenset(keep)
    try:
        run_log(setup, log, skip, opening)
    except Contradiction:
        return False
    return True


CONFLICT_BUDGET = 3.0
"""Seconds the search for a minimal conflict may take. Each try replays the whole log (in particle
mode about a second on a 12-player table), and a long log once took a minute and a half; past the
budget the set found so far is given, which cannot all hold but may not be minimal."""


def minimal_conflict(setup: Setup, log: list, failed_at: int) -> list[int]:
    """A minimal set of entries that cannot all hold (deletion-based); -1 is the opening layout.
    No time limit: :func:`find_conflict` with ``budget=None``."""
    return find_conflict(setup, log, failed_at)[0]


def find_conflict(setup: Setup, log: list, failed_at: int, budget: float | None = None) -> tuple[list[int], bool]:
    """(a set of entries that cannot all hold, whether it is minimal); -1 is the opening layout.

    ``failed_at`` is the entry at which the replay found no layout: the prefix up to it is
    inconsistent. When that entry alone (with the opening) cannot hold, that is the answer.
    Otherwise each earlier entry (and the opening) is dropped in turn and left out when the rest
    stays inconsistent; what remains needs every member. After ``budget`` seconds the dropping
    stops and the set found so far is given, not minimal.
    """
    deadline = None if budget is None else time.monotonic() + budget
    opening = setup.opening is not None
    minimal = True
    if not _consistent(setup, log, [failed_at], opening):
        keep = [failed_at]
    else:
        keep = list(range(failed_at + 1))
        for i in reversed(range(failed_at)):
            if deadline is not None and time.monotonic() > deadline:
                minimal = False
                break
            trial = [k for k in keep if k != i]
            if not _consistent(setup, log, trial, opening):
                keep = trial
    if opening and minimal and not _consistent(setup, log, keep, False):
        opening = False
    return ([-1] if opening else []) + keep, minimal


def _advice(tr: Tracker) -> dict:
    sit = situation_of(tr)
    names = tr.places
    out: dict[str, Any] = {"units": "win-chance points (a model; see docs/mascarade.md)", "announce": {},
                           "counter_claim": {}}
    for m in tr.masks:
        r = announce_ev(sit, m)
        out["announce"][m] = {"p_hold": round(r["p_hold"], 6), "ev": round(r["ev"], 6)}
        out["counter_claim"][m] = {names[j]: counter_ev(sit, j, m)["claim"] for j in range(len(tr.names))
                                   if j != tr.me}
    legal: list[tuple] = [("swap", t, sw) for t in range(len(names)) if t != tr.me for sw in (True, False)]
    if tr.turn_actions >= load_rules().opening_turns:  # the first turns are swap-or-pretend only
        legal += [("look",)] + [("announce", m) for m in tr.masks]
    action, _ = best_turn(sit, legal)
    best: dict[str, Any] = {"action": action[0]}
    if action[0] == "announce":
        best["mask"] = action[1]
    elif action[0] == "swap":
        best["with"] = names[action[1]]
        best["swapped"] = action[2]
    out["best"] = best
    p = tr.pending
    if p is not None and not p.get("resolved") and p["by"] != tr.me and tr.me not in p["claimants"]:
        r = counter_ev(sit, p["by"], p["mask"], p["claimants"])
        out["pending"] = {"by": names[p["by"]], "mask": p["mask"], "claim": r["claim"],
                          "ev_claim": round(r["ev_claim"], 6), "ev_pass": round(r["ev_pass"], 6)}
    return out


def solve(config: dict, log: list, *, advice: bool = True) -> dict:
    """Probabilities, certain facts and advice for the seat ``config["me"]`` (see module doc)."""
    validate(config, log)
    setup = parse_config(config)
    tr = Tracker(setup)
    for i, e in enumerate(log):
        try:
            tr.add(e, i)
        except Contradiction as err:
            conflict, minimal = find_conflict(setup, log, i, CONFLICT_BUDGET)
            where = ", ".join("the opening" if k == -1 else f"entry {k}" for k in conflict)
            more = "" if minimal else f"; the search for the fewest stopped after {CONFLICT_BUDGET:g} s"
            return {"status": "contradiction", "conflict": conflict, "minimal": minimal,
                    "message": f"No card layout fits these notes together: {where} ({err}{more})."}
    return result_of(tr, advice=advice)


def result_of(tr: Tracker, advice: bool = True) -> dict:
    """The JSON answer for a tracker's current state."""
    b = tr.belief
    marg = b.marginals()
    poss = b.possible()
    names = tr.places
    probs = {names[p]: {m: float(marg[p, k]) for k, m in enumerate(b.ids)} for p in range(b.P)}
    at: dict[str, str] = {}
    never: dict[str, list[str]] = {}
    for p in range(b.P):
        allowed = [m for k, m in enumerate(b.ids) if poss[p, k]]
        if len(allowed) == 1:
            at[names[p]] = allowed[0]
        missing = [m for k, m in enumerate(b.ids) if not poss[p, k]]
        if missing:
            never[names[p]] = missing
    coins, court = list(tr.coins), tr.court
    for p in tr.fines_due:  # the last challenge's fines, owed now (the tracker pays them at the next turn)
        k = min(1, coins[p])
        coins[p] -= k
        court += k
    out = {"status": "ok", "exact": b.exact, "error_bound": b.error_bound(), "layouts": b.size(),
           "unseen": b.unseen(), "probabilities": probs, "certain": {"at": at, "not": never},
           "table": {"coins": dict(zip(tr.names, coins, strict=True)), "court": court,
                     "order": [tr.names[i] for i in tr.order], "coins_unsure": list(tr.coins_unsure)}}
    if advice:
        out["advice"] = _advice(tr)
    return out
