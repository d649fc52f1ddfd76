"""Two bots head to head until a sequential probability ratio test decides, as engine testing does.

Seats alternate between the bots (A at even seats, B at odd ones, or the other way round). A game
scores 1 for A when a seat of A wins and none of B, 0 the other way, 1/2 otherwise (both, or
nobody). A *unit* is one game, or with ``paired`` one deal played twice with the bots' seats
swapped (its score the mean of the two), so the luck of the deal cancels.

The test (a generalised SPRT with the normal approximation, as chess-engine testing uses):
H0 "A's expected score is s0" against H1 "it is s1", s = 1 / (1 + 10^(-elo/400)). After each
unit the log-likelihood ratio is ``n (s1 - s0) (2 m - s0 - s1) / (2 v)`` (m, v: the mean and
variance of the unit scores, the variance regularised by one pseudo-loss and one pseudo-win);
no decision before ``MIN_UNITS`` units; it stops at ``log(beta / (1 - alpha))`` (accept H0: "not
stronger") or ``log((1 - beta) / alpha)`` (accept H1: "stronger"), or "undecided" at the cap.

Deterministic whatever the workers: every unit's deal and bot seeds derive from the run's seed
and the unit's index, units are played in batches (by processes, or Ray tasks) and folded in
index order (:mod:`solvers.runners`), and the test stops at the first unit where it decides; units past it are dropped.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import derive_seed
from solvers.runners import Runner, SerialRunner
from solvers.simulate import play_game

MIN_UNITS = 4  # no decision before this many units


def elo_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Sprt:
    """H0: A is ``elo0`` stronger than B; H1: ``elo1`` stronger; error rates ``alpha``, ``beta``."""

    elo0: float = 0.0
    elo1: float = 100.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta are error rates between 0 and 0.5.")
        if self.elo1 <= self.elo0:
            raise ValueError("elo1 must be above elo0 (H1 says A is stronger by more).")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, scores: Sequence[float]) -> float:
        n = len(scores)
        if n < 2:
            return 0.0
        s0, s1 = elo_score(self.elo0), elo_score(self.elo1)
        m = sum(scores) / n
        # Two pseudo-units, a loss and a win, regularise the variance: a short run of equal scores
        # would otherwise have none and decide at once.
        v = (sum((x - m) ** 2 for x in scores) + m**2 + (1 - m) ** 2) / (n + 2)
        return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)

    def decide(self, llr: float) -> str | None:
        if llr >= self.upper:
            return "stronger"
        if llr <= self.lower:
            return "not stronger"
        return None


@dataclass
class DuelResult:
    game: str
    bots: tuple[str, str]
    players: int
    seed: int
    paired: bool
    sprt: Sprt
    decision: str = "undecided"
    units: int = 0
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    steps: int = 0
    scores: list[float] = field(default_factory=list)
    llr_trace: list[float] = field(default_factory=list)

    def interval(self) -> tuple[float, float, float]:
        """A's mean score over units with a 95% normal interval."""
        n = len(self.scores)
        if not n:
            return 0.0, 0.0, 0.0
        m = sum(self.scores) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in self.scores) / max(n - 1, 1))
        h = 1.959964 * sd / math.sqrt(n)
        return m, max(0.0, m - h), min(1.0, m + h)

    def to_json(self) -> dict:
        m, lo, hi = self.interval()
        return {
            "game": self.game, "bots": list(self.bots), "players": self.players, "seed": self.seed,
            "paired": self.paired,
            "sprt": {"elo0": self.sprt.elo0, "elo1": self.sprt.elo1, "alpha": self.sprt.alpha,
                     "beta": self.sprt.beta, "lower": round(self.sprt.lower, 6), "upper": round(self.sprt.upper, 6)},
            "decision": self.decision, "llr": self.llr_trace[-1] if self.llr_trace else 0.0,
            "units": self.units, "games": self.games,
            "a_wins": self.a_wins, "b_wins": self.b_wins, "draws": self.draws, "steps": self.steps,
            "score": round(m, 6), "score_95": [round(lo, 6), round(hi, 6)],
            "llr_trace": self.llr_trace,
        }


# ------------------------------------------------------------------ one unit (runs in a worker)


def _seats(a: str, b: str, n: int, swap: bool) -> list[str]:
    first, second = (b, a) if swap else (a, b)
    return [first if i % 2 == 0 else second for i in range(n)]


def play_unit(job: tuple) -> dict:
    """Unit ``k``: one deal (two with ``paired``); a top-level function so processes and Ray can run it."""
    game, config_json, a, b, seed, k, paired, sims = job
    deal = derive_seed(seed, "deal", k)
    swaps = (False, True) if paired else (k % 2 == 1,)
    out: dict = {"k": k, "games": []}
    for swap in swaps:
        seats = _seats(a, b, config_json["players"], swap)
        r = play_game((game, config_json, seats, deal, sims))
        winners, steps = r["winners"], r["steps"]
        wa = any(w % 2 == int(swap) for w in winners)  # A sits at even seats, odd ones once swapped
        wb = any(w % 2 != int(swap) for w in winners)
        out["games"].append({"a": wa, "b": wb, "steps": steps})
    return out


def duel(game: str, config: Any, a: str, b: str, seed: int, sprt: Sprt, *, paired: bool = False,
         max_games: int = 2000, sims: int = 100, batch: int | None = None, runner: Runner | None = None,
         progress: Callable[[DuelResult], None] | None = None) -> DuelResult:
    """Units until the SPRT decides or ``max_games`` games are played; the same result for any runner.

    ``batch`` units are handed out at once (default: twice the runner's width, at least 8)."""
    runner = runner or SerialRunner()
    batch = batch or max(8, 2 * runner.width)
    res = DuelResult(game=game, bots=(a, b), players=config.players, seed=seed, paired=paired, sprt=sprt)
    per = 2 if paired else 1
    cap = max(1, max_games // per)
    cfg = config.to_json()
    k = 0
    while k < cap and res.decision == "undecided":
        jobs = [(game, cfg, a, b, seed, i, paired, sims) for i in range(k, min(cap, k + batch))]
        k += len(jobs)
        for unit in runner.map(play_unit, jobs):
            if res.decision != "undecided":
                continue  # past the deciding unit: dropped, so the workers never change the answer
            score = 0.0
            for g in unit["games"]:
                res.games += 1
                res.steps += g["steps"]
                if g["a"] and not g["b"]:
                    res.a_wins += 1
                    score += 1.0
                elif g["b"] and not g["a"]:
                    res.b_wins += 1
                else:
                    res.draws += 1
                    score += 0.5
            res.scores.append(score / len(unit["games"]))
            res.units += 1
            llr = round(sprt.llr(res.scores), 6)
            res.llr_trace.append(llr)
            if res.units >= MIN_UNITS:
                res.decision = sprt.decide(llr) or "undecided"
            if progress:
                progress(res)
    return res
