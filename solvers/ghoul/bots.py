"""Tokyo Ghoul bots: ``random``, ``heuristic`` and ``strong`` (the last in ``strong.py``).

Every bot sees only its seat's view (a plain dict). The heuristic bot pursues its own
objective with simple card logic: it keeps the suits its character needs, hides them when
it shows cards, moves away from Suspicion it would draw, takes a needed card when an
interrogation offers one, and attacks when the odds of its kill target are decent or the
game is about to end.
"""

from __future__ import annotations

from engine.core import Rng
from engine.ghoul.data import DOVE, SUIT_INDEX, TRANSFORMATION
from solvers.botbase import ViewBot
from solvers.ghoul.hands import matches

KINDS = ("human", "ghoul", "inspector")


class GhoulPlayerBase(ViewBot):
    """The shared view-only plumbing (``solvers.botbase``)."""


class RandomBot(GhoulPlayerBase):
    """Uniformly random among the legal actions."""

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        return rng.choice(legal)


# --------------------------------------------------------------------------- card logic shared by the bots


def needs_of(char: dict) -> list[int]:
    """How many cards of each suit the character wants to hold (end objective, instant, special)."""
    need = [0] * 5
    for s, k in char["alive_with"].items():
        need[SUIT_INDEX[s]] = max(need[SUIT_INDEX[s]], k)
    if char["instant"]:
        s, k = char["instant"]
        need[SUIT_INDEX[s]] = max(need[SUIT_INDEX[s]], k)
    if char["inspector_x"]:
        need[DOVE] = max(need[DOVE], 2)
    return need


def counts(cards: list[str]) -> list[int]:
    h = [0] * 5
    for c in cards:
        h[SUIT_INDEX[c]] += 1
    return h


def holding_of(view: dict) -> list[int]:
    h = [0] * 5
    for s, k in view["holding"].items():
        h[SUIT_INDEX[s]] = k
    return h


def hand_value(h: list[int] | tuple[int, ...], need: list[int], exposure: float = 0.3) -> float:
    """How good a holding is for a character: needed cards count, Suspicion exposure costs a little."""
    v = 0.0
    for s in range(5):
        if need[s]:
            v += min(h[s], need[s]) * 10.0
            if h[s] >= need[s]:
                v += 5.0
    risk = sum(1 for rule in ("coffee", "food", "dove", "pair", "transformation") if matches(tuple(h), rule))
    return v - exposure * risk


def kill_odds(view: dict, kind: str) -> float:
    """Prior chance that a random other player counts as ``kind`` (from the cast, minus me)."""
    me = view["character"]["id"]
    others = [c for c in view["cast"] if c["id"] != me]
    if not others:
        return 0.0
    return sum(1 for c in others if kind in c["kinds"]) / len(others)


def tile_of(view: dict, place: int) -> dict:
    return view["ring"][place]


class HeuristicBot(GhoulPlayerBase):
    """Pursues its own objective with simple card logic (no memory beyond its own view)."""

    ATTACK_ODDS = 0.4

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        phase = view["phase"]
        char = view["character"]
        need = needs_of(char)
        hold = holding_of(view)
        kinds = {a[0] for a in legal}
        if phase in ("setup_face", "refill"):
            return self._least_wanted(legal, need, rng, idx=1)
        if phase == "prelim_show" or phase == "show":
            return min(
                legal, key=lambda a: (need[SUIT_INDEX[a[1]]] > 0) + (need[SUIT_INDEX[a[2]]] > 0) + rng.random() * 0.5
            )
        if phase == "prelim_give":
            shown = (view["prelim"] or {}).get("shown_to_me") or []
            pair = shown[0] if len(shown) == 2 and shown[0] == shown[1] else None

            def give_cost(a: tuple) -> float:
                s = SUIT_INDEX[a[1]]
                c = 10.0 if need[s] and hold[s] <= need[s] else 0.0
                if a[1] == pair:
                    c += 5.0
                if s == TRANSFORMATION:
                    c -= 1.0
                return c + rng.random()

            return min(legal, key=give_cost)
        if phase == "move":
            return self._move(view, legal, need, hold, rng)
        if phase == "interrogate":
            targets = [a for a in legal if a[0] == "interrogate"]
            three = [a for a in targets if view["markers"][a[1]] >= 3]
            if any(need) and (hold_short(hold, need)):
                return rng.choice(three or targets)
            return rng.choice(targets) if rng.random() < 0.5 else ("pass",)
        if phase == "exchange":
            return self._exchange(legal, need, hold, rng)
        if phase == "cover_remove":
            if ("remove", self.seat) in legal:
                return ("remove", self.seat)
            return ("pass",)
        if phase == "cover_add":
            others = [a for a in legal if a[0] == "add" and a[1] != self.seat]
            return rng.choice(others) if others else ("pass",)
        if phase == "attack":
            return self._attack(view, legal, rng)
        if phase == "support":
            known = view["support"]["known"]
            looks = [a for a in legal if a[0] == "look" and known[a[1]] is None]
            return rng.choice(looks) if looks else ("pass",)
        if "pass" in kinds:
            return ("pass",)
        return rng.choice(legal)

    # ------------------------------------------------------------------ pieces

    def _least_wanted(self, legal: list[tuple], need: list[int], rng: Rng, idx: int) -> tuple:
        return min(legal, key=lambda a: (need[SUIT_INDEX[a[idx]]] > 0) + rng.random() * 0.5)

    def _late(self, view: dict) -> bool:
        return view["pool"] <= len(view["players"])

    def _wants_attack(self, view: dict) -> bool:
        char = view["character"]
        if not char["kill"]:
            return False
        return kill_odds(view, char["kill"]) >= self.ATTACK_ODDS or self._late(view)

    def _move(self, view: dict, legal: list[tuple], need: list[int], hold: list[int], rng: Rng) -> tuple:
        specials = [a for a in legal if a[0] == "special"]
        if specials and self._wants_attack(view):
            return rng.choice(specials)
        char = view["character"]
        best, best_v = None, None
        for a in legal:
            if a[0] != "move":
                continue
            tile = tile_of(view, a[1])
            v = rng.random() * 0.3
            for act in tile["actions"] or []:
                if act["kind"] == "suspicion":
                    if matches(tuple(hold), act["rule"]):
                        v -= 1.0 + 0.5 * view["markers"][self.seat]
                elif act["kind"] == "interrogation":
                    v += 0.8 if hold_short(hold, need) else 0.2
                elif act["kind"] == "cover":
                    v += 0.7 if view["markers"][self.seat] else 0.2
                elif act["kind"] == "attack" and char["kill"] and self._wants_attack(view):
                    others = [m for i, m in enumerate(view["markers"]) if i != self.seat]
                    ok = max(others) >= 1 if act["rule"] == "most" else max(others) >= 3
                    if ok:
                        v += 3.0
            if best_v is None or v > best_v:
                best, best_v = a, v
        return best if best is not None else rng.choice(legal)

    def _exchange(self, legal: list[tuple], need: list[int], hold: list[int], rng: Rng) -> tuple:
        base = hand_value(hold, need)
        best, best_v = ("pass",), 0.5
        for a in legal:
            if a[0] != "exchange":
                continue
            h = list(hold)
            h[SUIT_INDEX[a[1]]] -= 1
            h[SUIT_INDEX[a[2]]] += 1
            v = hand_value(h, need) - base + rng.random() * 0.1
            if v > best_v:
                best, best_v = a, v
        return best

    def _attack(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        targets = [a for a in legal if a[0] == "attack"]
        if targets and self._wants_attack(view):
            return rng.choice(targets)
        return ("pass",)


def hold_short(hold: list[int], need: list[int]) -> bool:
    return any(need[s] and hold[s] < need[s] for s in range(5))


def __getattr__(name: str) -> type:
    """``StrongBot`` lives in ``strong.py`` (which builds on this module); it is registered here as
    ``solvers.ghoul.bots:StrongBot`` and imported on first use, so either module may load first."""
    if name == "StrongBot":
        from solvers.ghoul.strong import StrongBot

        return StrongBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GhoulPlayerBase", "HeuristicBot", "RandomBot", "StrongBot"]  # noqa: F822 (StrongBot: see __getattr__)
