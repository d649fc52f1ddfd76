"""The Tokyo Ghoul assist session's schema (``docs/formats.md``), checked before anything is solved.

``validate(config, log)`` refuses a value of the wrong type, or a name that is not a player, a
suit, a character, a tile or a token of the game, with a one-line :class:`SolverInputError`
naming the spot ("Log entry 3: 'card' must be one of coffee, food, ..."). What passes is well
typed, so the solver only has to judge whether the entries can all be true. Unknown extra fields
are left alone (newer settings, notes), as the session format promises.
"""

from __future__ import annotations

from typing import Any

from engine.ghoul.data import SUITS, load_data
from solvers.ghoul.model import TOKENS, TYPES, SolverInputError
from solvers.schema import Check, check_log, is_int, show

RULES = ("coffee", "food", "dove", "pair", "transformation")
EXCHANGES = ("none", "unknown")
FROM = ("hand", "board")


def _error(message: str) -> SolverInputError:
    return SolverInputError(message)


def validate(config: Any, log: Any) -> None:
    """Raise :class:`SolverInputError` (one line) unless ``config`` and ``log`` fit the schema."""
    names = validate_config(config)
    check_log(log, _error, lambda c, e, _i: _entry(c, e, names))


def validate_config(config: Any) -> list[str]:
    """The config's types; returns the player names."""
    data = load_data()
    c = Check(_error, "config")
    c.obj(config, "the config")
    names = c.list_of(config.get("players"), "players", c.string, 4, 8, "players")
    if len(set(names)) != len(names):
        c.fail("the player names must be different.")
    n = len(names)
    _player(c, config.get("me"), "me", names)
    chars = list(data.characters)
    c.string(config.get("character"), "character", chars, label="the character ids")
    c.list_of(config.get("cast"), "cast", lambda v, k: c.string(v, k, chars), n, n)
    for key in ("mask", "support"):
        if key in config:
            c.boolean(config[key], key)
    if "setup" in config:
        c.string(config["setup"], "setup", ("a", "b"))
    if "deck" in config:
        deck = c.mapping(config["deck"], "deck")
        for k, v in deck.items():
            _suit(c, k, "deck")
            c.integer(v, f"deck.{k}", 0, 8 * 4)
    if "pool" in config:
        c.integer(config["pool"], "pool", 0, 200)
    if config.get("ring") is not None:
        tiles = list(data.tiles)
        c.list_of(config["ring"], "ring", lambda v, k: c.optional(v, k, c.string, tiles), 8, 8)
    if "red" in config:
        c.list_of(config["red"], "red", c.boolean, 8, 8)
    if "token" in config:
        c.integer(config["token"], "token", 0, 7)
    return names


def _player(c: Check, value: Any, key: str, names: list[str]) -> None:
    """Players are written by name (the assistant prints them as they are written)."""
    c.string(value, key, names, label="the players")


def _opt_player(c: Check, value: Any, key: str, names: list[str]) -> None:
    if value is not None:
        _player(c, value, key, names)


def _suit(c: Check, value: Any, key: str) -> None:
    if not isinstance(value, str) or value.lower() not in SUITS:
        c.fail(f"'{key}' must be one of {', '.join(SUITS)}, not {show(value)}.")


def _cards(c: Check, value: Any, key: str, hi: int = 4) -> None:
    for x in c.lst(value, key, 0, hi):
        _suit(c, x, key)


def _faces(c: Check, value: Any, key: str, names: list[str]) -> None:
    if value is None:
        return
    for p, card in c.mapping(value, key).items():
        _player(c, p, key, names)
        if card is not None:
            _suit(c, card, f"{key}.{p}")


def _entry(c: Check, e: Any, names: list[str]) -> None:
    c.obj(e, "an entry")
    t = c.string(e.get("type"), "type", TYPES, label="the entry kinds")
    chars = list(load_data().characters)
    if t == "hand":
        _cards(c, e.get("cards"), "cards")
        if e.get("face_up") is not None:
            _suit(c, e["face_up"], "face_up")
    elif t == "support":
        c.string(e.get("token"), "token", TOKENS)
    elif t == "preliminary":
        if e.get("shown") is not None:
            _cards(c, e["shown"], "shown")
        for key in ("gave", "received"):
            if e.get(key) is not None:
                _suit(c, e[key], key)
        _faces(c, e.get("face_up"), "face_up", names)
    elif t == "face_up":
        _player(c, e.get("player"), "player", names)
        _suit(c, e.get("card"), "card")
    elif t in ("move", "turn"):
        _player(c, e.get("player"), "player", names)
        if e.get("to") is not None:
            c.integer(e["to"], "to", 0, 7)
        if e.get("revealed"):
            tiles = list(load_data().tiles)
            for k, v in c.mapping(e["revealed"], "revealed").items():
                if not (isinstance(k, str) and k.isdigit() and int(k) < 8) and not (is_int(k) and 0 <= k < 8):
                    c.fail(f"'revealed' maps places 0-7 to tiles, not {show(k)}.")
                c.string(v, f"revealed.{k}", tiles)
    elif t == "interrogation":
        _player(c, e.get("by"), "by", names)
        _player(c, e.get("target"), "target", names)
        c.choice(e.get("count"), "count", (None, 2, 3))
        if e.get("shown") is not None:
            _cards(c, e["shown"], "shown")
        ex = e.get("exchange")
        if isinstance(ex, dict):
            _suit(c, ex.get("gave"), "exchange.gave")
            _suit(c, ex.get("took"), "exchange.took")
            for key in ("gave_from", "took_from"):
                if key in ex:
                    c.string(ex[key], f"exchange.{key}", FROM)
        elif ex is not None:
            c.string(ex, "exchange", EXCHANGES)
        _faces(c, e.get("face_up"), "face_up", names)
    elif t == "suspicion":
        c.string(e.get("rule"), "rule", RULES)
        if "players" in e:
            for x in c.lst(e["players"], "players", 0, len(names)):
                _player(c, x, "players", names)
        if e.get("took") is not None:
            for x in c.lst(e["took"], "took", 0, len(names)):
                _player(c, x, "took", names)
    elif t == "cover":
        for key in ("by", "removed", "added"):
            _opt_player(c, e.get(key), key, names)
    elif t in ("attack", "special"):
        _player(c, e.get("by"), "by", names)
        _player(c, e.get("target"), "target", names)
        for key in ("by_character", "target_character"):
            if e.get(key):
                c.string(e[key], key, chars)
        _opt_player(c, e.get("victim"), "victim", names)
        if e.get("support") is not None:
            c.list_of(e["support"], "support", lambda v, k: c.string(v, k, TOKENS), 2, 2)
    elif t in ("instant", "reveal"):
        _player(c, e.get("player"), "player", names)
        if t == "instant" or e.get("character"):
            c.string(e.get("character"), "character", chars)
        if e.get("cards") is not None:
            _cards(c, e["cards"], "cards")
    elif t == "support_look":
        _player(c, e.get("by"), "by", names)
        _player(c, e.get("target"), "target", names)
        if e.get("token") is not None:
            c.string(e["token"], "token", TOKENS)
    elif t == "support_swap":
        _player(c, e.get("by"), "by", names)
        _player(c, e.get("with"), "with", names)
