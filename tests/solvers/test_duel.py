"""``unmask duel``: the SPRT on bots of known strength, and the same JSON for any workers or Ray."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from engine.registry import get_game
from solvers.duel import Sprt, duel, elo_score
from solvers.runners import ProcessRunner
from tui.cli import app

CONFIG = get_game("mascarade").config_from_json({"players": 4})


def test_the_sprt_bounds_and_ratio():
    t = Sprt(0, 100, 0.05, 0.1)
    assert t.lower == pytest.approx(math.log(0.1 / 0.95)) and t.upper == pytest.approx(math.log(0.9 / 0.05))
    assert elo_score(0) == 0.5 and elo_score(100) == pytest.approx(0.64, abs=0.001)
    assert t.llr([1, 1, 1, 0.5]) > 0 > t.llr([0.5, 0.5, 0, 0.5])
    assert t.lower < t.llr([0.5] * 2) < 0  # two equal scores: regularised, no decision at once
    assert t.decide(t.upper) == "stronger" and t.decide(t.lower) == "not stronger" and t.decide(0) is None
    with pytest.raises(ValueError, match="alpha and beta"):
        Sprt(alpha=0.6)
    with pytest.raises(ValueError, match="elo1"):
        Sprt(elo0=50, elo1=50)


@pytest.mark.parametrize("paired", [True, False])
def test_random_against_itself_is_not_stronger(paired):
    res = duel("mascarade", CONFIG, "random", "random", 1, Sprt(), paired=paired, max_games=400)
    assert res.decision == "not stronger"
    assert res.llr_trace[-1] <= Sprt().lower < min(res.llr_trace[:-1])


def test_strong_against_random_is_stronger():
    res = duel("mascarade", CONFIG, "strong", "random", 1, Sprt(), paired=True, max_games=200)
    assert res.decision == "stronger" and res.a_wins > res.b_wins
    assert res.llr_trace[-1] >= Sprt().upper > max(res.llr_trace[:-1])


def test_workers_give_the_same_json():
    """1, 2 and 4 processes: the same units, folded in order, stopping at the same unit."""
    want = duel("mascarade", CONFIG, "honest", "random", 3, Sprt(), paired=True, max_games=24).to_json()
    for w in (2, 4):
        runner = ProcessRunner(w)
        try:
            got = duel("mascarade", CONFIG, "honest", "random", 3, Sprt(), paired=True, max_games=24,
                       batch=3 * w, runner=runner).to_json()
        finally:
            runner.close()
        assert json.dumps(got) == json.dumps(want)


def test_a_local_ray_cluster_gives_the_same_json():
    pytest.importorskip("ray")
    from solvers.runners import RayRunner

    want = duel("mascarade", CONFIG, "honest", "random", 3, Sprt(), max_games=12).to_json()
    runner = RayRunner("local", cpus=2)
    try:
        got = duel("mascarade", CONFIG, "honest", "random", 3, Sprt(), max_games=12, runner=runner).to_json()
    finally:
        runner.close()
    assert json.dumps(got) == json.dumps(want)


def test_the_duel_cli():
    run = CliRunner().invoke
    done = run(app, ["duel", "strong", "random", "--game", "mascarade", "--paired", "--json", "--workers", "2"])
    assert done.exit_code == 0, done.output
    out = json.loads(done.output)
    assert out["decision"] == "stronger" and out["paired"] and out["games"] == 2 * out["units"]
    done = run(app, ["duel", "strong", "random", "--game", "mascarade", "--max-games", "3"])
    assert done.exit_code == 0 and "undecided after 3 games" in done.output
    for args, words in ((["strong", "rando"], "unknown bot 'rando'"), (["strong", "random", "--game", "chess"],
                        "unknown game 'chess'"), (["strong", "random", "--alpha", "0.7"], "alpha and beta"),
                        (["strong", "random", "--workers", "0"], "--workers"),
                        (["strong", "random", "--elo0", "10", "--elo1", "5"], "elo1")):
        done = run(app, ["duel", *args])
        assert done.exit_code != 0 and words in done.output and "Traceback" not in done.output, args


def test_duel_against_ismcts():
    pytest.importorskip("pyspiel")
    res = duel("mascarade", CONFIG, "strong", "ismcts", 2, Sprt(), paired=True, max_games=2, sims=4)
    assert res.games == 2 and res.decision == "undecided"
