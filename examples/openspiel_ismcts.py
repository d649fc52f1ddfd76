"""Run an OpenSpiel algorithm on one of our games: ISMCTS plays Mascarade against random bots.

Our games register as OpenSpiel Python games (``solvers/openspiel``; the ``[openspiel]``
extra: ``pip install -e '.[openspiel]'``), so any OpenSpiel algorithm runs on them. Here
OpenSpiel's information-set MCTS, drawing its worlds from the strong bot's belief, takes seat 0
against three uniformly random OpenSpiel bots; ``pyspiel.evaluate_bots`` deals and plays::

    python examples/openspiel_ismcts.py --games 4
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from solvers.openspiel.games import load
from solvers.openspiel.resample import Resampler


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--sims", type=int, default=50, help="ISMCTS simulations per move")
    args = ap.parse_args()

    game = load("mascarade", 4)  # "unmask_mascarade" with 4 players, registered with OpenSpiel
    wins = 0
    for g in range(args.games):
        rs = np.random.RandomState(g)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=args.sims,
                               random_state=rs, allow_inconsistent_action_sets=True)
        bot.set_resampler(Resampler("exact", seed=g))  # worlds from the seat's exact belief
        others = [pyspiel.make_uniform_random_bot(p, 100 * g + p) for p in (1, 2, 3)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), [bot, *others], g)
        wins += returns[0] > 0
        print(f"game {g + 1}: returns {list(returns)}")
    print(f"ISMCTS won {wins} of {args.games} games against three random bots (a random seat wins ~25%).")


if __name__ == "__main__":
    main()
