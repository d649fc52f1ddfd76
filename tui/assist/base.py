"""What every table-assistant screen shares: the session, the undo history, autosave and solving.

:class:`AutosaveMixin` keeps the session file in step with the screen (config, log and the undo
history, written atomically by ``tui.storage``). :class:`AssistScreenBase` is the frame of the
Clue, Mascarade and Tokyo Ghoul assistants: opening a session (or a fresh setup, or a one-line
message for a file that cannot be used), the log with Edit / Delete / Undo, the panels shown
one at a time on a narrow screen, and the solver run in a thread worker whose stale answers are
dropped. Each game's module keeps what is its own: the setup form, the entry dialogs, the
solver call and everything drawn from its answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Static
from textual.worker import get_current_worker

from engine.session import Session, SessionError
from tui.assist.setup import AssistSetupForm
from tui.assist.why import FactFilter, WhyScreen, rests_line, rests_on_note
from tui.assist.widgets import ASSIST_CSS, BREAKPOINTS_H, BREAKPOINTS_V, LogList, ScrollColumn, Tap
from tui.storage import load_session, new_session_id, save_session, sessions_dir

UNDO_KEPT = 30  # earlier logs kept in the session file, so undo survives a resume


def copy_json(data: Any) -> Any:
    """A deep copy of plain JSON data (what a worker thread gets, so nobody shares a list)."""
    return json.loads(json.dumps(data))


def solve_and_before(solve: Callable[[list[Any], bool], dict[str, Any]], log: list[Any]) -> dict[str, Any]:
    """The answer ``solve(log, True)``; on a contradiction the log before its last conflicting entry still
    fits, so its answer ``solve(prefix, False)`` comes along as ``before`` (its notes stand in, marked stale)."""
    result = solve(log, True)
    if result.get("status") == "contradiction" and result.get("conflict"):
        before = solve(log[: max(result["conflict"])], False)
        if before.get("status") == "ok":
            result["before"] = before
    return result


def answer_or_status(solve: Callable[[list[Any], bool], dict[str, Any]], log: list[Any],
                     input_error: type[Exception], entry_of: Callable[[Any], tuple[str, int | None]]) -> dict[str, Any]:
    """:func:`solve_and_before`, never an exception: bad input (``input_error``, whose message and log
    entry ``entry_of`` tells) becomes an ``input_error`` status marking that entry, a failure an ``error``."""
    try:
        return solve_and_before(solve, log)
    except input_error as e:
        message, index = entry_of(e)
        return {"status": "input_error", "message": message, "conflict": [] if index is None else [index]}
    except Exception as e:  # a solver bug must not take the notes down
        return {"status": "error", "message": f"The solver failed: {e.__class__.__name__}: {e}", "conflict": []}


def session_exists(session_id: str) -> bool:
    """A named session that is not on disk yet is a new table under that name."""
    try:
        return (sessions_dir() / f"{session_id}.json").exists()
    except OSError:
        return False


class AutosaveMixin:
    """The log, its undo history and the session file they are saved to after every change."""

    SAVE_FAILED: ClassVar[tuple[str, str]] = ("Could not save the session", "Not saved")  # message, title
    UNDO_IN_MEMORY: ClassVar[int | None] = UNDO_KEPT  # earlier logs kept while the screen is open (None: all)

    session: Session | None
    session_id: str | None
    config: dict[str, Any]
    entries: list[Any]
    history: list[list[Any]]

    def _remember(self) -> None:
        """Keep the current log for undo."""
        self.history.append(copy_json(self.entries))
        if self.UNDO_IN_MEMORY is not None:
            self.history = self.history[-self.UNDO_IN_MEMORY :]

    def _save_extra(self, session: Session) -> None:
        """Game-specific fields of ``session.extra``, written before the undo history."""

    def _save(self) -> None:
        if self.session is None or self.session_id is None:
            return
        self.session.config = self.config
        self.session.log = self.entries
        self._save_extra(self.session)
        self.session.extra["undo"] = self.history[-UNDO_KEPT:]
        try:
            save_session(self.session, self.session_id)
        except (OSError, SessionError) as e:
            message, title = self.SAVE_FAILED
            self.notify(f"{message}: {e}", severity="error", title=title)  # type: ignore[attr-defined]


class AssistScreenBase(AutosaveMixin, Screen[None]):
    """The frame of a table assistant: setup, main (status, tabs, panels, the log) or damaged.

    Widget ids follow two prefixes: ``FRAME`` for the head, the modes, the tabs, the side column
    and the log list; ``PANEL`` for the panels (``{PANEL}-{view}-panel``) and the buttons
    (``{PANEL}-do-{what}``, ``{PANEL}-damaged-new``, ``{PANEL}-damaged-close``).
    """

    CSS_PATH = ASSIST_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS_H
    VERTICAL_BREAKPOINTS = BREAKPOINTS_V

    GAME: ClassVar[str] = ""  # the session's game
    GAME_TITLE: ClassVar[str] = ""  # "Clue": the head reads "Clue assistant · ..."
    ASSIST_NAME: ClassVar[str] = ""  # "a Clue table-assistant": what a session of the wrong kind is not
    FRAME: ClassVar[str] = "ax"
    PANEL: ClassVar[str] = "ax"
    VIEWS: ClassVar[tuple[str, ...]] = ()  # the panels; the first is the big one beside the side column
    VIEW_FOCUS: ClassVar[dict[str, str]] = {}  # what a view's tab focuses
    ADVICE_TEXTS: ClassVar[tuple[str, ...]] = ("advice",)  # the Statics of the advice panel (Clue adds "seen")
    GATED: ClassVar[tuple[str, ...]] = ("entry", "undo", "edit", "delete", "view", "page")  # main mode only
    PAGE_TYPES: ClassVar[tuple[type[Widget], ...]] = (VerticalScroll,)  # focused widgets that page themselves
    SETUP_FORM: ClassVar[type[Widget]] = Widget
    BINDINGS: ClassVar = [Binding("y", "why", "Why?", show=False, id="assist.why")]
    # Loaded in a thread worker when the screen opens: what the first "why" would otherwise wait
    # for (Clue: CP-SAT, whose import is the dearest part of a cold Why view; benchmarks/cold.py).
    WARM_UP: ClassVar[Callable[[], Any] | None] = None

    class Solved(Message):
        """A solver answer for the log of generation ``gen``."""

        def __init__(self, gen: int, result: dict[str, Any]) -> None:
            super().__init__()
            self.gen = gen
            self.result = result

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__()
        self.session_id = session_id
        self.session = session
        self.mode = "setup" if session is None and session_id is None else "main"
        self.config: dict[str, Any] = {}
        self.entries: list[Any] = []
        self.history: list[list[Any]] = []
        self.state = "idle"  # idle, solving, ok, contradiction, error
        self.gen = 0
        self.current_view = self.VIEWS[0]
        self.load_error = ""

    # ------------------------------------------------------------------ the session

    def on_mount(self) -> None:
        if self.WARM_UP is not None:
            self._warm_up()
        try:
            if self.mode == "main" and self.session is None and self.session_id is not None:
                self.session = load_session(self.session_id)
            if self.session is not None:
                self._check_session(self.session)
                self._start(self.session)
        except SessionError as e:  # one line that says what is wrong; the file is not touched
            self.session = None
            self.load_error = str(e)
            self.mode = "damaged"
        self._show_mode()

    @work(thread=True, group="warm-up", exit_on_error=False)
    def _warm_up(self) -> None:
        """Load ``WARM_UP`` off the UI thread (once a process: later calls find it loaded)."""
        warm = type(self).WARM_UP
        if warm is not None:
            warm()

    @classmethod
    def _check_session(cls, session: Session) -> None:
        """Refuse what is not a usable assist session of this game, with one line that says why."""
        if session.game != cls.GAME or session.mode != "assist":
            raise SessionError(f"This is a {session.game} {session.mode} session, not {cls.ASSIST_NAME} one.")
        cls._check_setup(session)

    @classmethod
    def _check_setup(cls, session: Session) -> None:
        """Raise SessionError when the session's config (or log) cannot be used."""

    def _start(self, session: Session) -> None:
        self.mode = "main"
        self.config = session.config
        self._start_extra(session)
        self.entries = list(session.log)
        undo = session.extra.get("undo", [])
        # The undo history is a convenience: a damaged one is dropped, the log itself never is.
        self.history = [list(x) for x in undo if isinstance(x, list)] if isinstance(undo, list) else []
        if self.session_id is None:
            self.session_id = new_session_id(self.GAME, "assist")
        self._started()
        self._refresh_log()
        self._solve_now()

    def _start_extra(self, session: Session) -> None:
        """Read game-specific fields of ``session.extra``."""

    def _started(self) -> None:
        """Lay out what depends on the config, before the log is drawn and solved."""

    def _begin(self, session: Session) -> None:
        """A new table from the setup form: start it, save it, show it."""
        self.session = session
        self._start(session)
        self._save()
        self._show_mode()

    @on(AssistSetupForm.Done)
    def _setup_done(self, event: AssistSetupForm.Done) -> None:
        event.stop()
        self._begin(Session(game=self.GAME, mode="assist", config=event.config, log=[], extra=event.extra))

    @on(AssistSetupForm.Cancelled)
    def _setup_cancelled(self, event: AssistSetupForm.Cancelled) -> None:
        event.stop()
        self.action_close()

    def _new_setup_form(self) -> Widget:
        return self.SETUP_FORM(id=f"{self.FRAME}-setup")

    def _show_mode(self) -> None:
        forms = list(self.query(self.SETUP_FORM))
        if self.mode == "setup" and not forms:
            self.mount(self._new_setup_form(), after=f"#{self.FRAME}-head")
        elif self.mode != "setup":
            for form in forms:
                form.remove()  # the form is heavy: it only exists while it is used
        self.query_one(f"#{self.FRAME}-damaged").display = self.mode == "damaged"
        self.query_one(f"#{self.FRAME}-main").display = self.mode == "main"
        head = self.query_one(f"#{self.FRAME}-head", Static)
        if self.mode == "main":
            head.update(Content(self._head_text()))  # plain text: names are never markup
            self._apply_view()
            self._focus_main()
        elif self.mode == "damaged":
            head.update(f"{self.GAME_TITLE} assistant · cannot open this session")
            self.query_one(f"#{self.FRAME}-damaged-text", Static).update(Content(
                f"{self.load_error}\n\nThe file is left as it is. Start a new table, or close and fix the file."
            ))
            self.set_focus(None)
        else:
            head.update(f"{self.GAME_TITLE} assistant · new table")
            self._focus_setup()
        self.refresh_bindings()

    def _head_text(self) -> str:
        raise NotImplementedError

    def _focus_main(self) -> None:
        self.set_focus(None)

    def _focus_setup(self) -> None:
        """Focus the setup form's first field (after it is mounted)."""

    def action_new_table(self) -> None:
        """From a session that cannot be opened to a fresh setup (under a new id: the file stays)."""
        if self.mode != "damaged":
            return
        self.session_id = None
        self.mode = "setup"
        self._show_mode()

    def action_close(self) -> None:
        """Leave the assistant; the session is already saved."""
        self.dismiss(None)

    # ------------------------------------------------------------------ layout

    def _compose_top(self) -> ComposeResult:
        """The head line, the setup form (in setup mode) and the frame of a session that cannot be opened."""
        yield Static(f"{self.GAME_TITLE} assistant", id=f"{self.FRAME}-head", classes="ax-title")
        if self.mode == "setup":
            yield self._new_setup_form()
        with Vertical(id=f"{self.FRAME}-damaged"):
            yield Static("", id=f"{self.FRAME}-damaged-text")
            with Horizontal(classes="ax-form-buttons"):
                yield Tap("New table", id=f"{self.PANEL}-damaged-new", variant="primary")
                yield Tap("Close", id=f"{self.PANEL}-damaged-close")

    def _compose_side(self, *, log_buttons: bool = True) -> ComposeResult:
        """The side column: the log (with Edit / Delete below it unless the toolbar has them), then the advice."""
        with Vertical(id=f"{self.FRAME}-side"):
            with Vertical(id=f"{self.PANEL}-log-panel", classes="ax-panel"):
                yield Static("Log", id=f"{self.FRAME}-log-head", classes="ax-panel-head")
                with Horizontal(classes="ax-panel-row"):
                    yield LogList(id=f"{self.FRAME}-log")
                    yield ScrollColumn(lambda: self.query_one(f"#{self.FRAME}-log"), id=f"{self.PANEL}-log-scroll")
                yield Static("", id=f"{self.PANEL}-log-rests", classes="ax-rests", markup=False)
                if log_buttons:
                    with Horizontal(id=f"{self.PANEL}-log-buttons"):
                        yield Tap("Edit", id=f"{self.PANEL}-do-edit")
                        yield Tap("Delete", id=f"{self.PANEL}-do-delete")
            yield from self._compose_text_panel("advice", "Advice", *self.ADVICE_TEXTS)

    def _compose_text_panel(self, view: str, title: str, *texts: str) -> ComposeResult:
        """A panel of text that scrolls (the Statics ``{PANEL}-{text}``, empty until drawn), with scroll buttons."""
        with Vertical(id=f"{self.PANEL}-{view}-panel", classes="ax-panel"):
            yield Static(title, id=f"{self.PANEL}-{view}-head", classes="ax-panel-head")
            with Horizontal(classes="ax-panel-row"):
                with VerticalScroll(id=f"{self.PANEL}-{view}-scroll"):
                    for text in texts:
                        yield Static("", id=f"{self.PANEL}-{text}")
                yield ScrollColumn(lambda: self.query_one(f"#{self.PANEL}-{view}-scroll"),
                                   id=f"{self.PANEL}-{view}-btns")

    @property
    def narrow(self) -> bool:
        """SSH-sized: one panel at a time, chosen with the tabs."""
        return self.app.size.width < BREAKPOINTS_H[1][0]

    def _apply_view(self) -> None:
        narrow = self.narrow
        for name in self.VIEWS:
            shown = not narrow or self.current_view == name
            self.query_one(f"#{self.PANEL}-{name}-panel").set_class(not shown, "-hidden")
            self.query_one(f"#{self.FRAME}-tab-{name}").set_class(narrow and self.current_view == name, "-on")
        self.query_one(f"#{self.FRAME}-side").set_class(narrow and self.current_view == self.VIEWS[0], "-hidden")

    def action_view(self, name: str) -> None:
        if name in self.VIEWS:
            self.current_view = name
            self._apply_view()
            target = self.VIEW_FOCUS.get(name)
            if target:
                self.query_one(target).focus()

    def action_page(self, direction: int) -> None:
        target = self.focused if isinstance(self.focused, self.PAGE_TYPES) else None
        widget = target or self._page_default()
        if direction > 0:
            widget.scroll_page_down(animate=False)
        else:
            widget.scroll_page_up(animate=False)

    def _page_default(self) -> Widget:
        """What PageUp / PageDown scroll when the focus is elsewhere."""
        raise NotImplementedError

    # ------------------------------------------------------------------ bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide what does not apply to the current mode; dim what applies but cannot run yet."""
        if action in self.GATED:
            if self.mode != "main":
                return False
            if action == "view":
                return self.narrow  # the wide layout shows every panel at once
            if action == "undo":
                return True if self.history else None
            if action in ("edit", "delete"):
                return True if self._selected() is not None else None
            if action == "entry" and parameters:
                return self._entry_enabled(str(parameters[0]))
        if action == "new_table":
            return self.mode == "damaged"
        return not (action == "close" and self.mode == "setup")  # the form's own Escape cancels it

    def _entry_enabled(self, kind: str) -> bool | None:
        """True when an entry of ``kind`` can be made now, None (dimmed) when not yet."""
        return True

    def _selected(self) -> int | None:
        try:
            return self.query_one(f"#{self.FRAME}-log", LogList).selected
        except Exception:  # before compose
            return None

    def _button_actions(self) -> dict[str, Any]:
        """The ``{PANEL}-do-*`` buttons that are not an entry kind."""
        return {"undo": self.action_undo, "close": self.action_close, "edit": self.action_edit,
                "delete": self.action_delete}

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid.startswith(f"{self.PANEL}-do-"):
            event.stop()
            what = bid.removeprefix(f"{self.PANEL}-do-")
            actions = self._button_actions()
            if what in actions:
                actions[what]()
            else:
                self.action_entry(what)
        elif bid.startswith(f"{self.FRAME}-tab-"):
            event.stop()
            self.action_view(bid.removeprefix(f"{self.FRAME}-tab-"))
        elif bid == f"{self.PANEL}-damaged-new":
            event.stop()
            self.action_new_table()
        elif bid == f"{self.PANEL}-damaged-close":
            event.stop()
            self.action_close()

    @on(LogList.Selected)
    def _log_selected(self, event: LogList.Selected) -> None:
        self._update_log_buttons()
        self.refresh_bindings()
        self._update_rests()

    # ------------------------------------------------------------------ what rests on the selected note

    def _update_rests(self) -> None:
        """Under the log, what rests on the selected note (found in a worker; hidden with no note selected
        or nothing certain to lose)."""
        line = self.query_one(f"#{self.PANEL}-log-rests", Static)
        i = self._selected()
        if i is None or self.mode != "main" or self.state != "ok":
            self.workers.cancel_group(self, "rests")
            line.update("")
            line.remove_class("-shown")
            return
        line.update(f"What rests on #{i + 1}…")
        line.add_class("-shown")
        self._find_rests(self.gen, i, copy_json(self.config), copy_json(self.entries))

    @work(thread=True, exclusive=True, group="rests", exit_on_error=False)
    def _find_rests(self, gen: int, note: int, config: dict[str, Any], log: list[Any]) -> None:
        try:
            text = rests_line(self.GAME, note, rests_on_note(self.GAME, config, log, note))
        except Exception:  # an unreadable log: the status line already says why
            text = ""
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_rests, gen, note, text)

    def _show_rests(self, gen: int, note: int, text: str) -> None:
        if gen != self.gen or note != self._selected() or self.state != "ok" or not self.is_attached:
            return
        line = self.query_one(f"#{self.PANEL}-log-rests", Static)
        line.update(text)
        line.set_class(bool(text), "-shown")

    # ------------------------------------------------------------------ changes to the log

    def change_log(self, new_log: list[Any], *, select: int | None = None) -> None:
        """Replace the log (an add, edit or delete), keeping the old one for undo; then save and solve."""
        self._remember()
        self.entries = new_log
        self._after_change(select)

    def _after_change(self, select: int | None) -> None:
        self._save()
        self._refresh_log(select)
        self._solve_now()
        self.refresh_bindings()

    def action_entry(self, kind: str) -> None:
        raise NotImplementedError

    def _entry_dialog(self, kind: str, before: list[Any], entry: Any) -> Screen[Any]:
        """The dialog for an entry of ``kind`` (``entry`` when it edits one) after the log ``before``."""
        raise NotImplementedError

    def _as_entries(self, result: Any) -> list[Any] | None:
        """What a dialog returned, as the entries it adds or puts in place of the one edited."""
        return None if result is None else [result]

    def _open_dialog(self, kind: str, index: int | None) -> None:
        entry = self.entries[index] if index is not None else None
        before = self.entries if index is None else self.entries[:index]

        def done(result: Any) -> None:
            entries = self._as_entries(result)
            if not entries:
                return
            new = copy_json(self.entries)
            if index is None:
                new.extend(entries)
                self.change_log(new)
            else:
                new[index : index + 1] = entries
                self.change_log(new, select=index)

        self.app.push_screen(self._entry_dialog(kind, before, entry), done)

    def _edit_kind(self, entry: Any) -> str | None:
        """The dialog that edits ``entry``, or None when it cannot be edited here."""
        raise NotImplementedError

    def action_edit(self) -> None:
        i = self._selected()
        if i is None or self.mode != "main":
            return
        kind = self._edit_kind(self.entries[i])
        if kind is None:
            self.notify("This entry cannot be edited here; delete it and enter it again.", title="Edit")
            return
        self._open_dialog(kind, i)

    def action_delete(self) -> None:
        i = self._selected()
        if i is None or self.mode != "main":
            return
        new = copy_json(self.entries)
        del new[i]
        self.change_log(new, select=min(i, len(new) - 1) if new else None)

    def action_undo(self) -> None:
        if not self.history or self.mode != "main":
            return
        self.entries = self.history.pop()
        self._after_change(None)

    # ------------------------------------------------------------------ why is it certain

    def action_why(self) -> None:
        """y (whY): with a note selected in the log, what rests on it (the certain facts that would not be
        certain without it, each with its proof); else every certain fact with the notes behind it.

        It explains what has the focus when pressed: a focused view that can explain its own cursor
        (the Clue sheet's card) wins over a note selected earlier in the log."""
        if self._why_focused():
            return
        i = self._selected()
        if i is not None:
            self.open_why(f"What rests on note #{i + 1}: the facts that would not be certain without it",
                          resting_on=i)
        else:
            self.open_why("Why is it certain? Every certain fact and the notes that prove it")

    def _why_focused(self) -> bool:
        """Explain what the focused widget points at, if it is a view with its own why (True: done)."""
        return False

    def open_why(self, title: str, wanted: FactFilter | None = None, first: Any = None,
                 resting_on: int | None = None) -> None:
        """The Why view for the certain facts ``wanted`` keeps (``first`` on top); a tapped note is
        selected in the log and opened for editing."""
        if self.mode != "main":
            return
        if self.state != "ok":
            self.notify("Nothing is certain while the notes do not fit together (or are being solved).",
                        title="Why?")
            return

        def done(index: int | None) -> None:
            if index is None:
                return
            if index < 0 or index >= len(self.entries):
                self.notify("That note is the opening layout: change it in the table's setup.", title="Why?")
                return
            if self.narrow and "log" in self.VIEWS:
                self.action_view("log")
            self._refresh_log(select=index)
            self.query_one(f"#{self.FRAME}-log", LogList).select(index)
            self.action_edit()

        self.app.push_screen(WhyScreen(self.GAME, copy_json(self.config), copy_json(self.entries), title=title,
                                       wanted=wanted, first=first, resting_on=resting_on), done)

    # ------------------------------------------------------------------ solving

    def _solve_now(self) -> None:
        self.gen += 1
        self.state = "solving"
        self._update_status()
        self._update_rests()
        self._solve(self.gen, copy_json(self.config), copy_json(self.entries))

    @staticmethod
    def _solve_log(config: dict[str, Any], log: list[Any]) -> dict[str, Any]:
        """The solver's answer (runs in a thread), never an exception: failures become a status."""
        raise NotImplementedError

    @work(thread=True, exclusive=True, group="solve", exit_on_error=False)
    def _solve(self, gen: int, config: dict[str, Any], log: list[Any]) -> None:
        """Solve off the UI thread; the answer comes back as a message."""
        result = self._solve_log(config, log)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Solved(gen, result))

    @on(Solved)
    def _solved(self, event: Solved) -> None:
        event.stop()
        if event.gen != self.gen:
            return  # the answer to a log that has changed since
        self._show_result(event.result)
        self._update_rests()

    def _show_result(self, result: dict[str, Any]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ drawing

    def _log_sentences(self) -> list[str]:
        raise NotImplementedError

    def _update_log_head(self, head: Static) -> None:
        raise NotImplementedError

    def _refresh_log(self, select: int | None = None) -> None:
        log_list = self.query_one(f"#{self.FRAME}-log", LogList)
        sentences = self._log_sentences()
        keep = log_list.selected if select is None else select
        if keep is not None and keep >= len(sentences):
            keep = None
        log_list.show(sentences, set(self.conflict), keep)  # type: ignore[attr-defined]
        self._update_log_head(self.query_one(f"#{self.FRAME}-log-head", Static))
        if select is None and keep is None:
            log_list.scroll_end(animate=False)
        self._update_log_buttons()

    def _update_log_buttons(self) -> None:
        has = self._selected() is not None
        self.query_one(f"#{self.PANEL}-do-edit", Tap).disabled = not has
        self.query_one(f"#{self.PANEL}-do-delete", Tap).disabled = not has
        self.query_one(f"#{self.PANEL}-do-undo", Tap).disabled = not self.history

    def _update_status(self) -> None:
        raise NotImplementedError
