"""Bot-only games in bulk: win rates per bot with 95% confidence intervals.

Seats rotate from game to game (game g seats bot list shifted by g), so no bot keeps
the advantage of a seat, and every game's seed is derived from the run's seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core import derive_seed
from solvers.table import Table


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval: honest near 0 and 1, where the normal one is not."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotStats:
    bot: str
    seats: int = 0  # seat-games played by this bot kind
    wins: int = 0
    survived: int | None = None  # games where the game reports survivors (Masque)

    @property
    def rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    def to_json(self) -> dict:
        lo, hi = wilson(self.wins, self.seats)
        out = {"bot": self.bot, "seat_games": self.seats, "wins": self.wins, "rate": self.rate, "ci95": [lo, hi]}
        if self.survived is not None:
            out["survived"] = self.survived
            out["survival_rate"] = self.survived / self.seats if self.seats else 0.0
            out["survival_ci95"] = list(wilson(self.survived, self.seats))
        return out


@dataclass
class SimResult:
    game: str
    games: int
    bots: list[str]
    stats: dict[str, BotStats] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    steps: int = 0
    seconds: float = 0.0
    move_seconds: dict[str, float] = field(default_factory=dict)  # CPU s per decision per bot (OpenSpiel arena)

    def to_json(self) -> dict:
        return {"game": self.game, "games": self.games, "bots": self.bots,
                "per_bot": [s.to_json() for s in self.stats.values()],
                "endings": dict(sorted(self.reasons.items())), "steps": self.steps,
                "seconds": round(self.seconds, 3),
                **({"move_seconds": {k: round(v, 4) for k, v in self.move_seconds.items()}}
                   if self.move_seconds else {})}


def simulate(game: str, config: object, bots: list[str], games: int, seed: int,
             progress: Callable[[int], None] | None = None) -> SimResult:
    """Play ``games`` bot-only games; ``bots`` names the bot of each seat before rotation."""
    import time

    t0 = time.perf_counter()
    res = SimResult(game=game, games=games, bots=list(bots))
    for kind in bots:
        res.stats.setdefault(kind, BotStats(kind))
    n = len(bots)
    for g in range(games):
        seats = [bots[(i + g) % n] for i in range(n)]
        table = Table(game, config, derive_seed(seed, "game", g), seats)
        res.steps += table.run_bots()
        r = table.result() or {"winners": [], "reason": "unfinished"}
        res.reasons[r["reason"]] = res.reasons.get(r["reason"], 0) + 1
        for kind in seats:
            res.stats[kind].seats += 1
        for w in r["winners"]:
            res.stats[seats[w]].wins += 1
        if "survivors" in r:
            for i, kind in enumerate(seats):
                st = res.stats[kind]
                st.survived = (st.survived or 0) + (i in r["survivors"])
        if progress:
            progress(g + 1)
    res.seconds = time.perf_counter() - t0
    return res
