"""Seeded playthroughs of Mascarade: the game's own invariants, checked at every step.

Games are played through the :class:`~solvers.table.Table` with 4 to 12 players, the rule
options on and off, the per-count sets and custom sets with every mask, by ``random`` bots
(and an ``honest`` bot in some games), by the shared playout of ``engine_contract`` (which
checks the engine contract at every step: legal actions only, refused illegal actions change
nothing, JSON round trips, the log's audience in every view, replay, save and load). Here:

* the cards are conserved (the places hold exactly the game's set);
* the coins are conserved (players + bank + courthouse never change), never negative, and
  only move with a power, a fine or the Guru's payment (whose event carries the new coins);
* no seat's view leaks a card: every secret field (a swap's outcome, a look, a Spy look, a
  Princess showing) is filled only for the seats the rules let see it, no other field names a
  mask except public statements, and the view's ``known`` layout equals what the seat may know
  by the rules (worked out here from the true log) and is true;
* a random illegal action in Mascarade's own words is refused too.

The default run plays 100 games; ``pytest -m soak`` plays the rest of the first 500 and 5,000 more.
"""

from __future__ import annotations

from engine_contract import GameChecks, LogReader, bot_playout, kinds_seen, sweep

from engine.core import Rng
from engine.mascarade import Config, load_masks, load_rules, table_count
from engine.mascarade.game import MascaradeState
from solvers.table import Table

MASKS = frozenset(load_masks())
# (event type, field) pairs where a mask name is a public statement, not a card's place
PUBLIC_FIELDS = {("setup", "masks"), ("opening", "cards"), ("announce", "mask"), ("claim", "mask"),
                 ("pass", "mask"), ("uncontested", "mask"), ("reveal", "mask"), ("reveal", "cards"),
                 ("name", "mask"), ("power", "mask"), ("choose", "mask"), ("verdict", "named"), ("swap", "by"),
                 ("reveal", "why"), ("end", "reason")}
SECRET = {"swap": ("swapped",), "look": ("card",), "spy_look": ("mine", "theirs"), "shown": ("card",)}
COIN_EVENTS = ("power", "fine", "verdict")


# ----------------------------------------------------------------------------- game mix


def custom_set(players: int, r: Rng) -> tuple[str, ...]:
    """A random legal custom set: the Judge, maybe the Peasant pair, then other masks."""
    want = players + table_count(players)
    out = ["judge"]
    if want >= 4 and r.below(2):
        out += ["peasant", "peasant"]
    rest = [m for m in load_masks() if m not in ("judge", "peasant")]
    r.shuffle(rest)
    out += rest[: want - len(out)]
    return tuple(out)


def game_setup(game_no: int) -> tuple[Config, int, list[str]]:
    """The config, seed and seats of game number ``game_no`` of the sweep."""
    r = Rng(1_000_003 * game_no + 29)
    players = 4 + game_no % 9
    masks = custom_set(players, r) if game_no % 3 == 1 else ()
    config = Config(players=players, masks=masks, opening=game_no % 7 != 3,
                    revealed_rule=("no-announce", "must-swap")[(game_no // 9) % 2],
                    spy_table=(game_no // 2) % 2 == 0, fool_table=(game_no // 4) % 2 == 0)
    seats = ["random"] * players
    if game_no % 10 == 5:
        seats[r.below(players)] = "honest"
    return config, 7919 * game_no + 3, seats


# ----------------------------------------------------------------------------- invariants


def total_coins(s: MascaradeState) -> int:
    return sum(s.coins) + s.bank + s.court


def assert_cards_conserved(s: MascaradeState) -> None:
    assert sorted(s.cards) == sorted(s.config.mask_set()), "the cards no longer add up to the set"


class Knowledge(LogReader):
    """What each seat may know of every place, worked out from the true log by the rules,
    without trusting the engine's own idea of who sees what."""

    def __init__(self, s: MascaradeState) -> None:
        n = s.config.players
        self.n = n
        self.known: list[list[str | None]] = [[None] * len(s.cards) for _ in range(n)]

    def update(self, s: MascaradeState) -> None:
        k = self.known
        for ev in self.new_events(s):
            t = ev["t"]
            if t == "opening":
                for row in k:
                    row[:] = list(ev["cards"])
            elif t == "swap":
                a, b, actor = ev["a"], ev["b"], ev["seat"]
                for i, row in enumerate(k):
                    if i == actor:
                        if ev["swapped"]:
                            row[a], row[b] = row[b], row[a]
                    else:
                        row[a] = row[b] = None
            elif t == "look":
                k[ev["seat"]][ev["seat"]] = ev["card"]
            elif t == "spy_look":
                k[ev["seat"]][ev["seat"]] = ev["mine"]
                k[ev["seat"]][ev["target"]] = ev["theirs"]
            elif t == "shown":
                for i, row in enumerate(k):
                    if i != ev["target"]:
                        row[ev["target"]] = ev["card"]
            elif t == "reveal":
                for p, m in ev["cards"]:
                    for row in k:
                        row[p] = m
            elif t == "power" and ev["mask"] == "puppeteer" and "a" in ev:
                a, b = ev["a"], ev["b"]
                for row in k:
                    row[a], row[b] = row[b], row[a]


def _masks_in(value: object) -> set[str]:
    t = type(value)
    if t is str:
        return {value} & MASKS
    if t is dict:
        value = list(value.values())
    elif t is not list:
        return set()
    out: set[str] = set()
    for v in value:
        if type(v) is str:
            if v in MASKS:
                out.add(v)
        elif type(v) in (list, dict):
            out |= _masks_in(v)
    return out


def entitled(ev: dict, seat: int) -> bool:
    """May ``seat`` see the secret fields of ``ev``? (The rules, not the engine's seat lists.)"""
    t = ev["t"]
    if t in ("swap", "look", "spy_look"):
        return ev["seat"] == seat
    if t == "shown":
        return ev["target"] != seat
    return True


def assert_view_keeps_secrets(s: MascaradeState, seat: int, known: list[str | None], v: dict) -> None:
    """Scan the new events and the private fields of ``seat``'s view."""
    assert v["known"] == known, f"seat {seat} knows {v['known']}, the rules say {known}"
    for p, m in enumerate(v["known"]):
        assert m is None or s.cards[p] == m, "a known card is wrong"
    if v["phase"] != "over":
        assert v["result"] is None
        assert v["final_cards"] is None, "the cards are turned face up only at the end"
    else:
        assert v["final_cards"] == list(s.cards)
    pend = v["pending"] or {}
    if "mine" in pend or "theirs" in pend:
        assert pend["kind"] == "spy" and pend["seat"] == seat
    for key in ("cards", "deal", "hands"):
        assert key not in v
    for ev in v["events"]:
        t = ev["t"]
        secret = SECRET.get(t, ())
        for f in secret:
            if entitled(ev, seat):
                assert ev[f] is not None, f"seat {seat} was not told its own {t}.{f}"
            else:
                assert ev[f] is None, f"seat {seat} sees {t}.{f} = {ev[f]!r}"
        for f, value in ev.items():
            kind = type(value)
            if (kind is str or kind is list) and f not in secret and (t, f) not in PUBLIC_FIELDS:
                assert not _masks_in(value), f"seat {seat} sees a mask in {t}.{f}: {ev}"


def assert_coins_move_by_the_rules(before: MascaradeState, after: MascaradeState) -> None:
    assert total_coins(after) == total_coins(before), "coins appeared or vanished"
    assert min(after.coins) >= 0 and after.court >= 0 and after.bank >= 0
    new = [ev for ev, _ in after.log.entries(len(before.log))]
    moved = [ev for ev in new if ev["t"] in COIN_EVENTS]
    state = (list(after.coins), after.court, after.bank)
    if not moved:
        assert state == (list(before.coins), before.court, before.bank), f"coins moved without a rule: {new}"
    else:
        last = moved[-1]
        assert (last["coins"], last["court"], last["bank"]) == state


def random_illegal(s: MascaradeState, legal: list[tuple], r: Rng) -> tuple:
    n = len(s.cards)
    makers = (
        lambda: ("swap", r.below(n + 2) - 1, r.choice((True, False, 1, None))),
        lambda: ("look",), lambda: ("claim",), lambda: ("pass",), lambda: ("spy_swap", r.choice((True, 0))),
        lambda: ("announce", r.choice(sorted(MASKS))), lambda: ("name", r.choice(sorted(MASKS))),
        lambda: ("power", r.choice(sorted(MASKS)), r.below(n + 1)),
        lambda: ("power", "fool", r.below(n), r.below(n), True),
        lambda: r.choice([(), ("fly",), ("swap",), ("look", 1), ("announce",), ("swap", 1.0, True)]),
    )
    while True:
        a = r.choice(makers)()
        if not any(len(a) == len(x) and all(type(p) is type(q) and p == q for p, q in zip(a, x, strict=True))
                   for x in legal):
            return a


# ----------------------------------------------------------------------------- one game


class MascaradeChecks(GameChecks):
    make_illegal = staticmethod(random_illegal)
    views = "rotate"  # the seat to act and one other each step (every event is still read by every seat)

    def start(self, s: MascaradeState) -> None:
        self.knowledge = Knowledge(s)
        self.total = total_coins(s)
        assert self.total == s.config.players * load_rules().coins + load_rules().bank

    def state(self, s: MascaradeState, step: int) -> None:
        assert_cards_conserved(s)
        self.knowledge.update(s)

    def seat_view(self, s: MascaradeState, seat: int, view: dict) -> None:
        assert_view_keeps_secrets(s, seat, self.knowledge.known[seat], view)

    def moved(self, before: MascaradeState, after: MascaradeState) -> None:
        assert_coins_move_by_the_rules(before, after)

    def end(self, s: MascaradeState) -> None:
        assert total_coins(s) == self.total
        res = s.result
        assert res["reason"] in ("coins", "bankrupt", "cheater", "turn-limit")
        assert res["winners"] and all(0 <= w < s.config.players for w in res["winners"])


def play_checked(game_no: int) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step."""
    config, seed, seats = game_setup(game_no)
    table = bot_playout("mascarade", config, seed, seats, MascaradeChecks())
    for bot in table.bots.values():
        assert getattr(bot, "broken", None) is None
    return table


def test_game_mix_covers_every_kind_of_table():
    """The sweep mixes 4 to 12 players, the options on and off, custom sets and both bots."""
    mix = [game_setup(g) for g in range(500)]
    assert {c.players for c, _, _ in mix} == set(range(4, 13))
    assert {c.opening for c, _, _ in mix} == {True, False}
    assert {c.revealed_rule for c, _, _ in mix} == {"no-announce", "must-swap"}
    assert {c.spy_table for c, _, _ in mix} == {True, False}
    assert {c.fool_table for c, _, _ in mix} == {True, False}
    used = {m for c, _, _ in mix for m in c.mask_set()}
    assert used == set(MASKS)
    assert {k for _, _, seats in mix for k in seats} == {"random", "honest"}


test_sample_of_games_keeps_every_invariant, test_soak_games = sweep(play_checked)


def test_sweep_reaches_every_power_and_ending():
    """The sweep is not all alike: every mask's power is used, and the game ends every way."""
    kinds = kinds_seen("mascarade", game_setup, range(1, 500, 2), power="mask", end="reason")
    powers = {k.removeprefix("power:") for k in kinds if k.startswith("power:")}
    endings = {k.removeprefix("end:") for k in kinds if k.startswith("end:")}
    assert powers == set(MASKS)
    assert {"coins", "bankrupt", "cheater"} <= endings
    assert {"reveal", "fine", "shown", "spy_look", "verdict", "uncontested", "claim", "look"} <= kinds
