"""The shared engine core: the seeded RNG, errors, and the event log every game uses.

Engines are pure: no I/O, no UI. Every random choice goes through an :class:`Rng` held in
the game state, so a game replays exactly from ``(config, seed, actions)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


class IllegalAction(Exception):
    """An action the rules forbid; the message is a sentence a player understands."""


class Rng:
    """SplitMix64: tiny, fast, and its whole state is one int, so it round-trips through JSON."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK64

    def copy(self) -> Rng:
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self.next64()
            if x <= limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))


class NeedChance(Exception):
    """Raised by :class:`ChanceRng` when the engine asks for a random draw nobody has supplied yet.

    ``n`` is the number of equally likely outcomes of that draw (``Rng.below(n)``).
    """

    def __init__(self, n: int) -> None:
        super().__init__(f"a chance outcome in [0, {n}) is needed")
        self.n = n


class ChanceRng(Rng):
    """An :class:`Rng` whose draws come from outside, one ``below(n)`` outcome at a time.

    Why: frameworks such as OpenSpiel want every random event as an explicit chance node.
    Every draw of every engine goes through ``below`` (``choice``, ``shuffle`` and
    ``shuffled`` are built on it), so replaying an engine call with the outcomes chosen so
    far, and catching :class:`NeedChance` for the next one, exposes each draw with its true
    probability (uniform over ``n``). A draw with one outcome (``below(1)``) is no event
    and takes nothing. Seeded games never see this class: their path is unchanged.
    """

    __slots__ = ("outcomes", "pos")

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.outcomes = tuple(outcomes)
        self.pos = 0

    def copy(self) -> ChanceRng:
        r = ChanceRng(self.outcomes)
        r.pos = self.pos
        r.state = self.state
        return r

    def next64(self) -> int:
        raise NeedChance(1 << 64)  # only below() may draw: its outcomes are what chance nodes offer

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        if self.pos >= len(self.outcomes):
            raise NeedChance(n)
        o = self.outcomes[self.pos]
        if not 0 <= o < n:
            raise ValueError(f"chance outcome {o} is not in [0, {n})")
        self.pos += 1
        self.state = self.pos
        return o

    def random(self) -> float:
        raise NeedChance(1 << 53)  # no engine draws a float; a chance node needs a finite outcome set


def derive_seed(seed: int, *labels: object) -> int:
    """A stable sub-seed, so bots and games seeded from one number never share a stream."""
    r = Rng(seed)
    for label in labels:
        for ch in str(label):
            r.state ^= ord(ch) * 0x100000001B3
            r.next64()
        r.next64()
    return r.next64()


class EventLog:
    """An append-only event log that copies cheaply.

    Copies share one list; each remembers its own length. Appending to a copy whose
    shared list has grown past it (another branch appended) first takes a private copy,
    so branches never see each other's events.

    Each entry is ``(event, seats)``: ``seats`` is ``None`` for a public event, or the
    tuple of seats that see it whole; every other seat sees ``event`` redacted by the
    game's redaction function.
    """

    __slots__ = ("items", "n")

    def __init__(self, items: list[tuple[dict, tuple[int, ...] | None]] | None = None) -> None:
        self.items = items if items is not None else []
        self.n = len(self.items)

    def copy(self) -> EventLog:
        c = EventLog.__new__(EventLog)
        c.items = self.items
        c.n = self.n
        return c

    def append(self, event: dict, seats: tuple[int, ...] | None = None) -> None:
        if len(self.items) != self.n:
            self.items = self.items[: self.n]
        self.items.append((event, seats))
        self.n += 1

    def __len__(self) -> int:
        return self.n

    def entries(self, since: int = 0) -> list[tuple[dict, tuple[int, ...] | None]]:
        return self.items[since : self.n]

    def to_json(self) -> list[dict]:
        return [{"event": _plain_copy(e), "seats": list(s) if s is not None else None} for e, s in self.entries()]

    @classmethod
    def from_json(cls, data: list[dict]) -> EventLog:
        return cls([(_plain_copy(d["event"]), tuple(d["seats"]) if d["seats"] is not None else None) for d in data])


def _plain_copy(x: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars): the log never shares lists with its JSON."""
    t = type(x)
    if t is dict:
        return {k: v if type(v) in _SCALARS else _plain_copy(v) for k, v in x.items()}
    if t is list or t is tuple:
        return [v if type(v) in _SCALARS else _plain_copy(v) for v in x]
    return x


_SCALARS = frozenset({str, int, float, bool, type(None)})


def shows_hidden(event: dict, seats: tuple[int, ...] | None, seat: int, *, own: frozenset[str] = frozenset(),
                 public: frozenset[str] = frozenset(), redacted: frozenset[str] = frozenset()) -> bool:
    """Whether one log entry shows ``seat`` something hidden: what an undo must never take back.

    A private entry the seat sees whole counts, unless it only echoes the seat's own decision
    (``own``: the card it chose, the tile it set; ``event["seat"]`` is the seat). A public entry
    counts when its type turns up something hidden to everyone (``public``: a card turned face
    up, dice, a pass in answer to a question); a private entry of others counts when even its
    redacted form tells something (``redacted``: that a card was shown, how many were offered).
    """
    t = event.get("t")
    if seats is None:
        return t in public
    if seat in seats:
        return not (t in own and event.get("seat") == seat)
    return t in redacted
