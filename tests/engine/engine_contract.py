"""The engine contract (DESIGN.md, ``engine.registry.GameSpec``) as checks a playout runs at every state.

Every game keeps the same promises, so one harness checks them all, in the manner of OpenSpiel's
random-simulation test. A playout (random legal actions straight on the engine, or bots at a
:class:`~solvers.table.Table`) checks at every state:

* the seat to act is ``None`` exactly when the game is over, and then there is a result;
* the legal actions are distinct, survive ``action_to_json -> action_from_json``, and are what
  the acting seat's view offers (every other seat is offered nothing);
* ``copy()`` is the same state, and acting on the copy leaves the original untouched (so is
  acting on the original: ``apply`` returns a new state);
* ``state_to_json -> state_from_json`` gives the same JSON, the same legal actions and the same
  seat to act (through JSON text at times, and always at the end);
* a random illegal action (one legal at another moment, a legal one with an argument changed,
  or junk) raises :class:`IllegalAction` with a one-line sentence, and changes nothing;
* every seat's view is plain JSON data and keeps the log's audience: a public event, or one
  addressed to the seat, is told whole; any other seat is told the event with its secret
  fields blanked (``None``), the same for every outsider, never a value the event did not hold.

At the end, the game replays to the same state from ``(config, seed, actions)``, through a saved
session too, and a session saved mid-game and loaded again continues to the same end.

A game's own invariants (cards, coins, markers conserved; what a seat may know by the rules)
are :class:`GameChecks` hooks that its playthrough file passes to the same playouts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import pytest

from engine.core import EventLog, IllegalAction, Rng
from engine.registry import GameSpec, get_game
from engine.session import Session
from solvers.table import Table

MAX_STEPS = 50_000


class GameChecks:
    """A game's own invariants, run by the shared playouts beside the engine contract.

    ``views`` says which seats' views the contract scans at a step: ``"all"`` every step, or
    ``"rotate"``: the seat to act and one other seat in turn (every event is still scanned for
    every seat, since each seat's stream catches up from where it was last read).
    """

    views = "all"
    text_every = 50  # a full round trip through JSON text every this many steps

    def start(self, state: Any) -> None:
        """The state the game was dealt."""

    def state(self, state: Any, step: int) -> None:
        """Every state before an action, and the final one."""

    def moved(self, before: Any, after: Any) -> None:
        """Every action: the state before and after it."""

    def seat_view(self, state: Any, seat: int, view: dict) -> None:
        """Every view the contract scans (its ``events`` are the seat's new events only, from
        log index ``len(state.log) - len(view["events"])``)."""

    # ``make_illegal(state, legal, rng)``: an illegal action in the game's own words (the
    # contract also makes its own); set it with ``staticmethod``.
    make_illegal: Callable[[Any, list[tuple], Rng], tuple] | None = None

    def illegal(self, state: Any, legal: list[tuple], rng: Rng) -> tuple | None:
        return self.make_illegal(state, legal, rng) if self.make_illegal else None

    def end(self, state: Any) -> None:
        """The final state."""


NO_CHECKS = GameChecks()


# ----------------------------------------------------------------------------- small tools


def text(x: Any) -> str:
    return json.dumps(x, sort_keys=True, allow_nan=False)


def key(action: Any) -> str:
    """An action as JSON text: ``1``, ``1.0`` and ``True`` are different actions here."""
    return json.dumps(list(action))


def same(a: Any, b: Any) -> bool:
    return key(a) == key(b)


def light_json(spec: GameSpec, s: Any, since: int) -> dict:
    """``state_to_json`` with only the log entries from ``since`` on.

    The log is append-only, so a round trip of each entry when it is new (and of the whole
    log at times) covers all of it without a quadratic cost per game.
    """
    c = s.copy()
    c.log = EventLog(list(s.log.entries(since)))
    return spec.state_to_json(c)


def fingerprint(spec: GameSpec, s: Any) -> tuple:
    """All of the state but the older log entries, the RNG, and the log's length."""
    return light_json(spec, s, max(0, len(s.log) - 3)), s.rng.state, len(s.log)


class Illegal:
    """Random actions that are not legal now, learnt from the game itself: actions that were legal
    at another moment, legal ones with one argument changed, and junk of the wrong shape."""

    JUNK: tuple[tuple, ...] = ((), ("fly",), ("move", 1.5), ("move", True), (None,), (3,), ("roll", "", -1))

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.seen: dict[str, tuple] = {}

    def learn(self, legal: Sequence[tuple]) -> None:
        if len(self.seen) < 400:
            for a in legal[:20]:
                self.seen.setdefault(key(a), tuple(a))

    def _changed(self, a: tuple) -> tuple:
        r = self.rng
        if len(a) < 2:
            return (*a, r.below(3))
        i = 1 + r.below(len(a) - 1)
        x = a[i]
        if isinstance(x, bool) or x is None:
            y: Any = r.below(3) - 1
        elif isinstance(x, int):
            y = x + r.choice((-100, -1, 1, 7, 100))
        elif isinstance(x, str):
            y = r.choice((x + "?", x.upper() + "!", "", "nobody"))
        else:
            y = None
        return (*a[:i], y, *a[i + 1:])

    def pick(self, legal: Sequence[tuple], legal_keys: set[str]) -> tuple:
        seen = list(self.seen.values())
        for _ in range(100):
            how = self.rng.below(4)
            if how == 0 and seen:
                a = self.rng.choice(seen)
            elif how == 1 and legal:
                a = self._changed(self.rng.choice(list(legal)))
            elif how == 2 and legal:
                a = (*self.rng.choice(list(legal)), 0)
            else:
                a = self.rng.choice(self.JUNK)
            if key(a) not in legal_keys:
                return a
        return ("no-such-action",)


# ----------------------------------------------------------------------------- the contract


class Contract:
    """The contract's checks on one game, with what it remembers between states."""

    def __init__(self, spec: GameSpec, state: Any, checks: GameChecks, rng: Rng) -> None:
        self.spec = spec
        self.checks = checks
        self.rng = rng
        self.illegal = Illegal(Rng(rng.next64()))
        self.players = state.config.players
        self.since = [0] * self.players
        self.fresh = 0  # the first log entry not yet round-tripped
        self.steps = 0
        checks.start(state)

    def state(self, s: Any) -> list[tuple]:
        """Check ``s`` (not yet over, or over); return its legal actions."""
        spec = self.spec
        over = spec.is_over(s)
        actor = spec.to_act(s)
        assert (actor is None) == over, f"to_act is {actor} but is_over is {over}"
        assert (spec.result(s) is not None) == over, "a result exactly when the game is over"
        legal = [tuple(a) for a in spec.legal_actions(s)]
        assert (legal == []) == over, "legal actions exactly while the game goes on"
        self.legal_keys = [key(a) for a in legal]
        self.legal_set = set(self.legal_keys)
        assert len(self.legal_set) == len(legal), "a legal action is listed twice"
        self.logged = {json.dumps(spec.action_to_json(a)) for a in legal}  # as the session log holds them
        for a in legal:
            assert key(spec.action_from_json(json.loads(json.dumps(spec.action_to_json(a))))) in self.legal_set
        # JSON round trip: the new log entries every step, the whole state through text at times.
        data = light_json(self.spec, s, max(0, self.fresh - 1))
        self.fresh = len(s.log)
        self.round_trip(s, data, legal)
        if over or self.steps % self.checks.text_every == 0:
            self.round_trip(s, json.loads(text(spec.state_to_json(s))), legal)
        # copy() is the same state
        assert fingerprint(spec, s.copy()) == fingerprint(spec, s)
        self.checks.state(s, self.steps)
        self.views(s, actor, legal)
        return legal

    def round_trip(self, s: Any, data: dict, legal: list[tuple]) -> None:
        back = self.spec.state_from_json(data)
        assert self.spec.state_to_json(back) == data, "state_to_json(state_from_json(data)) != data"
        assert [tuple(a) for a in self.spec.legal_actions(back)] == legal
        assert self.spec.to_act(back) == self.spec.to_act(s)

    def views(self, s: Any, actor: int | None, legal: list[tuple]) -> None:
        n = self.players
        if self.checks.views == "all" or actor is None:
            seats = range(n)
        else:
            seats = sorted({actor, self.steps % n})
        outsiders: dict[int, str] = {}  # event index -> what outsiders are told of it
        for seat in seats:
            since = self.since[seat]
            entries = s.log.entries(since)
            v = self.spec.view(s, seat, since)
            text(v)  # plain JSON data, nothing a bot could reach the state through
            assert v["seat"] == seat
            if seat == actor:
                assert [key(a) for a in v["legal"]] == self.legal_keys, "the view offers other actions"
            else:
                assert v["legal"] == [], f"seat {seat} is offered actions while seat {actor} is to act"
            events = v["events"]
            assert len(events) == len(entries), "a view must tell every new event, in order"
            for k, (ev, (raw, audience)) in enumerate(zip(events, entries, strict=True)):
                assert ev["n"] == since + k
                told = {f: x for f, x in ev.items() if f != "n"}
                if audience is None or seat in audience:
                    assert text(told) == text(raw), f"seat {seat} is not told {raw} whole"
                    continue
                assert told["t"] == raw["t"]
                blanked = 0
                for f, x in told.items():
                    if f not in raw:
                        assert type(x) is int, f"a redaction may add a count, never a value: {f}={x!r}"
                    elif text(x) != text(raw[f]):
                        assert x is None, f"seat {seat} is told {raw['t']}.{f} = {x!r}, not a blank"
                        blanked += 1
                assert blanked, f"seat {seat} is told whole an event kept from it: {raw}"
                assert set(raw) <= set(told), f"a redaction drops fields of {raw}"
                redacted = text(told)
                assert outsiders.setdefault(since + k, redacted) == redacted, "outsiders are told different things"
            self.since[seat] = since + len(events)
            self.checks.seat_view(s, seat, v)

    def refuse(self, s: Any, legal: list[tuple]) -> None:
        """A random illegal action raises IllegalAction with a sentence, and changes nothing
        (one learnt from the game, and one the game's own checks make, if they make one)."""
        self.illegal.learn(legal)
        before = fingerprint(self.spec, s)
        self._refuse(s, self.illegal.pick(legal, self.legal_set), before)
        own = self.checks.illegal(s, legal, self.illegal.rng)
        if own is not None:
            assert key(own) not in self.legal_set, f"{own} is legal"
            self._refuse(s, own, before)

    def _refuse(self, s: Any, bad: tuple, before: tuple) -> None:
        with pytest.raises(IllegalAction) as e:
            self.spec.apply(s, bad)
        message = str(e.value)
        assert message.strip() and "\n" not in message, f"{bad}: {message!r}"
        assert fingerprint(self.spec, s) == before, f"the refused action {bad} changed the state"

    def act(self, s: Any, action: tuple) -> Any:
        """Apply ``action`` to a copy and to ``s``: the same result, and ``s`` untouched."""
        before = fingerprint(self.spec, s)
        on_copy = self.spec.apply(s.copy(), action)
        after = self.spec.apply(s, action)
        assert fingerprint(self.spec, s) == before, "apply changed the state it was given"
        assert fingerprint(self.spec, on_copy) == fingerprint(self.spec, after), "the copy plays differently"
        self.checks.moved(s, after)
        self.steps += 1
        assert self.steps < MAX_STEPS, "the game never ended"
        return after

    def finish(self, s: Any) -> None:
        self.state(s)
        self.checks.end(s)


def replays_to(spec: GameSpec, config: Any, seed: int, actions: list[tuple], final: dict) -> None:
    """The game replays from (config, seed, actions) to ``final``, straight and through a session."""
    s = spec.new_game(config, seed)
    log = []
    for a in actions:
        log.append([spec.to_act(s), json.loads(text(spec.action_to_json(a)))])
        s = spec.apply(s, a)
    assert spec.state_to_json(s) == final, "the game does not replay from (config, seed, actions)"
    session = Session(game=spec.id, mode="play", config=config.to_json(), seed=seed, log=log)
    loaded = Session.from_json(json.loads(text(session.to_json())))
    assert spec.state_to_json(loaded.replay()) == final, "the saved session does not replay"


# ----------------------------------------------------------------------------- the playouts


def random_playout(game: str, config: Any, seed: int, checks: GameChecks = NO_CHECKS) -> Any:
    """Uniformly random legal actions straight on the engine, the contract checked at every state.

    Also: the session saved at a random step, loaded again, is that step's state, and the rest
    of the actions take it to the same end.
    """
    spec = get_game(game)
    if isinstance(config, dict):
        config = spec.config_from_json(config)
    rng = Rng(seed ^ 0x5DEECE66D)
    s = spec.new_game(config, seed)
    contract = Contract(spec, s, checks, Rng(rng.next64()))
    actions: list[tuple] = []
    log: list[list] = []
    cut, at_cut = 1 + rng.below(200), None
    while not spec.is_over(s):
        legal = contract.state(s)
        contract.refuse(s, legal)
        if len(actions) == cut:
            at_cut = text(spec.state_to_json(s))
        a = rng.choice(legal)
        log.append([spec.to_act(s), spec.action_to_json(a)])
        actions.append(a)
        s = contract.act(s, a)
    contract.finish(s)
    final = json.loads(text(spec.state_to_json(s)))
    replays_to(spec, config, seed, actions, final)
    if at_cut is not None:
        saved = Session(game=game, mode="play", config=config.to_json(), seed=seed, log=log[:cut])
        loaded = Session.from_json(json.loads(text(saved.to_json()))).replay()
        assert text(spec.state_to_json(loaded)) == at_cut, "a loaded session is not the saved state"
        for a in actions[cut:]:
            loaded = spec.apply(loaded, a)
        assert spec.state_to_json(loaded) == final, "a loaded session does not continue identically"
    return s


def bot_playout(game: str, config: Any, seed: int, seats: list[str], checks: GameChecks = NO_CHECKS,
                every_step: bool = True) -> Table:
    """Bots at a Table, the contract checked at every state (or, lighter, only at the end).

    Each bot's action is one of the legal actions; the game replays from (config, seed,
    actions); and a session saved mid-game (as JSON text) and loaded again lets the bots
    continue exactly as they did: the same actions, the same final state, log and RNG included.
    """
    table = Table(game, config, seed, seats)
    spec = table.spec
    rng = Rng(seed ^ 0x5DEECE66D)
    contract = Contract(spec, table.state, checks, Rng(rng.next64()))
    save_at = 1 + rng.below(150)
    saved: str | None = None
    steps = 0
    while not table.is_over():
        s = table.state
        if every_step:
            legal = contract.state(s)
            contract.refuse(s, legal)
        else:
            legal = [tuple(a) for a in spec.legal_actions(s)]
        if steps == save_at:
            saved = text(table.to_session().to_json())
        assert table.step_bot()
        chosen = json.dumps(table.log[-1][1])
        if every_step:
            assert chosen in contract.logged, f"a bot chose an illegal action {table.log[-1]}"
        else:
            assert any(chosen == json.dumps(spec.action_to_json(a)) for a in legal), f"illegal: {table.log[-1]}"
        if every_step:
            checks.moved(s, table.state)
        steps += 1
        contract.steps = steps
        assert steps < MAX_STEPS, "the game never ended"
    s = table.state
    contract.finish(s)
    final = json.loads(text(spec.state_to_json(s)))
    actions = [spec.action_from_json(raw) for _seat, raw in table.log]
    replays_to(spec, table.config, seed, actions, final)
    if saved is None:  # a short game: save it half way
        session = json.loads(text(table.to_session().to_json()))
        saved = text({**session, "log": session["log"][: len(table.log) // 2]})
    resumed = Table.from_session(Session.from_json(json.loads(saved)))
    resumed.run_bots()
    assert resumed.log == table.log, "the loaded game's bots play differently"
    assert spec.state_to_json(resumed.state) == final
    return table


# ----------------------------------------------------------------------------- a game's sweep


def sweep(play: Callable[[int], Any], soak_play: Callable[[int], Any] | None = None, *, sample: int = 100,
          total: int = 500, soak: int = 5_000, per: int = 50) -> tuple[Callable, Callable]:
    """The two test functions of a game's seeded sweep of ``play(game_no)``: a CI sample of the
    first ``sample`` games, and behind the ``soak`` marker the rest of the first ``total`` and
    ``soak`` more (with ``soak_play`` if given: the same game, checked more often)."""
    soak_play = soak_play or play

    @pytest.mark.parametrize("block", range(sample // per))
    def test_sample_of_games_keeps_every_invariant(block: int) -> None:
        for game_no in range(block * per, block * per + per):
            play(game_no)

    rest = [*range(sample, total), *range(10_000, 10_000 + soak)]

    @pytest.mark.soak
    @pytest.mark.parametrize("block", range(len(rest) // per))
    def test_soak_games(block: int) -> None:
        for game_no in rest[block * per : block * per + per]:
            soak_play(game_no)

    return test_sample_of_games_keeps_every_invariant, test_soak_games


def sweep_events(game: str, setup: Callable[[int], tuple[Any, int, list[str]]], games: Iterable[int]) -> Iterator[dict]:
    """Every log entry of the bot games ``setup(game_no)`` describes (for what a sweep reaches)."""
    for game_no in games:
        config, seed, seats = setup(game_no)
        table = Table(game, config, seed, seats)
        table.run_bots()
        for ev, _audience in table.state.log.entries():
            yield ev


def kinds_seen(game: str, setup: Callable[[int], tuple[Any, int, list[str]]], games: Iterable[int],
               **detail: str) -> set[str]:
    """The event types of a sweep's games, and ``"type:value"`` of the field ``detail[type]``
    (``end="reason"`` adds ``"end:solved"``...): what the sweep reaches."""
    seen: set[str] = set()
    for ev in sweep_events(game, setup, games):
        t = ev["t"]
        seen.add(t)
        if t in detail:
            seen.add(f"{t}:{ev[detail[t]]}")
    return seen


class LogReader:
    """Reads a state's log on from where it last stopped (the log is append-only)."""

    read = 0

    def new_events(self, s: Any) -> list[dict]:
        entries = s.log.entries(self.read)
        self.read += len(entries)
        return [ev for ev, _audience in entries]


def pick_illegal(makers: Sequence[Callable[[], tuple]], legal: list[tuple], rng: Rng) -> tuple:
    """A random action from ``makers`` (a game's own words) that is not legal now."""
    while True:
        a = rng.choice(makers)()
        if a not in legal:
            return a
