"""The Masque assistant's table: who sits where, how many Rumor cards each holds, who can hold which slot.

The notes are the solver's table notes (``draw``, ``ask``, ``give``, ``count``; ``docs/masque.md``),
kept in the assistant's one log, so one solver answers the bots and the table. This screen shows
the exact belief per player and slot (the chance of holding at least one card of it) and the slot
to name to each player; its note dialog enters a Flirt, Swindle, Threaten, Menace (any look or
take with a slot named), a draw, a Confidant gift or a counted hand in a few taps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Static

from engine import words
from engine.masque import ROOMS, SLOTS
from tui.assist.dialog import AssistEntryDialog
from tui.assist.widgets import ASSIST_CSS, BREAKPOINTS_H, BREAKPOINTS_V, KeyBar, Picker, Tap, run_button

__all__ = ["ACTIONS", "MasqueTableScreen", "TableNoteDialog", "build_note", "table_text"]

# what happened -> (the note's type, look or take, second look, label)
ACTIONS: dict[str, tuple[str, str | None, bool, str]] = {
    "flirt": ("ask", "look", False, "Flirt"),
    "swindle": ("ask", "look", False, "Swindle"),
    "swindle2": ("ask", "look", True, "Swindle 2nd"),
    "threaten": ("ask", "take", False, "Threaten"),
    "menace": ("ask", "take", False, "Menace"),
    "look": ("ask", "look", False, "Other look"),
    "take": ("ask", "take", False, "Other take"),
    "draw": ("draw", None, False, "Drew"),
    "give": ("give", None, False, "Gave"),
    "count": ("count", None, False, "Count"),
}
PLAYERS = range(4, 8)


def default_names(n: int, seat: int) -> list[str]:
    """Seat names when none are typed: mine is "Me"."""
    return ["Me" if i == seat else f"Seat {i + 1}" for i in range(n)]


def table_config(config: Mapping[str, Any], n: int, seat: int, typed: str) -> tuple[dict | None, str]:
    """The config with the table set up, or None and why (names typed in seat order, commas between)."""
    names = [x.strip() for x in typed.split(",") if x.strip()] if typed.strip() else default_names(n, seat)
    if len(names) != n:
        return None, f"Type {n} names (in seat order, commas between), or none for the default names."
    if len(set(names)) != n:
        return None, "Every player needs a different name."
    return {**config, "table": True, "players": names, "me": names[seat]}, ""


def build_note(kind: str, by: str | None, target: str | None, slot: str | None, matched: bool | None,
               offered: int | None, card_slot: str | None, room: str | None, count: int | None, me: str,
               sizes: Mapping[str, int]) -> tuple[dict | None, str]:
    """The note the dialog's picks make, or None and what is still missing."""
    t, how, second, label = ACTIONS[kind]
    if by is None:
        return None, "Pick who " + ("drew" if t == "draw" else "gave" if t == "give" else
                                    "holds the cards" if t == "count" else "played it") + "."
    if t == "count":
        if count is None:
            return None, "Pick how many Rumor cards."
        return {"type": "count", "player": by, "cards": count}, ""
    if t == "draw":
        if by != me:
            return {"type": "draw", "by": by}, ""
        if card_slot is None or room is None:
            return None, "Pick the card you drew: its slot and room."
        return {"type": "rumor", "card": f"{card_slot} {room}"}, ""
    if target is None or target == by:
        return None, "Pick " + ("whom it was given to." if t == "give" else "whose hand it reached.")
    mine = me in (by, target)
    if t == "give":
        e: dict = {"type": "give", "by": by, "target": target, "action": "Confidant"}
    else:
        if slot is None:
            return None, "Pick the slot named."
        if matched is None:
            return None, "Pick the answer: did a card of that slot come?"
        if matched:
            n = offered or 1
        else:
            n = max(1, sizes.get(target, 1) - (1 if second else 0))
        e = {"type": "ask", "by": by, "target": target, "slot": slot, "matched": matched, "offered": n,
             "how": how, "action": label}
        if second:
            e["second"] = True
        if matched:
            card_slot = slot
    if mine:
        if card_slot is None or room is None:
            return None, "Pick the card that was shown or changed hands: its slot and room."
        e["card"] = f"{card_slot} {room}"
    return e, ""


def table_text(result: Mapping[str, Any] | None, wide: bool, slot: str | None = None) -> Text:
    """Per player: Rumor cards, the chance (%) of holding at least one card of each slot (✓ surely, ·
    surely not), the slot to name when asking them, and who can still hold a card of ``slot``."""
    t = Text()
    table = (result or {}).get("table")
    if not result:
        t.append("Solving…", style="dim")
        return t
    if result.get("status") != "ok":
        t.append("The notes do not fit together: see the log.", style="bold red")
        return t
    if not table:
        t.append("No table yet: set it up below.", style="dim")
        return t
    w = max(4, min(10, max(len(r["name"]) for r in table["players"])))
    t.append("Holds a card of the slot, % (✓ surely, · surely not)\n", style="bold underline")
    t.append(f"{'Player':<{w}} Cd" + "".join(f"{s:>6}" for s in SLOTS) + ("  Ask for" if wide else "") + "\n",
             style="bold")
    for row in table["players"]:
        style = "bold" if row["me"] else ""
        t.append(f"{row['name'][:w]:<{w}} {row['cards']:>2}", style=style)
        holds = row.get("holds")
        for s in SLOTS:
            if holds is None:
                t.append(f"{'?':>6}", style="dim")
                continue
            p = holds[s]
            text, st = ((f"{'✓':>6}", "bold green") if p > 1 - 1e-9 else (f"{'·':>6}", "dim") if p < 1e-9
                        else (f"{round(p * 100):>6}", "yellow" if p >= 0.5 else ""))
            t.append(text, style=st)
        if wide and _useful(row):
            t.append(f"  {row['ask']['slot']} +{row['ask']['gain']:.1%}")
        t.append("\n")
    if not wide:
        asks = [f"{r['name']} {r['ask']['slot']}" for r in table["players"] if _useful(r)]
        if asks:
            t.append("Ask for: ", style="bold")
            t.append(", ".join(asks) + "\n")
    if slot in SLOTS and all(r.get("holds") for r in table["players"]):
        can = [r["name"] + (" (surely)" if r["holds"][slot] > 1 - 1e-9 else "")
               for r in table["players"] if r["holds"][slot] >= 1e-9]
        t.append(f"Who can hold a {slot} card: ", style="bold")
        t.append((", ".join(can) if can else "nobody at the table") + "\n")
    if not table["exact"]:
        t.append(table.get("message", ""), style="dim")
    return t


def _useful(row: Mapping[str, Any]) -> bool:
    """A slot to name only when asking could teach me something."""
    return bool(row.get("ask")) and row["ask"]["gain"] > 1e-12


class TableNoteDialog(AssistEntryDialog):
    """One table note: a look or take with the slot named and the answer, a draw, a gift, a count."""

    PREFIX = BUTTONS = "mt"
    SCOPED_CSS = False
    CSS = """
    TableNoteDialog .mt-dlg-label { height: 1; text-style: bold; color: $text-muted; margin: 0; }
    TableNoteDialog #mt-dlg-body { height: 1fr; }
    TableNoteDialog #mt-dlg-inner { height: auto; }
    """
    BINDINGS: ClassVar = [
        Binding("tab", "app.focus_next", "Next group", id="masque.table.next"),
        Binding("ctrl+s", "save", "Save", id="masque.table.save"),
        Binding("escape", "cancel", "Cancel", id="masque.table.cancel"),
    ]
    HELP_TITLE = "Masque table note"

    def __init__(self, config: Mapping[str, Any], sizes: Mapping[str, int]) -> None:
        super().__init__()
        self.players: list[str] = list(config["players"])
        self.me = str(config["me"])
        self.sizes = dict(sizes)

    def _title(self) -> str:
        return "Table note: what happened"

    def _body(self) -> ComposeResult:
        people = [(p, p) for p in self.players]
        cols = min(4, len(self.players))
        with Vertical(id="mt-dlg-inner"):
            yield Picker([(v[3], k) for k, v in ACTIONS.items()], columns=5, allow_none=False, id="mt-pick-kind")
            yield Static("Who played it", id="mt-lbl-by", classes="mt-dlg-label")
            yield Picker(people, columns=cols, allow_none=False, id="mt-pick-by")
            yield Static("From whom", id="mt-lbl-target", classes="mt-dlg-label")
            yield Picker(people, columns=cols, allow_none=False, id="mt-pick-target")
            yield Static("Slot named", id="mt-lbl-slot", classes="mt-dlg-label")
            yield Picker([(s, s) for s in SLOTS], columns=6, allow_none=False, id="mt-pick-slot")
            yield Static("Answer", id="mt-lbl-matched", classes="mt-dlg-label")
            yield Picker([("A card of that slot came", True), ("No card of that slot", False)], columns=2,
                         allow_none=False, id="mt-pick-matched")
            yield Static("Cards of that slot offered", id="mt-lbl-offered", classes="mt-dlg-label")
            yield Picker([(str(n), n) for n in range(1, 6)], columns=5, allow_none=False, id="mt-pick-offered")
            yield Static("The card's slot", id="mt-lbl-cslot", classes="mt-dlg-label")
            yield Picker([(s, s) for s in SLOTS], columns=6, allow_none=False, id="mt-pick-cslot")
            yield Static("The card's room", id="mt-lbl-room", classes="mt-dlg-label")
            yield Picker([(r.title(), r) for r in ROOMS], columns=7, allow_none=False, id="mt-pick-room")
            yield Static("Rumor cards in the hand", id="mt-lbl-count", classes="mt-dlg-label")
            yield Picker([(str(n), n) for n in range(11)], columns=11, allow_none=False, id="mt-pick-count")

    def _first_preview(self) -> str:
        return "Pick who played it."

    def on_mount(self) -> None:
        self._pick("kind").set_value("flirt")
        self._pick("offered").set_value(1)
        self._apply()
        self._pick("kind").focus()

    def _pick(self, name: str) -> Picker:
        return self.query_one(f"#mt-pick-{name}", Picker)

    def _values(self) -> dict[str, Any]:
        return {n: self._pick(n).value for n in ("kind", "by", "target", "slot", "matched", "offered", "cslot",
                                                 "room", "count")}

    def _apply(self) -> None:
        """Show only what this kind of note needs, and the preview of what Save would add."""
        v = self._values()
        t = ACTIONS[v["kind"]][0]
        mine = self.me in (v["by"], v["target"]) if t in ("ask", "give") else v["by"] == self.me
        show = {
            "target": t in ("ask", "give"),
            "slot": t == "ask", "matched": t == "ask", "offered": t == "ask" and v["matched"] is True,
            "cslot": mine and t != "count" and not (t == "ask" and v["matched"] is True),
            "room": mine and t != "count",
            "count": t == "count",
        }
        for name, on_ in show.items():
            self._pick(name).display = on_
            self.query_one(f"#mt-lbl-{name}").display = on_
        self.query_one("#mt-lbl-by", Static).update(
            {"draw": "Who drew a Rumor card", "give": "Who gave (Confidant)", "count": "Whose hand"}.get(
                t, "Who played it"))
        self.query_one("#mt-lbl-target", Static).update("To whom" if t == "give" else "From whom")
        entry, problem = self.build()
        from tui.masque.assist import entry_text

        self._preview(None if entry is None else entry_text(entry), problem)

    def build(self) -> tuple[Any, str]:
        v = self._values()
        return build_note(v["kind"], v["by"], v["target"], v["slot"], v["matched"], v["offered"], v["cslot"],
                          v["room"], v["count"], self.me, self.sizes)

    @on(Picker.Changed)
    def _changed(self, event: Picker.Changed) -> None:
        event.stop()
        self._apply()


class MasqueTableScreen(Screen[None]):
    """The table: set it up once (players in seat order, my seat), then the belief and the note dialog."""

    CSS_PATH = ASSIST_CSS
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS_H
    VERTICAL_BREAKPOINTS = BREAKPOINTS_V
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #mt-title { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    #mt-body { height: 1fr; padding: 0 1; }
    #mt-table { height: auto; }
    #mt-setup { height: auto; }
    MasqueTableScreen .mt-dlg-label { height: 1; text-style: bold; margin: 1 0 0 0; }
    #mt-buttons { height: auto; }
    #mt-buttons Tap { margin: 0 1 0 0; }
    """
    BINDINGS: ClassVar = [
        Binding("ctrl+s", "start", "Start the table", id="masque.table.start"),
        Binding("n", "note", "Table note", id="masque.table.note"),
        Binding("escape", "close", "Back", id="masque.table.back"),
    ]
    HELP_TITLE = "Masque table"

    def __init__(self, owner: Any) -> None:
        super().__init__()
        self.owner = owner  # the assistant screen: it holds the session's config and log

    @property
    def ready(self) -> bool:
        return bool(self.owner.config.get("table"))

    def compose(self) -> ComposeResult:
        yield Static("Masque table · who can hold which slot", id="mt-title")
        with VerticalScroll(id="mt-body"):
            yield Static(id="mt-table")
            yield Static("Who can hold a card of (tap a slot):", classes="mt-dlg-label", id="mt-slot-label")
            yield Picker([(x, x) for x in SLOTS], columns=6, allow_none=False, id="mt-slot")
            with Vertical(id="mt-setup"):
                yield Static("Players at the table", classes="mt-dlg-label")
                yield Picker([(str(n), n) for n in PLAYERS], columns=4, allow_none=False, id="mt-setup-n")
                yield Static("My seat (clockwise from the first player)", classes="mt-dlg-label")
                yield Picker([(str(i + 1), i) for i in range(max(PLAYERS))], columns=7, allow_none=False,
                             id="mt-setup-seat")
                yield Static("Names in seat order, commas between (optional)", classes="mt-dlg-label")
                yield Input(placeholder="Ann, Bob, Me, Dee", id="mt-setup-names")
                yield Static("", id="mt-setup-problem")
        with Horizontal(id="mt-buttons"):
            yield Tap("Start the table (^s)", id="mt-start", variant="primary")
            yield Tap("Table note (n)", id="mt-note", variant="primary")
            yield Tap("Back (esc)", id="mt-back")
        yield KeyBar(id="ax-keys")

    def on_mount(self) -> None:
        self.query_one("#mt-setup-n", Picker).set_value(4)
        self.query_one("#mt-setup-seat", Picker).set_value(0)
        self.query_one("#mt-slot", Picker).set_value(self.owner.query_one("#mq-slot").value or SLOTS[0])
        self.refresh_table()

    def refresh_table(self) -> None:
        """Redraw from the assistant's latest answer (it calls this after every solve)."""
        ready = self.ready
        self.query_one("#mt-setup").display = not ready
        self.query_one("#mt-start").display = not ready
        self.query_one("#mt-note").display = ready
        wide = self.size.width >= 100 or self.app.size.width >= 100
        slot = self.query_one("#mt-slot", Picker).value
        self.query_one("#mt-slot").display = ready
        self.query_one("#mt-slot-label").display = ready
        self.query_one("#mt-table", Static).update(table_text(self.owner.result, wide, slot) if ready else Text(
            "Set up the table: how many play, where you sit and (optionally) their names. Then note every "
            "draw, look, take and gift: the table shows who can still hold each time slot.", style="dim"))
        self.refresh_bindings()
        focused = self.focused
        if focused is None or not focused.display or not focused.parent or not focused.parent.display:
            self.query_one("#mt-slot" if ready else "#mt-setup-n", Picker).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Start only before the table is set up; notes only after."""
        if action == "note":
            return True if self.ready else None
        if action == "start":
            return not self.ready  # gone once the table is set up
        return True

    def action_start(self) -> None:
        n = self.query_one("#mt-setup-n", Picker).value
        seat = self.query_one("#mt-setup-seat", Picker).value
        problem = self.query_one("#mt-setup-problem", Static)
        if seat is None or n is None or seat >= n:
            problem.update(f"My seat is one of 1 to {n}.")
            return
        config, why = table_config(self.owner.config, n, seat, self.query_one("#mt-setup-names", Input).value)
        if config is None:
            problem.update(why)
            return
        problem.update("")
        self.owner.set_table(config)
        self.refresh_table()

    def action_note(self) -> None:
        if not self.ready:
            return
        sizes = {r["name"]: r["cards"] for r in ((self.owner.result or {}).get("table") or {}).get("players", [])}

        def done(entry: dict | None) -> None:
            if entry is not None:
                self.owner.add_note(entry)

        self.app.push_screen(TableNoteDialog(self.owner.config, sizes), done)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _buttons(self, event: Button.Pressed) -> None:
        actions: dict[str, Callable[[], object]] = {"mt-start": self.action_start, "mt-note": self.action_note,
                                                    "mt-back": self.action_close}
        run_button(event, actions)

    @on(Picker.Changed, "#mt-slot")
    def _slot_changed(self, event: Picker.Changed) -> None:
        event.stop()
        self.refresh_table()

    def on_resize(self) -> None:
        self.refresh_table()


def count_words(n: int) -> str:
    return words.count(n, "Rumor card")
