"""Write a new bot against the view contract and pit it against the built-in ones.

A bot gets only its seat's view (a plain dict: ``legal``, ``events`` and the seat's own
knowledge), never the game state; every random choice comes from an RNG seeded by the bot's
seed and the point in the game, so a replay chooses the same. Subclass ``ViewBot`` and write
``decide``. This one plays Mascarade: it looks at its card whenever it may, announces a
mask only when it has just seen it, and otherwise swaps at random::

    python examples/my_bot.py --games 40
"""

from __future__ import annotations

import argparse

from engine.core import Rng, derive_seed
from engine.registry import get_game
from solvers.botbase import ViewBot
from solvers.bots import make_bot


class PeekerBot(ViewBot):
    """Looks first, claims only what it saw."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.seen: str | None = None  # the card it last saw under its own place

    def observe(self, event: dict, view: dict) -> None:
        if event["t"] == "look" and event["seat"] == self.seat:
            self.seen = event["card"]
        elif event["t"] == "swap" and self.seat in (event["a"], event["b"]):
            self.seen = None  # it may have been swapped away

    def decide(self, view: dict, legal: list[tuple], rng: Rng) -> tuple:
        by_kind: dict[str, list[tuple]] = {}
        for action in legal:
            by_kind.setdefault(action[0], []).append(action)
        if self.seen and ("announce", self.seen) in legal:
            return ("announce", self.seen)
        if "look" in by_kind and self.seen is None:
            return by_kind["look"][0]
        if "claim" in by_kind and self.seen == (view.get("pending") or {}).get("mask"):
            return by_kind["claim"][0]
        if "pass" in by_kind:
            return by_kind["pass"][0]
        return rng.choice(by_kind.get("swap") or legal)


def play(bots: list, seed: int, game: str = "mascarade") -> dict:
    """One game: each seat's bot sees only its view; returns the result."""
    spec = get_game(game)
    state = spec.new_game(spec.config_from_json({"players": len(bots)}), seed)
    while not spec.is_over(state):
        seat = spec.to_act(state)
        bot = bots[seat]
        state = spec.apply(state, tuple(bot.choose(spec.view(state, seat, bot.since))))
    return spec.result(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    rivals = ["random", "honest", "strong"]
    kinds = ["peeker", *rivals]
    wins = dict.fromkeys(kinds, 0)
    for g in range(args.games):
        seats = [kinds[(i + g) % len(kinds)] for i in range(len(kinds))]  # seats rotate
        seed = derive_seed(7, "game", g)
        bots = [PeekerBot(i, derive_seed(seed, "bot", i)) if k == "peeker" else
                make_bot("mascarade", k, seat=i, seed=derive_seed(seed, "bot", i)) for i, k in enumerate(seats)]
        for w in play(bots, seed)["winners"]:
            wins[seats[w]] += 1
    for kind in kinds:
        print(f"{kind:<8} won {wins[kind]:>3} of {args.games}")


if __name__ == "__main__":
    main()
