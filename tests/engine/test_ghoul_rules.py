"""The rules of Tokyo Ghoul: Bloody Masquerade, one test per rule.

Each test quotes the rulebook (``shared/rules/tokyo-ghoul-bloody-masquerade.txt``) or, where
it is silent, the documented assumption (``engine/ghoul/data/rules.toml``). Positions are set
up by starting a real game from a seed and then, for the test only, editing fields of a
*copy* of the state (hands, characters, markers, the ring, whose turn it is). Everything
after the setup goes through ``apply`` like a real game.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.core import IllegalAction, Rng
from engine.ghoul import game as g
from engine.ghoul.data import COFFEE, DOVE, FOOD, MASK, SUITS, TRANSFORMATION, load_data
from engine.ghoul.game import (
    ATTACK,
    COVER_ADD,
    COVER_REMOVE,
    EXCHANGE,
    INTERROGATE,
    MOVE,
    OVER,
    PRELIM_GIVE,
    PRELIM_SHOW,
    REFILL,
    SETUP_FACE,
    SHOW,
    SUPPORT,
    GhoulConfig,
    GhoulState,
    apply,
    events_for,
    legal_actions,
    new_game,
    state_from_json,
    state_to_json,
    to_act,
    view,
)

DATA = load_data()
RING = (
    "cochlea",
    "anteiku",
    "ccg-office",
    "kamii-university",
    "11th-ward",
    "ghoul-restaurant",
    "20th-ward-streets",
    "aogiri-hideout",
)
PLACE = {t: i for i, t in enumerate(RING)}


# ============================================================================ helpers


def H(coffee: int = 0, food: int = 0, transformation: int = 0, dove: int = 0, mask: int = 0) -> tuple[int, ...]:
    return (coffee, food, transformation, dove, mask)


def new(players: int = 6, seed: int = 1, **kw) -> GhoulState:
    return new_game(GhoulConfig(players=players, **kw), seed)


def at(state: GhoulState, **fields) -> GhoulState:
    """A copy of ``state`` with some fields replaced (test setup only), legal actions recomputed."""
    s = state.copy()
    for k, v in fields.items():
        setattr(s, k, v)
    s.legal = g._compute_legal(s)
    return s


def turn_of(
    seat: int,
    players: int = 6,
    chars: tuple[str, ...] | None = None,
    hands=None,
    seed: int = 1,
    ring=RING,
    token: int = 0,
    face=None,
    markers=None,
    **kw,
) -> GhoulState:
    """A game whose seat ``seat`` is about to move the token (after the preliminary phase)."""
    s = new(players, seed, **kw)
    fields = dict(
        phase=MOVE,
        turn=seat,
        first=seat,
        step=0,
        moved=True,
        ring=tuple(ring),
        known=(True,) * 8,
        face=tuple(face) if face is not None else (True,) * 8,
        token=token,
    )
    if chars is not None:
        fields["chars"] = tuple(chars)
        fields["cast"] = tuple(sorted(chars))
    if hands is not None:
        fields["hands"] = tuple(hands)
    if markers is not None:
        fields["markers"] = tuple(markers)
    return at(s, **fields)


def finish_prelim(s: GhoulState) -> GhoulState:
    while s.phase in (SETUP_FACE, PRELIM_SHOW, PRELIM_GIVE):
        s = apply(s, legal_actions(s)[0])
    return s


def kinds(s: GhoulState) -> set[str]:
    return {a[0] for a in legal_actions(s)}


def events(s: GhoulState, since: int = 0, seat: int | None = None) -> list[dict]:
    return events_for(s, seat, since)


def last(s: GhoulState, t: str) -> dict:
    return next(e for e, _ in reversed(s.log.entries()) if e["t"] == t)


SIX = ("kaneki", "kimi", "hide", "mado", "nishiki", "rize")  # 6 players, setup a
SIX_H = (
    H(coffee=2, food=1),
    H(coffee=1, dove=2),
    H(coffee=2, transformation=1),
    H(dove=1, food=2),
    H(transformation=2, food=1),
    H(transformation=1, food=1, dove=1),
)


# ============================================================================ setup


@pytest.mark.parametrize(("players", "option"), [(4, "a"), (5, "a"), (6, "a"), (6, "b"), (7, "a"), (7, "b"), (8, "a")])
def test_setup_table(players, option):
    """Rulebook: "Build up a pile of Character tokens according to the table": Ghouls, Doves and Humans by
    player count, and the Suspicion markers in the Pool (4: 1/1/2, 12; 5: 2/1/2, 20; 6a: 2/1/3, 24;
    6b: 2/2/2, 24; 7a: 3/1/3, 35; ASSUMED 7b: 3/2/2, 35; 8: 3/2/3, 40)."""
    row = DATA.setup(players, option)
    for seed in range(20):
        s = new(players, seed, setup=option)
        c = Counter(DATA.characters[x].slot for x in s.chars)
        assert c["ghoul"] == row.ghouls and c["inspector"] == row.inspectors and c["human"] == row.humans
        assert s.pool == row.markers
        assert sorted(s.chars) == sorted(s.cast)
        assert len(set(s.chars)) == players


def test_setup_numbers_match_the_rulebook():
    expected = {
        (4, "a"): (1, 1, 2, 12),
        (5, "a"): (2, 1, 2, 20),
        (6, "a"): (2, 1, 3, 24),
        (6, "b"): (2, 2, 2, 24),
        (7, "a"): (3, 1, 3, 35),
    }
    for (p, o), row in expected.items():
        r = DATA.setup(p, o)
        assert (r.ghouls, r.inspectors, r.humans, r.markers) == row


def test_rize_is_never_chosen_for_four_players():
    """Rulebook: "Be careful, do not choose RIZE for a 4-player game.\""""
    assert not any("rize" in new(4, seed).chars for seed in range(200))
    assert any("rize" in new(5, seed).chars for seed in range(200))
    with pytest.raises(ValueError, match="from 5 players"):
        GhoulConfig(players=4, characters=("rize", "mado", "kaneki", "kimi"))


@pytest.mark.parametrize("players", range(4, 9))
def test_clue_cards_in_play_by_player_count(players):
    """Rulebook: "Take all the Coffee, Food, Transformation and Dove cards with a cost equal or lower than the
    number of players ... For 8 players, take all the Clue cards." Every card in play is dealt, 3 each."""
    deck = DATA.deck(players, mask=False)
    assert sum(deck) == 3 * players
    if players == 4:
        assert deck == (3, 3, 3, 3, 0)
    if players == 8:
        assert deck == (6, 6, 6, 6, 0)
    s = new(players)
    assert all(sum(h) == 3 for h in s.hands)
    assert tuple(sum(h[i] for h in s.hands) for i in range(5)) == deck


def test_cards_marks_are_the_assumed_ones():
    """ASSUMED marks: 5+: Coffee, Food, Dove; 6+: Transformation, Coffee, Food; 7+: Dove,
    Transformation, Coffee; 8+: Food, Dove, Transformation."""
    assert DATA.deck(5, False) == (4, 4, 3, 4, 0)
    assert DATA.deck(6, False) == (5, 5, 4, 4, 0)
    assert DATA.deck(7, False) == (6, 5, 5, 5, 0)


def test_ring_setup():
    """Rulebook: "Randomly place the 2 Location tiles with red edges face down on the 2 dedicated locations
    ... the other Location tiles face up ... Place the Action token on the red edge tile indicated
    by the start symbol.\""""
    for seed in range(10):
        s = new(6, seed)
        assert sorted(s.ring) == sorted(RING)
        for p in range(8):
            red = DATA.tiles[s.ring[p]].red
            assert red == (p in (0, 4))
            assert s.face[p] == (not red)
        assert s.token == 0 and not s.moved


def test_characters_in_play_are_public_identities_private():
    """Rulebook: "Place the corresponding Character cards on the game board, so everyone can take note of
    each character's goals. ... Each player discovers his identity and keeps it a secret.\""""
    s = new(6, 3)
    setup = events(s, seat=2)[0]
    assert setup["t"] == "setup" and sorted(setup["cast"]) == sorted(s.chars)
    for seat in range(6):
        mine = [e for e in events(s, seat=seat) if e["t"] == "identity"]
        assert [e["character"] for e in mine if e["seat"] == seat] == [s.chars[seat]]
        assert all(e["character"] is None for e in mine if e["seat"] != seat)
        v = view(s, seat)
        assert v["character"]["id"] == s.chars[seat]
        assert [c["id"] for c in v["cast"]] == list(s.cast)


def test_config_errors_are_sentences():
    for bad, msg in [
        ({"players": 3}, "4 to 8"),
        ({"players": 6, "setup": "c"}, "setup"),
        ({"players": 5, "characters": ["uta", "mado", "kaneki", "kimi", "rize"]}, "Mask variant"),
        ({"players": 4, "names": ["a", "b"]}, "names"),
        ({"players": 4, "colour": 1}, "Unknown"),
        ({"players": 4, "mask": "yes"}, "true or false"),
    ]:
        with pytest.raises(ValueError, match=msg):
            GhoulConfig.from_json(bad)
    c = GhoulConfig(players=7, setup="b", mask=True, support=True)
    assert GhoulConfig.from_json(json.loads(json.dumps(c.to_json()))) == GhoulConfig.from_json(c.to_json())


# ============================================================================ preliminary phase


def test_preliminary_show_two_cards_to_the_left_neighbour():
    """Rulebook: "Each player chooses 2 Clue cards from his hand, then shows them simultaneously to the player
    on his left." Choices are hidden commitments, revealed together to the left neighbour only."""
    s = new(6, 4)
    assert s.phase == PRELIM_SHOW
    order = []
    while s.phase == PRELIM_SHOW:
        seat = to_act(s)
        order.append(seat)
        a = legal_actions(s)[-1]
        s2 = apply(s, a)
        if s2.phase == PRELIM_SHOW:  # nothing shown yet to anyone
            assert not [e for e, _ in s2.log.entries() if e["t"] == "prelim_shown"]
            ev = last(s2, "show_chosen")
            assert ev["seat"] == seat
            assert [e for e in events(s2, seat=(seat + 1) % 6) if e["t"] == "show_chosen"][-1]["cards"] is None
        s = s2
    assert order == [(s.first + k) % 6 for k in range(6)]
    shown = [e for e, _ in s.log.entries() if e["t"] == "prelim_shown"]
    assert [(e["seat"], e["to"]) for e in shown] == [(i, (i + 1) % 6) for i in range(6)]
    for seat in range(6):
        for e in events(s, seat=seat):
            if e["t"] == "prelim_shown":
                assert (e["cards"] is not None) == (seat in (e["seat"], e["to"]))


def test_preliminary_give_one_card_to_the_right_at_the_same_time():
    """Rulebook: "Every player then gives 1 Clue card, face down, to the player on his right ... each player
    gives his card before discovering the card he receives. Each player must start the game with 3
    Clue cards in hand.\""""
    s = new(6, 5)
    while s.phase == PRELIM_SHOW:
        s = apply(s, legal_actions(s)[0])
    before = s.hands
    gifts = {}
    while s.phase == PRELIM_GIVE:
        seat = to_act(s)
        a = legal_actions(s)[0]
        gifts[seat] = SUITS.index(a[1])
        s = apply(s, a)
        if s.phase == PRELIM_GIVE:
            assert s.hands == before  # nothing moves before everyone chose
    for i in range(6):
        expected = list(before[i])
        expected[gifts[i]] -= 1
        expected[gifts[(i + 1) % 6]] += 1
        assert s.hands[i] == tuple(expected)
        assert sum(s.hands[i]) == 3
    assert s.phase == MOVE and s.turn == s.first
    given = [e for e, _ in s.log.entries() if e["t"] == "prelim_given"]
    assert [(e["seat"], e["to"]) for e in given] == [(i, (i - 1) % 6) for i in range(6)]


def test_a_choice_forced_by_a_hidden_hand_is_still_asked():
    """A player holding three cards of one suit has only one pair to show, but only he knows it:
    he is asked like anyone else, with that single option (issue 20: skipping him would tell)."""
    s = at(new(6, 6), hands=(H(coffee=3), *new(6, 6).hands[1:]))
    s = at(s, first=5)  # seat 5 decides first, then seat 0 (forced, but asked)
    s = apply(s, legal_actions(s)[0])
    assert to_act(s) == 0 and legal_actions(s) == [("show", "coffee", "coffee")]
    s = apply(s, legal_actions(s)[0])
    assert to_act(s) == 1
    assert last(s, "show_chosen")["seat"] == 0 and last(s, "show_chosen")["cards"] == ["coffee", "coffee"]


# ============================================================================ a round


def test_instant_victory_is_claimed_at_the_start_of_the_turn():
    """Rulebook: "If the player has a combination of Clue cards in hand at the beginning of his turn, he must
    reveal them immediately. He is then declared the only winner of the game.\""""
    hands = list(SIX_H)
    hands[2], hands[0] = H(coffee=3), H(food=1, dove=1, transformation=1)
    s = turn_of(1, chars=SIX, hands=hands)
    s = apply(s, legal_actions(s)[0])  # seat 1 moves; the resolution ends its turn eventually
    while s.phase != OVER and s.turn == 1:
        s = apply(s, ("pass",) if ("pass",) in legal_actions(s) else legal_actions(s)[0])
    assert s.phase == OVER and s.result["reason"] == "instant" and s.result["winners"] == [2]
    assert last(s, "instant")["seat"] == 2


def test_instant_victory_only_for_the_character_that_has_one():
    """Kaneki (no instant victory) holding 3 Coffee just plays on."""
    hands = list(SIX_H)
    hands[0], hands[2] = H(coffee=3), H(food=1, dove=1, transformation=1)
    s = turn_of(0, chars=SIX, hands=hands)
    assert s.phase == MOVE
    s2 = at(s, turn=5, first=5, phase=SUPPORT)  # seat 5's turn ends, seat 0 starts
    s2 = at(s2, phase=INTERROGATE, step=1, token=PLACE["anteiku"])
    s2 = apply(s2, ("pass",))
    assert s2.turn == 0 and s2.phase == MOVE


def test_move_one_or_two_visible_locations():
    """Rulebook: "The active player must move the Action token to a visible Location. It can be moved 1 or 2
    Locations during a turn. Hidden Locations are not taken into account.\""""
    face = [True] * 8
    face[3] = False
    s = turn_of(0, chars=SIX, hands=SIX_H, token=1, face=face)
    assert [a for a in legal_actions(s) if a[0] == "move"] == [("move", 2), ("move", 4)]
    with pytest.raises(IllegalAction, match="1 or 2 visible"):
        apply(s, ("move", 3))


def test_flipping_tiles():
    """Rulebook: "The visible Location the active player left is turned face down ... The hidden Location
    tiles 'skipped' by the Action token are turned face up ... The visible Locations 'skipped' by
    the Action token remain face up.\""""
    face = [True] * 8
    face[3] = False
    s = turn_of(0, chars=SIX, hands=SIX_H, token=1, face=face)
    s2 = apply(s, ("move", 4))
    assert s2.face[1] is False  # left
    assert s2.face[2] is True  # skipped visible
    assert s2.face[3] is True  # skipped hidden
    assert s2.token == 4
    ev = last(s2, "move")
    assert ev["revealed"] == [{"place": 3, "tile": RING[3]}] and ev["hidden"] == 1


def test_first_move_does_not_flip_the_starting_tile():
    """Rulebook: "During the first round, the starting tile is not flipped over.\""""
    s = finish_prelim(new(6, 7))
    assert not s.moved and not s.face[0]
    dests = [a[1] for a in legal_actions(s) if a[0] == "move"]
    assert dests == [1, 2]
    s2 = apply(s, ("move", 2))
    assert s2.face[0] is False and last(s2, "move")["hidden"] is None


def test_only_one_step_when_a_single_other_tile_is_visible():
    """ASSUMED: with one other visible tile, only a 1-location move is possible."""
    face = [False] * 8
    face[2] = face[6] = True
    s = turn_of(0, chars=SIX, hands=SIX_H, token=2, face=face)
    assert [a for a in legal_actions(s) if a[0] == "move"] == [("move", 6)]
    s = apply(s, ("move", 6))
    assert s.face[3] and s.face[4] and s.face[5] and not s.face[2]  # skipped ones came up


def test_actions_resolve_left_to_right():
    """Rulebook: "The different actions of each Location are described in the order in which they must be
    resolved, from left to right." Aogiri Hideout: Suspicion then Interrogation; Anteiku:
    Interrogation then Suspicion."""
    s = turn_of(0, chars=SIX, hands=SIX_H, token=PLACE["aogiri-hideout"] - 1)
    s = apply(s, ("move", PLACE["aogiri-hideout"]))
    assert last(s, "suspicion")["rule"] == "food" and s.phase == INTERROGATE
    s = turn_of(0, chars=SIX, hands=SIX_H, token=0)
    s = apply(s, ("move", PLACE["anteiku"]))
    assert s.phase == INTERROGATE
    assert not [e for e, _ in s.log.entries() if e["t"] == "suspicion"]
    s = apply(s, ("pass",))
    assert last(s, "suspicion")["rule"] == "coffee"


# ============================================================================ interrogation


def _interrogating(target_markers: int = 0, **kw) -> GhoulState:
    markers = [0] * 6
    markers[3] = target_markers
    s = turn_of(0, chars=SIX, hands=SIX_H, token=0, markers=markers, **kw)
    return apply(s, ("move", PLACE["anteiku"]))


def test_interrogation_shows_two_cards_chosen_by_the_target():
    """Rulebook: "The active player may interrogate the player of his choice. He asks that player to show him
    two Clue cards.\""""
    s = _interrogating()
    assert ("pass",) in legal_actions(s)  # optional
    assert {a[1] for a in legal_actions(s) if a[0] == "interrogate"} == {1, 2, 3, 4, 5}
    s = apply(s, ("interrogate", 3))
    assert s.phase == SHOW and to_act(s) == 3
    assert sorted(legal_actions(s)) == sorted([("show", "food", "food"), ("show", "food", "dove")])
    s = apply(s, ("show", "food", "dove"))
    ev = last(s, "shown")
    assert ev["cards"] == ["food", "dove"] and (ev["seat"], ev["to"]) == (3, 0)
    for seat in range(6):
        seen = [e for e in events(s, seat=seat) if e["t"] == "shown"][-1]
        assert (seen["cards"] is not None) == (seat in (0, 3))
    v = view(s, 0)
    assert v["interrogation"]["shown"] == ["food", "dove"]
    assert view(s, 1)["interrogation"]["shown"] is None


def test_three_markers_show_three_cards():
    """Rulebook: "When a player has 3 Suspicion markers on his Investigation board, he must show the 3 cards in
    his hand instead of 2 during an Interrogation.\""""
    s = apply(_interrogating(target_markers=3), ("interrogate", 3))
    assert s.phase == EXCHANGE
    assert last(s, "interrogate")["count"] == 3
    assert sorted(last(s, "shown")["cards"]) == ["dove", "food", "food"]


def test_exchange_is_optional_one_card_each_way():
    """Rulebook: "The active player can then decide to exchange 1 of his own cards with one he was just shown."
    After an exchange both players still hold 3 cards."""
    s = apply(apply(_interrogating(), ("interrogate", 3)), ("show", "food", "dove"))
    takes = {a[2] for a in legal_actions(s) if a[0] == "exchange"}
    gives = {a[1] for a in legal_actions(s) if a[0] == "exchange"}
    assert takes == {"food", "dove"} and gives == {"coffee", "food"}
    s2 = apply(s, ("exchange", "coffee", "dove", "hand", "hand"))
    assert s2.hands[0] == H(coffee=1, food=1, dove=1) and s2.hands[3] == H(coffee=1, food=2)
    s3 = apply(s, ("pass",))
    assert s3.hands[0] == SIX_H[0] and s3.hands[3] == SIX_H[3]
    with pytest.raises(IllegalAction):
        apply(s, ("exchange", "dove", "dove", "hand", "hand"))


def test_nobody_else_can_tell_whether_an_exchange_happened():
    """FAQ: "He can even just pretend to do so": what the other players see is the same."""
    s = apply(apply(_interrogating(), ("interrogate", 3)), ("show", "food", "dove"))
    n = len(s.log)
    a = apply(s, ("exchange", "coffee", "dove", "hand", "hand"))
    b = apply(s, ("pass",))
    for seat in (1, 2, 4, 5):
        # The exchange step itself (the Suspicion that follows depends on the cards, of course).
        ea = [e for e in events(a, n, seat)][:3]
        eb = [e for e in events(b, n, seat)][:3]
        assert [e["t"] for e in ea] == ["exchange", "hand", "hand"]
        assert ea == eb


# ============================================================================ suspicion


def _arrive(tile: str, hands, markers=None, pool: int | None = None) -> GhoulState:
    s = turn_of(0, chars=SIX, hands=hands, token=PLACE[tile] - 1, markers=markers)
    if pool is not None:
        s = at(s, pool=pool)
    s = apply(s, ("move", PLACE[tile]))
    if s.phase == INTERROGATE:
        s = apply(s, ("pass",))
    return s


def test_suspicion_two_identical_cards_of_the_location_colour():
    """Rulebook: "All players who have at least 2 identical Clue cards corresponding to the color of the
    Location (Coffee, Food or Dove) draw suspicion on them.\""""
    s = _arrive("anteiku", SIX_H)
    assert last(s, "suspicion")["matched"] == [0, 2]
    s = _arrive("ccg-office", SIX_H)
    assert last(s, "suspicion")["matched"] == [1]
    s = _arrive("ghoul-restaurant", SIX_H)
    assert last(s, "suspicion")["matched"] == [3]
    assert s.markers == (0, 0, 0, 1, 0, 0) and s.pool == 23


def test_suspicion_two_identical_cards_of_any_type():
    """Rulebook: "All players who have at least 2 identical Clue cards (all types) draw suspicion on them.\""""
    s = _arrive("kamii-university", SIX_H)
    assert last(s, "suspicion")["matched"] == [0, 1, 2, 3, 4]


def test_suspicion_any_transformation_card_one_marker_only():
    """Rulebook: "All players who have at least 1 Transformation Clue card draw suspicion on them. ... Mike has
    2 Transformation cards in his hand. He places 1 Suspicion marker (and only 1).\""""
    s = _arrive("20th-ward-streets", SIX_H)
    assert last(s, "suspicion")["matched"] == [2, 4, 5]
    assert s.markers[4] == 1


def test_suspicion_markers_go_clockwise_from_the_active_player_when_the_pool_runs_short():
    """ASSUMED: everyone who matches says so; markers go clockwise from the active player until the
    Pool is empty."""
    s = _arrive("kamii-university", SIX_H, pool=2)
    ev = last(s, "suspicion")
    assert ev["matched"] == [0, 1, 2, 3, 4] and ev["took"] == [0, 1] and s.pool == 0


# ============================================================================ cover up tracks


def test_cover_up_tracks_remove_then_give_both_optional():
    """Rulebook: "The active player can remove 1 Suspicion marker from the Investigation board of a player of
    his choice (including himself) ... can give 1 Suspicion marker from the Pool to the player of his
    choice.\""""
    markers = [1, 0, 2, 0, 0, 0]
    s = _arrive("ccg-office", SIX_H, markers=markers)
    assert s.phase == COVER_REMOVE
    assert legal_actions(s) == [("remove", 0), ("remove", 1), ("remove", 2), ("pass",)]  # seat 1 drew one
    s = apply(s, ("remove", 0))
    assert s.markers[0] == 0 and s.phase == COVER_ADD
    pool = s.pool
    s = apply(s, ("add", 0))
    assert s.markers[0] == 1 and s.pool == pool - 1
    s = _arrive("ccg-office", SIX_H, markers=markers)
    s = apply(apply(s, ("pass",)), ("pass",))
    assert s.markers == (1, 1, 2, 0, 0, 0)


# ============================================================================ attack


def test_attack_only_for_characters_with_a_killing_objective():
    """Rulebook: "This action is available only for players with a Killing Objective." A non-killer standing
    on Cochlea is asked all the same (issue 20: who is asked must not tell who can kill), may only pass,
    and nothing tells the table it passed."""
    markers = [0, 2, 0, 0, 0, 0]
    s = _arrive("cochlea", SIX_H, markers=markers)  # seat 0 is Kaneki
    assert s.phase == ATTACK and legal_actions(s) == [("pass",)]
    after = apply(s, ("pass",))
    assert all(e["t"] != "attack" for e, _seats in after.log.entries(len(s.log)))
    chars = ("mado", "kimi", "hide", "kaneki", "nishiki", "rize")
    s = turn_of(0, chars=chars, hands=SIX_H, token=7, markers=markers)
    s = apply(s, ("move", 0))
    assert s.phase == ATTACK


def test_attack_the_most_suspicious_ties_chosen():
    """Rulebook: "The active player may decide to attack the player who has the most Suspicion markers (himself
    excluded). In case of a tie between several players, the active player chooses." ASSUMED: the
    target needs at least one marker."""
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "mado")
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=7, markers=[5, 2, 0, 2, 1, 0])
    s = apply(s, ("move", 0))
    assert legal_actions(s) == [("attack", 1), ("attack", 3), ("pass",)]
    s0 = turn_of(0, chars=chars, hands=hands, token=7, markers=[3, 0, 0, 0, 0, 0])
    assert apply(s0, ("move", 0)).phase != ATTACK


def test_attack_anyone_with_three_markers():
    """Rulebook: "The active player can attack the player of his choosing, if that player has at least 3
    Suspicion markers on his Investigation board.\""""
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "mado")
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 3, 4, 2, 3, 0])
    s = apply(s, ("move", 4))
    assert legal_actions(s) == [("attack", 1), ("attack", 2), ("attack", 4), ("pass",)]


def test_an_attack_kills_and_ends_the_game():
    """Rulebook: "The attacked player is killed. This action triggers the end of the game." Rize kills a Human
    and wins; every player then checks his objectives."""
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "mado")
    hands = [
        H(food=1, coffee=1, dove=1),
        H(coffee=2, food=1),
        H(coffee=2, dove=1),
        H(coffee=1, food=1, dove=1),
        H(food=2, dove=1),
        H(food=1, coffee=1, dove=1),
    ]
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 3, 0, 0, 0])
    s = apply(apply(s, ("move", 4)), ("attack", 2))
    r = s.result
    assert s.phase == OVER and r["reason"] == "attack" and r["victim"] == 2 and r["killer"] == 0
    # Rize killed a Human; Kimi (2 Coffee, alive; and Nishiki alive) and Nishiki (2 Food) win;
    # Kaneki lacks Coffee and Touka is not in play; the Inspector killed nobody.
    assert r["winners"] == [0, 1, 4]
    ev = last(s, "attack")
    assert ev["character"] == "rize" and ev["target_character"] == "hide"


def test_a_wrong_kill_does_not_win():
    chars = ("tsukiyama", "kimi", "hide", "kaneki", "nishiki", "mado")
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 3, 0, 0, 0])
    s = apply(apply(s, ("move", 4)), ("attack", 2))
    assert 0 not in s.result["winners"]


def test_inspectors_win_or_lose_together():
    """Rulebook: "NOTE: The Inspectors play as a team and win or lose together!\""""
    chars = ("mado", "kimi", "hide", "amon", "nishiki", "rize")
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 0, 0, 3, 0], players=6, setup="b")
    s = apply(apply(s, ("move", 4)), ("attack", 4))
    assert {0, 3} <= set(s.result["winners"])
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 3, 0, 0, 0], players=6, setup="b")
    s = apply(apply(s, ("move", 4)), ("attack", 2))
    assert not {0, 3} & set(s.result["winners"])


def test_partner_survival_wins_even_when_dead():
    """The rulebook's example: "Kimi was killed by the attack of one Inspector. All the Inspectors
    lose because they failed to kill a Ghoul. On the other hand, even if she died, Kimi still wins
    because Nishiki is still alive at the end of the game.\""""
    chars = ("mado", "kimi", "hide", "kaneki", "nishiki", "rize")
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 3, 0, 0, 0, 0])
    s = apply(apply(s, ("move", 4)), ("attack", 1))
    assert 1 in s.result["winners"] and 0 not in s.result["winners"]
    assert "NISHIO Nishiki is alive" in s.result["why"]["1"]


def test_a_partner_not_in_play_does_not_count():
    """ASSUMED: a partner objective counts only when the partner is in play and alive."""
    chars = ("mado", "kimi", "hide", "kaneki", "rize", "tsukiyama")  # no Touka, no Nishiki
    hands = [H(food=1, coffee=1, dove=1)] * 6
    s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 0, 0, 0, 3])
    s = apply(apply(s, ("move", 4)), ("attack", 5))
    assert s.result["winners"] == [0]  # Mado killed a Ghoul; nobody else has what he needs


def test_special_action_needs_two_doves_and_x_markers():
    """Rulebook: "Instead of moving the Action token at the beginning of his turn, he may decide to kill the
    player of his choosing ... if that player has at least X [markers] ... if and only if the player
    who plays the Inspector has at least two blue Dove Clue cards in his hand." (ASSUMED: Mado X=1,
    Amon X=2, Suzuya X=3.)"""
    chars = ("amon", "kimi", "hide", "kaneki", "nishiki", "rize")
    hands = [H(dove=2, food=1)] + [H(food=1, coffee=1, transformation=1)] * 5
    markers = [0, 1, 2, 3, 0, 2]
    s = turn_of(0, chars=chars, hands=hands, markers=markers)
    assert [a for a in legal_actions(s) if a[0] == "special"] == [("special", 2), ("special", 3), ("special", 5)]
    s2 = turn_of(0, chars=chars, hands=[H(dove=1, food=2), *hands[1:]], markers=markers)
    assert "special" not in kinds(s2)
    s3 = apply(s, ("special", 5))
    assert s3.phase == OVER and s3.result["reason"] == "special" and s3.result["victim"] == 5
    assert s3.result["winners"][0] == 0  # Rize is a Ghoul
    assert last(s3, "special")["character"] == "amon"


def test_special_action_is_only_for_inspectors():
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "amon")
    s = turn_of(0, chars=chars, hands=[H(dove=2, food=1)] * 6, markers=[0, 3, 3, 3, 3, 3])
    assert "special" not in kinds(s)


# ============================================================================ end of the game


def test_the_pool_running_out_ends_the_game_after_the_turn():
    """Rulebook: "All Suspicion markers have been given out: the game ends after the active player's turn."
    The rest of the turn is still played (here the Cover Up Tracks)."""
    s = _arrive("ccg-office", SIX_H, pool=1)
    assert s.pool == 0 and s.pool_out and s.phase == COVER_REMOVE
    s = apply(s, ("remove", 1))
    assert s.pool == 1  # ASSUMED: the game still ends after this turn
    s = apply(s, ("pass",))
    assert s.phase == OVER and s.result["reason"] == "pool"


def test_end_objectives_stay_alive_with_the_cards_several_winners():
    """Rulebook: "Stay alive AND collect 2 Clue cards of the indicated types." "There may indeed be several
    winners!\""""
    s = _arrive("ccg-office", SIX_H, pool=1)
    s = apply(s, ("pass",))  # nothing to remove; the Pool is empty, so nothing to give either
    r = s.result
    # Kaneki 2 Coffee, Hide 2 Coffee, Nishiki lacks 2 Food (T,T,F); Kimi 1 Coffee but no Nishiki
    # partner... Nishiki is in play and alive: Kimi wins too. Mado/Rize killed nobody.
    assert r["winners"] == [0, 1, 2]
    assert set(r["why"]) == {"0", "1", "2"}


def test_round_limit_is_a_safety_net():
    """ASSUMED: a safety limit on rounds ends the game as if the Pool had run out."""
    s = turn_of(0, chars=SIX, hands=SIX_H, max_rounds=1)
    s = at(s, first=1, round=1)
    s = apply(s, ("move", 1))
    while s.phase != OVER:
        s = apply(s, ("pass",) if ("pass",) in legal_actions(s) else legal_actions(s)[0])
    assert s.result["reason"] == "round-limit"


# ============================================================================ the Mask variant


def test_mask_setup_four_cards_one_face_up_a_mask_first():
    """Rulebook: "Add as many Mask cards as there are players to the Clue cards. Deal all the cards. Thus, each
    player receives 4 cards. If a player gets at least one Mask Clue card, he must place one face up
    in front of him ... Players who have no Mask Clue card ... place the Clue card of their choice.\""""
    for seed in range(10):
        s = new(5, seed, mask=True)
        assert all(sum(h) == 4 for h in s.hands)
        assert sum(h[MASK] for h in s.hands) == 5
        assert s.phase == SETUP_FACE or s.phase == PRELIM_SHOW
        asked = []
        while s.phase == SETUP_FACE:
            seat = to_act(s)
            asked.append(seat)
            if s.hands[seat][MASK]:  # a Mask must go face up: asked all the same, with that one option
                assert legal_actions(s) == [("reveal", "mask")]
            else:
                assert {a[1] for a in legal_actions(s)} == {SUITS[x] for x in range(5) if s.hands[seat][x]}
            s = apply(s, legal_actions(s)[0])
        assert sorted(asked) == list(range(5))  # skipping a seat would tell it holds a Mask
        for i in range(5):
            assert s.up[i] >= 0 and s.hands[i][s.up[i]] >= 1
            if s.hands[i][MASK]:
                assert s.up[i] == MASK
        faces = [e for e, seats in s.log.entries() if e["t"] == "face_up"]
        assert len(faces) == 5 and all(e["why"] == "setup" for e in faces)


def test_mask_preliminary_uses_the_hidden_hand():
    """ASSUMED: the face-up card stays on the board during the preliminary phase."""
    s = finish_prelim(new(6, 2, mask=True))
    assert all(sum(h) == 4 and u >= 0 and h[u] >= 1 for h, u in zip(s.hands, s.up, strict=True))


def test_mask_received_mask_replaces_the_face_up_card():
    """Rulebook: "If a player gets a Mask Clue card during an exchange and the Clue card face up on his
    Investigation board is not a Mask Clue card, he must replace it immediately.\""""
    chars = ("kaneki", "kimi", "hide", "mado", "nishiki", "rize")
    hands = [
        H(mask=2, coffee=2),
        H(coffee=2, food=1, dove=1),
        H(mask=1, food=3),
        H(dove=2, food=1, mask=1),
        H(transformation=2, mask=1, food=1),
        H(transformation=2, mask=1, dove=1),
    ]
    s = turn_of(0, chars=chars, hands=hands, mask=True)
    s = at(s, up=(MASK, COFFEE, MASK, MASK, MASK, MASK))
    s = apply(s, ("move", PLACE["anteiku"]))
    s = apply(s, ("interrogate", 1))
    s = apply(s, legal_actions(s)[0])  # seat 1 shows two cards
    s = apply(s, ("exchange", "mask", s.shown and SUITS[s.shown[0]], "hand", "hand"))
    assert s.up[1] == MASK and s.hands[1][MASK] == 1
    assert last(s, "face_up") == {"t": "face_up", "seat": 1, "card": "mask", "why": "mask"}


def test_mask_face_up_card_can_be_taken_and_is_replaced():
    """FAQ: "you can decide to take the card face up in front of him ... the questioned player chooses
    another Clue card in his possession and must place it face up on his Investigation board.\""""
    chars = ("kaneki", "kimi", "hide", "mado", "nishiki", "rize")
    hands = [
        H(coffee=3, dove=1),
        H(coffee=1, food=2, dove=1),
        H(mask=2, food=2),
        H(dove=2, mask=2),
        H(transformation=2, mask=1, food=1),
        H(transformation=2, mask=1, dove=1),
    ]
    s = turn_of(0, chars=chars, hands=hands, mask=True)
    s = at(s, up=(DOVE, DOVE, MASK, MASK, MASK, MASK))
    s = apply(s, ("move", PLACE["anteiku"]))
    s = apply(s, ("interrogate", 1))
    s = apply(s, legal_actions(s)[0])
    assert ("exchange", "coffee", "dove", "hand", "board") in legal_actions(s)
    s = apply(s, ("exchange", "coffee", "dove", "hand", "board"))
    assert s.phase == REFILL and to_act(s) == 1
    assert {a[1] for a in legal_actions(s)} == {"coffee", "food"}
    assert last(s, "face_up")["card"] is None  # everyone saw the card leave the board
    s = apply(s, ("reveal", "food"))
    assert s.up[1] == FOOD and s.hands[1] == H(coffee=2, food=2)


def test_mask_giving_your_face_up_card():
    """FAQ: "you can give the Clue card that is placed in front of you face up in exchange ... You will
    then place a new card from your hand face up." A Mask still in hand goes up at once."""
    chars = ("kaneki", "kimi", "hide", "mado", "nishiki", "rize")
    hands = [
        H(mask=2, coffee=2),
        H(coffee=1, food=2, dove=1),
        H(mask=1, food=3),
        H(dove=2, food=1, mask=1),
        H(transformation=2, mask=1, food=1),
        H(transformation=2, mask=1, dove=1),
    ]
    s = turn_of(0, chars=chars, hands=hands, mask=True)
    s = at(s, up=(MASK, DOVE, MASK, MASK, MASK, MASK))
    s = apply(s, ("move", PLACE["anteiku"]))
    s = apply(apply(s, ("interrogate", 1)), ("show", "coffee", "food"))
    s = apply(s, ("exchange", "mask", "food", "board", "hand"))
    assert s.up[0] == MASK and s.hands[0] == H(mask=1, coffee=2, food=1)
    assert s.up[1] == MASK  # Kimi received a Mask: it replaces her Dove


def test_mask_characters_only_in_the_mask_variant():
    """The five new characters come with the Mask variant; Kaneki (half) only from 5 players and
    (ASSUMED) never together with the Human Kaneki."""
    mask_chars = {c.id for c in DATA.characters.values() if c.variant == "mask"}
    assert mask_chars == {"uta", "yoshimura", "yomo", "kaneki-half", "yoriko"}
    seen: set[str] = set()
    for seed in range(150):
        base = new(6, seed)
        assert not set(base.chars) & mask_chars
        m = new(6, seed, mask=True)
        seen |= set(m.chars)
        assert not {"kaneki", "kaneki-half"} <= set(m.chars)
        assert "kaneki-half" not in new(4, seed, mask=True).chars
    assert mask_chars <= seen


def test_kaneki_half_counts_as_human_and_ghoul():
    """Rulebook: "During play, he is considered both a Human and a Ghoul. Therefore, he can be attacked by
    Ghouls and Doves." Killing him satisfies Rize (a Human), Tsukiyama (a Ghoul) and the Inspectors."""
    for killer in ("rize", "tsukiyama", "mado"):
        chars = (killer, "kimi", "kaneki-half", "yoriko", "nishiki", "amon" if killer != "mado" else "touka")
        hands = [H(food=1, coffee=1, dove=1, mask=1)] * 6
        s = turn_of(0, chars=chars, hands=hands, token=3, markers=[0, 0, 3, 0, 0, 0], mask=True)
        s = at(s, up=(MASK,) * 6)
        s = apply(apply(s, ("move", 4)), ("attack", 2))
        assert 0 in s.result["winners"], killer


# ============================================================================ the Support variant


def test_support_tokens_one_transformed_kaneki():
    """Rulebook: "Add as many tokens to the game as there are players, including 1 Transformed Kaneki token.
    ... each player receives a Support token, looks at it.\""""
    for seed in range(10):
        s = new(5, seed, support=True)
        assert 0 <= s.tk < 5
        for seat in range(5):
            ev = [e for e in events(s, seat=seat) if e["t"] == "support_token"]
            assert [e["token"] for e in ev if e["seat"] == seat] == ["kaneki" if s.tk == seat else "neutral"]
            assert all(e["token"] is None for e in ev if e["seat"] != seat)
            assert view(s, seat)["support"]["token"] == ("kaneki" if s.tk == seat else "neutral")


def test_support_look_or_swap_at_the_end_of_the_turn():
    """Rulebook: "At the end of his turn, the active player can look at any Support token, OR exchange his own
    Support token with another player's token.\""""
    s = _arrive_support("ccg-office")
    assert s.phase == COVER_REMOVE
    s = apply(apply(s, ("pass",)), ("pass",))
    assert s.phase == SUPPORT
    assert {a[0] for a in legal_actions(s)} == {"look", "swap", "pass"}
    assert ("swap", 0) not in legal_actions(s)
    looked = apply(s, ("look", 3))
    ev = last(looked, "support_look")
    assert ev["token"] == ("kaneki" if s.tk == 3 else "neutral")
    assert [e for e in events(looked, seat=1) if e["t"] == "support_look"][-1]["token"] is None
    assert view(looked, 0)["support"]["known"][3] == ev["token"]
    assert looked.turn == 1
    s2 = at(s, tk=3)
    swapped = apply(s2, ("swap", 3))
    assert swapped.tk == 0
    assert view(swapped, 3)["support"]["token"] is None  # seat 3 no longer knows its token
    assert view(swapped, 0)["support"]["token"] is None  # and seat 0 did not look


def _arrive_support(tile: str, chars=SIX, markers=None) -> GhoulState:
    s = turn_of(0, chars=chars, hands=SIX_H, token=PLACE[tile] - 1, markers=markers, support=True)
    s = at(
        s,
        tk=5,
        sknown=tuple(
            tuple(("kaneki" if i == 5 else "neutral") if j == i else None for j in range(6)) for i in range(6)
        ),
    )
    return apply(s, ("move", PLACE[tile]))


def test_support_transformed_kaneki_defends():
    """Rulebook: "If the player targeted by the active player's attack has the Transformed Kaneki token, he
    kills the attacker. The player who launched the attack therefore loses the game.\""""
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "mado")
    s = turn_of(0, chars=chars, hands=SIX_H, token=3, markers=[0, 0, 0, 0, 0, 3], support=True)
    s = at(s, tk=5)
    s = apply(apply(s, ("move", 4)), ("attack", 5))
    r = s.result
    assert r["reason"] == "defence" and r["victim"] == 0 and r["killer"] == 5
    assert 0 not in r["winners"]
    assert last(s, "attack")["support"] == ["neutral", "kaneki"]


def test_support_attacker_with_transformed_kaneki_kills():
    """Rulebook: "If the attacking player has the Transformed Kaneki token, he kills the targeted player.\""""
    chars = ("rize", "kimi", "hide", "kaneki", "nishiki", "mado")
    s = turn_of(0, chars=chars, hands=SIX_H, token=3, markers=[0, 0, 3, 0, 0, 0], support=True)
    s = at(s, tk=0)
    s = apply(apply(s, ("move", 4)), ("attack", 2))
    assert s.result["victim"] == 2 and 0 in s.result["winners"]


def test_support_defence_also_answers_the_special_action():
    """ASSUMED: the defence also answers the Inspectors' special action; the defender's kill counts
    for the defender's own killing objective (Touka killed an Inspector)."""
    chars = ("mado", "kimi", "hide", "kaneki", "touka", "rize")
    hands = [H(dove=2, food=1), *SIX_H[1:]]
    s = turn_of(0, chars=chars, hands=hands, markers=[0, 0, 0, 0, 1, 0], support=True)
    s = at(s, tk=4)
    s = apply(s, ("special", 4))
    r = s.result
    assert r["reason"] == "defence" and r["victim"] == 0 and 4 in r["winners"]


def test_both_variants_together():
    """Rulebook: "The Mask and Support variants are compatible with each other and with the basic game.\""""
    s = finish_prelim(new(7, 3, mask=True, support=True, setup="b"))
    assert all(sum(h) == 4 for h in s.hands) and 0 <= s.tk < 7
    v = view(s, 0)
    assert v["variants"] == {"mask": True, "support": True}
    assert v["support"]["token"] in ("kaneki", "neutral") and len(v["face_up"]) == 7


# ============================================================================ the engine contract


def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing():
    s = turn_of(0, chars=SIX, hands=SIX_H)
    data = state_to_json(s)
    for bad in [("move", 5), ("attack", 1), ("special", 2), ("fly",), ("move", True), ("move", 1.0), ()]:
        with pytest.raises(IllegalAction) as e:
            apply(s, bad)
        assert str(e.value) and "\n" not in str(e.value)
        assert state_to_json(s) == data


def test_view_has_what_a_play_screen_needs():
    s = finish_prelim(new(6, 11, mask=True, support=True))
    seat = to_act(s)
    v = view(s, seat)
    for key in (
        "players",
        "character",
        "cast",
        "hand",
        "holding",
        "face_up",
        "markers",
        "pool",
        "pool_total",
        "ring",
        "token",
        "reachable",
        "turn",
        "round",
        "phase",
        "to_act",
        "pending",
        "support",
        "legal",
        "events",
        "over",
        "result",
        "deck",
        "tile_actions",
        "interrogation",
        "prelim",
        "config",
    ):
        assert key in v, key
    assert len(v["ring"]) == 8 and sum(r["token"] for r in v["ring"]) == 1
    assert all(set(r) >= {"place", "tile", "red", "face_up", "actions"} for r in v["ring"])
    assert v["pending"]["seat"] == seat and v["pending"]["text"]
    assert v["legal"] and all(isinstance(a, list) for a in v["legal"])
    assert v["character"]["objectives"]
    assert json.loads(json.dumps(v)) == v
    other = view(s, (seat + 1) % 6)
    assert other["legal"] == []


def test_state_round_trips_through_json():
    s = new(6, 12, mask=True, support=True)
    r = Rng(3)
    for _ in range(25):
        if s.phase == OVER:
            break
        data = json.loads(json.dumps(state_to_json(s)))
        back = state_from_json(data)
        assert state_to_json(back) == data and legal_actions(back) == legal_actions(s) and to_act(back) == to_act(s)
        s = apply(s, r.choice(legal_actions(s)))


def test_transformation_constant_matches_data():
    assert SUITS[TRANSFORMATION] == "transformation" and SUITS[DOVE] == "dove" and SUITS[COFFEE] == "coffee"
    assert SHOW == "show"
