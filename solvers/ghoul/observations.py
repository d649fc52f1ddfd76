"""Engine observations -> the solver's log: one solver serves bots and people at a real table.

A seat's view holds its redacted event stream. :class:`ObservationLog` turns it into the
entries a person would type (the solve file format of ``docs/ghoul.md``): my character and
hand, what I was shown, the exchanges I took part in, every interrogation between others
(an exchange I could not see), every Suspicion answer, face-up cards, moves, Support
looks and swaps, and the reveals at the end. Nothing here reads what the seat could not see.
"""

from __future__ import annotations

from typing import Any


class ObservationLog:
    """Incrementally builds ``(config, log)`` for :func:`solvers.ghoul.solver.solve` from one seat's events."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.config: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        self.names: list[str] = []
        self.since = 0
        self._open: dict[str, Any] | None = None  # an interrogation or the preliminary exchange being gathered
        self._hand: dict[str, Any] | None = None  # my newest hand, held back while a record is open
        self._last_hand: tuple | None = None

    @classmethod
    def from_view(cls, view: dict) -> ObservationLog:
        obs = cls(view["seat"])
        obs.update(view["events"])
        return obs

    def update(self, events: list[dict]) -> None:
        for ev in events:
            if ev["n"] >= self.since:
                self._observe(ev)
                self.since = ev["n"] + 1

    def entries(self) -> list[dict[str, Any]]:
        """The log so far, including a record still being gathered."""
        out = list(self.log)
        if self._open is not None:
            out.append(self._open)
        if self._hand is not None and self._hand_key(self._hand) != self._last_hand:
            out.append(self._hand)
        return out

    # ------------------------------------------------------------------ internals

    @staticmethod
    def _hand_key(h: dict) -> tuple:
        return (tuple(sorted(h["cards"])), h["face_up"])

    def _close(self) -> None:
        if self._open is not None:
            self.log.append(self._open)
            self._open = None
        if self._hand is not None:
            key = self._hand_key(self._hand)
            if key != self._last_hand:
                self.log.append(self._hand)
                self._last_hand = key
            self._hand = None

    def _name(self, seat: int | None) -> str | None:
        return None if seat is None else self.names[seat]

    def _observe(self, ev: dict) -> None:
        t = ev["t"]
        me = self.seat
        if t == "hand":
            if ev["seat"] == me and ev["cards"] is not None:
                self._hand = {"type": "hand", "cards": list(ev["cards"]), "face_up": ev["face_up"]}
                if self._open is None:
                    self._close()
            return
        if t == "face_up" and self._open is not None and ev["why"] != "setup":
            self._open["face_up"][self._name(ev["seat"])] = ev["card"]
            return
        if t in ("shown", "exchange", "prelim_shown", "prelim_given") and self._open is not None:
            self._gather(ev)
            return
        if t in ("show_chosen", "give_chosen", "face_chosen"):
            return
        self._close()
        if t == "setup":
            self.names = list(ev["players"])
            self.config = {
                "players": self.names,
                "me": self.names[me],
                "character": None,
                "cast": list(ev["cast"]),
                "mask": ev["mask"],
                "support": ev["support"],
                "deck": dict(ev["deck"]),
                "pool": ev["pool"],
                "ring": list(ev["ring"]),
                "red": list(ev["red"]),
                "token": ev["token"],
            }
        elif t == "identity" and ev["seat"] == me:
            assert self.config is not None
            self.config["character"] = ev["character"]
        elif t == "support_token" and ev["seat"] == me:
            self.log.append({"type": "support", "token": ev["token"]})
        elif t == "face_up":
            self.log.append({"type": "face_up", "player": self._name(ev["seat"]), "card": ev["card"]})
        elif t in ("prelim_shown", "prelim_given"):
            # Until the gifts are made, the record says the cards have not been passed yet.
            self._open = {
                "type": "preliminary",
                "shown": None,
                "gave": None,
                "received": None,
                "face_up": {},
                "passed": False,
            }
            self._gather(ev)
        elif t == "move":
            self.log.append(
                {
                    "type": "move",
                    "player": self._name(ev["seat"]),
                    "to": ev["to"],
                    "revealed": {str(r["place"]): r["tile"] for r in ev["revealed"]},
                }
            )
        elif t == "interrogate":
            if ev["target"] is not None:
                self._open = {
                    "type": "interrogation",
                    "by": self._name(ev["seat"]),
                    "target": self._name(ev["target"]),
                    "count": ev["count"],
                    "shown": None,
                    "exchange": "unknown" if me not in (ev["seat"], ev["target"]) else "none",
                    "face_up": {},
                }
        elif t == "suspicion":
            self.log.append(
                {
                    "type": "suspicion",
                    "rule": ev["rule"],
                    "players": [self._name(s) for s in ev["matched"]],
                    "took": [self._name(s) for s in ev["took"]],
                }
            )
        elif t == "cover_remove" and ev["target"] is not None:
            self.log.append({"type": "cover", "by": self._name(ev["seat"]), "removed": self._name(ev["target"])})
        elif t == "cover_add" and ev["target"] is not None:
            self.log.append({"type": "cover", "by": self._name(ev["seat"]), "added": self._name(ev["target"])})
        elif t == "attack":
            self.log.append(
                {
                    "type": "special" if ev["how"] == "special" else "attack",
                    "by": self._name(ev["seat"]),
                    "target": self._name(ev["target"]),
                    "by_character": ev["character"],
                    "target_character": ev["target_character"],
                    "victim": self._name(ev["victim"]),
                    "support": ev["support"],
                }
            )
        elif t == "instant":
            self.log.append(
                {
                    "type": "instant",
                    "player": self._name(ev["seat"]),
                    "character": ev["character"],
                    "cards": list(ev["cards"]),
                }
            )
        elif t == "end":
            for seat, (c, cards) in enumerate(zip(ev["characters"], ev["holdings"], strict=True)):
                self.log.append({"type": "reveal", "player": self._name(seat), "character": c, "cards": list(cards)})
        elif t == "support_look":
            self.log.append(
                {
                    "type": "support_look",
                    "by": self._name(ev["seat"]),
                    "target": self._name(ev["target"]),
                    "token": ev["token"],
                }
            )
        elif t == "support_swap":
            self.log.append({"type": "support_swap", "by": self._name(ev["seat"]), "with": self._name(ev["target"])})

    def _gather(self, ev: dict) -> None:
        """Fill the open record with a private detail I saw (cards shown, an exchange, a gift)."""
        rec = self._open
        assert rec is not None
        me = self.seat
        t = ev["t"]
        if t == "shown" and ev["cards"] is not None:
            rec["shown"] = list(ev["cards"])
        elif t == "exchange" and ev["done"] is not None:
            rec["exchange"] = (
                {"gave": ev["gave"], "took": ev["took"], "gave_from": ev["gave_from"], "took_from": ev["took_from"]}
                if ev["done"]
                else "none"
            )
        elif t == "prelim_shown" and ev["to"] == me and ev["cards"] is not None:
            rec["shown"] = list(ev["cards"])
        elif t == "prelim_given":
            rec["passed"] = True
        if t == "prelim_given" and ev["card"] is not None:
            if ev["seat"] == me:
                rec["gave"] = ev["card"]
            elif ev["to"] == me:
                rec["received"] = ev["card"]
