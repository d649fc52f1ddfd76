"""``why``: every certain fact of a game's notes with the notes that prove it (the CLI's ``--explain``).

Each game's ``solvers/<game>/explain.py`` exports ``explainer(config, log)`` (an
:class:`solvers.explain.Explainer`), ``fact_json``, ``fact_sentence`` and ``note_sentence``, and
may export ``log_sentence(config, log, i)``: note ``i`` in the words of the assistant's log, which
:func:`note_text` then prefers (Tokyo Ghoul: its sentences need the players and the ring).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from typing import Any

from solvers.explain import OutOfTime

__all__ = ["explain_module", "iter_why", "note_text", "why_json"]


def explain_module(game: str) -> Any:
    """The game's explain module (``solvers.<game>.explain``)."""
    return importlib.import_module(f"solvers.{game}.explain")


def iter_why(
    game: str, config: Any, log: Any, *, stop: Callable[[], bool] | None = None
) -> Iterator[tuple[Any, list[int]]]:
    """(fact, notes) for each certain fact in the solver's order, one at a time (a worker shows them as
    they come and stops when ``stop()`` says so)."""
    ex = explain_module(game).explainer(config, log)
    for fact in ex.facts:
        if stop is not None and stop():
            return
        yield fact, ex.why(fact)


def why_json(
    game: str, config: Any, log: Any, *, deadline: float | None = None
) -> tuple[list[dict[str, Any]], list[str], int]:
    """The ``"why"`` list (``{"fact": <an item of "certain">, "entries": [log indices]}`` per certain
    fact), the same reasons as sentences for the readable output, and how many certain facts were
    left out because ``deadline`` (``time.monotonic()``) passed first: a person waits for the CLI,
    and one large file could otherwise take half a minute."""
    mod = explain_module(game)
    me = str(config.get("me", "")) if isinstance(config, dict) else ""
    items: list[dict[str, Any]] = []
    lines: list[str] = []
    ex = mod.explainer(config, log)
    ex.deadline = deadline
    facts = [f for f in ex.facts if mod.fact_json(f) is not None]
    for fact in facts:
        try:
            notes = ex.why(fact)
        except OutOfTime:
            break
        items.append({"fact": mod.fact_json(fact), "entries": notes})
        lines.append(reason(mod, fact, notes, log, me, config))
    return items, lines, len(facts) - len(items)


def note_text(mod: Any, config: Any, log: Any, i: int, me: str) -> str:
    """Note ``i`` (``-1``: the opening) in words: the game's ``log_sentence`` when it has one (the
    sentence its assistant's log shows), else its ``note_sentence``."""
    if i < 0:
        return mod.note_sentence(None, me)
    said = getattr(mod, "log_sentence", None)
    return said(config, log, i) if said is not None else mod.note_sentence(log[i], me)


def reason(mod: Any, fact: Any, notes: list[int], log: Any, me: str, config: Any = None) -> str:
    """'#3 Cat could not show ...; #9 ...; so the Arakh is at Bob' (log order; notes numbered from #1, as the
    app and the log file's readers count them, and said as the app's log says them)."""
    said = mod.fact_sentence(fact)
    if not notes:
        return f"{said[0].upper()}{said[1:]}: no note needed (the setup and the events logged)."
    parts = [f"#{i + 1} {note_text(mod, config, log, i, me)}" if i >= 0 else note_text(mod, config, log, i, me)
             for i in notes]
    return "; ".join(parts) + f"; so {said}."
