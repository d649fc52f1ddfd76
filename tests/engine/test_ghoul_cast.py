"""Issue 20, findings 3 and 4: every cast, drawn or given, obeys the setup table.

Rulebook, Setup: "Build up a pile of Character tokens according to the table below" (Ghouls, Doves,
Humans per player count); Mask variant: Kaneki (half) "can be considered either a Ghoul or a Human"
at setup — never an Inspector.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from engine.core import Rng
from engine.ghoul.data import load_data
from engine.ghoul.game import GhoulConfig, _draw_cast, new_game
from solvers.ghoul.model import SolverInputError, build_problem
from tui.cli import app
from tui.ghoul import assist_model

DATA = load_data()
ROWS = [(r.players, r.option) for r in DATA.setups]

# (players, setup, mask, cast, what the message names)
BAD_CASTS = [
    (4, "a", False, ("nishiki", "touka", "tsukiyama", "hinami"), "1 Ghoul, 1 Inspector and 2 Humans"),
    (4, "a", False, ("nishiki", "mado", "amon", "kaneki"), "1 Ghoul, 1 Inspector and 2 Humans"),
    (5, "a", True, ("kaneki-half", "nishiki", "touka", "kimi", "hide"), "2 Ghouls, 1 Inspector and 2 Humans"),
    (6, "b", True, ("kaneki-half", "mado", "nishiki", "touka", "kimi", "hide"), "2 Inspectors"),
    (8, "a", True, ("kaneki-half", "mado", "nishiki", "touka", "hinami", "kimi", "hide", "yoriko"), "2 Inspectors"),
    (5, "a", True, ("kaneki-half", "kaneki", "mado", "nishiki", "kimi"), "cannot be in play together with KANEKI"),
    (5, "a", False, ("uta", "nishiki", "mado", "kimi", "hide"), "only in the Mask variant"),
    (4, "a", True, ("kaneki-half", "mado", "kimi", "hide"), "only from 5 players"),
]


@pytest.mark.parametrize("players,setup,mask,cast,needle", BAD_CASTS)
def test_a_fixed_cast_outside_the_setup_table_is_refused_everywhere(players, setup, mask, cast, needle):
    """Game options, `-o characters=[...]` on the command line, `solve` and the assistant all refuse it."""
    with pytest.raises(ValueError, match=needle):
        GhoulConfig(players=players, setup=setup, mask=mask, characters=cast)

    opts = ["-o", f"characters={json.dumps(list(cast))}", "-o", f"mask={json.dumps(mask)}", "-o", f"setup={setup}"]
    r = CliRunner().invoke(app, ["simulate", "ghoul", "--players", str(players), "--games", "1", *opts])
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output
    assert "win rate" not in r.output  # nothing was played

    names = list(GhoulConfig(players=players).seat_names())
    config = {"players": names, "me": "You", "character": cast[0], "cast": list(cast), "mask": mask, "setup": setup}
    with pytest.raises(SolverInputError, match=needle):
        build_problem(config, [])

    problems = assist_model.cast_problems(players, setup, list(cast), mask)
    assert any(needle in p for p in problems), problems


@pytest.mark.parametrize("players,setup", ROWS)
@pytest.mark.parametrize("mask", [False, True])
def test_every_drawn_cast_fills_the_setup_row(players, setup, mask):
    """400 seeds per row: the drawn cast passes the same check a given cast does (the Mask variant's Kaneki,
    half Human, half Ghoul, drew the Inspector's place in 59 of 400 games at 5 players before the fix)."""
    row = DATA.setup(players, setup)
    config = GhoulConfig(players=players, setup=setup, mask=mask)
    for seed in range(400):
        cast = _draw_cast(config, Rng(seed))
        assert sum(DATA.characters[c].is_inspector for c in cast) == row.inspectors, (seed, cast)
        assert DATA.cast_problems(cast, players, setup, mask) == [], (seed, cast)


def test_half_kaneki_still_plays_for_a_ghoul_or_a_human_place():
    """The fix narrows his places, it does not drop him: he is drawn, and a given cast with him is accepted."""
    config = GhoulConfig(players=5, mask=True)
    assert any("kaneki-half" in _draw_cast(config, Rng(seed)) for seed in range(100))
    as_human = ("kaneki-half", "nishiki", "mado", "kimi", "hide")
    as_ghoul = ("kaneki-half", "nishiki", "mado", "kimi", "touka")
    for cast in (as_human, as_ghoul):
        s = new_game(GhoulConfig(players=5, mask=True, characters=cast), 1)
        assert sorted(s.chars) == sorted(cast)
