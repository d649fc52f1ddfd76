"""The Masque table assistant: enter your Rumor cards and what you learn, see where it is safe at midnight.

One assist session (game ``masque``, mode ``assist``) holds the solver's ``config`` and ``log``
exactly in the ``unmask solve masque`` format (``docs/masque.md``). Every change is saved at once
and solved again in a thread worker. Everything is a tap (big buttons on a tall screen, explicit
scroll buttons) and a key.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from engine import words
from engine.masque import ROOMS, SLOTS
from engine.session import Session, SessionError
from tui.assist.base import UNDO_KEPT, AutosaveMixin, copy_json, solve_and_before
from tui.storage import load_session, new_session_id
from tui.widgets.choices import Choices
from tui.widgets.scroll import ScrollButtons

ABBR = {"black": "Bk", "blue": "Bu", "purple": "Pu", "green": "Gr", "orange": "Or", "white": "Wh", "violet": "Vi"}
KINDS = (("My card (c)", "rumor"), ("Seen (s)", "seen"), ("Evidence (e)", "evidence"), ("I'm here (h)", "start"))
TOOLS = (("Undo (u)", "undo"), ("Delete (x)", "delete"), ("Replace (r)", "replace"), ("Variant (v)", "variant"),
         ("Table (t)", "table"))

__all__ = ["UNDO_KEPT", "AssistScreen", "advice_text", "entry_slot_room", "entry_text", "grid_text", "make_entry"]


def entry_text(e: dict) -> str:
    """One log entry as a short sentence."""
    t = e.get("type")
    if t == "rumor":
        return f"My card {e['card']}: safe"
    if t == "hand":
        return "My cards " + ", ".join(e["cards"]) + ": safe"
    if t == "seen":
        return f"Seen {e['card']}: safe"
    if t == "evidence":
        return f"Evidence {e['slot']} {e['room']}: deadly"  # like "My card 12:00 black: safe"; one line at 80x24
    if t == "start":
        return f"I'm in {e['room'].title()}"
    if t == "ask":
        if "how" not in e:  # an old note: who asked whom, for the soft advice
            return f"{e.get('by')} asked {e.get('target')} for {e.get('slot')}"
        verb = "took from" if e["how"] == "take" else "looked at"
        what = f"{e['slot']} card" if e.get("matched") else f"no {e['slot']} card"
        if e.get("matched") and e.get("offered", 1) > 1:
            what += f" (of {e['offered']})"
        card = f": {e['card']}" if e.get("card") else ""
        return f"{e.get('action') or 'Ask'}: {e['by']} {verb} {e['target']}, {what}{card}"
    if t == "draw":
        return f"{e.get('by')} drew a Rumor card"
    if t == "give":
        return f"{e.get('by')} gave {e.get('target')} " + (e["card"] if e.get("card") else "a Rumor card")
    if t == "count":
        return f"{e.get('player')} holds {words.count(int(e.get('cards', 0)), 'Rumor card')}"
    return json.dumps(e)


def entry_slot_room(e: dict) -> tuple[str | None, str | None]:
    if e.get("type") in ("rumor", "seen"):
        slot, _, room = e["card"].partition(" ")
        return slot, room
    if e.get("type") == "evidence":
        return e["slot"], e["room"]
    if e.get("type") == "start":
        return None, e["room"]
    return None, None


def make_entry(kind: str, slot: str, room: str) -> dict:
    if kind in ("rumor", "seen"):
        return {"type": kind, "card": f"{slot} {room}"}
    if kind == "evidence":
        return {"type": "evidence", "slot": slot, "room": room}
    return {"type": "start", "room": room}


def solve_log(config: dict, log: list[dict]) -> dict:
    """The solver's answer, never an exception. On a contradiction, the log before the last
    conflicting entry is solved too: its notes stand in, marked stale (``before``)."""
    from solvers.masque.solver import SolverInputError, solve

    try:
        return solve_and_before(lambda entries, _whole: solve(config, entries), log)
    except SolverInputError as e:
        return {"status": "error", "message": str(e)}
    except Exception as e:  # a solver bug must not take the notes down
        return {"status": "error", "message": f"The solver failed: {e.__class__.__name__}: {e}"}


def grid_text(result: dict | None, stale: dict | None = None) -> Text:
    """The 6 x 7 grid of slots x rooms: % chance of death, ✓ surely safe, ✗ surely deadly;
    the best plan's rooms are underlined. On a contradiction, ``stale`` (the last consistent
    notes) is drawn instead, dimmed and marked STALE."""
    t = Text()
    if (not result or result.get("status") != "ok") and stale and stale.get("status") == "ok":
        t.append("STALE: the notes from before the problem\n", style="bold red")
        t.append_text(grid_text(stale))
        t.stylize("dim", 0, len(t))
        return t
    t.append("Chance of death, % (reverse: best plan)\n", style="bold underline")
    t.append("Slot   " + "".join(f"{ABBR[r]:>4}" for r in ROOMS) + "\n", style="bold")
    ok = bool(result) and result.get("status") == "ok"
    best = result["best_plan"]["rooms"] if ok else [None] * len(SLOTS)
    for k, slot in enumerate(SLOTS):
        t.append(f"{slot}  ", style="bold")
        for room in ROOMS:
            if not ok:
                t.append("   ?", style="dim")
                continue
            p = result["deadly"][slot][room]
            text, style = (
                ("   ✓", "bold green")
                if p <= 0
                else ("   ✗", "bold red")
                if p >= 1
                else (f"{round(p * 100):4d}", "yellow" if p > 0.3 else "")
            )
            if best[k] == room:
                style += " reverse"
            t.append(text, style=style.strip())
        t.append("\n")
    return t


def advice_text(result: dict | None, start: str | None) -> Text:
    t = Text()
    if not result:
        t.append("Solving…", style="dim")
        return t
    if result.get("status") != "ok":
        t.append("Contradiction: ", style="bold red")
        t.append(result.get("message", ""))
        conflict = result.get("conflict") or []
        if conflict:
            t.append("\n⚠ Entries " + ", ".join(f"#{i + 1}" for i in conflict) + ": delete or replace one, or Undo.")
        if result.get("before"):
            t.append(f"\nThe grid shows the notes before entry #{max(conflict) + 1}, marked stale.", style="dim")
        return t
    best = result["best_plan"]
    t.append("My starting room: ", style="bold")
    t.append(f"{start.title() if start else 'not entered (h)'}\n")
    t.append("Best plan: ", style="bold")
    t.append(f"from {best['start'].title()}, survives {best['survival']:.0%}\n")
    arrows = {"cw": "↻", "ccw": "↺", "stay": "·"}
    t.append("  " + " ".join(f"{arrows[d]}{ABBR[r]}" for d, r in zip(best["moves"], best["rooms"], strict=True)) + "\n")
    ask = result["ask_slot"]
    t.append("Ask for slot: ", style="bold")
    t.append(f"{ask['slot']} (+{ask['gain']:.1%})\n")
    t.append("Best by start: ", style="bold")
    t.append(" ".join(f"{ABBR[r]} {p:.0%}" for r, p in result["by_start"].items()) + "\n")
    return t


class LogChoices(Choices):
    """The log entries: one line each, even on a tall screen, so many fit."""

    def on_mount(self) -> None:
        # Textual runs Choices.on_mount after this one (every class's handler runs): undo its "-few" after.
        self.call_after_refresh(self.set_class, False, "-few")


class AssistScreen(AutosaveMixin, Screen[None]):
    """Notes for a real Masque table: Rumor cards and looks in, safe rooms and the best plan out."""

    SAVE_FAILED = ("Could not save", "Autosave")
    HELP_TITLE = "Masque assistant"
    AUTO_FOCUS = "#mq-slot"
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #mq-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    #mq-main { height: 1fr; }
    #mq-left { width: 1fr; padding: 0 1; overflow-y: auto; }  /* a tall but narrow window: the column scrolls */
    #mq-right { width: 1fr; padding: 0 1; }
    Screen.-wide #mq-left { width: 1.4fr; }
    .mq-label { text-style: bold; height: 1; }
    #mq-log-scroll { height: 1fr; min-height: 3; }
    #mq-out { height: 1fr; }
    #mq-grid { height: auto; }
    #mq-advice { height: auto; margin: 1 0 0 0; }
    Screen.-short #mq-main ScrollButtons Button { height: 1; border: none; min-width: 6; }
    """
    # One line per log entry, even on a tall screen, so many fit; but a long one (a ⚠ Evidence entry
    # at 80 columns) wraps rather than end in "…". `CSS`, not `DEFAULT_CSS`: it must win over the
    # app's Choice rules. No padding: a wrapping Button pads each line by its line-pad (1) instead.
    CSS = """
    Choices.mq-log { grid-rows: auto; }
    Choices.mq-log > Choice { height: auto; min-height: 1; text-wrap: wrap; text-overflow: fold; padding: 0; }
    """
    BINDINGS: ClassVar = [
        Binding("c", "add('rumor')", "My card", id="mq.rumor"),
        Binding("s", "add('seen')", "Seen", id="mq.seen"),
        Binding("e", "add('evidence')", "Evidence", id="mq.evidence"),
        Binding("h", "add('start')", "I'm here", id="mq.start"),
        Binding("u,ctrl+z", "undo", "Undo", id="mq.undo"),
        Binding("x,delete", "delete", "Delete", id="mq.delete"),
        Binding("r", "replace", "Replace", id="mq.replace"),
        Binding("v", "variant", "Variant", show=False, id="mq.variant"),
        Binding("t", "table", "Table", id="mq.table"),
        *[Binding(str(k + 1), f"slot({k})", f"Slot {SLOTS[k]}", show=False) for k in range(len(SLOTS))],
        Binding("y", "why", "Why?", show=False, id="mq.why"),
        Binding("escape", "close", "Close", id="mq.close"),
    ]

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__()
        self.session_id = session_id
        self.session = session
        self.config: dict = {"red_death": 2}
        self.entries: list[dict] = []
        self.history: list[list[dict]] = []
        self.selected: int | None = None
        self.result: dict | None = None
        self.error: str | None = None
        self._gen = 0
        self._solved_gen = -1  # the generation of the log that self.result answers
        self._log_n = 0
        self._log_widget: Choices | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="mq-title")
        with Horizontal(id="mq-main"):
            with Vertical(id="mq-left"):
                yield Static("Time slot", classes="mq-label")
                yield Choices([(s, s) for s in SLOTS], columns=3, keep_selection=True, id="mq-slot")
                yield Static("Room", classes="mq-label")
                yield Choices([(r.title(), r) for r in ROOMS], columns=3, keep_selection=True, id="mq-room")
                yield Static("Add what you learned", classes="mq-label")
                yield Choices(list(KINDS), columns=4 if self.app.size.width >= 110 else 2, id="mq-do")
                yield Choices(list(TOOLS), columns=4 if self.app.size.width >= 110 else 2, id="mq-tools")
                yield Static("Log (tap to select)", classes="mq-label", id="mq-log-label")
                with VerticalScroll(id="mq-log-scroll", can_focus=False):  # the log's rows take the focus
                    yield LogChoices([], keep_selection=True, id="mq-log-0", classes="mq-log")
                yield ScrollButtons("#mq-log-scroll", id="mq-log-scrollbtn")
            with Vertical(id="mq-right"):
                with VerticalScroll(id="mq-out"):
                    yield Static(id="mq-grid")
                    yield Static(id="mq-advice")
                yield ScrollButtons("#mq-out", id="mq-out-scrollbtn")
        yield Footer()

    @staticmethod
    def _check_session(session: Session) -> None:
        """Refuse what is not a usable Masque assist session, with one line that says why (the file stays)."""
        from solvers.masque.validate import SolverInputError, validate

        if session.game != "masque" or session.mode != "assist":
            raise SessionError(f"This is a {session.game} {session.mode} session, not a Masque table-assistant one.")
        try:  # a damaged file is refused whole, never half read
            validate(session.config, session.log)
        except SolverInputError as e:
            raise SessionError(f"This session cannot be used: {e}") from None

    def on_mount(self) -> None:
        for sel in ("#mq-slot", "#mq-room"):
            c = self.query_one(sel, Choices)
            c.selected = 0
            c._paint()
        try:
            if self.session is None and self.session_id is not None and self._exists(self.session_id):
                self.session = load_session(self.session_id)
            if self.session is not None:
                self._check_session(self.session)
                self.config = dict(self.session.config or {"red_death": 2})
                self.entries = list(self.session.log)
                undo = self.session.extra.get("undo", [])
                self.history = [h for h in undo if isinstance(h, list)] if isinstance(undo, list) else []
        except SessionError as e:
            self.error = str(e)
            self.notify(str(e), title="Cannot open this session", severity="error")
            self.session = None
            self.session_id = None
        if self.session_id is None:
            self.session_id = new_session_id("masque", "assist")
        if self.session is None:
            self.session = Session(game="masque", mode="assist", config=self.config, log=[])
        self._changed(save=False)

    @staticmethod
    def _exists(session_id: str) -> bool:
        """A named session that is not on disk yet is a new table under that name."""
        from tui.storage import sessions_dir

        return (sessions_dir() / f"{session_id}.json").exists()

    # ----------------------------------------------------------------- state

    def _pick(self, sel: str) -> str:
        return self.query_one(sel, Choices).value

    def _start(self) -> str | None:
        for e in reversed(self.entries):
            if e.get("type") == "start":
                return e["room"]
        return None

    def _set(self, entries: list[dict]) -> None:
        self._remember()
        self.entries = entries
        self._changed()

    def _changed(self, save: bool = True) -> None:
        self._gen += 1
        self.refresh_bindings()
        self._update_rests()
        self._draw()
        if save:
            self._save()
        self._solve(self._gen, copy_json(self.config), copy_json(self.entries))

    @work(thread=True, exclusive=True, exit_on_error=False, group="masque-assist")
    def _solve(self, gen: int, config: dict, log: list[dict]) -> None:
        self.app.call_from_thread(self._solved, gen, solve_log(config, log))

    def _solved(self, gen: int, result: dict) -> None:
        if gen != self._gen or not self.is_mounted:
            return
        self._solved_gen = gen
        conflicted = bool(result.get("conflict")) or bool(self.result and self.result.get("conflict"))
        self.result = result
        if conflicted:
            self._draw()  # mark (or unmark) the conflicting entries in the log
        else:
            self._draw_out()
        self._update_rests()
        from tui.masque.table import MasqueTableScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, MasqueTableScreen) and screen.owner is self:
                screen.refresh_table()

    # ----------------------------------------------------------------- what rests on the selected entry

    def _update_rests(self) -> None:
        """The log's label says what rests on the selected entry (found in a worker)."""
        label = self.query_one("#mq-log-label", Static)
        i = self.selected
        ready = self._solved_gen == self._gen and self.result is not None and self.result.get("status") == "ok"
        if i is None or not ready or i >= len(self.entries):
            self.workers.cancel_group(self, "rests")
            label.update("Log (tap to select)")
            return
        label.update(f"Log · what rests on #{i + 1}…")
        self._find_rests(self._gen, i, copy_json(self.config), copy_json(self.entries))

    @work(thread=True, exclusive=True, group="rests", exit_on_error=False)
    def _find_rests(self, gen: int, note: int, config: dict, log: list[dict]) -> None:
        from tui.assist.why import rests_line, rests_on_note

        try:
            text = rests_line("masque", note, rests_on_note("masque", config, log, note), limit=2)
        except Exception:  # an unreadable log: the grid already says why
            text = "Log (tap to select)"
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_rests, gen, note, text)

    def _show_rests(self, gen: int, note: int, text: str) -> None:
        if gen == self._gen and note == self.selected and self.is_attached:
            self.query_one("#mq-log-label", Static).update(Text(f"Log · {text}", no_wrap=True, overflow="ellipsis"))

    # ----------------------------------------------------------------- drawing

    def _draw(self) -> None:
        variant = "harder (3 Red Death cards a slot)" if self.config.get("red_death") == 3 else "standard"
        self.query_one("#mq-title", Static).update(
            f"Masque assistant · {variant} · {words.count(len(self.entries), 'entry')} · session {self.session_id}"
        )
        log = self._log_widget or self.query_one(".mq-log", Choices)
        bad = set(self.result.get("conflict") or []) if self.result and self.result.get("status") != "ok" else set()
        options = [(f"{'⚠ ' if i in bad else ''}#{i + 1} {entry_text(e)}", i) for i, e in enumerate(self.entries)]
        if self.selected is not None and self.selected >= len(options):
            self.selected = None
        if [o[0] for o in options] != [o[0] for o in log.options]:
            self._log_n += 1
            new = LogChoices(options, keep_selection=True, id=f"mq-log-{self._log_n}", classes="mq-log")
            new.selected = self.selected
            new.current = self.selected if self.selected is not None else max(0, len(options) - 1)
            log.remove()
            scroll = self.query_one("#mq-log-scroll", VerticalScroll)
            scroll.mount(new)
            self._log_widget = new
            self.call_after_refresh(scroll.scroll_end, animate=False)
        else:
            log.selected = self.selected
            log._paint()
        self._draw_out()

    def _draw_out(self) -> None:
        self.query_one("#mq-grid", Static).update(grid_text(self.result, (self.result or {}).get("before")))
        self.query_one("#mq-advice", Static).update(advice_text(self.result, self._start()))

    # ----------------------------------------------------------------- actions

    def action_add(self, kind: str) -> None:
        entry = make_entry(kind, self._pick("#mq-slot"), self._pick("#mq-room"))
        self.selected = None
        self._set([*self.entries, entry])
        self.notify(entry_text(entry), title="Added")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Dim Undo with nothing to undo, and Delete and Replace with no entry selected (the footer
        shows only keys that do something now)."""
        if action == "undo":
            return True if self.history else None
        if action in ("delete", "replace"):
            return True if self.selected is not None else None
        return True

    def action_undo(self) -> None:
        if not self.history:
            self.notify("Nothing to undo.", title="Undo")
            return
        self.entries = self.history.pop()
        self.selected = None
        self._changed()

    def action_delete(self) -> None:
        if self.selected is None:
            self.notify("Tap a log entry first.", title="Delete")
            return
        entries = [e for i, e in enumerate(self.entries) if i != self.selected]
        self.selected = None
        self._set(entries)

    def action_replace(self) -> None:
        if self.selected is None:
            self.notify("Tap a log entry first, pick the slot and room, then Replace.", title="Replace")
            return
        old = self.entries[self.selected]
        kind = old.get("type")
        if kind not in ("rumor", "seen", "evidence", "start"):
            self.notify("This entry cannot be replaced here; delete it instead.", title="Replace")
            return
        new = make_entry(kind, self._pick("#mq-slot"), self._pick("#mq-room"))
        if new == old:  # nothing to replace: say so, and give Undo no step that changes nothing
            self.notify(f"#{self.selected + 1} already says that: pick another slot or room, then Replace.",
                        title="Replace")
            return
        entries = list(self.entries)
        entries[self.selected] = new
        self._set(entries)

    def action_variant(self) -> None:
        """Switch between 2 and 3 Red Death cards per slot: a toggle (tap it again to switch back), not a
        note, so Undo (which takes back notes) is not given a step that would change nothing."""
        self.config = {**self.config, "red_death": 2 if self.config.get("red_death") == 3 else 3}
        self.config.pop("variant", None)
        self._changed()

    # ----------------------------------------------------------------- the table

    def action_table(self) -> None:
        """Who sits where and who can hold which slot (set up on first use)."""
        from tui.masque.table import MasqueTableScreen

        self.app.push_screen(MasqueTableScreen(self))

    def set_table(self, config: dict) -> None:
        """Start the table model (players in seat order, my name): a setting, saved with the session."""
        self.config = config
        self._changed()

    def add_note(self, entry: dict) -> bool:
        """Add a table note unless it cannot be true with the notes before it: then say why, change nothing."""
        from solvers.masque.solver import SolverInputError, solve

        entries = [*self.entries, entry]
        try:
            out = solve(copy_json(self.config), copy_json(entries))
        except SolverInputError as e:
            self.notify(str(e), title="Not added", severity="error")
            return False
        if out.get("status") != "ok" and len(entries) - 1 in (out.get("conflict") or []):
            self.notify(out.get("message", ""), title="Not added: this cannot be", severity="error")
            return False
        self.selected = None
        self._set(entries)
        self.notify(entry_text(entry), title="Added")
        return True

    def action_slot(self, k: int) -> None:
        self.query_one("#mq-slot", Choices).pick(k)

    def action_close(self) -> None:
        self.app.action_home()  # type: ignore[attr-defined]

    # ----------------------------------------------------------------- why is it certain

    def action_why(self, first: tuple[str, str] | None = None) -> None:
        """Every certain room with the notes that prove it (y, or a tap on a ✓/✗ of the grid)."""
        from tui.assist.why import WhyScreen

        if not self.result or self.result.get("status") != "ok":
            self.notify("Nothing is certain while the notes do not fit together.", title="Why?")
            return

        def done(index: int | None) -> None:
            if index is None or not 0 <= index < len(self.entries):
                return
            self._select(index)
            self._draw()
            self.notify(f"Entry #{index + 1} selected: Replace (r) or Delete (x) it.", title="Why?")

        title = "Why is it certain? Every certain room" if first is None else f"Why? {first[1]}"
        wanted = None if first is None else (lambda f: f[1].split()[0] == first[1].split()[0])
        resting_on = self.selected if first is None else None  # y with a note selected: what rests on it
        if resting_on is not None:
            title = f"What rests on note #{resting_on + 1}: the rooms that would not be certain without it"
        self.app.push_screen(WhyScreen("masque", copy_json(self.config), copy_json(self.entries), title=title,
                                       wanted=wanted, first=first, resting_on=resting_on), done)

    def _first_grid_row(self, grid: Static) -> int:
        """The line of the grid that shows the first slot: the title above it may wrap (it does at 80
        columns), so it is read from what the grid shows, never assumed."""
        from textual.geometry import Region

        lines = grid.render_lines(Region(0, 0, grid.size.width, grid.size.height))
        for i, strip in enumerate(lines):
            if strip.text.startswith(SLOTS[0]):
                return i
        return 2

    def on_click(self, event: Any) -> None:
        """A tap on a ✓ or ✗ of the grid explains it (and the slot's other certain rooms)."""
        grid = self.query_one("#mq-grid", Static)
        if event.widget is not grid or not self.result or self.result.get("status") != "ok":
            return
        k, col = event.y - self._first_grid_row(grid), event.x - 7
        if not (0 <= k < len(SLOTS) and col >= 0 and col // 4 < len(ROOMS)):
            return
        slot, room = SLOTS[k], ROOMS[col // 4]
        p = self.result["deadly"][slot][room]
        if p <= 0 or p >= 1:
            self.action_why(("safe" if p <= 0 else "deadly", f"{slot} {room}"))

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        cid = event.choices.id
        if cid == "mq-do":
            event.stop()
            self.action_add(event.value)
        elif cid == "mq-tools":
            event.stop()
            {
                "undo": self.action_undo,
                "delete": self.action_delete,
                "replace": self.action_replace,
                "variant": self.action_variant,
                "table": self.action_table,
            }[event.value]()
        elif event.choices.has_class("mq-log"):
            event.stop()
            self._select(event.value)

    def _select(self, index: int) -> None:
        """Select log entry ``index`` and show its slot and room in the pickers, so Replace changes
        only what is tapped next (from a log tap, and from a Why view's "jump to it")."""
        self.selected = index
        self.refresh_bindings()
        self._update_rests()
        slot, room = entry_slot_room(self.entries[index])
        if slot in SLOTS:
            c = self.query_one("#mq-slot", Choices)
            c.selected = c.current = SLOTS.index(slot)
            c._paint()
        if room in ROOMS:
            c = self.query_one("#mq-room", Choices)
            c.selected = c.current = ROOMS.index(room)
            c._paint()
