"""Search over sampled worlds for the strong bot.

A *world* is one full assignment of what the bot cannot see (everyone's cards, characters,
the Transformed Kaneki token, unrevealed tiles), drawn from the solver's distribution.
:func:`evaluate` plays each candidate action in each world and finishes the game with
:func:`fast_policy` for every seat (the heuristic bot's logic, read straight from the
world's state so a rollout costs about a millisecond), and scores the bot's win rate. The
same worlds and rollout seeds serve every candidate (common random numbers), so the
comparison between candidates is much sharper than the estimates themselves.

The worlds are built by :func:`engine.ghoul.game.hypothetical` from the bot's own view: the
real game state is never read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Rng, derive_seed
from engine.ghoul.data import DOVE, SUIT_INDEX, TRANSFORMATION, load_data
from engine.ghoul.game import (
    ATTACK,
    COVER_ADD,
    COVER_REMOVE,
    EXCHANGE,
    INTERROGATE,
    MOVE,
    OVER,
    PRELIM_GIVE,
    PRELIM_SHOW,
    REFILL,
    SETUP_FACE,
    SHOW,
    SUPPORT,
    GhoulState,
    apply,
    hypothetical,
    to_act,
)
from solvers.ghoul.hands import matches

_DATA = load_data()
_CHARS = _DATA.characters
_TILES = _DATA.tiles
_RULES = ("coffee", "food", "dove", "pair", "transformation")


def _needs(cid: str) -> tuple[int, ...]:
    c = _CHARS[cid]
    need = [0] * 5
    for s, k in c.alive_with:
        need[s] = max(need[s], k)
    if c.instant:
        need[c.instant[0]] = max(need[c.instant[0]], c.instant[1])
    if c.inspector_x:
        need[DOVE] = max(need[DOVE], 2)
    return tuple(need)


NEEDS = {cid: _needs(cid) for cid in _CHARS}


_VALUES: dict[tuple, float] = {}


def value(h: Sequence[int], need: Sequence[int]) -> float:
    """The heuristic worth of a holding (same scale as ``bots.hand_value``), memoised."""
    key = (tuple(h), tuple(need))
    v = _VALUES.get(key)
    if v is None:
        v = _VALUES[key] = _value(h, need)
    return v


def _value(h: Sequence[int], need: Sequence[int]) -> float:
    v = 0.0
    for s in range(5):
        if need[s]:
            v += min(h[s], need[s]) * 10.0
            if h[s] >= need[s]:
                v += 5.0
    risk = sum(1 for r in _RULES if matches(tuple(h), r))
    return v - 0.3 * risk


def _short(h: Sequence[int], need: Sequence[int]) -> bool:
    return any(need[s] and h[s] < need[s] for s in range(5))


def _kill_odds(s: GhoulState, seat: int) -> float:
    c = _CHARS[s.chars[seat]]
    others = [x for x in s.cast if x != s.chars[seat]]
    return sum(1 for x in others if c.kill in _CHARS[x].kinds) / max(1, len(others))


def _wants_attack(s: GhoulState, seat: int) -> bool:
    c = _CHARS[s.chars[seat]]
    if not c.kill:
        return False
    return _kill_odds(s, seat) >= 0.4 or s.pool <= s.config.players


@dataclass(frozen=True)
class Plan:
    """How the searching seat itself plays later in a rollout, where it differs from the
    heuristic: it interrogates the players its beliefs rank first (``prefer``), and attacks (or
    uses the special action) on its beliefs' chance that the victim is its kill target
    (``kill_p`` per seat), not on the prior odds."""

    me: int
    prefer: tuple[int, ...] = ()
    kill_p: tuple[float, ...] = ()

    def attack_target(self, s: GhoulState, targets: Sequence[tuple]) -> tuple | None:
        if not targets or not self.kill_p:
            return None
        best = max(targets, key=lambda a: self.kill_p[a[1]])
        p = self.kill_p[best[1]]
        if p >= ATTACK_ODDS or (p > 0 and s.pool <= s.config.players):
            return best
        return None


ATTACK_ODDS = 0.2  # the searching seat attacks in rollouts from this chance of a right kill
NO_PLAN = Plan(-1)


def fast_policy(s: GhoulState, rng: Rng, plan: Plan = NO_PLAN) -> tuple:
    """The heuristic bot's choice for whoever must act in ``s`` (a world the searcher built);
    the searching seat follows ``plan`` where it has one."""
    legal = s.legal
    if len(legal) == 1:
        return legal[0]
    seat = to_act(s)
    cid = s.chars[seat]
    need = NEEDS[cid]
    hold = s.hands[seat]
    p = s.phase
    mine = seat == plan.me and bool(plan.kill_p)
    if p == MOVE:
        specials = [a for a in legal if a[0] == "special"]
        if mine:
            pick = plan.attack_target(s, specials)
            if pick is not None:
                return pick
        elif specials and _wants_attack(s, seat):
            return specials[rng.below(len(specials))]
        best, best_v = legal[0], -1e9
        killer = _CHARS[cid].kill is not None if mine else _wants_attack(s, seat)
        for a in legal:
            if a[0] != "move":
                continue
            v = rng.random() * 0.3
            for act in _TILES[s.ring[a[1]]].actions:
                k = act.kind
                if k == "suspicion":
                    if matches(hold, act.rule):
                        v -= 1.0 + 0.5 * s.markers[seat]
                elif k == "interrogation":
                    v += 0.8 if _short(hold, need) else 0.2
                elif k == "cover":
                    v += 0.7 if s.markers[seat] else 0.2
                elif killer:
                    top = max(m for i, m in enumerate(s.markers) if i != seat)
                    if top >= (1 if act.rule == "most" else 3):
                        v += 3.0
            if v > best_v:
                best, best_v = a, v
        return best
    if p == INTERROGATE:
        if seat == plan.me and plan.prefer and _short(hold, need):
            for q in plan.prefer:
                if ("interrogate", q) in legal:
                    return ("interrogate", q)
        if _short(hold, need):
            three = [a for a in legal if a[0] == "interrogate" and s.markers[a[1]] >= 3]
            targets = three or [a for a in legal if a[0] == "interrogate"]
            return targets[rng.below(len(targets))]
        if rng.random() < 0.5:
            return ("pass",)
        return legal[rng.below(len(legal) - 1)]
    if p == EXCHANGE:
        base = value(hold, need)
        best, best_v = ("pass",), 0.5
        for a in legal:
            if a[0] != "exchange":
                continue
            h = list(hold)
            h[SUIT_INDEX[a[1]]] -= 1
            h[SUIT_INDEX[a[2]]] += 1
            v = value(h, need) - base + rng.random() * 0.1
            if v > best_v:
                best, best_v = a, v
        return best
    if p in (SHOW, PRELIM_SHOW):
        return min(
            legal, key=lambda a: (need[SUIT_INDEX[a[1]]] > 0) + (need[SUIT_INDEX[a[2]]] > 0) + rng.random() * 0.5
        )
    if p in (SETUP_FACE, REFILL):
        return min(legal, key=lambda a: (need[SUIT_INDEX[a[1]]] > 0) + rng.random() * 0.5)
    if p == PRELIM_GIVE:
        return min(
            legal,
            key=lambda a: (
                (10.0 if need[SUIT_INDEX[a[1]]] and hold[SUIT_INDEX[a[1]]] <= need[SUIT_INDEX[a[1]]] else 0.0)
                - (SUIT_INDEX[a[1]] == TRANSFORMATION)
                + rng.random()
            ),
        )
    if p == COVER_REMOVE:
        return ("remove", seat) if ("remove", seat) in legal else ("pass",)
    if p == COVER_ADD:
        others = [a for a in legal if a[0] == "add" and a[1] != seat]
        return others[rng.below(len(others))] if others else ("pass",)
    if p == ATTACK:
        targets = [a for a in legal if a[0] == "attack"]
        if mine:
            pick = plan.attack_target(s, targets)
            return pick if pick is not None else ("pass",)
        if targets and _wants_attack(s, seat):
            return targets[rng.below(len(targets))]
        return ("pass",)
    if p == SUPPORT:
        return ("pass",)
    return legal[rng.below(len(legal))]


def rollout(s: GhoulState, rng: Rng, max_steps: int = 400, plan: Plan = NO_PLAN) -> dict | None:
    """Finish the game with the fast policy; the result, or None if it ran too long."""
    steps = 0
    while s.phase != OVER:
        s = apply(s, fast_policy(s, rng, plan))
        steps += 1
        if steps > max_steps:
            return None
    return s.result


def build_world(view: dict, world: tuple[list[tuple[int, ...]], list[str], int], rng: Rng) -> GhoulState:
    """The hypothetical state of one sampled world, with any unrevealed tile placed at random."""
    hands, chars, tk = world
    ring = [r["tile"] for r in view["ring"]]
    missing = [t for t in _DATA.tile_order if t not in ring]
    rng.shuffle(missing)
    ring = [t if t is not None else missing.pop() for t in ring]
    return hypothetical(view, hands, chars, tk, ring, rng.next64())


def evaluate(view: dict, candidates: Sequence[tuple], worlds: Sequence, seed: int, plan: Plan = NO_PLAN) -> list[float]:
    """The seat's win rate after each candidate action, averaged over the sampled worlds
    (``plan``: how the seat itself plays later in the rollouts)."""
    seat = view["seat"]
    wins = [0.0] * len(candidates)
    for w, world in enumerate(worlds):
        base = build_world(view, world, Rng(derive_seed(seed, "world", w)))
        for i, a in enumerate(candidates):
            if a not in base.legal:
                continue
            s = apply(base, a)
            res = rollout(s, Rng(derive_seed(seed, "rollout", w)), plan=plan)
            if res is not None and seat in res["winners"]:
                wins[i] += 1.0
    return [x / max(1, len(worlds)) for x in wins]


__all__ = ["NEEDS", "NO_PLAN", "Plan", "build_world", "evaluate", "fast_policy", "rollout", "value"]
