"""Bot pacing shared by every play screen: bots act through the table, one move per tick.

A screen that mixes this in provides ``table``, ``seat``, ``_timer`` (None at start), ``_save()``,
``_redraw()``, ``_show_end()`` and ``_maybe_ask()``; :meth:`BotLoop.sync` is the one loop every play
screen runs. With a bot delay of 0 the bots play at once, otherwise one move per delay, so a
person can follow them while the screen stays responsive.

The pace tells nothing (issue 20): a bot starts thinking (in a worker thread) as soon as it must
act, and its move appears ``bot_delay`` after that moment however long it thought, as long as the
thinking fits in the delay. A think longer than the delay still shows (the move appears when the
thinking ends); docs/tui.md says so.
"""

from __future__ import annotations

import contextlib
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
        if self._thinking is not None:
            self._bot_due = True  # a bot thinks in the background: its move comes when it is done
            return
        stepped = False
        try:
            while self.table.waiting_for_bot() and self._play_plan():
                stepped = True
        except Exception as e:  # a bot bug must not take the game down
            self.notify(f"A bot failed: {e.__class__.__name__}: {e}", severity="error", title="Bot error")  # type: ignore[attr-defined]
        if stepped:
            self._save()  # type: ignore[attr-defined]

    _bot_plan: Any = None  # the bot's choice, thought out while its delay runs: (position, seat, action)
    _thinking: Any = None  # the table position a bot is thinking about in the background, if any
    _bot_due: bool = False  # the delay is over: play the move as soon as the thinking ends

    def _schedule_bot(self) -> None:
        if self._timer is None:
            # The delay runs from the moment the bot must act and it thinks meanwhile, in the
            # background: its thinking time does not add to the pace (nor freeze the screen).
            self._bot_due = False
            self._timer = self.set_timer(self.app.bot_delay, self._bot_tick)  # type: ignore[attr-defined]
            self._start_thinking()

    def _start_thinking(self) -> None:
        table = self.table
        pos = table.position()
        plan = self._bot_plan
        if (plan is not None and plan[0] == pos) or self._thinking == pos:
            return
        self._thinking = pos
        self.run_worker(lambda: self._think(table, pos), thread=True, exit_on_error=False,  # type: ignore[attr-defined]
                        group="bot-think")

    def _think(self, table: Any, pos: Any) -> None:
        """In a worker thread: the bot's choice (or its failure), handed back to the screen."""
        try:
            choice: Any = table.bot_choice()
        except Exception as e:  # a bot bug must not take the game down
            choice = e
        with contextlib.suppress(RuntimeError):  # the app may have closed meanwhile
            self.app.call_from_thread(self._thought, pos, choice)  # type: ignore[attr-defined]

    def _thought(self, pos: Any, choice: Any) -> None:
        if self._thinking == pos:
            self._thinking = None
        if pos != self.table.position():
            return  # the table moved on (an undo): that thinking is void
        if isinstance(choice, Exception):
            self._bot_plan = (pos, None, None)  # reported once; the table waits
            self.notify(f"A bot failed: {choice.__class__.__name__}: {choice}", severity="error",  # type: ignore[attr-defined]
                        title="Bot error")
            return
        self._bot_plan = choice
        if self._bot_due:
            self._bot_due = False
            self._bot_tick()

    def _think_now(self) -> None:
        """Work out the choice of the bot to act now, here, unless it is already known."""
        table = self.table
        plan = self._bot_plan
        if plan is not None and plan[0] == table.position():
            return
        try:
            self._bot_plan = table.bot_choice()
        except Exception as e:  # a bot bug must not take the game down: reported once, the table waits
            self._bot_plan = (table.position(), None, None)
            self.notify(f"A bot failed: {e.__class__.__name__}: {e}", severity="error", title="Bot error")  # type: ignore[attr-defined]

    def _play_plan(self) -> bool:
        """Play the bot's thought-out choice; False when there is none (no bot to act, or it failed)."""
        self._think_now()
        plan, self._bot_plan = self._bot_plan, None
        if plan is None or plan[1] is None:
            self._bot_plan = plan  # a failure stays known for this position: it is not reported again
            return False
        return bool(self.table.play_bot_choice(plan))

    def _bot_tick(self) -> None:
        self._timer = None
        if not self.table.waiting_for_bot():
            return
        if self._thinking == self.table.position():
            self._bot_due = True  # a think longer than the delay: the move comes when it ends
            return
        try:
            if not self._play_plan():
                return
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
