"""Why is a Mascarade fact certain ("the King is at Bob"): the notes behind it.

Facts are ``("at", place, mask)`` and ``("not", place, mask)``, the items of the solver's
``certain.at`` and ``certain.not``, about the table as it stands after the last entry.

Notes are what this seat *saw*: the opening (index ``-1``), the card of its own look, its Spy
looks, a card a Princess showed, cards revealed face up, and whether its own swap was real.
Everything else records what happened (someone swapped or pretended, the Puppeteer moved two
players, turns, announcements, coins) and stays in every replay, since dropping it would
change where the cards went rather than what is known.  A note left out is weakened, never
contradicted: the opening becomes "not seen", a look, a Spy look, a shown or revealed card is
dropped, and my own swap becomes one whose outcome I do not know (written as a swap of the same
two places by another player, which the solver replays as swap-or-pretend).  So leaving notes out
only adds layouts, and certainty is monotone.  The oracle is :func:`solvers.mascarade.solve`.
"""

from __future__ import annotations

from typing import Any

from solvers.explain import Explainer
from solvers.mascarade.model import parse_config
from solvers.mascarade.solver import solve

__all__ = ["MascaradeOracle", "fact_json", "fact_sentence", "mascarade_explainer", "note_sentence"]

Fact = tuple[str, str, str]
OPENING = -1


class MascaradeOracle:
    """Certain places of masks from the config, the events and any subset of the notes."""

    def __init__(self, config: dict, log: list) -> None:
        self.setup = parse_config(config)
        self.config = config
        self.log = log
        me = config.get("me")
        names = list(self.setup.names)
        priors = self.setup.swap_prior
        self.blind_by = next((names[j] for j in range(len(names)) if names[j] != me and 0.0 < priors[j] < 1.0), None)
        notes: list[int] = [OPENING] if self.setup.opening is not None else []
        for i, e in enumerate(log):
            if self._is_note(e, me):
                notes.append(i)
        self.notes = notes

    def _is_note(self, e: Any, me: Any) -> bool:
        if not isinstance(e, dict):
            return False
        t = e.get("t")
        if t == "look":
            return e.get("card") is not None
        if t == "spy":
            return e.get("mine") is not None
        if t in ("shown", "reveal"):
            return e.get("card") is not None or t == "reveal"
        if t == "swap":
            return e.get("by") == me and isinstance(e.get("swapped"), bool) and self.blind_by is not None
        return False

    def weakened(self, kept: frozenset[int]) -> tuple[dict, list]:
        """The config and log with every note outside ``kept`` weakened (see the module doc)."""
        config = dict(self.config)
        if OPENING not in kept:
            config["opening"] = None
        log: list = []
        for i, e in enumerate(self.log):
            if i in kept or i not in self._note_set:
                log.append(e)
            elif e.get("t") == "swap":
                a, b = (e["by"], e["with"]) if "with" in e else (e.get("a"), e.get("b"))
                log.append({"t": "swap", "by": self.blind_by, "a": a, "b": b})
        return config, log

    @property
    def _note_set(self) -> frozenset[int]:
        return frozenset(self.notes)

    def certain(self, kept: frozenset[int]) -> list[Fact]:
        """``at`` facts, then ``not`` facts, place by place (the solver's order)."""
        config, log = self.weakened(kept)
        out = solve(config, log, advice=False)
        if out.get("status") != "ok":
            return []
        facts: list[Fact] = [("at", p, m) for p, m in out["certain"]["at"].items()]
        facts += [("not", p, m) for p, ms in out["certain"]["not"].items() for m in ms]
        return facts


def mascarade_explainer(config: dict, log: list) -> Explainer:
    """An :class:`Explainer` of every certain place (SolverInputError on unreadable input)."""
    oracle = MascaradeOracle(config, log)
    return Explainer(oracle)


def fact_json(fact: Fact) -> dict[str, str]:
    """The CLI form: ``{"place": "Bob", "at": "king"}`` or ``{"place": "Bob", "not": "judge"}``."""
    return {"place": fact[1], fact[0]: fact[2]}


def fact_sentence(fact: Fact) -> str:
    """'the King is at Bob' / 'Bob does not hold the Judge'."""
    kind, place, mask = fact
    mask_t = mask.replace("_", " ").title()
    if kind == "at":
        return f"the {mask_t} is at {place}"
    return f"{place} does not hold the {mask_t}"


def note_sentence(entry: Any, me: str = "") -> str:
    """One note (or the opening, passed as ``None``) in words."""
    if entry is None:
        return "the opening layout I saw"
    t = entry.get("t")

    def title(m: Any) -> str:
        return str(m).replace("_", " ").title()

    if t == "look":
        return f"I looked: I had the {title(entry.get('card'))}"
    if t == "spy":
        return (f"my Spy look: I had the {title(entry.get('mine'))}, {entry.get('target')} had the "
                f"{title(entry.get('theirs'))}")
    if t == "shown":
        return f"the Princess showed {entry.get('target')}'s card: the {title(entry.get('card'))}"
    if t == "reveal":
        cards = entry.get("cards")
        pairs = cards.items() if isinstance(cards, dict) else (cards or [])
        return "revealed: " + ", ".join(f"{p} the {title(m)}" for p, m in pairs)
    if t == "swap":
        other = entry.get("with") or f"{entry.get('a')} and {entry.get('b')}"
        return f"I {'really swapped' if entry.get('swapped') else 'only pretended to swap'} with {other}"
    return str(t)

explainer = mascarade_explainer  # the name every game's explain module exports (solvers.why)
