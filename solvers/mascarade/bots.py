"""Mascarade bots: ``random``, ``honest`` and ``strong``.

Every bot sees only its seat's view. The ``honest`` and ``strong`` bots turn the view's events
into the session log a person would type (:mod:`solvers.mascarade.observations`) and feed it
to the same tracker and belief that ``unmask solve mascarade`` uses.

* ``honest`` announces a mask only when it believes it holds it (80%+) and the power helps,
  counter-claims only when nearly sure (90%+), looks when unsure, otherwise swaps at random.
* ``strong`` scores each action with the advice module (expected win-chance gain over its
  belief, with a model of who would dare contest): it bluffs masks that sit on table cards or
  in front of players who cannot be sure of them, takes good cards it has tracked, shakes the
  knowledge of opponents before bluffing their masks, and pays a coin to block a bluff that
  would win the game. It reads announcements as soft evidence.
"""

from __future__ import annotations

from engine.core import Rng, derive_seed
from solvers.botbase import ViewBot
from solvers.mascarade.advice import (
    best_turn,
    choose_power,
    counter_ev,
    power_gain,
    situation_of,
    spy_decision,
)
from solvers.mascarade.belief import Contradiction
from solvers.mascarade.model import Tracker, parse_config
from solvers.mascarade.observations import ObservationLog


class MascaradeBotBase(ViewBot):
    """Event intake through the observation log, and an optional belief tracker (the RNG comes from ViewBot)."""

    tracks = False  # build a tracker from the events?
    claim_weight = 1.0

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.tracker: Tracker | None = None
        self.broken: str | None = None  # set if the tracker ever failed (never expected)
        self.obs = ObservationLog(seat, on_entry=self._entry if self.tracks else None)
        self.obs.on_config = self._config if self.tracks else None

    def _config(self, config: dict) -> None:
        n = len(config["players"])
        big = n + (config.get("table") or 0) > 8
        cfg = {**config, "claim_weight": self.claim_weight, "seed": derive_seed(self.seed, "belief") & 0xFFFF,
               "exact_limit": 40_000 if big else 200_000, "particles": 4_000 if big else 20_000}
        self.tracker = Tracker(parse_config(cfg))

    def _entry(self, entry: dict) -> None:
        if self.tracker is None or self.broken:
            return
        try:
            self.tracker.add(entry)
        except (Contradiction, ValueError) as e:
            self.broken = f"{type(e).__name__}: {e}"

    def choose(self, view: dict) -> tuple:
        if self.tracks:
            self.obs.update(view["events"])
            self.since = self.obs.since
        elif view["events"]:
            self.since = view["events"][-1]["n"] + 1
        legal = [tuple(a) for a in view["legal"]]
        if not legal:
            raise ValueError("The bot was asked to act, but it has no legal action.")
        rng = self._rng(view)
        if self.tracks and (self.tracker is None or self.broken):
            return rng.choice(legal)
        return self.decide(view, legal, rng)

    # helpers for the tracking bots

    def my_card(self) -> tuple[str, float]:
        """My most likely mask and its probability."""
        tr = self.tracker
        marg = tr.belief.marginals()[tr.me]
        k = int(marg.argmax())
        return tr.belief.ids[k], float(marg[k])

    def p_hold(self, mask: str) -> float:
        tr = self.tracker
        return float(tr.belief.marginals()[tr.me, tr.belief.index[mask]])


class RandomBot(MascaradeBotBase):
    """Uniformly random among the legal actions."""

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        return rng.choice(legal)


class HonestBot(MascaradeBotBase):
    """Says only what it believes: announces its mask when 80% sure, claims when 90% sure."""

    tracks = True
    announce_at = 0.8
    claim_at = 0.9

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        phase = view["phase"]
        if phase == "claim":
            return ("claim",) if self.p_hold(view["announcement"]["mask"]) >= self.claim_at else ("pass",)
        if phase == "guru":
            return ("name", self.my_card()[0])
        sit = situation_of(self.tracker)
        if phase == "spy":
            pend = view["pending"]
            return ("spy_swap", spy_decision(sit, pend["mine"], pend["theirs"]))
        if phase == "power":
            return self._power(view, legal, rng)
        mask, p = self.my_card()
        if ("announce", mask) in legal and p >= self.announce_at and power_gain(sit, mask) > 0:
            return ("announce", mask)
        if ("look",) in legal and p < self.announce_at:
            return ("look",)
        swaps = [a for a in legal if a[0] == "swap"]
        return rng.choice(swaps) if swaps else rng.choice(legal)

    def _power(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        kind = legal[0][1]
        coins = view["coins"]
        if kind in ("sorceress", "trickster"):
            return max(legal, key=lambda a: (coins[a[2]], -a[2]))
        if kind == "puppeteer":
            return max(legal, key=lambda a: (coins[a[2]] + coins[a[3]], -a[2]))
        return rng.choice(legal)


class StrongBot(MascaradeBotBase):
    """Expected value of every action over its belief; bluffs when the odds favour it."""

    tracks = True
    claim_weight = 3.0

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        phase = view["phase"]
        sit = situation_of(self.tracker)
        if phase == "claim":
            ann = view["announcement"]
            r = counter_ev(sit, ann["seat"], ann["mask"], ann["claimants"], ann["waiting"][1:])
            return ("claim",) if r["claim"] else ("pass",)
        if phase == "guru":
            return ("name", self.my_card()[0])
        if phase == "spy":
            pend = view["pending"]
            return ("spy_swap", spy_decision(sit, pend["mine"], pend["theirs"]))
        if phase == "power":
            return choose_power(sit, legal)
        action, _ = best_turn(sit, legal)
        return action
