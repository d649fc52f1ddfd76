"""The detective sheet: what one seat has seen with its own eyes, card by card.

No deduction here beyond the obvious (a rumor of mine nobody could answer puts its
unseen cards in the envelope when no face-down pile could hide them); the exact solver
does the rest. The notes bot and the play screen both keep one.
"""

from __future__ import annotations

from engine.clue.board import Board, load_board


class Sheet:
    """card -> holder: a seat number, or "face_up", "centre", "aside", "envelope"."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.holder: dict[str, object] = {}
        self.shown_to: dict[int, set[str]] = {}  # cards I showed, by asker
        self.my_rumor: list[str] | None = None
        self.rumor: list[str] | None = None  # the rumor being answered now, whoever asked
        self.lacks: dict[int, set[str]] = {}  # seat -> cards it passed on: it holds none of them
        self.aside_seen: set[int] = set()
        self.aside_count = 0
        self.has_centre = False
        self.centre_seen = False
        self.board: Board | None = None
        self.since = 0

    @classmethod
    def from_view(cls, view: dict) -> Sheet:
        sheet = cls(view["seat"])
        sheet.update(view["events"])
        return sheet

    def update(self, events: list[dict]) -> None:
        for ev in events:
            if ev["n"] >= self.since:
                self.observe(ev)
                self.since = ev["n"] + 1

    def observe(self, ev: dict) -> None:
        t = ev["t"]
        me = self.seat
        if t == "setup":
            self.board = load_board(ev["board"])
            for c in ev["face_up"]:
                self.holder[c] = "face_up"
            self.has_centre = ev["centre"] > 0
            self.aside_count = ev["aside"]
        elif t == "hand" and ev["seat"] == me:
            for c in ev["cards"]:
                self.holder[c] = me
        elif t == "rumor":
            self.my_rumor = ev["cards"] if ev["seat"] == me else None
            self.rumor = list(ev["cards"])
        elif t == "pass" and self.rumor:
            self.lacks.setdefault(ev["seat"], set()).update(self.rumor)
        elif t == "show":
            if ev["to"] == me and ev["card"] is not None:
                self.holder[ev["card"]] = ev["seat"]
            elif ev["seat"] == me:
                self.shown_to.setdefault(ev["to"], set()).add(ev["card"])
        elif t == "no_show" and ev["seat"] == me and self.my_rumor:
            if not self.unknown_piles():
                for c in self.my_rumor:
                    if c not in self.holder:
                        self.holder[c] = "envelope"
        elif t == "aside" and ev["card"] is not None:
            self.holder[ev["card"]] = "aside"
            self.aside_seen.add(ev["index"])
        elif t == "centre_look" and ev["cards"] is not None:
            self.centre_seen = True
            for c in ev["cards"]:
                self.holder[c] = "centre"
        elif t == "peek" and ev["seat"] == me and ev["card"] is not None:
            self.holder[ev["card"]] = ev["target"]
        elif t == "eliminated":
            for c in ev["cards"]:
                self.holder[c] = ev["seat"]

    def unknown_piles(self) -> bool:
        return (self.has_centre and not self.centre_seen) or len(self.aside_seen) < self.aside_count

    def candidates(self, cards: tuple[str, ...]) -> list[str]:
        """The cards of one category that may still be in the envelope."""
        env = [c for c in cards if self.holder.get(c) == "envelope"]
        return env or [c for c in cards if c not in self.holder]

    def solution(self) -> tuple[str, str, str] | None:
        b = self.board
        parts = [self.candidates(cat) for cat in (b.suspects, b.weapons, b.locations)]
        if all(len(p) == 1 for p in parts):
            return (parts[0][0], parts[1][0], parts[2][0])
        return None
