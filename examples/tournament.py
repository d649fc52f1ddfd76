"""Run a bot tournament and read its table: each bot's win rate with a 95% confidence interval.

Seats rotate from game to game, so no bot keeps a seat's advantage; the run is seeded, so the
same command prints the same table (``unmask simulate`` is the same thing on the command line)::

    python examples/tournament.py mascarade --games 200
"""

from __future__ import annotations

import argparse

from engine.registry import GAMES, get_game
from solvers.bots import bot_names
from solvers.simulate import simulate


def tournament(game: str, games: int, seed: int = 1, players: int = 4) -> dict:
    """Every bot of ``game`` at one table (repeated to fill the seats), ``games`` games."""
    names = bot_names(game)
    bots = [names[i % len(names)] for i in range(players)]
    config = get_game(game).config_from_json({"players": players})
    return simulate(game, config, bots, games, seed).to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="masque", choices=list(GAMES))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = tournament(args.game, args.games, args.seed)
    print(f"{result['games']} games of {args.game}, {result['steps']} actions")
    print(f"{'bot':<10} {'seat-games':>10} {'wins':>6} {'rate':>6}  95% interval")
    for row in sorted(result["per_bot"], key=lambda r: -r["rate"]):
        lo, hi = row["ci95"]
        print(f"{row['bot']:<10} {row['seat_games']:>10} {row['wins']:>6} {row['rate']:>6.1%}  {lo:.1%} to {hi:.1%}")
    print("endings:", ", ".join(f"{k} {v}" for k, v in result["endings"].items()))


if __name__ == "__main__":
    main()
