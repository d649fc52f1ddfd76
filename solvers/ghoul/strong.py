"""The strong Tokyo Ghoul bot: the solver's beliefs plus a search over sampled worlds.

It keeps the same observation log a person would type (``observations``), solves it with a
behaviour model (players tend to hold, take and keep the suits their character needs), and:

* for the decisions that shape the game — where the token goes, the Inspectors' special
  action, whom to interrogate, which card to exchange, which cards to show when
  interrogated, Cover Up Tracks, attacks — draws worlds from those beliefs and plays every
  candidate to the end in each of them (:mod:`solvers.ghoul.search`), itself playing on by
  its beliefs (a :class:`~solvers.ghoul.search.Plan`) and everyone else as the heuristic;
* for the preliminary phase, face-up cards and Support actions uses the heuristic bot's
  card logic.
"""

from __future__ import annotations

from engine.core import Rng, derive_seed
from engine.ghoul.data import load_data
from solvers.ghoul.bots import GhoulPlayerBase, HeuristicBot, holding_of, needs_of
from solvers.ghoul.model import build_problem
from solvers.ghoul.observations import ObservationLog
from solvers.ghoul.search import Plan, evaluate
from solvers.ghoul.solver import Behaviour, Solution, sample_worlds, solve_problem

CHARS = load_data().characters
SEARCH_PHASES = ("move", "attack", "interrogate", "exchange", "show", "cover_remove", "cover_add")


class StrongBot(GhoulPlayerBase):
    """Beliefs from the exact solver, decisions by sampled-world search."""

    WORLDS = 24
    CLOSE = 0.1  # win-rate gap under which a decision gets a second batch of worlds
    PLAN_INTERROGATIONS = True  # in rollouts, interrogate as the beliefs suggest, not at random
    PLAN_ATTACKS = True  # in rollouts, attack on the beliefs' odds, not on the prior ones
    MAX_CANDIDATES = 12
    PREFER_HEURISTIC = 0.01  # a tie-break: within this win rate, the heuristic's own choice wins

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.obs = ObservationLog(seat)
        self.heuristic = HeuristicBot(seat, seed)
        self.behaviour = Behaviour()
        self._key: int | None = None
        self._sol: Solution | None = None

    def observe(self, event: dict, view: dict) -> None:
        self.obs.update([event])

    def beliefs(self) -> Solution | None:
        """The solver's distribution over worlds given everything this seat has seen (cached)."""
        if self._key != self.obs.since or self._sol is None:
            problem = build_problem(self.obs.config, self.obs.entries())
            sol = solve_problem(problem, marginals=False, behaviour=self.behaviour)
            if sol.status != "ok":  # pragma: no cover - the engine's observations are always consistent
                sol = solve_problem(problem, marginals=False, flow=False)
            self._sol = sol if sol.status == "ok" else None
            self._key = self.obs.since
        return self._sol

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        fallback = self.heuristic.decide(view, legal, rng)
        scored = self._search(view, legal, fallback)
        return fallback if scored is None else scored[0]

    def searches(self, view: dict) -> bool:
        """Whether :meth:`decide` weighs its options by search here (else the heuristic decides)."""
        return view["phase"] in SEARCH_PHASES and len(view["legal"]) >= 2

    def scored_choice(self, view: dict) -> tuple[tuple, list[tuple[tuple, float]]] | None:
        """Why the bot would act so here: its choice and every candidate's estimated win rate.

        The same search :meth:`decide` runs (same seeds, same worlds), so asked at the same point
        of a game it gives the same choice; None where the bot plays its heuristic (no values).
        A replay's "Why this move?" (``solvers.reasons``) asks a fresh bot rebuilt to that point.
        """
        self._consume(view)
        legal = [tuple(a) for a in view["legal"]]
        if not legal:
            return None
        fallback = self.heuristic.decide(view, legal, self._rng(view))
        scored = self._search(view, legal, fallback)
        if scored is None:
            return None
        choice, candidates, scores = scored
        return choice, list(zip(candidates, scores, strict=True))

    def _search(self, view: dict, legal: list[tuple], fallback: tuple) -> tuple[tuple, list[tuple], list[float]] | None:
        """(choice, candidates, their win rates) by sampled-world search; None where the heuristic decides."""
        if view["phase"] not in SEARCH_PHASES or len(legal) < 2:
            return None
        sol = self.beliefs()
        if sol is None:
            return None
        candidates = self._candidates(view, legal, fallback)
        if len(candidates) < 2:
            return None
        n = view["events"][-1]["n"] if view["events"] else self.since
        seed = derive_seed(self.seed, "search", n)
        worlds = sample_worlds(sol, self.WORLDS, Rng(seed))
        plan = self._plan(view, worlds)
        scores = evaluate(view, candidates, worlds, seed, plan)
        ranked = sorted(scores, reverse=True)
        if ranked[0] - ranked[1] < self.CLOSE:
            # A close call: as many worlds again, and decide on all of them.
            more_seed = derive_seed(seed, "more")
            more = sample_worlds(sol, self.WORLDS, Rng(more_seed))
            extra = evaluate(view, candidates, more, more_seed, plan)
            scores = [(a + b) / 2 for a, b in zip(scores, extra, strict=True)]
        best = max(range(len(candidates)),
                   key=lambda i: scores[i] + (self.PREFER_HEURISTIC if candidates[i] == fallback else 0.0))
        return candidates[best], candidates, scores

    def _plan(self, view: dict, worlds: list) -> Plan:
        """How I will play later, as my beliefs (the sampled worlds) suggest: whom I would ask for
        the suits I still need, and the chance that killing each player meets my objective."""
        me = self.seat
        n = len(view["players"])
        need = needs_of(view["character"])
        hold = holding_of(view)
        lacking = [s for s in range(5) if need[s] > hold[s]]
        useful = [0.0] * n
        hits = [0.0] * n
        kill = view["character"]["kill"]
        for hands, chars, _tk in worlds:
            for q in range(n):
                if q == me:
                    continue
                if lacking and any(hands[q][s] for s in lacking):
                    useful[q] += 1.0
                if kill and kill in CHARS[chars[q]].kinds:
                    hits[q] += 1.0
        prefer = tuple(sorted((q for q in range(n) if q != me), key=lambda q: -useful[q])) if lacking else ()
        kill_p = tuple(h / len(worlds) for h in hits) if kill and self.PLAN_ATTACKS else ()
        return Plan(me, prefer if self.PLAN_INTERROGATIONS else (), kill_p)

    def _candidates(self, view: dict, legal: list[tuple], fallback: tuple) -> list[tuple]:
        """The actions worth searching: all of them, unless there are many (then the likeliest)."""
        if len(legal) <= self.MAX_CANDIDATES:
            return legal
        out = [fallback] + [a for a in legal if a != fallback]
        return out[: self.MAX_CANDIDATES]
