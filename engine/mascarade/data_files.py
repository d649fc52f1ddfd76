"""Mascarade data: masks with their powers, the per-count sets, options and assumptions (TOML).

Kept apart from the rules code so a user can correct a file to match the box on their table.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class Mask:
    """One mask: its power is ``effect`` run with the numeric parameters below."""

    id: str
    name: str
    effect: str
    text: str
    amount: int = 0
    neighbours: int = 0
    pair_amount: int = 0
    threshold: int = 0
    target: int = 0
    count: int = 1


@dataclass(frozen=True)
class Rules:
    """The numbers of the game and the mask set of each player count."""

    coins: int
    win: int
    cards: int
    opening_turns: int
    bank: int
    max_turns: int
    sets: dict[int, tuple[str, ...]]
    options: tuple[dict, ...]
    assumptions: tuple[dict, ...]


EFFECTS = frozenset({"beggar", "cheater", "bank", "fool", "guru", "judge", "patron", "peasant", "princess",
                     "puppeteer", "sorceress", "spy", "thief", "trickster", "widow"})


def _read(name: str) -> dict:
    return tomllib.loads(resources.files("engine.mascarade").joinpath("data", name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def load_masks() -> dict[str, Mask]:
    """Every mask by id, in the data file's order (the order the app lists them)."""
    out: dict[str, Mask] = {}
    for m in _read("masks.toml")["mask"]:
        mask = Mask(**m)
        if mask.effect not in EFFECTS:
            raise ValueError(f"masks.toml: unknown effect {mask.effect!r} for {mask.id!r}.")
        out[mask.id] = mask
    return out


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    d = _read("rules.toml")
    st = d["start"]
    masks = load_masks()
    sets = {int(k): tuple(v) for k, v in d["sets"].items()}
    for k, v in sets.items():
        for m in v:
            if m not in masks:
                raise ValueError(f"rules.toml: the {k}-player set names an unknown mask {m!r}.")
    return Rules(coins=st["coins"], win=st["win"], cards=st["cards"], opening_turns=st["opening_turns"],
                 bank=st["bank"], max_turns=st["max_turns"], sets=sets,
                 options=tuple(d.get("options", ())), assumptions=tuple(d.get("assumptions", ())))
