"""Tokyo Ghoul worlds for ISMCTS: holdings, characters and the Kaneki token from the seat's solver.

``exact`` draws one world with :func:`solvers.ghoul.solver.sample_worlds` from the solver's
exact card-flow posterior (``method: flow``), the seat's own observation log built as the
strong bot builds it. Past the flow's size budget (large tables late in a game) the solver only
estimates from sampled deals and has no world sampler: ``exact`` then falls back to the
relaxation below, and :func:`knowledge` says so (the resampler counts those roots).
``uniform`` draws from the per-player relaxation without a behaviour model (``flow=False``,
``method: bound``): every present deal of the hands each player could hold on its own counts
the same, so how cards moved between players weighs nothing. (The strong bot itself decides
on the relaxation with a behaviour model, which is not a posterior of the game's chance.)
The rest of the hidden state is redrawn around the world:

* face-down tiles nobody has seen: a uniform permutation of the tiles not on view;
* what other seats know of the Support tokens: the same places known, with the new token's values;
* choices already committed by other seats in a simultaneous step (face-up card, cards to show,
  card to give), which the seat cannot see: redrawn uniformly among those the new hand allows.

The log is kept as it is, so the seat's information state is unchanged.
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.ghoul import game as g
from engine.ghoul.data import SUIT_INDEX
from solvers.ghoul.model import build_problem
from solvers.ghoul.observations import ObservationLog
from solvers.ghoul.solver import Solution, sample_worlds, solve_problem


def knowledge(view: dict, mode: str) -> tuple[Solution, bool]:
    """The seat's solution, and whether it is the exact posterior: the card-flow posterior
    (``exact``, when the flow pass ran) or the per-player relaxation."""
    obs = ObservationLog.from_view(view)
    problem = build_problem(obs.config, obs.entries())
    if mode == "exact":
        sol = solve_problem(problem, marginals=False)
        if sol.status == "ok" and sol.method == "flow":
            return sol, True
    sol = solve_problem(problem, marginals=False, flow=False)
    if sol.status != "ok":
        raise ValueError(f"the seat's log has no consistent world: {sol.status}")
    return sol, False


def draw(sol: Solution, st: Any, seat: int, rng: Rng) -> Any:
    """A copy of ``st`` with everything ``seat`` cannot see redrawn from ``sol``."""
    hands, chars, tk = sample_worlds(sol, 1, rng)[0]
    n = st.config.players
    s = st.copy()
    s.hands = tuple(st.hands[i] if i == seat else tuple(hands[i]) for i in range(n))
    s.chars = tuple(st.chars[i] if i == seat else chars[i] for i in range(n))
    if st.config.support and tk >= 0:
        s.tk = tk
        s.sknown = tuple(
            row if i == seat else tuple(None if v is None else (g.KANEKI_TOKEN if tk == j else g.NEUTRAL)
                                        for j, v in enumerate(row))
            for i, row in enumerate(st.sknown)
        )
    missing = sorted(t for p, t in enumerate(st.ring) if not st.known[p])
    rng.shuffle(missing)
    it = iter(missing)
    s.ring = tuple(t if st.known[p] else next(it) for p, t in enumerate(st.ring))
    if st.phase in g.SIMULTANEOUS:
        _recommit(s, seat, rng)
    s.legal = g._compute_legal(s)
    return s


def _recommit(s: Any, seat: int, rng: Rng) -> None:
    """Other seats' hidden commitments in this simultaneous step, redrawn for their new hands."""
    pending = list(s.pending)
    order_pi = s.order_pi
    for i, choice in enumerate(s.pending):
        if choice is None or i == seat:
            continue
        s.order_pi = (i - s.first) % s.config.players  # _order(s) == i: that seat's legal choices
        opts = g._compute_legal(s)
        a = opts[rng.below(len(opts))]
        if s.phase == g.SETUP_FACE:
            pending[i] = SUIT_INDEX[a[1]]
        elif s.phase == g.PRELIM_SHOW:
            pending[i] = (SUIT_INDEX[a[1]], SUIT_INDEX[a[2]])
        else:
            pending[i] = SUIT_INDEX[a[1]]
    s.order_pi = order_pi
    s.pending = tuple(pending)
