"""The Mascarade play screen: one human seat at a :class:`solvers.table.Table`, the other seats bots.

The screen reads only its seat's view and acts only through ``table.submit`` / ``table.undo``. What you believe
lies under each card comes from ``solvers.mascarade.solve`` fed with your own events (run in a
thread worker). Bots move one action per ``app.bot_delay`` seconds on a timer (all at once
when the delay is 0). After every change the session is saved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from tui.mascarade import model as m
from tui.widgets.botloop import UNDO_HELP
from tui.widgets.choices import Btn
from tui.widgets.draw import DrawOnce
from tui.widgets.logview import LogView
from tui.widgets.playseat import PlaySeat

if TYPE_CHECKING:
    from solvers.table import Table

NARROW_BELIEF = 20  # columns left for the belief in a row of the narrow table (44 wide: padding, border, seat, coins)
AUTO_DIALOG = {"claim", "power", "spy", "guru"}  # pending kinds that open their dialog by themselves


class PlayScreen(PlaySeat, DrawOnce, Screen):
    """The seats around the table, the courthouse, the log and an action bar; bots play on a timer."""

    HELP_TITLE = "Mascarade: play"
    AUTO_FOCUS = None
    BINDINGS = [
        *[Binding(key, f"act('{kind}')", desc, tooltip=full, id=f"mq-{kind}") for kind, key, desc, full in m.ACTIONS],
        # The same keys when the rules do not allow the action now: say why instead of doing nothing.
        *[Binding(key, f"illegal('{kind}')", desc, tooltip=full, show=False) for kind, key, desc, full in m.ACTIONS],
        Binding("z", "undo", "Undo", tooltip=UNDO_HELP, id="mq-undo"),
        Binding("f", "results", "Results", id="mq-results"),
        Binding("escape", "app.home", "Home", id="mq-home"),
    ]
    SCOPED_CSS = False  # the -wide breakpoint class sits on the screen; every id here is this screen's
    DEFAULT_CSS = """
    #mq-main { height: 1fr; }
    #mq-table { width: 44; height: 100%; padding: 0 1; border-right: tall $panel; }
    Screen.-wide #mq-table { width: 60; }
    #mq-log { width: 1fr; height: 100%; }
    #mq-status { height: 1; padding: 0 1; background: $panel; }
    #mq-prompt { height: auto; padding: 0 1; background: $primary 20%; }
    #mq-actions { height: 3; }
    Button.mq-act { min-width: 8; width: auto; margin: 0 1 0 0; }
    """

    def __init__(self, table: Table, seat: int, session_id: str) -> None:
        super().__init__(table, seat, session_id)
        self.probs: list | None = None  # the solver's probabilities per place (mask -> chance)
        self._probs_at: tuple[int, int] | None = None  # (undos, event count) they were computed for
        self._undos = 0  # how many undos so far: after one, an event count may name another position
        self._actions_drawn: tuple | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield Static(id="mq-status")
        with Horizontal(id="mq-main"):
            yield Static(id="mq-table")
            with Vertical(id="mq-log"):
                yield LogView(id="mq-logview")
        yield Static(id="mq-prompt")
        with Horizontal(id="mq-actions"):
            for kind, key, label, full in m.ACTIONS:
                yield Btn(f"{label} ({key})", id=f"act-{kind}", classes="mq-act", tooltip=full)
            yield Btn("Undo (z)", id="act-undo", classes="mq-act", tooltip=UNDO_HELP)
            yield Btn("Results (f)", id="act-results", classes="mq-act", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#mq-logview", LogView).styles.height = "100%"
        self._laid_out = False
        self.sync()
        self.call_after_refresh(self._first_layout)

    def on_resize(self) -> None:
        """The table's columns follow the width (narrow: one belief; wide: two and the masks' texts):
        redrawn as the size changes, not at the next move (issue 23)."""
        if "#mq-table" in self._drawn:  # drawn once already
            self._put("#mq-table", self._table_text())

    def _first_layout(self) -> None:
        """The first question waits for the board's first layout: a dialog pushed from ``on_mount``
        could cover a log that never got its width (an empty log behind the dialog)."""
        self._laid_out = True
        self._maybe_ask()

    # ----------------------------------------------------------------- the loop

    def _after_redraw(self) -> None:
        self._update_belief()

    def _maybe_ask(self) -> None:
        """Open the dialog the rules ask for now (claim or pass, a power's choice…), once per decision."""
        v = self.view
        pend = v["pending"] or {}
        if not getattr(self, "_laid_out", True) or v["to_act"] != self.seat or pend.get("kind") not in AUTO_DIALOG:
            return
        if self._first_ask((len(self.table.log), pend.get("kind"))):
            self.open_dialog("claim" if pend["kind"] == "claim" else "choose")

    # ----------------------------------------------------------------- beliefs

    def _belief_point(self) -> tuple[int, int]:
        """Which position beliefs belong to: the event count, and the undos before it (an undo and a
        different move can reach the same count with other events)."""
        events = self.view["events"]
        return self._undos, events[-1]["n"] + 1 if events else 0

    def _update_belief(self) -> None:
        at = self._belief_point()
        if at != self._probs_at:
            self._solve(self.view, at)

    @work(thread=True, exclusive=True, exit_on_error=False, group="mq-belief")
    def _solve(self, view: dict, at: tuple[int, int]) -> None:
        from solvers.mascarade import ObservationLog, solve

        try:
            obs = ObservationLog.from_view(view)
            res = solve(obs.config or {}, obs.log, advice=False)
        except Exception as e:  # beliefs are an aid: never take the game down
            self.app.call_from_thread(self._belief_failed, f"{e.__class__.__name__}: {e}")
            return
        probs = None
        if res.get("status") == "ok":  # by place index (the solver names table cards T1, T2…)
            probs = [res["probabilities"].get(name) for name in obs.places]
        self.app.call_from_thread(self._belief_ready, at, probs)

    def _belief_ready(self, at: tuple[int, int], probs: list | None) -> None:
        if at != self._belief_point() or not self.is_mounted:
            return  # an older answer: a newer one is on its way
        self._probs_at = at
        self.probs = probs
        self._put("#mq-table", self._table_text())

    def _belief_failed(self, message: str) -> None:
        self.notify(f"Beliefs unavailable: {message}".splitlines()[0], severity="warning", title="Beliefs")

    # ----------------------------------------------------------------- drawing

    def _redraw(self) -> None:
        v = self.view
        self._put("#mq-status", m.status_line(v))
        self._put("#mq-prompt", Text(m.prompt(v), style="bold"))
        self._put("#mq-table", self._table_text())
        self._render_log()
        self._render_actions()

    def _table_text(self) -> Text:
        from engine.mascarade import load_masks

        v = self.view
        probs = self.probs if self._probs_at is not None else None
        wide = self.app.size.width >= 110
        name_w = 14 if wide else 10
        t = Text()
        t.append(f"  {'Seat':<{name_w}} {'Coins':>5}    {'What you believe is there' if wide else 'Card'}\n",
                 style="bold")
        for row in m.place_rows(v, probs):
            if row.coins is None and row.place == len(v["players"]):
                t.append("\n")
            mark = "> " if row.to_act else "- " if row.turn else "  "
            name = m.place_label(v, row.place) if wide else row.name + ("*" if row.me and row.name != "You" else "")
            t.append(mark, style="bold yellow")
            t.append(f"{name[:name_w]:<{name_w}}", style="bold" if row.to_act or row.me else "")
            t.append(f" {row.coins:>5}" if row.coins is not None else f" {'':>5}")
            t.append("  ▮ ", style="dim")
            text = m.top_beliefs(v, probs, row.place, 2) if wide else m.belief_text(v, probs, row.place, NARROW_BELIEF)
            t.append(text, style="bold green" if row.sure else "yellow")
            t.append("\n")
        t.append("\n")
        t.append("Courthouse: ", style="bold")
        t.append(f"{m.coins_text(v['court'])}\n")
        ann = v["announcement"]
        if ann:
            t.append("Announced: ", style="bold")
            t.append(f"{m.place_name(v, ann['seat'])} → {m.mask_name(v, ann['mask'])}")
            if len(ann["claimants"]) > 1:
                t.append(" · claims: " + ", ".join(m.place_name(v, s) for s in ann["claimants"][1:]))
            t.append("\n")
        if wide:
            t.append("> to act  - whose turn  % = your belief (from what you saw)\n", style="dim")
            t.append("\nMasks in play\n", style="bold underline")
            masks = load_masks()
            for x in dict.fromkeys(v["masks"]):
                t.append(f"{m.mask_name(v, x)}: ", style="bold")
                t.append(masks[x].text + "\n")
        return t

    def _render_log(self) -> None:
        self._show_events(self.query_one("#mq-logview", LogView), self.view["events"],
                          lambda ev: m.describe(ev, self.view), self._log_style)

    def _log_style(self, ev: dict) -> str:
        if ev["t"] in ("look", "spy_look") and ev.get("seat") == self.seat:
            return "bold green"
        if ev["t"] in ("reveal", "fine", "verdict"):
            return "magenta"
        return "bold" if ev["t"] in ("turn", "end") else ""

    def _available(self) -> set[str]:
        return m.legal_kinds(self.view)

    def _render_actions(self) -> None:
        kinds = self._available()
        state = (frozenset(kinds), self.view["over"], self._can_undo())
        if state == self._actions_drawn:
            return
        self._actions_drawn = state
        for kind, *_ in m.ACTIONS:
            self.query_one(f"#act-{kind}", Button).display = kind in kinds
        undo = self.query_one("#act-undo", Button)
        undo.display = not self.view["over"]
        undo.disabled = not self._can_undo()
        self.query_one("#act-results", Button).display = self.view["over"]
        self.refresh_bindings()

    def _can_undo(self) -> bool:
        return self.table.undo_target(self.seat) is not None

    # ----------------------------------------------------------------- acting

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "act":
            return parameters[0] in self._available()
        if action == "undo":
            return not self.view["over"]
        if action == "results":
            return bool(self.view["over"])
        return True

    def action_act(self, kind: str) -> None:
        if kind in ("swap", "announce", "choose"):
            self.open_dialog(kind)
        else:
            self.submit((kind,))

    def action_illegal(self, kind: str) -> None:
        """The key of an action the rules do not allow now: let the engine say why."""
        v = self.view
        other = next(p for p in range(len(v["places"])) if p != self.seat)
        probes = {"swap": ("swap", other, False), "announce": ("announce", v["masks"][0]),
                  "choose": ("name", v["masks"][0])}
        reason = self._why_not(probes.get(kind, (kind,)))
        if reason is None:
            self.action_act(kind)
            return
        self.notify(reason, title="Not allowed", severity="warning", markup=False)

    def open_dialog(self, kind: str) -> None:
        from tui.mascarade import dialogs as d

        if kind not in self._available():
            self.action_illegal(kind)
            return
        v = self.view
        builders = {"swap": d.swap_dialog, "announce": d.announce_dialog, "claim": d.claim_dialog,
                    "choose": d.choice_dialog}
        self.app.push_screen(builders[kind](v), self._chosen)

    def _chosen(self, action: Any) -> None:
        if action:
            self.submit(tuple(action))

    def _undone(self) -> None:
        self._undos += 1  # beliefs of the taken-back moves are not shown, nor accepted late
        self.probs, self._probs_at = None, None

    def action_results(self) -> None:
        from tui.mascarade.end import EndScreen

        if not self.table.is_over():
            return
        # Every card is public once the game is over: the view says so, the state is never read here.
        cards = list(self.table.view(self.seat)["final_cards"] or [])
        self.app.push_screen(EndScreen(self.view, cards))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "act-results":
            self.action_results()
        elif bid == "act-undo":
            self.action_undo()
        elif bid.startswith("act-"):
            self._act_or_say_why(bid.removeprefix("act-"))
