"""Calibration: when bots play exactly as a solver's documented model says, its probabilities
come true as often as they say (issue 21, acceptance 4).

Seeded games are played by bots that follow the model (Mascarade: every seat random, so a hidden
swap-or-pretend is a real swap half the time, the default ``swap_prior``, and no public choice
depends on a hidden card; Clue: every seat random, so a refuter shows any of its matching cards
with equal chance, the ``refuter_model`` the solver is asked to use, and rumors do not depend on
the hand). One seat's notes are solved along the way; each probability strictly
between 0 and 1 is put in one of ten buckets with whether it came true. The predictions of one
game are correlated, so the noise is estimated per game (a cluster-robust standard error): per
bucket ``z = sum(outcome - p) / sqrt(sum over games of (sum of that game's outcome - p)^2)``. A
bucket fails when ``|z|`` passes ``Z_LIMIT``. The default run plays a small sample; the soak plays
300 Mascarade and 200 Clue games and prints the reliability tables.
"""

from __future__ import annotations

import math

import pytest
from test_clue_soundness import truth as clue_truth
from test_mascarade_beliefs import SeatWatcher

from engine.clue import ClueConfig
from engine.core import Rng, derive_seed
from engine.mascarade import Config
from solvers.clue.observations import ObservationLog as ClueLog
from solvers.clue.solver import solve as clue_solve
from solvers.mascarade import result_of
from solvers.table import Table

Z_LIMIT = 4.0  # ten buckets: a false alarm about once in 1,500 runs of a calibrated solver
BUCKETS = 10


class Reliability:
    """Predictions bucketed by probability, with per-game sums for the cluster-robust noise."""

    def __init__(self) -> None:
        self.n = [0] * BUCKETS
        self.p = [0.0] * BUCKETS
        self.y = [0.0] * BUCKETS
        self.var = [0.0] * BUCKETS
        self.games = [0] * BUCKETS
        self._game: dict[int, float] = {}

    def add(self, p: float, came_true: bool) -> None:
        if not 1e-9 < p < 1 - 1e-9:
            return  # a certainty: checked by the soundness tests
        b = min(BUCKETS - 1, int(p * BUCKETS))
        self.n[b] += 1
        self.p[b] += p
        self.y[b] += came_true
        self._game[b] = self._game.get(b, 0.0) + came_true - p

    def end_game(self) -> None:
        for b, r in self._game.items():
            self.var[b] += r * r
            self.games[b] += 1
        self._game = {}

    def z(self, b: int) -> float:
        return (self.y[b] - self.p[b]) / math.sqrt(self.var[b]) if self.var[b] > 0 else 0.0

    def table(self, title: str) -> str:
        rows = [f"{title}: bucket, predictions, games, mean predicted, observed, z"]
        for b in range(BUCKETS):
            if self.n[b]:
                rows.append(f"  {b / BUCKETS:.1f}-{(b + 1) / BUCKETS:.1f}  {self.n[b]:>7}  {self.games[b]:>4}  "
                            f"{self.p[b] / self.n[b]:.3f}  {self.y[b] / self.n[b]:.3f}  {self.z(b):+.2f}")
        return "\n".join(rows)

    def worst(self) -> float:
        return max((abs(self.z(b)) for b in range(BUCKETS) if self.games[b] >= 5), default=0.0)


def mascarade_game(game_no: int, rel: Reliability, every: int = 6) -> None:
    """One seeded 4-8 player game of random bots; one seat's probabilities every few steps."""
    r = Rng(777 + game_no)
    players = 4 + game_no % 5
    config = Config(players=players, opening=game_no % 3 != 2)
    table = Table("mascarade", config, 91 * game_no + 5, ["random"] * players)
    watcher = SeatWatcher(game_no % players)
    step = 0
    while not table.is_over():
        watcher.update(table.state)
        tr = watcher.tracker
        if tr is not None and step % every == r.below(every):
            res = result_of(tr, advice=False)
            cards = table.state.cards
            for place, probs in res["probabilities"].items():
                truth = cards[tr.places.index(place)]
                for mask, p in probs.items():
                    rel.add(p, mask == truth)
        table.step_bot()
        step += 1
    rel.end_game()


def test_mascarade_is_calibrated_sample():
    rel = Reliability()
    for g in range(12):
        mascarade_game(g, rel)
    print("\n" + rel.table("Mascarade, 12 games"))
    assert sum(rel.n) > 500
    assert rel.worst() <= Z_LIMIT + 1  # a small sample: only a gross miscalibration fails here


@pytest.mark.soak
def test_mascarade_is_calibrated_300_games():
    rel = Reliability()
    for g in range(1000, 1300):
        mascarade_game(g, rel)
    print("\n" + rel.table("Mascarade, 300 games"))
    assert rel.worst() <= Z_LIMIT, rel.table("Mascarade")


def clue_game(game_no: int, rel: Reliability, every: int = 3) -> None:
    """One seeded 3-6 player Clue game of random bots; one seat's holder probabilities now and then."""
    players = 3 + game_no % 4
    config = ClueConfig(board="meereen" if game_no % 2 else "red-keep", players=players, max_rounds=40)
    table = Table("clue", config, derive_seed(17, game_no), ["random"] * players)
    real = clue_truth(table)
    seat = game_no % players
    obs = ClueLog(seat)
    step = 0
    while True:
        obs.update(table.view(seat, obs.since)["events"])
        if obs.config and step % every == 0:
            sol = clue_solve(obs.config, obs.entries(), refuter_model=True)
            for card, row in sol.holders.items():
                for holder, p in row.items():
                    rel.add(p, real[card] == holder)
        if table.is_over() or not table.step_bot():
            break
        step += 1
    rel.end_game()


def test_clue_is_calibrated_sample():
    rel = Reliability()
    for g in range(5):
        clue_game(g, rel)
    print("\n" + rel.table("Clue (refuter model), 5 games"))
    assert sum(rel.n) > 500
    assert rel.worst() <= Z_LIMIT + 1


@pytest.mark.soak
def test_clue_is_calibrated_200_games():
    rel = Reliability()
    for g in range(1000, 1200):
        clue_game(g, rel)
    print("\n" + rel.table("Clue (refuter model), 200 games"))
    assert rel.worst() <= Z_LIMIT, rel.table("Clue")
