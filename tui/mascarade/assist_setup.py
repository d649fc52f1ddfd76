"""The setup form of the Mascarade assistant: seats, me, the mask set, the opening, the variant.

Everything is a tap except the names (which have defaults, so a table can be set up by taps
alone). The form edits a :class:`SetupData` and validates it only on Start; problems are listed
under the form and nothing typed is lost. The opening rows are rebuilt only when the set of
masks changes (player count or custom set), never on a pick.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from tui.assist.setup import AssistSetupForm
from tui.assist.widgets import Picker, Tap
from tui.mascarade import assist_model as mm

YES_NO = [("Yes", True), ("No", False)]


class SeatRow(Horizontal):
    """One seat: its name, "Me", and moves up and down the table."""

    def __init__(self, index: int) -> None:
        super().__init__(id=f"mx-seat-{index}", classes="mx-seat")
        self.index = index

    def compose(self) -> ComposeResult:
        i = self.index
        yield Static(f"{i + 1}.", classes="mx-seat-num")
        name = Input(id=f"mx-name-{i}", classes="ax-input mx-name", placeholder="name", max_length=16)
        name.cursor_blink = False
        yield name
        yield Tap("Me", id=f"mx-me-{i}", classes="mx-me")
        yield Tap("▲", id=f"mx-up-{i}", classes="ax-small")
        yield Tap("▼", id=f"mx-down-{i}", classes="ax-small")


class OpeningRow(Horizontal):
    """One place of the opening layout: the place and a grid of the masks in play."""

    def __init__(self, index: int, place: str, masks: list[str], gen: int) -> None:
        super().__init__(classes="mx-open-row")
        self.index = index
        self.gen = gen
        self.place = place
        self.masks = masks

    def compose(self) -> ComposeResult:
        yield Static(mm.place_title(self.place), classes="mx-open-label")
        yield Picker([(mm.mask_name(m), m) for m in self.masks], columns=min(6, len(self.masks)),
                     id=f"mx-op{self.gen}x{self.index}", classes="mx-open-pick")


class MascaradeSetupForm(AssistSetupForm):
    """The whole form; posts :class:`Done` with the config and the variant, or :class:`Cancelled`."""

    PREFIX = BUTTONS = "mx"

    BINDINGS: ClassVar = [
        Binding("ctrl+s", "start", "Start", id="mascarade.setup.start"),
        Binding("escape", "cancel", "Cancel", id="mascarade.setup.cancel"),
    ]

    def __init__(self, data: mm.SetupData | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.data = data or mm.SetupData()
        self._opening_key: tuple = ()
        self._gen = 0

    def _fields(self) -> ComposeResult:
        d = self.data
        yield Static("Players", classes="ax-label")
        yield Picker([(str(k), k) for k in range(mm.MIN_PLAYERS, mm.MAX_PLAYERS + 1)], columns=9,
                     allow_none=False, selected=[d.count], id="mx-count")
        yield Static("Names in seat order, clockwise · tap Me on your own seat", classes="ax-hint")
        for i in range(mm.MAX_PLAYERS):
            yield SeatRow(i)
        yield Static("Masks", classes="ax-label")
        yield Picker([("Printed set for this count", False), ("Custom set", True)], columns=2,
                     allow_none=False, selected=[d.custom], id="mx-setkind", classes="mx-choice")
        yield Picker([(mm.mask_name(m), m) for m in mm.all_masks()], multi=True, columns=4,
                     selected=d.custom_masks, id="mx-custom")
        yield Static("", id="mx-summary")
        yield Static("Opening (every card shown face up before the first turn)", classes="ax-label")
        yield Picker([("I saw it", True), ("Not seen", False)], columns=2, allow_none=False,
                     selected=[d.opening_seen], id="mx-open-seen", classes="mx-choice")
        yield Vertical(id="mx-opening")
        yield Static("Variant", classes="ax-label")
        yield Static("Card revealed last turn", classes="mx-opt-label")
        yield Picker([("Can't announce (BGA)", "no-announce"), ("Must swap (printed)", "must-swap")],
                     columns=2, allow_none=False, selected=[d.variant["revealed_rule"]],
                     id="mx-var-revealed", classes="mx-choice")
        yield Static("Spy may use table cards", classes="mx-opt-label")
        yield Picker(YES_NO, columns=2, allow_none=False, selected=[d.variant["spy_table"]],
                     id="mx-var-spy", classes="mx-choice")
        yield Static("Fool may use table cards", classes="mx-opt-label")
        yield Picker(YES_NO, columns=2, allow_none=False, selected=[d.variant["fool_table"]],
                     id="mx-var-fool", classes="mx-choice")
        yield Static("Claims as evidence (a claim makes its mask 3× likelier there)", classes="mx-opt-label")
        yield Picker([("Off (only reveals count)", False), ("On, ×3", True)], columns=2, allow_none=False,
                     selected=[d.claims_evidence], id="mx-var-claims", classes="mx-choice")

    def on_mount(self) -> None:
        self.refresh_form()

    # ------------------------------------------------------------------ data -> widgets

    def refresh_form(self) -> None:
        """Draw ``self.data`` into the widgets."""
        d = self.data
        for i in range(mm.MAX_PLAYERS):
            row = self.query_one(f"#mx-seat-{i}", SeatRow)
            row.display = i < d.count
            if i >= d.count:
                continue
            name = self.query_one(f"#mx-name-{i}", Input)
            if name.value != d.names[i]:
                name.value = d.names[i]
            me = self.query_one(f"#mx-me-{i}", Tap)
            me.label = "● Me" if i == d.me else "Me"
            me.set_class(i == d.me, "-on")
            self.query_one(f"#mx-up-{i}", Tap).disabled = i == 0
            self.query_one(f"#mx-down-{i}", Tap).disabled = i == d.count - 1
        self.query_one("#mx-custom").display = d.custom
        self.query_one("#mx-summary", Static).update(d.summary() + (
            f"  Custom: {len(d.cards())} of {d.needed()} cards picked (the Peasant is a pair)." if d.custom else ""))
        self.query_one("#mx-opening").display = d.opening_seen
        self._refresh_opening()
        self._show_errors()

    def _refresh_opening(self) -> None:
        d = self.data
        places = d.places()
        masks = list(dict.fromkeys(d.cards()))
        key = (tuple(places), tuple(masks))
        box = self.query_one("#mx-opening", Vertical)
        if key != self._opening_key:
            self._opening_key = key
            d.opening = {i: m for i, m in d.opening.items() if i < len(places) and m in masks}
            box.remove_children()
            self._gen += 1
            if masks:
                box.mount_all([OpeningRow(i, p, masks, self._gen) for i, p in enumerate(places)])
            self.call_after_refresh(self._paint_opening)
            return
        for row in box.query(OpeningRow):
            if row.index < len(places):
                row.place = places[row.index]  # what a row not composed yet will show
            labels = row.query(".mx-open-label")
            if row.index < len(places) and labels and row.is_attached:  # a row not composed yet has its title
                labels.first(Static).update(mm.place_title(places[row.index]))
        self._paint_opening()

    def _paint_opening(self) -> None:
        d = self.data
        left = d.opening_left()
        for row in self.query(OpeningRow):
            picks = row.query(Picker)
            if not picks or not row.is_attached:
                continue  # a row of an older rebuild (being removed) or one not composed yet: its own repaint follows
            pick = picks.first()
            mine = d.opening.get(row.index)
            pick.set_disabled_values([m for m, k in left.items() if k <= 0 and m != mine])
            if pick.value != mine:
                pick.set_value(mine)

    # ------------------------------------------------------------------ widgets -> data

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        wid = event.input.id or ""
        if wid.startswith("mx-name-"):
            i = int(wid.rsplit("-", 1)[1])
            if self.data.names[i] != event.value:
                self.data.names[i] = event.value
                self._refresh_opening()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.screen.focus_next()

    @on(Picker.Changed)
    def _picked(self, event: Picker.Changed) -> None:
        event.stop()
        d = self.data
        pid = event.picker.id or ""
        if pid == "mx-count":
            d.count = int(event.value)
            d.me = min(d.me, d.count - 1)
        elif pid == "mx-setkind":
            d.custom = bool(event.value)
            if d.custom and not d.custom_masks:
                d.custom_masks = list(dict.fromkeys(mm.standard_set(d.count)))
                self.query_one("#mx-custom", Picker).set_value(d.custom_masks)
        elif pid == "mx-custom":
            d.custom_masks = list(event.value)
        elif pid == "mx-open-seen":
            d.opening_seen = bool(event.value)
        elif event.picker.has_class("mx-open-pick") and isinstance(event.picker.parent, OpeningRow):
            i = event.picker.parent.index
            if event.value is None:
                d.opening.pop(i, None)
            else:
                d.opening[i] = event.value
                d.autocomplete_opening()
        elif pid == "mx-var-revealed":
            d.variant["revealed_rule"] = event.value
        elif pid == "mx-var-spy":
            d.variant["spy_table"] = bool(event.value)
        elif pid == "mx-var-fool":
            d.variant["fool_table"] = bool(event.value)
        elif pid == "mx-var-claims":
            d.claims_evidence = bool(event.value)
        self.refresh_form()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        d = self.data
        if bid.startswith(("mx-me-", "mx-up-", "mx-down-")):
            event.stop()
            what, i = bid.split("-")[1], int(bid.rsplit("-", 1)[1])
            if what == "me":
                d.me = i
            else:
                j = i - 1 if what == "up" else i + 1
                if not 0 <= j < d.count:
                    return
                d.names[i], d.names[j] = d.names[j], d.names[i]
                if d.me in (i, j):
                    d.me = j if d.me == i else i
                # the opening moves with the seat: the card stays in front of the same person
                oi, oj = d.opening.pop(i, None), d.opening.pop(j, None)
                if oi is not None:
                    d.opening[j] = oi
                if oj is not None:
                    d.opening[i] = oj
            self.refresh_form()

    def _checked(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None, list[str]]:
        config, variant, errors = self.data.validate()
        return config, {"variant": variant}, errors
