"""The Clue table assistant: type what you see at a real table, the exact solver keeps the notes.

:class:`ClueAssistScreen` holds one assist session: the config from the setup form, the log the
user builds with the dialogs, and an undo stack of earlier logs. After every change it saves
the session atomically and solves again in a thread worker (the advice follows in a second,
slower worker), so the screen never freezes. A log the solver finds impossible is never cut:
the conflicting entries are highlighted, the last good notes stay on screen marked stale, and
Edit, Delete or Undo fix it.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from engine import words
from engine.session import Session, SessionError
from solvers.clue.solver import SolverInputError, solve
from solvers.cpsat import load as load_cpsat
from tui.assist.base import UNDO_KEPT, AssistScreenBase, answer_or_status
from tui.assist.base import copy_json as _copy
from tui.assist.widgets import KeyBar, LogList, ScrollColumn, Tap
from tui.clue import assist_model as m
from tui.clue.assist_dialogs import EntryDialog
from tui.clue.assist_setup import SetupForm
from tui.clue.assist_sheet import SheetTable
from tui.storage import load_session

__all__ = ["UNDO_KEPT", "AssistApp", "AssistScreen", "ClueAssistScreen", "run_assist", "solve_log"]

VIEWS = ("sheet", "log", "advice")


def solve_log(config: dict[str, Any], log: list[Any]) -> dict[str, Any]:
    """The exact answer, never an exception: bad input and solver failures become a status."""
    return answer_or_status(lambda entries, _whole: solve(config, entries).to_json(), log, SolverInputError,
                            lambda e: (str(e.args[0]), getattr(e, "entry_index", None)))


class ClueAssistScreen(AssistScreenBase):
    """Notes for a real Clue table: setup, then a log of what the user saw, and the exact sheet."""

    HELP_TITLE = "Clue: table assistant"

    GAME = "clue"
    GAME_TITLE = "Clue"
    ASSIST_NAME = "a Clue table-assistant"
    VIEWS = VIEWS
    VIEW_FOCUS: ClassVar = {"sheet": "#ax-sheet", "log": "#ax-log", "advice": "#ax-advice-scroll"}
    ADVICE_TEXTS = ("seen", "advice")  # above the advice: which of my cards each player has seen
    PAGE_TYPES = (SheetTable, LogList, VerticalScroll)
    SETUP_FORM = SetupForm
    UNDO_IN_MEMORY = None  # the whole history of this sitting; the file keeps the last UNDO_KEPT
    WARM_UP = staticmethod(load_cpsat)  # the Why view's CP-SAT cores, loaded while the sheet is read
    BINDINGS: ClassVar = [
        Binding("h", "entry('hand')", "Hand", id="assist.hand"),
        Binding("f", "entry('face_up')", "Face-up", id="assist.face_up"),
        Binding("r", "entry('rumor')", "Rumor", id="assist.rumor"),
        Binding("v", "entry('reveal')", "Reveal", id="assist.reveal"),
        Binding("a", "entry('accusation')", "Accuse", id="assist.accuse"),
        Binding("u,ctrl+z", "undo", "Undo", id="assist.undo"),
        Binding("e", "edit", "Edit", id="assist.edit"),
        Binding("x,delete", "delete", "Delete", id="assist.delete"),
        Binding("s", "view('sheet')", "Sheet", id="assist.view.sheet"),
        Binding("l", "view('log')", "Log", id="assist.view.log"),
        Binding("d", "view('advice')", "Advice", id="assist.view.advice"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="assist.page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="assist.page_up"),
        Binding("n", "new_table", "New table", id="assist.new_table"),
        Binding("escape", "close", "Close", id="assist.close"),
    ]

    class Advised(Message):
        """The advice for the log of generation ``gen`` (or None when it failed)."""

        def __init__(self, gen: int, advice: dict[str, Any] | None) -> None:
            super().__init__()
            self.gen = gen
            self.advice = advice

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__(session_id, session)
        self.solution: dict[str, Any] | None = None  # the last good answer
        self.advice: dict[str, Any] | None = None
        self.problem = ""
        self.conflict: set[int] = set()
        self._dialogs: dict[str, EntryDialog] = {}

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield from self._compose_top()
        with Vertical(id="ax-main"):
            yield Static("", id="ax-status")
            with Horizontal(id="ax-toolbar"):
                yield Tap("Hand", id="ax-do-hand")
                yield Tap("Face-up", id="ax-do-face_up")
                yield Tap("Rumor", id="ax-do-rumor", variant="primary")
                yield Tap("Reveal", id="ax-do-reveal")
                yield Tap("Accuse", id="ax-do-accusation")
                yield Tap("Undo", id="ax-do-undo")
                yield Static(classes="ax-spacer")
                yield Tap("Sheet", id="ax-tab-sheet", classes="ax-tab")
                yield Tap("Log", id="ax-tab-log", classes="ax-tab")
                yield Tap("Advice", id="ax-tab-advice", classes="ax-tab")
                yield Tap("✕", id="ax-do-close", classes="ax-close")
            with Horizontal(id="ax-body"):
                with Vertical(id="ax-sheet-panel", classes="ax-panel"):
                    yield Static("Detective notes", id="ax-sheet-head", classes="ax-panel-head")
                    with Horizontal(classes="ax-panel-row"):
                        yield SheetTable(id="ax-sheet")
                        yield ScrollColumn(lambda: self.query_one("#ax-sheet"), id="ax-sheet-scroll")
                    yield Static("", id="ax-sheet-detail")
                yield from self._compose_side()
        yield KeyBar(id="ax-keys")

    @classmethod
    def _check_setup(cls, session: Session) -> None:
        from solvers.clue.validate import validate

        try:
            validate(session.config, session.log)
        except SolverInputError as e:
            raise SessionError(f"This session cannot be used: {e.args[0]}") from None

    def _started(self) -> None:
        self._build_sheet()

    def _head_text(self) -> str:
        c = self.config
        board = {"red-keep": "Red Keep", "meereen": "Meereen"}.get(c.get("board"), "custom deck")
        return f"Clue assistant · {board} · {', '.join(c['players'])} · me: {c['me']} · session {self.session_id}"

    def _focus_main(self) -> None:
        self.query_one("#ax-sheet").focus()

    def _focus_setup(self) -> None:
        self.call_after_refresh(lambda: self.query_one("#ax-setup #ax-board").focus())

    def on_resize(self, _event: events.Resize) -> None:
        if self.mode == "main":
            self._build_sheet()
            self._apply_view()

    def _build_sheet(self) -> None:
        sheet = self.query_one("#ax-sheet", SheetTable)
        sheet.build(self.config, width=self.app.size.width)
        sheet.styles.width = sheet.panel_width()
        panel = self.query_one("#ax-sheet-panel")
        panel.styles.width = None if self.narrow else sheet.panel_width() + 8
        self._update_detail()

    def _entry_enabled(self, kind: str) -> bool | None:
        if kind == "face_up":
            return True if m.face_up_count(self.config) else None
        return True

    # ------------------------------------------------------------------ changes to the log

    def action_entry(self, kind: str) -> None:
        """Open the dialog for a new entry (my hand and the face-up cards are edited in place)."""
        if self.mode != "main":
            return
        index = m.last_index(self.entries, kind) if kind in ("hand", "face_up") else None
        self._open_dialog(kind, index)

    def _entry_dialog(self, kind: str, before: list[Any], entry: Any) -> EntryDialog:
        return self._dialog(kind).prepare(before, entry)

    def _dialog(self, kind: str) -> EntryDialog:
        """The dialog for ``kind``, built once per table and kept installed for the next entry."""
        dialog = self._dialogs.get(kind)
        if dialog is None or dialog.config is not self.config:
            dialog = EntryDialog(kind, self.config)
            name = f"assist-{kind}-{id(self)}"
            if self.app.is_screen_installed(name):
                self.app.uninstall_screen(name)
            self.app.install_screen(dialog, name)
            self._dialogs[kind] = dialog
        return dialog

    def on_unmount(self) -> None:
        for kind, dialog in self._dialogs.items():
            with contextlib.suppress(Exception):  # the app may be closing with a dialog open
                self.app.uninstall_screen(f"assist-{kind}-{id(self)}")
                dialog.remove()
        self._dialogs.clear()

    def _edit_kind(self, entry: Any) -> str | None:
        kind = entry.get("type") if isinstance(entry, dict) else None
        if kind not in ("hand", "face_up", "rumor", "reveal", "accusation") or (
            kind == "accusation" and entry.get("correct")
        ):
            return None
        return kind

    def _page_default(self) -> Widget:
        return self.query_one("#ax-sheet")

    # ------------------------------------------------------------------ solving

    _solve_log = staticmethod(solve_log)

    @work(thread=True, exclusive=True, group="advice", exit_on_error=False)
    def _advise(self, gen: int, config: dict[str, Any], log: list[Any]) -> None:
        """The rumor advice (slower): computed after the main answer is on screen."""
        worker = get_current_worker()
        try:
            # Exact rumor figures can take a while early in a big game: stop between counting
            # runs once a newer log has replaced this one.
            advice = solve(config, log, advice=True, stop=lambda: worker.is_cancelled).advice
        except Exception:  # advice is a bonus (or was cancelled); the notes stand without it
            advice = None
        if not worker.is_cancelled:
            self.post_message(self.Advised(gen, advice))

    def _show_result(self, r: dict[str, Any]) -> None:
        if r.get("status") == "ok":
            self.state = "ok"
            self.solution = r
            self.conflict = set()
            self.problem = ""
            self.advice = None
            self.query_one("#ax-sheet", SheetTable).show(r)
            self._advise(self.gen, _copy(self.config), _copy(self.entries))
        else:
            self.state = "contradiction" if r.get("status") == "contradiction" else "error"
            self.conflict = {int(i) for i in r.get("conflict", []) if isinstance(i, int)}
            self.problem = m.entry_number_text(str(r.get("message", "")))
            if self.solution is None and isinstance(r.get("before"), dict):
                self.solution = r["before"]
                self.query_one("#ax-sheet", SheetTable).show(self.solution)
            if self.narrow and self.conflict:
                self.action_view("log")
        self._refresh_log()
        self._update_status()
        self._update_advice()
        self._update_detail()

    @on(Advised)
    def _advised(self, event: Advised) -> None:
        event.stop()
        if event.gen != self.gen:
            return
        self.advice = event.advice
        self._update_status()
        self._update_advice()

    # ------------------------------------------------------------------ drawing

    def _log_sentences(self) -> list[str]:
        me = self.config.get("me")
        return [m.describe(e, me) for e in self.entries]

    def _update_log_head(self, head: Static) -> None:
        if self.state in ("contradiction", "error") and self.problem:
            head.update(Content(f"Log · ⚠ {self.problem}"))
            head.add_class("-problem")
        else:
            head.update(f"Log · {words.count(len(self.entries), 'entry')}" if self.entries else "Log · empty")
            head.remove_class("-problem")

    def _update_log_buttons(self) -> None:
        super()._update_log_buttons()
        self.query_one("#ax-do-face_up", Tap).disabled = not m.face_up_count(self.config)

    def _status_text(self) -> tuple[str, str]:
        """The status line and its class: what the solver says now, and what to do next."""
        deck = m.deck_of(self.config)
        if self.state == "contradiction":
            where = " and ".join(f"#{i + 1}" for i in sorted(self.conflict))
            what = f"{where} contradict each other" if len(self.conflict) > 1 else f"{where} contradicts the setup"
            return f"⚠ {what}; the notes are stale. Edit, Delete or Undo.", "-problem"
        if self.state == "error":
            return f"⚠ {self.problem} The notes are stale. Edit, Delete or Undo.", "-problem"
        if self.state == "solving" and self.solution is None:
            return "Solving…", ""
        sol = self.solution
        if sol is None:
            return "", ""
        solved = m.solved_envelope(sol, deck)
        if solved:
            return f"★ Solved: {', '.join(solved)} — accuse!", "-solved"
        parts = [f"{m.fmt_count(int(sol['deals']))} possible deals"]
        best = (self.advice or {}).get("best_envelope") if self.advice else None
        names = m.short_labels(deck, self.config.get("board"), 12) if self.narrow else {}
        if best:
            cards = ", ".join(names.get(c, c) for c in best["cards"])
            parts.append(f"most likely envelope {cards} ({m.fmt_p(best['p'])})")
        else:
            guesses = m.likely_envelope(sol, deck)
            parts.append("envelope " + ", ".join(f"{names.get(c, c)} {m.fmt_p(p)}" for c, p in guesses))
        if m.last_index(self.entries, "hand") is None:
            parts.append("start with your Hand (h)")
        elif self.state == "solving":
            parts.append("solving…")
        return " · ".join(parts), ""

    def _update_status(self) -> None:
        status = self.query_one("#ax-status", Static)
        text, cls = self._status_text()
        status.update(Content(text))
        # At 80 columns the status is one line or two as the counts shrink: always two lines, so the
        # toolbar under it never jumps between taps.
        status.styles.min_height = 2 if self.narrow else None
        status.set_class(cls == "-problem", "-problem")
        status.set_class(cls == "-solved", "-solved")
        head = self.query_one("#ax-sheet-head", Static)
        sheet = self.query_one("#ax-sheet", SheetTable)
        stale = self.state in ("contradiction", "error")
        sheet.set_class(stale, "-stale")
        if stale:
            head.update("Detective notes · STALE (from before the problem)" if self.solution
                        else "Detective notes · none yet: the log has a problem")
        elif self.solution:
            head.update(f"Detective notes · {m.fmt_count(int(self.solution['deals']))} deals, exact")
        else:
            head.update("Detective notes")
        head.set_class(stale, "-problem")

    def _update_seen(self) -> None:
        """Which of my cards each player has seen (the rumors where I showed one): asked before showing."""
        lines = m.seen_lines(self.config, self.entries)
        text = Content.from_markup("[b]Seen of my cards[/b] (what I showed each player)\n")
        self.query_one("#ax-seen", Static).update(text + Content("\n".join(lines)))

    def _update_advice(self) -> None:
        self._update_seen()
        box = self.query_one("#ax-advice", Static)
        head = self.query_one("#ax-advice-head", Static)
        if self.state != "ok":
            head.update("Advice")
            box.update("Advice appears when the log is consistent." if self.state != "solving" else "Solving…")
            return
        adv = self.advice
        if not adv:
            head.update("Advice · computing…")
            box.update("Working out the most informative rumor for each location…")
            return
        best = adv.get("best_envelope")
        head.update("Advice · the most informative rumor per location (exact)")
        lines = []
        if best:
            lines.append(f"Most likely envelope: {', '.join(best['cards'])} ({m.fmt_p(best['p'])})")
        rumors = adv.get("rumors") or {}
        top = max(rumors.values(), key=lambda r: r.get("bits", 0.0), default=None)
        labels = m.short_labels(m.deck_of(self.config), self.config.get("board"), 12)
        if rumors:
            lines.append(f"  {'In':<12} {'ask':<21} bits  left")
        for loc, r in rumors.items():
            star = "★" if r is top else " "
            ask = f"{labels.get(r['suspect'], r['suspect'])} + {labels.get(r['weapon'], r['weapon'])}"
            left = m.fmt_count(round(r["deals_left"]))
            lines.append(f"{star} {labels.get(loc, loc):<12} {ask:<21} {r['bits']:.2f}  {left}")
        if rumors:
            lines.append("bits: expected information about the envelope")
            lines.append("left: deals expected to remain after the answer")
        box.update(Content("\n".join(lines)))

    @on(DataTable.RowSelected, "#ax-sheet")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a card: why each of its ✓ and ✗ is certain."""
        sheet = self.query_one("#ax-sheet", SheetTable)
        by_key, sheet.by_key = sheet.by_key, False
        card = sheet.card_at_cursor()
        if not by_key or card is None or sheet.solution is None or self.state != "ok":
            return
        if any(m.sheet_cell(sheet.solution, card, h).mark in ("yes", "no") for h in sheet.holders):
            self.open_why(f"Why? {card}", wanted=lambda f: f[1] == card)

    def _why_focused(self) -> bool:
        """y with the sheet focused: why the card under its cursor is where it is (not a note selected
        earlier in the log)."""
        sheet = self.query_one("#ax-sheet", SheetTable)
        if self.focused is not sheet:
            return False
        card = sheet.card_at_cursor()
        if card is None or sheet.solution is None or self.state != "ok":
            return False
        if not any(m.sheet_cell(sheet.solution, card, h).mark in ("yes", "no") for h in sheet.holders):
            self.notify(f"Nothing about {card} is certain yet.", title="Why?", markup=False)
            return True
        self.open_why(f"Why? {card}", wanted=lambda f: f[1] == card)
        return True

    @on(SheetTable.Tapped, "#ax-sheet")
    def _cell_tapped(self, event: SheetTable.Tapped) -> None:
        """One tap on a ✓ or ✗: why it is certain (with the card's other marks below it)."""
        sheet = self.query_one("#ax-sheet", SheetTable)
        if self.app.screen is not self or sheet.solution is None or self.state != "ok":
            return
        kind = {"yes": "at", "no": "not"}.get(m.sheet_cell(sheet.solution, event.card, event.holder).mark)
        if kind is not None:
            card = event.card
            self.open_why(f"Why? {card}", wanted=lambda f: f[1] == card, first=(kind, card, event.holder))

    @on(DataTable.RowHighlighted, "#ax-sheet")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._update_detail()

    def _update_detail(self) -> None:
        sheet = self.query_one("#ax-sheet", SheetTable)
        self.query_one("#ax-sheet-detail", Static).update(Content(sheet.describe_card(sheet.card_at_cursor())))


class AssistApp(App[None]):
    """A standalone app around :class:`ClueAssistScreen` (for tests and ``unmask assist clue``)."""

    TITLE = "unmask"

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__()
        self._session_id = session_id
        self._session = session

    def on_mount(self) -> None:
        self.push_screen(ClueAssistScreen(self._session_id, self._session), lambda _result: self.exit())


def run_assist(session_id: str | None = None) -> None:
    """Run the assistant full screen; a session that cannot be opened is reported in one line."""
    if session_id is not None:
        try:
            session = load_session(session_id)
            ClueAssistScreen._check_session(session)
        except SessionError as e:
            print(f"unmask: {e}", file=sys.stderr)
            raise SystemExit(1) from None
        AssistApp(session_id, session).run()
        return
    AssistApp().run()


AssistScreen = ClueAssistScreen  # the name tui.app looks up for every game
