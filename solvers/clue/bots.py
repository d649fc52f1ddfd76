"""Baseline Clue bots: ``random`` and ``notes``.

Both see only their seat's view. The notes bot keeps a detective sheet of what it has
been shown, and reasons about nothing it did not see: it never deduces a card from
another player's pass or from a refutation shown to someone else.
"""

from __future__ import annotations

from engine.core import Rng
from solvers.botbase import ViewBot
from solvers.clue.sheet import Sheet


class CluePlayerBase(ViewBot):
    """The shared view-only plumbing (``solvers.botbase``)."""


class RandomBot(CluePlayerBase):
    """Uniformly random among the legal actions."""

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        return rng.choice(legal)


class NotesBot(CluePlayerBase):
    """A detective sheet of seen cards; asks about unknown cards; accuses when one triple is left."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.sheet = Sheet(seat)

    def observe(self, ev: dict, view: dict) -> None:
        self.sheet.observe(ev)

    @property
    def board(self):
        return self.sheet.board

    @property
    def holder(self) -> dict:
        return self.sheet.holder

    def candidates(self, cards: tuple[str, ...]) -> list[str]:
        return self.sheet.candidates(cards)

    def solution(self) -> tuple[str, str, str] | None:
        return self.sheet.solution()

    # ------------------------------------------------------------ choices

    def _goals(self) -> set[int]:
        b = self.board
        if self.solution():
            return {b.centre}
        unknown = [i for i, loc in enumerate(b.locations) if loc not in self.holder]
        if unknown:
            return set(unknown)
        mine = [i for i, loc in enumerate(b.locations) if self.holder.get(loc) == self.seat]
        return set(mine or range(len(b.locations)))

    def _toward(self, dests: list[int], rng: Rng, risky: bool = False) -> int:
        goals = self._goals()
        if risky:  # the 8th White Walker is next: keep off the "?" squares when we can
            safe = [d for d in dests if d not in self.board.plot_squares]
            dests = safe or dests
        hits = [d for d in dests if d in goals]
        if hits:
            return rng.choice(hits)
        best, best_d = [], None
        for d in dests:
            dist = min((self.board.distance(d, g) or 99) for g in goals)
            if best_d is None or dist < best_d:
                best, best_d = [d], dist
            elif dist == best_d:
                best.append(d)
        return rng.choice(best)

    def _pick(self, cards: tuple[str, ...], rng: Rng) -> str:
        cand = self.candidates(cards)
        if len(cand) > 1:
            return rng.choice(cand)
        mine = [c for c in cards if self.holder.get(c) == self.seat]
        return rng.choice(mine or list(cards))

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        b = self.board
        kinds = {a[0] for a in legal}
        phase = view["phase"]
        solved = self.solution()
        here = view["positions"][view["characters"][self.seat]]
        if phase == "refute":
            cards = [a[1] for a in legal]
            shown_here = self.sheet.shown_to.get(view["rumor"][0], set())
            again = [c for c in cards if c in shown_here]
            anywhere = [c for c in cards if any(c in s for s in self.sheet.shown_to.values())]
            return ("show", rng.choice(again or anywhere or cards))
        if phase == "offer":
            return ("draw",) if view["walkers"] < 6 else ("decline",)
        if phase == "teleport":
            return ("teleport", self._toward([a[1] for a in legal], rng))
        if phase == "peek":
            return rng.choice(legal)
        if phase == "aside":
            fresh = [a for a in legal if a[1] not in self.sheet.aside_seen]
            return rng.choice(fresh or legal)
        if phase == "move":
            return ("move", self._toward([a[1] for a in legal], rng, risky=view["walkers"] >= 7))
        if ("play", "raven") in legal and not solved:
            return ("play", "raven")
        if phase == "start":
            goals = self._goals()
            if "stay" in kinds and here in goals and not solved:
                return ("stay",)
            if "passage" in kinds and b.passages[here] in goals:
                return ("passage",)
            return ("roll",)
        # after moving
        if solved and "accuse" in kinds:
            return ("accuse", *solved)
        if "look_centre" in kinds and not self.sheet.centre_seen and not solved:
            return ("look_centre",)
        if "rumor" in kinds and not solved:
            return ("rumor", self._pick(b.suspects, rng), self._pick(b.weapons, rng))
        if "power" in kinds and here not in self._goals():
            return ("power",)
        return ("end",)
