"""Masque of the Red Death bots: ``random``, ``heuristic`` and ``strong``.

All three see only their seat's view. They read their own observations (Gossip cards they
held or saw, Red Death cards they looked at) from the event stream, never the state.

* ``random`` — uniformly random among the legal actions (Movement tiles now and then).
* ``heuristic`` — popularity first: follows the Prince, plays its best popularity card, and
  draws Rumor cards (Discuss) when it knows too few safe rooms for the rounds left; its plan
  keeps to the rooms it knows are safe and away from the ones it knows are deadly.
* ``strong`` — the exact solver for the plan and the midnight start; every Action card is
  weighed by its expected gain in survival (information: the best slot to name, the chance a
  Discuss draws a useful card) times its effect on the chance to be the most popular survivor.
"""

from __future__ import annotations

import math

from engine.core import Rng
from engine.masque import CARD_INDEX, GOSSIP, NR, NS, ROOM_INDEX, ROOMS, SLOTS
from engine.masque.rules import load_actions, load_rules
from solvers.botbase import ViewBot
from solvers.masque.solver import (
    ask_values,
    best_by_start,
    best_plans,
    death_table,
    learn_gains,
    slot_probs,
    unknown_cards,
)

_RULES = load_rules()
ROUNDS = _RULES.rounds


def ring_distance(a: int, b: int) -> int:
    d = (a - b) % NR
    return min(d, NR - d)


class MasqueBotBase(ViewBot):
    """What this seat knows of the Red Death cards (the RNG and event intake come from ViewBot)."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.red = _RULES.red_death
        self.safe = [0] * NS  # per slot, a mask of rooms this seat knows are safe
        self.deadly = [0] * NS  # per slot, a mask of rooms this seat knows are deadly
        self.looked: set[tuple[int, int]] = set()  # (slot, index) of the Red Death cards it saw
        self.info: list[int] = []  # per seat: public count of the Rumor cards and looks it got

    def _learn_safe(self, name: str | None) -> None:
        if name:
            c = CARD_INDEX[name]
            if c < GOSSIP:
                self.safe[c // NR] |= 1 << (c % NR)

    def observe(self, ev: dict, view: dict | None = None) -> None:
        t = ev["t"]
        me = self.seat
        if t == "setup":
            self.red = ev["red_death"]
            self.info = [0] * len(ev["players"])
        elif t == "draw" or t == "ask":
            self.info[ev["seat"]] += 1
            if ev["seat"] == me:
                self._learn_safe(ev["card"])
        elif t == "give":
            if ev["target"] == me:
                self._learn_safe(ev["card"])
        elif t == "look":
            self.info[ev["seat"]] += 1
            if ev["seat"] == me:
                self.deadly[ev["slot"]] |= 1 << ROOM_INDEX[ev["room"]]
                self.looked.add((ev["slot"], ev["index"]))

    # ------------------------------------------------------------ helpers every bot uses

    def known_safe(self, slot: int) -> int:
        return bin(self.safe[slot]).count("1")

    def prince_next(self, view: dict) -> int | None:
        """Where the Prince rewards next round (None after the 12th)."""
        r = view["round"]
        route = view["prince_route"]
        return ROOM_INDEX[route[r]] if 1 <= r < len(route) else None

    def here(self, view: dict) -> int:
        return ROOM_INDEX[view["positions"][self.seat]]

    def fresh_index(self, slot: int, rng: Rng) -> int:
        """A Red Death card of ``slot`` this seat has not looked at (a second look can find the other room)."""
        fresh = [i for i in range(self.red) if (slot, i) not in self.looked]
        return fresh[0] if fresh else rng.below(self.red)

    def plan_step(self, view: dict, plan: tuple[str, ...] | list[str]) -> tuple:
        """One Movement tile toward ``plan``, or ``("ready",)`` when the plan is in place."""
        cur = view["plan"]
        for k in range(NS):
            if cur[k] != plan[k]:
                return ("tile", k, plan[k])
        return ("ready",)


class RandomBot(MasqueBotBase):
    """Uniformly random legal choices; Movement tiles only now and then, so games keep moving."""

    def observe(self, ev: dict, view: dict | None = None) -> None:  # it learns nothing
        return

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        tiles = [a for a in legal if a[0] == "tile"]
        rest = [a for a in legal if a[0] != "tile"]
        edit = 0.5 if view["phase"] == "plan" else 0.1  # the plan step: about one tile, then ready
        if not rest or (tiles and rng.random() < edit):
            return rng.choice(tiles)
        return rng.choice(rest)


# Popularity a card brings its player at once (the heuristic's ranking).
_POP_SCORE = {"spotlight": 4.0, "jest": 3.0, "mock": 2.8, "admire": 2.5, "flattery": 2.0, "dance": 2.0,
              "scandal": 1.5, "flirt": 1.2, "pickpocket": 1.1, "waltz": 1.0, "encore": 1.0,
              "gossip-monger": 0.6, "premonition": 0.5, "threaten": 0.4, "swindle": 0.3,
              "eavesdrop": 0.3, "confidant": 0.2, "discuss": 0.1, "menace": -0.5}
_INFO_CARDS = frozenset({"discuss", "gossip-monger", "flirt", "swindle", "threaten", "menace", "pickpocket",
                         "eavesdrop", "premonition", "confidant"})


def naive_table(safe: list[int], deadly: list[int], r: int) -> list[tuple[float, ...]]:
    """The heuristic's risk per room: 0 where it holds Gossip, 1 where it saw the Red Death,
    else the blind chance r/7 (it does not reason about what the known rooms imply)."""
    blind = r / NR
    return [tuple(0.0 if safe[k] >> x & 1 else (1.0 if deadly[k] >> x & 1 else blind) for x in range(NR))
            for k in range(NS)]


class HeuristicBot(MasqueBotBase):
    """Popularity first; Discuss when it knows too few safe rooms; a plan through the rooms it knows."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._plan: tuple[str, ...] | None = None  # chosen once, at the planning step

    def slots_unknown(self) -> int:
        return sum(1 for k in range(NS) if not self.safe[k])

    def my_plan_table(self) -> list[tuple[float, ...]]:
        return naive_table(self.safe, self.deadly, self.red)

    def pick_card(self, view: dict, cards: list[str], rng: Rng) -> str:
        """Popularity cards first; Discuss once the rounds left are only just enough to learn a safe
        room for every slot (or when no popularity card is left)."""
        rounds_left = ROUNDS - view["round"] + 1
        need = self.slots_unknown()
        showy = [c for c in cards if _POP_SCORE.get(c, 0.0) >= 2.0 and not load_actions()[c].keep]
        if need > 0 and (rounds_left <= need + 2 or not showy):
            if "gossip-monger" in cards and need >= 2:
                return "gossip-monger"
            if "discuss" in cards:
                return "discuss"
        near = view["nearby"]
        scores = {}
        for c in cards:
            sc = _POP_SCORE.get(c, 0.5)
            if c in ("flirt", "swindle", "threaten", "pickpocket", "eavesdrop") and need:
                sc += 0.8
            if c == "mock" and near and max(view["popularity"][t] for t in near) < view["popularity"][self.seat]:
                sc -= 1.0  # mocking someone behind you helps little
            scores[c] = sc + rng.random() * 0.01
        return max(cards, key=scores.__getitem__)

    def best_start_plan(self, view: dict, starts: list[int]) -> tuple[int, tuple[str, ...]]:
        plan = best_plans(self.my_plan_table(), starts, top=1)[0]
        return plan.start, plan.moves

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        phase = view["phase"]
        kinds = [a for a in legal if a[0] != "tile"]
        pop = view["popularity"]
        if phase == "place":
            return ("place", view["prince_route"][0])
        if phase == "choose":
            cards = [a[1] for a in kinds]
            return ("play", self.pick_card(view, cards, rng))
        if phase == "target":
            card = view["resolving"]["card"]
            ts = [a[1] for a in legal]
            if load_actions()[card].effects[-1][0] == "other_gain":
                return ("target", min(ts, key=pop.__getitem__))
            return ("target", max(ts, key=pop.__getitem__))
        if phase == "ask":
            ts = sorted({a[1] for a in legal}, key=lambda t: -view["rumor_counts"][t])
            t = ts[0]
            slot = min(range(NS), key=lambda k: (self.known_safe(k), rng.random()))
            return ("ask", t, slot)
        if phase == "give":
            best = max(legal, key=lambda a: self.known_safe(CARD_INDEX[a[2]] // NR))
            return best
        if phase == "look":
            return ("look", self.fresh_index(view["resolving"]["slot"], rng))
        if phase == "peek":
            slot = min(range(NS), key=lambda k: (self.known_safe(k) + bin(self.deadly[k]).count("1"), k))
            return ("peek", slot, self.fresh_index(slot, rng))
        if phase == "waltz":
            nxt = self.prince_next(view)
            return ("waltz", ROOMS[nxt if nxt is not None else self.here(view)])
        if phase == "return":
            back = [a for a in legal if a[0] == "return"]
            if not back:
                return ("done",)
            return max(back, key=lambda a: _POP_SCORE.get(a[1], 0.0))
        if phase == "move":
            options = [ROOM_INDEX[a[1]] for a in legal]
            if view["round"] >= ROUNDS:
                start, _moves = self.best_start_plan(view, options)
                return ("move", ROOMS[start])
            goal = self.prince_next(view)
            here = self.here(view)
            nearest = min(options, key=lambda r: (ring_distance(r, goal), r != here))
            return ("move", ROOMS[nearest])
        if phase == "plan":
            if self._plan is None:
                self._plan = self.best_start_plan(view, [self.here(view)])[1]
            return self.plan_step(view, self._plan)
        return rng.choice(kinds or legal)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class StrongBot(MasqueBotBase):
    """The exact solver for the plan; each card weighed by survival gained times the chance of
    being the most popular survivor (see the module docstring)."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._plan: tuple[str, ...] | None = None  # chosen once, at the planning step

    # Tuning: how likely an opponent survives, from how many Rumor cards and looks it got.
    base_survival = 0.16
    per_info = 0.06
    max_survival = 0.8

    # ------------------------------------------------------------ estimates

    def opp_survival(self, t: int) -> float:
        return min(self.max_survival, self.base_survival + self.per_info * self.info[t])

    def sigma(self, view: dict, after: int = 0) -> float:
        left = max(0, ROUNDS - view["round"] - after) if view["round"] <= ROUNDS else 0
        return max(0.6, 2.2 * math.sqrt(left))

    def win_factor(self, view: dict, pop: list[int], sigma: float) -> float:
        """P(no surviving rival ends more popular), rivals independent, popularity drift ~ N(0, sigma)."""
        me = self.seat
        f = 1.0
        for t, p in enumerate(pop):
            if t != me and view["alive"][t]:
                ahead = _phi((p - pop[me]) / sigma)
                f *= 1.0 - self.opp_survival(t) * ahead
        return f

    def starts(self, view: dict, reach: int | None = None) -> list[int]:
        here = self.here(view)
        if reach is None:
            reach = max(1, ROUNDS - view["round"] + 1) if view["round"] <= ROUNDS else 0
        return [r for r in range(NR) if ring_distance(here, r) <= reach]

    def table(self) -> list[tuple[float, ...]]:
        return death_table(self.safe, self.deadly, self.red)

    def deadly_gains(self, starts: list[int]) -> list[float]:
        """Per slot, the expected best-survival gain of looking at a Red Death card not yet seen."""
        p = self.table()
        base = max(best_by_start(p)[x] for x in starts)
        out = []
        for k in range(NS):
            if all((k, i) in self.looked for i in range(self.red)):
                out.append(0.0)
                continue
            cand = [(x, p[k][x]) for x in range(NR) if not self.deadly[k] >> x & 1 and p[k][x] > 0.0]
            tot = sum(w for _x, w in cand)
            if tot <= 0.0:
                out.append(0.0)
                continue
            exp = 0.0
            for x, w in cand:
                q = list(p)
                q[k] = slot_probs(self.safe[k], self.deadly[k] | (1 << x), self.red)
                f = best_by_start(q)
                exp += w / tot * max(f[y] for y in starts)
            out.append(max(0.0, exp - base))
        return out

    def info_values(self, view: dict, starts: list[int]) -> dict:
        """Survival now, and the expected survival gained by a Discuss draw and by asks."""
        base, gains = learn_gains(self.safe, self.deadly, self.red, starts)
        m = unknown_cards(self.safe, self.red)
        deck = view["deck"]
        draw = 0.0
        if deck:
            ev_left = [_RULES.evidence_per_slot - sum(1 for c in view["evidence_discard"] if c.endswith(SLOTS[k]))
                       for k in range(NS)]
            dg = self.deadly_gains(starts)
            gossip_in_deck = max(0, deck - sum(ev_left))
            total_m = sum(m)
            for k in range(NS):
                if total_m:
                    draw += gossip_in_deck / deck * m[k] / total_m * gains[k]
                draw += ev_left[k] / deck * dg[k]
        return {"base": base, "gains": gains, "m": m, "draw": draw}

    def ask_gain(self, view: dict, info: dict, targets: list[int]) -> tuple[float, int, int]:
        """The best (expected gain, target, slot) of naming a slot to one of ``targets``."""
        best = (0.0, targets[0] if targets else -1, 0)
        for t in targets:
            h = view["rumor_counts"][t]
            if h <= 0:
                continue
            vals = ask_values(info["gains"], info["m"], h)
            k = max(range(NS), key=lambda j: (round(vals[j], 12), info["gains"][j], -j))
            if vals[k] > best[0] or best[1] < 0:
                best = (vals[k], t, k)
        return best

    # ------------------------------------------------------------ choosing a card

    def card_outcome(self, view: dict, card: str, info: dict) -> tuple[float, list[int]]:
        """(expected survival gain, popularity after) of playing ``card`` now (one-step estimate)."""
        pop = list(view["popularity"])
        me = self.seat
        near = [t for t in view["nearby"]]
        gain_s = 0.0
        asks = 0
        for eff, k in load_actions()[card].effects:
            if eff == "gain":
                pop[me] += k
            elif eff == "lose":
                pop[me] -= k
            elif eff == "draw":
                gain_s += k * info["draw"]
            elif eff == "twice":
                nxt = self.prince_next(view)
                if nxt is not None and ring_distance(self.here(view), nxt) == 2:
                    pop[me] += 1  # Dance reaches the Prince's next room
            elif eff == "other_gain" and near:
                t = min(near, key=lambda x: self.opp_survival(x) * (pop[x] + 3 > pop[me]))
                pop[t] += k
            elif eff == "other_lose" and near:
                t = max(near, key=lambda x: pop[x] if pop[x] > pop[me] - 3 else -1)
                pop[t] -= k
            elif eff in ("look", "take"):
                asks += k
            elif eff == "look_each":
                asks += len([t for t in near if view["rumor_counts"][t]])
            elif eff == "nearby_lose":
                for t in near:
                    pop[t] -= k
            elif eff == "premonition":
                gain_s += max(self.deadly_gains(self.starts(view)) or [0.0])
            elif eff == "least_gain":
                least = min(range(len(pop)), key=pop.__getitem__)
                pop[least] += k
            elif eff == "anywhere":
                pop[me] += 1 if self.prince_next(view) is not None else 0
            elif eff == "encore":
                pop[me] += 2  # a popularity card back in hand, worth about one Jest later
        if asks:
            targets = [t for t in near if view["rumor_counts"][t]]
            g, _t, _k = self.ask_gain(view, info, targets)
            # later looks see less new: count the first fully, then half
            gain_s += g * (1 + 0.5 * (asks - 1))
        return gain_s, pop

    def pick_card(self, view: dict, cards: list[str]) -> str:
        starts = self.starts(view)
        info = self.info_values(view, starts)
        base = info["base"]
        sig = self.sigma(view, after=1)
        util = {}
        for c in cards:
            gs, pop = self.card_outcome(view, c, info)
            util[c] = (base + gs) * self.win_factor(view, pop, sig)
        # A reusable card (Discuss, Dance) played now may leave a one-shot card unplayed at the end.
        keep = {c for c in cards if load_actions()[c].keep}
        shots = sorted((util[c] - max((util[k] for k in keep), default=0.0) for c in cards if c not in keep),
                       reverse=True)
        shots = [g for g in shots if g > 0]
        rounds_left = ROUNDS - view["round"] + 1
        if shots and len(shots) >= rounds_left:
            for c in keep:
                util[c] -= shots[min(len(shots), rounds_left) - 1]
        return max(cards, key=lambda c: (util[c], -list(load_actions()).index(c)))

    # ------------------------------------------------------------ the other decisions

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        phase = view["phase"]
        pop = view["popularity"]
        if phase == "place":
            return ("place", view["prince_route"][0])
        if phase == "choose":
            cards = [a[1] for a in legal if a[0] == "play"]
            return ("play", self.pick_card(view, cards))
        if phase == "target":
            card = view["resolving"]["card"]
            ts = [a[1] for a in legal]
            sig = self.sigma(view)
            if load_actions()[card].effects[-1][0] == "other_gain":
                def after_gain(t: int) -> float:
                    q = list(pop)
                    q[t] += 3
                    return self.win_factor(view, q, sig)
                return ("target", max(ts, key=after_gain))

            def after_loss(t: int) -> float:
                q = list(pop)
                q[t] -= 2
                return self.win_factor(view, q, sig)
            return ("target", max(ts, key=after_loss))
        if phase == "ask":
            starts = self.starts(view)
            info = self.info_values(view, starts)
            targets = sorted({a[1] for a in legal})
            _g, t, k = self.ask_gain(view, info, targets)
            if t < 0:
                t = targets[0]
            return ("ask", t, k)
        if phase == "give":
            return max(legal, key=lambda a: (self.known_safe(CARD_INDEX[a[2]] // NR), -pop[a[1]]))
        if phase == "look":
            return ("look", self.fresh_index(view["resolving"]["slot"], rng))
        if phase == "peek":
            dg = self.deadly_gains(self.starts(view))
            slot = max(range(NS), key=lambda k: (dg[k], -k))
            return ("peek", slot, self.fresh_index(slot, rng))
        if phase == "waltz":
            nxt = self.prince_next(view)
            return ("waltz", ROOMS[nxt if nxt is not None else self.here(view)])
        if phase == "return":
            back = [a for a in legal if a[0] == "return"]
            order = ("spotlight", "jest", "mock", "admire", "flattery", "flirt", "threaten", "swindle")
            for c in order:
                if ("return", c) in back:
                    return ("return", c)
            return back[0] if back else ("done",)
        if phase == "move":
            return ("move", ROOMS[self.pick_room(view, [ROOM_INDEX[a[1]] for a in legal])])
        if phase == "plan":
            if self._plan is None:
                self._plan = best_plans(self.table(), [self.here(view)], top=1)[0].moves
            return self.plan_step(view, self._plan)
        return rng.choice(legal)

    def pick_room(self, view: dict, options: list[int]) -> int:
        """Follow the Prince, but from the 11th round on keep the best midnight start in reach."""
        r = view["round"]
        here = self.here(view)
        nxt = self.prince_next(view)
        if r >= ROUNDS:
            f = best_by_start(self.table())
            return max(options, key=lambda x: (round(f[x], 12), x == here))
        if r == ROUNDS - 1:
            f = best_by_start(self.table())
            sig = self.sigma(view, after=1)
            pop = list(view["popularity"])

            def value(x: int) -> float:
                q = list(pop)
                if x == nxt:
                    q[self.seat] += 1
                reach = max(f[y] for y in range(NR) if ring_distance(x, y) <= 1)
                return reach * self.win_factor(view, q, sig)
            return max(options, key=lambda x: (round(value(x), 12), x == here))
        return min(options, key=lambda x: (ring_distance(x, nxt), x != here))
