"""Seeded playthroughs of Clue: Game of Thrones: the game's own invariants, checked at every step.

Each game is played through the :class:`~solvers.table.Table` by a mix of ``random`` and
``notes`` bots, on both boards, with 2 to 6 players and the centre-pile variant on and off,
by the shared playout of ``engine_contract`` (which checks the engine contract at every step:
legal actions only, refused illegal actions change nothing, JSON round trips, the log's
audience in every view, replay, save and load). Here, at every step:

* the Rumor cards are conserved (envelope + hands + face up + centre + aside = the deck);
* the Plot cards are conserved (deck + hands + discard + White Walkers beside the board = 21);
* no seat's view holds a card that seat could not know (another hand, the envelope, a card
  shown between others, someone else's peek, centre look or aside look), by the rulebook;
* a random illegal action in Clue's own words is refused too.

The default run plays 100 games; ``pytest -m soak`` plays the rest of the first 500 and 5,000 more.
"""

from __future__ import annotations

from engine_contract import GameChecks, LogReader, bot_playout, kinds_seen, pick_illegal, sweep

from engine.clue.board import load_board, load_rules
from engine.clue.game import ClueConfig, ClueState, is_over
from engine.core import Rng
from solvers.table import Table

PLOT_TOTAL = 21
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


def random_illegal(s: ClueState, legal: list[tuple], r: Rng) -> tuple:
    """A random action that is not legal now, in Clue's words."""
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
    return pick_illegal(makers, legal, r)


class Knowledge(LogReader):
    """What each seat may legitimately know, worked out from the true log by the rulebook,
    without trusting the engine's own idea of who sees what."""

    def __init__(self, players: int) -> None:
        self.known: list[set[str]] = [set() for _ in range(players)]

    def update(self, s: ClueState) -> None:
        for ev in self.new_events(s):
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


def assert_view_keeps_secrets(s: ClueState, seat: int, known: set[str], v: dict) -> None:
    """Scan the private fields and the new events of ``seat``'s view for any Rumor card the seat
    cannot know."""
    cards = frozenset(s.board.cards)
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


# ----------------------------------------------------------------------------- one game


class ClueChecks(GameChecks):
    make_illegal = staticmethod(random_illegal)
    def __init__(self, players: int) -> None:
        self.knowledge = Knowledge(players)

    def state(self, s: ClueState, step: int) -> None:
        assert_cards_conserved(s)
        assert_plot_conserved(s)
        self.knowledge.update(s)

    def seat_view(self, s: ClueState, seat: int, view: dict) -> None:
        assert_view_keeps_secrets(s, seat, self.knowledge.known[seat], view)

    def end(self, s: ClueState) -> None:
        assert s.result["reason"] in ("solved", "unsolved", "all-eliminated", "round-limit")
        assert len(s.result["winners"]) == (1 if s.result["reason"] == "solved" else 0)


def play_checked(game_no: int) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step."""
    config, seed, seats = game_setup(game_no)
    return bot_playout("clue", config, seed, seats, ClueChecks(config.players))


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


test_sample_of_games_keeps_every_invariant, test_soak_games = sweep(play_checked)


def test_sweep_reaches_the_rare_rules():
    """The sweep is not all alike: it sees eliminations, solved games, centre looks, aside looks,
    secret passages, character powers, Master of Whisperers and Raven peeks."""
    seen = kinds_seen("clue", game_setup, range(0, 500, 7), move="how", end="reason")
    how = {k.removeprefix("move:") for k in seen if k.startswith("move:")}
    for t in ("eliminated", "end:solved", "centre_look", "aside", "power", "peek", "show", "no_show", "stay"):
        assert t in seen, t
    assert {"walk", "passage", "teleport", "rumor"} <= how


def test_board_deck_matches_data():
    """The conservation check compares against the board's own deck (23 and 21 cards)."""
    assert len(load_board("red-keep").cards) == 23
    assert len(load_board("meereen").cards) == 21
