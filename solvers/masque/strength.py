"""Bot strength for Masque: win *and* survival rates, on exactly the games ``simulate()`` plays.

``solvers.simulate.simulate`` reports wins; surviving the Red Death is half of this game, so
this replays the same tables (seats rotated by game number, seeds ``derive_seed(seed, "game",
g)``) and also counts who survived. A test checks that the wins match ``simulate()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import derive_seed
from solvers.stats import wilson
from solvers.table import Table


@dataclass
class Tally:
    bot: str
    seat_games: int = 0
    wins: int = 0
    survived: int = 0

    def to_json(self) -> dict:
        n = self.seat_games
        return {"bot": self.bot, "seat_games": n, "wins": self.wins, "win_rate": self.wins / n if n else 0.0,
                "win_ci95": list(wilson(self.wins, n)), "survived": self.survived,
                "survival_rate": self.survived / n if n else 0.0, "survival_ci95": list(wilson(self.survived, n))}


@dataclass
class Strength:
    games: int
    bots: list[str]
    per_bot: dict[str, Tally] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"games": self.games, "bots": self.bots, "per_bot": [t.to_json() for t in self.per_bot.values()]}


def strength(config: dict, bots: list[str], games: int, seed: int) -> Strength:
    """Play ``games`` bot-only games as ``simulate()`` does; count wins and survivals per bot kind."""
    out = Strength(games=games, bots=list(bots))
    for kind in bots:
        out.per_bot.setdefault(kind, Tally(kind))
    n = len(bots)
    for g in range(games):
        seats = [bots[(i + g) % n] for i in range(n)]
        table = Table("masque", config, derive_seed(seed, "game", g), seats)
        table.run_bots()
        r = table.result() or {"winners": [], "survivors": []}
        for i, kind in enumerate(seats):
            t = out.per_bot[kind]
            t.seat_games += 1
            t.wins += i in r["winners"]
            t.survived += i in r["survivors"]
    return out
