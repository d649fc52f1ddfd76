"""Every assumption a game's data files hold, as (section, id, text) lines for `unmask rules` and the Rules screen.

An assumption is either an ``[[assumptions]]`` entry (a reading of the rules, with its text) or
a record flagged ``assumed = true`` (a card, character, setup row, tile, ... whose printed
values are unknown). Walking the TOML files themselves, rather than a hand-kept list, means a
record flagged in the data always reaches the user: the game only says how to word it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from functools import cache
from importlib import resources

Assumption = tuple[str, str, str]
"""(section, id, text): the id is stable and names where the assumption lives."""

Describe = Callable[[str, str, dict], tuple[str, str] | None]
"""(file stem, table key, record) -> (section, text), or None for the generic wording."""

RULES_SECTION = "Rules"


@cache
def _files(package: str) -> tuple[tuple[str, dict], ...]:
    folder = resources.files(package).joinpath("data")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".toml"))
    return tuple((n[: -len(".toml")], tomllib.loads(folder.joinpath(n).read_text("utf-8"))) for n in names)


def record_label(record: dict) -> str:
    """The name a record is known by in its table (id, name, suspect, or the setup row)."""
    for k in ("id", "name", "suspect"):
        if isinstance(record.get(k), str):
            return record[k]
    if "players" in record:
        return f"{record['players']}{record.get('option', '')}"
    return "?"


def flagged(package: str) -> list[tuple[str, str, dict]]:
    """(id, table key, record) of every record flagged ``assumed = true`` in the package's data files."""
    out: list[tuple[str, str, dict]] = []
    for stem, data in _files(package):
        if data.get("assumed"):
            out.append((stem, "", data))
        for key, val in data.items():
            if isinstance(val, dict) and val.get("assumed"):
                out.append((f"{stem}:{key}", key, val))
            elif isinstance(val, list):
                out.extend(
                    (f"{stem}:{key}:{record_label(r)}", key, r) for r in val if isinstance(r, dict) and r.get("assumed")
                )
    return out


def _plain(v: object) -> bool:
    return not isinstance(v, dict | list) or (isinstance(v, list) and not any(isinstance(x, dict | list) for x in v))


def _generic(key: str, record: dict) -> tuple[str, str]:
    values = "; ".join(
        f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
        for k, v in record.items()
        if k != "assumed" and _plain(v)
    )
    return (key.replace("_", " ").capitalize() or "Data", f"{values} (assumed).")


def assumptions(package: str, describe: Describe | None = None) -> list[Assumption]:
    """Every assumption of the game in ``package``: the readings first, then the flagged data."""
    out: list[Assumption] = []
    for _stem, data in _files(package):
        out.extend((RULES_SECTION, a["id"], a["text"]) for a in data.get("assumptions", ()))
    for aid, key, record in flagged(package):
        stem = aid.split(":", 1)[0]
        said = describe(stem, key, record) if describe else None
        section, text = said or _generic(key or stem, record)
        out.append((section, aid, text))
    return out
