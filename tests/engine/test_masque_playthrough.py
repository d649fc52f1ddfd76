"""Seeded playthroughs of Masque of the Red Death: the game's own invariants, checked at every step.

Each game is played through the :class:`~solvers.table.Table` by a mix of ``random`` and
``heuristic`` bots, with 4 to 7 nobles, the harder variant and the Personality cards on and
off, by the shared playout of ``engine_contract`` (which checks the engine contract: legal
actions only, refused illegal actions change nothing, JSON round trips, the log's audience
in every view, replay, save and load). Here:

* the Rumor cards are conserved (deck + hands + Evidence discard + Red Death cards = 42 Gossip
  + 12 Evidence), and so are every noble's Action cards and the Prince tiles;
* popularity trackers never share a space;
* no seat's view holds a Gossip card that seat could not know, another seat's Red Death look,
  Personality card, hidden Action choice before the reveal, or Movement tiles before midnight;
* a random illegal action in Masque's own words is refused too.

The default run plays 100 games; ``pytest -m soak`` plays the rest of the first 500 and 5,000 more.
"""

from __future__ import annotations

from collections import Counter

from engine_contract import GameChecks, LogReader, bot_playout, pick_illegal, sweep

from engine.core import Rng
from engine.masque import (
    CARD_NAMES,
    GOSSIP,
    NR,
    NS,
    ROOMS,
    MasqueConfig,
    MasqueState,
    apply,
    is_over,
    legal_actions,
    load_actions,
    new_game,
)
from engine.masque.game import CHOOSE, MOVE, OVER, PLAN
from solvers.table import Table

GOSSIP_NAMES = frozenset(CARD_NAMES[:GOSSIP])
ALL_RUMORS = Counter({**{c: 1 for c in range(GOSSIP)}, **{GOSSIP + k: 2 for k in range(NS)}})


# ----------------------------------------------------------------------------- game mix


def game_setup(game_no: int) -> tuple[MasqueConfig, int, list[str]]:
    """The config, seed and seats of game number ``game_no`` of the sweep."""
    r = Rng(1_000_003 * game_no + 29)
    players = 4 + game_no % 4
    harder = (game_no // 4) % 3 == 2
    personalities = (game_no // 12) % 4 != 3
    seats = [r.choice(("random", "random", "heuristic")) for _ in range(players)]
    return MasqueConfig(players=players, harder=harder, personalities=personalities), 7919 * game_no + 3, seats


# ----------------------------------------------------------------------------- invariants


def in_play(s: MasqueState, seat: int) -> str | None:
    """The Action card a noble has on the table (chosen, not yet back in hand or discarded)."""
    c = s.choices[seat]
    if c is None or s.phase in (MOVE, PLAN, OVER):
        return None
    if s.phase == CHOOSE:
        return c
    pending = s.order[s.idx:] if s.idx < len(s.order) else ()
    return c if seat in pending else None


def assert_cards_conserved(s: MasqueState) -> None:
    red = [k * NR + r for k in range(NS) for r in s.red[k]]
    every = Counter([*s.deck, *(c for h in s.rumors for c in h), *s.evidence, *red])
    assert every == ALL_RUMORS, "the Rumor cards no longer add up"
    for h in s.rumors:
        assert all(c < GOSSIP for c in h), "an Evidence card stayed in a hand"
    std = [c for c, card in load_actions().items() if not card.personality]
    for seat in range(s.config.players):
        mine = [*s.hands[seat], *s.discards[seat]]
        c = in_play(s, seat)
        if c is not None:
            mine.append(c)
        expected = [*std, *([s.personality[seat]] if s.personality[seat] else [])]
        assert Counter(mine) == Counter(expected), f"seat {seat}'s Action cards: {mine}"
    assert Counter((*s.route, *s.box)) == Counter({r: 2 for r in range(NR)})
    alive = [p % 40 for p, a in zip(s.pop, s.alive, strict=True) if a]
    assert len(alive) == len(set(alive)), "two trackers share a space"


def random_illegal(s: MasqueState, legal: list[tuple], r: Rng) -> tuple:
    """A random action that is not legal now, in Masque's words."""
    n = s.config.players
    makers = (
        lambda: ("place", r.choice(ROOMS)), lambda: ("play", r.choice(list(load_actions()))),
        lambda: ("tile", r.below(NS + 2) - 1, r.choice(("cw", "ccw", "stay", "up"))), lambda: ("ready",),
        lambda: ("target", r.below(n + 2) - 1), lambda: ("ask", r.below(n + 2) - 1, r.below(NS + 2) - 1),
        lambda: ("give", r.below(n), r.choice(CARD_NAMES)), lambda: ("look", r.below(4) - 1),
        lambda: ("peek", r.below(NS + 1), r.below(4)), lambda: ("waltz", r.choice((*ROOMS, "attic"))),
        lambda: ("return", r.choice(list(load_actions()))), lambda: ("done",), lambda: ("move", r.choice(ROOMS)),
        lambda: r.choice([("fly",), (), ("move", 1.0), ("tile", True, "cw"), ("look", True), ("ask", 1.0, 0)]),
    )
    return pick_illegal(makers, legal, r)


class Knowledge(LogReader):
    """The Gossip cards and Red Death looks each seat may know, from the true log by the rulebook
    (not from the engine's own idea of who sees what)."""

    def __init__(self, players: int) -> None:
        self.cards: list[set[str]] = [set() for _ in range(players)]  # Gossip card names
        self.looks: list[set[tuple[int, int]]] = [set() for _ in range(players)]
        self.revealed_round = False
        self.midnight = False

    def update(self, s: MasqueState) -> None:
        for ev in self.new_events(s):
            t = ev["t"]
            if t == "draw" and ev["card"] in GOSSIP_NAMES:
                self.cards[ev["seat"]].add(ev["card"])
            elif t == "ask" or t == "give":
                self.cards[ev["seat"]].add(ev["card"])
                self.cards[ev["target"]].add(ev["card"])
            elif t == "look":
                self.looks[ev["seat"]].add((ev["slot"], ev["index"]))
            elif t == "midnight":
                self.midnight = True


def _gossip_in(event: dict) -> set[str]:
    """Every Gossip card named anywhere in an event (values, lists, and dicts of lists)."""
    out: set[str] = set()
    stack = list(event.values())
    while stack:
        v = stack.pop()
        t = type(v)
        if t is str:
            if v in GOSSIP_NAMES:
                out.add(v)
        elif t is list:
            stack.extend(v)
        elif t is dict:
            stack.extend(v.values())
    return out


def assert_view_keeps_secrets(s: MasqueState, seat: int, know: Knowledge, v: dict) -> None:
    """Scan the new events and the private fields of ``seat``'s view."""
    known = know.cards[seat]
    assert set(v["rumors"]) <= known
    assert v["rumors"] == [CARD_NAMES[c] for c in s.rumors[seat]]
    for slot, rooms in v["notes"]["safe"].items():
        assert {f"{slot} {r}" for r in rooms} <= known
    assert {(k, i) for k, i, _room in v["notes"]["looked"]} == know.looks[seat]
    assert v["personality"] == s.personality[seat]
    assert v["hand"] == list(s.hands[seat])
    for key in ("red", "deck_cards", "box", "hands", "choices"):
        assert key not in v
    if not know.midnight:
        assert v["plans"] is None
        assert v["plan"] == list(s.plans[seat])
        assert v["result"] is None
    if s.phase == CHOOSE:
        assert v["revealed"] is None
        assert v["pending"]["mine"] == s.choices[seat]
    for a in v["legal"]:
        if a[0] == "give":
            assert a[2] in known
    for ev in v["events"]:
        leaked = _gossip_in(ev) - known
        if ev["t"] == "end":  # the Red Death cards are face up at the end, and never in a hand
            leaked -= {f"{k} {r}" for k, rooms in ev["red_death"].items() for r in rooms}
        assert not leaked, f"seat {seat} sees {sorted(leaked)} in {ev}"
        mine = ev.get("seat") == seat
        if ev["t"] == "look" and not mine:
            assert ev["room"] is None, f"seat {seat} sees another's Red Death look {ev}"
        if ev["t"] in ("chosen", "deal") and not mine:
            assert ev["card"] is None, f"seat {seat} sees a hidden card {ev}"
        if ev["t"] == "tile" and not mine:
            assert ev["slot"] is None and ev["dir"] is None, f"seat {seat} sees a hidden plan {ev}"
        if ev["t"] in ("ask", "give") and seat not in (ev["seat"], ev["target"]):
            assert ev["card"] is None


# ----------------------------------------------------------------------------- one game


class MasqueChecks(GameChecks):
    make_illegal = staticmethod(random_illegal)
    text_every = 60

    def __init__(self, players: int) -> None:
        self.know = Knowledge(players)

    def state(self, s: MasqueState, step: int) -> None:
        assert_cards_conserved(s)
        self.know.update(s)

    def seat_view(self, s: MasqueState, seat: int, view: dict) -> None:
        assert_view_keeps_secrets(s, seat, self.know, view)

    def end(self, s: MasqueState) -> None:
        res = s.result
        assert res["reason"] in ("most-popular-survivor", "all-dead")
        assert res["survivors"] == [t for t in range(s.config.players) if s.alive[t]]
        if res["survivors"]:
            assert res["winners"] == [max(res["survivors"], key=s.pop.__getitem__)]
        else:
            assert res["winners"] == []


def play_checked(game_no: int, check_every_step: bool = True) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step (or, lighter,
    only at the end: conservation, every seat's whole stream and view, JSON, replay, save and load)."""
    config, seed, seats = game_setup(game_no)
    return bot_playout("masque", config, seed, seats, MasqueChecks(config.players), every_step=check_every_step)


def test_game_mix_covers_every_kind_of_table():
    """The sweep mixes 4 to 7 nobles, both variants, Personality cards on and off, and both bots."""
    mix = [game_setup(g) for g in range(500)]
    assert {(c.players, c.harder, c.personalities) for c, _, _ in mix} == {
        (p, h, q) for p in range(4, 8) for h in (False, True) for q in (False, True)
    }
    assert {k for _, _, seats in mix for k in seats} == {"random", "heuristic"}


# Every game: it ends, legal actions only, cards conserved, every seat's whole stream scanned for
# leaks, JSON round trip, exact replay, save/load mid-game. Every 25th game of the sample (and every
# soak game) also: all of that at every step for every seat, and refused illegal actions.
test_sample_of_games_keeps_every_invariant, test_soak_games = sweep(
    lambda g: play_checked(g, check_every_step=g % 25 == 0), play_checked)


def test_sweep_reaches_the_rare_rules():
    """The sweep is not all alike: it sees Evidence looks, asks that match and that do not, takes,
    gifts, skipped effects, Encore returns, Waltzes, second laps, deaths and both endings."""
    seen: set[str] = set()
    for game_no in range(0, 500, 5):  # straight on the engine, uniformly random legal actions
        config, seed, _seats = game_setup(game_no)
        s = new_game(config, seed)
        r = Rng(seed)
        while not is_over(s):
            s = apply(s, r.choice(legal_actions(s)))
        for ev, _ in s.log.entries():
            t = ev["t"]
            seen.add(t)
            if t == "ask":
                seen.add(f"ask:{ev['how']}:{ev['matched']}")
            elif t == "end":
                seen.add("end:" + ev["reason"])
            elif t == "move":
                seen.add("move:" + ev["how"])
            elif t == "look":
                seen.add("look:" + ev["why"])
            elif t == "pop" and ev["to"] > 40:
                seen.add("lap2")
    for t in ("look:evidence", "look:premonition", "ask:look:True", "ask:look:False", "ask:take:True",
              "ask:take:False", "give", "fizzle", "return", "move:waltz", "target", "red_death",
              "end:most-popular-survivor", "end:all-dead", "tile", "ready"):
        assert t in seen, t
