"""One of our games driven move by move with every random draw an explicit chance outcome.

The engines draw through ``Rng.below(n)`` only; :class:`engine.core.ChanceRng` takes those
outcomes from outside and raises :class:`engine.core.NeedChance` when the next one is not
given yet. A :class:`World` replays the engine call under way (``new_game`` while dealing,
``apply`` of the pending action afterwards) with the outcomes chosen so far, so each shuffle
step, die, dealt and drawn card becomes one chance node with ``n`` equally likely outcomes.
Pure Python: no ``pyspiel`` here, so the layer is testable without OpenSpiel.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core import ChanceRng, NeedChance, Rng
from engine.registry import GameSpec, get_game

_SEP = (",", ":")


def _dump(x: Any) -> str:
    """The canonical JSON of a view, an event or a state: sorted keys, no spaces."""
    return json.dumps(x, sort_keys=True, separators=_SEP, default=list)


class World:
    """A game under way: the engine state (None while dealing), and any chance node open now.

    ``need`` > 0 means a chance node with outcomes ``0..need-1``, each of probability
    ``1/need``. Copies share the immutable engine state (``apply`` never changes its input).
    """

    __slots__ = ("config", "need", "pend_out", "pending", "setup", "spec", "state")

    def __init__(self, spec: GameSpec, config: Any) -> None:
        self.spec = spec
        self.config = config
        self.setup: list[int] = []
        self.state: Any = None
        self.pending: tuple | None = None
        self.pend_out: list[int] = []
        self.need = 0
        self._deal()

    # ------------------------------------------------------------------ moves

    def _deal(self) -> None:
        try:
            st = self.spec.new_game(self.config, 0, ChanceRng(self.setup))
        except NeedChance as e:
            self.need = e.n
            return
        st.rng = Rng(0)  # every later draw comes from outside too; a fixed rng keeps the state canonical
        self.state = st
        self.need = 0

    def _apply(self) -> None:
        s2 = self.state.copy()
        s2.rng = ChanceRng(self.pend_out)
        try:
            new = self.spec.apply(s2, self.pending)
        except NeedChance as e:
            self.need = e.n
            return
        new.rng = Rng(0)
        self.state = new
        self.pending = None
        self.pend_out = []
        self.need = 0

    def chance(self, outcome: int) -> None:
        """Take outcome ``outcome`` of the open chance node."""
        if not 0 <= outcome < self.need:
            raise ValueError(f"chance outcome {outcome} is not in [0, {self.need})")
        if self.state is None:
            self.setup.append(outcome)
            self._deal()
        else:
            self.pend_out.append(outcome)
            self._apply()

    def act(self, action: tuple) -> None:
        """The player to act takes ``action`` (IllegalAction if the rules refuse it, nothing changed)."""
        if self.need:
            raise ValueError("a chance node is open; no player acts now")
        self.pending = tuple(action)
        self.pend_out = []
        try:
            self._apply()
        except Exception:
            self.pending = None
            raise

    # ------------------------------------------------------------------ queries

    def to_act(self) -> int | None:
        """The seat to act, or None at a chance node or once the game is over."""
        if self.need or self.state is None:
            return None
        return self.spec.to_act(self.state)

    def is_over(self) -> bool:
        return not self.need and self.state is not None and self.spec.is_over(self.state)

    def winners(self) -> list[int]:
        res = self.spec.result(self.state) if self.state is not None else None
        return list(res.get("winners", [])) if res else []

    def seat_string(self, seat: int, recall: bool) -> str:
        """What ``seat`` knows, built from its view only: with the event log (``recall``) or without."""
        if self.state is None:
            return f"dealing:{len(self.setup)}"
        if recall:
            out = _with_events(self.spec, self.state, seat)
        else:
            v = self.spec.view(self.state, seat, len(self.state.log))
            out = _dump(v)
        if self.pending is not None:  # a draw inside an action: the actor knows what it did, the others wait
            out += f"|chance:{len(self.pend_out)}"
            if self.spec.to_act(self.state) == seat:
                out += "|did:" + json.dumps(list(self.pending), separators=_SEP)
        return out

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing {self.setup}"
        d = self.spec.state_to_json(self.state)
        d.pop("rng", None)
        out = _dump(d)
        if self.pending is not None:
            out += f"|pending {list(self.pending)} {self.pend_out}"
        return out

    # ------------------------------------------------------------------ copies

    def copy(self) -> World:
        w = World.__new__(World)
        w.spec = self.spec
        w.config = self.config
        w.setup = list(self.setup)
        w.state = self.state
        w.pending = self.pending
        w.pend_out = list(self.pend_out)
        w.need = self.need
        return w

    def __deepcopy__(self, memo: dict) -> World:
        return self.copy()

    def to_json(self) -> dict:
        return {
            "game": self.spec.id,
            "config": self.config.to_json(),
            "setup": list(self.setup),
            "state": self.spec.state_to_json(self.state) if self.state is not None else None,
            "pending": self.spec.action_to_json(self.pending) if self.pending is not None else None,
            "pend_out": list(self.pend_out),
            "need": self.need,
        }

    @classmethod
    def from_json(cls, d: dict) -> World:
        spec = get_game(d["game"])
        w = cls.__new__(cls)
        w.spec = spec
        w.config = spec.config_from_json(d["config"])
        w.setup = list(d["setup"])
        w.state = spec.state_from_json(d["state"]) if d["state"] is not None else None
        if w.state is not None:
            w.state.rng = Rng(0)
        w.pending = spec.action_from_json(d["pending"]) if d["pending"] is not None else None
        w.pend_out = list(d["pend_out"])
        w.need = d["need"]
        return w

    def __reduce__(self) -> tuple:
        return (_world_from_text, (json.dumps(self.to_json(), separators=_SEP),))


def _world_from_text(text: str) -> World:
    return World.from_json(json.loads(text))


# ISMCTS asks for a seat's information-state string at every node of every simulation, and the
# string holds the seat's whole event stream: encoded afresh, each call costs the game's length
# (75 % of a Masque ISMCTS move's time). A logged event reads the same to a seat for good (its
# redaction depends on the event, its seats and the reader only), and states down one line of
# play share one list of log entries (engine.core.EventLog), so each seat's encoded events are
# kept per entry list and only new events are encoded. The string is byte-identical to
# ``json.dumps(view(state, seat, 0))`` (tests/solvers/test_openspiel.py checks it).
_TOKEN = "\u0000unmask-events\u0000"
_QUOTED = json.dumps(_TOKEN)
_EVENTS: dict[tuple[int, int], tuple[list, list[str], str]] = {}
_EVENTS_MAX = 512


def _with_events(spec: GameSpec, state: Any, seat: int) -> str:
    log = state.log
    items, n = log.items, len(log)
    key = (id(items), seat)
    hit = _EVENTS.get(key)  # the value holds ``items``, so its id cannot be reused while cached
    k = len(hit[1]) if hit else 0
    if k == 0:
        hit = None
    v = spec.view(state, seat, min(k, n))
    new = [_dump(e) for e in v["events"]]
    if hit is None:
        strs, joined = new, ",".join(new)
        if len(_EVENTS) >= _EVENTS_MAX:
            _EVENTS.clear()
        _EVENTS[key] = (items, strs, joined)
    elif n >= k:
        strs = hit[1]
        joined = hit[2] + ("," if k and new else "") + ",".join(new)
        if new:
            strs.extend(new)  # items[:k] never change, so the cached prefix stays true
            _EVENTS[key] = (items, strs, joined)
    else:  # an earlier state on the same entry list
        joined = ",".join(hit[1][:n])
    v["events"] = _TOKEN
    out = _dump(v)
    at = out.index(_QUOTED)
    if out.find(_QUOTED, at + 1) >= 0:  # the token in the game's own text: never shortcut
        return _dump(spec.view(state, seat, 0))
    return out[:at] + "[" + joined + "]" + out[at + len(_QUOTED):]
