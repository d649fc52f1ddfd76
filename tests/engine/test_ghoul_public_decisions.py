"""Issue 20, findings 1 and 2: who the Tokyo Ghoul table asks must not tell a secret.

A seat is skipped only when its decision is forced by public facts; a decision forced by its
hand or character is asked all the same, with its single option. Every active player whose
location can attack somebody is asked about the attack, killer or not. Each case is the game
the issue names; where bots alone do not reach the moment, a seeded random playout of the same
game finds it (the search is deterministic, so the test is too).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Rng
from engine.ghoul.game import (
    GhoulConfig,
    GhoulState,
    apply,
    character,
    destinations,
    hidden_of,
    new_game,
    to_act,
    view,
)
from tui.ghoul import model as tui_model


def _find(players: int, seed: int, want: Callable[[GhoulState], bool], tries: int = 400) -> GhoulState:
    """The first state of seeded random playouts of (players, seed) where ``want`` holds."""
    for k in range(tries):
        rng = Rng(k)
        s = new_game(GhoulConfig(players=players), seed)
        while s.phase != "over":
            if want(s):
                return s
            s = apply(s, rng.choice(s.legal))
    raise AssertionError("the situation never came up")


def test_a_seat_holding_three_doves_is_asked_in_the_preliminary_phase():
    """5 players, seed 2: "You" holds three Doves, so one pair to show; the seat is asked anyway."""
    s = new_game(GhoulConfig(players=5), 2)
    assert hidden_of(s, 0) == (0, 0, 0, 3, 0)  # three Doves (the case of the issue)
    asked = []
    while s.phase == "prelim_show":
        seat = to_act(s)
        asked.append(seat)
        if seat == 0:
            assert s.legal == (("show", "dove", "dove"),)
            assert tui_model.prompt(view(s, 1)) == "You is deciding… (preliminary: show two cards)"
        s = apply(s, s.legal[0])
    assert sorted(asked) == list(range(5))


def test_an_interrogated_seat_with_three_identical_cards_is_asked():
    """4 players, seed 3: a target whose three hidden cards are all alike still gets its
    "(you are interrogated)" step, with its single pair."""

    def alike(s: GhoulState) -> bool:
        if s.phase != "show":
            return False
        h = hidden_of(s, s.target)
        return sum(h) == 3 and max(h) == 3

    s = _find(4, 3, alike)
    assert to_act(s) == s.target and len(s.legal) == 1
    other = next(i for i in range(4) if i not in (s.turn, s.target))
    assert tui_model.prompt(view(s, other)).endswith("is deciding… (you are interrogated)")


def test_a_move_with_one_place_is_asked_while_an_inspector_could_use_a_special():
    """5 players, seed 1975: while an Inspector in the cast could kill somebody (public
    markers), a move with one place to go is asked like any other, or the decision's appearance
    would tell that an Inspector holds two Doves."""

    def one_place(s: GhoulState) -> bool:
        return (
            s.phase == "move"
            and len(destinations(s.token, s.face)) == 1
            and not any(a[0] == "special" for a in s.legal)
        )

    s = _find(5, 1975, one_place)
    assert s.legal == (("move", destinations(s.token, s.face)[0]),)
    watcher = (s.turn + 1) % 5
    assert tui_model.prompt(view(s, watcher)).endswith("is deciding… (move the action token)")


def test_a_move_is_taken_at_once_when_no_special_could_be_possible():
    """The other side of the rule: with no marker anywhere no Inspector can kill, so a single
    place to go is taken for the seat (everyone can tell it is forced)."""

    def forced(s: GhoulState) -> bool:
        return s.phase == "move" and not any(s.markers) and len(destinations(s.token, s.face)) == 1

    for k in range(200):
        rng = Rng(k)
        s = new_game(GhoulConfig(players=5), 1975)
        while s.phase != "over":
            assert not forced(s), "a publicly forced move was asked"
            s = apply(s, rng.choice(s.legal))


def test_every_active_player_is_asked_about_an_attack_with_a_target():
    """6 players, seed 1: the attack step is shown for a player who cannot kill too (their only
    option is to pass, silently), so "X is deciding… (attack)" no longer names a killer."""

    def harmless(s: GhoulState) -> bool:
        return s.phase == "attack" and not character(s.chars[s.turn]).kill

    s = _find(6, 1, harmless)
    assert s.legal == (("pass",),)
    watcher = (s.turn + 1) % 6
    line = tui_model.prompt(view(s, watcher))
    assert line == f"{s.config.seat_names()[s.turn]} is deciding… (attack)"
    after = apply(s, ("pass",))
    assert all(ev["t"] != "attack" for ev, _seats in after.log.entries(len(s.log)))  # the pass is silent
