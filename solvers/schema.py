"""Small checks for the JSON a person hands a solver: right type, known name, sane size.

Each game's ``validate`` module states its session schema with these, so that a damaged or
hand-edited file is refused at the boundary with one short line naming the spot ("Log entry 3:
'card' must be one of coffee, food, ..."), and the solver itself only ever sees well-typed input.
A :class:`Check` raises the game's own ``SolverInputError``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

MAX_SHOWN = 8  # names listed in a message before "..."
MAX_TEXT = 40  # characters of a bad value quoted in a message


def show(value: Any) -> str:
    """A bad value, quoted short enough for one line."""
    text = repr(value)
    text = text.replace("\n", "\\n").replace("\r", "\\r")
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def _one_line(text: str) -> str:
    """``text`` with every unprintable character (a newline in a hand-made card name) escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def one_of(choices: Iterable[Any]) -> str:
    """The allowed values, short and on one line (names come from the file, and may hold newlines)."""
    names = [_one_line(str(c)) for c in choices]
    if len(names) > MAX_SHOWN:
        return ", ".join(names[:MAX_SHOWN]) + f", ... ({len(names)} in all)"
    return ", ".join(names)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value and abs(value) != float(
        "inf")


class Check:
    """Checks of one spot (``where``: "config", "Log entry 3"), raising ``error`` with one line."""

    def __init__(self, error: Callable[[str], Exception], where: str) -> None:
        self.error = error
        self.where = where

    def fail(self, message: str) -> NoReturn:
        """``config.players must ...`` for the config; ``Log entry 3: 'card' must ...`` for an entry."""
        raise self.error(message if self.where == "config" else f"{self.where}: {message}")

    def _q(self, key: str) -> str:
        return f"config.{key}" if self.where == "config" else f"'{key}'"

    # -- containers ------------------------------------------------------------------------------

    def obj(self, value: Any, what: str = "it") -> dict:
        if not isinstance(value, dict):
            self.fail(f"{what} must be a JSON object, not {show(value)}.")
        return value

    def keys(self, value: dict, allowed: Collection[str], what: str = "") -> None:
        extra = [k for k in value if k not in allowed]
        if extra:
            self.fail(f"unknown field {show(extra[0])}{' in ' + what if what else ''}; the fields are "
                      f"{one_of(allowed)}.")

    def lst(self, value: Any, key: str, lo: int = 0, hi: int | None = None, noun: str = "items") -> list:
        if not isinstance(value, list):
            self.fail(f"{self._q(key)} must be a list, not {show(value)}.")
        if len(value) < lo or (hi is not None and len(value) > hi):
            size = f"{lo}" if hi == lo else f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            self.fail(f"{self._q(key)} must list {size} {noun}, not {len(value)}.")
        return value

    def list_of(self, value: Any, key: str, item: Callable[[Any, str], T], lo: int = 0,
                hi: int | None = None, noun: str = "items") -> list[T]:
        return [item(x, key) for x in self.lst(value, key, lo, hi, noun)]

    def mapping(self, value: Any, key: str) -> dict:
        if not isinstance(value, dict):
            self.fail(f"{self._q(key)} must be a JSON object, not {show(value)}.")
        return value

    # -- scalars ---------------------------------------------------------------------------------

    def string(self, value: Any, key: str, choices: Collection[str] | None = None, *, label: str = "") -> str:
        """A non-empty text; with ``choices``, one of them (``label`` names them: "the players")."""
        if choices is not None and (not isinstance(value, str) or value not in choices):
            among = f"{label}: " if label else ""
            self.fail(f"{self._q(key)} must be one of {among}{one_of(choices)}, not {show(value)}.")
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{self._q(key)} must be a name (text), not {show(value)}.")
        return value

    def choice(self, value: Any, key: str, choices: Collection[Any]) -> Any:
        """One of a few exact JSON values (strings, numbers, booleans, null)."""
        if not any(value is c or (type(value) is type(c) and value == c) for c in choices):
            self.fail(f"{self._q(key)} must be one of {one_of(show(c) for c in choices)}, not {show(value)}.")
        return value

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(f"{self._q(key)} must be true or false, not {show(value)}.")
        return value

    def integer(self, value: Any, key: str, lo: int | None = None, hi: int | None = None) -> int:
        if not is_int(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = (f" from {lo} to {hi}" if lo is not None and hi is not None else
                      f" of at least {lo}" if lo is not None else f" of at most {hi}" if hi is not None else "")
            self.fail(f"{self._q(key)} must be a whole number{bounds}, not {show(value)}.")
        return value

    def number(self, value: Any, key: str, lo: float | None = None, hi: float | None = None,
               noun: str = "number") -> float:
        if not is_number(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f" from {lo} to {hi}" if lo is not None and hi is not None else ""
            self.fail(f"{self._q(key)} must be a {noun}{bounds}, not {show(value)}.")
        return float(value)

    def optional(self, value: Any, key: str, check: Callable[..., T], *args: Any, **kw: Any) -> T | None:
        return None if value is None else check(value, key, *args, **kw)


def check_log(log: Any, error: Callable[[str], Exception], entry: Callable[[Check, Any, int], None],
              label: str = "Log entry") -> None:
    """The log is a list; each entry is checked by ``entry(check, value, index)`` (counted from 0)."""
    if not isinstance(log, list):
        raise error(f"The log must be a list of entries, not {show(log)}.")
    for i, e in enumerate(log):
        entry(Check(error, f"{label} {i}"), e, i)
