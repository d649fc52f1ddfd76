"""Settings the environment can give the app and the servers (``UNMASK_*`` variables)."""

from __future__ import annotations

import os


def env_seconds(name: str, default: float) -> float:
    """The seconds the variable ``name`` sets (never fewer than 0), or ``default`` when unset or unreadable."""
    raw = os.environ.get(name)
    if raw:
        try:
            return max(0.0, float(raw))
        except ValueError:
            pass
    return default
