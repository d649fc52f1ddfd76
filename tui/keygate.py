"""Keys read one at a time: each acts on what has the focus once the previous key is done with (issue 23).

Textual reads a key in the app's task and hands it to the focused widget's queue; the binding then
runs when the key has bubbled back up, and what it sets off (a pick's message, the next step's
focus, a dialog being mounted) runs later still, in other tasks. Keys typed in a burst (a quick
typist, tmux ``send-keys``, a laggy SSH link) were all handed to the widget focused when the burst
arrived: in the Clue rumor dialog ``Down Enter Down Down Enter`` picked the suspect twice and no
weapon. So a key that arrives while the screen is still busy with the one before (any of its
widgets has a message waiting, or the app has more than this one) is held, and the held keys are
handed on in order, each once the app is quiet again: no message waiting, and none handled anywhere
in the app for :data:`QUIET_TURNS` turns of the event loop. (A handler that awaits something, such
as a dialog's next step being mounted, leaves no message waiting in the screen's widgets, but the
messages it waits on are handled meanwhile; on a loaded machine a gate that looked only at the
waiting messages handed the next key to the old step's list.) An app that stays busy for
:data:`MAX_HOLD` seconds (a handler that never ends) gets its keys anyway, as before.
"""

from __future__ import annotations

import asyncio
from collections import deque
from time import monotonic
from typing import TYPE_CHECKING

from textual import events
from textual._context import message_hook as message_hook_var
from textual.app import App

if TYPE_CHECKING:
    from textual.message import Message
    from textual.message_pump import MessagePump

MAX_HOLD = 3.0
"""Seconds a key waits at most for a busy app (a safety valve, not a pace: a quiet app takes it at once).
Half a second was too short on a loaded machine: a dialog's next step took longer."""

QUIET_TURNS = 3
"""Turns of the event loop (each :data:`POLL` long at least) with no message handled anywhere before a
held key is handed on: every task that had work ready has run in between."""

POLL = 0.002
"""Seconds the app gives the widgets to work before it looks again whether the screen is quiet."""


def _waiting(pump: MessagePump) -> bool:
    """Whether ``pump`` has a message waiting. (One being handled may leave nothing waiting anywhere
    while its handler awaits: :class:`KeyGate` also counts the messages handled meanwhile.)"""
    return bool(pump._message_queue.qsize()) or pump._pending_message is not None


class KeyGate(App):  # type: ignore[type-arg]
    """An app whose keys each wait until the screen has finished with the key before."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._held_keys: deque[events.Key] = deque()
        self._held_since = 0.0
        self._release_queued = False
        self._handled = 0  # messages handled anywhere in the app (but the gate's own callbacks)
        self._handled_seen = 0
        self._quiet_turns = 0

    async def _process_messages(self, *args: object, **kwargs: object) -> None:
        """Count every message any pump of the app handles: Textual calls the message hook of the
        context at each dispatch, and every widget's task inherits this one's context."""
        try:
            before = message_hook_var.get()
        except LookupError:
            before = None

        def hook(message: Message) -> None:
            callback = getattr(message, "callback", None)  # call_later wraps it in a partial
            if getattr(callback, "func", callback) != self._release_key:
                self._handled += 1
            if before is not None:
                before(message)

        message_hook_var.set(hook)
        await super()._process_messages(*args, **kwargs)  # type: ignore[arg-type]

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
        moved, self._handled_seen = self._handled != self._handled_seen, self._handled
        self._quiet_turns = 0 if moved or self.screen_busy() else self._quiet_turns + 1
        if self._quiet_turns < QUIET_TURNS and monotonic() - self._held_since < MAX_HOLD:
            await asyncio.sleep(POLL)  # the widgets' tasks run meanwhile; the app's own queue waits
            self._queue_release()
            return
        key = self._held_keys.popleft()
        self._held_since = monotonic()
        self._quiet_turns = 0
        await super().on_event(key)
        if self._held_keys:
            self._queue_release()
