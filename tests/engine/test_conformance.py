"""One conformance suite for every registered game and its variants (the engine contract).

Random simulation in the manner of OpenSpiel's test: uniformly random legal actions from a
seeded RNG, with every promise of the contract checked at every state (see
``engine_contract``): legal-only playouts that end; copy and JSON round trip at every state;
replay from ``(config, seed, actions)``; save and load continue identically; no view leaks
another seat's secret (the log's audience); ``IllegalAction`` leaves the state untouched; and
bots see views only (they play the same game from views sent through JSON text).

The default run plays a small sample per variant; ``pytest -m soak`` plays thousands.
Each game's own rules and invariants stay in its ``test_<game>_rules.py`` and
``test_<game>_playthrough.py``.
"""

from __future__ import annotations

import json

import pytest
from engine_contract import GameChecks, bot_playout, random_playout, text

from engine.core import derive_seed
from engine.registry import GAMES, get_game
from solvers.bots import bot_names, make_bot
from solvers.table import Table

# Every variant of every game: (game, config as JSON). The ids name them in the test report.
VARIANTS = [
    pytest.param("clue", {"board": "red-keep", "players": 3}, id="clue-red-keep"),
    pytest.param("clue", {"board": "meereen", "players": 4}, id="clue-meereen"),
    pytest.param("clue", {"board": "red-keep", "players": 5, "centre_pile": True}, id="clue-red-keep-centre-pile"),
    pytest.param("clue", {"board": "meereen", "players": 2, "centre_pile": True}, id="clue-meereen-centre-pile"),
    *(pytest.param("mascarade", {"players": n}, id=f"mascarade-{n}") for n in range(4, 13)),
    pytest.param("masque", {"players": 4}, id="masque"),
    pytest.param("masque", {"players": 6, "harder": True}, id="masque-harder"),
    pytest.param("masque", {"players": 7, "personalities": False}, id="masque-no-personalities"),
    pytest.param("ghoul", {"players": 4}, id="ghoul"),
    pytest.param("ghoul", {"players": 6, "mask": True}, id="ghoul-mask"),
    pytest.param("ghoul", {"players": 5, "support": True}, id="ghoul-support"),
    pytest.param("ghoul", {"players": 8, "mask": True, "support": True}, id="ghoul-mask-support"),
    pytest.param("ghoul", {"players": 7, "setup": "b"}, id="ghoul-setup-b"),
]
SAMPLE = 1  # random games per variant in the default run (views of the seat to act and one other a step)
SOAK = 200  # random games per variant with -m soak, every seat's view at every step (about 5,000 games)


class EverySeat(GameChecks):
    views = "all"


class TwoSeats(GameChecks):
    """Every event is still read by every seat: a seat's stream catches up from where it was read."""

    views = "rotate"


def test_every_registered_game_has_variants_here():
    assert {p.values[0] for p in VARIANTS} == set(GAMES)


@pytest.mark.parametrize(("game", "config"), VARIANTS)
def test_random_playouts_keep_the_contract(game, config):
    """A sample of uniformly random legal games, every promise checked at every state."""
    for g in range(SAMPLE):
        random_playout(game, config, derive_seed(1, game, text(config), g), TwoSeats())


@pytest.mark.soak
@pytest.mark.parametrize(("game", "config"), VARIANTS)
def test_soak_random_playouts(game, config):
    for g in range(SAMPLE, SAMPLE + SOAK):
        random_playout(game, config, derive_seed(1, game, text(config), g), EverySeat())


def seats_of(game: str, players: int, g: int) -> list[str]:
    """Every bot of the game in turn (the exact ``strong`` ones now and then: they are slow)."""
    kinds = [k for k in bot_names(game) if k != "strong"]
    seats = [kinds[(i + g) % len(kinds)] for i in range(players)]
    if g % 4 == 1:
        seats[g % players] = "strong"
    return seats


@pytest.mark.parametrize(("game", "config"), VARIANTS)
def test_bot_games_keep_the_contract(game, config):
    """Bots at a table: legal choices only, the contract at every state, save and load mid-game."""
    players = get_game(game).config_from_json(config).players
    bot_playout(game, config, derive_seed(2, game, text(config)), seats_of(game, players, 0), TwoSeats())


@pytest.mark.soak
@pytest.mark.parametrize(("game", "config"), VARIANTS)
def test_soak_bot_games(game, config):
    players = get_game(game).config_from_json(config).players
    for g in range(1, 41):
        bot_playout(game, config, derive_seed(2, game, text(config), g), seats_of(game, players, g))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_bots_see_views_only(game):
    """A bot decides from its view alone: fed only its views sent through JSON text (plain data,
    no way back to the game state), every bot plays exactly the game it plays at a table, and it
    never writes into the view it is given."""
    spec = get_game(game)
    for g, kind in enumerate(bot_names(game)):
        config = spec.config_from_json({"players": 4 if game != "clue" else 3})
        seed = derive_seed(3, game, kind)
        kinds = [kind, *(k for k in bot_names(game) if k != kind and k != "strong")]
        seats = [kinds[(i + g) % len(kinds)] for i in range(config.players)]
        at_table = Table(game, config, seed, seats)
        at_table.run_bots()
        bots = {i: make_bot(game, k, seat=i, seed=derive_seed(seed, "bot", i, k)) for i, k in enumerate(seats)}
        s = spec.new_game(config, seed)
        log = []
        while not spec.is_over(s):
            seat = spec.to_act(s)
            bot = bots[seat]
            sent = text(spec.view(s, seat, getattr(bot, "since", 0)))
            given = json.loads(sent)
            action = tuple(bot.choose(given))
            assert text(given) == sent, f"the {kind} bot wrote into its view"
            log.append([seat, spec.action_to_json(action)])
            s = spec.apply(s, action)
        assert log == at_table.log, f"the {kind} bot plays differently from its views alone"


@pytest.mark.parametrize(("game", "config"), VARIANTS[::3])
def test_a_table_is_deterministic(game, config):
    """The same (config, seed, seats) plays the same game: every random choice is seeded."""
    players = get_game(game).config_from_json(config).players
    seats = seats_of(game, players, 2)
    first, second = (Table(game, config, 99, seats) for _ in range(2))
    first.run_bots()
    second.run_bots()
    assert first.log == second.log
    assert get_game(game).state_to_json(first.state) == get_game(game).state_to_json(second.state)
