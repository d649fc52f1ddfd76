"""Bot-only games in bulk: win rates per bot with 95% confidence intervals.

Seats rotate from game to game (game g seats the bot list shifted by g), so no bot keeps the
advantage of a seat, and every game's seed is derived from the run's seed and the game's index.
With ``paired``, each deal is played once per rotation (game ``d * n + r`` is deal ``d`` with
the list shifted by ``r``), so every bot meets the same deals from every seat, and the report adds
each pair of bots' difference in win rate, deal by deal, with its interval.

Games are played by a runner (:mod:`solvers.runners`: this process, local processes or Ray
tasks) and folded in index order, so the same seed gives the same record whatever the runner;
only the timings (:meth:`SimResult.to_json` with ``timing``) differ from run to run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core import derive_seed
from solvers.runners import Runner, SerialRunner
from solvers.stats import mean_interval, wilson

ISMCTS = ("ismcts", "ismcts-uniform")  # OpenSpiel's ISMCTS: played on the OpenSpiel form of the game


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
    deals: int = 0  # with ``paired``: deals played, each once per seat rotation
    differences: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # per deal, paired

    @property
    def paired(self) -> bool:
        return self.deals > 0

    def paired_differences(self) -> list[dict]:
        """Each pair of bots (in order of first seat): mean win-rate difference per deal, 95% interval."""
        out = []
        for (a, b), xs in self.differences.items():
            m, lo, hi = mean_interval(xs)
            ci = None if lo is None or hi is None else [round(max(lo, -1.0), 6), round(min(hi, 1.0), 6)]
            out.append({"bots": [a, b], "mean": round(m, 6), "ci95": ci})  # a difference of rates: in [-1, 1]
        return out

    def to_json(self, timing: bool = False) -> dict:
        """The run's record: the same bytes for a seed whatever the runner; ``timing`` adds wall seconds
        and CPU per move, which differ from run to run."""
        out: dict = {"game": self.game, "games": self.games, "bots": self.bots,
                     "per_bot": [s.to_json() for s in self.stats.values()],
                     "endings": dict(sorted(self.reasons.items())), "steps": self.steps}
        if self.paired:
            out["paired"] = {"deals": self.deals, "differences": self.paired_differences()}
        if timing:
            out["seconds"] = round(self.seconds, 3)
            if self.move_seconds:
                out["move_seconds"] = {k: round(v, 4) for k, v in self.move_seconds.items()}
        return out


def play_game(job: tuple) -> dict:
    """One game (top-level, so processes and Ray can run it): winners, ending, steps, survivors, CPU clock."""
    game, config_json, seats, seed, sims = job
    from engine.registry import get_game

    config = get_game(game).config_from_json(config_json)
    if any(s in ISMCTS for s in seats):
        from solvers.openspiel.arena import play_one

        clock: dict[str, list[float]] = {}
        winners, reason, moves = play_one(game, config, list(seats), seed, sims, clock)
        return {"winners": winners, "reason": reason, "steps": moves, "survivors": None, "clock": clock}
    from solvers.table import Table

    table = Table(game, config, seed, list(seats))
    steps = table.run_bots()
    r = table.result() or {"winners": [], "reason": "unfinished"}
    return {"winners": list(r["winners"]), "reason": r["reason"], "steps": steps,
            "survivors": list(r["survivors"]) if "survivors" in r else None, "clock": {}}


def simulate(game: str, config: Any, bots: list[str], games: int, seed: int,
             progress: Callable[[int], None] | None = None, *, paired: bool = False, sims: int = 100,
             runner: Runner | None = None) -> SimResult:
    """Play ``games`` bot-only games (with ``paired``, whole deals: at least ``games``); ``bots`` names
    the bot of each seat before rotation. ``sims``: simulations per move of ISMCTS seats."""
    import time

    t0 = time.perf_counter()
    runner = runner or SerialRunner()
    n = len(bots)
    if paired:
        deals = -(-games // n)
        games = deals * n
    if isinstance(config, dict):
        from engine.registry import get_game

        config = get_game(game).config_from_json(config)
    if any(b in ISMCTS for b in bots):
        from solvers.openspiel.arena import check_game
        from solvers.openspiel.games import config_of

        check_game(game)
        config_of(game, {"players": config.players})  # the player count is one OpenSpiel accepts
    cfg = config.to_json()
    res = SimResult(game=game, games=games, bots=list(bots), deals=deals if paired else 0)
    for kind in bots:
        res.stats.setdefault(kind, BotStats(kind))
    kinds = list(res.stats)
    if paired:
        res.differences = {(a, b): [] for i, a in enumerate(kinds) for b in kinds[i + 1:]}

    def job(g: int) -> tuple:
        if paired:
            d, r = divmod(g, n)
            return (game, cfg, [bots[(i + r) % n] for i in range(n)], derive_seed(seed, "deal", d), sims)
        return (game, cfg, [bots[(i + g) % n] for i in range(n)], derive_seed(seed, "game", g), sims)

    clock: dict[str, list[float]] = {}
    deal_wins: dict[str, int] = dict.fromkeys(kinds, 0)
    deal_seats: dict[str, int] = dict.fromkeys(kinds, 0)
    jobs = [job(g) for g in range(games)]
    for g, r in enumerate(runner.map(play_game, jobs)):
        seats = jobs[g][2]
        res.steps += r["steps"]
        res.reasons[r["reason"]] = res.reasons.get(r["reason"], 0) + 1
        for kind in seats:
            res.stats[kind].seats += 1
            deal_seats[kind] += 1
        for w in r["winners"]:
            res.stats[seats[w]].wins += 1
            deal_wins[seats[w]] += 1
        if r["survivors"] is not None:
            for i, kind in enumerate(seats):
                st = res.stats[kind]
                st.survived = (st.survived or 0) + (i in r["survivors"])
        for kind, (secs, moves) in r["clock"].items():
            c = clock.setdefault(kind, [0.0, 0])
            c[0] += secs
            c[1] += moves
        if paired and g % n == n - 1:  # the deal's last rotation: one paired difference per pair of bots
            for a, b in res.differences:
                res.differences[(a, b)].append(deal_wins[a] / deal_seats[a] - deal_wins[b] / deal_seats[b])
            deal_wins = dict.fromkeys(kinds, 0)
            deal_seats = dict.fromkeys(kinds, 0)
        if progress:
            progress(g + 1)
    res.seconds = time.perf_counter() - t0
    res.move_seconds = {k: v[0] / v[1] for k, v in sorted(clock.items()) if v[1]}
    return res
