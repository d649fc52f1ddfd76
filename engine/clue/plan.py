"""Route planning on a Clue board: how far every place is from here, in steps and in turns.

Pure and computed from the board's TOML (paths, "?" squares, passages) and the dice in
``rules.toml``, with the rules the engine applies to a move:

* a roll of ``n`` moves a token at most ``n`` steps along the paths;
* entering a location or the centre ends the move, and so does a "?" square (a Plot card is
  drawn there): a route through one stops there and goes on next turn;
* a secret passage is taken *instead of* rolling: it costs the whole turn and no steps;
* a location left this turn cannot be entered again in the same move.

A route is chosen by the fewest turns with the best roll each turn, then the fewest steps, so
the plan answers the question a player asks ("can I be in the Privy next turn?") and shows the
stops the rules force on the way.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from engine.clue.board import Board, load_rules


@dataclass(frozen=True)
class Leg:
    """One turn of a route: walk ``steps`` to ``to`` (``passage``: take the secret passage there)."""

    to: int
    steps: int
    passage: bool = False


@dataclass(frozen=True)
class Route:
    """The best way from a start to ``target``: its legs (one per turn), steps and turns in all."""

    target: int
    legs: tuple[Leg, ...]

    @property
    def steps(self) -> int:
        """Steps walked in all (a passage walks none)."""
        return sum(leg.steps for leg in self.legs)

    @property
    def turns(self) -> int:
        """Turns needed with the best roll each turn (a passage is one whole turn)."""
        return len(self.legs)

    @property
    def by_passage(self) -> bool:
        return any(leg.passage for leg in self.legs)


def best_roll() -> int:
    """The most steps one roll can give: both dice on their highest number."""
    faces = [f for f in load_rules().dice_faces if isinstance(f, int)]
    return 2 * max(faces) if faces else 0


def plan(board: Board, start: int, roll: int | None = None) -> dict[int, Route]:
    """The best route from ``start`` to every other node, by (turns, steps); unreachable nodes are absent.

    ``roll`` is the most steps one turn may walk (the best roll of the dice when omitted).
    """
    roll = best_roll() if roll is None else roll
    best: dict[int, tuple[int, int]] = {start: (0, 0)}
    came: dict[int, tuple[int, Leg]] = {}
    queue: list[tuple[int, int, int]] = [(0, 0, start)]
    while queue:
        turns, steps, node = heapq.heappop(queue)
        if best.get(node) != (turns, steps):
            continue
        moves: list[Leg] = []
        if node in board.passages:
            moves.append(Leg(board.passages[node], 0, passage=True))
        left = frozenset({node}) if board.is_room(node) else frozenset()
        for dest in board.destinations(node, roll, left):
            dist = board.distance(node, dest)
            if dist is not None:
                moves.append(Leg(dest, dist))
        for leg in moves:
            cost = (turns + 1, steps + leg.steps)
            if leg.to not in best or cost < best[leg.to]:
                best[leg.to] = cost
                came[leg.to] = (node, leg)
                heapq.heappush(queue, (cost[0], cost[1], leg.to))
    routes: dict[int, Route] = {}
    for target in came:
        legs: list[Leg] = []
        node = target
        while node != start:
            prev, leg = came[node]
            legs.append(leg)
            node = prev
        routes[target] = Route(target, tuple(reversed(legs)))
    return routes


def steps_needed(board: Board, start: int, target: int, left: frozenset[int] = frozenset()) -> int | None:
    """The fewest steps of one move from ``start`` to ``target`` (None: no single move gets there)."""
    if target in left:
        return None
    return board.distance(start, target)
