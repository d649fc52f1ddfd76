"""The rules of Masque of the Red Death, one test per rule.

Each test quotes the rulebook (``shared/rules/masque-of-the-red-death.txt``) or, where the
rulebook is silent, the documented assumption (``engine/masque/data/*.toml``, listed in
``docs/masque.md``). Positions are set up by starting a real game from a seed and then, for
the test only, editing fields of a *copy* of the state (where a noble stands, its popularity,
its Rumor cards). Everything after the setup goes through ``apply`` like a real game.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.masque import (
    CARD_INDEX,
    CARD_NAMES,
    GOSSIP,
    NR,
    NS,
    ROOM_INDEX,
    ROOMS,
    SLOTS,
    Config,
    MasqueConfig,
    MasqueState,
    action_from_json,
    action_to_json,
    apply,
    events_for,
    is_over,
    legal_actions,
    load_actions,
    load_rules,
    new_game,
    result,
    state_from_json,
    state_to_json,
    to_act,
    view,
)
from engine.masque.game import ASK, CHOOSE, GIVE, LOOK, MOVE, PEEK, PLACE, PLAN, RETURN, TARGET, WALTZ, _lose
from engine.registry import get_game
from tui.masque.model import describe

STANDARD = ("discuss", "dance", "jest", "admire", "mock", "flirt", "swindle", "threaten", "menace")
PERSONALITY = ("encore", "gossip-monger", "spotlight", "eavesdrop", "pickpocket", "waltz", "scandal",
               "confidant", "premonition", "flattery")


# ============================================================================ helpers


def g(name: str) -> int:
    """A Gossip card by its text, e.g. ``g("12:10 blue")``."""
    return CARD_INDEX[name]


def edited(state: MasqueState, **fields) -> MasqueState:
    """A copy of ``state`` with some fields replaced (test setup only)."""
    s = state.copy()
    for k, v in fields.items():
        setattr(s, k, v)
    return s


def started(players: int = 4, seed: int = 1, room: str = "black", **kw) -> MasqueState:
    """A game past the placement, every noble in ``room``, at the first Action choice."""
    s = new_game(MasqueConfig(players=players, **kw), seed)
    while s.phase == PLACE:
        s = apply(s, ("place", room))
    assert s.phase == CHOOSE and s.round == 1
    return s


def table(players: int = 4, pos: tuple[str, ...] | None = None, pop: tuple[int, ...] | None = None,
          rumors: dict[int, list[str]] | None = None, seed: int = 1, **kw) -> MasqueState:
    """A first-round Action choice with chosen rooms, popularity and Rumor cards."""
    s = started(players, seed, **kw)
    fields = {}
    if pos is not None:
        fields["pos"] = tuple(ROOM_INDEX[r] for r in pos)
    if pop is not None:
        fields["pop"] = tuple(pop)
    if rumors is not None:
        rs = [()] * players
        seen = [frozenset()] * players
        for seat, cards in rumors.items():
            rs[seat] = tuple(sorted(g(c) for c in cards))
            seen[seat] = frozenset(rs[seat])
        fields["rumors"] = tuple(rs)
        fields["seen"] = tuple(seen)
    return edited(s, **fields)


def choose_all(s: MasqueState, cards: list[str]) -> MasqueState:
    """Every noble chooses its card in turn (seat 0 first)."""
    for seat, card in enumerate(cards):
        assert to_act(s) == seat and s.phase == CHOOSE
        s = apply(s, ("play", card))
    return s


def finish_round(s: MasqueState) -> MasqueState:
    """Resolve whatever is left with the first legal choice, and stay put in the move step."""
    while s.phase != CHOOSE and s.phase != PLAN:
        if s.phase == MOVE:
            s = apply(s, ("move", ROOMS[s.pos[to_act(s)]]))
        else:
            s = apply(s, legal_actions(s)[0])
    return s


def new_events(before: MasqueState, after: MasqueState, seat: int | None = None) -> list[dict]:
    return events_for(after, seat, len(before.log))


def pop_changes(before: MasqueState, after: MasqueState) -> list[tuple[int, int, int, str]]:
    """(seat, change, new popularity, why) of every popularity move between two states."""
    return [(e["seat"], e["change"], e["to"], e["why"]) for e in new_events(before, after) if e["t"] == "pop"]


def plays(s: MasqueState) -> list[str]:
    return [a[1] for a in legal_actions(s) if a[0] == "play"]


# ============================================================================ setup


def test_four_to_seven_nobles():
    """Players 4–7 (supplement, FACT)."""
    for n in (4, 5, 6, 7):
        assert new_game(MasqueConfig(players=n), 1).config.players == n
    for n in (3, 8):
        with pytest.raises(ValueError, match="4 to 7"):
            MasqueConfig(players=n)


def test_config_json_round_trip_and_errors():
    """The config is plain data; bad options are refused with a sentence."""
    c = MasqueConfig(players=5, harder=True, personalities=False)
    assert Config is MasqueConfig
    assert MasqueConfig.from_json(c.to_json()) == MasqueConfig(players=5, harder=True, personalities=False,
                                                                names=c.seat_names())
    with pytest.raises(ValueError, match="Unknown Masque option"):
        MasqueConfig.from_json({"players": 4, "colour": "red"})
    with pytest.raises(ValueError, match="names"):
        MasqueConfig.from_json({"players": 4, "names": ["a", "b"]})
    with pytest.raises(ValueError, match="different"):
        MasqueConfig.from_json({"players": 4, "names": ["a", "a", "b", "c"]})
    assert get_game("masque").config_from_json({"players": 6}).players == 6


def test_popularity_trackers_start_on_spaces_one_to_n_in_random_order():
    """"Place them all randomly, one after the other ... beginning with the 1 space.\""""
    orders = set()
    for seed in range(30):
        s = new_game(MasqueConfig(players=5), seed)
        assert sorted(s.pop) == [1, 2, 3, 4, 5]
        orders.add(s.pop)
    assert len(orders) > 10


def test_each_noble_gets_the_nine_standard_cards_and_one_personality_card():
    """"Each player takes an identical set of the nine standard Action cards" and one unique
    Personality card; the rest go back to the box."""
    s = new_game(MasqueConfig(players=7), 3)
    assert set(STANDARD) == {c for c, card in load_actions().items() if not card.personality}
    assert set(PERSONALITY) == {c for c, card in load_actions().items() if card.personality}
    assert len(set(s.personality)) == 7
    for seat in range(7):
        assert sorted(s.hands[seat]) == sorted((*STANDARD, s.personality[seat]))
    s = new_game(MasqueConfig(players=4, personalities=False), 3)
    assert all(sorted(h) == sorted(STANDARD) for h in s.hands)


def test_personality_cards_are_data_marked_as_assumptions():
    """The 10 Personality cards are unknown: the default set is an assumption (supplement)."""
    cards = load_actions()
    for c in PERSONALITY:
        assert cards[c].personality and cards[c].assumed
    for c in STANDARD:
        assert not cards[c].assumed
    assert cards["discuss"].keep and cards["dance"].keep
    assert not any(cards[c].keep for c in STANDARD if c not in ("discuss", "dance"))
    ids = {a for a, _ in load_rules().assumptions}
    assert {"ring-order", "gossip-cards", "evidence-cards", "prince-tiles", "personality-cards"} <= ids


def test_the_prince_route_is_twelve_of_fourteen_tiles_and_public():
    """Shuffle the 14 Prince tiles, return two to the box, place the other 12 on the time slots;
    the Prince starts in the room of the 8:00 tile. (ASSUMED: 2 tiles per room.)"""
    for seed in range(20):
        s = new_game(MasqueConfig(players=4), seed)
        assert len(s.route) == 12 and len(s.box) == 2
        assert Counter((*s.route, *s.box)) == Counter({r: 2 for r in range(NR)})
        assert s.prince == s.route[0]
        v = view(s, 0)
        assert v["prince_route"] == [ROOMS[r] for r in s.route]
        assert "box" not in v


def test_red_death_cards_are_distinct_rooms_per_slot():
    """Two Gossip cards of each time slot become its Red Death cards (3 in the harder variant);
    one Gossip card per slot and room, so they are different rooms."""
    for harder, k in ((False, 2), (True, 3)):
        for seed in range(20):
            s = new_game(MasqueConfig(players=4, harder=harder), seed)
            assert len(s.red) == NS
            for slot in range(NS):
                assert len(s.red[slot]) == k == len(set(s.red[slot]))


def test_the_rumor_deck_is_the_rest_of_the_gossip_and_twelve_evidence():
    """"Shuffle the 30 remaining Gossip Rumor cards with the 12 Evidence Rumor cards together to
    form the Rumor deck" (24 in the harder variant). ASSUMED: 2 Evidence cards per slot."""
    s = new_game(MasqueConfig(players=4), 5)
    assert len(s.deck) == 42
    gossip = [c for c in s.deck if c < GOSSIP]
    assert len(gossip) == 30
    assert Counter(c for c in s.deck if c >= GOSSIP) == Counter({GOSSIP + k: 2 for k in range(NS)})
    red = {slot * NR + r for slot in range(NS) for r in s.red[slot]}
    assert set(gossip) | red == set(range(GOSSIP)) and not set(gossip) & red
    s = new_game(MasqueConfig(players=4, harder=True), 5)
    assert len([c for c in s.deck if c < GOSSIP]) == 24


def test_nobles_are_placed_from_the_least_popular_clockwise_in_any_room():
    """"Starting with the least popular player and proceeding clockwise, each player places their
    other Noble standee on any room." Several nobles may share a room."""
    s = new_game(MasqueConfig(players=5), 11)
    least = s.pop.index(1)
    placed = []
    while s.phase == PLACE:
        seat = to_act(s)
        placed.append(seat)
        assert legal_actions(s) == [("place", r) for r in ROOMS]
        s = apply(s, ("place", "green"))
    assert placed == [(least + k) % 5 for k in range(5)]
    assert all(p == ROOM_INDEX["green"] for p in s.pos)


def test_the_abbey_is_a_ring_of_seven_rooms():
    """Seven rooms, each adjacent to two others, in the order Black, Blue, Purple, Green, Orange,
    White, Violet (inferred)."""
    assert ROOMS == ("black", "blue", "purple", "green", "orange", "white", "violet")
    s = table(pos=("black", "orange", "green", "green"))
    s = choose_all(s, ["jest"] * 4)
    assert s.phase == MOVE
    while to_act(s) != 0:
        s = apply(s, legal_actions(s)[0])
    assert [a[1] for a in legal_actions(s)] == ["black", "blue", "violet"]


# ============================================================================ the popularity track


def test_gaining_skips_over_occupied_spaces():
    """"Count only the open spaces, ignoring any spaces occupied by another Noble's Popularity
    tracker" (the rulebook's example: the next space is held, so the gainer lands one further)."""
    s = table(pop=(5, 6, 20, 30))
    s = choose_all(s, ["jest", "discuss", "discuss", "discuss"])
    assert s.pop[0] == 9  # 6 is skipped: 7, 8, 9


def test_losing_skips_over_occupied_spaces_and_stops_at_space_one():
    """Moving backward also counts only open spaces; space 1 is the bottom (assumption track-bottom)."""
    s = table(pos=("black",) * 4, pop=(20, 9, 8, 30))
    s = choose_all(s, ["mock", "discuss", "discuss", "discuss"])
    while s.phase != TARGET:
        s = apply(s, legal_actions(s)[0])
    s = apply(s, ("target", 1))
    assert s.pop[1] == 6  # 9 -> (8 held) 7 -> 6
    # Spaces 2 and 1 are held: seat 1 has nowhere lower to go, so Mock cannot name it (issue 20).
    s2 = table(pos=("black",) * 4, pop=(10, 3, 1, 2))
    assert "mock" not in plays(s2)


def test_mock_result_order_is_gain_then_loss():
    """Effects resolve in the order written: the mocker gains first, then the target loses."""
    s = table(pos=("black",) * 4, pop=(10, 12, 2, 30))
    s = choose_all(s, ["mock", "discuss", "discuss", "discuss"])
    while s.phase != TARGET:
        s = apply(s, legal_actions(s)[0])
    s = apply(s, ("target", 1))
    assert s.pop[0] == 13  # 11, (12 held), 13
    assert s.pop[1] == 10  # 11, 10: the space the mocker left is open again


def test_laps_past_forty():
    """"If you move past 40 on the Popularity track, place a Movement tile ... to show that you are
    on your second lap" — popularity keeps counting (41 is space 1 of lap 2)."""
    s = table(pop=(39, 5, 6, 7))
    s = choose_all(s, ["jest", "dance", "dance", "dance"])
    assert s.pop[0] == 42
    v = view(s, 0)
    assert v["track"][0] == {"space": 2, "lap": 2}
    assert v["order"][-1] == 0  # the most popular


def test_a_tracker_on_its_second_lap_blocks_the_same_space():
    """Trackers cannot occupy the same space: 45 sits on space 5 (assumption track-laps)."""
    s = table(pop=(3, 45, 10, 11))
    s = choose_all(s, ["dance", "discuss", "discuss", "discuss"])
    assert s.pop[0] == 6  # 4, (5 held by the lap-2 tracker), 6


def test_moving_back_to_forty_or_below_leaves_the_second_lap():
    """"If your Popularity tracker moves backwards, to 40 or below, remove the Movement tile.\""""
    s = table(pos=("black",) * 4, pop=(20, 41, 2, 3))
    s = choose_all(s, ["mock", "discuss", "discuss", "discuss"])
    while s.phase != TARGET:
        s = apply(s, legal_actions(s)[0])
    s = apply(s, ("target", 1))
    assert s.pop[1] == 39
    assert view(s, 0)["track"][1] == {"space": 39, "lap": 1}


def test_trackers_never_share_a_space():
    """So there are never ties (assumption ties)."""
    for seed in range(10):
        s = started(players=7, seed=seed)
        s = choose_all(s, ["jest"] * 7)
        assert len({p % 40 for p in s.pop}) == 7


# ============================================================================ a round


def test_the_prince_rewards_nobles_in_his_room_most_popular_first():
    """"Any player whose Noble standee is in the same room as the Prince standee gains 1
    popularity ... in order from most popular to least." With adjacent trackers the order shows."""
    s = new_game(MasqueConfig(players=4), 2)
    s = edited(s, pop=(5, 6, 1, 2))
    prince = ROOMS[s.prince]
    other = ROOMS[(s.prince + 3) % NR]
    while s.phase == PLACE:
        seat = to_act(s)
        s = apply(s, ("place", prince if seat in (0, 1) else other))
    # most popular first: 6 -> 7, then 5 -> (6 is free now) 6
    assert s.pop[:2] == (6, 7)
    rewards = [e for e in events_for(s, None) if e["t"] == "pop" and e["why"] == "prince"]
    assert [e["seat"] for e in rewards] == [1, 0]


def test_action_cards_are_chosen_in_secret_and_revealed_together():
    """"Each player secretly chooses one Action card from their hand, and then the players reveal
    their cards simultaneously." Sequential hidden commitments: each choice is private until all chose."""
    s = started()
    s = apply(s, ("play", "jest"))
    ev = new_events(started(), s, 1)
    assert [e["t"] for e in ev] == ["chosen"] and ev[0]["card"] is None
    assert new_events(started(), s, 0)[0]["card"] == "jest"
    v1 = view(s, 1)
    assert v1["pending"] == {"kind": "action", "chosen": [True, False, False, False], "mine": None}
    assert view(s, 0)["pending"]["mine"] == "jest"
    assert v1["revealed"] is None and "jest" not in str(v1["events"][-1])
    assert s.pop == started().pop  # nothing resolves before everyone chose
    s = apply(s, ("play", "dance"))
    s = apply(s, ("play", "discuss"))
    before = s
    s = apply(s, ("play", "jest"))
    reveal = next(e for e in new_events(before, s, 2) if e["t"] == "reveal")
    assert reveal["cards"] == ["jest", "dance", "discuss", "jest"]


def test_cards_resolve_from_the_least_popular_clockwise():
    """"Starting with the least popular player and moving clockwise around the table, each player
    resolves their revealed Action card.\""""
    s = table(pop=(7, 3, 9, 5))
    s = choose_all(s, ["jest"] * 4)
    order = [e["seat"] for e in events_for(s, None) if e["t"] == "resolve"]
    assert order == [1, 2, 3, 0]


def test_nobles_move_from_the_most_popular_to_the_least_one_step():
    """"Each player may move their Noble standee to an adjacent room ... the players move in order
    from most popular to least popular." Staying is naming your own room."""
    s = table(pos=("black",) * 4, pop=(7, 3, 9, 5))
    s = choose_all(s, ["jest"] * 4)
    assert s.phase == MOVE
    order = sorted(range(4), key=lambda t: -s.pop[t])
    movers = []
    while s.phase == MOVE:
        seat = to_act(s)
        movers.append(seat)
        assert sorted(a[1] for a in legal_actions(s)) == sorted(["violet", "black", "blue"])
        s = apply(s, ("move", "blue"))
    assert movers == order
    assert all(p == ROOM_INDEX["blue"] for p in s.pos)


def test_dance_gains_two_and_moves_twice_and_stays_in_hand():
    """Dance: "Gain 2 popularity. During this round, you may move twice, rather than once. Do not
    discard Dance when played.\""""
    s = table(pos=("black",) * 4, pop=(1, 10, 20, 30))
    s = choose_all(s, ["dance", "jest", "jest", "jest"])
    assert s.pop[0] == 3
    while to_act(s) != 0:
        s = apply(s, legal_actions(s)[0])
    assert sorted(a[1] for a in legal_actions(s)) == sorted(["white", "violet", "black", "blue", "purple"])
    assert "dance" in s.hands[0] and "dance" not in s.discards[0]


def test_the_prince_moves_and_the_clock_advances_for_twelve_rounds():
    """"Remove the Prince tile from the current time slot ... move the Prince standee to the room
    shown by the Prince tile on the next time slot." Twelve rounds, then midnight."""
    s = started()
    for r in range(1, 13):
        assert s.round == r and s.prince == s.route[r - 1]
        assert view(s, 0)["clock"] == load_rules().prince_slots[r - 1]
        s = choose_all(s, ["discuss" if s.deck else "dance"] * 4)
        s = finish_round(s)
    assert s.phase == PLAN and view(s, 0)["clock"] == "midnight"


def test_jest_gains_three_and_is_discarded():
    """Jest: "Gain 3 popularity." Played cards are discarded face up; no way back (but Encore)."""
    s = table(pop=(1, 10, 20, 30))
    s = choose_all(s, ["jest", "dance", "dance", "dance"])
    assert s.pop[0] == 4
    assert "jest" not in s.hands[0] and s.discards[0] == ("jest",)
    s = finish_round(s)
    assert "jest" not in plays(s)
    assert view(s, 1)["discards"][0] == ["jest"]


def test_discuss_draws_one_card_and_stays_in_hand():
    """Discuss: "Draw 1 card from the Rumor deck. Do not discard Discuss when played.\""""
    s = table()
    top = next(c for c in s.deck if c < GOSSIP)
    s = edited(s, deck=(*(c for c in s.deck if c != top), top))
    before = s
    s = choose_all(s, ["discuss", "dance", "dance", "dance"])
    assert top in s.rumors[0] and len(s.deck) == len(before.deck) - 1
    assert "discuss" in s.hands[0]
    mine = [e for e in new_events(before, s, 0) if e["t"] == "draw"]
    theirs = [e for e in new_events(before, s, 1) if e["t"] == "draw"]
    assert mine[0]["card"] == CARD_NAMES[top] and view(s, 0)["rumors"] == [CARD_NAMES[top]]
    assert theirs[0]["card"] is None


def test_discuss_needs_a_card_in_the_rumor_deck():
    """"To play an Action card, you must be able to resolve all of its effects.\""""
    s = edited(table(), deck=())
    assert "discuss" not in plays(s)
    with pytest.raises(IllegalAction, match="resolve all the effects"):
        apply(s, ("play", "discuss"))


def test_evidence_looks_at_a_red_death_card_of_its_slot_and_is_discarded_face_up():
    """"When you draw evidence, immediately look at one of the two Red Death cards for the time slot
    shown on the card ... then you must discard the Evidence card to a shared face-up pile.\""""
    s = table()
    s = edited(s, deck=(*s.deck, GOSSIP + 3))
    s = choose_all(s, ["discuss", "dance", "dance", "dance"])
    while to_act(s) != 0 or s.phase != LOOK:
        s = apply(s, legal_actions(s)[0])
    assert legal_actions(s) == [("look", 0), ("look", 1)]
    before = s
    s = apply(s, ("look", 1))
    mine = new_events(before, s, 0)[0]
    assert mine["t"] == "look" and mine["slot"] == 3 and mine["room"] == ROOMS[s.red[3][1]]
    assert new_events(before, s, 2)[0]["room"] is None
    assert s.evidence == (GOSSIP + 3,) and GOSSIP + 3 not in s.rumors[0]
    assert view(s, 2)["evidence_discard"] == ["evidence 12:30"]
    assert view(s, 0)["notes"]["deadly"]["12:30"] == [ROOMS[s.red[3][1]]]


def test_admire_gains_three_for_you_and_a_nearby_noble():
    """Admire: "Gain 3 popularity, and a nearby noble gains 3 popularity." A nearby noble is one in
    your room; if there are several, you choose."""
    s = table(pos=("black", "black", "black", "white"), pop=(1, 10, 20, 30))
    s = choose_all(s, ["admire", "dance", "dance", "dance"])
    assert s.phase == TARGET and to_act(s) == 0
    assert legal_actions(s) == [("target", 1), ("target", 2)]
    before = s
    s = apply(s, ("target", 2))
    assert s.pop[0] == 4
    assert pop_changes(before, s)[0] == (2, 3, 23, "admire")


def test_cards_that_name_a_nearby_noble_need_one():
    """"You must be able to resolve all of its effects": alone in a room, no Admire, Mock, Flirt,
    Swindle, Threaten or Menace."""
    s = table(pos=("black", "blue", "purple", "green"), rumors={1: ["12:00 blue"], 2: ["12:00 black"]})
    assert set(plays(s)) == {"discuss", "dance", "jest"} | ({s.personality[0]} & {
        "encore", "gossip-monger", "spotlight", "waltz", "premonition", "flattery"})


def test_mock_gains_two_and_a_nearby_noble_loses_two():
    """Mock: "Gain 2 popularity, and a nearby noble loses 2 popularity.\""""
    s = table(pos=("black", "black", "white", "white"), pop=(1, 20, 30, 40))
    s = choose_all(s, ["mock", "dance", "dance", "dance"])
    assert legal_actions(s) == [("target", 1)]
    before = s
    s = apply(s, ("target", 1))
    assert s.pop[0] == 3
    assert pop_changes(before, s)[0] == (1, -2, 18, "mock")


def test_flirt_gains_one_and_looks_at_a_card_of_the_named_slot():
    """Flirt: "Gain 1 popularity and look at any Rumor card from a nearby noble's hand." Name a time
    slot: "If your target noble has one card of that time slot, they must give you that card.\""""
    s = table(pos=("black", "black", "white", "white"), pop=(1, 20, 30, 40),
              rumors={1: ["12:00 blue", "12:30 green", "12:50 white"]})
    s = choose_all(s, ["flirt", "dance", "dance", "dance"])
    assert s.pop[0] == 2 and s.phase == ASK
    assert legal_actions(s) == [("ask", 1, k) for k in range(NS)]
    before = s
    s = apply(s, ("ask", 1, 3))
    mine = new_events(before, s, 0)[0]
    assert mine["card"] == "12:30 green" and mine["offered"] == 1 and mine["matched"]
    assert new_events(before, s, 1)[0]["card"] == "12:30 green"  # the target sees what it showed
    public = new_events(before, s, 2)[0]
    assert public["card"] is None and public["slot"] == 3 and public["target"] == 1
    assert len(s.rumors[1]) == 3  # a look: the card stays with its owner
    assert "green" in view(s, 0)["notes"]["safe"]["12:30"]


def test_naming_a_slot_with_several_cards_picks_randomly_among_them():
    """"If your target noble has multiple cards of that time slot, you must pick one card randomly
    from only those cards.\""""
    got = Counter()
    for seed in range(40):
        s = table(seed=seed, pos=("black",) * 4, pop=(1, 20, 30, 40),
                  rumors={1: ["12:10 blue", "12:10 green", "12:40 white"]})
        s = choose_all(s, ["flirt", "dance", "dance", "dance"])
        before = s
        s = apply(s, ("ask", 1, 1))
        ev = new_events(before, s, 0)[0]
        assert ev["offered"] == 2 and ev["matched"]
        got[ev["card"]] += 1
    assert set(got) == {"12:10 blue", "12:10 green"}


def test_naming_a_slot_with_no_cards_picks_randomly_from_the_whole_hand():
    """"If your target noble has no cards of that time slot, you must pick one card randomly from
    their entire hand.\""""
    got = Counter()
    for seed in range(40):
        s = table(seed=seed, pos=("black",) * 4, pop=(1, 20, 30, 40),
                  rumors={1: ["12:10 blue", "12:20 green", "12:40 white"]})
        s = choose_all(s, ["flirt", "dance", "dance", "dance"])
        before = s
        s = apply(s, ("ask", 1, 5))
        ev = new_events(before, s, 0)[0]
        assert ev["offered"] == 3 and not ev["matched"]
        got[ev["card"]] += 1
    assert set(got) == {"12:10 blue", "12:20 green", "12:40 white"}


def test_swindle_looks_at_two_different_cards_naming_a_slot_for_each():
    """Swindle: "Look at 2 Rumor cards from a nearby noble's hand. You may specify a different time
    slot for each card." (assumption swindle-two: one after the other, never the same card twice)."""
    s = table(pos=("black",) * 4, pop=(1, 20, 30, 40), rumors={1: ["12:10 blue", "12:20 green"], 2: ["12:00 black"]})
    assert "swindle" in plays(s)
    s = choose_all(s, ["swindle", "dance", "dance", "dance"])
    assert {a[1] for a in legal_actions(s)} == {1}  # only a noble with 2 cards
    s = apply(s, ("ask", 1, 1))
    assert s.phase == ASK and {a[1] for a in legal_actions(s)} == {1}  # the same noble again
    before = s
    s = apply(s, ("ask", 1, 1))  # 12:10 was seen already: the other card
    ev = new_events(before, s, 0)[0]
    assert ev["card"] == "12:20 green" and not ev["matched"]
    assert s.seen[0] >= {g("12:10 blue"), g("12:20 green")}
    s2 = table(pos=("black",) * 4, rumors={1: ["12:10 blue"], 2: ["12:00 black"]})
    assert "swindle" not in plays(s2)


def test_threaten_takes_a_card():
    """Threaten: "Take 1 Rumor card from a nearby noble's hand.\""""
    s = table(pos=("black",) * 4, pop=(1, 20, 30, 40), rumors={2: ["12:50 violet"]})
    s = choose_all(s, ["threaten", "dance", "dance", "dance"])
    assert legal_actions(s) == [("ask", 2, k) for k in range(NS)]
    s = apply(s, ("ask", 2, 0))
    assert s.rumors[2] == () and s.rumors[0] == (g("12:50 violet"),)
    assert view(s, 0)["rumors"] == ["12:50 violet"]
    assert view(s, 2)["rumors"] == []


def test_menace_loses_one_and_takes_a_card():
    """Menace: "Lose 1 popularity and take 1 Rumor card from a nearby noble's hand.\""""
    s = table(pos=("black",) * 4, pop=(10, 20, 30, 40), rumors={3: ["12:50 violet", "12:00 blue"]})
    s = choose_all(s, ["menace", "dance", "dance", "dance"])
    assert s.pop[0] == 9
    s = apply(s, ("ask", 3, 0))
    assert s.rumors[0] == (g("12:00 blue"),) and s.rumors[3] == (g("12:50 violet"),)


def test_menace_cannot_be_played_at_the_bottom_of_the_track():
    """Menace cannot be played at 0 popularity (supplement): no open space below you."""
    s = table(pos=("black",) * 4, pop=(1, 20, 30, 40), rumors={3: ["12:50 violet"]})
    assert "menace" not in plays(s)
    s = table(pos=("black",) * 4, pop=(3, 2, 1, 40), rumors={3: ["12:50 violet"]})
    assert "menace" not in plays(s)
    s = table(pos=("black",) * 4, pop=(4, 2, 1, 40), rumors={3: ["12:50 violet"]})
    assert "menace" in plays(s)


def test_a_card_that_can_no_longer_resolve_skips_those_effects():
    """Assumption partial-effects: if an earlier card empties the target's hand, the Threaten that
    came later takes nothing (the card is still spent)."""
    s = table(pos=("black",) * 4, pop=(1, 2, 30, 40), rumors={2: ["12:50 violet"]})
    s = choose_all(s, ["threaten", "threaten", "dance", "dance"])
    s = apply(s, ("ask", 2, 5))  # seat 0 resolves first (least popular) and takes the only card
    assert s.rumors[0] == (g("12:50 violet"),)
    # seat 1 may still take from seat 0, who now holds a card
    assert legal_actions(s) == [("ask", 0, k) for k in range(NS)]
    # the noble with the only card waltzes away before the Threaten resolves
    s2 = with_personality("waltz", pos=("black",) * 4, pop=(1, 2, 30, 40), rumors={0: ["12:50 violet"]})
    s2 = choose_all(s2, ["waltz", "threaten", "dance", "dance"])
    s2 = apply(s2, ("waltz", "orange"))
    fizzles = [e for e in events_for(s2, None) if e["t"] == "fizzle"]
    assert fizzles and fizzles[0]["seat"] == 1 and fizzles[0]["card"] == "threaten"
    assert "threaten" in s2.discards[1]


def test_every_card_can_always_be_answered_by_some_playable_card():
    """Discuss and Dance stay in hand, so there is always a card to play (supplement)."""
    s = edited(table(pos=("black", "blue", "purple", "green")), deck=())
    assert "dance" in plays(s)


# ============================================================================ Personality cards


def with_personality(card: str, **kw) -> MasqueState:
    s = table(**kw)
    pers = list(s.personality)
    hands = list(s.hands)
    hands[0] = (*tuple(c for c in hands[0] if c != pers[0]), card)
    pers[0] = card
    return edited(s, personality=tuple(pers), hands=tuple(hands))


def test_spotlight_gains_four():
    s = with_personality("spotlight", pop=(1, 20, 30, 40))
    s = choose_all(s, ["spotlight", "dance", "dance", "dance"])
    assert s.pop[0] == 5 and s.discards[0] == ("spotlight",)


def test_gossip_monger_draws_two():
    s = with_personality("gossip-monger")
    s = edited(s, deck=(*s.deck, g("12:00 black"), g("12:10 blue")))
    s = choose_all(s, ["gossip-monger", "dance", "dance", "dance"])
    assert set(s.rumors[0]) == {g("12:00 black"), g("12:10 blue")}
    s = edited(with_personality("gossip-monger"), deck=(g("12:00 black"),))
    assert "gossip-monger" not in plays(s)


def test_eavesdrop_looks_at_one_card_of_each_nearby_noble():
    s = with_personality("eavesdrop", pos=("black", "black", "black", "white"), pop=(1, 20, 30, 40),
                         rumors={1: ["12:00 blue"], 2: ["12:10 green"], 3: ["12:20 white"]})
    s = choose_all(s, ["eavesdrop", "dance", "dance", "dance"])
    assert {a[1] for a in legal_actions(s)} == {1, 2}
    s = apply(s, ("ask", 2, 1))
    assert {a[1] for a in legal_actions(s)} == {1}
    s = apply(s, ("ask", 1, 0))
    assert s.seen[0] == {g("12:00 blue"), g("12:10 green")}
    assert s.phase != ASK


def test_pickpocket_gains_one_and_takes_a_card():
    s = with_personality("pickpocket", pos=("black",) * 4, pop=(1, 20, 30, 40), rumors={1: ["12:00 blue"]})
    s = choose_all(s, ["pickpocket", "dance", "dance", "dance"])
    assert s.pop[0] == 2
    s = apply(s, ("ask", 1, 0))
    assert s.rumors[0] == (g("12:00 blue"),) and s.rumors[1] == ()


def test_waltz_moves_to_any_room_and_gains_one():
    s = with_personality("waltz", pos=("black",) * 4, pop=(1, 20, 30, 40))
    s = choose_all(s, ["waltz", "dance", "dance", "dance"])
    assert s.phase == WALTZ and len(legal_actions(s)) == NR
    s = apply(s, ("waltz", "orange"))
    assert s.pos[0] == ROOM_INDEX["orange"] and s.pop[0] == 2


def test_scandal_makes_every_nearby_noble_lose_two():
    s = with_personality("scandal", pos=("black", "black", "black", "white"), pop=(1, 20, 30, 40))
    before = s
    s = choose_all(s, ["scandal", "dance", "dance", "dance"])
    scandal = [c for c in pop_changes(before, s) if c[3] == "scandal"]
    assert scandal == [(2, -2, 28, "scandal"), (1, -2, 18, "scandal")]  # most popular first
    s = with_personality("scandal", pos=("black", "blue", "blue", "white"))
    assert "scandal" not in plays(s)


def test_confidant_gives_a_card_and_takes_another():
    s = with_personality("confidant", pos=("black",) * 4, pop=(1, 20, 30, 40),
                         rumors={0: ["12:00 blue"], 1: ["12:10 green"]})
    s = choose_all(s, ["confidant", "dance", "dance", "dance"])
    assert s.phase == GIVE
    s = apply(s, ("give", 1, "12:00 blue"))
    assert legal_actions(s) == [("ask", 1, k) for k in range(NS)]
    s = apply(s, ("ask", 1, 0))  # the card just given is not taken back
    assert s.rumors[0] == (g("12:10 green"),) and s.rumors[1] == (g("12:00 blue"),)
    assert g("12:00 blue") in s.seen[1]


def test_premonition_looks_at_any_red_death_card():
    s = with_personality("premonition", pop=(1, 20, 30, 40))
    s = choose_all(s, ["premonition", "dance", "dance", "dance"])
    assert s.phase == PEEK and len(legal_actions(s)) == NS * 2
    s = apply(s, ("peek", 4, 0))
    assert (4, 0) in s.looks[0]
    assert view(s, 0)["notes"]["deadly"]["12:40"] == [ROOMS[s.red[4][0]]]


def test_flattery_gains_two_and_the_least_popular_gains_one():
    s = with_personality("flattery", pop=(10, 20, 3, 40))
    s = choose_all(s, ["flattery", "dance", "dance", "dance"])
    assert s.pop[0] == 12 and s.pop[2] == 6  # dance (+2) first, then flattery's +1


def test_encore_returns_up_to_two_discarded_cards():
    """The one known Personality effect: a card that returns spent Action cards to your hand."""
    s = with_personality("encore", pop=(1, 20, 30, 40))
    s = edited(s, hands=(tuple(c for c in s.hands[0] if c not in ("jest", "mock", "flirt")), *s.hands[1:]),
               discards=(("jest", "mock", "flirt"), (), (), ()))
    s = choose_all(s, ["encore", "dance", "dance", "dance"])
    assert s.phase == RETURN
    assert legal_actions(s) == [("return", "jest"), ("return", "mock"), ("return", "flirt"), ("done",)]
    s = apply(s, ("return", "jest"))
    s = apply(s, ("return", "flirt"))
    assert s.phase != RETURN
    assert {"jest", "flirt"} <= set(s.hands[0]) and s.discards[0] == ("mock", "encore")


# ============================================================================ planning and midnight


def test_movement_tiles_are_hidden_and_editable():
    """"At any time throughout the game, you can freely take Movement tiles ... Keep your Player board
    behind your Player screen." (assumption planning: while choosing, and in the planning step)."""
    s = started()
    assert ("tile", 2, "cw") in legal_actions(s)
    before = s
    s = apply(s, ("tile", 2, "cw"))
    assert to_act(s) == 0 and s.phase == CHOOSE  # placing a tile does not end your choice
    assert view(s, 0)["plan"][2] == "cw"
    assert view(s, 1)["plan"] == ["stay"] * NS and view(s, 1)["plans"] is None
    other = new_events(before, s, 1)[0]
    assert other["slot"] is None and other["dir"] is None
    s = apply(s, ("tile", 2, "ccw"))
    assert s.plans[0][2] == "ccw"
    with pytest.raises(IllegalAction, match="already"):
        apply(s, ("tile", 2, "ccw"))


def to_plan(seed: int = 1, players: int = 4) -> MasqueState:
    s = started(players, seed)
    while s.phase != PLAN:
        s = choose_all(s, ["dance"] * players)
        s = finish_round(s)
    return s


def test_every_noble_confirms_its_plan_before_midnight():
    """"Make sure every player has finished placing Movement tiles ... Once every player has decided
    they are finished, their Movement tiles cannot be moved or exchanged.\""""
    s = to_plan()
    assert legal_actions(s)[-1] == ("ready",)
    s = apply(s, ("tile", 0, "cw"))
    s = apply(s, ("ready",))
    assert to_act(s) == 1 and s.ready[0]
    with pytest.raises(IllegalAction):
        apply(s, ("play", "jest"))
    for _ in range(3):
        s = apply(s, ("ready",))
    assert is_over(s)


def midnight_example() -> MasqueState:
    """The rulebook's example: nobles in Blue, Purple and White at 12:00; the fourth noble waits in
    Orange. Red Death at 12:00: Green then Purple; at 12:10: Black then Violet."""
    s = to_plan()
    red = list(s.red)
    red[0] = (ROOM_INDEX["green"], ROOM_INDEX["purple"])
    red[1] = (ROOM_INDEX["black"], ROOM_INDEX["violet"])
    red[2:] = [(ROOM_INDEX["green"], ROOM_INDEX["black"])] * 4
    plans = (("stay", "cw", "stay", "stay", "stay", "stay"), ("stay",) * 6, ("stay",) * 6, ("stay",) * 6)
    return edited(s, red=tuple(red), plans=plans,
                  pos=tuple(ROOM_INDEX[r] for r in ("blue", "purple", "white", "orange")))


def test_the_rulebooks_midnight_example():
    """"The first 12:00 Red Death card is revealed: Green — everyone is safe! The second ...: Purple!
    The noble in Purple is killed ... The noble who was in Blue has chosen to move clockwise, into
    the Purple room, while the noble who was in White has chosen to stay in White. The first 12:10
    Red Death card is revealed: Black ... The second 12:10 Red Death card is revealed: Violet —
    everyone survives this, as well.\""""
    s = midnight_example()
    for _ in range(4):
        s = apply(s, ("ready",))
    ev = [e for e in events_for(s, 2) if e["n"] >= len(midnight_example().log) and e["t"] != "ready"]
    assert ev[0]["t"] == "midnight"
    assert ev[0]["plans"][0] == ["stay", "cw", "stay", "stay", "stay", "stay"]  # plans are revealed
    deaths = [(e["slot"], e["room"], e["killed"]) for e in ev if e["t"] == "red_death"]
    assert deaths[:4] == [(0, "green", []), (0, "purple", [1]), (1, "black", []), (1, "violet", [])]
    slot1 = next(e for e in ev if e["t"] == "slot" and e["slot"] == 1)
    assert slot1["positions"] == ["purple", None, "white", "orange"]
    assert s.alive == (True, False, True, True)
    r = result(s)
    assert r["survivors"] == [0, 2, 3]
    assert r["winners"] == [max((0, 2, 3), key=lambda t: s.pop[t])]
    assert r["reason"] == "most-popular-survivor"


def test_nobles_move_before_each_red_death_card_is_revealed():
    """"Nobles move ... Red Death moves ... The Red Death kills all nobles in this room": the room that
    counts is the one you move into, not the one you start in."""
    s = to_plan()
    red = [(ROOM_INDEX["blue"], ROOM_INDEX["purple"])] + [(ROOM_INDEX["white"], ROOM_INDEX["orange"])] * 5
    s = edited(s, red=tuple(red), pos=(ROOM_INDEX["blue"],) * 4,
               plans=(("ccw",) + ("stay",) * 5, ("stay",) * 6, ("cw",) + ("stay",) * 5, ("ccw",) * 6))
    for _ in range(4):
        s = apply(s, ("ready",))
    # seat 0 left Blue for Black (safe); seat 1 stayed in Blue; seat 2 moved into Purple;
    # seat 3 walked Black, Violet, White: killed at 12:20
    assert s.alive == (True, False, False, False)
    assert result(s)["winners"] == [0]


def test_if_every_noble_dies_nobody_wins():
    """Assumption ties: if every noble dies, nobody wins."""
    s = to_plan()
    s = edited(s, pos=(ROOM_INDEX["blue"],) * 4, red=((ROOM_INDEX["blue"], ROOM_INDEX["green"]),) * 6)
    for _ in range(4):
        s = apply(s, ("ready",))
    assert result(s) == {**result(s), "winners": [], "reason": "all-dead", "survivors": []}


def test_the_harder_variant_has_three_red_death_cards_per_slot():
    """"Place 3 Rumor cards (instead of 2) on each time slot ... the Red Death will visit 3 rooms.\""""
    s = new_game(MasqueConfig(players=4, harder=True), 1)
    assert all(len(r) == 3 for r in s.red)
    s = to_plan()
    s = edited(s, config=MasqueConfig(players=4, harder=True), pos=(0, 2, 4, 5),
               red=((0, 2, 4),) + ((6, 1, 3),) * 5)
    for _ in range(4):
        s = apply(s, ("ready",))
    assert s.alive == (False, False, False, True)


# ============================================================================ the contract


def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing():
    s = started()
    data = state_to_json(s)
    for bad in [("move", "blue"), ("ready",), ("play", "nothing"), ("tile", 9, "cw"), ("tile", 0, "up"),
                ("play", True), ("fly",), (), ("look", 0), ("ask", 1, 0), ("tile", 0, "stay"), ("place", "blue")]:
        with pytest.raises(IllegalAction) as e:
            apply(s, bad)
        assert str(e.value) and "\n" not in str(e.value)
        assert state_to_json(s) == data


def test_actions_and_states_round_trip_through_json():
    s = started()
    s = apply(s, ("tile", 1, "cw"))
    s = apply(s, ("play", "flirt")) if "flirt" in plays(s) else apply(s, ("play", "jest"))
    back = state_from_json(state_to_json(s))
    assert state_to_json(back) == state_to_json(s)
    assert legal_actions(back) == legal_actions(s)
    for a in legal_actions(s):
        assert action_from_json(action_to_json(a)) == a
    with pytest.raises(ValueError):
        action_from_json({"play": "jest"})


def test_view_has_everything_a_play_screen_needs():
    s = started()
    v = view(s, 0)
    for key in ("rooms", "slots", "positions", "prince", "prince_route", "popularity", "track", "order",
                "hand", "personality", "rumors", "rumor_counts", "deck", "plan", "pending", "revealed",
                "resolving", "midnight", "notes", "legal", "events", "phase", "to_act", "over", "result",
                "discards", "round", "clock"):
        assert key in v, key
    assert v["legal"] and view(s, 1)["legal"] == []
    assert tuple(v["slots"]) == SLOTS


# ============================================================================ resolve all effects (issue 20)
# "To play an Action card, you must be able to resolve all of its effects." Mock and the assumed
# Scandal need nobles who can lose the popularity (open spaces below their tracker; space 1 is the
# bottom); the assumed Confidant gives only to a nearby noble who holds a Rumor card, so that its
# take can resolve. When the bottom of the track stops a loss at resolution, the log says so.


def test_mock_needs_a_nearby_noble_who_can_lose_two():
    # Seat 1 on 3 (2 and 1 held), seat 2 on 1, seat 3 on 2: nobody nearby can lose anything.
    assert "mock" not in plays(table(pos=("black",) * 4, pop=(10, 3, 1, 2)))
    # Seat 1 on 4 has one open space below (3): not enough for 2.
    assert "mock" not in plays(table(pos=("black",) * 4, pop=(10, 4, 1, 2)))
    # On 5 it has two (4 and 3): Mock is playable and seat 1 is the only noble it may name.
    s = table(pos=("black",) * 4, pop=(10, 5, 1, 2))
    assert "mock" in plays(s)
    s = choose_all(s, ["mock", "discuss", "discuss", "discuss"])  # nobody else's popularity moves
    while s.phase != TARGET:
        s = apply(s, legal_actions(s)[0])
    assert legal_actions(s) == [("target", 1)]
    s = apply(s, ("target", 1))
    assert s.pop[1] == 3


def test_scandal_needs_every_nearby_noble_able_to_lose_two():
    # Seat 1 on 2 (only space 1 below): the Scandal could not make it lose 2.
    s = with_personality("scandal", pos=("black", "black", "black", "white"), pop=(20, 2, 30, 40))
    assert "scandal" not in plays(s)
    s = with_personality("scandal", pos=("black", "black", "black", "white"), pop=(20, 3, 30, 40))
    assert "scandal" in plays(s)
    # The noble who cannot lose is in another room: it is not nearby, so the Scandal is fine.
    s = with_personality("scandal", pos=("black", "white", "black", "white"), pop=(20, 1, 30, 40))
    assert "scandal" in plays(s)


def test_confidant_gives_only_to_a_noble_with_a_rumor_card():
    s = with_personality("confidant", pos=("black",) * 4, pop=(1, 20, 30, 40),
                         rumors={0: ["12:00 blue"], 2: ["12:10 green"]})
    s = choose_all(s, ["confidant", "dance", "dance", "dance"])
    assert s.phase == GIVE
    assert legal_actions(s) == [("give", 2, "12:00 blue")]  # seat 1 and seat 3 hold nothing to take
    s = apply(s, ("give", 2, "12:00 blue"))
    s = apply(s, legal_actions(s)[0])
    assert s.rumors[0] == (g("12:10 green"),)


def test_a_loss_stopped_by_the_bottom_of_the_track_is_logged_as_it_happened():
    s = edited(table(pos=("black",) * 4, pop=(10, 2, 1, 40)))
    _lose(s, 1, 2, "mock")  # seat 1 on 2, space 1 held: nothing to lose
    ev = s.log.items[len(s.log) - 1][0]
    assert (ev["change"], ev["to"], ev["wanted"]) == (0, 2, -2)
    text = describe(ev, view(s, 0))
    assert "no popularity lost" in text and "-2" not in text
    s = edited(table(pos=("black",) * 4, pop=(10, 3, 1, 40)))
    _lose(s, 1, 2, "mock")  # one open space (2)
    ev = s.log.items[len(s.log) - 1][0]
    assert (ev["change"], ev["to"]) == (-1, 2)
    assert "-1 popularity → 2" in describe(ev, view(s, 0))


def test_editing_the_final_plan_never_ends_the_game_but_ready_always_can():
    """The remark of issue 25's replay work: a seat that always plays its first legal action (seed 3,
    random bots) never ends the game. Not a rules bug: in the planning step after the 12th round the
    first legal actions are Movement-tile edits, which never pass the turn (a plan may be changed
    until it is final); Ready is always legal there and, once every living seat is ready, it is midnight."""
    from solvers.table import Table

    t = Table("masque", {"players": 4}, 3, ["human", "random", "random", "random"])
    edits = 0
    for _ in range(1000):
        if t.to_act() != 0:
            t.step_bot()
            continue
        v = t.view(0)
        if v["phase"] == "plan":
            assert ["ready"] in v["legal"]
            assert v["legal"][0][0] == "tile"  # the first legal action edits the plan: the turn stays
            edits += 1
        t.submit(0, tuple(v["legal"][0]))
    assert not t.is_over() and t.view(0)["phase"] == "plan" and edits > 300
    for _ in range(100):  # the same seat says Ready (the bots, random, will too): the game ends
        if t.is_over():
            break
        if t.to_act() == 0:
            t.submit(0, ("ready",))
        else:
            t.step_bot()
    assert t.is_over()
