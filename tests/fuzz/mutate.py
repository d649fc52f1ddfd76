"""Mutations of a session's JSON, drawn by hypothesis: what a damaged or hand-edited file looks like.

A mutation picks a spot anywhere in ``{"config": ..., "log": ...}`` and changes it: another type,
a deleted or added key, a value swapped with another spot's, a list made shorter or longer,
odd Unicode, deep nesting, a number too long for Python to read (more than 4,300 digits: written
into the file's text by :func:`file_text`). Several mutations can stack.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

ODD_STRINGS = ["", " ", "é", "Ünïcødé", "名前", "🂡", "\u202e", "\x00", "a" * 300, "12:10", "null", "-1", "T1",
               "coffee", "king", "Ann", "0", "[/]", "[bold]x", "[link=x]y[/link", "\\[", "\n", "$", "{}"]
SCALARS: list[Any] = [None, True, False, 0, 1, -1, 2, 7, 10**12, 0.5, -0.0, 1e308, float("inf")]
HUGE = "\u2063huge-number\u2063"
"""Stands for an integer of :data:`HUGE_DIGITS` digits; :func:`file_text` writes the digits (Python's
``json`` cannot write or read such an integer: its int-string limit is 4,300 digits)."""
HUGE_DIGITS = 5000


def file_text(data: Any) -> str:
    """The JSON text of a (mutated) session file, each :data:`HUGE` written as a 5,000-digit integer."""
    return json.dumps(data, ensure_ascii=False).replace(json.dumps(HUGE, ensure_ascii=False), "9" * HUGE_DIGITS)


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every spot in the JSON tree (the root excluded)."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append((*prefix, k))
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append((*prefix, i))
            out.extend(_paths(v, (*prefix, i)))
    return out


def _get(data: Any, path: tuple) -> Any:
    for k in path:
        data = data[k]
    return data


def _set(data: Any, path: tuple, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def odd_value(draw: st.DrawFn, spot: Any, other: Any) -> Any:
    """A value of another type (or an odd one of the same type) for a spot holding ``spot``."""
    kind = draw(st.sampled_from(["scalar", "string", "list", "dict", "nest", "other", "number_text", "unicode",
                                 "huge"]))
    if kind == "huge":
        return HUGE
    if kind == "scalar":
        return draw(st.sampled_from(SCALARS))
    if kind == "string":
        return draw(st.sampled_from(ODD_STRINGS))
    if kind == "list":
        return [spot] if draw(st.booleans()) else []
    if kind == "dict":
        return {} if draw(st.booleans()) else {"x": spot}
    if kind == "nest":
        return _nest(spot, draw(st.integers(1, 60)))
    if kind == "other":
        return copy.deepcopy(other)
    if kind == "number_text":
        return str(spot) if not isinstance(spot, str) else draw(st.sampled_from(SCALARS))
    return draw(st.text(min_size=0, max_size=8))


@st.composite
def mutated(draw: st.DrawFn, base_json: str) -> dict:
    """One to three mutations of the session ``base_json`` (``{"config": ..., "log": ...}``)."""
    data = json.loads(base_json)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = _get(data, path[:-1])
        spot = parent[path[-1]]
        other = _get(data, draw(st.sampled_from(paths)))
        op = draw(st.sampled_from(["retype", "retype", "delete", "add", "swap", "resize", "duplicate"]))
        if op == "retype":
            _set(data, path, draw(odd_value(spot, other)))
        elif op == "delete":
            del parent[path[-1]]
        elif op == "add":
            if isinstance(parent, dict):
                key = draw(st.sampled_from(["type", "t", "by", "card", "cards", "player", "extra", "é", "0"]))
                parent[key] = draw(odd_value(spot, other))
            else:
                parent.insert(path[-1], draw(odd_value(spot, other)))
        elif op == "swap":
            path2 = draw(st.sampled_from(paths))
            if path2[: len(path)] != path and path[: len(path2)] != path2:
                a, b = copy.deepcopy(spot), copy.deepcopy(_get(data, path2))
                _set(data, path, b)
                _set(data, path2, a)
        elif op == "resize":
            if isinstance(spot, list) and spot:
                if draw(st.booleans()):
                    del spot[draw(st.integers(0, len(spot) - 1)):]
                else:
                    spot.extend(copy.deepcopy(spot[: draw(st.integers(1, len(spot)))]))
            elif isinstance(spot, int) and not isinstance(spot, bool):
                _set(data, path, spot + draw(st.sampled_from([-100, -1, 1, 3, 1000])))
            else:
                _set(data, path, draw(odd_value(spot, other)))
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(spot))
    return data


def session_file(game: str, data: dict) -> dict:
    """The mutated ``config``/``log`` wrapped as an assist session file."""
    out: dict[str, Any] = {"format": "unmask-session/1", "game": game, "mode": "assist"}
    if "config" in data:
        out["config"] = data["config"]
    if "log" in data:
        out["log"] = data["log"]
    return out
