"""``unmask simulate`` (and ``duel``) on processes and Ray: the same JSON for one seed whatever runs the
games; paired deals; one-line errors for bad ``--workers`` and ``--ray``; help text that shows '[ray]'."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import time

import pytest
from typer.testing import CliRunner

from engine.registry import get_game
from solvers.runners import ProcessRunner, RunnerError, SerialRunner, make_runner
from solvers.simulate import simulate
from tui.cli import app

CONFIG = get_game("mascarade").config_from_json({"players": 4})
BOTS = ["random", "random", "random", "random"]
MIXED = ["honest", "random", "random", "random"]


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def _slow_square(x: int) -> int:
    """Later jobs finish first: a runner must still give the results in job order."""
    time.sleep(0.002 * (20 - x))
    return x * x


def test_a_process_runner_gives_results_in_job_order():
    runner = ProcessRunner(2)
    try:
        assert list(runner.map(_slow_square, list(range(20)))) == [x * x for x in range(20)]
        assert list(runner.map(_slow_square, [])) == []
    finally:
        runner.close()


@pytest.mark.parametrize("paired", [False, True])
def test_one_two_and_four_processes_give_the_same_json(paired):
    want = json.dumps(simulate("mascarade", CONFIG, MIXED, 12, 5, paired=paired).to_json())
    for w in (2, 4):
        runner = make_runner(w)
        try:
            got = json.dumps(simulate("mascarade", CONFIG, MIXED, 12, 5, paired=paired, runner=runner).to_json())
        finally:
            runner.close()
        assert got == want, w


def test_the_cli_prints_the_same_bytes_for_one_two_and_four_workers():
    outs = {w: cli("simulate", "mascarade", "--games", "10", "--bots", "random", "--seed", "3", "--json",
                   "--workers", str(w)) for w in (1, 2, 4)}
    for w, done in outs.items():
        assert done.exit_code == 0, (w, done.output)
    assert outs[1].output == outs[2].output == outs[4].output
    assert json.loads(outs[1].output)["games"] == 10


def test_a_local_ray_cluster_gives_the_same_json():
    ray = pytest.importorskip("ray")
    from solvers.runners import RayRunner

    want = {p: json.dumps(simulate("mascarade", CONFIG, BOTS, 8, 9, paired=p).to_json()) for p in (False, True)}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        runner = RayRunner("local")  # joins the cluster started above
        assert runner.width == 2
        for paired in (False, True):
            got = json.dumps(simulate("mascarade", CONFIG, BOTS, 8, 9, paired=paired, runner=runner).to_json())
            assert got == want[paired], paired
        done = cli("simulate", "mascarade", "--games", "8", "--bots", "random", "--seed", "9", "--json",
                   "--ray", "local")
        assert done.exit_code == 0, done.output
        assert json.dumps(json.loads(done.output)) == want[False]
    finally:
        ray.shutdown()


def test_paired_deals_are_played_once_per_rotation_and_give_a_difference():
    """Every deal seats each bot once at every seat; the difference of win rates is measured deal by deal."""
    res = simulate("mascarade", CONFIG, ["strong", "random"] + ["random"] * 2, 30, 1, paired=True)
    assert res.games == 32 and res.deals == 8  # rounded up to whole deals of 4 rotations
    assert res.stats["strong"].seats == 32 and res.stats["random"].seats == 96
    (d,) = res.to_json()["paired"]["differences"]
    assert d["bots"] == ["strong", "random"] and len(res.differences[("strong", "random")]) == 8
    lo, hi = d["ci95"]
    assert 0 < lo <= d["mean"] <= hi <= 1  # the strong bot wins clearly more, deal by deal
    same = simulate("mascarade", CONFIG, BOTS, 8, 1, paired=True).to_json()["paired"]
    assert same == {"deals": 2, "differences": []}  # one kind of bot: nothing to pair


def test_the_paired_cli_reports_the_difference():
    done = cli("simulate", "mascarade", "--games", "8", "--bots", "honest,random", "--paired", "--workers", "1")
    assert done.exit_code == 0, done.output
    assert "2 deals x 4 rotations = 8 games" in done.output
    assert "Paired over 2 deals: honest's win rate minus random's" in done.output


def test_workers_default_to_every_local_core():
    from tui.cli import _runner

    runner = _runner(None, None)
    try:
        assert runner.width == (os.cpu_count() or 1)
    finally:
        runner.close()
    runner = _runner(None, None, most=1)  # one game: no process to start
    assert isinstance(runner, SerialRunner)


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize("command", [["simulate", "mascarade", "--games", "2"], ["duel", "strong", "random"]])
def test_bad_workers_and_ray_are_one_line(command):
    cases = [(["--workers", "0"], "--workers must be at least 1"),
             (["--workers", "-2"], "--workers must be at least 1"),
             (["--workers", "100000"], "per core"),
             (["--ray", "nowhere"], "--ray takes 'local', 'auto', HOST:PORT"),
             (["--ray", f"127.0.0.1:{_closed_port()}"],
              # where Ray is installed the address is probed; without it, the extra is named
              "cannot reach the Ray cluster at 127.0.0.1:" if importlib.util.find_spec("ray") else "--ray needs Ray")]
    for extra, words in cases:
        t0 = time.monotonic()
        done = cli(*command, *extra)
        assert done.exit_code == 2, (extra, done.output)
        assert words in done.output and "Traceback" not in done.output, (extra, done.output)
        assert len(done.output.strip().splitlines()) == 1, done.output
        assert time.monotonic() - t0 < 30  # refused at once, not after Ray's minutes of retries


def test_make_runner_refuses_what_it_cannot_run():
    with pytest.raises(RunnerError, match="at least 1"):
        make_runner(0)
    assert isinstance(make_runner(1), SerialRunner)


@pytest.mark.parametrize("command", ["simulate", "duel"])
def test_help_shows_the_extras_in_brackets(command):
    done = cli(command, "--help")
    assert done.exit_code == 0
    text = " ".join(done.output.replace("│", " ").split())
    assert "[openspiel] extra" in text and "--workers" in text
    assert "[ray] extra" in text or "(the [ray]" in text
    assert "(the extra" not in text and "the  extra" not in done.output


def test_every_help_is_plain_text_for_rich():
    """Every command's and parameter's help: a paragraph is one line (Rich keeps a docstring's line breaks,
    ragged in any other width) and every '[' is escaped (else Rich takes '[ray]' for markup and drops it)."""
    import inspect

    from tui.cli import serve_app

    seen = 0
    for a in (app, serve_app):
        for info in a.registered_commands:
            helps = [info.help]
            for p in inspect.signature(info.callback, eval_str=True).parameters.values():
                helps += [m.help for m in getattr(p.annotation, "__metadata__", ()) if getattr(m, "help", None)]
            for h in helps:
                assert h, info.callback.__name__
                for para in h.split("\n\n"):
                    assert "\n" not in para, (info.callback.__name__, para)
                assert h.count("[") == h.count("\\["), (info.callback.__name__, h)
                seen += 1
    assert seen > 50


def test_ismcts_games_give_the_same_json_on_two_processes():
    """A game with an OpenSpiel seat goes through the arena's play_one, in a worker as in this process."""
    pytest.importorskip("pyspiel")
    bots = ["strong", "ismcts", "random", "ismcts-uniform"]
    want = simulate("mascarade", CONFIG, bots, 2, 4, sims=4)
    runner = make_runner(2)
    try:
        got = simulate("mascarade", CONFIG, bots, 2, 4, sims=4, runner=runner)
    finally:
        runner.close()
    assert json.dumps(got.to_json()) == json.dumps(want.to_json())
    assert set(got.move_seconds) == set(bots) and set(got.to_json(timing=True)["move_seconds"]) == set(bots)
