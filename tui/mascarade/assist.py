"""The Mascarade table assistant: your notes of a real table in a few taps, and what they say.

:class:`MascaradeAssistScreen` holds one assist session in the ``unmask solve mascarade`` format
(``docs/mascarade.md``): the config from the setup form, the log the user builds with the entry
dialog (a typed line is an optional fast path), and an undo stack of earlier logs. Every change
is saved at once (``tui.storage``) and solved again in a thread worker, so the screen never
freezes. The grid shows seats x masks with the chances and the certain facts, beside it the log,
my own swaps and looks, and the advice. A log the solver finds impossible is never cut: the
conflicting entries are marked, the last good grid stays on screen marked stale, and Edit,
Delete or Undo fix it.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Input, Static

from engine import words
from engine.session import Session, SessionError
from tui.assist.base import UNDO_KEPT, AssistScreenBase, answer_or_status
from tui.assist.base import copy_json as _copy
from tui.assist.widgets import KeyBar, LogList, Tap
from tui.mascarade import assist_model as mm
from tui.mascarade.assist_dialogs import MascaradeEntryDialog
from tui.mascarade.assist_setup import MascaradeSetupForm

__all__ = ["UNDO_KEPT", "AssistScreen", "MascaradeAssistScreen", "describe_entry", "parse_line", "solve_log"]

VIEWS = ("grid", "log", "advice")
ENTRY_BUTTONS = (("swap", "Swap"), ("look", "Look"), ("announce", "Announce"), ("answers", "Answers"),
                 ("reveal", "Reveal"), ("coins", "Coins"), ("spy", "More…"))

parse_line = mm.parse_line  # the typed fast path (kept importable from here)
describe_entry = mm.describe


def solve_log(config: dict[str, Any], log: list[Any]) -> dict[str, Any]:
    """The solver's answer, never an exception: bad input and solver failures become a status."""
    from solvers.mascarade import SolverInputError, solve

    def entry_of(e: Exception) -> tuple[str, int | None]:
        found = re.match(r"(?:Log entry|Entry) (\d+):", str(e))
        return str(e), int(found.group(1)) if found else None

    return answer_or_status(lambda entries, whole: solve(config, entries, advice=whole), log, SolverInputError,
                            entry_of)


class MascaradeAssistScreen(AssistScreenBase):
    """Notes for a real Mascarade table: setup, then a log of what happened, and the belief grid."""

    HELP_TITLE = "Mascarade: table assistant"
    GAME = "mascarade"
    GAME_TITLE = "Mascarade"
    ASSIST_NAME = "a Mascarade table-assistant"
    FRAME = PANEL = "mx"
    VIEWS = VIEWS
    VIEW_FOCUS: ClassVar = {"grid": "#mx-grid-scroll", "log": "#mx-log", "advice": "#mx-advice-scroll"}
    GATED = (*AssistScreenBase.GATED, "type_line")
    PAGE_TYPES = (LogList, VerticalScroll)
    SETUP_FORM = MascaradeSetupForm
    SCOPED_CSS = False
    CSS = """
    MascaradeAssistScreen #mx-setup { height: 1fr; }
    MascaradeAssistScreen #mx-setup-main { height: 1fr; padding: 0 0 0 1; }
    MascaradeAssistScreen #mx-setup-scroll { height: 1fr; }
    MascaradeAssistScreen #mx-setup-buttons { padding: 0 1; }
    MascaradeAssistScreen #mx-count { width: 1fr; max-width: 70; }
    MascaradeAssistScreen .mx-seat { height: auto; }
    MascaradeAssistScreen .mx-seat-num { width: 4; }
    MascaradeAssistScreen.-ax-tall .mx-seat-num { height: 3; content-align: right middle; padding: 0 1 0 0; }
    MascaradeAssistScreen .mx-name { width: 1fr; max-width: 20; margin: 0 1 0 0; }
    MascaradeAssistScreen .mx-me { width: 8; }
    MascaradeAssistScreen .mx-me.-on { background: $primary; color: $text; }
    MascaradeAssistScreen #mx-custom { width: 1fr; }
    MascaradeAssistScreen #mx-summary { color: $text-muted; }
    MascaradeAssistScreen #mx-opening { height: auto; }
    MascaradeAssistScreen .mx-open-row { height: auto; }
    MascaradeAssistScreen .mx-open-label { width: 9; height: 1; text-style: bold; }
    MascaradeAssistScreen.-ax-tall .mx-open-label { height: 3; content-align: left middle; }
    MascaradeAssistScreen .mx-opt-label { height: 1; color: $text-muted; }
    MascaradeAssistScreen .mx-choice { width: 1fr; max-width: 70; }
    MascaradeAssistScreen #mx-errors { color: $text-error; text-style: bold; }
    MascaradeAssistScreen #mx-main { height: 1fr; }
    MascaradeAssistScreen #mx-status { height: auto; max-height: 3; padding: 0 1; }
    MascaradeAssistScreen #mx-status.-problem { background: $error 30%; text-style: bold; }
    MascaradeAssistScreen .mx-toolbar { height: auto; padding: 0 0 0 1; }
    MascaradeAssistScreen.-ax-wide .ax-tab, MascaradeAssistScreen.-ax-wide #mx-tabs { display: none; }
    MascaradeAssistScreen #mx-body { height: 1fr; }
    MascaradeAssistScreen #mx-grid-panel { width: 1fr; }

    MascaradeAssistScreen #mx-grid-scroll { height: 1fr; width: 1fr; background: $surface; scrollbar-size-vertical: 1; }
    MascaradeAssistScreen #mx-grid { width: auto; padding: 0 1; }
    MascaradeAssistScreen #mx-mine { width: 1fr; padding: 0 1; }
    MascaradeAssistScreen #mx-grid-scroll.-stale { opacity: 60%; }
    MascaradeAssistScreen #mx-side { width: 1fr; }
    MascaradeAssistScreen #mx-log { height: 1fr; background: $surface; scrollbar-size-vertical: 1; }
    MascaradeAssistScreen #mx-log-buttons { height: auto; }
    MascaradeAssistScreen.-ax-wide #mx-advice-panel { height: 1fr; }
    MascaradeAssistScreen #mx-advice-scroll { height: 1fr; background: $surface; scrollbar-size-vertical: 1; }
    MascaradeAssistScreen #mx-advice { width: 1fr; padding: 0 1; }
    MascaradeAssistScreen #mx-line-row { height: auto; display: none; }
    MascaradeAssistScreen #mx-line-row.-on { display: block; }
    MascaradeAssistScreen #mx-line { width: 1fr; }
    MascaradeAssistScreen #mx-damaged { height: 1fr; padding: 1 2; }
    """
    BINDINGS: ClassVar = [
        Binding("s", "entry('swap')", "Swap", id="mascarade.swap"),
        Binding("l", "entry('look')", "Look", id="mascarade.look"),
        Binding("a", "entry('announce')", "Announce", id="mascarade.announce"),
        Binding("c", "entry('answers')", "Answers", id="mascarade.answers"),
        Binding("r", "entry('reveal')", "Reveal", id="mascarade.reveal"),
        Binding("o", "entry('coins')", "Coins", id="mascarade.coins"),
        Binding("m", "entry('spy')", "More", id="mascarade.more"),
        Binding("u,ctrl+z", "undo", "Undo", id="mascarade.undo"),
        Binding("e", "edit", "Edit", id="mascarade.edit"),
        Binding("x,delete", "delete", "Delete", id="mascarade.delete"),
        Binding("t", "type_line", "Type", id="mascarade.type"),
        Binding("g", "view('grid')", "Grid", id="mascarade.view.grid"),
        Binding("n", "view('log')", "Log", id="mascarade.view.log"),
        Binding("d", "view('advice')", "Advice", id="mascarade.view.advice"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="mascarade.page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="mascarade.page_up"),
        Binding("escape", "close", "Close", id="mascarade.close"),
    ]

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__(session_id, session)
        self.variant: dict[str, Any] = dict(mm.VARIANT_DEFAULT)
        self.result: dict[str, Any] | None = None  # the last good answer
        self.problem = ""
        self.conflict: set[int] = set()
        self.opening_conflict = False
        self._dialog: MascaradeEntryDialog | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield from self._compose_top()
        with Vertical(id="mx-main"):
            yield Static("", id="mx-status")
            with Horizontal(classes="mx-toolbar"):
                for kind, label in ENTRY_BUTTONS:
                    yield Tap(label, id=f"mx-do-{kind}", variant="primary" if kind == "swap" else "default")
                yield Tap("Undo", id="mx-do-undo")
                yield Tap("Type", id="mx-do-type")
                yield Static(classes="ax-spacer")
                yield Tap("✕", id="mx-do-close")
            with Horizontal(classes="mx-toolbar", id="mx-tabs"):
                yield Tap("Grid", id="mx-tab-grid", classes="ax-tab")
                yield Tap("Log", id="mx-tab-log", classes="ax-tab")
                yield Tap("Advice", id="mx-tab-advice", classes="ax-tab")
            with Horizontal(id="mx-body"):
                yield from self._compose_text_panel("grid", "Seats × masks", "grid", "mine")
                yield from self._compose_side()
            with Horizontal(id="mx-line-row"):
                line = Input(placeholder="e.g. Bob swap T1 · Cy announce king · reveal Bob=king (Enter)",
                             id="mx-line", classes="ax-input")
                line.cursor_blink = False
                yield line
                yield Tap("Add", id="mx-do-addline")
        yield KeyBar(id="ax-keys")

    @classmethod
    def _check_setup(cls, session: Session) -> None:
        from solvers.mascarade import SolverInputError, parse_config
        from solvers.mascarade.validate import validate

        try:
            validate(session.config, session.log)
            parse_config(session.config)
        except SolverInputError as e:
            raise SessionError(f"This session cannot be used: {e}") from None

    def _start_extra(self, session: Session) -> None:
        variant = session.extra.get("variant")
        self.variant = dict(mm.VARIANT_DEFAULT, **(variant if isinstance(variant, dict) else {}))

    def _focus_main(self) -> None:
        self.query_one("#mx-log").focus()

    def _focus_setup(self) -> None:
        self.call_after_refresh(lambda: self.query_one("#mx-count").focus())

    def _head_text(self) -> str:
        """Who plays and whose notes these are (the session name only where there is room)."""
        c = self.config
        seen = "opening seen" if c.get("opening") else "opening not seen"
        text = f"Mascarade · {', '.join(mm.players_of(c))} · me: {c.get('me')} · {seen}"
        return text if self.narrow else f"Mascarade assistant · {text[12:]} · session {self.session_id}"

    def on_resize(self, _event: events.Resize) -> None:
        if self.mode == "main":
            self.query_one("#mx-head", Static).update(Content(self._head_text()))
            self._apply_view()
            self._draw_grid()

    def _entry_enabled(self, kind: str) -> bool | None:
        if kind == "answers":
            return True if mm.pending_announcement(self.entries) else None
        return True

    # ------------------------------------------------------------------ changes to the log

    def _save_extra(self, session: Session) -> None:
        session.extra["variant"] = self.variant

    def action_entry(self, kind: str) -> None:
        """Open the entry dialog on ``kind`` for a new entry."""
        if self.mode != "main":
            return
        if kind == "answers" and mm.pending_announcement(self.entries) is None:
            self.notify("No announcement is waiting for answers. Enter it with Announce.", title="Answers")
            return
        self._open_dialog(kind, None)

    def _as_entries(self, result: Any) -> list[Any] | None:
        return result or None  # the dialog gives a list: one entry, or a swap and what it showed

    def _entry_dialog(self, kind: str, before: list[Any], entry: Any) -> MascaradeEntryDialog:
        return self._installed_dialog().prepare(kind, before, entry, self.result)

    def _installed_dialog(self) -> MascaradeEntryDialog:
        """The dialog, built once per table and kept installed for the next entry."""
        if self._dialog is None or self._dialog.config is not self.config:
            dialog = MascaradeEntryDialog(self.config, self.variant)
            name = f"mascarade-entry-{id(self)}"
            if self.app.is_screen_installed(name):
                self.app.uninstall_screen(name)
            self.app.install_screen(dialog, name)
            self._dialog = dialog
        return self._dialog

    def on_unmount(self) -> None:
        if self._dialog is not None:
            with contextlib.suppress(Exception):  # the app may be closing with a dialog open
                self.app.uninstall_screen(f"mascarade-entry-{id(self)}")
                self._dialog.remove()
        self._dialog = None

    def _edit_kind(self, entry: Any) -> str | None:
        return mm.entry_kind(entry) if isinstance(entry, dict) else None

    def action_type_line(self) -> None:
        """Show (or hide) the line box: the keyboard user's fast path."""
        if self.mode != "main":
            return
        row = self.query_one("#mx-line-row")
        row.toggle_class("-on")
        if row.has_class("-on"):
            self.query_one("#mx-line", Input).focus()
        else:
            self.query_one("#mx-log").focus()

    def add_line(self, line: str) -> None:
        """One typed line becomes its entries; a line not understood is refused and stays in the box."""
        try:
            entries = mm.typed_entries(line, self.config, self.entries)
        except ValueError as e:
            self.notify(str(e), title="Not understood", severity="warning")
            return
        self.query_one("#mx-line", Input).value = ""
        self.change_log([*_copy(self.entries), *entries])

    @on(Input.Submitted, "#mx-line")
    def _line_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.add_line(event.value)

    def _page_default(self) -> Widget:
        return self.query_one("#mx-grid-scroll")

    def action_close(self) -> None:
        """Leave the assistant (the session is already saved); Escape in the line box only hides it."""
        row = self.query("#mx-line-row")
        if row and row.first().has_class("-on") and isinstance(self.focused, Input):
            self.action_type_line()
            return
        self.dismiss(None)

    def _button_actions(self) -> dict[str, Any]:
        return {**super()._button_actions(), "type": self.action_type_line,
                "addline": lambda: self.add_line(self.query_one("#mx-line", Input).value)}

    # ------------------------------------------------------------------ solving

    _solve_log = staticmethod(solve_log)

    def _show_result(self, r: dict[str, Any]) -> None:
        if r.get("status") == "ok":
            self.state = "ok"
            self.result = r
            self.conflict = set()
            self.opening_conflict = False
            self.problem = ""
        else:
            self.state = "contradiction" if r.get("status") == "contradiction" else "error"
            raw = [int(i) for i in r.get("conflict", []) if isinstance(i, int)]
            self.conflict = {i for i in raw if i >= 0}
            self.opening_conflict = -1 in raw
            self.problem = str(r.get("message", ""))
            if self.result is None and isinstance(r.get("before"), dict):
                self.result = r["before"]
            if self.narrow and self.conflict:
                self.action_view("log")
        self._refresh_log()
        self._update_status()
        self._draw_grid()
        self._update_advice()

    # ------------------------------------------------------------------ drawing

    def _log_sentences(self) -> list[str]:
        me = str(self.config.get("me"))
        return [mm.describe(e, me) for e in self.entries]

    def _update_log_head(self, head: Static) -> None:
        entries = words.count(len(self.entries), "entry")
        head.update(f"Log · {entries}" if self.entries else "Log · empty: tap Swap to start")

    def _update_log_buttons(self) -> None:
        super()._update_log_buttons()
        self.query_one("#mx-do-answers", Tap).disabled = mm.pending_announcement(self.entries) is None

    def _status_text(self) -> tuple[str, bool]:
        """The status line: what the solver says now, and what to do next (and whether it is a problem)."""
        if self.state in ("contradiction", "error"):
            where = [f"#{i + 1}" for i in sorted(self.conflict)]
            if self.opening_conflict:
                where.insert(0, "the opening")
            if self.state == "contradiction" and where:
                what = f"No layout fits: {' + '.join(where)} cannot all be true"
            else:
                what = self.problem.splitlines()[0] if self.problem else "The notes cannot be read"
            return f"⚠ {what}. Nothing was cut: Edit, Delete or Undo (the grid is from before).", True
        if self.state == "solving" and self.result is None:
            return "Solving…", False
        r = self.result
        if r is None:
            return "", False
        parts = [mm.mode_text(r)]
        pend = mm.pending_announcement(self.entries)
        adv = r.get("advice") or {}
        if pend and pend[1] != self.config.get("me") and adv.get("pending"):
            p = adv["pending"]
            parts.append(f"{p['by']} announced the {mm.mask_name(p['mask'])}: "
                         f"{'CLAIM' if p['claim'] else 'pass'} advised")
        elif adv.get("best"):
            parts.append("your turn: " + self._best_text(adv["best"]))
        if self.state == "solving":
            parts.append("solving…")
        return " · ".join(parts), False

    @staticmethod
    def _best_text(best: dict[str, Any]) -> str:
        action = best.get("action")
        if action == "announce":
            return f"announce the {mm.mask_name(best.get('mask', ''))}"
        if action == "swap":
            how = "really swap" if best.get("swapped") else "pretend to swap"
            return f"{how} with {mm.place_title(str(best.get('with')))}"
        return str(action or "")

    def _update_status(self) -> None:
        status = self.query_one("#mx-status", Static)
        text, problem = self._status_text()
        status.update(Content(text))
        status.set_class(problem, "-problem")

    def _draw_grid(self) -> None:
        r = self.result
        stale = self.state in ("contradiction", "error")
        scroll = self.query_one("#mx-grid-scroll")
        scroll.set_class(stale, "-stale")
        head = self.query_one("#mx-grid-head", Static)
        if r is None:
            head.update("Seats × masks")
            self.query_one("#mx-grid", Static).update(
                "No grid yet: the log has a problem." if stale else "Solving…")
            self.query_one("#mx-mine", Static).update("")
            return
        head.update("Seats × masks · STALE (from before the problem)" if stale
                    else "Seats × masks · % chance · ✓ certain · ✗ never")
        self.query_one("#mx-grid", Static).update(self._grid_text(r))
        self.query_one("#mx-mine", Static).update(self._mine_text())

    def on_click(self, event: events.Click) -> None:
        """A tap on a seat's row of the grid: why its ✓ and ✗ are certain (the tapped one first)."""
        geom = getattr(self, "_grid_geom", None)
        if event.widget is None or event.widget.id != "mx-grid" or geom is None:
            return
        name_w, width, masks, places = geom
        row, x = event.y - 1, event.x - 1
        if not 0 <= row < len(places):
            return
        place = places[row]
        col = (x - name_w) // width if x >= name_w else -1
        first = None
        certain = (getattr(self, "result", None) or {}).get("certain", {})
        if 0 <= col < len(masks):
            mask = masks[col]
            if certain.get("at", {}).get(place) == mask:
                first = ("at", place, mask)
            elif mask in certain.get("not", {}).get(place, []):
                first = ("not", place, mask)
        self.open_why(f"Why? {mm.place_title(place)}", wanted=lambda f: f[1] == place, first=first)

    def _grid_text(self, r: dict[str, Any]) -> Text:
        """Seats x masks: the chance (%) of each mask at each place, ✓ certain, ✗ certainly not."""
        masks = mm.masks_of(self.config)
        places = mm.places_of(self.config)
        me = self.config.get("me")
        name_w = max(6, *(len(mm.place_title(p)) + 1 for p in places)) + (2 if me else 0)
        name_w = min(name_w, 12)
        full = max(len(mm.mask_name(m)) + 1 for m in masks)
        # full mask names when the grid still leaves room for the log and the advice beside it
        long = not self.narrow and name_w + full * len(masks) + 6 <= self.app.size.width * 0.6
        heads = {m: (mm.mask_name(m) if long else mm.short_mask(m)) for m in masks}
        width = max(4, *(len(h) + 1 for h in heads.values()))
        if not self.narrow:
            self.query_one("#mx-grid-panel").styles.width = max(name_w + width * len(masks) + 6 + 2 + 8, 40)
        else:
            self.query_one("#mx-grid-panel").styles.width = None
        coins = (r.get("table") or {}).get("coins") or {}
        self._grid_geom = (name_w, width, list(masks), list(places))
        t = Text(no_wrap=True)
        t.append(f"{'':<{name_w}}", style="bold")
        for m in masks:
            t.append(f"{heads[m]:>{width}}", style="bold")
        t.append(f"{'coins':>6}\n", style="bold")
        for p in places:
            label = mm.place_title(p) + (" ◆" if p == me else "")
            t.append(f"{label[:name_w - 1]:<{name_w}}", style="bold")
            for m in masks:
                text, kind = mm.grid_cell(r, p, m)
                style = {"at": "bold green", "not": "dim red"}.get(kind, "")
                if kind == "p":
                    p_val = float(((r.get("probabilities") or {}).get(p) or {}).get(m, 0.0))
                    style = "bold yellow" if p_val >= 0.5 else ("" if p_val >= 0.1 else "dim")
                t.append(f"{text:>{width}}", style=style)
            t.append(f"{coins.get(p, ''):>6}\n")
        court = (r.get("table") or {}).get("court")
        t.append(f"◆ = me · court {words.count(court or 0, 'coin')}", style="dim")
        unsure = (r.get("table") or {}).get("coins_unsure") or []
        if unsure:  # the coins follow from the entries, except where the notes do not say (whom, which name)
            t.append(f"\n⚠ Coins unsure after entry #{unsure[0] + 1}: correct them with Coins (o).",
                     style="bold yellow")
        return t

    def _mine_text(self) -> Text:
        me = str(self.config.get("me"))
        t = Text()
        t.append("\nMy swaps and looks\n", style="bold underline")
        mine = [(i, e) for i, e in enumerate(self.entries) if isinstance(e, dict) and mm.is_mine(e, me)]
        if not mine:
            t.append("none yet", style="dim")
        for i, e in mine:
            t.append(f"#{i + 1} {mm.describe(e, me)}\n")
        return t

    def _update_advice(self) -> None:
        box = self.query_one("#mx-advice", Static)
        head = self.query_one("#mx-advice-head", Static)
        r = self.result
        if self.state in ("contradiction", "error") or r is None:
            head.update("Advice")
            box.update("Advice appears when the notes are consistent." if self.state != "solving" else "Solving…")
            return
        adv = r.get("advice") or {}
        head.update("Advice · expected gain in win-chance points (a model)")
        t = Text()
        pend = adv.get("pending")
        if pend:
            t.append(f"{pend['by']} announced the {mm.mask_name(pend['mask'])}: ", style="bold")
            t.append("counter-claim!" if pend["claim"] else "pass", style="bold green" if pend["claim"] else "bold")
            t.append(f" (claim {pend['ev_claim'] * 100:+.1f}, pass {pend['ev_pass'] * 100:+.1f})\n")
        best = adv.get("best")
        if best:
            t.append("My turn: ", style="bold")
            t.append(self._best_text(best) + "\n")
        ann = adv.get("announce") or {}
        if ann:
            t.append(f"{'Announce':<11}{'I hold':>7}{'gain':>7}\n", style="bold")
            for m, v in sorted(ann.items(), key=lambda kv: -kv[1].get("ev", 0)):
                ev = float(v.get("ev", 0)) * 100
                t.append(f"{mm.mask_name(m):<11}{round(float(v.get('p_hold', 0)) * 100):>6}%{ev:>+7.1f}\n",
                         style="green" if ev > 0 else "")
        cc = adv.get("counter_claim") or {}
        lines = []
        for m, who in cc.items():
            yes = [p for p, v in who.items() if v]
            if yes:
                lines.append(f"{mm.mask_name(m)} by {', '.join(yes)}")
        t.append("Counter-claim if announced: ", style="bold")
        t.append("; ".join(lines) if lines else "never, on these notes")
        box.update(t)


AssistScreen = MascaradeAssistScreen  # the name tui.app looks up for every game
