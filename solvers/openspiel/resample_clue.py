"""Clue worlds for ISMCTS: a deal drawn from the seat's exact posterior, then the rest of the hidden state.

The seat's solver (the strong bot's, :func:`solvers.clue.solver.solve` on the seat's observation
log) gives exact marginals. A whole deal is drawn by the chain rule: every card the solver is
certain of is placed, the first open card is given a holder with its exact probability, that is
added to the log as a reveal and the solver runs again, until every card is placed. Each step
is an exact conditional, so the deal is an exact draw from the posterior (uniform over the deals
that fit the log), not an approximation.

``uniform`` runs the same chain on a weaker log: only what the seat knows cell by cell (every
card's certain holder, every holder a card certainly is not with), so clauses (a card shown to
someone else, a wrong accusation) are ignored.

The Plot cards the seat has not seen (other seats' Plot hands, the deck, and Plot hands that
went to the discard with an eliminated player) are shuffled back into the same places and sizes;
the aside cards keep the places the seat looked at, the rest are in random order.
The log is kept as it is: its events private to other seats keep their contents (the seat's own
view, and so its information state, is unchanged).
"""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from solvers.clue.model import ENVELOPE, FACE_UP
from solvers.clue.observations import ObservationLog
from solvers.clue.solver import ClueSolution, solve

MASTER = "master-of-whisperers"


class Knowledge:
    """What one seat knows at one state: its solver's config and log, and the base solution."""

    def __init__(self, view: dict, mode: str) -> None:
        obs = ObservationLog.from_view(view)
        assert obs.config is not None
        self.config = obs.config
        entries = list(obs.entries())
        for ev in view["events"]:  # the envelope shown to a wrong accuser (not in the bot's log)
            if ev["t"] == "envelope" and ev.get("cards") is not None:
                entries.append({"type": "accusation", "by": obs.names[ev["seat"]], "cards": list(ev["cards"]),
                                "correct": True})
        sol = solve(self.config, entries)
        if sol.status != "ok":
            raise ValueError(f"the seat's log has no consistent deal: {sol.message}")
        if mode == "uniform":
            entries = _cell_entries(sol)
            sol = solve(self.config, entries)
        self.entries = entries
        self.base: ClueSolution = sol
        self.names = obs.names
        # Draws from one root share their first steps (the first open cards have few holders):
        # each conditional solution is kept, keyed by the holders chosen so far.
        self.memo: dict[tuple, ClueSolution] = {}


def _cell_entries(sol: ClueSolution) -> list[dict]:
    """The log cut down to cell facts: certain holders as reveals, impossible holders as not_held."""
    out: list[dict] = []
    for card, row in sorted(sol.holders.items()):
        if card in sol.certain:
            out.append({"type": "reveal", "player": sol.certain[card], "cards": [card]})
            continue
        out.extend({"type": "not_held", "player": h, "cards": [card]} for h, p in sorted(row.items()) if p == 0)
    return out


def sample_deal(config: dict, entries: list[dict], base: ClueSolution, rng: Rng,
                memo: dict[tuple, ClueSolution] | None = None) -> dict[str, str]:
    """card -> holder name, an exact draw from the deals that fit ``entries`` (chain rule).

    ``memo`` keeps the solutions met, keyed by the (card, holder) choices made before them."""
    fixed: dict[str, str] = {}
    extra: list[dict] = []
    sol = base
    key: tuple = ()
    order = list(base.holders)
    while True:
        fixed.update(sol.certain)
        open_cards = [c for c in order if c not in fixed]
        if not open_cards:
            return fixed
        card = open_cards[0]
        row = sorted((h, p) for h, p in sol.holders[card].items() if p > 0)
        x = rng.random() * sum(p for _, p in row)
        holder = row[-1][0]
        for h, p in row:
            x -= p
            if x < 0:
                holder = h
                break
        extra.append({"type": "reveal", "player": holder, "cards": [card]})
        key += ((card, holder),)
        hit = memo.get(key) if memo is not None else None
        if hit is None:
            hit = solve(config, entries + extra)
            if memo is not None:
                memo[key] = hit
        sol = hit
        if sol.status != "ok":  # cannot happen with exact marginals; a clear error if it ever does
            raise ValueError(f"no deal with {card} at {holder}: {sol.message}")


def draw(k: Knowledge, st: Any, seat: int, rng: Rng) -> Any:
    """A copy of ``st`` with the deal and the unseen Plot cards redrawn for ``seat``."""
    deal = sample_deal(k.config, k.entries, k.base, rng, k.memo)
    order = {c: i for i, c in enumerate(st.board.cards)}
    n = st.config.players
    s = st.copy()
    by: dict[str, list[str]] = {}
    for card, h in deal.items():
        by.setdefault(h, []).append(card)
    hands = []
    for i in range(n):
        hands.append(st.hands[i] if i == seat else tuple(sorted(by.get(k.names[i], []), key=order.__getitem__)))
    s.hands = tuple(hands)
    env = by.get(ENVELOPE, [])
    b = st.board
    s.envelope = tuple(next(c for c in env if c in group) for group in (b.suspects, b.weapons, b.locations))
    if st.centre:
        s.centre = tuple(sorted(by.get("centre", []), key=order.__getitem__))
    if st.face_up:
        s.face_up = tuple(sorted(by.get(FACE_UP, []), key=order.__getitem__))
    if st.aside:
        s.aside = _aside(st, seat, by.get("aside", []), rng)
    _plot(s, st, seat, rng)
    return s


def _aside(st: Any, seat: int, cards: list[str], rng: Rng) -> tuple[str, ...]:
    pinned: dict[int, str] = {}
    for ev, seats in st.log.entries():
        if ev["t"] == "aside" and seats is not None and seat in seats and ev.get("card") is not None:
            pinned[ev["index"]] = ev["card"]
    rest = [c for c in sorted(cards) if c not in pinned.values()]
    rng.shuffle(rest)
    it = iter(rest)
    return tuple(pinned[i] if i in pinned else next(it) for i in range(len(st.aside)))


def _plot(s: Any, st: Any, seat: int, rng: Rng) -> None:
    """Unseen Plot cards shuffled back into others' Plot hands, the deck and the unseen discard."""
    known: list[str] = []  # discards everyone saw: cards played, and the Master of Whisperers drawn
    for ev, seats in st.log.entries():
        if seats is None and (ev["t"] == "play" or (ev["t"] == "plot" and ev.get("card") == MASTER)):
            known.append(ev["card"])
    hidden_discard = list(st.discard)
    for c in known:
        if c in hidden_discard:
            hidden_discard.remove(c)
    others = [i for i in range(st.config.players) if i != seat]
    pool = [c for i in others for c in st.plot_hands[i]] + list(st.plot_deck) + hidden_discard
    pool.sort()
    rng.shuffle(pool)
    hands = list(st.plot_hands)
    at = 0
    for i in others:
        k = len(st.plot_hands[i])
        hands[i] = tuple(pool[at:at + k])
        at += k
    s.plot_hands = tuple(hands)
    s.plot_deck = tuple(pool[at:at + len(st.plot_deck)])
    at += len(st.plot_deck)
    s.discard = tuple(known) + tuple(pool[at:])
