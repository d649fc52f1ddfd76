"""Write a whole table's notes per game: what one seat saw of a full seeded game, as an assist session.

The notes are made the way a person makes them at a real table, from one seat's view only: a
bots-only game is played to its end, and that seat's event stream goes through the same
``ObservationLog`` the bots and the assistant use. The result is the file ``unmask solve``
reads (docs/formats.md), e.g.::

    python examples/table_notes.py            # writes examples/<game>-table-notes.json
    unmask solve mascarade examples/mascarade-table-notes.json
"""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

from engine.session import Session
from solvers.table import Table

HERE = Path(__file__).parent
# One table per game: its config, its bots, and the seed of the game the notes come from.
TABLES = {
    "clue": ({"board": "red-keep", "players": 4}, ["notes", "random", "notes", "random"], 11),
    "mascarade": ({"players": 5}, ["honest", "random", "honest", "random", "honest"], 12),
    "masque": ({"players": 4}, ["heuristic", "random", "heuristic", "random"], 13),
    "ghoul": ({"players": 5}, ["heuristic", "random", "heuristic", "random", "heuristic"], 14),
}


def finished_table(game: str, spec: tuple[dict, list[str], int] | None = None) -> Table:
    """The seeded bots-only game ``spec`` (config, bots, seed; ``TABLES[game]`` by default), played to its end.

    ``finished_games.py`` plays its own seeds through this too, so both files come from one way of playing."""
    config, bots, seed = spec if spec is not None else TABLES[game]
    table = Table(game, config, seed, bots)
    table.run_bots()
    if not table.is_over():
        raise RuntimeError(f"the {game} game did not end")
    return table


def notes_of(table: Table, seat: int = 0, upto: int | None = None) -> Session:
    """The assist session of ``seat``: its view's events (the first ``upto`` actions' worth, or all)
    through the game's ObservationLog, as a person would note them at the table."""
    if upto is not None:
        table = Table(table.game, table.config, table.seed, table.seats, table.log[:upto])
    observations = importlib.import_module(f"solvers.{table.game}.observations").ObservationLog(seat)
    observations.update(table.view(seat)["events"])  # every event, as this seat was told it
    return Session(game=table.game, mode="assist", config=observations.config, log=observations.log)


def table_notes(game: str, seat: int = 0) -> Session:
    """The assist session of ``seat`` for the whole seeded game of ``TABLES[game]``."""
    return notes_of(finished_table(game), seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the <game>-table-notes.json files")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game in TABLES:
        session = table_notes(game)
        path = args.out / f"{game}-table-notes.json"
        path.write_text(json.dumps(session.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path}: {len(session.log)} entries")


if __name__ == "__main__":
    main()
