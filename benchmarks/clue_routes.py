"""Benchmark: the Clue route planner (engine/clue/plan.py), from every node of each board.

The play screen draws the board's distance marks and the Plan tab from ``plan(board, here)``;
it caches the answer per (board, node), so this is the cost of the first redraw after a token
moves to a new node. CPU time per call (``time.process_time``), steadier on a shared machine.

Usage: ``python benchmarks/clue_routes.py [--rounds N]``. Prints, per board, the nodes and the
median and worst milliseconds of one ``plan()`` call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.clue.board import BOARDS, load_board
from engine.clue.plan import plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for board_id in BOARDS:
        board = load_board(board_id)
        times = []
        for _ in range(args.rounds):
            for start in range(len(board.node_names)):
                t0 = time.process_time()
                plan(board, start)
                times.append((time.process_time() - t0) * 1000)
        print(f"{board_id:<9} {len(board.node_names)} nodes  plan(): median {statistics.median(times):.2f} ms, "
              f"worst {max(times):.2f} ms ({len(times)} calls)")


if __name__ == "__main__":
    main()
