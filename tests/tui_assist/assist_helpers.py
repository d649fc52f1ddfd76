"""Shared helpers: sample sessions and waiting until the solver workers are done."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from engine.session import Session
from tui.clue.assist_model import board_deck

DECK = board_deck("red-keep")
S, W, L = DECK["suspects"], DECK["weapons"], DECK["locations"]
PLAYERS = ["Ann", "Bob", "Cat"]


def config(players: list[str] | None = None) -> dict[str, Any]:
    return {"board": "red-keep", "deck": DECK, "players": players or PLAYERS, "me": "Ann"}


def sample_log() -> list[dict[str, Any]]:
    """A few consistent entries: my hand, the face-up cards and three rumors."""
    return [
        {"type": "hand", "cards": [S[0], S[1], W[0], W[1], L[0], L[1]]},
        {"type": "face_up", "cards": [L[2], L[3]]},
        {"type": "rumor", "by": "Ann", "cards": [S[2], W[2], L[4]], "passed": [], "shown_by": "Bob", "card": W[2]},
        {"type": "rumor", "by": "Bob", "cards": [S[0], W[3], L[5]], "passed": ["Cat"], "shown_by": "Ann",
         "card": S[0]},
        {"type": "rumor", "by": "Cat", "cards": [S[2], W[4], L[6]], "passed": [], "shown_by": "Bob", "card": None},
    ]


def sample_session(log: list[dict[str, Any]] | None = None) -> Session:
    return Session(game="clue", mode="assist", config=config(), log=sample_log() if log is None else log)


def contradiction_log() -> list[dict[str, Any]]:
    """The sample, then Bob "shows me" a card that is in my own hand: no deal fits."""
    return [*sample_log(), {"type": "rumor", "by": "Ann", "cards": [S[0], W[5], L[7]], "passed": [],
                            "shown_by": "Bob", "card": S[0]}]


async def settle(pilot: Pilot) -> None:
    """Wait until no solver or advice worker runs and their answers are drawn."""
    for _ in range(20):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            break
    await pilot.pause()


def sync(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test body with asyncio (no async pytest plugin is installed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
