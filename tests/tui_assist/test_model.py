"""The assistant's view model: sentences, defaults, labels and setup validation (no Textual needed)."""

from __future__ import annotations

from assist_helpers import DECK, L, S, W, config, sample_log

from tui.clue import assist_model as m


def test_sentences_cover_every_entry_type() -> None:
    me = "Ann"
    log = sample_log()
    assert m.describe(log[0], me).startswith("My hand: Margaery Tyrell, Cersei Lannister,")
    assert m.describe(log[2], me) == "I asked Tyrion Lannister, Arakh and Privy. Bob showed me Arakh."
    assert m.describe(log[3], me) == (
        "Bob asked Margaery Tyrell, Catspaw's Dagger and Red Keep location 6. Cat passed. I showed Margaery Tyrell."
    )
    assert m.describe(log[4], me).endswith("Bob showed a card.")
    nobody = m.rumor_entry("Cat", [S[1], W[1], L[1]], ["Ann", "Bob"], None, None)
    assert m.describe(nobody, me).endswith("Bob and I passed. Nobody showed.")
    assert m.describe({"type": "reveal", "player": "centre", "cards": [L[9]]}, me) == (
        "The centre pile revealed Red Keep location 10."
    )
    assert m.describe({"type": "accusation", "by": "Bob", "cards": [S[1], W[1], L[1]], "correct": False}, me) == (
        "Bob accused Cersei Lannister, Vial of Poison and Hand's Tower: wrong."
    )
    assert m.describe(["junk"], me).startswith("Unreadable entry")


def test_default_asker_and_passed_go_clockwise() -> None:
    players = ["Ann", "Bob", "Cat", "Dan"]
    assert m.default_asker([], players) == "Ann"
    assert m.default_asker(sample_log(), players) == "Dan"  # the last rumor was Cat's
    assert m.default_passed(players, "Cat", "Bob") == ["Dan", "Ann"]
    assert m.default_passed(players, "Ann", "Bob") == []
    assert m.default_passed(players, "Bob", None) == ["Cat", "Dan", "Ann"]


def test_short_labels_are_short_and_distinct() -> None:
    labels = m.short_labels(DECK, "red-keep", 11)
    assert all(len(v) <= 11 for v in labels.values())
    assert len(set(labels.values())) == len(labels)
    assert labels["Margaery Tyrell"] == "Margaery" and labels["Catspaw's Dagger"] == "Dagger"
    assert labels["Faceless Man"] == "Faceless"
    custom = {"suspects": ["Alpha One", "Alpha Two"], "weapons": ["W"], "locations": ["A very long place name"]}
    out = m.short_labels(custom, None, 8)
    assert len(set(out.values())) == 4 and all(len(v) <= 8 for v in out.values())


def test_setup_validation_lists_every_problem_and_keeps_the_data() -> None:
    data = m.SetupData(board="custom", custom={"suspects": "A, B", "weapons": "", "locations": "X, A"},
                       players=["Ann", "", "Ann"], me=0)
    cfg, errors = data.validate()
    assert cfg is None
    text = " ".join(errors)
    assert "weapons" in text and "'A' appears twice" in text and "Player 2 has no name" in text
    assert "Two players are called 'Ann'" in text
    assert data.players == ["Ann", "", "Ann"] and data.custom["locations"] == "X, A"  # nothing lost


def test_setup_defaults_and_variants() -> None:
    data = m.SetupData(players=["Ann", "Bob", "Cat", "Dan"], me=1)
    assert data.sizes() == ["5", "5", "5", "5"]
    assert data.summary() == "23 cards: 3 in the envelope, 20 in hands."
    cfg, errors = data.validate()
    assert errors == [] and cfg is not None
    assert cfg["me"] == "Bob" and cfg["hand_sizes"] == dict.fromkeys(["Ann", "Bob", "Cat", "Dan"], 5)
    centre = m.SetupData(centre=True)  # 3 players: 2 cards left over go to the centre pile
    cfg, _ = centre.validate()
    assert cfg is not None and cfg["piles"] == {"centre": 2} and m.face_up_count(cfg) == 0
    assert m.sheet_holders(cfg) == ["Player 1", "Player 2", "Player 3", "envelope", "centre"]
    two = m.SetupData(players=["Ann", "Bob"])
    cfg, _ = two.validate()
    assert cfg is not None and cfg["piles"] == {"aside": 4} and cfg["hand_sizes"]["Ann"] == 8
    big = m.SetupData(hand_sizes=["9", "9", "3"])
    cfg, errors = big.validate()
    assert cfg is None and "lower a hand size" in errors[0]


def test_cells_and_messages() -> None:
    sol = {"holders": {S[0]: {"Ann": 1.0, "envelope": 0.0}, S[1]: {"Ann": 0.004, "envelope": 0.996}},
           "certain": {S[0]: "Ann"}}
    assert m.sheet_cell(sol, S[0], "Ann") == m.Cell("✓", 1.0, "yes")
    assert m.sheet_cell(sol, S[0], "envelope").mark == "no"
    assert m.sheet_cell(sol, S[1], "Ann").text == "<1%"
    assert m.sheet_cell(sol, S[1], "envelope").text == ">99%"
    assert m.entry_number_text("No deal fits entry 0 (x) and entry 12 (y).") == "No deal fits #1 (x) and #13 (y)."
    assert m.fmt_count(12345) == "12,345" and m.fmt_count(10324815621120000) == "1.0e16"
    assert config()["me"] == "Ann"


def test_player_labels_stay_distinct() -> None:
    assert m.player_labels(["Ann", "Bob"], 5) == {"Ann": "Ann", "Bob": "Bob"}
    assert m.player_labels(["Margaret", "Bob"], 5) == {"Margaret": "Marg…", "Bob": "Bob"}
    assert m.player_labels([f"Player {i}" for i in (1, 2, 3)], 5) == {f"Player {i}": f"P{i}" for i in (1, 2, 3)}
    assert m.player_labels(["Anna Bell", "Anna Berg"], 3) == {"Anna Bell": "#1", "Anna Berg": "#2"}
    custom = m.short_labels({"suspects": ["Colonel Mustard"], "weapons": ["Rope"], "locations": ["Hall"]}, None, 8)
    assert custom["Colonel Mustard"] == "Colonel…"
