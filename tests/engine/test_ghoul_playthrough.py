"""Seeded playthroughs of Tokyo Ghoul: Bloody Masquerade: the game's own invariants, checked at every step.

Each game is played through the :class:`~solvers.table.Table` by a mix of ``random`` and
``heuristic`` bots, with 4 to 8 players, both setups where the table has two, and every
combination of the Mask and Support variants, by the shared playout of ``engine_contract``
(which checks the engine contract: legal actions only, refused illegal actions change nothing,
JSON round trips, the log's audience in every view, replay, save and load). Here, every step:

* a seat is asked to decide only between two choices or more (forced moves play themselves);
* the Clue cards are conserved (every card in play is in exactly one holding, 3 or 4 each, the
  face-up card is held, and a face-up card is a Mask whenever its owner holds one);
* the Suspicion markers are conserved (boards + Pool = the setup's markers);
* no seat's view holds what that seat could not know (one seat per step, in turn, besides the
  seat to act): another hand, a character, a card shown between others, an exchange it was not
  part of, a Support token it did not see, a hidden commitment of the preliminary phase;
* a random illegal action in the game's own words is refused too.

The default run plays 100 games; ``pytest -m soak`` plays the rest of the first 500 and 5,000 more.
"""

from __future__ import annotations

from engine_contract import GameChecks, LogReader, bot_playout, kinds_seen, pick_illegal, sweep

from engine.core import Rng
from engine.ghoul.data import MASK, SUITS, load_data
from engine.ghoul.game import (
    OVER,
    PRELIM_GIVE,
    PRELIM_SHOW,
    REFILL,
    SETUP_FACE,
    GhoulConfig,
    GhoulState,
    _publicly_forced,
    is_over,
    legal_actions,
    to_act,
)
from solvers.table import Table

DATA = load_data()
# Fields of private events that only the seats they are addressed to may see (the rulebook's
# secrets, listed here independently of the engine's own redaction table).
SECRET = {
    "identity": ("character",),
    "hand": ("cards",),
    "support_token": ("token",),
    "face_chosen": ("card",),
    "show_chosen": ("cards",),
    "give_chosen": ("card",),
    "prelim_shown": ("cards",),
    "prelim_given": ("card",),
    "shown": ("cards",),
    "exchange": ("done", "gave", "took", "gave_from", "took_from"),
    "support_look": ("token",),
}


# ----------------------------------------------------------------------------- game mix


def game_setup(game_no: int) -> tuple[GhoulConfig, int, list[str]]:
    """The config, seed and seats of game number ``game_no`` of the sweep."""
    r = Rng(1_000_003 * game_no + 29)
    players = 4 + game_no % 5
    mask = (game_no // 5) % 2 == 1
    support = (game_no // 10) % 2 == 1
    setup = "b" if players in (6, 7) and (game_no // 20) % 2 == 1 else "a"
    seats = [r.choice(("random", "heuristic")) for _ in range(players)]
    return GhoulConfig(players=players, mask=mask, support=support, setup=setup), 7919 * game_no + 3, seats


# ----------------------------------------------------------------------------- invariants


def assert_cards_conserved(s: GhoulState) -> None:
    n = s.config.players
    deck = DATA.deck(n, s.config.mask)
    assert tuple(sum(h[i] for h in s.hands) for i in range(5)) == deck, "the Clue cards no longer add up"
    size = 4 if s.config.mask else 3
    for i, h in enumerate(s.hands):
        assert sum(h) == size and min(h) >= 0
        u = s.up[i]
        if not s.config.mask:
            assert u == -1
        elif u >= 0:
            assert h[u] >= 1, "a face-up card the player does not hold"
            if h[MASK]:
                assert u == MASK, "a Mask in hand but another card face up"
        else:
            assert s.phase in (SETUP_FACE, REFILL), "an empty board outside the setup or a refill"


def assert_markers_conserved(s: GhoulState) -> None:
    total = DATA.setup(s.config.players, s.config.setup).markers
    assert min(s.markers) >= 0 and s.pool >= 0
    assert sum(s.markers) + s.pool == total, "Suspicion markers appeared or vanished"


def random_illegal(s: GhoulState, legal: list[tuple], r: Rng) -> tuple:
    n = s.config.players
    makers = (
        lambda: ("move", r.below(10) - 1),
        lambda: ("special", r.below(n + 1)),
        lambda: ("attack", r.below(n + 1)),
        lambda: ("interrogate", r.below(n + 1)),
        lambda: ("show", r.choice(SUITS), r.choice(SUITS)),
        lambda: ("give", r.choice(SUITS)),
        lambda: ("reveal", r.choice(SUITS)),
        lambda: ("remove", r.below(n + 1)),
        lambda: ("add", r.below(n + 1)),
        lambda: ("look", r.below(n + 1)),
        lambda: ("swap", r.below(n + 1)),
        lambda: ("pass",),
        lambda: ("exchange", r.choice(SUITS), r.choice(SUITS), "hand", "board"),
        lambda: r.choice([("fly",), ("move", 1.0), ("move", True), (), ("show",), ("give", 3)]),
    )
    return pick_illegal(makers, legal, r)


class Knowledge(LogReader):
    """What each seat may know of the Support tokens, worked out from the true log by the rules."""

    def __init__(self, players: int) -> None:
        self.token: list[list[str | None]] = [[None] * players for _ in range(players)]

    def update(self, s: GhoulState) -> None:
        for ev in self.new_events(s):
            t = ev["t"]
            if t == "support_token":
                self.token[ev["seat"]][ev["seat"]] = ev["token"]
            elif t == "support_look":
                self.token[ev["seat"]][ev["target"]] = ev["token"]
            elif t == "support_swap":
                a, b = ev["seat"], ev["target"]
                for row in self.token:
                    row[a], row[b] = row[b], row[a]


def assert_view_keeps_secrets(s: GhoulState, seat: int, know: Knowledge, v: dict) -> None:
    """Scan the new events and the private fields of ``seat``'s view."""
    for key in ("hands", "chars", "tk", "sknown", "pending_choices"):
        assert key not in v
    u = s.up[seat]
    hidden = list(s.hands[seat])
    if u >= 0:
        hidden[u] -= 1
    assert v["hand"] == [SUITS[x] for x in range(5) for _ in range(hidden[x])]
    assert v["character"]["id"] == s.chars[seat]
    assert (v["legal"] != []) == (to_act(s) == seat)
    if not is_over(s):
        assert v["result"] is None and v["dead"] is None
        if v["support"] is not None:
            assert v["support"]["known"] == know.token[seat]
        if v["interrogation"] is not None and seat not in (s.turn, s.target):
            assert v["interrogation"]["shown"] is None
        if v["prelim"] is not None:
            n = s.config.players
            if s.phase == PRELIM_SHOW:
                assert v["prelim"]["shown_to_me"] is None
            if s.phase in (PRELIM_SHOW, PRELIM_GIVE):
                assert v["prelim"]["received"] is None
            mine = v["prelim"]["my_choice"]
            assert mine is None or s.pending[seat] is not None
            assert v["prelim"]["my_show"] is None or s.prelim_show[seat] is not None
            assert n >= 4
    entries = s.log.entries(len(s.log) - len(v["events"]))
    for ev, (raw, seats) in zip(v["events"], entries, strict=True):
        assert ev["t"] == raw["t"]
        if seats is not None and seat not in seats:
            for f in SECRET.get(ev["t"], ()):
                assert ev[f] is None, f"seat {seat} sees {f} of {raw}"
        if ev["t"] == "identity" and ev["seat"] != seat:
            assert ev["character"] is None


# ----------------------------------------------------------------------------- one game


class GhoulChecks(GameChecks):
    make_illegal = staticmethod(random_illegal)
    views = "rotate"  # the seat to act and one other each step (every event is still read by every seat)
    text_every = 25

    def __init__(self, players: int) -> None:
        self.know = Knowledge(players)

    def state(self, s: GhoulState, step: int) -> None:
        assert_cards_conserved(s)
        assert_markers_conserved(s)
        if not is_over(s):
            legal = legal_actions(s)
            # A single option is asked only when its being forced is not public (issue 20).
            assert len(legal) >= 2 or (len(legal) == 1 and not _publicly_forced(s)), "a forced choice was asked"
        self.know.update(s)

    def seat_view(self, s: GhoulState, seat: int, view: dict) -> None:
        assert_view_keeps_secrets(s, seat, self.know, view)

    def end(self, s: GhoulState) -> None:
        res = s.result
        assert s.phase == OVER
        assert res["reason"] in ("pool", "attack", "special", "defence", "instant", "round-limit")
        if res["reason"] == "instant":
            assert len(res["winners"]) == 1
        if res["reason"] in ("attack", "special", "defence"):
            assert res["victim"] is not None and res["killer"] is not None


def play_checked(game_no: int) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step."""
    config, seed, seats = game_setup(game_no)
    return bot_playout("ghoul", config, seed, seats, GhoulChecks(config.players))


def test_game_mix_covers_every_kind_of_table():
    """The sweep mixes 4 to 8 players, both variants alone and together, both setups, both bots."""
    mix = [game_setup(g) for g in range(500)]
    assert {(c.players, c.mask, c.support) for c, _, _ in mix} == {
        (p, m, sp) for p in range(4, 9) for m in (False, True) for sp in (False, True)
    }
    assert {(c.players, c.setup) for c, _, _ in mix} >= {(6, "a"), (6, "b"), (7, "a"), (7, "b")}
    assert {k for _, _, seats in mix for k in seats} == {"random", "heuristic"}


test_sample_of_games_keeps_every_invariant, test_soak_games = sweep(play_checked)


def test_sweep_reaches_every_ending_and_the_rare_rules():
    """The sweep is not all alike: every way a game ends, interrogations of 3 cards, exchanges of
    face-up cards, refills, Support looks and swaps, Cover Up Tracks and the special action."""
    seen = kinds_seen("ghoul", game_setup, range(0, 500, 2), end="reason", face_up="why", interrogate="count")
    for t in (
        "end:pool",
        "end:attack",
        "end:special",
        "end:defence",
        "end:instant",
        "interrogate:3",
        "face_up:refill",
        "face_up:mask",
        "face_up:left",
        "support_look",
        "support_swap",
        "cover_remove",
        "cover_add",
        "exchange",
    ):
        assert t in seen, t
