"""Write a finished game of each: a seeded bots-only game saved as the session file a replay opens.

The games are played by the same tables as the app's, so each file is exactly what the app would
have saved at the end of that game, with every seat's belief series kept in it as a replay keeps
them (``"beliefs"``, docs/formats.md), so the replay draws its charts at once. Replay one with::

    python examples/finished_games.py            # writes examples/<game>-finished.json
    unmask replay examples/masque-finished.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from table_notes import finished_table

from engine.replay import replay_steps
from solvers.beliefs import belief_series, store_series

HERE = Path(__file__).parent
# One game each: its config, its seats (bots) and its seed.
GAMES = {
    "clue": ({"board": "red-keep", "players": 4}, ["notes", "random", "notes", "random"], 21),
    "mascarade": ({"players": 5}, ["honest", "random", "honest", "random", "honest"], 22),
    "masque": ({"players": 4}, ["heuristic", "random", "heuristic", "random"], 23),
    "ghoul": ({"players": 5}, ["heuristic", "random", "heuristic", "random", "heuristic"], 24),
}


def finished_session(game: str) -> dict:
    """The session (as JSON data) of the seeded game ``GAMES[game]``, played to its end, with its beliefs."""
    session = finished_table(game, GAMES[game]).to_session()
    replay = replay_steps(session)
    for seat in range(replay.players):
        store_series(session, seat, belief_series(replay, seat))
    return session.to_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the <game>-finished.json files")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        data = finished_session(game)
        path = args.out / f"{game}-finished.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path}: {len(data['log'])} moves")


if __name__ == "__main__":
    main()
