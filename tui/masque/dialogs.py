"""The Masque dialogs: the action list and the midnight plan editor.

They only offer what the view allows and never submit anything themselves: the play screen's
callback does, so an illegal choice still ends in the engine's sentence.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from engine.masque import SLOTS
from tui.masque import model as m
from tui.widgets.choicedialog import ChoiceDialog, OnceDialog
from tui.widgets.choices import Btn, Choices

PLAN_DIRS = ("ccw", "stay", "cw")


class ActionDialog(ChoiceDialog):
    """Every legal action of this decision as a tappable list; picking one answers the dialog."""

    HELP_TITLE = "Your decision"

    BINDINGS = [Binding("escape", "close", "Close", id="masque-act-close")]
    cancel_id = "masque-act-cancel"
    DEFAULT_CSS = """
    #masque-act-scroll { height: auto; max-height: 16; }
    """
    # A card's whole text is what a player chooses by, so an option wraps onto more lines rather
    # than end in "…" at 80 columns. `CSS`, not `DEFAULT_CSS`: it must win over the app's one-line Choice.
    # No padding: a wrapping Button pads each line by its line-pad (1) instead.
    SCOPED_CSS = False  # the -tall rule below names this screen's own class
    CSS = """
    #masque-act { grid-rows: auto; }
    #masque-act > Choice { height: auto; text-wrap: wrap; text-overflow: fold; padding: 0; }
    ActionDialog.-tall #masque-act.-few > Choice { min-height: 3; }
    """

    def __init__(self, view: dict) -> None:
        super().__init__()
        self.view = view

    def options(self) -> list[tuple[str, list]]:
        return [(m.action_label(self.view, a), a) for a in m.choice_actions(self.view)]

    def compose(self) -> ComposeResult:
        opts = self.options()
        with Vertical(classes="dialog", id="masque-act-box"):
            yield Static("Your decision", classes="dialog-title")
            yield Static(m.prompt(self.view), classes="dialog-text")
            with VerticalScroll(id="masque-act-scroll"):
                yield Choices(
                    opts, columns=2 if len(opts) > 8 and self.view["phase"] != "choose" else 1, id="masque-act"
                )
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Cancel (esc)", id="masque-act-cancel")


class PlanDialog(OnceDialog):
    """The six Movement tiles of your midnight plan; dismisses with the new plan (or None)."""

    HELP_TITLE = "Your midnight plan"

    BINDINGS = [
        Binding("escape", "close", "Cancel", id="masque-plan-close"),
        Binding("s", "save", "Save", id="masque-plan-save"),
        Binding("b", "best", "Best plan", id="masque-plan-best"),
    ]
    DEFAULT_CSS = """
    .plan-row { height: auto; }
    .plan-slot { width: 7; }
    .plan-row Choices { width: 30; }
    .plan-room { width: 1fr; padding: 0 0 0 1; }
    #plan-summary { margin: 1 0 0 0; }
    """

    def __init__(self, view: dict, solved: dict | None) -> None:
        super().__init__()
        self.view = view
        self.solved = solved if solved and solved.get("status") == "ok" else None
        self.plan = list(view["plan"])
        self.start = view["positions"][view["seat"]]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="masque-plan-box"):
            yield Static("Your midnight plan", classes="dialog-title")
            yield Static(
                f"From {(self.start or '?').title()}, one Movement tile per time slot: "
                "↺ counter-clockwise, · stay, ↻ clockwise.",
                classes="dialog-text",
            )
            for k, slot in enumerate(SLOTS):
                with Horizontal(classes="plan-row"):
                    yield Static(slot, classes="plan-slot")
                    c = Choices(
                        [(m.DIR_LABEL[d], d) for d in PLAN_DIRS], columns=3, keep_selection=True, id=f"plan-{k}"
                    )
                    c.selected = PLAN_DIRS.index(self.plan[k])
                    c.current = c.selected
                    yield c
                    yield Static(id=f"plan-room-{k}", classes="plan-room")
            yield Static(id="plan-summary")
            with Horizontal(classes="dialog-buttons"):
                yield Btn("Save (s)", id="plan-save", variant="primary")
                yield Btn("Best plan (b)", id="plan-best", disabled=self.solved is None)
                yield Btn("Cancel (esc)", id="plan-cancel")

    def on_mount(self) -> None:
        self.query_one("#plan-0", Choices).focus()
        self._show()

    def _show(self) -> None:
        rooms = m.plan_rooms(self.start, self.plan)
        deadly = self.solved["deadly"] if self.solved else None
        for k, room in enumerate(rooms):
            risk = ""
            if deadly:
                p = deadly[SLOTS[k]][room]
                risk = " safe" if p <= 0 else " DEADLY" if p >= 1 else f" {round(p * 100)}% death"
            self.query_one(f"#plan-room-{k}", Static).update(f"→ {room.title()}{risk}")
        surv = m.plan_survival(self.start, self.plan, deadly)
        text = f"This plan survives with {surv:.0%}." if surv is not None else ""
        if self.solved:
            best = self.solved["best_plan"]
            text += f" Best plan: {best['survival']:.0%}."
        self.query_one("#plan-summary", Static).update(text)

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        event.stop()
        k = int((event.choices.id or "plan-0").rsplit("-", 1)[1])
        self.plan[k] = event.value
        self._show()

    def action_best(self) -> None:
        if not self.solved:
            return
        best = self.solved["best_plan"]
        if best["start"] != self.start:
            self.notify(f"The best plan starts in {best['start'].title()}.", title="Plan")
        self.plan = list(best["moves"])
        for k, d in enumerate(self.plan):
            c = self.query_one(f"#plan-{k}", Choices)
            c.selected = c.current = PLAN_DIRS.index(d)
            c._paint()
        self._show()

    def action_save(self) -> None:
        self.dismiss(list(self.plan))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "plan-save":
            self.action_save()
        elif bid == "plan-best":
            self.action_best()
        elif bid == "plan-cancel":
            self.dismiss(None)
