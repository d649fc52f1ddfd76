"""Articles and plurals for sentences built from data ("an Inspector", "1 step", "2 Aces").

Names come from TOML files, so a sentence template cannot know whether its noun starts with a
vowel or how many there are; every game's texts go through these two helpers instead.
"""

from __future__ import annotations

# Written with a vowel but said with a consonant sound ("a unicorn", "a one-eyed"), and the reverse.
_CONSONANT_SOUND = ("one", "once", "uni", "use", "usu", "uti", "eu", "ewe")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir", "8", "11", "18")


def article(noun: str) -> str:
    """'a' or 'an' for ``noun`` by its first sound (not just its first letter)."""
    word = noun.strip().lower()
    if word.startswith(_VOWEL_SOUND):
        return "an"
    if word.startswith(_CONSONANT_SOUND):
        return "a"
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def a(noun: str) -> str:
    """``noun`` with its indefinite article: a(\"Inspector\") == \"an Inspector\"."""
    return f"{article(noun)} {noun}"


def plural(noun: str) -> str:
    """The English plural of a single ``noun`` (the last word is inflected: "Dove card" -> "Dove cards")."""
    head, _, last = noun.rpartition(" ")
    low = last.lower()
    if low.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    elif low.endswith("y") and low[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        last = last[:-1] + ("IES" if last.isupper() else "ies")
    elif last:
        last += "S" if last.isupper() and len(last) > 1 else "s"
    return f"{head} {last}" if head else last


def count(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun``, plural unless n is 1 or -1: count(1, "step") == "1 step"; ``many`` overrides."""
    return f"{n} {noun if abs(n) == 1 else (many or plural(noun))}"

