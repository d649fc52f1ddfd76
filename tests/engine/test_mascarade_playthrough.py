"""Seeded random playthroughs of Mascarade, checking invariants at every step.

Games are played through the :class:`~solvers.table.Table` with 4 to 12 players, the rule
options on and off, the per-count sets and custom sets with every mask, by ``random`` bots
(and an ``honest`` bot in some games). At every step:

* the bot's action is legal, and a random illegal action is refused with
  :class:`IllegalAction`, leaving the state exactly as it was;
* the cards are conserved (the places hold exactly the game's set);
* the coins are conserved (players + bank + courthouse never change), never negative, and
  only move with a power, a fine or the Guru's payment (whose event carries the new coins);
* ``state_to_json -> state_from_json`` gives the same JSON and the same legal actions;
* no seat's view leaks a card: every secret field (a swap's outcome, a look, a Spy look, a
  Princess showing) is filled only for the seats the rules let see it, no other field names a
  mask except public statements, and the view's ``known`` layout equals what the seat may know
  by the rules (worked out here from the true log) and is true.

Every game ends; it replays identically from ``(config, seed, actions)``; and a session saved
mid-game and loaded again continues exactly as the uninterrupted game did.

The default run plays 500 games; ``pytest -m soak`` plays 5,000 more.
"""

from __future__ import annotations

import json

import pytest

from engine.core import EventLog, IllegalAction, Rng
from engine.mascarade import (
    Config,
    apply,
    legal_actions,
    load_masks,
    load_rules,
    state_from_json,
    state_to_json,
    table_count,
    view,
)
from engine.mascarade.game import MascaradeState
from engine.session import Session
from solvers.table import Table

MAX_STEPS = 20_000
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


class Knowledge:
    """What each seat may know of every place, worked out from the true log by the rules,
    without trusting the engine's own idea of who sees what."""

    def __init__(self, s: MascaradeState) -> None:
        n = s.config.players
        self.n = n
        self.known: list[list[str | None]] = [[None] * len(s.cards) for _ in range(n)]
        self.read = 0

    def update(self, s: MascaradeState) -> None:
        entries = s.log.entries(self.read)
        self.read += len(entries)
        k = self.known
        for ev, _seats in entries:
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


def assert_view_keeps_secrets(s: MascaradeState, seat: int, known: list[str | None], since: int) -> int:
    """Scan the new events and the private fields of ``seat``'s view; return the next ``since``."""
    v = view(s, seat, since)
    if since == 0 or s.phase == "over":
        json.dumps(v)
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
    return v["events"][-1]["n"] + 1 if v["events"] else since


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


def light_json(s: MascaradeState, since: int) -> dict:
    c = s.copy()
    c.log = EventLog(list(s.log.entries(since)))
    return state_to_json(c)


def assert_json_round_trip(s: MascaradeState, data: dict, through_text: bool = False) -> None:
    if through_text:
        data = json.loads(json.dumps(data))
    back = state_from_json(data)
    assert state_to_json(back) == data
    assert legal_actions(back) == legal_actions(s)


def fingerprint(s: MascaradeState) -> tuple:
    fields = tuple(getattr(s, k) for k in MascaradeState.__slots__ if k not in ("rng", "log", "_legal"))
    return fields, s.rng.state, len(s.log)


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


def play_checked(game_no: int) -> Table:
    """Play game ``game_no`` through a Table, checking every invariant at every step."""
    config, seed, seats = game_setup(game_no)
    table = Table("mascarade", config, seed, seats)
    r = Rng(seed ^ 0x5DEECE66D)
    knowledge = Knowledge(table.state)
    n = config.players
    since = [0] * n
    steps = 0
    fresh = 0
    total = total_coins(table.state)
    assert total == n * load_rules().coins + load_rules().bank
    while not table.is_over():
        s = table.state
        assert_cards_conserved(s)
        if steps % 3 == 0:  # the log is append-only: each round trip covers the entries since the last
            assert_json_round_trip(s, light_json(s, max(0, fresh - 1)))
            fresh = len(s.log)
        knowledge.update(s)
        actor = table.to_act()
        for seat in range(n):  # the seat to act every step, the others every third (every event is scanned)
            if seat == actor or steps % 3 == 0:
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
        assert_coins_move_by_the_rules(s, table.state)
        steps += 1
        assert steps < MAX_STEPS, "the game never ended"
    s = table.state
    knowledge.update(s)
    for seat in range(n):
        assert_view_keeps_secrets(s, seat, knowledge.known[seat], since[seat])
    for bot in table.bots.values():
        assert getattr(bot, "broken", None) is None
    assert_cards_conserved(s)
    assert total_coins(s) == total
    final = state_to_json(s)
    assert_json_round_trip(s, final, through_text=True)
    res = s.result
    assert res["reason"] in ("coins", "bankrupt", "cheater", "turn-limit")
    assert res["winners"] and all(0 <= w < n for w in res["winners"])

    session = table.to_session()
    replayed = Session.from_json(json.loads(json.dumps(session.to_json()))).replay()
    assert state_to_json(replayed) == final

    cut = 1 + r.below(max(1, len(table.log) - 1))
    mid = Session.from_json(json.loads(json.dumps(session.to_json())))
    mid.log = mid.log[:cut]
    resumed = Table.from_session(Session.from_json(json.loads(json.dumps(mid.to_json()))))
    assert len(resumed.log) == cut
    resumed.run_bots()
    assert resumed.log == table.log
    assert state_to_json(resumed.state) == final
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


@pytest.mark.parametrize("block", range(10))
def test_500_random_games_keep_every_invariant(block):
    """500 seeded games (10 blocks of 50), every invariant checked at every step."""
    for game_no in range(block * 50, block * 50 + 50):
        play_checked(game_no)


@pytest.mark.soak
@pytest.mark.parametrize("block", range(50))
def test_soak_5000_games(block):
    """5,000 more seeded games under the same checks (run with ``pytest -m soak``)."""
    for game_no in range(10_000 + block * 100, 10_000 + block * 100 + 100):
        play_checked(game_no)


def test_sweep_reaches_every_power_and_ending():
    """The sweep is not all alike: every mask's power is used, and the game ends every way."""
    powers: set[str] = set()
    endings: set[str] = set()
    kinds: set[str] = set()
    for game_no in range(1, 500, 2):
        config, seed, seats = game_setup(game_no)
        table = Table("mascarade", config, seed, seats)
        table.run_bots()
        for ev, _ in table.state.log.entries():
            kinds.add(ev["t"])
            if ev["t"] == "power":
                powers.add(ev["mask"])
            if ev["t"] == "end":
                endings.add(ev["reason"])
    assert powers == set(MASKS)
    assert {"coins", "bankrupt", "cheater"} <= endings
    assert {"reveal", "fine", "shown", "spy_look", "verdict", "uncontested", "claim", "look"} <= kinds
