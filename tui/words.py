"""Small sentence helpers: a count and its noun agree ("1 step", "2 steps"; issue 23 found "1 steps")."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the number it needs: ``count(1, "step")`` is "1 step", ``count(3, "step")`` "3 steps"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def count_is(n: int, noun: str, plural: str | None = None) -> str:
    """The count as the subject of "is" / "are": "1 card is", "2 cards are"."""
    return f"{count(n, noun, plural)} {'is' if n == 1 else 'are'}"
