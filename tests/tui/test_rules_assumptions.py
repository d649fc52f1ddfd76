"""Issue 20, finding 6: `unmask rules GAME` and the Rules screen list every assumption with its text.

The expectations are read from the TOML files themselves: every ``[[assumptions]]`` entry (its
text) and every record flagged ``assumed = true`` (its id, and the effect or objectives it holds)
must appear in the command's output and on the app's Rules screen.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from tui_helpers import run_async
from typer.testing import CliRunner

from engine.registry import GAMES
from tui.app import UnmaskApp
from tui.cli import app as cli
from tui.screens.rules import RulesScreen

ROOT = Path(__file__).resolve().parents[2]


def _label(record: dict) -> str:
    for k in ("id", "name", "suspect"):
        if isinstance(record.get(k), str):
            return record[k]
    return f"{record['players']}{record.get('option', '')}"


def expected(game: str) -> list[str]:
    """What must be shown: each reading's text, each flagged record's id and its printed effect."""
    out: list[str] = []
    for path in sorted((ROOT / "engine" / game / "data").glob("*.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        out += [a["text"] for a in data.get("assumptions", ())]
        if data.get("assumed"):
            out.append(f"[{path.stem}]")
        for key, val in data.items():
            if isinstance(val, dict) and val.get("assumed"):
                out.append(f"[{path.stem}:{key}]")
            for r in val if isinstance(val, list) else ():
                if isinstance(r, dict) and r.get("assumed"):
                    out.append(f"[{path.stem}:{key}:{_label(r)}]")
                    out += [r[k] for k in ("name", "suspect", "text") if isinstance(r.get(k), str)]
    if game == "ghoul":  # the objectives on each assumed character card, not "see the supplement"
        from engine.ghoul import load_data

        out += [o for c in load_data().characters.values() if c.assumed for o in c.objectives()]
    return out


def test_the_expectations_cover_what_issue_20_names():
    ghoul, masque = expected("ghoul"), expected("masque")
    assert "Stay alive and hold 2 Food at the end." in ghoul  # Nishiki's objective
    assert any("an Inspector kill" in t for t in ghoul) and any("first move" in t for t in ghoul)
    assert any("next player" in t for t in ghoul) and any("Support token" in t for t in ghoul)
    assert "Each nearby noble loses 2 popularity." in masque  # Scandal's effect
    assert not any("default table of the rules supplement" in t for t in ghoul)


@pytest.mark.parametrize("game", list(GAMES))
def test_unmask_rules_lists_every_assumption(game):
    r = CliRunner().invoke(cli, ["rules", game])
    assert r.exit_code == 0, r.output
    missing = [t for t in expected(game) if t not in r.output]
    assert not missing, missing[:5]


@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_screen_lists_every_assumption(game):
    @run_async
    async def check() -> None:
        app = UnmaskApp(bot_delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.push_screen(RulesScreen(game))
            await pilot.pause(0.1)
            await pilot.press("2")
            await pilot.pause()
            shown = str(app.screen.query_one("#rules-assumptions").render())
            missing = [t for t in expected(game) if t not in shown]
            assert not missing, missing[:5]

    check()
