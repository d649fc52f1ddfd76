"""Why is a Tokyo Ghoul fact certain ("Ben has no Dove"): the notes behind it.

Facts, the items of the solver's ``certain`` (for one player): ``("has", p, suit, n)`` (at least
``n``), ``("lacks", p, suit)``, ``("at_most", p, suit, n)`` (only when ``n`` is below the hand
size and above 0, the others being trivial or a ``lacks``), ``("hand", p, cards)``,
``("character", p, c)`` and ``("not_character", p, c)``.

Notes are what this seat saw: its hand, face-up cards, its Support token, a Suspicion's answer,
cards revealed, a Support look, and the cards shown to it in the preliminary phase or in an
interrogation.  Entries that move cards or record what happened (the cards I gave and received,
an exchange, a turn, a move, an attack) stay in every replay.  A note left out is dropped, and
for a preliminary phase or an interrogation only its ``shown`` cards are dropped.  The oracle is
the public :func:`solvers.ghoul.solver.solve` (whatever its method), so an explanation means
"certain by the solver from the config and these notes alone".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solvers.explain import Explainer
from solvers.ghoul.flow import clear_deal_caches
from solvers.ghoul.solver import certain_facts, flow_certain_facts, solve

__all__ = ["GhoulOracle", "fact_json", "fact_sentence", "ghoul_explainer", "note_sentence"]

DROPPED = ("hand", "face_up", "support", "suspicion", "reveal", "support_look")
SHOWN = ("preliminary", "interrogation")
Fact = tuple[Any, ...]


def facts_of(out: Mapping[str, Any], sizes: Mapping[str, int] | None = None) -> list[Fact]:
    """The certain facts of a solver answer, player by player in a fixed order.

    ``sizes`` gives the hand sizes when ``out`` has no ``hands`` (a :func:`certain_facts` answer)."""
    facts: list[Fact] = []
    for p, c in out.get("certain", {}).items():
        facts += [("has", p, s, n) for s, n in c.get("has", {}).items()]
        facts += [("lacks", p, s) for s in c.get("lacks", [])]
        size = sizes[p] if sizes is not None else _hand_size(out, p)
        facts += [("at_most", p, s, n) for s, n in c.get("at_most", {}).items() if 0 < n < size]
        if c.get("hand"):
            facts.append(("hand", p, tuple(c["hand"])))
        if c.get("character"):
            facts.append(("character", p, c["character"]))
        facts += [("not_character", p, x) for x in c.get("not_characters", [])]
    return facts


def _hand_size(out: Mapping[str, Any], player: str) -> int:
    """Cards in a hand: the expected counts of one player add up to it."""
    per = out.get("hands", {}).get(player, {})
    return round(sum(v.get("expected", 0.0) for v in per.values()))


class GhoulOracle:
    """Certain facts of a Tokyo Ghoul table from the config, the events and any subset of the notes."""

    def __init__(self, config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> None:
        self.config = config
        self.log = list(log)
        self.notes = [i for i, e in enumerate(self.log) if self._is_note(e)]
        self.sizes: dict[str, int] | None = None  # hand sizes, from the first exact answer

    @staticmethod
    def _is_note(e: Any) -> bool:
        if not isinstance(e, Mapping):
            return False
        t = e.get("type")
        if t in DROPPED:
            return not (t == "support_look" and e.get("token") is None)
        return t in SHOWN and e.get("shown") is not None

    def weakened(self, kept: frozenset[int]) -> list[Mapping[str, Any]]:
        """The log with every note outside ``kept`` dropped (or its ``shown`` cards dropped)."""
        notes = set(self.notes)
        out: list[Mapping[str, Any]] = []
        for i, e in enumerate(self.log):
            if i in kept or i not in notes:
                out.append(e)
            elif e.get("type") in SHOWN:
                out.append({k: v for k, v in e.items() if k != "shown"})
        return out

    def certain(self, kept: frozenset[int]) -> list[Fact]:
        """Every certain fact the solver reports for the weakened log."""
        out = solve(self.config, self.weakened(kept), advice=False)
        if out.get("status") != "ok":
            return []
        if self.sizes is None:
            self.sizes = {p: _hand_size(out, p) for p in out.get("certain", {})}
        return facts_of(out)

    def bound(self, kept: frozenset[int]) -> list[Fact]:
        """Facts certain by the per-player bound alone (no card-flow pass) for the weakened log.

        Sound (each is also in :meth:`certain`, for any ``kept``: the bound's hand sets hold
        every possible hand, and a note left out only adds worlds), far cheaper, and often
        enough: the explainer asks it first and the exact pass only when it says no.  Hand
        sizes (which notes do not change: every move stays in the log) come from the first
        exact answer."""
        if self.sizes is None:
            self.certain(frozenset(self.notes))
        cert = certain_facts(self.config, self.weakened(kept), exact=False)
        if cert is None or self.sizes is None:
            return []
        return facts_of({"certain": cert}, self.sizes)

    def upper(self, kept: frozenset[int]) -> list[Fact] | None:
        """The facts that may be certain from ``kept`` notes, by the card-flow pass that drops early
        the rows that cannot reach the end of the log (:func:`flow_certain_facts`); ``None`` when
        that pass cannot tell (over its budget).

        Exact: a fact missing from it fails in some world of positive weight.  So it is not
        certain by :meth:`certain` either, which is that very pass's answer when the ordinary
        card-flow pass is within its budget, and the bound's otherwise (and the explainer asks
        this only for a fact the bound does not give).  The pass is far cheaper when few notes
        are kept and the later ones (cards revealed at the end) undo most of the early spread:
        the deletion pass's "no" answers."""
        if self.sizes is None:
            self.certain(frozenset(self.notes))
        cert = flow_certain_facts(self.config, self.weakened(kept))
        if cert is None or self.sizes is None:
            return None
        return facts_of({"certain": cert}, self.sizes)


def ghoul_explainer(config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> Explainer:
    """An :class:`Explainer` of every certain fact (SolverInputError on unreadable input)."""
    oracle = GhoulOracle(config, log)
    return Explainer(oracle, bound=oracle.bound, upper=oracle.upper)


def fact_json(fact: Fact) -> dict[str, Any]:
    """The CLI form, e.g. ``{"player": "Ben", "lacks": "dove"}`` or ``{"player": "Ben", "has": "dove", "count": 1}``."""
    kind, player, *rest = fact
    if kind in ("has", "at_most"):
        return {"player": player, kind: rest[0], "count": rest[1]}
    if kind == "hand":
        return {"player": player, "hand": list(rest[0])}
    return {"player": player, kind: rest[0]}


def fact_sentence(fact: Fact) -> str:
    """'Ben has no Dove', 'Ben has at least 2 Coffee', 'Ben is not Hide'."""
    kind, player, *rest = fact
    if kind == "has":
        return f"{player} has at least {rest[1]} {rest[0].title()}"
    if kind == "lacks":
        return f"{player} has no {rest[0].title()}"
    if kind == "at_most":
        return f"{player} has at most {rest[1]} {rest[0].title()}"
    if kind == "hand":
        return f"{player}'s hand is " + ", ".join(c.title() for c in rest[0])
    if kind == "character":
        return f"{player} is {rest[0].replace('-', ' ').title()}"
    return f"{player} is not {rest[0].replace('-', ' ').title()}"


def note_sentence(entry: Mapping[str, Any], me: str = "") -> str:
    """One note in words."""
    t = entry.get("type")

    def cards(v: Any) -> str:
        if isinstance(v, Mapping):
            v = [s for s, n in v.items() for _ in range(int(n))]
        return ", ".join(str(c).title() for c in (v or []))

    if t == "hand":
        return f"my hand is {cards(entry.get('cards'))}"
    if t == "face_up":
        return f"{entry.get('player')} has {str(entry.get('card')).title()} face up"
    if t == "support":
        return f"my Support token is {entry.get('token')}"
    if t == "suspicion":
        who = ", ".join(entry.get("players") or []) or "nobody"
        return f"Suspicion ({entry.get('rule')}): {who} matched, everyone else did not"
    if t == "reveal":
        return f"{entry.get('player')} revealed {entry.get('character') or 'a character'}" + (
            f" holding {cards(entry.get('cards'))}" if entry.get("cards") else "")
    if t == "support_look":
        return f"I looked at {entry.get('target')}'s Support token: {entry.get('token')}"
    if t == "preliminary":
        return f"my right neighbour showed me {cards(entry.get('shown'))}"
    if t == "interrogation":
        return f"{entry.get('by')} interrogated {entry.get('target')}; I saw {cards(entry.get('shown'))}"
    return str(t)

explainer = ghoul_explainer  # the name every game's explain module exports (solvers.why)
cold = clear_deal_caches  # forgets what earlier solves kept (for benchmarks of cold taps)
