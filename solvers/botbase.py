"""What every bot shares: a per-decision RNG (so replays choose the same) and event intake.

Game packages subclass :class:`ViewBot` (games stay independent of each other; this module
belongs to none of them).
"""

from __future__ import annotations

from engine.core import Rng, derive_seed


class ViewBot:
    """A bot that reads only its seat's view; ``since`` lets the table send only new events."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.seed = seed
        self.since = 0  # the table passes views from this event index on

    def _rng(self, view: dict) -> Rng:
        events = view["events"]
        n = events[-1]["n"] + 1 if events else self.since
        return Rng(derive_seed(self.seed, n))

    def _consume(self, view: dict) -> None:
        for ev in view["events"]:
            if ev["n"] >= self.since:
                self.observe(ev, view)
        if view["events"]:
            self.since = view["events"][-1]["n"] + 1

    def observe(self, event: dict, view: dict) -> None:
        """Override to learn from each new event."""

    def choose(self, view: dict) -> tuple:
        self._consume(view)
        legal = [tuple(a) for a in view["legal"]]
        if not legal:
            raise ValueError("The bot was asked to act, but it has no legal action.")
        return self.decide(view, legal, self._rng(view))

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        raise NotImplementedError
