"""Engine observations -> the solver's log: the bridge that lets one solver serve bots and people.

A seat's view holds its redacted event stream. This turns it into exactly the entries a
person would type at a real table (the public session format of ``docs/formats.md``):
my hand, face-up cards, rumors with who passed and who showed (and the card when I saw
it), reveals, and accusations. Nothing here reads anything the seat could not see.
"""

from __future__ import annotations

from engine.clue.board import load_board


class ObservationLog:
    """Incrementally builds ``(config, log)`` for the solver from one seat's events."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.config: dict | None = None
        self.log: list[dict] = []
        self.names: list[str] = []
        self._rumor: dict | None = None
        self.since = 0

    def update(self, events: list[dict]) -> None:
        for ev in events:
            if ev["n"] >= self.since:
                self._observe(ev)
                self.since = ev["n"] + 1

    @classmethod
    def from_view(cls, view: dict) -> ObservationLog:
        obs = cls(view["seat"])
        obs.update(view["events"])
        return obs

    def _close_rumor(self) -> None:
        if self._rumor is not None:
            self.log.append(self._rumor)
            self._rumor = None

    def _observe(self, ev: dict) -> None:
        t = ev["t"]
        me = self.seat
        if t == "setup":
            b = load_board(ev["board"])
            self.names = list(ev["players"])
            piles = {}
            if ev["centre"]:
                piles["centre"] = ev["centre"]
            if ev["aside"]:
                piles["aside"] = ev["aside"]
            self.config = {
                "board": b.id,
                "deck": {"suspects": list(b.suspects), "weapons": list(b.weapons), "locations": list(b.locations)},
                "players": self.names,
                "me": self.names[me],
                "hand_sizes": dict(zip(self.names, ev["hand_sizes"], strict=True)),
            }
            if piles:
                self.config["piles"] = piles
            if ev["face_up"]:
                self.log.append({"type": "face_up", "cards": list(ev["face_up"])})
        elif t == "hand" and ev["seat"] == me:
            self.log.append({"type": "hand", "cards": list(ev["cards"])})
        elif t == "rumor":
            self._close_rumor()
            self._rumor = {
                "type": "rumor",
                "by": self.names[ev["seat"]],
                "cards": list(ev["cards"]),
                "passed": [],
                "shown_by": None,
                "card": None,
            }
        elif t == "pass" and self._rumor is not None:
            self._rumor["passed"].append(self.names[ev["seat"]])
        elif t == "show" and self._rumor is not None:
            self._rumor["shown_by"] = self.names[ev["seat"]]
            self._rumor["card"] = ev["card"]
            self._close_rumor()
        elif t == "no_show":
            self._close_rumor()
        elif t == "aside" and ev["card"] is not None:
            self.log.append({"type": "reveal", "player": "aside", "cards": [ev["card"]]})
        elif t == "eliminated":
            self._close_rumor()
            self.log.append({"type": "reveal", "player": self.names[ev["seat"]], "cards": list(ev["cards"])})
        elif t == "accuse":
            self._close_rumor()
            self.log.append(
                {
                    "type": "accusation",
                    "by": self.names[ev["seat"]],
                    "cards": list(ev["cards"]),
                    "correct": bool(ev["correct"]),
                }
            )
        elif t == "centre_look" and ev["cards"] is not None:
            self.log.append({"type": "reveal", "player": "centre", "cards": list(ev["cards"])})
        elif t == "peek" and ev["seat"] == me and ev["card"] is not None:
            self.log.append({"type": "reveal", "player": self.names[ev["target"]], "cards": [ev["card"]]})

    def entries(self) -> list[dict]:
        """The log so far, including a rumor still being answered."""
        return self.log + ([self._rumor] if self._rumor else [])
