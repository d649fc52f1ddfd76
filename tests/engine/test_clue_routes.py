"""Issue 23 finding 3: the route planner (engine.clue.plan), one test per movement rule, on both boards."""

from __future__ import annotations

from collections import deque

import pytest

from engine.clue.board import BOARDS, load_board
from engine.clue.plan import best_roll, plan, steps_needed


def _node(board, name: str) -> int:
    return board.location_node(name)


def test_the_best_roll_comes_from_the_dice_data():
    assert best_roll() == 10  # two dice, faces "?" and 1..5 (rules.toml)


@pytest.mark.parametrize(("board_id", "a", "b"), [
    ("red-keep", "Qyburn's Laboratory", "Privy"),
    ("red-keep", "King Tommen's Bedchamber", "Red Keep location 9"),
    ("meereen", "Fighting Pit of Daznak", "Meereen location 5"),
    ("meereen", "Meereen location 3", "Meereen location 7"),
])
def test_a_secret_passage_costs_a_whole_turn_and_no_steps(board_id, a, b):
    board = load_board(board_id)
    route = plan(board, _node(board, a))[_node(board, b)]
    assert (route.turns, route.steps, route.by_passage) == (1, 0, True)
    back = plan(board, _node(board, b))[_node(board, a)]
    assert (back.turns, back.steps) == (1, 0)


def test_a_passage_is_taken_instead_of_a_roll_never_after_walking():
    """Walking into a corner and taking its passage in the same turn is not allowed: two turns."""
    board = load_board("red-keep")
    start = _node(board, "Training Yard")
    route = plan(board, start)[_node(board, "Red Keep location 9")]
    assert [(board.node_names[leg.to], leg.steps, leg.passage) for leg in route.legs] == [
        ("King Tommen's Bedchamber", 4, False), ("Red Keep location 9", 0, True)]
    assert route.turns == 2


def test_a_plot_square_stops_the_move_even_with_steps_to_spare():
    """Throne Room - Training Yard is 6 steps with a "?" on square 3: two turns, the first ending on the "?"."""
    board = load_board("red-keep")
    start, yard = board.centre, _node(board, "Training Yard")
    route = plan(board, start)[yard]
    assert route.steps == 6 and route.turns == 2
    assert route.legs[0].to in board.plot_squares and route.legs[0].steps == 3
    assert steps_needed(board, start, yard) is None  # no single move passes the "?"


def test_entering_a_location_ends_the_move():
    """Throne Room - Hand's Tower - Laboratory is 10 steps, one roll's worth, but the tower stops you."""
    board = load_board("red-keep")
    route = plan(board, board.centre)[_node(board, "Qyburn's Laboratory")]
    assert route.steps == 10 and route.turns == 2
    assert route.legs[0].to == _node(board, "Hand's Tower")


def test_a_smaller_roll_needs_more_turns():
    board = load_board("meereen")
    pit = _node(board, "Fighting Pit of Daznak")
    two = _node(board, "Meereen location 2")
    assert plan(board, pit)[two].turns == 1
    assert plan(board, pit, roll=2)[two].turns == 2  # 4 steps, 2 a turn


def test_the_location_just_left_is_not_entered_again_in_one_move():
    board = load_board("red-keep")
    tower = _node(board, "Hand's Tower")
    assert steps_needed(board, board.centre, tower) == 5
    assert steps_needed(board, board.centre, tower, frozenset({tower})) is None


def _turn_bfs(board, start: int, roll: int) -> dict[int, int]:
    """Fewest turns by a plain breadth-first search over what one turn allows (the rules, spelled out)."""
    turns = {start: 0}
    queue = deque([start])
    while queue:
        u = queue.popleft()
        nxt = set(board.destinations(u, roll, frozenset({u}) if board.is_room(u) else frozenset()))
        if u in board.passages:
            nxt.add(board.passages[u])
        for v in nxt:
            if v not in turns:
                turns[v] = turns[u] + 1
                queue.append(v)
    return turns


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_route_is_legal_leg_by_leg_and_has_the_fewest_turns(board_id):
    board = load_board(board_id)
    roll = best_roll()
    for start in range(len(board.node_names)):
        routes = plan(board, start)
        fewest = _turn_bfs(board, start, roll)
        assert set(routes) == set(fewest) - {start}
        for target, route in routes.items():
            assert route.turns == fewest[target], (board.node_names[start], board.node_names[target])
            at = start
            for leg in route.legs:
                if leg.passage:
                    assert board.passages.get(at) == leg.to and leg.steps == 0
                else:
                    left = frozenset({at}) if board.is_room(at) else frozenset()
                    assert leg.to in board.destinations(at, roll, left)
                    assert leg.steps == board.distance(at, leg.to) <= roll
                at = leg.to
            assert at == target


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_place_can_be_reached_from_every_place(board_id):
    board = load_board(board_id)
    for start in range(board.centre + 1):
        assert set(range(board.centre + 1)) - {start} <= set(plan(board, start))
