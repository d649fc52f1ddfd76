"""The replay of a finished game (issue 25): every moment of it, with every hidden card face up.

Why: after a loss players ask "how did they know?". The replay walks the game's states one action
at a time (``engine.replay``): the whole table as it was (each game's ``tui.<game>.replay.faceup``),
the rows that step changed highlighted, and that step's events as the log's sentences, told to the
seat whose eyes you borrow (private events are marked with whom they were shown to). Reached from
every end screen, from Resume for a finished game, and from ``unmask replay FILE``.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Static

from engine.registry import GAMES
from engine.replay import Replay
from solvers.beliefs import WHAT, Point, belief_series, cached_series, store_series
from solvers.reasons import Reason, explain, may_explain
from tui.widgets.braille import BrailleChart
from tui.widgets.choices import Btn
from tui.widgets.scroll import scroll_by_button


class ReplayModel:
    """What the replay screen draws at each step, as plain text (no widget): tested on its own."""

    def __init__(self, replay: Replay, seat: int = 0) -> None:
        self.replay = replay
        self.wing = importlib.import_module(f"tui.{replay.game}.replay")
        self.seat = seat % replay.players
        self._views: dict[int, dict] = {}
        self._explains: dict[int, bool] = {}

    def names(self) -> list[str]:
        return list(self._view(0)["players"])

    def _view(self, seat: int) -> dict:
        """A seat's view of the final state: names and labels for sentences (its events are not used)."""
        if seat not in self._views:
            self._views[seat] = self.replay.spec.view(self.replay.final, seat)
        return self._views[seat]

    def rows(self, k: int) -> list[tuple[str, str, bool]]:
        """(label, text, changed) of the whole table at step ``k``; changed: it differs from step ``k - 1``."""
        view = self._view(self.seat)
        now = self.wing.faceup(self.replay.steps[k].state, view)
        before = dict(self.wing.faceup(self.replay.steps[k - 1].state, view)) if k else {}
        return [(label, text, k > 0 and before.get(label) != text) for label, text in now]

    def event_lines(self, k: int) -> list[str]:
        """The sentences of step ``k``'s events: told to the chosen seat, or to whom a private one was shown."""
        names = self.names()
        out = []
        for n, ev, seats in self.replay.steps[k].events:
            told = self.seat if seats is None or self.seat in seats else seats[0]
            text = self.wing.event_text({**ev, "n": n}, self._view(told))
            if not text:
                continue
            if seats is not None and self.seat not in seats:
                text = f"[seen by {', '.join(names[s] for s in seats)}] {text}"
            out.append(text)
        return out

    def may_explain(self, k: int) -> bool:
        """Whether step ``k`` was a move by a bot that weighs its moves (cached: the footer asks often)."""
        if k not in self._explains:
            self._explains[k] = may_explain(self.replay, k)
        return self._explains[k]

    def why_lines(self, k: int, reason: Reason | None) -> list[str]:
        """The bot's reasons for step ``k``'s move in words; "not available" when they could not be rebuilt."""
        step = self.replay.steps[k]
        name = self.names()[step.seat] if step.seat is not None else "?"
        if reason is None:
            return [f"Step {k}: {name}'s reasons are not available.",
                    "Rebuilt from its seed at this step, the bot does not score this move as it was made."]
        view = self.replay.spec.view(self.replay.steps[k - 1].state, self.seat)  # named as the rest: to the chosen seat
        say = getattr(self.wing, "action_text", lambda a, v: " ".join(str(x) for x in a))
        lines = [f"Step {k}: why {name} (the strong bot) did this",
                 f"Made: {say(reason.action, view)} — {reason.measure} {reason.value:.0%}"]
        if reason.alternative is None or reason.alt_value is None:
            lines.append("It had no other move worth weighing.")
        else:
            lines.append(f"Best alternative: {say(reason.alternative, view)} — {reason.alt_value:.0%}")
            if reason.alt_value > reason.value:
                lines.append("Within a point of each other: the bot keeps the move its rules of thumb prefer.")
        lines.append(f"Its {reason.measure}: each move played to the end in worlds drawn from what it believed.")
        return lines

    def headline(self, k: int) -> str:
        step = self.replay.steps[k]
        last = len(self.replay) - 1
        who = "the deal" if step.seat is None else f"{self.names()[step.seat]} acted"
        return f"Step {k} of {last}: {who}"


class Timeline(Static):
    """The whole game as one bar: a tap anywhere jumps to that moment."""

    class Jump(Message):
        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    def __init__(self, steps: int, **kw: Any) -> None:
        super().__init__("", **kw)
        self.steps = steps
        self.at = 0

    def show(self, at: int) -> None:
        self.at = at
        self.refresh()

    def render(self) -> Text:
        width = max(1, self.content_region.width or self.size.width or 1)
        pos = self._column(self.at, width)
        bar = Text()
        bar.append("━" * pos, style="bold")
        bar.append("●", style="bold reverse")
        bar.append("─" * (width - pos - 1), style="dim")
        return bar

    def _column(self, step: int, width: int) -> int:
        last = max(1, self.steps - 1)
        return round(step * (width - 1) / last)

    def on_click(self, event: events.Click) -> None:
        width = max(1, self.content_region.width)
        last = max(1, self.steps - 1)
        x = min(max(event.x, 0), width - 1)
        self.post_message(self.Jump(round(x * last / max(1, width - 1))))


def belief_label(name: str, game: str, values: list[float | None], at: int, steps: int) -> str:
    """The line over the chart: whose belief, its value at this step, and when it became certain."""
    what = WHAT[game]
    if at >= len(values):
        now = f"working it out… ({len(values)} of {steps} steps)"
    else:
        v = values[at]
        now = "no number at this step" if v is None else f"{v:.0%} at this step".replace("100%", "certain")
    sure = [v is not None and v >= 1.0 - 1e-9 for v in values]
    tail = ""
    if sure and len(values) == steps + 1 and sure[-1]:  # certain at the end: since when, for good
        k = len(sure) - 1
        while k and sure[k - 1]:
            k -= 1
        tail = f" · certain from step {k} on"
    elif any(sure):
        tail = f" · first certain at step {sure.index(True)}"
    return f"{name}: {what} · {now}{tail}"


class ReplayScreen(Screen):
    """Step through a finished game: ←/→, Home/End, the buttons, or a tap on the timeline or the chart.

    The chart is the chosen seat's belief at every step (``solvers.beliefs``), computed in a worker
    and drawn as it comes; a whole series is kept in the session file (``path``), so the next
    opening draws it at once.
    """

    HELP_TITLE = "Replay"
    AUTO_FOCUS = "#replay-next"
    # Priority: the steps move whatever has the focus (a tapped pane would scroll with them instead).
    BINDINGS = [
        Binding("left", "step(-1)", "Back", id="replay-back", priority=True),
        Binding("right", "step(1)", "Next", id="replay-next", priority=True),
        Binding("home", "jump(0)", "Start", id="replay-start", priority=True),
        Binding("end", "jump(-1)", "End", id="replay-end", priority=True),
        Binding("s", "next_seat", "Seat", id="replay-seat"),
        Binding("w", "why", "Why this move?", id="replay-why"),
        Binding("b", "board", "Board", id="replay-board"),
        Binding("up", "scroll_table('up')", "Scroll up", show=False, id="replay-scroll-up"),
        Binding("down", "scroll_table('down')", "Scroll down", show=False, id="replay-scroll-down"),
        Binding("escape", "close", "Close", id="replay-close"),
    ]

    def __init__(self, replay: Replay, seat: int = 0, path: Path | None = None) -> None:
        super().__init__()
        self.model = ReplayModel(replay, seat)
        self.replay = replay
        self.path = path  # the session file the belief series are kept in (None: not kept)
        self.at = 0
        self.values: list[float | None] = []  # the chosen seat's belief per step, as far as computed
        self._generation = 0  # a seat change makes a running computation's points void
        self.board_shown = False  # the Board view (b): the play screen's map in place of the table rows

    def compose(self) -> ComposeResult:
        title = f"Replay · {GAMES[self.replay.game]}"
        yield Static(title, id="replay-title", classes="screen-title", markup=False)
        yield Static("", id="replay-head", markup=False)
        yield Timeline(len(self.replay), id="replay-timeline")
        with Horizontal(id="replay-body"):
            # Not focusable: the keys step the replay; ↑/↓ and the ▲/▼ buttons scroll the table.
            with VerticalScroll(id="replay-table-box", can_focus=False):
                yield Static("", id="replay-table")
            if hasattr(self.model.wing, "board"):
                board = self.model.wing.board(self.replay.final)
                board.display = False
                yield board
            with VerticalScroll(id="replay-events-box", can_focus=False):
                yield Static("", id="replay-events")
        yield Static("", id="replay-chart-label", markup=False)
        yield BrailleChart(len(self.replay), id="replay-chart")
        with Horizontal(classes="button-row", id="replay-buttons"):
            yield Btn("|◀", id="replay-start", tooltip="Start (Home)")
            yield Btn("◀ Back", id="replay-back", variant="primary")
            yield Btn("Next ▶", id="replay-next", variant="primary")
            yield Btn("▶|", id="replay-end", tooltip="End (End)")
            yield Btn(self._seat_label(), id="replay-seat")
            yield Btn("▲", id="replay-up", tooltip="Scroll the table up")  # a tablet cannot swipe
            yield Btn("▼", id="replay-down", tooltip="Scroll the table down")
            yield Btn("Close", id="replay-close")
        yield Footer()

    def on_mount(self) -> None:
        self.show(0)
        self._start_beliefs()

    # ----------------------------------------------------------------- beliefs

    @property
    def beliefs_done(self) -> bool:
        return len(self.values) == len(self.replay)

    def _start_beliefs(self) -> None:
        """The chosen seat's series: from the session file's cache, or computed in a worker."""
        self._generation += 1
        seat = self.model.seat
        cached = cached_series(self.replay.session, seat)
        if cached is not None:
            self.values = [p.p for p in cached]
            self._draw_chart()
            return
        self.values = []
        self._draw_chart()
        gen = self._generation
        self.run_worker(lambda: self._compute(gen, seat), thread=True, exclusive=True, group="beliefs",
                        exit_on_error=False)

    def _compute(self, gen: int, seat: int) -> None:
        """In a worker thread: the series, handed to the screen in batches (the first at once)."""
        batch: list[float | None] = []
        sent = [0.0]

        def hand_over(final: list[Point] | None = None) -> None:
            points, batch[:] = list(batch), []
            with contextlib.suppress(RuntimeError):  # the app may have closed meanwhile
                self.app.call_from_thread(self._got, gen, points, final)

        def on_point(point: Point) -> None:
            batch.append(point.p)
            now = time.monotonic()
            if now - sent[0] > 0.1:
                sent[0] = now
                hand_over()

        try:
            final = belief_series(self.replay, seat, on_point=on_point, stop=lambda: gen != self._generation)
        except Exception as e:  # a solver bug: one line, the replay goes on without its chart
            with contextlib.suppress(RuntimeError):
                self.app.call_from_thread(self._failed, gen, e)
            return
        hand_over(final)

    def _got(self, gen: int, points: list[float | None], final: list[Point] | None) -> None:
        if gen != self._generation:
            return
        self.values.extend(points)
        self._draw_chart()
        if final is not None and len(final) == len(self.replay):
            store_series(self.replay.session, self.model.seat, final)
            if self.path is not None:
                from tui.storage import keep_beliefs

                keep_beliefs(self.path, self.replay.session)

    def _failed(self, gen: int, error: Exception) -> None:
        if gen == self._generation:
            self.notify(f"The beliefs could not be worked out ({error.__class__.__name__}).",
                        title="No chart", severity="error", markup=False)

    def _draw_chart(self) -> None:
        name = self.model.names()[self.model.seat]
        self.query_one("#replay-chart-label", Static).update(
            belief_label(name, self.replay.game, self.values, self.at, len(self.replay) - 1))
        self.query_one(BrailleChart).plot(self.values, self.at)

    def on_braille_chart_jump(self, message: BrailleChart.Jump) -> None:
        self.show(message.step)

    def _seat_label(self) -> str:
        return f"As {self.model.names()[self.model.seat]} (s)"

    def show(self, k: int) -> None:
        """Draw step ``k`` (clamped to the game)."""
        self.at = k = min(max(k, 0), len(self.replay) - 1)
        self.query_one("#replay-head", Static).update(self.model.headline(k))
        self.query_one(Timeline).show(k)
        table = Text()
        for label, text, changed in self.model.rows(k):
            table.append(f"{label}: ", style="bold")
            table.append(text, style="reverse" if changed else "")
            table.append("\n")
        self.query_one("#replay-table", Static).update(table)
        if self.board_shown:
            self.model.wing.draw_board(self.query_one("#board"), self.replay.spec.view(self.replay.steps[k].state,
                                                                                      self.model.seat))
        lines = self.model.event_lines(k) or ["(nothing to tell at this step)"]
        self.query_one("#replay-events", Static).update(Text("\n".join(lines)))
        self.query_one("#replay-back", Button).disabled = k == 0
        self.query_one("#replay-start", Button).disabled = k == 0
        last = len(self.replay) - 1
        self.query_one("#replay-next", Button).disabled = k == last
        self.query_one("#replay-end", Button).disabled = k == last
        self.refresh_bindings()
        focused = self.focused
        if focused is None or focused.disabled:  # a tap on End took Next's focus away: keep one visibly focused
            self.query_one("#replay-back" if k == last else "#replay-next", Button).focus()
        if self.is_mounted:
            self._draw_chart()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key that would change nothing (Back at the deal, End at the end) is shown greyed."""
        last = len(self.replay) - 1
        if action == "step" and parameters:
            return True if 0 <= self.at + int(str(parameters[0])) <= last else None
        if action == "board":  # only where the game's play screen has a board map (Clue)
            return hasattr(self.model.wing, "board")
        if action == "why":  # only where the bot that moved weighed its moves: never a made-up number
            return self.model.may_explain(self.at)
        if action == "jump" and parameters:
            return True if self.at != (last if int(str(parameters[0])) < 0 else 0) else None
        return True

    def action_scroll_table(self, what: str) -> None:
        scroll_by_button(self.query_one("#replay-table-box"), what)

    def action_step(self, delta: int) -> None:
        self.show(self.at + delta)

    def action_jump(self, k: int) -> None:
        self.show(len(self.replay) - 1 if k < 0 else k)

    def action_next_seat(self) -> None:
        self.model = ReplayModel(self.replay, self.model.seat + 1)
        self.query_one("#replay-seat", Button).label = self._seat_label()
        self.show(self.at)
        self._start_beliefs()

    def action_board(self) -> None:
        """Swap the table rows for the board as it was, and back."""
        if not hasattr(self.model.wing, "board"):
            return
        self.board_shown = not self.board_shown
        self.query_one("#replay-table-box").display = not self.board_shown
        self.query_one("#board").display = self.board_shown
        self.show(self.at)

    def action_why(self) -> None:
        if self.model.may_explain(self.at):
            self.app.push_screen(WhyPanel(self.model, self.at))

    def action_close(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()

    def on_timeline_jump(self, message: Timeline.Jump) -> None:
        self.show(message.step)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"replay-start": lambda: self.action_jump(0), "replay-back": lambda: self.action_step(-1),
                   "replay-next": lambda: self.action_step(1), "replay-end": lambda: self.action_jump(-1),
                   "replay-seat": self.action_next_seat, "replay-close": self.action_close,
                   "replay-up": lambda: scroll_by_button(self.query_one("#replay-table-box"), "up"),
                   "replay-down": lambda: scroll_by_button(self.query_one("#replay-table-box"), "down")}
        action = actions.get(event.button.id or "")
        if action:
            event.stop()
            action()


class WhyPanel(ModalScreen[None]):
    """The strong bot's reasons for one step's move: its value and the best alternative's.

    Worked out in a worker (the bot is rebuilt from its seed and searches again), so the replay
    never stalls; the panel says so until the answer comes.
    """

    HELP_TITLE = "Why this move?"
    BINDINGS = [Binding("escape", "close", "Close", id="why-close-key")]

    def __init__(self, model: ReplayModel, k: int) -> None:
        super().__init__()
        self.model = model
        self.k = k
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="why-box"):
            yield Static("Why this move?", classes="dialog-title")
            yield Static("Working it out…", id="why-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Close (esc)", id="why-close", variant="primary")

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True, group="why", exit_on_error=False)

    def _work(self) -> None:
        try:
            lines = self.model.why_lines(self.k, explain(self.model.replay, self.k))
        except Exception as e:  # a solver bug: one line, never a traceback
            lines = [f"The reasons could not be worked out ({e.__class__.__name__})."]
        with contextlib.suppress(RuntimeError):  # the app may have closed meanwhile
            self.app.call_from_thread(self._show, lines)

    def _show(self, lines: list[str]) -> None:
        self.done = True
        self.query_one("#why-text", Static).update("\n".join(lines))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "why-close":
            event.stop()
            self.action_close()

    def action_close(self) -> None:
        if self.app.screen is self:
            self.app.pop_screen()
