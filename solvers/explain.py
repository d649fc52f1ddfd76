"""Why is a fact certain?  The smallest set of notes that proves it, for any game.

A game supplies an *oracle* (:class:`Oracle`): the log entries that are notes (facts a person
wrote down and could take back), and "which facts are certain from the config and only these
notes".  Entries that are not notes (a turn began, someone swapped out of my sight) stay in
every replay; a note that is left out is *weakened* to what the log would say without it, so
leaving notes out only ever adds possible worlds.  Certainty is therefore monotone: a fact
certain from some notes is certain from any larger set.  That is all the search below needs.

:func:`explain` returns a set of notes that is

* **sufficient**: the fact is certain from the config and those notes alone, and
* **minimal**: without any one of them it is not (a *minimal* set, not necessarily the
  smallest one; finding the smallest is NP-hard in general), and
* **recent**: of two proofs the later notes are kept, the ones that made the fact true as the
  table stands now (a look at my card after a swap, not the opening and the swap before it).

Method: a small candidate set first, then a deletion pass that makes it minimal.  The
candidate is the game's own quick answer when it has one (Clue: the core of assumption literals
that CP-SAT returns when it proves the negated fact impossible), else a QuickXplain-style
divide and conquer (Junker 2004) that needs O(k log n) oracle calls for an answer of k notes out
of n.  The deletion pass drops each note in turn and keeps it out when the rest still suffices;
by monotonicity the result is minimal.  Every oracle answer is cached by the set of notes kept.

Monotonicity also answers many questions without the oracle: a fact certain from T is certain
from every superset of T, and a fact not certain from T is not certain from any subset of T, so
every cached answer decides the sets above or below it.  A game may also give a *bound*: facts
certain by a cheaper, sound but incomplete method (every fact it gives is certain by the oracle
too), asked before the oracle; a "yes" from it is final, a "no" goes to the oracle.  After the
bound, a game may give an *upper* test: the facts that may still be certain, found by an exact
method that is cheaper than the oracle when the answer is "no" (Tokyo Ghoul: the card-flow pass
without the rows that cannot reach the end of the log); a fact outside it is not certain, and
only a fact inside it goes to the oracle.  None of them changes any answer, so the explanations
are the very same as the oracle's alone, only faster.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, Protocol

__all__ = ["Explainer", "Oracle", "OutOfTime", "explain", "minimal_sufficient"]

Fact = Hashable
_REUSE = 4  # earlier answers tried as candidates before the game's own search


class OutOfTime(Exception):
    """The explainer's ``deadline`` passed before an answer (raised between oracle calls)."""


class Oracle(Protocol):
    """What a game must give to be explained."""

    @property
    def notes(self) -> Sequence[int]:
        """The log indices of the notes, in log order (a game may use -1 for a note in its config)."""
        ...

    def certain(self, kept: frozenset[int]) -> Sequence[Fact]:
        """Every fact certain from the config, the non-note entries and the notes in ``kept``, in a fixed order."""
        ...


def minimal_sufficient(
    holds: Callable[[frozenset[int]], bool], candidates: Sequence[int], *, shrink: bool = True
) -> list[int]:
    """A minimal subset S of ``candidates`` with ``holds(S)``; ``holds(candidates)`` must be true.

    ``holds`` must be monotone (true on a set implies true on every superset).  ``shrink`` runs
    the divide-and-conquer first (worth it when the candidates are many); the deletion pass
    always runs last.
    """
    cand = sorted(candidates)
    if holds(frozenset()):
        return []
    if shrink and len(cand) > 4:
        cand = sorted(_quickxplain(holds, frozenset(), cand[::-1]))  # QuickXplain keeps the first it is given
    keep = list(cand)
    # The earliest notes go first: of two proofs the later one stays, the note that made the fact
    # true as it stands now ("I looked: the Cheater", not "the opening, then my swap with T2").
    for i in cand:
        trial = [j for j in keep if j != i]
        if holds(frozenset(trial)):
            keep = trial
    return sorted(keep)


def _quickxplain(holds: Callable[[frozenset[int]], bool], base: frozenset[int], cand: list[int]) -> set[int]:
    """Notes of ``cand`` that, with ``base``, suffice; minimal relative to ``base`` (Junker's QuickXplain)."""
    # Iterative form of QX(B, delta, C) to keep the recursion shallow and explicit.
    def qx(b: frozenset[int], delta_nonempty: bool, c: list[int]) -> set[int]:
        if delta_nonempty and holds(b):
            return set()
        if len(c) == 1:
            return set(c)
        half = len(c) // 2
        c1, c2 = c[:half], c[half:]
        d2 = qx(b | frozenset(c1), bool(c1), c2)
        d1 = qx(b | frozenset(d2), bool(d2), c1)
        return d1 | d2

    if holds(base):
        return set()
    return qx(base, False, cand)


class Explainer:
    """Explanations of every certain fact of one (config, log), sharing one oracle cache.

    ``candidates(fact)``, when given, returns a sufficient set of notes quickly (or ``None``);
    ``holds(fact, kept)``, when given, answers one fact faster than listing every certain fact.
    ``bound(kept)``, when given, lists facts certain from ``kept`` by a cheaper sound method (a
    subset of ``oracle.certain(kept)``).  ``upper(kept)``, when given, is asked when the bound
    does not prove a fact: the facts that may be certain from ``kept`` (every fact of
    ``oracle.certain(kept)`` that the bound does not give is in it), or ``None`` when it cannot
    tell; a fact outside it is not certain, and the oracle is not asked.  ``infer`` (default
    on) answers from earlier answers by monotonicity; off, and without a bound, every new set
    goes to the oracle (for tests).
    """

    def __init__(
        self,
        oracle: Oracle,
        *,
        candidates: Callable[[Any], Iterable[int] | None] | None = None,  # Any: each game's own kind of Fact
        holds: Callable[[Any, frozenset[int]], bool] | None = None,
        bound: Callable[[frozenset[int]], Iterable[Any]] | None = None,
        upper: Callable[[frozenset[int]], Iterable[Any] | None] | None = None,
        infer: bool = True,
    ) -> None:
        self.oracle = oracle
        self.notes = list(oracle.notes)
        self._all = frozenset(self.notes)
        self._cache: dict[frozenset[int], frozenset[Fact]] = {}
        self._holds_cache: dict[tuple[Fact, frozenset[int]], bool] = {}
        self._candidates = candidates
        self._found: list[frozenset[int]] = []  # earlier answers, newest first
        self._holds = holds
        self._bound = bound
        self._bound_cache: dict[frozenset[int], frozenset[Fact]] = {}
        self._upper = upper
        self._upper_cache: dict[frozenset[int], frozenset[Fact] | None] = {}
        self._infer = infer
        # Per fact, the sets known to prove it and known not to (from one-fact answers).
        self._pos: dict[Fact, list[frozenset[int]]] = {}
        self._neg: dict[Fact, list[frozenset[int]]] = {}
        self.calls = 0
        self.bound_calls = 0
        self.upper_calls = 0
        self.deadline: float | None = None  # time.monotonic(): past it, the next oracle call raises OutOfTime
        self.facts: list[Fact] = list(oracle.certain(self._all))
        self._cache[self._all] = frozenset(self.facts)

    def certain(self, kept: frozenset[int]) -> frozenset[Fact]:
        """The oracle's certain facts for ``kept`` notes (cached)."""
        got = self._cache.get(kept)
        if got is None:
            self._tick()
            self.calls += 1
            got = frozenset(self.oracle.certain(kept))
            self._cache[kept] = got
        return got

    def holds(self, fact: Fact, kept: frozenset[int]) -> bool:
        """Is ``fact`` certain from the notes ``kept``?"""
        if kept in self._cache:
            return fact in self._cache[kept]
        key = (fact, kept)
        got = self._holds_cache.get(key)
        if got is not None:
            return got
        if self._infer:
            got = self._inferred(fact, kept)
            if got is not None:
                return got
        if self._bound is not None and fact in self._bound_facts(kept):
            self._remember(fact, kept, True)
            return True
        self._tick()
        if self._upper is not None and kept not in self._upper_cache:
            self.upper_calls += 1
            up = self._upper(kept)
            self._upper_cache[kept] = None if up is None else frozenset(up)
        if self._upper is not None and (up := self._upper_cache[kept]) is not None and fact not in up:
            self._remember(fact, kept, False)
            return False
        if self._holds is None:
            return fact in self.certain(kept)  # cached with every fact of that set
        self.calls += 1
        got = self._holds(fact, kept)
        self._remember(fact, kept, got)
        return got

    def _bound_facts(self, kept: frozenset[int]) -> frozenset[Fact]:
        """The bound's facts for ``kept`` (cached); the bound must be given."""
        b = self._bound_cache.get(kept)
        if b is None:
            self._tick()
            assert self._bound is not None
            self.bound_calls += 1
            b = frozenset(self._bound(kept))
            self._bound_cache[kept] = b
        return b

    def _by_bound(self, fact: Fact, kept: frozenset[int]) -> bool:
        """Does the bound (or an earlier answer, by monotonicity) prove ``fact`` from ``kept``?  No oracle call."""
        if kept in self._cache:
            return fact in self._cache[kept]
        if self._holds_cache.get((fact, kept)) or (self._infer and self._inferred(fact, kept)):
            return True
        return fact in self._bound_facts(kept)

    def _tick(self) -> None:
        """A person is waiting (``unmask solve --explain``): stop at the deadline, between oracle calls."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime

    def _remember(self, fact: Fact, kept: frozenset[int], got: bool) -> None:
        self._holds_cache[(fact, kept)] = got
        (self._pos if got else self._neg).setdefault(fact, []).append(kept)

    def _inferred(self, fact: Fact, kept: frozenset[int]) -> bool | None:
        """The answer for ``kept`` if monotonicity decides it from earlier answers, else None."""
        for t in self._pos.get(fact, ()):
            if t <= kept:
                return True
        for t in self._neg.get(fact, ()):
            if kept <= t:
                return False
        for t, facts in self._bound_cache.items():
            if fact in facts and t <= kept:
                return True
        for t, facts in self._cache.items():
            if fact in facts:
                if t <= kept:
                    return True
            elif kept <= t:
                return False
        return None

    def why(self, fact: Fact) -> list[int]:
        """A minimal sufficient set of notes for ``fact`` (log order); ValueError if it is not certain."""
        if fact not in self._cache[self._all]:
            raise ValueError(f"{fact!r} is not certain")
        cand: list[int] | None = None
        if self._bound is not None and self._by_bound(fact, self._all):
            # The bound proves it: a candidate from bound answers alone (earlier answers first),
            # minimal for the bound, so that only the deletion pass below asks the oracle.
            for found in self._found[:_REUSE]:
                if self._by_bound(fact, found):
                    cand = sorted(found)
                    break
            if cand is None:
                cand = minimal_sufficient(lambda s: self._by_bound(fact, s), self.notes)
        # An earlier answer often proves this fact too (a card's ✓ proves its ✗s): one check each.
        for found in self._found[:_REUSE] if cand is None else ():
            if self.holds(fact, found):
                cand = sorted(found)
                break
        if cand is None and self._candidates is not None:
            self._tick()
            got = self._candidates(fact)
            if got is not None:
                cand = sorted(set(got) & self._all)
                if not self.holds(fact, frozenset(cand)):
                    cand = None
        shrink = cand is None
        got = minimal_sufficient(lambda s: self.holds(fact, s), cand if cand is not None else self.notes,
                                 shrink=shrink)
        key = frozenset(got)
        if got and key not in self._found:
            self._found.insert(0, key)
        return got

    def why_without(self, fact: Fact, note: int) -> list[int] | None:
        """Another minimal set of notes that proves ``fact`` without ``note`` (None: the fact rests on it).

        The Why view cites one proof; when a cited note can go and the fact stays certain, this is
        the proof that remains, so "without #1 nothing changes" is never said beside "#1 proves it"
        with no word of why.
        """
        rest = self._all - {note}
        if not self.holds(fact, rest):
            return None
        return minimal_sufficient(lambda s: self.holds(fact, s), sorted(rest))

    def rests_on(self, note: int) -> list[Fact]:
        """The certain facts that would no longer be certain without ``note`` (in the facts' order)."""
        without = self.certain(self._all - {note})
        return [f for f in self.facts if f not in without]


def explain(oracle: Oracle, fact: Fact) -> list[int]:
    """One fact's minimal sufficient set of notes (see :class:`Explainer` for many)."""
    return Explainer(oracle).why(fact)
