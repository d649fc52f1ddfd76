"""Why is a Tokyo Ghoul fact certain ("Ben has no Dove"): the entries of the log behind it.

Facts, the items of the solver's ``certain`` (for one player): ``("has", p, suit, n)`` (at least
``n``), ``("lacks", p, suit)``, ``("at_most", p, suit, n)`` (only when ``n`` is below the hand
size and above 0, the others being trivial or a ``lacks``), ``("hand", p, cards)``,
``("character", p, c)`` and ``("not_character", p, c)``.

Notes are the entries that tell something about the hands or the characters, each citable as a
reason in the words of the assistant's log (:mod:`solvers.ghoul.log_text`): my hand, face-up
cards, my Support token, a Suspicion's answer, cards revealed, a Support look, an instant win,
a turn or a move (a turn starts only without an instant victory), an attack or the Inspector's
special action (who can make it, the characters revealed), and what I saw of the preliminary
phase (the cards shown to me, the card I gave, the card I received) and of an interrogation (the
cards shown, the exchange I made or saw, or that there was none).  A note left out is *weakened*
to what the log would say without it (:func:`weaken`): an entry that only tells is dropped; a
preliminary phase or an interrogation stays, since cards moved there (or may have), but with
what I saw of it forgotten: no cards shown, gifts not noted, "exchange unseen".  So leaving a
note out only ever adds possible worlds.  An exchange that moved a face-up card stays as it is
(the whole table saw that card go).  Entries that tell nothing of hands or characters (Cover Up
Tracks, a Support swap, an interrogation I saw nothing of) are never notes.  The oracle is the
public :func:`solvers.ghoul.solver.solve` for the whole log and the same solver for a subset of
the notes, except that a subset past the card-flow pass's budget takes the sound per-player bound
(:meth:`GhoulOracle.certain`), so an explanation means "certain by the solver from the config and
these notes alone".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solvers.explain import Explainer
from solvers.ghoul.flow import clear_deal_caches
from solvers.ghoul.log_text import describe, entry_sentence
from solvers.ghoul.solver import certain_facts, flow_certain_facts, solve

__all__ = ["GhoulOracle", "fact_json", "fact_sentence", "ghoul_explainer", "log_sentence", "note_sentence", "weaken"]

DROPPED = ("hand", "face_up", "support", "suspicion", "reveal", "support_look", "move", "turn", "attack",
           "special", "instant")
SEEN = ("shown", "gave", "received")  # what I saw of a preliminary phase
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


def weaken(e: Any, me: Any = None) -> Any:
    """Entry ``e`` as the log would hold it without the note: ``None`` (an entry that only tells),
    the entry with what I saw of it forgotten, or ``e`` itself (the same object) when it tells
    nothing of hands or characters.  ``me`` is my name (an interrogation of mine with no exchange
    field means "no exchange"; another's means "unseen")."""
    if not isinstance(e, Mapping):
        return e  # unreadable: the solver says why
    t = e.get("type")
    if t in DROPPED:
        return e if t == "support_look" and e.get("token") is None else None
    if t == "preliminary":
        if all(e.get(k) is None for k in SEEN):
            return e
        return {k: v for k, v in e.items() if k not in SEEN}
    if t == "interrogation":
        ex = e.get("exchange")
        if ex is None:  # the solver's default: "none" for my own interrogations
            ex = "none" if me is not None and me in (e.get("by"), e.get("target")) else "unknown"
        if isinstance(ex, Mapping) and "board" in (ex.get("gave_from"), ex.get("took_from")):
            return e  # a face-up card moved: the whole table saw it
        if e.get("shown") is None and ex == "unknown":
            return e
        return {**{k: v for k, v in e.items() if k != "shown"}, "exchange": "unknown"}
    return e


def _my_name(config: Any) -> str | None:
    """``config.me`` as a name (the file may give it as a seat number)."""
    if not isinstance(config, Mapping):
        return None
    me, players = config.get("me"), config.get("players")
    if isinstance(me, int) and not isinstance(me, bool) and isinstance(players, list) and 0 <= me < len(players):
        return str(players[me])
    return me if isinstance(me, str) else None


class GhoulOracle:
    """Certain facts of a Tokyo Ghoul table from the config, the entries that are not notes and any
    subset of the notes (the others weakened)."""

    def __init__(self, config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> None:
        self.config = config
        self.log = list(log)
        me = _my_name(config)
        self.weak = [weaken(e, me) for e in self.log]  # each entry without what it tells (None: dropped)
        self.notes = [i for i, e in enumerate(self.log) if self.weak[i] is not e]
        self.sizes: dict[str, int] | None = None  # hand sizes, from the first exact answer

    def weakened(self, kept: frozenset[int]) -> list[Mapping[str, Any]]:
        """The log with every note outside ``kept`` weakened (:func:`weaken`): dropped, or its seen part forgotten."""
        out: list[Mapping[str, Any]] = []
        for i, e in enumerate(self.log):
            w = e if i in kept else self.weak[i]
            if w is not None:
                out.append(w)
        return out

    def certain(self, kept: frozenset[int]) -> list[Fact]:
        """Every certain fact the solver reports for the weakened log.

        The whole log (every note kept) is :func:`solve`'s answer, the facts the assistant shows.
        A subset past the card-flow pass's budget takes the per-player bound instead of sampled
        deals and CP-SAT (:func:`certain_facts` with ``sampled=False``): with my exchanges and
        gifts left out a subset can be far larger than the log, and the sampled path costs seconds
        per subset where the bound costs milliseconds.  The bound is sound, so every set of notes
        named proves its fact; in the rare subset where it misses a fact CP-SAT would find, the
        set named may hold one note more than needed."""
        if kept == frozenset(self.notes):
            out = solve(self.config, self.weakened(kept), advice=False)
            if out.get("status") != "ok":
                return []
            if self.sizes is None:
                self.sizes = {p: _hand_size(out, p) for p in out.get("certain", {})}
            return facts_of(out)
        if self.sizes is None:
            self.certain(frozenset(self.notes))
        cert = certain_facts(self.config, self.weakened(kept), sampled=False)
        if cert is None or self.sizes is None:
            return []
        return facts_of({"certain": cert}, self.sizes)

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


def log_sentence(config: Mapping[str, Any], log: Sequence[Any], i: int) -> str:
    """Note ``i`` in the words of the assistant's log (the Why view and ``solve --explain`` cite it so)."""
    if not isinstance(config, Mapping):
        return note_sentence(log[i])
    return entry_sentence(config, log, i)


def note_sentence(entry: Mapping[str, Any] | None, me: str = "") -> str:
    """One note in the log's words, without the rest of the log (places by number, my right
    neighbour unnamed): :func:`log_sentence` is the form with the config and the log."""
    if entry is None:
        return "the setup"
    return describe(entry, {"me": me})


explainer = ghoul_explainer  # the name every game's explain module exports (solvers.why)
cold = clear_deal_caches  # forgets what earlier solves kept (for benchmarks of cold taps)
