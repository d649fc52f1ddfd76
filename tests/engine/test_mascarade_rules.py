"""Mascarade rules, one test per rule (BGA help first, then SUPPLEMENT.md and the printed examples).

Each test's docstring quotes the rule it checks. States are built with :func:`table`, which
deals a real game and then puts chosen masks and coins in front of the players.
"""

from __future__ import annotations

import json

import pytest

from engine.core import EventLog, IllegalAction
from engine.mascarade import (
    Config,
    action_from_json,
    action_to_json,
    apply,
    is_over,
    legal_actions,
    load_masks,
    load_rules,
    new_game,
    result,
    state_from_json,
    state_to_json,
    to_act,
    view,
)
from engine.mascarade.game import MascaradeState

# ----------------------------------------------------------------------------- helpers


def table(cards: list[str], coins: list[int] | None = None, *, turn: int = 0, turn_no: int = 5, court: int = 0,
          **options) -> MascaradeState:
    """A game whose places hold ``cards`` (players, then table cards), with ``turn`` to play."""
    players = options.pop("players", None) or next(n for n in range(4, 13) if n + max(0, 6 - n) == len(cards))
    standard = sorted(load_rules().sets[players])
    if sorted(cards) != standard:
        options["masks"] = tuple(cards)
    s = new_game(Config(players=players, **options), seed=1)
    s.cards = tuple(cards)
    s.known = (tuple(cards),) * players
    setup = s.log.entries()[0][0]
    s.log = EventLog()
    s.log.append(setup)
    s.log.append({"t": "opening", "cards": list(cards)})
    s.coins = tuple(coins) if coins is not None else s.coins
    s.court = court
    s.turn_pos = s.order.index(turn)
    s.turn_no = turn_no
    return s


def play(s: MascaradeState, *actions: tuple) -> MascaradeState:
    for a in actions:
        s = apply(s, a)
    return s


def announce(s: MascaradeState, mask: str, claimers: tuple[int, ...] = ()) -> MascaradeState:
    """The player to act announces ``mask``; every seat in ``claimers`` claims, the others pass."""
    s = apply(s, ("announce", mask))
    while s.phase == "claim":
        s = apply(s, ("claim",) if to_act(s) in claimers else ("pass",))
    return s


def events(s: MascaradeState, seat: int, kind: str | None = None) -> list[dict]:
    evs = view(s, seat)["events"]
    return [e for e in evs if kind is None or e["t"] == kind]


FOUR = ["judge", "trickster", "empress", "king", "thief", "cheater"]  # the 4-player set


# ----------------------------------------------------------------------------- setup


def test_mask_sets_per_player_count_match_the_supplement():
    """SUPPLEMENT: the masks per player count (4: Judge, Trickster, Empress, King, Thief, Cheater + 2 table
    cards; 5: ... Sorceress, Cheater + 1; 6; 7: + Fool, Thief; 8: + Fool, Sorceress, Peasant x2; 9 + Cheater;
    10 + Spy; 11 + Guru; 12 + Widow)."""
    sets = load_rules().sets
    assert sorted(sets[4]) == sorted(FOUR)
    assert sorted(sets[5]) == sorted(["judge", "trickster", "empress", "king", "sorceress", "cheater"])
    assert sets[6] == sets[5]
    assert sorted(sets[7]) == sorted(["judge", "trickster", "empress", "king", "fool", "thief", "sorceress"])
    eight = ["judge", "trickster", "empress", "king", "fool", "sorceress", "peasant", "peasant"]
    assert sorted(sets[8]) == sorted(eight)
    assert sorted(sets[9]) == sorted([*eight, "cheater"])
    assert sorted(sets[10]) == sorted([*eight, "cheater", "spy"])
    assert sorted(sets[11]) == sorted([*eight, "cheater", "spy", "guru"])
    assert sorted(sets[12]) == sorted([*eight, "cheater", "spy", "guru", "widow"])
    for n in range(4, 13):
        s = new_game(Config(players=n), seed=n)
        table_cards = {4: 2, 5: 1}.get(n, 0)
        assert len(s.cards) == n + table_cards
        assert sorted(s.cards) == sorted(sets[n])


def test_every_mask_of_the_seed_has_its_power_as_data():
    """Every power of the seed: Beggar, Cheater, Empress, Fool, Guru, Judge, King, Patron, Peasant (a pair),
    Princess, Puppeteer, Sorceress, Spy, Thief, Trickster, Widow."""
    masks = load_masks()
    assert set(masks) == {"beggar", "cheater", "empress", "fool", "guru", "judge", "king", "patron", "peasant",
                          "princess", "puppeteer", "sorceress", "spy", "thief", "trickster", "widow"}
    assert masks["peasant"].count == 2
    assert (masks["empress"].amount, masks["king"].amount) == (3, 2)


def test_six_coins_each_empty_courthouse():
    """'Each player receives 6 gold coins.' Table cards have no coins."""
    s = new_game(Config(players=4), seed=3)
    assert s.coins == (6, 6, 6, 6)
    assert s.court == 0
    assert view(s, 0)["coins"] == [6, 6, 6, 6]


def test_custom_set_needs_the_judge_and_peasants_in_pairs():
    """SUPPLEMENT (printed): in a custom set the Judge is always in; Peasants only as a pair."""
    ok = ("judge", "beggar", "patron", "princess", "puppeteer", "widow")
    assert Config(players=4, masks=ok).mask_set()[0] in ok
    with pytest.raises(ValueError, match="Judge"):
        Config(players=4, masks=("king", "beggar", "patron", "princess", "puppeteer", "widow"))
    with pytest.raises(ValueError, match="pair"):
        Config(players=5, masks=("judge", "peasant", "patron", "princess", "puppeteer", "widow"))
    with pytest.raises(ValueError, match="cards"):
        Config(players=4, masks=("judge", "beggar", "patron"))
    with pytest.raises(ValueError, match="only one"):
        Config(players=4, masks=("judge", "judge", "patron", "princess", "puppeteer", "widow"))
    with pytest.raises(ValueError):
        Config(players=3)
    with pytest.raises(ValueError, match="Unknown Mascarade option"):
        Config.from_json({"players": 4, "colour": "red"})


def test_opening_shows_every_card_face_up_to_everyone():
    """SUPPLEMENT (printed rules and BGA): all cards, table cards included, are first shown face up to
    everyone, then turned face down."""
    s = new_game(Config(players=4), seed=5)
    for seat in range(4):
        (ev,) = events(s, seat, "opening")
        assert ev["cards"] == list(s.cards)
        assert view(s, seat)["known"] == list(s.cards)
    s = new_game(Config(players=4, opening=False), seed=5)
    assert events(s, 0, "opening") == []
    assert view(s, 0)["known"] == [None] * 6


def test_first_four_turns_are_swap_only():
    """'From the start of the game, the first 4 turns may only use action 1 (swap or pretend).'"""
    s = new_game(Config(players=4), seed=7)
    for _turn in range(4):
        legal = legal_actions(s)
        assert {a[0] for a in legal} == {"swap"}
        with pytest.raises(IllegalAction, match="first 4 turns"):
            apply(s, ("look",))
        with pytest.raises(IllegalAction, match="first 4 turns"):
            apply(s, ("announce", "king"))
        s = apply(s, legal[0])
    kinds = {a[0] for a in legal_actions(s)}
    assert kinds == {"swap", "look", "announce"}


# ----------------------------------------------------------------------------- a turn


def test_swap_or_pretend_outcome_is_known_to_the_active_player_alone():
    """'Take your card and another player's card and, hidden from everyone, either exchange them or not ...
    Nobody else knows whether the exchange happened.'"""
    s = table(FOUR)
    t = play(s, ("swap", 1, True))
    assert t.cards[:2] == ("trickster", "judge")
    u = play(s, ("swap", 1, False))
    assert u.cards[:2] == ("judge", "trickster")
    for st, did in ((t, True), (u, False)):
        (mine,) = events(st, 0, "swap")
        assert mine["swapped"] is did and (mine["a"], mine["b"]) == (0, 1)
        for other in (1, 2, 3):
            (theirs,) = events(st, other, "swap")
            assert theirs["swapped"] is None
            assert (theirs["seat"], theirs["a"], theirs["b"]) == (0, 0, 1)


def test_swap_with_a_table_card():
    """Table cards 'can only take part in card exchanges'."""
    s = table(FOUR)
    s = play(s, ("swap", 5, True))
    assert s.cards[0] == "cheater" and s.cards[5] == "judge"
    assert ("swap", 4, True) in legal_actions(table(FOUR))


def test_look_at_your_own_card_secretly():
    """'Look at your own card secretly.'"""
    s = play(table(FOUR, turn=2), ("look",))
    (ev,) = events(s, 2, "look")
    assert ev["card"] == "empress"
    for other in (0, 1, 3):
        (ev,) = events(s, other, "look")
        assert ev["card"] is None and ev["seat"] == 2
    assert to_act(s) == 3


def test_claims_go_clockwise_from_the_announcers_left():
    """'Then, clockwise, each other player may say "I am that character too".' Table cards never claim."""
    s = table(FOUR, turn=2)
    s = apply(s, ("announce", "king"))
    seen = []
    while s.phase == "claim":
        seen.append(to_act(s))
        assert legal_actions(s) == [("claim",), ("pass",)]
        s = apply(s, ("pass",))
    assert seen == [3, 0, 1]


def test_uncontested_announcer_uses_the_power_without_revealing():
    """'If nobody else claims it, the announcer uses the power without revealing the card.' (Even a bluff.)"""
    s = announce(table(FOUR), "king")  # seat 0 holds the Judge: a bluff
    assert s.coins[0] == 8
    assert events(s, 1, "reveal") == []
    (ev,) = events(s, 1, "uncontested")
    assert (ev["seat"], ev["mask"]) == (0, "king")
    assert s.revealed_prev == frozenset()


def test_challenge_reveals_all_claimants_true_holder_acts_false_pay():
    """'If several players claim it, all claimants reveal their cards at the same time. Each claimant whose card
    matches uses the power; each claimant whose card does not match pays 1 gold to the courthouse.'"""
    s = announce(table(FOUR), "king", claimers=(3,))  # seat 0 bluffs (Judge); seat 3 holds the King
    (ev,) = events(s, 2, "reveal")
    assert ev["cards"] == [[0, "judge"], [3, "king"]]
    assert s.coins == (5, 6, 6, 8)
    assert s.court == 1


def test_challenge_with_no_true_claimant_everyone_pays():
    """'If no claimant matches, every revealed claimant pays 1 gold to the courthouse.'"""
    s = announce(table(FOUR), "cheater", claimers=(1, 2))  # the Cheater is on table card 5
    assert s.coins == (5, 5, 5, 6)
    assert s.court == 3


def test_revealed_cards_are_turned_down_again():
    """'At the end of the turn all revealed cards are turned face down again' (they stay where they are)."""
    s = announce(table(FOUR), "king", claimers=(3,))
    assert s.cards == tuple(FOUR)
    assert s.phase == "turn" and to_act(s) == 1


def test_revealed_during_previous_turn_may_not_announce():
    """Note 2: 'a player whose card was revealed during the previous player's turn may not use action 3.'"""
    s = announce(table(FOUR), "king", claimers=(1,))  # seat 1 (Trickster) is revealed in seat 0's turn
    assert to_act(s) == 1
    kinds = {a[0] for a in legal_actions(s)}
    assert kinds == {"swap", "look"}
    with pytest.raises(IllegalAction, match="previous turn"):
        apply(s, ("announce", "trickster"))
    s = apply(s, ("look",))
    assert "announce" in {a[0] for a in legal_actions(s)}  # seat 2 was not revealed


def test_revealed_rule_option_must_swap():
    """SUPPLEMENT: 'Printed option: they must swap-or-pretend.'"""
    s = announce(table(FOUR, revealed_rule="must-swap"), "king", claimers=(1,))
    assert {a[0] for a in legal_actions(s)} == {"swap"}


def test_revealed_rule_counts_only_the_turn_just_before():
    """The restriction is about 'the previous player's turn': a card revealed two turns ago does not bar."""
    s = announce(table(FOUR), "king", claimers=(2,))  # seat 2 revealed in seat 0's turn
    s = apply(s, ("look",))  # seat 1's turn
    assert to_act(s) == 2
    assert "announce" in {a[0] for a in legal_actions(s)}


def test_a_guru_reveal_counts_as_revealed():
    """A card the Guru has revealed face up bars its owner from announcing in the next turn."""
    cards = ["guru", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards), "guru")
    s = play(s, ("power", "guru", 1), ("name", "judge"))
    assert to_act(s) == 1
    assert "announce" not in {a[0] for a in legal_actions(s)}


# ----------------------------------------------------------------------------- powers


def test_beggar_printed_example_4_against_8_11_11_7_9():
    """Beggar: 'Going round the other players one at a time in turn order: if, at the moment you check them, that
    player has more coins than you, they must give you 1 coin.' Printed example: 4 vs 8, 11, 11, 7, 9 → 1, 1, 1,
    0, 1."""
    cards = ["beggar", "judge", "king", "empress", "thief", "cheater"]
    s = announce(table(cards, [4, 8, 11, 11, 7, 9], players=6), "beggar")
    assert s.coins == (8, 7, 10, 10, 7, 8)
    (ev,) = events(s, 3, "power")
    assert ev["targets"] == [1, 2, 3, 5]


def test_cheater_wins_at_ten_or_more():
    """Cheater: 'If you have 10 or more coins when you use this power, you win the game.'"""
    s = announce(table(["cheater", "judge", "trickster", "empress", "king", "thief"], [10, 6, 6, 6]), "cheater")
    assert is_over(s)
    assert result(s)["winners"] == [0] and result(s)["reason"] == "cheater"
    s = announce(table(["cheater", "judge", "trickster", "empress", "king", "thief"], [9, 6, 6, 6]), "cheater")
    assert not is_over(s) and s.coins[0] == 9


def test_cheater_at_ten_beats_an_eleven_coin_bluffer():
    """Printed example: the Cheater at 10 against an 11-coin bluffer — the true Cheater wins, the bluffer pays."""
    s = table(["cheater", "judge", "trickster", "empress", "king", "thief"], [10, 11, 6, 6])
    s = announce(s, "cheater", claimers=(1,))
    assert result(s)["winners"] == [0]
    assert result(s)["reason"] == "cheater"
    assert s.coins[1] == 10 and s.court == 1


def test_empress_takes_three():
    """Empress: 'Take 3 coins from the bank.'"""
    s = table(FOUR, turn=2)
    bank = s.bank
    s = announce(s, "empress")
    assert s.coins[2] == 9 and s.bank == bank - 3


def test_king_takes_two():
    """King: 'Take 2 coins from the bank.' (BGA; the printed 1st edition's 3-coin King is our Empress.)"""
    s = announce(table(FOUR, turn=3), "king")
    assert s.coins[3] == 8


def test_fool_takes_one_and_swaps_two_others_secretly():
    """Fool: 'Take 1 coin from the bank. Then choose two players other than yourself and swap (or pretend to swap)
    their cards without looking at them.'"""
    cards = ["fool", "judge", "trickster", "empress", "king", "sorceress", "thief"]
    s = announce(table(cards), "fool")
    assert s.phase == "power" and to_act(s) == 0
    legal = legal_actions(s)
    assert all(0 not in a[2:4] for a in legal)
    s2 = apply(s, ("power", "fool", 1, 2, True))
    assert s2.coins[0] == 7
    assert s2.cards[1:3] == ("trickster", "judge")
    (ev,) = events(s2, 0, "swap")
    assert ev["swapped"] is True and ev["by"] == "fool"
    (ev,) = events(s2, 1, "swap")
    assert ev["swapped"] is None
    s3 = apply(s, ("power", "fool", 1, 2, False))
    assert s3.cards == tuple(cards)


def test_fool_and_table_cards_option():
    """SUPPLEMENT: 'the Spy and the Fool may also use table cards (printed rule); option to forbid.'"""
    cards = ["fool", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards), "fool")
    assert ("power", "fool", 4, 5, True) in legal_actions(s)
    s = announce(table(cards, fool_table=False), "fool")
    assert all(a[2] < 4 and a[3] < 4 for a in legal_actions(s))


def test_guru_wrong_name_pays_four():
    """Guru: 'Choose a player. That player must name their mask and then reveal the card to everyone. If it does
    not match what they named, they pay you 4 coins; either way the card is turned face down again.'"""
    cards = ["guru", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [6, 7, 6, 6]), "guru")
    s = apply(s, ("power", "guru", 1))
    assert s.phase == "guru" and to_act(s) == 1
    s = apply(s, ("name", "king"))
    assert s.coins[:2] == (10, 3)
    (ev,) = events(s, 2, "reveal")
    assert ev["cards"] == [[1, "judge"]] and ev["why"] == "guru"
    assert s.cards == tuple(cards)


def test_guru_right_name_nothing_happens():
    """Guru: 'If it matches, nothing happens.'"""
    cards = ["guru", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards), "guru")
    s = play(s, ("power", "guru", 1), ("name", "judge"))
    assert s.coins[:2] == (6, 6)


def test_guru_target_with_fewer_than_four_gives_all_and_the_game_ends():
    """Guru: 'If that player has fewer than 4 coins, they give you all their coins and the game ends.'"""
    cards = ["guru", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [6, 3, 8, 6]), "guru")
    s = play(s, ("power", "guru", 1), ("name", "king"))
    assert s.coins[:2] == (9, 0)
    assert is_over(s) and result(s)["winners"] == [0] and result(s)["reason"] == "bankrupt"


def test_guru_target_with_fewer_than_four_who_names_right_pays_nothing_and_play_goes_on():
    """Guru: 'If it does not match what they named, they pay you 4 coins ... If that player has fewer than
    4 coins, they give you all their coins and the game ends.' The second sentence belongs to the payment
    (assumption guru-short-but-right): a target who names right keeps their coins, and the game goes on."""
    cards = ["guru", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [6, 3, 8, 6]), "guru")
    s = play(s, ("power", "guru", 1), ("name", "judge"))
    assert s.coins[:2] == (6, 3)
    assert not is_over(s)


def test_judge_takes_the_courthouse():
    """Judge: 'Take all the coins on the courthouse.'"""
    s = announce(table(FOUR, court=5), "judge")
    assert s.coins[0] == 11 and s.court == 0


def test_judge_printed_example_with_false_claimants():
    """Printed example / SUPPLEMENT: the true holder acts first, then each false claimant pays 1 to the
    courthouse — so the Judge takes what was there, and the new fines stay on the courthouse."""
    s = announce(table(FOUR, [6, 6, 6, 6], court=4, turn=1), "judge", claimers=(0, 3))
    assert s.coins == (10, 5, 6, 5)  # seat 0 is the Judge: 6 + 4; seats 1 and 3 pay 1 each
    assert s.court == 2


def test_patron_and_the_neighbours():
    """Patron: 'Take 3 coins from the bank; the players on your left and right each take 1 coin from the bank.'"""
    cards = ["patron", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, turn=0), "patron")
    assert s.coins == (9, 7, 6, 7)


def test_peasant_alone_takes_one():
    """Peasant: 'Take 1 coin from the bank.' (Printed case 1: one Peasant, unchallenged.)"""
    s = announce(table(load_rules().sets[8], turn=6), "peasant")
    assert s.coins[6] == 7


def test_peasant_pair_revealed_takes_two_each():
    """Peasant: 'If a challenge reveals both Peasants, each of them takes 2 coins instead.' (Printed case 2.)"""
    cards = list(load_rules().sets[8])  # ... peasant at places 6 and 7
    assert cards[6:] == ["peasant", "peasant"]
    s = announce(table(cards, turn=6), "peasant", claimers=(7,))
    assert s.coins[6:] == (8, 8)
    assert s.court == 0


def test_peasant_with_a_false_claimant():
    """Printed case 3: one true Peasant and one false claimant: the Peasant takes 1, the liar pays 1."""
    cards = list(load_rules().sets[8])
    s = announce(table(cards, turn=6), "peasant", claimers=(0,))
    assert s.coins[6] == 7 and s.coins[0] == 5 and s.court == 1


def test_princess_shows_a_card_to_everyone_but_its_owner():
    """Princess: 'Take 2 coins from the bank. Choose another player; their card is shown to everyone except that
    player.'"""
    cards = ["princess", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards), "princess")
    s = apply(s, ("power", "princess", 2))
    assert s.coins[0] == 8
    for seat in (0, 1, 3):
        (ev,) = events(s, seat, "shown")
        assert ev["card"] == "trickster"
    (ev,) = events(s, 2, "shown")
    assert ev["card"] is None and ev["target"] == 2
    assert view(s, 0)["known"][2] == "trickster"
    assert s.revealed_now == frozenset() and 2 not in s.revealed_prev


def test_puppeteer_two_players_trade_places_cards_and_coins_stay():
    """Puppeteer: 'Choose two players and take 1 coin from each. Those two players swap seats; the cards and the
    coins stay where they were.' (Each takes over the other's card, coins and turn position.)"""
    cards = ["puppeteer", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [6, 5, 8, 7]), "puppeteer")
    s = apply(s, ("power", "puppeteer", 1, 3))
    assert s.coins == (8, 6, 8, 4)  # 1 from each (4 and 6), then seats 1 and 3 trade places
    assert s.cards[1] == "empress" and s.cards[3] == "judge"
    assert s.order == (0, 3, 2, 1)
    assert to_act(s) == 3  # seat 3 now sits at seat 0's left


def test_after_the_puppeteer_a_player_may_have_two_turns_in_a_row():
    """Puppeteer: 'Those two players swap seats (on Board Game Arena: their places in turn order).' Turn order
    follows the places, even when that gives one player two turns in a row (assumption puppeteer-two-turns)."""
    cards = ["judge", "trickster", "puppeteer", "empress", "king", "thief"]
    s = announce(table(cards, [6, 6, 6, 6]), "puppeteer", claimers=(2,))  # seat 0 bluffs; seat 2 holds it
    assert to_act(s) == 2
    s = apply(s, ("power", "puppeteer", 0, 1))  # seat 0, who is playing, trades places with seat 1, next
    assert s.order == (1, 0, 2, 3)
    assert to_act(s) == 0, "seat 0 now sits where the next player sat: it plays again at once"


def test_after_the_puppeteer_neighbours_follow_the_new_seats():
    """The traded players sit in each other's place: the Thief's neighbours are whoever sits beside it now."""
    cards = ["puppeteer", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [6, 6, 6, 6]), "puppeteer")
    s = apply(s, ("power", "puppeteer", 1, 2))  # order is now 0, 2, 1, 3
    assert s.order == (0, 2, 1, 3)
    s = play(s, ("look",), ("look",))  # seats 2 and 1 (in the new order)
    assert to_act(s) == 3
    s = announce(s, "thief")  # a bluff by seat 3: its neighbours are seat 0 (left) and seat 1 (right)
    assert s.coins == (7, 4, 5, 8)  # seat 2, its old neighbour, keeps its 5


def test_sorceress_swaps_coins_and_a_false_claimant_pays_after():
    """Sorceress: 'Choose another player and swap all your coins with theirs.' Note: 'a player who wrongly claimed
    the Sorceress pays the 1-coin fine after the rightful claimant's Sorceress power has been used.'"""
    cards = ["judge", "sorceress", "trickster", "empress", "king", "cheater"]
    s = table(cards, [6, 3, 9, 6], players=5, turn=0)
    s = announce(s, "sorceress", claimers=(1,))
    s = apply(s, ("power", "sorceress", 0))  # the true Sorceress takes the bluffer's coins
    assert s.coins[:2] == (2, 6)  # swapped 6 <-> 3, then the bluffer pays 1 from their new 3
    assert s.court == 1


def test_spy_looks_at_both_cards_then_swaps_or_not():
    """Spy: 'Choose another player; look at both cards (yours and theirs), then swap or pretend to swap.'"""
    cards = ["judge", "trickster", "empress", "king", "fool", "sorceress", "peasant", "peasant", "cheater", "spy"]
    s = announce(table(cards, turn=9), "spy")
    s = apply(s, ("power", "spy", 2))
    assert s.phase == "spy" and to_act(s) == 9
    (ev,) = events(s, 9, "spy_look")
    assert (ev["mine"], ev["theirs"]) == ("spy", "empress")
    (ev,) = events(s, 2, "spy_look")
    assert ev["mine"] is None and ev["theirs"] is None
    assert view(s, 9)["pending"]["theirs"] == "empress"
    assert "theirs" not in view(s, 2)["pending"]
    t = apply(s, ("spy_swap", True))
    assert t.cards[9] == "empress" and t.cards[2] == "spy"
    (ev,) = events(t, 1, "swap")
    assert ev["swapped"] is None and ev["by"] == "spy"
    assert apply(s, ("spy_swap", False)).cards == tuple(cards)


def test_spy_and_table_cards_option():
    """SUPPLEMENT: the Spy may use table cards by default; option to forbid."""
    cards = ["spy", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards), "spy")
    assert ("power", "spy", 5) in legal_actions(s)
    s = announce(table(cards, spy_table=False), "spy")
    assert all(a[2] < 4 for a in legal_actions(s))


def test_thief_takes_one_from_each_neighbour_never_a_table_card():
    """Thief: 'Take 1 coin from each of your two neighbours.' Table cards: 'never neighbours'."""
    s = announce(table(FOUR, turn=0), "thief")  # seat 4 (table) holds the Thief: a bluff, uncontested
    assert s.coins == (8, 5, 6, 5)


def test_trickster_takes_two_from_the_richest():
    """Trickster: 'Take 2 coins from the richest player other than yourself.'"""
    s = announce(table(FOUR, [6, 6, 9, 7], turn=1), "trickster")
    assert s.coins == (6, 8, 7, 7)


def test_trickster_chooses_among_tied_richest():
    """Trickster: 'if several are tied, choose one of them.'"""
    s = announce(table(FOUR, [6, 6, 9, 9], turn=1), "trickster")
    assert legal_actions(s) == [("power", "trickster", 2), ("power", "trickster", 3)]
    s = apply(s, ("power", "trickster", 3))
    assert s.coins == (6, 8, 9, 7)


def test_widow_fills_up_to_ten():
    """Widow: 'Take coins from the bank until you have exactly 10. If you already have 10 or more, nothing.'"""
    cards = ["widow", "judge", "trickster", "empress", "king", "thief"]
    assert announce(table(cards, [4, 6, 6, 6]), "widow").coins[0] == 10
    assert announce(table(cards, [11, 6, 6, 6]), "widow").coins[0] == 11


def test_widow_printed_example_with_a_bluffer_fined_to_zero():
    """Printed example: a Widow challenge where the bluffer pays their last coin — the power first, then the fine,
    then the end: a player at 0 ends the game and the richest wins."""
    cards = ["widow", "judge", "trickster", "empress", "king", "thief"]
    s = announce(table(cards, [4, 1, 8, 9]), "widow", claimers=(1,))
    assert s.coins == (10, 0, 8, 9)
    assert is_over(s)
    assert result(s) == {**result(s), "winners": [0], "reason": "bankrupt"}


# ----------------------------------------------------------------------------- the end


def test_thirteen_coins_wins_at_once():
    """'A player reaches 13 gold: that player wins.'"""
    s = announce(table(FOUR, [6, 6, 11, 6], turn=2), "empress")
    assert result(s)["winners"] == [2] and result(s)["reason"] == "coins"


def test_zero_coins_ends_and_the_richest_wins_ties_share():
    """'A player has 0 gold: the richest player at that moment wins.' Ties (printed): every tied player wins."""
    s = announce(table(FOUR, [1, 6, 10, 9], turn=1), "thief")  # a bluff: takes the last coin of seat 0
    assert s.coins == (0, 8, 9, 9)
    assert result(s)["winners"] == [2, 3]


def test_several_reach_thirteen_at_once_share_the_win():
    """Assumption end-check: every player with 13+ coins after the action wins (the Peasant pair at 11 each)."""
    cards = list(load_rules().sets[8])
    s = announce(table(cards, [6, 6, 6, 6, 6, 6, 11, 11], turn=6), "peasant", claimers=(7,))
    assert result(s)["winners"] == [6, 7]


def test_turn_cap_is_a_safety_net():
    """Assumption turn-cap: after max_turns turns the richest player(s) win."""
    s = new_game(Config(players=4, max_turns=6), seed=2)
    for _ in range(6):
        s = apply(s, legal_actions(s)[0])
    assert is_over(s) and result(s)["reason"] == "turn-limit"
    assert to_act(s) is None and legal_actions(s) == []


# ----------------------------------------------------------------------------- plumbing


def test_illegal_actions_are_refused_with_a_sentence_and_change_nothing():
    """apply() raises IllegalAction with a sentence and leaves the state as it was."""
    s = table(FOUR)
    before = json.dumps(state_to_json(s))
    for bad in (("swap", 0, True), ("swap", 1, 1), ("swap", 1), ("announce", "widow"), ("claim",), ("fly",), (),
                ("power", "spy", 1), ("look", True)):
        with pytest.raises(IllegalAction) as err:
            apply(s, bad)
        assert str(err.value).endswith(".") or str(err.value).endswith("?")
    assert json.dumps(state_to_json(s)) == before


def test_claim_phase_accepts_only_claim_or_pass():
    s = apply(table(FOUR), ("announce", "king"))
    with pytest.raises(IllegalAction, match="Claim or pass"):
        apply(s, ("look",))


def test_state_and_actions_round_trip_through_json():
    s = announce(table(FOUR, court=2), "king", claimers=(3,))
    data = json.loads(json.dumps(state_to_json(s)))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(s)
    for a in legal_actions(s):
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    cfg = Config(players=7, names=tuple("ABCDEFG"), revealed_rule="must-swap", spy_table=False)
    assert Config.from_json(json.loads(json.dumps(cfg.to_json()))) == cfg


def test_view_shows_the_table_for_a_play_screen():
    """The view holds seats, coins, courthouse, order, the pending announcement and what this seat knows."""
    s = apply(table(FOUR, court=3), ("announce", "king"))
    v = view(s, 1)
    assert v["to_act"] == 1 and v["phase"] == "claim"
    assert v["announcement"] == {"seat": 0, "mask": "king", "claimants": [0], "waiting": [1, 2, 3]}
    assert v["pending"] == {"kind": "claim", "seat": 1, "mask": "king", "announcer": 0}
    assert v["places"] == ["You", "Ada", "Bruno", "Chloe", "Table 1", "Table 2"]
    assert v["court"] == 3 and v["coins"] == [6, 6, 6, 6] and v["table"] == 2
    assert v["legal"] == [["claim"], ["pass"]]
    assert view(s, 2)["legal"] == []
    json.dumps(v)
