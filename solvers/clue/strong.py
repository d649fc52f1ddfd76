"""The strong Clue bot: the exact solver and its advice drive every choice.

It turns its view into the same observation log a person would type (``observations``),
solves it exactly, and then: walks toward the location whose rumors could tell it most about
the envelope (the exact entropy of the best rumor's envelope pattern, discounted by how many
turns the walk takes), asks there the rumor with the most exact expected information (when that
costs at most ``EXACT_BUDGET`` counting runs; else the one of largest potential), shows cards
the asker has already seen, keeps off the "?" squares when the 8th White Walker is near, and accuses
when it is certain — or earlier when waiting is riskier than guessing.
"""

from __future__ import annotations

from solvers.clue.bots import CluePlayerBase
from solvers.clue.observations import ObservationLog
from solvers.clue.sheet import Sheet
from solvers.clue.solver import ClueSolution, solve

AVG_ROLL = 5.0  # the mean number of steps a roll gives with "?"/1-5 dice
EXACT_BUDGET = 60  # counting runs the bot spends on a rumor's exact figures (keeps every turn fast)


class StrongBot(CluePlayerBase):
    """Exact deduction, information-seeking rumors, and a risk-aware accusation."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.obs = ObservationLog(seat)
        self.sheet = Sheet(seat)
        self._key: tuple | None = None  # the observation log's version the answers below are for
        self._sol: ClueSolution | None = None
        self._advice_key: tuple | None = None
        self._advice: dict[str | None, dict] = {}

    def observe(self, ev: dict, view: dict) -> None:
        self.obs.update([ev])
        self.sheet.observe(ev)

    # ------------------------------------------------------------ knowledge

    def _version(self) -> tuple:
        """Changes only when the observation log does (not on every roll or move)."""
        r = self.obs._rumor
        return (len(self.obs.log), None if r is None else (len(r["passed"]), r["shown_by"]))

    def solution(self):
        key = self._version()
        if key != self._key:
            self._sol = solve(self.obs.config, self.obs.entries())
            self._key = key
        return self._sol

    def advice(self, here: str | None = None) -> dict:
        """The potential of every location, and with ``here`` the exact rumor figures there."""
        key = self._version()
        if key != self._advice_key:
            self._advice = {}
            self._advice_key = key
        if here not in self._advice:
            sol = solve(
                self.obs.config,
                self.obs.entries(),
                advice=True,
                advice_locations=[here] if here is not None else [],
                advice_budget=EXACT_BUDGET if here is not None else 0,
            )
            empty: dict = {"best_envelope": None, "rumors": {}, "potential": {}}
            self._advice[here] = sol.advice if sol.status == "ok" and sol.advice is not None else empty
        return self._advice[here]

    def best_triple(self) -> tuple[tuple[str, str, str], float] | None:
        sol = self.solution()
        if sol.status != "ok":
            return None
        b = self.sheet.board
        cats = (b.suspects, b.weapons, b.locations)
        certain = [[c for c in cat if sol.certain.get(c) == "envelope"] for cat in cats]
        if all(len(c) == 1 for c in certain):
            return (certain[0][0], certain[1][0], certain[2][0]), 1.0
        best = self.advice().get("best_envelope")
        if not best:
            return None
        return tuple(best["cards"]), float(best["p"])

    def wants_to_accuse(self, view: dict) -> tuple[str, str, str] | None:
        bt = self.best_triple()
        if bt is None:
            return None
        triple, p = bt
        if p >= 0.999:
            return triple
        # Waiting is riskier when the 8th White Walker is loose or the game is long.
        danger = view["walkers"] >= 7 or view["round"] >= 25
        if danger and p >= 0.5:
            return triple
        return None

    # ------------------------------------------------------------ movement

    def _location_scores(self, view: dict) -> dict[int, float]:
        """What the best rumor at each location could tell about the envelope (its potential)."""
        b = self.sheet.board
        rumors = self.advice().get("potential", {})
        return {i: float(rumors.get(loc, {}).get("bits", 0.0)) for i, loc in enumerate(b.locations)}

    def _goal_value(self, view: dict, node: int, accuse: bool) -> float:
        b = self.sheet.board
        if accuse:
            d = b.distance(node, b.centre) if node != b.centre else 0
            return -float(d if d is not None else 99)
        scores = self._location_scores(view)
        best = -1e9
        for loc, bits in scores.items():
            d = 0 if loc == node else b.distance(node, loc)
            if d is None:
                continue
            turns = 0 if d == 0 else 1 + d / AVG_ROLL
            best = max(best, bits / (1.0 + turns))
        return best

    def _pick_dest(self, view: dict, dests: list[int], accuse: bool) -> int:
        b = self.sheet.board
        risky = view["walkers"] >= 7
        if risky:
            safe = [d for d in dests if d not in b.plot_squares]
            dests = safe or dests
        if accuse and b.centre in dests:
            return b.centre
        scored = []
        for d in dests:
            if accuse:
                v = self._goal_value(view, d, True)
            elif d < b.centre:
                v = self._location_scores(view).get(d, 0.0) * 2.0  # a rumor this very turn
            else:
                v = self._goal_value(view, d, False)
            scored.append((v, -d, d))
        return max(scored)[2]

    # ------------------------------------------------------------ choices

    def decide(self, view: dict, legal: list[tuple], rng) -> tuple:
        b = self.sheet.board
        kinds = {a[0] for a in legal}
        phase = view["phase"]
        here = view["positions"][view["characters"][self.seat]]
        if phase == "refute":
            cards = [a[1] for a in legal]
            asker = view["rumor"][0]
            seen = self.sheet.shown_to.get(asker, set())
            again = [c for c in cards if c in seen]
            anywhere = [c for c in cards if any(c in s for s in self.sheet.shown_to.values())]
            return ("show", (again or anywhere or sorted(cards))[0])
        if phase == "offer":
            return ("draw",) if view["walkers"] < 6 else ("decline",)
        if phase == "aside":
            fresh = [a for a in legal if a[1] not in self.sheet.aside_seen]
            return (fresh or legal)[0]
        if phase == "peek":
            sol = self.solution()
            unknown = {a[1]: 0 for a in legal}
            if sol.status == "ok":
                names = view["players"]
                for who in sol.holders.values():
                    for a in legal:
                        if 0.0 < who.get(names[a[1]], 0.0) < 1.0:
                            unknown[a[1]] += 1
            return ("peek", max(sorted(unknown), key=lambda s: unknown[s]))
        accuse = self.wants_to_accuse(view)
        if phase == "teleport":
            return ("teleport", self._pick_dest(view, [a[1] for a in legal], accuse is not None))
        if phase == "move":
            return ("move", self._pick_dest(view, [a[1] for a in legal], accuse is not None))
        if ("play", "raven") in legal and accuse is None:
            return ("play", "raven")
        if phase == "start":
            if accuse is None and "stay" in kinds:
                scores = self._location_scores(view)
                if scores.get(here, 0.0) >= max(scores.values(), default=0.0) * 0.8 and scores.get(here, 0) > 0:
                    return ("stay",)
            if "passage" in kinds:
                there = b.passages[here]
                if self._goal_value(view, there, accuse is not None) > self._goal_value(view, here, accuse is not None):
                    return ("passage",)
            return ("roll",)
        # after moving
        if accuse is not None and "accuse" in kinds:
            return ("accuse", *accuse)
        if "look_centre" in kinds and accuse is None:
            sol = self.solution()
            if sol.status == "ok" and any(0.0 < h.get("centre", 0.0) < 1.0 for h in sol.holders.values()):
                return ("look_centre",)
        if "rumor" in kinds:
            loc = b.locations[here]
            adv = self.advice(loc)
            best = adv.get("rumors", {}).get(loc) or adv.get("potential", {}).get(loc)
            if best and best["bits"] > 1e-9:
                return ("rumor", best["suspect"], best["weapon"])
            if accuse is None:
                sus = [c for c in b.suspects if self.sheet.holder.get(c) != self.seat]
                return ("rumor", rng.choice(sus or list(b.suspects)), rng.choice(list(b.weapons)))
        if "power" in kinds:
            if accuse is not None and here != b.centre:
                return ("power",)
            if accuse is None and not (here < b.centre and "rumor" in kinds):
                return ("power",)
        return ("end",)
