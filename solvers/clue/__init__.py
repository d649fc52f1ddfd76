"""Exact Clue deduction: card-holder probabilities, certain facts, contradictions and rumor advice.

Pure Python; imports nothing from ``engine`` or ``tui``.  See :mod:`solvers.clue.solver` for the
public entry point and :mod:`solvers.clue.counting` for the counting method.
"""

from solvers.clue.model import SolverInputError
from solvers.clue.solver import ClueSolution, solve

__all__ = ["ClueSolution", "SolverInputError", "solve"]
