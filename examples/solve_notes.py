"""Solve a table's notes from Python: read an assist session, ask the game's solver, read its answer.

The answer is the same JSON object ``unmask solve GAME FILE --json`` prints (docs/formats.md)::

    python examples/solve_notes.py examples/clue-assist-red-keep.json
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from engine.session import SessionError
from tui.storage import read_session_file

HERE = Path(__file__).parent


def solve_file(path: str | Path) -> dict:
    """The solver's answer for an assist session file; a SessionError or the solver's input
    error (both one line) for a file it cannot read."""
    session = read_session_file(str(path))
    solver = importlib.import_module(f"solvers.{session.game}.solver")
    answer = solver.solve(session.config, session.log)
    return answer.to_json() if hasattr(answer, "to_json") else answer


def summary(game: str, answer: dict) -> list[str]:
    """A few lines a player reads first: is it consistent, and what is certain or most likely."""
    if answer["status"] != "ok":
        return [f"{answer['status']}: {answer.get('message', '')}"]
    if game == "clue":
        likely = sorted(answer["envelope"].items(), key=lambda kv: -kv[1])[:3]
        return [f"{answer['deals']:,} deals agree with the notes",
                *(f"  in the envelope: {card} {p:.0%}" for card, p in likely)]
    if game == "mascarade":
        return [f"{place}: {max(row, key=row.get)} {max(row.values()):.0%}"
                for place, row in answer["probabilities"].items()]
    if game == "masque":
        return [f"{slot}: deadly {', '.join(r for r, p in rooms.items() if p >= 1) or 'nowhere certain'}"
                for slot, rooms in answer["deadly"].items()]
    lines = []
    for seat, suits in answer["hands"].items():
        cards = ", ".join(f"{suit} {x['expected']:.1f}" for suit, x in suits.items())
        lines.append(f"{seat}: {cards}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=HERE / "clue-assist-red-keep.json")
    args = parser.parse_args()
    try:
        session_game = read_session_file(str(args.file)).game
        answer = solve_file(args.file)
    except (SessionError, ValueError) as e:
        print(f"Cannot solve {args.file}: {e}", file=sys.stderr)
        return 2
    print("\n".join(summary(session_game, answer)))
    return 0 if answer["status"] == "ok" else 2


if __name__ == "__main__":
    sys.exit(main())
