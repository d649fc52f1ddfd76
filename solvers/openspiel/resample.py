"""Worlds a seat cannot tell from the real one, for OpenSpiel's ISMCTS (``bot.set_resampler``).

A resampler keeps the state's structure and replaces what the seat does not know with a draw
made from the seat's view alone: ``exact`` draws from the posterior of the seat's solver (the
tracker our strong bot keeps), ``uniform`` deals every unknown uniformly among what the seat's
certain knowledge allows. Either way the seat's information-state string is unchanged.

Mascarade: the mask in front of every place (:class:`solvers.mascarade.belief.Belief`).
Clue: the deal by the chain rule over the exact counting solver (:mod:`.resample_clue`).
Masque and Tokyo Ghoul: :mod:`.resample_masque`, :mod:`.resample_ghoul`.
The seat's knowledge (solver run on its view) is built once per root state and seat: ISMCTS
resamples the same root once per simulation.
No ``pyspiel`` here: the state is used through ``clone()``, ``world()`` and ``_world``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng, derive_seed

MODES = ("exact", "uniform")
RESAMPLED = ("clue", "ghoul", "mascarade", "masque")  # games with a resampler


class NoResampler(ValueError):
    """This game has no resampler yet."""


class Resampler:
    """``resampler(state, player)`` -> a state ``player`` cannot tell from ``state``."""

    def __init__(self, mode: str = "exact", seed: int = 0) -> None:
        if mode not in MODES:
            raise ValueError(f"Unknown resampling {mode!r}; choose one of: {', '.join(MODES)}.")
        self.mode = mode
        self.seed = seed
        self.rng = Rng(derive_seed(seed, "resample", mode))
        self._root: Any = None  # the engine state the cached belief was built for (kept: ids stay unique)
        self._belief: Any = None
        self.draws = 0
        self.inexact_roots = 0  # roots where "exact" had to fall back (Tokyo Ghoul past the flow budget)

    def __call__(self, state: Any, player: int) -> Any:
        w = state.world()
        if w.spec.id not in RESAMPLED:
            raise NoResampler(f"No resampler for {w.spec.title} yet (built: {', '.join(RESAMPLED)}).")
        if w.state is None:
            raise ValueError("Nothing to resample while the cards are being dealt.")
        engine_state = _DRAW[w.spec.id](self, w.state, player)
        out = state.clone()
        nw = w.copy()
        nw.state = engine_state
        out._world = nw
        self.draws += 1
        return out


def _mascarade(r: Resampler, st: Any, seat: int) -> Any:
    from engine.mascarade import view

    v = view(st, seat)
    layout: tuple[str, ...] | None = None
    if r.mode == "exact":
        belief = _mascarade_belief(r, st, seat, v)
        if belief is not None:
            layout = belief.sample(r.rng)
    if layout is None:
        layout = _uniform_layout(v, r.rng)
    s = st.copy()
    s.cards = layout
    return s


def _known(r: Resampler, st: Any, seat: int, build: Any) -> Any:
    """``build()`` once per root state and seat (the engine state object is kept, so ids stay unique)."""
    if r._root is None or r._root[0] is not st or r._root[1] != seat:
        r._root = (st, seat)
        r._belief = build()
    return r._belief


def _clue(r: Resampler, st: Any, seat: int) -> Any:
    from engine.clue.game import view
    from solvers.openspiel import resample_clue

    k = _known(r, st, seat, lambda: resample_clue.Knowledge(view(st, seat), r.mode))
    return resample_clue.draw(k, st, seat, r.rng)


def _ghoul(r: Resampler, st: Any, seat: int) -> Any:
    from engine.ghoul.game import view
    from solvers.openspiel import resample_ghoul

    def build() -> Any:
        sol, exact = resample_ghoul.knowledge(view(st, seat), r.mode)
        r.inexact_roots += r.mode == "exact" and not exact
        return sol

    return resample_ghoul.draw(_known(r, st, seat, build), st, seat, r.rng)


def _masque(r: Resampler, st: Any, seat: int) -> Any:
    from engine.masque.game import view
    from solvers.openspiel import resample_masque

    k = _known(r, st, seat, lambda: resample_masque.knowledge(view(st, seat)))
    return resample_masque.draw(k, st, seat, r.rng)


def _mascarade_belief(r: Resampler, st: Any, seat: int, v: dict) -> Any:
    """The strong bot's belief for ``seat`` built from its view's events (one per root state)."""
    if r._root is not None and r._root[0] is st and r._root[1] == seat:
        return r._belief
    from solvers.mascarade.bots import StrongBot

    bot = StrongBot(seat, derive_seed(r.seed, "belief", seat))
    bot.obs.update(v["events"])
    r._root = (st, seat)
    r._belief = None if bot.tracker is None or bot.broken else bot.tracker.belief
    return r._belief


def _uniform_layout(v: dict, rng: Rng) -> tuple[str, ...]:
    """Places the seat knows for certain keep their mask; the rest share the other masks uniformly."""
    known: list[str | None] = list(v["known"])
    bag = list(v["masks"])
    for m in known:
        if m is not None:
            bag.remove(m)
    rng.shuffle(bag)
    it = iter(bag)
    return tuple(m if m is not None else next(it) for m in known)


_DRAW = {"clue": _clue, "ghoul": _ghoul, "mascarade": _mascarade, "masque": _masque}
