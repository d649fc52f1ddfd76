"""Damaged and hand-edited session files never crash a solver or an assistant (hypothesis).

Mutations of real sessions (the examples, and what one seat saw in seeded engine games) go
through ``unmask solve GAME FILE`` and through each assistant's session loader. A file is either
solved (exit 0, or exit 2 for a contradiction) or refused with exit 2 and one line that says
what is wrong; never a traceback. The assistant either opens the notes or says in one line why
it cannot, and the file stays as it was. The default run tries 100 mutations per game (fixed
seed, so CI is deterministic); ``pytest -m soak`` tries 2,000 per game and path.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzz.loaders import check_without_screen, open_in_assistant
from fuzz.mutate import mutated, session_file
from fuzz.sessions import GAMES, real_sessions
from tui.cli import app

SAMPLE = 100
SOAK = 2000
COUNTS: dict[str, int] = {}


def _settings(n: int):
    return settings(max_examples=n, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def _solve_file(game: str, data: dict, folder: Path) -> None:
    """``unmask solve`` on one file: solved, a contradiction, or one line; never a traceback."""
    path = folder / "session.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    before = path.read_bytes()
    as_json = len(before) % 2 == 0  # half the files are printed as tables (names must not be read as markup)
    r = CliRunner().invoke(app, ["solve", game, str(path), *(["--json"] if as_json else [])])
    assert r.exit_code in (0, 2), f"exit {r.exit_code}: {r.output[-500:]!r} for {json.dumps(data)[:400]}"
    assert "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    if r.output.startswith("unmask:"):
        assert len(r.output.strip().splitlines()) == 1, r.output
    elif as_json:
        assert json.loads(r.output)["status"] in ("ok", "contradiction")
    assert path.read_bytes() == before


def _fuzz_cli(game: str, n: int) -> int:
    count = 0
    with tempfile.TemporaryDirectory() as tmp:

        @_settings(n)
        @given(st.data())
        def run(data: st.DataObject) -> None:
            nonlocal count
            base = data.draw(st.sampled_from(real_sessions(game)))
            _solve_file(game, session_file(game, data.draw(mutated(base))), Path(tmp))
            count += 1

        run()
    return count


def _fuzz_loader(game: str, n: int) -> int:
    count = 0

    @_settings(n)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        nonlocal count
        base = data.draw(st.sampled_from(real_sessions(game)))
        message = check_without_screen(game, session_file(game, data.draw(mutated(base))))
        assert message is None or (message.strip() and "\n" not in message.strip()), message
        count += 1

    run()
    return count


def _ui_files(game: str, n: int) -> list[dict]:
    files: list[dict] = []

    @_settings(n)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        files.append(session_file(game, data.draw(mutated(data.draw(st.sampled_from(real_sessions(game)))))))

    run()
    return files


@pytest.mark.parametrize("game", GAMES)
def test_real_sessions_are_accepted(game, tmp_path):
    """The unmutated sessions pass the schema, solve, and open in the assistant: the check refuses only damage."""
    for text in real_sessions(game):
        data = session_file(game, json.loads(text))
        assert check_without_screen(game, data) is None
        _solve_file(game, data, tmp_path)


@pytest.mark.parametrize("game", GAMES)
def test_unmask_solve_survives_mutations_sample(game):
    assert _fuzz_cli(game, SAMPLE) == SAMPLE


@pytest.mark.parametrize("game", GAMES)
def test_assistant_loader_survives_mutations_sample(game):
    assert _fuzz_loader(game, SAMPLE) == SAMPLE


@pytest.mark.parametrize("game", GAMES)
def test_assistant_screen_opens_or_refuses_mutated_files_sample(game):
    """A few mutated files opened in the real screen (slow: a whole screen each)."""
    files = [session_file(game, json.loads(real_sessions(game)[0])), *_ui_files(game, 2)]
    assert open_in_assistant(game, files) == []


def _hostile(game: str) -> dict:
    """The first real session with every player called something that looks like markup."""
    data = json.loads(real_sessions(game)[0])
    names = data["config"].get("players") or []
    text = json.dumps(data)
    for k, name in enumerate(names):
        text = text.replace(json.dumps(name), json.dumps(f"[/]{name}[bold" if k % 2 else f"[b]{name}[/b]"))
    return session_file(game, json.loads(text))


@pytest.mark.parametrize("game", GAMES)
def test_names_that_look_like_markup_are_shown_as_written(game, tmp_path):
    """A player called "[/]" is a name: the report prints it, the assistant opens the notes."""
    data = _hostile(game)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = CliRunner().invoke(app, ["solve", game, str(path)])
    assert r.exit_code == 0 and r.exception is None, r.output[-800:]
    if data["config"].get("players"):
        assert "[/]" in r.output or game == "masque"
    assert open_in_assistant(game, [data]) == []


@pytest.mark.parametrize("game", GAMES)
def test_deeply_nested_file_is_one_line(game, tmp_path):
    path = tmp_path / "deep.json"
    deep = "[" * 100_000 + "]" * 100_000
    path.write_text(f'{{"format": "unmask-session/1", "game": "{game}", "mode": "assist", "config": {deep}}}')
    r = CliRunner().invoke(app, ["solve", game, str(path)])
    assert r.exit_code == 2 and "nested too deeply" in r.output and len(r.output.strip().splitlines()) == 1


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_unmask_solve_survives_2000_mutations(game):
    COUNTS[f"cli {game}"] = _fuzz_cli(game, SOAK)
    print(f"\nunmask solve {game}: {COUNTS[f'cli {game}']} mutations, no traceback")
    assert COUNTS[f"cli {game}"] >= SOAK


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_assistant_loader_survives_2000_mutations(game):
    COUNTS[f"loader {game}"] = _fuzz_loader(game, SOAK)
    print(f"\n{game} assistant loader: {COUNTS[f'loader {game}']} mutations, no exception")
    assert COUNTS[f"loader {game}"] >= SOAK


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_assistant_screen_opens_or_refuses_30_mutated_files(game):
    assert open_in_assistant(game, _ui_files(game, 30)) == []
