"""Mascarade solvers: the layout belief, the session tracker, advice, and bots.

``solve(config, log)`` answers ``unmask solve mascarade FILE``; ``events_to_log`` turns a
seat's engine events into that same log, so bots and people share one solver.
"""

from solvers.mascarade.belief import Belief, Contradiction
from solvers.mascarade.model import SolverInputError, Tracker, parse_config
from solvers.mascarade.observations import ObservationLog, events_to_log
from solvers.mascarade.solver import minimal_conflict, result_of, solve

__all__ = [
    "Belief",
    "Contradiction",
    "ObservationLog",
    "SolverInputError",
    "Tracker",
    "events_to_log",
    "minimal_conflict",
    "parse_config",
    "result_of",
    "solve",
]
