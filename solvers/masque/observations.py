"""Engine observations -> the solver's log: one seat's view events as the entries a person
would type at a real table (the ``unmask solve masque`` format of ``docs/masque.md``).

Nothing here reads anything the seat could not see: redacted events (a card set to None)
add nothing but the public parts (who asked whom for which slot, and the answer's shape).
"""

from __future__ import annotations

from engine.masque import SLOTS


class ObservationLog:
    """Incrementally builds ``(config, log)`` for :func:`solvers.masque.solver.solve` from one seat's events."""

    def __init__(self, seat: int, table: bool = False) -> None:
        self.seat = seat
        self.table = table  # also note the Rumor cards' moves between others (the table model)
        self._open: tuple[int, int] | None = None  # (asker, target) of a look or gift an ask may follow
        self.config: dict = {}
        self.log: list[dict] = []
        self.names: list[str] = []
        self.since = 0

    @classmethod
    def from_view(cls, view: dict, table: bool = False) -> ObservationLog:
        obs = cls(view["seat"], table)
        obs.update(view["events"])
        return obs

    def update(self, events: list[dict]) -> list[dict]:
        """Read new events; return the log entries they added."""
        start = len(self.log)
        for ev in events:
            if ev["n"] >= self.since:
                self._observe(ev)
                self.since = ev["n"] + 1
        return self.log[start:]

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat)

    def _observe(self, ev: dict) -> None:
        t = ev["t"]
        me = self.seat
        if self.table and t in ("draw", "ask", "give"):
            self._observe_table(ev)
            return
        self._open = None
        if t == "setup":
            self.names = list(ev["players"])
            self.config = {"red_death": ev["red_death"], "players": self.names, "me": self.names[me]}
            if self.table:
                self.config["table"] = True
        elif t == "draw":
            card = ev.get("card")
            if ev["seat"] == me and card and not card.startswith("evidence"):
                self.log.append({"type": "rumor", "card": card})
        elif t == "ask":
            card = ev.get("card")
            if ev["seat"] == me and card:
                kind = "rumor" if ev["how"] == "take" else "seen"
                self.log.append({"type": kind, "card": card, "from": self._name(ev["target"])})
            elif ev["seat"] != me:
                self.log.append({"type": "ask", "by": self._name(ev["seat"]), "target": self._name(ev["target"]),
                                 "slot": SLOTS[ev["slot"]], "matched": ev["matched"], "offered": ev["offered"]})
        elif t == "give":
            if ev["target"] == me and ev.get("card"):
                self.log.append({"type": "rumor", "card": ev["card"], "from": self._name(ev["seat"])})
        elif t == "look":
            if ev["seat"] == me and ev.get("room"):
                self.log.append({"type": "evidence", "slot": SLOTS[ev["slot"]], "room": ev["room"],
                                 "index": ev["index"]})
        elif t in ("place", "move") and ev["seat"] == me:
            # one entry for where I stand now (the midnight start, once the moves are over)
            entry = {"type": "start", "room": ev.get("room") or ev.get("to")}
            if self.log and self.log[-1]["type"] == "start":
                self.log[-1] = entry
            else:
                self.log.append(entry)


    def _observe_table(self, ev: dict) -> None:
        """Draws, asks and gifts as table notes: every move of a Rumor card, with the public answer."""
        t, me = ev["t"], self.seat
        card = ev.get("card")
        opened, self._open = self._open, None
        if t == "draw":
            if card and card.startswith("evidence"):
                return  # public, and it never reaches a hand
            if ev["seat"] == me:
                self.log.append({"type": "rumor", "card": card})
            else:
                self.log.append({"type": "draw", "by": self._name(ev["seat"])})
            return
        pair = (ev["seat"], ev["target"])
        entry: dict = {"type": t, "by": self._name(ev["seat"]), "target": self._name(ev["target"])}
        if t == "ask":
            entry.update({"slot": SLOTS[ev["slot"]], "matched": ev["matched"], "offered": ev["offered"],
                          "how": ev["how"]})
            if opened == pair:
                entry["second"] = True  # the card looked at (or given) just before cannot come again
        if card and me in pair:
            entry["card"] = card
        self.log.append(entry)
        if t == "give" or ev.get("how") == "look":
            self._open = pair


def log_from_events(events: list[dict], seat: int, table: bool = False) -> tuple[dict, list[dict]]:
    """The solver input ``(config, log)`` for ``seat`` from its view's events."""
    obs = ObservationLog(seat, table)
    obs.update(events)
    return dict(obs.config), list(obs.log)
