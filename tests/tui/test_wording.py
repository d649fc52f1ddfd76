"""Issue 20, finding 7: sentences built from data get their articles and plurals right.

"killed a Inspector" showed on the Tokyo Ghoul end screen; "1 steps" could show in Clue. Every
such sentence now goes through engine/words.py; this sweeps the texts every game's screens draw
(log lines, prompts, status lines, the end screen) over seeded random games.
"""

from __future__ import annotations

import re

import pytest

from engine import words
from engine.core import Rng
from engine.ghoul.game import winners_of
from engine.registry import get_game

# "a" before a vowel-initial word, "an" before a consonant, "1" before a plural.
A_VOWEL = re.compile(r"\b[Aa] (?!one\b|uni|use|eu)[AEIOUaeiou]\w*")
AN_CONSONANT = re.compile(r"\b[Aa]n (?![AEIOUaeiou]|8|11|18|hour|honest)[A-Za-z]\w*")
ONE_PLURAL = re.compile(r"(?<![\d.,:/+-])\b1 (?!turns face down)(?:[A-Z][a-z]+ )?[a-z]*[a-z](?<!s)s\b")


def test_articles_and_plurals():
    assert words.a("Inspector") == "an Inspector" and words.a("Ghoul") == "a Ghoul"
    assert words.a("Ace") == "an Ace" and words.a("unicorn") == "a unicorn" and words.a("8:00") == "an 8:00"
    assert words.count(1, "step") == "1 step" and words.count(2, "step") == "2 steps"
    assert words.count(0, "entry") == "0 entries" and words.count(1, "entry") == "1 entry"
    assert words.count(3, "Suspicion marker") == "3 Suspicion markers" and words.count(2, "box") == "2 boxes"
    assert words.count(2, "day") == "2 days" and words.count(2, "mouse", "mice") == "2 mice"


def slips(text: str) -> list[str]:
    return [m.group(0) for rx in (A_VOWEL, AN_CONSONANT, ONE_PLURAL) for m in rx.finditer(text)]


def test_the_sweep_catches_the_reported_slips():
    """The patterns see what issue 20 reported (a test of the test)."""
    assert slips("Mado killed a Inspector.") and slips("1 steps: click a place") and slips("played a Ace")
    assert not slips("Touka killed an Inspector. 1 step. 12 steps. Place 1 turns face down. a Ghoul")


def test_ghoul_end_screen_says_an_inspector():
    """Touka (kill an Inspector) kills Mado: her reason reads "killed an Inspector"."""
    chars = ("touka", "mado", "kimi", "hide")
    hands = ((3, 0, 0, 0, 0),) * 4
    wins, why = winners_of(chars, hands, "attack", victim=1, killer=0)
    assert 0 in wins and "killed an Inspector" in why["0"]


def _texts(game: str, view: dict) -> list[str]:
    """What the game's screens draw for this view: log lines, prompt, status, and the end texts."""
    if game == "clue":
        from engine.clue.board import load_board
        from tui.clue import model as m

        board = load_board(view["board"])
        seats = m.Seats.from_view(view)
        out = [m.describe(ev, seats, board) for ev in view["events"]]
        out += [m.prompt(view, board), m.status_line(view, board), *m.players_lines(view)]
    elif game == "ghoul":
        from tui.ghoul import model as m

        out = [m.describe(ev, view) for ev in view["events"]]
        out += [m.prompt(view), m.status_line(view), m.dialog_text(view)]
        out += [m.action_label(view, a) for a in view["legal"]]
        if view["result"]:
            out += [m.end_reason(view), *("; ".join(r.why) for r in m.end_rows(view))]
    elif game == "masque":
        from tui.masque import model as m

        out = [m.describe(ev, view) for ev in view["events"]]
        out += [m.prompt(view), m.status_line(view)]
        out += [m.action_label(view, a) for a in view["legal"]]
    else:
        from tui.mascarade import model as m

        out = [m.describe(ev, view) for ev in view["events"]]
        out += [m.prompt(view), m.status_line(view)]
    return [t for t in out if t]


CASES = [
    ("clue", {"players": 3}),
    ("clue", {"players": 5, "board": "meereen"}),
    ("ghoul", {"players": 4}),
    ("ghoul", {"players": 7, "mask": True, "support": True, "setup": "b"}),
    ("masque", {"players": 4}),
    ("mascarade", {"players": 5}),
]


@pytest.mark.parametrize("game,options", CASES)
def test_no_article_or_plural_slips_in_what_the_screens_draw(game, options):
    """Seeded random games; every seat's texts at every step (the view of the one to act, and seat 0)."""
    spec = get_game(game)
    config = spec.config_from_json(dict(options))
    found: set[str] = set()
    for seed in range(3):
        rng = Rng(seed)
        state = spec.new_game(config, seed)
        for _ in range(400):
            if spec.is_over(state):
                break
            seat = spec.to_act(state)
            for s in {0, seat}:
                for text in _texts(game, spec.view(state, s)):
                    found.update(f"{x!r} in {text!r}" for x in slips(text))
            legal = spec.legal_actions(state)
            state = spec.apply(state, legal[rng.below(len(legal))])
        for s in range(config.players):
            for text in _texts(game, spec.view(state, s)):
                found.update(f"{x!r} in {text!r}" for x in slips(text))
    assert not found, sorted(found)[:10]


def test_ghoul_assistant_says_an_inspector():
    """The table assistant's objectives and attack advice for Touka (kill an Inspector)."""
    from solvers.ghoul.solver import solve
    from tui.ghoul import assist_model as g
    from tui.ghoul.assist import advice_text, identities_text

    cast = ["touka", "nishiki", "mado", "kimi", "hide"]
    config, errors = g.make_config(["Ann", "Ben", "Cai", "Dee", "Eve"], 0, "touka", cast, False, False, "a", None)
    assert not errors and config is not None
    r = solve(config, [])
    text = identities_text(r, config).plain + advice_text(r, config).plain
    assert "kill an inspector" in text and "is an inspector" in text
    assert not slips(text), slips(text)
