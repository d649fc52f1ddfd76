"""Seeded random playthroughs of Clue: Game of Thrones, checking invariants at every step.

Each game is played through the :class:`~solvers.table.Table` by a mix of ``random`` and
``notes`` bots, on both boards, with 2 to 6 players and the centre-pile variant on and off.
At every step:

* the action a bot takes is one of the legal actions, and a random illegal action is
  refused with :class:`IllegalAction`, leaving the state exactly as it was;
* the Rumor cards are conserved (envelope + hands + face up + centre + aside = the deck);
* the Plot cards are conserved (deck + hands + discard + White Walkers beside the board = 21);
* ``state_to_json -> state_from_json`` gives the same JSON and the same legal actions;
* no seat's view holds a card that seat could not know (another hand, the envelope, a card
  shown between others, someone else's peek, centre look or aside look).

Every game ends; it replays identically from ``(config, seed, actions)``; and a session saved
mid-game and loaded again continues exactly as the uninterrupted game did.

The default run plays 500 games; ``pytest -m soak`` plays 5,000 more.
"""

from __future__ import annotations

import json

import pytest

from engine.clue.board import load_board, load_rules
from engine.clue.game import (
    ClueConfig,
    ClueState,
    apply,
    is_over,
    legal_actions,
    state_from_json,
    state_to_json,
    to_act,
    view,
)
from engine.core import EventLog, IllegalAction, Rng
from engine.session import Session
from solvers.table import Table

PLOT_TOTAL = 21
MAX_STEPS = 50_000
PUBLIC_STATEMENTS = {("rumor", "cards"), ("accuse", "cards"), ("move", "suspect"), ("setup", "characters")}


# ----------------------------------------------------------------------------- game mix


def game_setup(game_no: int) -> tuple[ClueConfig, int, list[str]]:
    """The config, seed and seats of game number ``game_no`` of the sweep."""
    r = Rng(1_000_003 * game_no + 17)
    board = ("red-keep", "meereen")[game_no % 2]
    players = 2 + (game_no // 2) % 5
    centre_pile = (game_no // 10) % 2 == 1
    seats = [r.choice(("random", "notes")) for _ in range(players)]
    return ClueConfig(board=board, players=players, centre_pile=centre_pile), 7919 * game_no + 1, seats


# ----------------------------------------------------------------------------- invariants


def assert_cards_conserved(s: ClueState) -> None:
    piles = [*s.envelope, *(c for h in s.hands for c in h), *s.face_up, *s.centre, *s.aside]
    assert len(piles) == len(set(piles)), "a Rumor card is in two places"
    assert sorted(piles) == sorted(s.board.cards), "the Rumor cards no longer add up to the deck"
    b = s.board
    assert s.envelope[0] in b.suspects and s.envelope[1] in b.weapons and s.envelope[2] in b.locations


def assert_plot_conserved(s: ClueState) -> None:
    held = sum(len(h) for h in s.plot_hands)
    assert len(s.plot_deck) + held + len(s.discard) + s.walkers == PLOT_TOTAL
    counts = {p.id: p.count for p in load_rules().plot}
    every = [*s.plot_deck, *(c for h in s.plot_hands for c in h), *s.discard] + ["white-walker"] * s.walkers
    for card, n in counts.items():
        assert every.count(card) == n, card


def light_json(s: ClueState, since: int) -> dict:
    """``state_to_json`` of the state with only the log entries from ``since`` on.

    The log is append-only, so round-tripping each entry when it is new (and the whole log at
    the end of the game) covers all of it, without a quadratic cost per game.
    """
    c = s.copy()
    c.log = EventLog(list(s.log.entries(since)))
    return state_to_json(c)


def fingerprint(s: ClueState) -> tuple:
    """Every field of the state (copied where mutable), the RNG, and the log's length and tail."""
    fields = tuple(dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
                   for v in (getattr(s, k) for k in ClueState.__slots__ if k not in ("rng", "log")))
    tail = [({k: list(v) if isinstance(v, list) else v for k, v in e.items()}, seats)
            for e, seats in s.log.entries(max(0, len(s.log) - 3))]
    return fields, s.rng.state, len(s.log), tail


def assert_json_round_trip(s: ClueState, data: dict, through_text: bool = False) -> None:
    if through_text:
        data = json.loads(json.dumps(data))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(s)
    assert to_act(back) == to_act(s)


def random_illegal(s: ClueState, legal: list[tuple], r: Rng) -> tuple:
    """A random action that is not legal now."""
    b = s.board
    n = s.config.players
    nodes = len(b.node_names)
    makers = (
        lambda: ("roll",), lambda: ("end",), lambda: ("stay",), lambda: ("passage",), lambda: ("power",),
        lambda: ("look_centre",), lambda: ("draw",), lambda: ("decline",),
        lambda: ("move", r.below(nodes + 2) - 1), lambda: ("teleport", r.below(nodes + 2) - 1),
        lambda: ("show", r.choice(b.cards)), lambda: ("rumor", r.choice(b.suspects), r.choice(b.weapons)),
        lambda: ("accuse", r.choice(b.suspects), r.choice(b.weapons), r.choice(b.locations)),
        lambda: ("look_aside", r.below(6) - 1), lambda: ("play", "raven"), lambda: ("peek", r.below(n + 1) - 1),
        lambda: r.choice([("fly",), ("move", 1.0), ("show",), (), ("roll", 2), ("accuse", "Crossbow"), ("move", True)]),
    )
    while True:
        a = r.choice(makers)()
        if a not in legal:
            return a


class Knowledge:
    """What each seat may legitimately know, worked out from the true log by the rulebook,
    without trusting the engine's own idea of who sees what."""

    def __init__(self, players: int) -> None:
        self.known: list[set[str]] = [set() for _ in range(players)]
        self.read = 0

    def update(self, s: ClueState) -> None:
        entries = s.log.entries(self.read)
        self.read += len(entries)
        for ev, _seats in entries:
            t = ev["t"]
            if t == "setup":
                for k in self.known:
                    k.update(ev["face_up"])
            elif t == "hand":
                self.known[ev["seat"]].update(ev["cards"])
            elif t == "show":
                self.known[ev["to"]].add(ev["card"])
            elif t == "aside":
                self.known[ev["seat"]].add(ev["card"])
            elif t == "centre_look" or t == "envelope":
                self.known[ev["seat"]].update(ev["cards"])
            elif t == "peek":
                self.known[ev["seat"]].add(ev["card"])
            elif t in ("eliminated",):
                for k in self.known:
                    k.update(ev["cards"])
            elif t == "end":
                for k in self.known:
                    k.update(ev["envelope"])


def _cards_in(value: object, cards: frozenset[str]) -> set[str]:
    """Every Rumor card named anywhere inside ``value``."""
    if type(value) is str:
        return {value} if value in cards else set()
    found: set[str] = set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        for v in value:
            if type(v) is str:
                if v in cards:
                    found.add(v)
            else:
                found |= _cards_in(v, cards)
    return found


def assert_view_keeps_secrets(s: ClueState, seat: int, known: set[str], since: int) -> int:
    """Scan the private fields and the new events of ``seat``'s view for any Rumor card the seat
    cannot know; return the next ``since``."""
    cards = frozenset(s.board.cards)
    v = view(s, seat, since)
    assert v["hand"] == list(s.hands[seat]) and v["plot_hand"] == list(s.plot_hands[seat])
    assert set(v["revealed"]) == {str(i) for i, e in enumerate(s.eliminated) if e}
    assert v["result"] is None or is_over(s)
    assert not (_cards_in([v["hand"], v["face_up"], v["revealed"], v["result"]], cards) - known)
    assert not {"envelope", "hands", "aside", "centre"} & set(v)
    assert all(a[1] in s.hands[seat] for a in v["legal"] if a[0] == "show")
    leaks = []
    for ev in v["events"]:
        t = ev["t"]
        for field, value in ev.items():
            kind = type(value)
            if kind is str:
                if value in cards and value not in known and (t, field) not in PUBLIC_STATEMENTS:
                    leaks.append((value, ev))
            elif kind is list or kind is dict:
                found = _cards_in(value, cards) - known
                if found and (t, field) not in PUBLIC_STATEMENTS:
                    leaks.append((sorted(found), ev))
        if t == "plot" and ev["seat"] != seat and ev["card"] not in (None, "white-walker", "master-of-whisperers"):
            leaks.append((ev["card"], ev))
    assert not leaks, f"seat {seat} sees what it cannot know: {leaks[:3]}"
    return v["events"][-1]["n"] + 1 if v["events"] else since


# ----------------------------------------------------------------------------- one game


def play_checked(game_no: int) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step."""
    config, seed, seats = game_setup(game_no)
    table = Table("clue", config, seed, seats)
    r = Rng(seed ^ 0x5DEECE66D)
    knowledge = Knowledge(config.players)
    since = [0] * config.players
    steps = 0
    fresh = 0  # the first log entry not yet round-tripped
    while not table.is_over():
        s = table.state
        start = max(0, fresh - 1)
        data = light_json(s, start)
        fresh = len(s.log)
        assert_cards_conserved(s)
        assert_plot_conserved(s)
        assert_json_round_trip(s, data)
        knowledge.update(s)
        for seat in range(config.players):
            since[seat] = assert_view_keeps_secrets(s, seat, knowledge.known[seat], since[seat])
        before = fingerprint(s)
        legal = legal_actions(s)
        assert legal, "the seat to act has no legal action"
        bad = random_illegal(s, legal, r)
        with pytest.raises(IllegalAction) as e:
            apply(s, bad)
        assert str(e.value) and "\n" not in str(e.value)
        assert fingerprint(s) == before, f"the refused action {bad} changed the state"
        assert table.step_bot()
        assert tuple(table.log[-1][1]) in legal, f"a bot chose an illegal action {table.log[-1]}"
        steps += 1
        assert steps < MAX_STEPS, "the game never ended"
    s = table.state
    knowledge.update(s)
    for seat in range(config.players):
        assert_view_keeps_secrets(s, seat, knowledge.known[seat], since[seat])
    assert_cards_conserved(s)
    assert_plot_conserved(s)
    final = state_to_json(s)
    assert_json_round_trip(s, final, through_text=True)
    assert s.result["reason"] in ("solved", "unsolved", "all-eliminated", "round-limit")
    assert len(s.result["winners"]) == (1 if s.result["reason"] == "solved" else 0)

    # A session saved mid-game (as JSON text) and loaded again replays its actions from
    # (config, seed) and continues exactly as this game did: the same actions, the same final
    # state, log and RNG included. (The log is append-only, so the session saved after ``cut``
    # actions is this game's session cut there.) Since the resumed game's state is built only
    # by applying this game's actions to ``new_game(config, seed)``, this is also the check
    # that the whole game replays identically from (config, seed, actions).
    session = json.loads(json.dumps(table.to_session().to_json()))
    cut = 1 + r.below(len(table.log) - 1)
    saved = json.dumps({**session, "log": session["log"][:cut]})
    resumed = Table.from_session(Session.from_json(json.loads(saved)))
    assert len(resumed.log) == cut
    resumed.run_bots()
    assert resumed.log == table.log
    assert state_to_json(resumed.state) == final
    return table


def test_game_mix_covers_every_kind_of_table():
    """The sweep mixes both boards, 2 to 6 players, the centre pile on and off, and both bots."""
    mix = [game_setup(g) for g in range(500)]
    assert {c.board for c, _, _ in mix} == {"red-keep", "meereen"}
    assert {c.players for c, _, _ in mix} == {2, 3, 4, 5, 6}
    assert {c.centre_pile for c, _, _ in mix} == {False, True}
    assert {(c.board, c.players, c.centre_pile) for c, _, _ in mix} == {
        (b, p, v) for b in ("red-keep", "meereen") for p in range(2, 7) for v in (False, True)
    }
    kinds = {k for _, _, seats in mix for k in seats}
    assert kinds == {"random", "notes"}


@pytest.mark.parametrize("block", range(10))
def test_500_random_games_keep_every_invariant(block):
    """500 seeded games (10 blocks of 50), every invariant checked at every step."""
    reasons = set()
    for game_no in range(block * 50, block * 50 + 50):
        reasons.add(play_checked(game_no).result()["reason"])
    assert reasons  # every game ended with a reason


@pytest.mark.soak
@pytest.mark.parametrize("block", range(50))
def test_soak_5000_games(block):
    """5,000 more seeded games under the same checks (run with ``pytest -m soak``)."""
    for game_no in range(10_000 + block * 100, 10_000 + block * 100 + 100):
        play_checked(game_no)


def test_sweep_reaches_the_rare_rules():
    """The sweep is not all alike: it sees eliminations, solved games, centre looks, aside looks,
    secret passages, character powers, Master of Whisperers and Raven peeks."""
    seen: set[str] = set()
    how: set[str] = set()
    for game_no in range(0, 500, 7):
        config, seed, seats = game_setup(game_no)
        table = Table("clue", config, seed, seats)
        table.run_bots()
        for ev, _ in table.state.log.entries():
            seen.add(ev["t"])
            if ev["t"] == "move":
                how.add(ev["how"])
            if ev["t"] == "end":
                seen.add("end:" + ev["reason"])
    for t in ("eliminated", "end:solved", "centre_look", "aside", "power", "peek", "show", "no_show", "stay"):
        assert t in seen, t
    assert {"walk", "passage", "teleport", "rumor"} <= how


def test_board_deck_matches_data():
    """The conservation check compares against the board's own deck (23 and 21 cards)."""
    assert len(load_board("red-keep").cards) == 23
    assert len(load_board("meereen").cards) == 21
