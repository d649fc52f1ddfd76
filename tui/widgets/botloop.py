"""Bot pacing shared by every play screen: bots act through the table, one move per tick.

A screen that mixes this in provides ``table``, ``seat``, ``_timer`` (None at start), ``_save()``,
``_redraw()``, ``_show_end()`` and ``_maybe_ask()``; :meth:`BotLoop.sync` is the one loop every play
screen runs. With a bot delay of 0 the bots play at once, otherwise one move per delay, so a
person can follow them while the screen stays responsive.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction

UNDO_HELP = ("Take back your last action (and the bots' after it); never past the last moment you saw "
             "something hidden (a card shown to you, a look, an interrogation)")
"""What Undo does, for its key's help line and its button's tooltip on every play screen."""


class BotLoop:
    """Run the table's bots at the app's pace; a bot that fails is reported, never fatal."""

    table: Any
    _timer: Any

    def sync(self) -> None:
        """Let instant bots play, redraw from the seat's view, then end the game or ask what is needed."""
        if self.app.bot_delay <= 0:  # type: ignore[attr-defined]
            self._run_bots_now()
        self.view = self.table.view(self.seat)  # type: ignore[attr-defined]
        self._redraw()  # type: ignore[attr-defined]
        self._after_redraw()
        if self.table.is_over():
            self._stop_timer()
            self._game_over()
            return
        if self.table.waiting_for_bot():
            self._schedule_bot()
            return
        self._maybe_ask()  # type: ignore[attr-defined]

    def submit(self, action: tuple) -> bool:
        """Submit one action for the human seat; an illegal one becomes a notification and changes nothing."""
        try:
            self.table.submit(self.seat, tuple(action))  # type: ignore[attr-defined]
        except IllegalAction as e:
            self.notify(str(e), title="Not allowed", severity="warning")  # type: ignore[attr-defined]
            return False
        self._save()  # type: ignore[attr-defined]
        self.sync()
        return True

    def _after_redraw(self) -> None:
        """Hook: work that follows every redraw (a belief or risk update)."""

    def _game_over(self) -> None:
        """Hook: what the screen does when the game ends (the end screen, unless overridden)."""
        self._show_end()  # type: ignore[attr-defined]

    def _run_bots_now(self) -> None:
        stepped = False
        try:
            while self.table.waiting_for_bot():
                self.table.step_bot()
                stepped = True
        except Exception as e:  # a bot bug must not take the game down
            self.notify(f"A bot failed: {e.__class__.__name__}: {e}", severity="error", title="Bot error")  # type: ignore[attr-defined]
        if stepped:
            self._save()  # type: ignore[attr-defined]

    def _schedule_bot(self) -> None:
        if self._timer is None:
            self._timer = self.set_timer(self.app.bot_delay, self._bot_tick)  # type: ignore[attr-defined]

    def _bot_tick(self) -> None:
        self._timer = None
        if not self.table.waiting_for_bot():
            return
        try:
            self.table.step_bot()
        except Exception as e:
            self.notify(f"A bot failed: {e.__class__.__name__}: {e}", severity="error", title="Bot error")  # type: ignore[attr-defined]
            return
        self._save()  # type: ignore[attr-defined]
        self.sync()  # type: ignore[attr-defined]

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def bot_delay_changed(self) -> None:
        """Called by the app when the bot speed setting changes."""
        self._stop_timer()
        if self.is_mounted:  # type: ignore[attr-defined]
            self.sync()  # type: ignore[attr-defined]
