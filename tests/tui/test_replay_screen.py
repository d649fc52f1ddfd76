"""The replay screen (issue 25): walked by taps alone, opened from Resume and the CLI, refused clearly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tui_helpers import run_async, wait_for
from typer.testing import CliRunner

from engine.registry import GAMES
from engine.replay import replay_steps
from tui.app import UnmaskApp
from tui.cli import app as cli
from tui.screens.replay import ReplayModel, ReplayScreen, Timeline
from tui.screens.resume import ResumeScreen
from tui.storage import read_session_file, sessions_dir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(game: str):
    return replay_steps(read_session_file(EXAMPLES / f"{game}-finished.json"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_step_of_every_seat_draws(game):
    """Every step through every seat's eyes has its rows and its lines; the rows a step changed are marked,
    and every step after the deal says something."""
    replay = example(game)
    for seat in range(replay.players):
        model = ReplayModel(replay, seat)
        for k in range(len(replay)):
            rows = model.rows(k)
            assert rows and all(label and text for label, text, _ in rows)
            assert not any(changed for _, _, changed in model.rows(0))
            if k:
                assert model.event_lines(k), f"step {k} tells nothing"
    # and the highlight is not idle: steps do change rows
    assert any(changed for k in range(1, len(replay)) for _, _, changed in ReplayModel(replay).rows(k))


@run_async
async def test_a_replay_walked_by_taps_only():
    """Next, Back, End, Start and a tap on the timeline: no key pressed."""
    replay = example("ghoul")
    app = UnmaskApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        for k in range(1, 4):
            await pilot.click("#replay-next")
            assert screen.at == k
        await pilot.click("#replay-back")
        assert screen.at == 2
        await pilot.click("#replay-end")
        assert screen.at == len(replay) - 1
        assert screen.query_one("#replay-next").disabled
        await pilot.click("#replay-start")
        assert screen.at == 0
        timeline = screen.query_one(Timeline)
        width = timeline.content_region.width
        await pilot.click(Timeline, offset=(width // 2, 0))
        assert screen.at == round((width // 2) * (len(replay) - 1) / (width - 1))
        head = str(screen.query_one("#replay-head").render())
        assert f"Step {screen.at} of {len(replay) - 1}" in head
        await pilot.click("#replay-seat")
        assert screen.model.seat == 1
        await pilot.click("#replay-close")
        assert await wait_for(pilot, lambda: not isinstance(app.screen, ReplayScreen))


@run_async
async def test_resume_offers_the_replay_of_a_finished_game_only():
    """A finished game is listed as ended with a Replay button; a game still going has none."""
    shutil.copy(EXAMPLES / "mascarade-finished.json", sessions_dir() / "done.json")
    data = json.loads((EXAMPLES / "clue-finished.json").read_text("utf-8"))
    data["log"] = data["log"][:20]
    (sessions_dir() / "going.json").write_text(json.dumps(data), encoding="utf-8")
    app = UnmaskApp(start="resume")
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen) and app.screen.query(".resume-row"))
        replays = list(app.screen.query(".resume-replay"))
        assert len(replays) == 1 and replays[0].parent.session_id == "done"
        await pilot.click(f"#{replays[0].id}")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.replay.game == "mascarade"


def test_unmask_replay_refuses_what_it_cannot_replay(tmp_path):
    """Unfinished, damaged, missing, notes, a seat that is not there: one line each, exit 2, no app."""
    data = json.loads((EXAMPLES / "masque-finished.json").read_text("utf-8"))
    going = tmp_path / "going.json"
    going.write_text(json.dumps({**data, "log": data["log"][:30]}), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "unmask-session/1", "game": "masque"', encoding="utf-8")
    bad_move = tmp_path / "bad.json"
    bad_move.write_text(json.dumps({**data, "log": [*data["log"][:5], [0, ["fly"]]]}), encoding="utf-8")
    cases = [
        ([str(going)], "not over yet"),
        ([str(broken)], "damaged"),
        ([str(tmp_path / "none.json")], "No session file"),
        ([str(bad_move)], "Log entry 5"),
        ([str(EXAMPLES / "masque-table-notes.json")], "table notes"),
        ([str(EXAMPLES / "masque-finished.json"), "--seat", "4"], "--seat must be 0 to 3"),
    ]
    for args, words in cases:
        r = CliRunner().invoke(cli, ["replay", *args])
        assert r.exit_code == 2, (args, r.output)
        assert words in r.output and "Traceback" not in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1, r.output


def _listed(app) -> bool:
    return isinstance(app.screen, ResumeScreen) and bool(app.screen.query(".resume-replay"))


def _without_cache(game: str, folder: Path, name: str) -> Path:
    """An example finished game with no belief series kept in it (as the app saves a game that just ended)."""
    data = json.loads((EXAMPLES / f"{game}-finished.json").read_text("utf-8"))
    data.pop("beliefs", None)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@run_async
async def test_a_tap_on_the_chart_jumps_to_that_step():
    """The series is worked out in a worker and drawn as it comes; a tap on a point of the chart (by taps only)
    jumps the replay there."""
    from tui.widgets.braille import BrailleChart, cell_of, step_at

    replay = replay_steps(read_session_file(_without_cache("clue", sessions_dir(), "chart")))
    app = UnmaskApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert await wait_for(pilot, lambda: screen.beliefs_done, tries=200)
        chart = screen.query_one(BrailleChart)
        width, steps = chart.content_region.width, len(replay)
        for k in (steps // 3, steps - 1, 0):
            x = cell_of(k, width, steps)
            await pilot.click(BrailleChart, offset=(x, 1))
            assert screen.at == step_at(x, width, steps)
            assert cell_of(screen.at, width, steps) == x  # the tap lands on a step drawn in that very cell
        label = str(screen.query_one("#replay-chart-label").render())
        assert "P(true envelope)" in label


@run_async
async def test_the_series_is_kept_in_the_file_and_the_second_opening_is_instant(monkeypatch):
    """Resume -> Replay works the series out and writes it into the session file (nothing else changes);
    opened again, the chart is whole at once, with no solver run."""
    path = _without_cache("ghoul", sessions_dir(), "kept")
    before = json.loads(path.read_text("utf-8"))
    app = UnmaskApp(start="resume")
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: _listed(app))
        await pilot.click(".resume-replay")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert await wait_for(pilot, lambda: screen.beliefs_done, tries=200)
        values = list(screen.values)
    after = json.loads(path.read_text("utf-8"))
    assert {k: v for k, v in after.items() if k != "beliefs"} == before
    assert after["beliefs"]["seats"]["0"] == [None if v is None else round(v, 6) for v in values]

    import tui.screens.replay as screen_module

    def no_solver(*args, **kwargs):
        raise AssertionError("the kept series must be used")

    monkeypatch.setattr(screen_module, "belief_series", no_solver)
    app = UnmaskApp(start="resume")
    async with app.run_test(size=(100, 30)) as pilot:
        assert await wait_for(pilot, lambda: _listed(app))
        await pilot.click(".resume-replay")
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.beliefs_done and app.screen.values == after["beliefs"]["seats"]["0"]


def test_unmask_replay_json_prints_the_series(tmp_path):
    """--json: every seat's series, worked out (no cache) or read from the file (the same numbers)."""
    from solvers.beliefs import series_json

    fresh = _without_cache("mascarade", tmp_path, "fresh")
    r = CliRunner().invoke(cli, ["replay", str(fresh), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out == json.loads(json.dumps(series_json(replay_steps(read_session_file(fresh)))))
    kept = CliRunner().invoke(cli, ["replay", str(EXAMPLES / "mascarade-finished.json"), "--json", "--seat", "2"])
    assert kept.exit_code == 0, kept.output
    assert json.loads(kept.output)["seats"] == [s for s in out["seats"] if s["seat"] == 2]


def test_the_chart_label_says_since_when_the_seat_was_certain():
    from tui.screens.replay import belief_label

    assert belief_label("Ann", "clue", [0.1, 0.5, 1.0, 1.0], 1, 3) == \
        "Ann: P(true envelope) · 50% at this step · certain from step 2 on"
    assert belief_label("Ann", "mascarade", [1.0, 0.5, 1.0, 0.5], 3, 3) == \
        "Ann: P(own true card) · 50% at this step · first certain at step 0"
    assert belief_label("Ann", "masque", [None, 0.25], 0, 5) == \
        "Ann: P(plan survives) · no number at this step"
    assert "working it out… (2 of 5 steps)" in belief_label("Ann", "masque", [None, 0.25], 3, 5)


@run_async
async def test_the_clue_replay_shows_the_board_as_it_was():
    """b swaps the table rows for the play screen's board map, every token where it stood at that step."""
    from engine.clue.board import load_board
    from tui.clue.board import BoardView, LocationCell

    replay = example("clue")
    board = load_board(replay.final.config.board)
    app = UnmaskApp(replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert not screen.query_one(BoardView).display
        await pilot.press("b")
        assert screen.query_one(BoardView).display and not screen.query_one("#replay-table-box").display
        for k in (0, 12, len(replay) - 1):
            screen.show(k)
            await pilot.pause()
            state = replay.steps[k].state
            for sus, node in state.pos.items():
                if node <= board.centre:
                    assert sus in screen.query_one(f"#loc-{node}", LocationCell).model.tokens, (k, sus)
        await pilot.press("b")
        assert screen.query_one("#replay-table-box").display and not screen.query_one(BoardView).display
    ghoul = UnmaskApp(replay=example("ghoul"))
    async with ghoul.run_test(size=(80, 24)) as pilot:  # no board map in its play screen: no key
        assert await wait_for(pilot, lambda: isinstance(ghoul.screen, ReplayScreen))
        assert ghoul.screen.check_action("board", ()) is False and not ghoul.screen.query(BoardView)
