"""Keys read one at a time: each acts on what has the focus once the previous key is done with (issue 23).

Textual reads a key in the app's task and hands it to the focused widget's queue; the binding then
runs when the key has bubbled back up, and what it sets off (a pick's message, the next step's
focus, a dialog being mounted) runs later still, in other tasks. Keys typed in a burst (a quick
typist, tmux ``send-keys``, a laggy SSH link) were all handed to the widget focused when the burst
arrived: in the Clue rumor dialog ``Down Enter Down Down Enter`` picked the suspect twice and no
weapon. So a key that arrives while the screen is still busy with the one before (any of its
widgets has a message waiting or being handled, or the app has more than this one) is held, and
the held keys are handed on in order, each once the screen is quiet again. A screen that stays
busy for :data:`MAX_HOLD` seconds (a long handler) gets its keys anyway, as before.
"""

from __future__ import annotations

import asyncio
from collections import deque
from time import monotonic
from typing import TYPE_CHECKING

from textual import events
from textual.app import App

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

MAX_HOLD = 0.5
"""Seconds a key waits at most for a busy screen (a safety valve, not a pace: a quiet screen takes it at once)."""

POLL = 0.002
"""Seconds the app gives the widgets to work before it looks again whether the screen is quiet."""


def _waiting(pump: MessagePump) -> bool:
    """Whether ``pump`` has a message waiting. (One being handled has either bubbled on, or its
    handler is still awaiting something, which shows as that thing's message waiting somewhere.)"""
    return bool(pump._message_queue.qsize()) or pump._pending_message is not None


class KeyGate(App):  # type: ignore[type-arg]
    """An app whose keys each wait until the screen has finished with the key before."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._held_keys: deque[events.Key] = deque()
        self._held_since = 0.0
        self._release_queued = False

    @property
    def keys_held(self) -> int:
        """How many keys wait for the screen (a test waits for none before it looks)."""
        return len(self._held_keys)

    def screen_busy(self) -> bool:
        """Whether anything is still under way from the last input: a message waiting in the app or in
        any widget of the screen."""
        if _waiting(self):
            return True
        try:
            screen = self.screen
        except Exception:  # no screen yet: nothing to wait for
            return False
        return any(_waiting(node) for node in screen.walk_children(with_self=True))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and (self._held_keys or self.screen_busy()):
            if not self._held_keys:
                self._held_since = monotonic()
            self._held_keys.append(event)
            self._queue_release()
            return
        await super().on_event(event)

    def _queue_release(self) -> None:
        if not self._release_queued:
            self._release_queued = True
            self.call_later(self._release_key)

    async def _release_key(self) -> None:
        """Hand on the first held key once the screen is quiet (or has kept it waiting too long)."""
        self._release_queued = False
        if not self._held_keys:
            return
        if self.screen_busy() and monotonic() - self._held_since < MAX_HOLD:
            await asyncio.sleep(POLL)  # the widgets' tasks run meanwhile; the app's own queue waits
            self._queue_release()
            return
        key = self._held_keys.popleft()
        self._held_since = monotonic()
        await super().on_event(key)
        if self._held_keys:
            self._queue_release()
