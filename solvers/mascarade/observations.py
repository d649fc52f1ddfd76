"""Engine observations -> the session log: the bridge that lets one solver serve bots and people.

A seat's view holds its redacted event stream. :class:`ObservationLog` turns it into exactly
the entries a person would type at a real table (``docs/mascarade.md``), and can feed them to
a :class:`~solvers.mascarade.model.Tracker` as they arrive. Nothing here reads anything the
seat could not see: secret fields arrive as ``None`` and stay out of the entries.
"""

from __future__ import annotations

from collections.abc import Callable

COIN_EVENTS = ("power", "fine", "verdict")


class ObservationLog:
    """Incrementally builds ``(config, log)`` for the solver from one seat's events."""

    def __init__(self, seat: int, on_entry: Callable[[dict], None] | None = None) -> None:
        self.seat = seat
        self.config: dict | None = None
        self.log: list[dict] = []
        self.places: list[str] = []
        self.since = 0
        self.on_entry = on_entry
        self.on_config: Callable[[dict], None] | None = None

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

    def _emit(self, entry: dict) -> None:
        self.log.append(entry)
        if self.on_entry is not None:
            self.on_entry(entry)

    def _name(self, place: int) -> str:
        return self.places[place]

    def _config_ready(self) -> None:
        if self.on_config is not None and self.config is not None:
            self.on_config(self.config)

    def _coins(self, ev: dict) -> None:
        names = self.config["players"]
        self._emit({"t": "coins", "coins": dict(zip(names, ev["coins"], strict=True)), "court": ev["court"]})

    def _observe(self, ev: dict) -> None:
        t = ev["t"]
        me = self.seat
        if t == "setup":
            names = list(ev["players"])
            self.places = [*names, *(f"T{i + 1}" for i in range(ev["table"]))]
            coins = ev["coins"]
            self.config = {"players": names, "me": names[me], "masks": list(ev["masks"]), "table": ev["table"],
                           "coins": coins[0] if len(set(coins)) == 1 else dict(zip(names, coins, strict=True)),
                           "order": [names[i] for i in ev["order"]], "opening": None, "court": ev.get("court", 0)}
            if not ev.get("opening", True):
                self._config_ready()
            return
        if t == "opening":
            self.config["opening"] = list(ev["cards"])
            self._config_ready()
            return
        name = self._name
        if t == "turn":
            self._emit({"t": "turn", "by": name(ev["seat"])})
        elif t == "swap":
            entry = {"t": "swap", "by": name(ev["seat"]), "a": name(ev["a"]), "b": name(ev["b"])}
            if ev["seat"] == me:
                entry["swapped"] = ev["swapped"]
            self._emit(entry)
        elif t == "look":
            entry = {"t": "look", "by": name(ev["seat"])}
            if ev["seat"] == me:
                entry["card"] = ev["card"]
            self._emit(entry)
        elif t == "spy_look":
            entry = {"t": "spy", "by": name(ev["seat"]), "target": name(ev["target"])}
            if ev["seat"] == me:
                entry["mine"] = ev["mine"]
                entry["theirs"] = ev["theirs"]
            self._emit(entry)
        elif t == "shown":
            entry = {"t": "shown", "by": name(ev["seat"]), "target": name(ev["target"])}
            if ev["card"] is not None:
                entry["card"] = ev["card"]
            self._emit(entry)
        elif t in ("announce", "claim", "pass", "uncontested", "name"):
            self._emit({"t": t, "by": name(ev["seat"]), "mask": ev["mask"]})
        elif t == "reveal":
            self._emit({"t": "reveal", "cards": {name(p): m for p, m in ev["cards"]}})
        elif t == "power":
            if ev["mask"] == "puppeteer":
                self._emit({"t": "puppeteer", "by": name(ev["seat"]), "a": name(ev["a"]), "b": name(ev["b"])})
            else:
                entry = {"t": "power", "by": name(ev["seat"]), "mask": ev["mask"]}
                if ev.get("target") is not None and ev["mask"] in ("sorceress", "trickster"):
                    entry["target"] = name(ev["target"])  # public: the coins follow from it
                self._emit(entry)
            self._coins(ev)
        elif t in ("fine", "verdict"):
            self._coins(ev)


def events_to_log(events: list[dict], seat: int) -> tuple[dict, list[dict]]:
    """The whole ``(config, log)`` of one seat's event stream."""
    obs = ObservationLog(seat)
    obs.update(events)
    if obs.config is None:
        raise ValueError("The events do not start with the game's setup.")
    return obs.config, obs.log
