"""The Masque play screen: one human seat at a :class:`solvers.table.Table`, the other seats bots.

The screen reads only its seat's view and acts only through ``table.submit`` / ``table.undo``.
Bots move one action per ``app.bot_delay`` seconds on a timer (all at once when the delay is 0).
The safe-room grid comes from ``solvers.masque.solver.solve`` run in a thread worker on the log
that this seat's events give. After every change the session is saved atomically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Static, TabbedContent, TabPane

from engine.core import IllegalAction
from engine.masque import ROOMS, SLOTS
from tui.masque import model as m
from tui.widgets.boardcell import BoardCell
from tui.widgets.botloop import UNDO_HELP
from tui.widgets.choices import Btn
from tui.widgets.draw import DrawOnce
from tui.widgets.logview import LogView
from tui.widgets.playseat import PlaySeat

if TYPE_CHECKING:
    from solvers.table import Table

TABS = ("tab-log", "tab-cards", "tab-risk", "tab-nobles", "tab-midnight")
SUB_DECISIONS = {"target", "ask", "give", "look", "peek", "return"}


class RoomCell(BoardCell):
    """One room of the abbey ring; a click moves (or places, or waltzes) there."""


class PlayScreen(PlaySeat, DrawOnce, Screen):
    """Abbey ring, cards, safe-room grid, nobles, midnight; an action bar; bots play on a timer."""

    HELP_TITLE = "Masque of the Red Death: play"
    AUTO_FOCUS = None
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #ring { grid-size: 4 2; grid-gutter: 0 1; height: 1fr; min-height: 8; }
    RoomCell { width: 1fr; height: 1fr; background: $boost; overflow: hidden; padding: 0 1; pointer: pointer; }
    RoomCell:hover { background: $primary 30%; }
    RoomCell.-reachable { background: $success 45%; }
    RoomCell.-here { text-style: bold; }
    RoomCell.-red-death { background: $error 40%; }
    #route-cell { width: 1fr; height: 1fr; padding: 0 1; color: $text-muted; overflow: hidden; }
    #track { height: auto; max-height: 2; padding: 0 1; }
    #rumor-strip { display: none; height: auto; max-height: 6; padding: 0 1; background: $boost; }
    Screen.-tall #rumor-strip { display: block; }
    """
    BINDINGS = [
        Binding("a", "act", "Act…", id="masque-act"),
        Binding("p", "plan", "Plan…", id="masque-plan"),
        Binding("y", "ready", "Ready", id="masque-ready"),
        Binding("z", "undo", "Undo", tooltip=UNDO_HELP, id="masque-undo"),
        Binding("f", "results", "Results", id="masque-results"),
        Binding("1", "tab(0)", "Log tab", show=False, id="masque-tab-log"),
        Binding("2", "tab(1)", "Cards tab", show=False, id="masque-tab-cards"),
        Binding("3", "tab(2)", "Risk tab", show=False, id="masque-tab-risk"),
        Binding("4", "tab(3)", "Nobles tab", show=False, id="masque-tab-nobles"),
        Binding("5", "tab(4)", "Midnight tab", show=False, id="masque-tab-midnight"),
        Binding("escape", "app.home", "Home", id="masque-home"),
    ]

    def __init__(self, table: Table, seat: int, session_id: str) -> None:
        super().__init__(table, seat, session_id)
        self.solved: dict | None = None
        self._solved_for = -1
        self._steps: list[dict] | None = None  # the midnight play-out (model.midnight_steps)
        self._step_i = 0  # how many of its steps the board shows
        self._midnight_timer: Timer | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="play-main"):
            with Vertical(id="play-left"):
                with Grid(id="ring"):
                    for room in ROOMS:
                        yield RoomCell(room, id=f"room-{room}", classes="room")
                    yield Static(id="route-cell")
                yield Static(id="track")
                yield Static(id="rumor-strip")
            with TabbedContent(id="side", initial="tab-log"):
                with TabPane("Log", id="tab-log"):
                    yield LogView(id="log")
                with TabPane("Cards", id="tab-cards"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="cards")
                with TabPane("Risk", id="tab-risk"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="risk")
                with TabPane("Who", id="tab-nobles"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="nobles")
                with TabPane("Night", id="tab-midnight"), VerticalScroll(classes="side-scroll"):
                    yield Static(id="midnight")
        yield Static(id="prompt")
        with Horizontal(id="actions"):
            yield Btn("Act… (a)", id="act-act", classes="act", variant="primary")
            yield Btn("Plan… (p)", id="act-plan", classes="act")
            yield Btn("Ready (y)", id="act-ready", classes="act")
            yield Btn("Undo (z)", id="act-undo", classes="act", tooltip=UNDO_HELP)
            yield Btn("Results (f)", id="act-results", classes="act", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.sync()

    # ----------------------------------------------------------------- the loop

    def _after_redraw(self) -> None:
        self._solve()

    def _game_over(self) -> None:
        self._start_midnight()

    def _stop_timer(self) -> None:
        super()._stop_timer()
        if self._midnight_timer is not None:
            self._midnight_timer.stop()
            self._midnight_timer = None

    def _maybe_ask(self) -> None:
        """Open the action list by itself for the steps inside a card (whom to ask, which card…)."""
        v = self.view
        if v["to_act"] != self.seat or v["phase"] not in SUB_DECISIONS:
            return
        if self._first_ask((len(self.table.log), v["phase"])):
            self.action_act()

    # ----------------------------------------------------------------- midnight, slot by slot

    def _ensure_steps(self) -> None:
        """At the end, split midnight into the steps the board plays out (all at once when instant)."""
        if not self.view["over"] or self._steps is not None:
            return
        self._steps = m.midnight_steps(self.view)
        instant = self.app.bot_delay <= 0 or self._end_shown  # type: ignore[attr-defined]
        self._step_i = len(self._steps) if instant else min(1, len(self._steps))

    def _step(self) -> dict | None:
        """The midnight step the board shows now (None before midnight)."""
        if not self._steps or not self._step_i:
            return None
        return self._steps[self._step_i - 1]

    def _replaying(self) -> bool:
        return bool(self._steps) and self._step_i < len(self._steps or [])

    def _step_time(self) -> float:
        """How long a step stays on the board: twice the bot pace, longer for the reveal and for a death."""
        base = 2 * self.app.bot_delay  # type: ignore[attr-defined]
        step = self._step()
        if step is not None and (step["kind"] == "reveal" or step["killed"]):
            return 1.5 * base
        return base

    def _start_midnight(self) -> None:
        self._ensure_steps()
        steps = self._steps or []
        if self.app.bot_delay <= 0 and self._step_i < len(steps):  # type: ignore[attr-defined]
            self._step_i = len(steps)  # bots made instant meanwhile: show the end at once
            self._redraw()
        if self._step_i >= len(steps):
            if not self._end_shown:
                self._end_shown = True
                self.call_after_refresh(self.action_results)
            return
        if self._midnight_timer is None:
            self.query_one("#side", TabbedContent).active = "tab-midnight"
            self._midnight_timer = self.set_timer(self._step_time(), self._midnight_tick)

    def _midnight_tick(self) -> None:
        """Show the next step; after the last one, the end screen."""
        self._midnight_timer = None
        steps = self._steps or []
        self._step_i = min(self._step_i + 1, len(steps))
        self._redraw()
        self.query_one("#midnight", Static).parent.scroll_end(animate=False)  # type: ignore[union-attr]
        if self._step_i < len(steps):
            self._midnight_timer = self.set_timer(self._step_time(), self._midnight_tick)
        elif not self._end_shown:  # the last step stays a moment, then the end screen
            self._midnight_timer = self.set_timer(self._step_time(), self.action_results)

    # ----------------------------------------------------------------- drawing

    def _redraw(self) -> None:
        v = self.view
        self._ensure_steps()
        step = self._step()
        if step is not None and not self._end_shown:  # midnight is being played out
            self._put("#status", m.midnight_status(v, step))
            self._put("#prompt", Text(m.midnight_sentence(v, step) + "  (f: the results now)", style="bold"))
        else:
            self._put("#status", m.status_line(v))
            self._put("#prompt", Text(m.prompt(v), style="bold"))
        self._redraw_ring()
        self._put("#track", self._track_text())
        self._put("#rumor-strip", self._rumor_strip())
        self._render_log()
        self._put("#cards", self._cards_text())
        self._put("#risk", self._risk_text())
        self._put("#nobles", self._nobles_text())
        self._put("#midnight", self._midnight_text())
        self._render_actions()

    def _positions(self) -> list[str | None]:
        """Where each noble stands: live, or at midnight at the step the board shows (the dead where they fell)."""
        step = self._step()
        return step["positions"] if step is not None else self.view["positions"]

    def _dead(self) -> set[int]:
        step = self._step()
        if step is not None:
            return set(step["dead"])
        return {s for s, alive in enumerate(self.view["alive"]) if not alive}

    def _redraw_ring(self) -> None:
        v = self.view
        clicks = m.room_actions(v) if v["to_act"] == self.seat else {}
        pos = self._positions()
        step = self._step()
        red_now = set(step["red"]) if step is not None else set()
        moved = {mv[0]: mv[1] for mv in step["moves"]} if step is not None and step["kind"] == "move" else {}
        died = self._dead()
        for room in ROOMS:
            cell = self.query_one(f"#room-{room}", RoomCell)
            t = Text()
            t.append(f" {room.title()} ", style=m.ROOM_STYLE[room])
            if v["prince"] == room:
                t.append(" ♛", style="bold yellow")
            if room in red_now:
                t.append("☠", style="bold red")
            width = 5 if self.app.size.width < 110 else 9
            for s, p in enumerate(pos):
                if p == room:
                    label = "You" if s == self.seat else v["players"][s][:width]
                    mark = "☠" if s in died else m.ARROW[moved[s]] if s in moved else ""
                    t.append(
                        f"\n{mark}{label} {v['popularity'][s]}",
                        style="strike" if s in died else "bold green" if s == self.seat else "",
                    )
            key = t.markup
            if self._drawn.get(f"#room-{room}") != key:
                self._drawn[f"#room-{room}"] = key
                cell.update(t)
            cell.set_class(room in clicks, "-reachable")
            cell.set_class(room in red_now, "-red-death")
            cell.set_class(pos[self.seat] == room, "-here")
        self._put("#route-cell", self._route_text())

    def _route_text(self) -> Text:
        v = self.view
        t = Text()
        t.append("Prince next\n", style="bold")
        r = v["round"]
        nxt = v["prince_route"][r : r + 3] if r >= 1 else v["prince_route"][:3]
        t.append(" → ".join(x.title()[:3] for x in nxt) or "midnight")
        return t

    def _track_text(self) -> Text:
        """The popularity order in the two lines the track has: full names when they fit, else
        shortened ones (7 nobles at 80 columns need three lines, and the last noble was cut off)."""
        width = self.query_one("#track").content_size.width or max(20, self.app.size.width // 2 - 4)
        for cut in (None, 5, 3):
            t = self._track_line(cut)
            if len(t.wrap(self.app.console, width)) <= 2:
                break
        return t

    def _track_line(self, cut: int | None) -> Text:
        v = self.view
        t = Text()
        t.append("Popularity: ", style="bold")
        died = self._dead()
        for i, s in enumerate(reversed(v["order"])):
            if i:
                t.append(" > ", style="")
            label = "You" if s == self.seat else v["players"][s][:cut]
            dead = s in died
            t.append(
                f"{label} {v['popularity'][s]}", style="strike dim" if dead else "bold green" if s == self.seat else ""
            )
        return t

    def _rumor_strip(self) -> Text:
        v = self.view
        t = Text()
        t.append("Hand: ", style="bold")
        t.append(", ".join(m.card_name(c) for c in v["hand"]) or "none")
        t.append("\nRumors: ", style="bold")
        t.append(", ".join(v["rumors"]) or "none")
        t.append("\nPlan: ", style="bold")
        rooms = m.plan_rooms(v["positions"][self.seat], v["plan"])
        t.append(
            " ".join(f"{m.DIR_LABEL[d].split()[0]}{m.ROOM_ABBR[r]}" for d, r in zip(v["plan"], rooms, strict=True))
            if rooms
            else " ".join(m.DIR_LABEL[d].split()[0] for d in v["plan"])
        )
        return t

    def _render_log(self) -> None:
        events = self.view["events"]
        step = self._step()
        if step is not None:  # at midnight the log follows the board, never ahead of it
            events = [ev for ev in events if ev["n"] <= step["upto"]]
        self._show_events(self.query_one("#log", LogView), events, lambda ev: m.describe(ev, self.view),
                          self._log_style)

    def _log_style(self, ev: dict) -> str:
        mine = ev.get("seat") == self.seat and ev["t"] in ("draw", "look", "ask")
        return "bold" if ev["t"] in ("round", "end", "midnight") else "bold green" if mine else ""

    def _cards_text(self) -> Text:
        v = self.view
        t = Text()
        t.append("Action cards\n", style="bold underline")
        for c in v["hand"]:
            t.append(f"• {m.card_name(c)}", style="bold")
            t.append(f": {m.card_text(c)}\n")
        mine = v["discards"][self.seat]
        if mine:
            t.append("Discarded: " + ", ".join(m.card_name(c) for c in mine) + "\n", style="dim")
        t.append("\nRumor cards\n", style="bold underline")
        for c in v["rumors"]:
            t.append(f"• {c}\n")
        if not v["rumors"]:
            t.append("none\n", style="dim")
        t.append("\nMidnight plan\n", style="bold underline")
        rooms = m.plan_rooms(v["positions"][self.seat], v["plan"])
        for k, d in enumerate(v["plan"]):
            t.append(f"{SLOTS[k]} {m.DIR_LABEL[d]:<7} → {rooms[k].title() if rooms else '?'}\n")
        t.append(f"\nRumor deck: {v['deck']} · Evidence seen: {', '.join(v['evidence_discard']) or 'none'}\n")
        return t

    def _risk_text(self) -> Text:
        v = self.view
        r = self.solved
        t = Text()
        t.append("Chance of death, %\n", style="bold underline")
        t.append("Slot  " + "".join(f"{m.ROOM_ABBR[room]:>3}" for room in ROOMS) + "\n", style="bold")
        for slot, cells in m.risk_rows(r):
            t.append(f"{slot} ")
            for text, style in cells:
                t.append(text, style=style)
            t.append("\n")
        t.append("✓ surely safe  ✗ surely deadly\n", style="dim")
        if r and r.get("status") == "ok":
            best = r["best_plan"]
            t.append("\nBest plan ", style="bold")
            t.append(f"from {best['start'].title()}: {best['survival']:.0%}\n")
            t.append(" ".join(x.title()[:3] for x in best["rooms"]) + "\n")
            surv = m.plan_survival(v["positions"][self.seat], v["plan"], r["deadly"])
            if surv is not None:
                t.append("Your plan: ", style="bold")
                t.append(f"{surv:.0%}\n")
            ask = r.get("ask_slot") or {}
            if ask.get("slot"):
                t.append("Ask for: ", style="bold")
                t.append(f"{ask['slot']} (+{ask['gain']:.0%})\n")
        elif r:
            t.append(r.get("message", ""), style="red")
        return t

    def _nobles_text(self) -> Text:
        v = self.view
        t = Text()
        for s in reversed(v["order"]):
            where = v["positions"][s] or "dead"
            t.append(f"{m.name(v, s):<10}", style="bold green" if s == self.seat else "bold")
            t.append(f" {v['popularity'][s]:>3}  {where.title():<7} rumors {v['rumor_counts'][s]}\n")
            if v["discards"][s]:
                t.append("  played: " + ", ".join(m.card_name(c) for c in v["discards"][s]) + "\n", style="dim")
        t.append("\nThe Prince's route\n", style="bold underline")
        for i, (room, clock) in enumerate(zip(v["prince_route"], v["prince_slots"], strict=False)):
            here = i == v["round"] - 1
            t.append(
                f"{clock:>5} {room.title()}" + (" ◀ now" if here else "") + "\n", style="bold yellow" if here else ""
            )
        return t

    def _midnight_text(self) -> Text:
        v = self.view
        t = Text()
        if not v["midnight"]:
            t.append("Midnight has not struck yet.\n", style="dim")
            t.append(f"Red Death cards per slot: {v['red_death_per_slot']}.\n")
            return t
        steps = (self._steps or [])[: self._step_i]
        if v["plans"] and steps:
            t.append("Plans  " + "".join(f"{k[-2:]:>3}" for k in SLOTS) + "\n", style="bold underline")
            for s, plan in enumerate(v["plans"]):
                t.append(f"{m.name(v, s)[:6]:<7}" + "".join(f"{m.ARROW[d]:>3}" for d in plan) + "\n")
        if len(steps) > 1:
            t.append("\nSlot by slot\n", style="bold underline")
        for step in steps[1:]:
            slot = SLOTS[step["slot"]]
            if step["kind"] == "move":
                t.append(f"{slot} ", style="bold")
                t.append(m.midnight_moves_line(v, step["moves"]) + "\n")
                continue
            t.append("  Red Death: ")
            for i, room in enumerate(step["red"]):
                if i:
                    t.append(", ")
                t.append(room.title(), style=m.ROOM_STYLE.get(room, ""))
            killed = [m.name(v, s) for s in step["killed"]]
            t.append(
                "\n  " + ("dies: " + ", ".join(killed) if killed else "nobody dies") + "\n",
                style="bold red" if killed else "dim",
            )
        return t

    def _render_actions(self) -> None:
        v = self.view
        mine = v["to_act"] == self.seat
        legal = {a[0] for a in v["legal"]}
        self.query_one("#act-act", Button).display = not v["over"]
        self.query_one("#act-act", Button).disabled = not (mine and m.choice_actions(v))
        self.query_one("#act-plan", Button).display = not v["over"]
        self.query_one("#act-ready", Button).display = "ready" in legal
        undo = self.query_one("#act-undo", Button)
        undo.display = not v["over"]
        undo.disabled = not self._can_undo()
        self.query_one("#act-results", Button).display = v["over"]
        self.refresh_bindings()

    def _can_undo(self) -> bool:
        return self.table.undo_target(self.seat) is not None

    # ----------------------------------------------------------------- the solver

    def _solve(self) -> None:
        events = self.view["events"]
        last = events[-1]["n"] if events else -1
        if last == self._solved_for:
            return
        self._solved_for = last
        self._solve_worker(events)

    @work(thread=True, exclusive=True, exit_on_error=False, group="masque-solve")
    def _solve_worker(self, events: list[dict]) -> None:
        from solvers.masque.observations import log_from_events
        from solvers.masque.solver import SolverInputError, solve

        config, log = log_from_events(events, self.seat)
        try:
            result = solve(config, log)
        except SolverInputError as e:
            result = {"status": "error", "message": str(e)}
        self.app.call_from_thread(self._solved, result)

    def _solved(self, result: dict) -> None:
        self.solved = result
        if self.is_mounted:
            self._put("#risk", self._risk_text())

    # ----------------------------------------------------------------- acting

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        over = bool(self.view["over"])
        if action in ("undo", "act", "plan"):
            return not over
        if action == "ready":
            return any(a[0] == "ready" for a in self.view["legal"])
        if action == "results":
            return over
        return True

    def action_act(self) -> None:
        from tui.masque.dialogs import ActionDialog

        v = self.view
        if v["to_act"] != self.seat or not m.choice_actions(v):
            reason = self._why_not(("play", v["hand"][0] if v["hand"] else "jest"))
            self.notify(reason or "That is not possible now.", title="Not allowed", severity="warning")
            return
        self.app.push_screen(ActionDialog(v), self._chosen)

    def _chosen(self, action: Any) -> None:
        if action:
            self.submit(tuple(action))

    def action_plan(self) -> None:
        from tui.masque.dialogs import PlanDialog

        if self.view["over"]:
            return
        self.app.push_screen(PlanDialog(self.view, self.solved), self._plan_chosen)

    def _plan_chosen(self, plan: Any) -> None:
        if not plan:
            return
        changes = [(k, d) for k, d in enumerate(plan) if d != self.view["plan"][k]]
        if not changes:
            return
        for k, d in changes:
            try:
                self.table.submit(self.seat, ("tile", k, d))
            except IllegalAction as e:
                self.notify(str(e), title="Not allowed", severity="warning", markup=False)
                break
        self._save()
        self.sync()

    def action_ready(self) -> None:
        self.submit(("ready",))

    def action_results(self) -> None:
        from tui.masque.end import EndScreen

        if not self.table.is_over() or not self.is_attached:
            return
        self._stop_timer()
        self._step_i = len(self._steps or [])  # skip the rest of the play-out
        self._end_shown = True
        self._redraw()
        self.app.push_screen(EndScreen(self.view))

    def action_tab(self, index: int) -> None:
        self.query_one("#side", TabbedContent).active = TABS[index]
        if TABS[index] == "tab-log":
            self.query_one("#log").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        handlers = {
            "act-act": self.action_act,
            "act-plan": self.action_plan,
            "act-ready": self.action_ready,
            "act-undo": self.action_undo,
            "act-results": self.action_results,
        }
        if bid in handlers:
            handlers[bid]()

    def on_board_cell_clicked(self, event: BoardCell.Clicked) -> None:
        room: str = event.key
        v = self.view
        acts = m.room_actions(v) if v["to_act"] == self.seat else {}
        if room in acts:
            self.submit(tuple(acts[room]))
            return
        kind = v["phase"] if v["phase"] in ("place", "waltz", "move") else "move"
        self.submit((kind, room))
