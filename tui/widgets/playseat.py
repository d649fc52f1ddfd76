"""What every play screen does around its one human seat, beside the bot pacing of :class:`BotLoop`.

A screen that mixes :class:`PlaySeat` in passes its table, seat and session id to ``__init__`` and
provides ``_maybe_ask()`` and ``action_results()``. It gets: the session saved after every change (one
notice per run of failures, never a crash), the dialog a decision needs opened once per decision, the
engine's own sentence for a key that is not allowed now, the log kept in step with the seat's events
(an undo starts it again), Undo, and the end screen shown once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.timer import Timer

from engine.core import IllegalAction
from tui.widgets.botloop import BotLoop
from tui.widgets.logview import LogView

if TYPE_CHECKING:
    from solvers.table import Table


class PlaySeat(BotLoop):
    """Autosave, once-per-decision dialogs, why-not sentences and the end screen of a play screen."""

    _timer: Timer | None = None
    _log_n = 0  # how many of the seat's events the log shows
    _asked: tuple | None = None  # the decision point whose dialog we already opened
    _end_shown = False
    _save_failed = False

    def __init__(self, table: Table, seat: int, session_id: str) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self.session_id = session_id
        self.view: dict = table.view(seat)
        self._drawn: dict[str, Any] = {}

    def on_unmount(self) -> None:
        self._stop_timer()

    def on_screen_resume(self) -> None:
        """Back from a dialog, help or settings: ask now if a bot's move needs an answer meanwhile."""
        if self.is_mounted and self._ready_to_ask():  # type: ignore[attr-defined]
            self._maybe_ask()  # type: ignore[attr-defined]

    def _ready_to_ask(self) -> bool:
        """Hook: False while the screen cannot open a decision's dialog yet."""
        return True

    def _first_ask(self, point: tuple) -> bool:
        """True the first time decision ``point`` comes up while this screen is on top (it opens its dialog)."""
        if point == self._asked or self.app.screen is not self:  # type: ignore[attr-defined]
            return False
        self._asked = point
        return True

    def _show_end(self) -> None:
        if self._end_shown:
            return
        self._end_shown = True
        self.call_after_refresh(self.action_results)  # type: ignore[attr-defined]

    def _why_not(self, action: tuple) -> str | None:
        """The engine's sentence for ``action``, asked of a throwaway copy of the table (None if legal)."""
        from solvers.table import Table

        try:
            Table.from_session(self.table.to_session()).submit(self.seat, action)  # type: ignore[attr-defined]
        except IllegalAction as e:
            return str(e)
        except Exception:
            return "That is not possible now."
        return None

    def _show_events(self, log: LogView, events: list[dict], describe: Callable[[dict], str],
                     style: Callable[[dict], str]) -> None:
        """Add to ``log`` the events it does not show yet, each as ``describe`` words it (an empty sentence
        is left out) in its ``style``; after an undo took events back, the log starts again."""
        last = events[-1]["n"] + 1 if events else 0
        if last < self._log_n:  # undo: start again
            log.reset()
            self._log_n = 0
        new = []
        for ev in events:
            if ev["n"] >= self._log_n and (line := describe(ev)):
                new.append(Text(line, style=style(ev)))
        log.extend(new)
        self._log_n = last

    def _act_or_say_why(self, kind: str) -> None:
        """The button of action ``kind``: do it when the rules allow it now, else let the engine say why not.

        For a screen with one button per kind of action: ``_available()`` (the kinds allowed now),
        ``action_act(kind)`` and ``action_illegal(kind)`` (the bindings of the keys that are not allowed)."""
        if kind in self._available():  # type: ignore[attr-defined]
            self.action_act(kind)  # type: ignore[attr-defined]
        else:
            self.action_illegal(kind)  # type: ignore[attr-defined]

    def _session_to_save(self) -> Any:
        """Hook: the session written after every change (a screen may add its own extras)."""
        return self.table.to_session()

    def _save(self) -> None:
        from tui.storage import save_session

        try:
            save_session(self._session_to_save(), self.session_id)
        except Exception as e:
            if not self._save_failed:
                self.notify(f"Could not save this game: {e.__class__.__name__}: {e}".splitlines()[0],  # type: ignore[attr-defined]
                            severity="error", title="Autosave")
            self._save_failed = True
        else:
            self._save_failed = False

    def action_undo(self) -> None:
        """Take back this seat's last action (the bots' after it too), then save and play on."""
        self._stop_timer()
        if self.table.undo(self.seat):  # type: ignore[attr-defined]
            self._asked = None  # the decision taken back is asked again
            self._undone()
        else:  # nothing changed: a dialog put off with Later stays closed
            self.notify(self.table.why_no_undo(self.seat), title="Undo")  # type: ignore[attr-defined]
        self._save()
        self.sync()

    def _undone(self) -> None:
        """Hook: forget what belonged to the moves an undo took back (Mascarade: its beliefs)."""
