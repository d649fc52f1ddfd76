"""Tokyo Ghoul places read 1-8 everywhere a player sees them: play, assistant, advice and rules text.

SUPPLEMENT.md: "the 2 red-edged tiles go face down on places 1 and 5; the Action token starts on
place 1 ... the six face-up tiles are shuffled onto places 2-4 and 6-8".
"""

from __future__ import annotations

from engine.ghoul import GhoulConfig
from engine.ghoul.data import load_data
from solvers.ghoul.advice import _summary
from solvers.table import Table
from tui.ghoul import assist_model as g
from tui.ghoul import model as pm


def test_the_red_places_are_1_and_5_and_the_token_starts_on_1_as_the_rules_say():
    data = load_data()
    assert [p + 1 for p in data.red_places] == [1, 5]
    assert data.start_place + 1 == 1


def test_play_and_assistant_name_a_place_by_the_same_number():
    table = Table("ghoul", GhoulConfig(players=5), 3, ["random"] * 5)
    v = table.view(0)
    config = {"ring": [c["tile"] for c in v["ring"]]}
    for place in range(8):
        assert pm.place_label(v, place).split()[0] == g.place_label(config, place).split()[0] == str(place + 1)
    red = [p for p in range(8) if p in g.RED_PLACES]
    assert [g.place_label({}, p).split()[0] for p in red] == ["1", "5"]
    cast = g.default_cast(5)
    setup, errors = g.make_config(list("ABCDE"), 0, cast[0], cast, False, False, "a", None)
    assert setup is not None, errors
    labels = [f.label for f in g.fields("move", setup) if f.key.startswith("red")]
    assert labels == ["Red place 1 turned face up as", "Red place 5 turned face up as"]


def test_the_advice_names_the_place_as_the_board_does():
    advice = {"attack": None, "lacking": [], "interrogate": [],
              "move": [{"place": 0, "tile": None, "actions": [], "score": 0.0}]}
    assert "(place 1)" in _summary({**advice, "special": None}, [])
