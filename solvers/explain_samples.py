"""Seeded sample notes for the explanation tests and benchmark: real engine games, bots at every
seat, one seat's view turned into an assist session log by the game's own observation path."""

from __future__ import annotations

from typing import Any

from engine.core import Rng, derive_seed
from solvers.table import Table

PLAYERS = {"clue": (5, 6), "mascarade": (4, 6), "masque": (4, 7), "ghoul": (4, 6)}
_CLUE_MOVES = {"roll", "move", "stay", "passage", "teleport", "rumor", "show", "end", "decline"}
BOT = {"clue": "notes", "mascarade": "honest", "masque": "heuristic", "ghoul": "heuristic"}


def _config(game: str, players: int) -> Any:
    if game == "clue":
        from engine.clue import ClueConfig

        return ClueConfig(board="red-keep", players=players, max_rounds=80)
    if game == "mascarade":
        from engine.mascarade import MascaradeConfig

        return MascaradeConfig(players=players)
    if game == "masque":
        from engine.masque import MasqueConfig

        return MasqueConfig(players=players)
    from engine.ghoul import GhoulConfig

    return GhoulConfig(players=players)


def _notes(game: str, table: Table, seat: int) -> tuple[dict, list]:
    view = table.view(seat)
    if game == "clue":
        from solvers.clue.observations import ObservationLog

        obs = ObservationLog(seat)
        obs.update(view["events"])
        return dict(obs.config), list(obs.entries())
    if game == "mascarade":
        from solvers.mascarade import events_to_log

        return events_to_log(view["events"], seat)
    if game == "masque":
        from solvers.masque.observations import log_from_events

        return log_from_events(view["events"], seat)
    from solvers.ghoul.observations import ObservationLog as GhoulLog

    g = GhoulLog.from_view(view)
    assert g.config is not None
    return dict(g.config), list(g.entries())


def sample(
    game: str, seed: int, *, entries: int = 60, max_steps: int = 30000, players: int | None = None,
    bot: str | None = None,
) -> tuple[dict, list]:
    """The notes of one seat of a seeded bot game, stopped once the log has ``entries`` entries
    (or the game ends first).  ``players`` fixes the table size (by default it follows the seed
    within :data:`PLAYERS`; the cold-process benchmark asks for each game's largest table), ``bot``
    the bots at every seat (by default :data:`BOT`)."""
    if players is None:
        lo, hi = PLAYERS[game]
        players = lo + seed % (hi - lo + 1)
    table = Table(game, _config(game, players), derive_seed(seed, 15), [bot or BOT[game]] * players)
    seat = seed % players
    config, log = _notes(game, table, seat)
    rng = Rng(derive_seed(seed, 16))
    for step in range(max_steps):
        if table.is_over():
            break
        if game == "clue":
            # Random legal moves but never an accusation, so the game lasts and the notes pile up.
            actor = table.to_act()
            if actor is None:
                break
            everything = table.spec.legal_actions(table.state)
            legal = [a for a in everything if a[0] in _CLUE_MOVES] or everything
            table.submit(actor, rng.choice(legal))
        elif not table.step_bot():
            break
        if step % 25 == 0:
            config, log = _notes(game, table, seat)
            if len(log) >= entries:
                break
    config, log = _notes(game, table, seat)
    return config, log[:entries]
