"""The Mascarade assist session's schema (``docs/formats.md``), checked before anything is solved.

``validate(config, log)`` refuses any value of the wrong type or outside the names of the game
with a one-line :class:`SolverInputError` naming the spot ("Log entry 3: 'mask' must be one of
..."). What it lets through is well typed: places are player names, table cards (``T1``) or
seat numbers; masks are this game's mask ids. Whether the entries make sense *together* (a claim
after an announcement, a layout that fits) is the tracker's and the belief's business.
"""

from __future__ import annotations

from typing import Any

from engine.mascarade.data_files import load_masks, load_rules
from solvers.mascarade.model import ENTRY_TYPES, SolverInputError
from solvers.schema import Check, check_log, is_int, is_number, one_of, show

CONFIG_KEYS = ("players", "me", "masks", "table", "opening", "coins", "court", "order", "swap_prior",
               "claim_weight", "exact_limit", "particles", "seed")
PLACE_KEYS = ("by", "with", "a", "b", "target")
MASK_KEYS = ("card", "mine", "theirs", "mask")


def _error(message: str) -> SolverInputError:
    return SolverInputError(message)


def validate(config: Any, log: Any) -> None:
    """Raise :class:`SolverInputError` (one line) unless ``config`` and ``log`` fit the schema."""
    names, places, masks = validate_config(config)
    check_log(log, _error, lambda c, e, _i: _entry(c, e, names, places, masks), label="Entry")


def validate_config(config: Any) -> tuple[list[str], list[str], list[str]]:
    """The config's types; returns the player names, the place names and the game's masks."""
    c = Check(_error, "config")
    c.obj(config, "the config")
    c.keys(config, CONFIG_KEYS)
    names = c.list_of(config.get("players"), "players", c.string, 4, 12, "players")
    if len(set(names)) != len(names):
        c.fail("the player names must be different.")
    n = len(names)
    c.string(config.get("me"), "me", names, label="the players")
    known = load_masks()
    cards = config.get("masks")
    if cards is not None and cards != []:
        cards = c.list_of(cards, "masks", c.string)
        for m in cards:
            if m not in known:
                c.fail(f"config.masks: unknown mask {show(m)}; the masks are: {one_of(known)}.")
    else:
        cards = list(load_rules().sets[n])
    table = config.get("table")
    table = c.integer(table, "table", 0, 2) if table is not None else max(0, load_rules().cards - n)
    places = [*names, *(f"T{i + 1}" for i in range(table))]
    masks = list(dict.fromkeys(cards))
    opening = config.get("opening")
    if isinstance(opening, dict):
        for k, v in opening.items():
            c.string(k, "opening", places)
            c.string(v, f"opening.{k}", masks, label="this game's masks")
    elif opening is not None:
        c.list_of(opening, "opening", lambda v, k: c.string(v, k, masks, label="this game's masks"), len(places),
                  len(places), "masks")
    coins = config.get("coins")
    if isinstance(coins, dict):
        for k, v in coins.items():
            c.string(k, "coins", names)
            c.integer(v, f"coins.{k}", 0)
    elif isinstance(coins, list):
        c.list_of(coins, "coins", lambda v, k: c.integer(v, k, 0), n, n)
    elif coins is not None:
        c.integer(coins, "coins", 0)
    c.optional(config.get("court"), "court", c.integer, 0)
    order = config.get("order")
    if order is not None:
        if isinstance(order, list) and order and all(is_int(v) for v in order):
            c.list_of(order, "order", lambda v, k: c.integer(v, k, 0, n - 1), n, n)
        else:  # names, or else one message that says what is wanted
            c.list_of(order, "order", lambda v, k: c.string(v, k, names, label="the players"), n, n, "players")
    prior = config.get("swap_prior")
    if isinstance(prior, dict):
        for k, v in prior.items():
            c.string(k, "swap_prior", names)
            c.number(v, f"swap_prior.{k}", 0, 1, "probability")
    elif prior is not None:
        c.number(prior, "swap_prior", 0, 1, "probability")
    cw = config.get("claim_weight")
    if cw is not None and (not is_number(cw) or cw <= 0 or cw > 1e6):
        c.fail(f"config.claim_weight must be a positive number (1 = claims are not evidence), not {show(cw)}.")
    c.optional(config.get("exact_limit"), "exact_limit", c.integer, 0, 10**8)
    c.optional(config.get("particles"), "particles", c.integer, 0, 10**7)
    c.optional(config.get("seed"), "seed", c.integer, 0, 2**63 - 1)
    return names, places, masks


def _place(c: Check, value: Any, key: str, places: list[str]) -> None:
    if is_int(value) and 0 <= value < len(places):
        return
    if isinstance(value, str) and value.lower().startswith("table ") and f"T{value[6:].strip()}" in places:
        return
    c.string(value, key, places, label="the places")


def _entry(c: Check, e: Any, names: list[str], places: list[str], masks: list[str]) -> None:
    c.obj(e, "an entry")
    c.string(e.get("t"), "t", ENTRY_TYPES, label="the entry kinds")
    for key in PLACE_KEYS:
        if e.get(key) is not None:
            _place(c, e[key], key, places)
    for key in MASK_KEYS:
        if e.get(key) is not None:
            c.string(e[key], key, masks, label="this game's masks")
    if e.get("swapped") is not None:
        c.boolean(e["swapped"], "swapped")
    t = e["t"]
    if t == "reveal":
        cards = e.get("cards")
        pairs = cards.items() if isinstance(cards, dict) else cards
        if not isinstance(pairs, list) and not isinstance(cards, dict):
            c.fail(f"'cards' must map places to the masks revealed, not {show(cards)}.")
        for pair in pairs:
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                c.fail("'cards' must map places to the masks revealed.")
            who, mask = pair
            if isinstance(who, str) and who.isdigit() and who not in places:
                who = int(who)
            _place(c, who, "cards", places)
            c.string(mask, f"cards.{who}", masks, label="this game's masks")
    if t == "coins":
        coins = e.get("coins")
        if isinstance(coins, dict):
            for k, v in coins.items():
                c.string(k, "coins", names)
                c.integer(v, f"coins.{k}", 0)
        else:
            c.list_of(coins, "coins", lambda v, k: c.integer(v, k, 0))
        c.optional(e.get("court"), "court", c.integer, 0)
