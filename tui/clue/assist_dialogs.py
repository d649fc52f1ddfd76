"""Dialogs that turn a few taps into one log entry: my hand, face-up cards, a rumor, a reveal, an accusation.

Each dialog is a screen that dismisses with the new entry (a dict in the public
log format) or ``None`` when cancelled. Cards are button grids, people are button rows, and a
preview sentence says what will be logged, or what is still missing, before anything is saved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tui.assist.dialog import AssistEntryDialog
from tui.assist.widgets import Picker
from tui.clue import assist_model as m

NOBODY = "\x00nobody"
KINDS = ("hand", "face_up", "rumor", "reveal", "accusation")
TITLES = {
    "hand": "My hand",
    "face_up": "Face-up cards",
    "rumor": "A rumor",
    "reveal": "Cards revealed to everyone",
    "accusation": "A wrong accusation",
}
LABEL_WIDTH = 12


class EntryDialog(AssistEntryDialog):
    """Enter or edit one log entry of ``kind``; dismisses with the entry, or None when cancelled.

    A full (opaque) screen rather than a modal one: it covers the notes anyway, and a modal screen
    would redraw the whole sheet beneath it on every tap, which a tablet feels.
    """

    BINDINGS: ClassVar = [
        Binding("tab", "app.focus_next", "Next group", id="assist.dialog.next"),
        Binding("ctrl+s", "save", "Save", id="assist.dialog.save"),
        Binding("escape", "cancel", "Cancel", id="assist.dialog.cancel"),
    ]

    def __init__(self, kind: str, config: Mapping[str, Any], log: Sequence[Any] = (),
                 entry: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        assert kind in KINDS
        self.kind = kind
        self.config = config
        self.prior = list(log)
        self.entry = dict(entry) if entry else None
        self.players: list[str] = list(config["players"])
        self.me: str = config["me"]
        self.deck = m.deck_of(config)
        self.labels = m.short_labels(self.deck, config.get("board"), LABEL_WIDTH)
        self.passed_touched = False
        self.problem = ""

    # ------------------------------------------------------------------ layout

    @property
    def single(self) -> bool:
        """One card per category (a rumor or an accusation) rather than any set of cards."""
        return self.kind in ("rumor", "accusation")

    def _title(self) -> str:
        return TITLES[self.kind] if self.entry is None else f"Edit: {TITLES[self.kind].lower()}"

    def _body(self) -> ComposeResult:
        with Horizontal(id="ax-dlg-columns"):
            with Vertical(id="ax-dlg-cards"):
                for cat in m.CATEGORIES:
                    yield Static(m.CATEGORY_TITLES[cat], classes="ax-dlg-label")
                    options = [(self.labels[c], c) for c in self.deck[cat]]
                    yield Picker(options, multi=not self.single, columns=3, id=f"ax-pick-{cat}",
                                 classes="ax-cards")
            with Vertical(id="ax-dlg-people"):
                yield from self._people()

    def _people(self) -> ComposeResult:
        names = m.player_labels(self.players, 9)
        players = [(names[p], p) for p in self.players]
        if self.kind == "rumor":
            yield Static("Asked by", classes="ax-dlg-label")
            yield Picker(players, columns=3, allow_none=False, id="ax-pick-by")
            yield Static("Showed a card", classes="ax-dlg-label")
            yield Picker([*players, ("Nobody", NOBODY)], columns=3, id="ax-pick-shower")
            yield Static("Passed (could not show)", classes="ax-dlg-label")
            yield Picker(players, multi=True, columns=3, id="ax-pick-passed")
            yield Static("Card shown to me", classes="ax-dlg-label", id="ax-saw-label")
            yield Picker([("—", None)] * 3, columns=1, id="ax-pick-saw")
        elif self.kind == "accusation":
            yield Static("Accused by", classes="ax-dlg-label")
            yield Picker(players, columns=3, allow_none=False, id="ax-pick-by")
        elif self.kind == "reveal":
            targets = [(names.get(t) or m.holder_title(t), t) for t in m.reveal_targets(self.config)]
            yield Static("Revealed by", classes="ax-dlg-label")
            yield Picker(targets, columns=3, id="ax-pick-by")
        else:
            yield Static("", id="ax-dlg-help", classes="ax-dlg-help")

    def on_mount(self) -> None:
        self._reset()

    def prepare(self, log: Sequence[Any], entry: Mapping[str, Any] | None = None) -> EntryDialog:
        """Reuse this dialog for another entry: building one costs far more than refilling it."""
        self.prior = list(log)
        self.entry = dict(entry) if entry else None
        if self.is_mounted:
            self._reset()
        return self

    def _reset(self) -> None:
        self.passed_touched = False
        self.problem = ""
        title = TITLES[self.kind] if self.entry is None else f"Edit: {TITLES[self.kind].lower()}"
        self.query_one("#ax-dlg-title", Static).update(title)
        for picker in self.query(Picker):
            picker.current = 0
            picker.set_disabled_values([])
            picker.set_value([] if picker.multi else None)
        self._prefill()
        self._update()
        self.query_one("#ax-dlg-body", VerticalScroll).scroll_home(animate=False)
        self.query_one("#ax-pick-suspects", Picker).focus()  # every kind opens on the cards (issue 23)

    def _prefill(self) -> None:
        e = self.entry or {}
        cards = [c for c in e.get("cards") or [] if isinstance(c, str)]
        for cat in m.CATEGORIES:
            pick = self.query_one(f"#ax-pick-{cat}", Picker)
            mine = [c for c in cards if c in self.deck[cat]]
            pick.set_value(mine if pick.multi else (mine[0] if mine else None))
        if self.kind == "rumor":
            by = e.get("by") if e.get("by") in self.players else m.default_asker(self.prior, self.players)
            self.query_one("#ax-pick-by", Picker).set_value(by)
            if self.entry is not None:
                shower = e.get("shown_by")
                self.query_one("#ax-pick-shower", Picker).set_value(NOBODY if shower is None else shower)
                self.query_one("#ax-pick-passed", Picker).set_value(list(e.get("passed") or []))
                self.passed_touched = True
                self._refresh_saw()
                self.query_one("#ax-pick-saw", Picker).set_value(e.get("card"))
        elif self.kind == "accusation":
            by = e.get("by") if e.get("by") in self.players else m.default_asker(self.prior, self.players)
            self.query_one("#ax-pick-by", Picker).set_value(by)
        elif self.kind == "reveal":
            self.query_one("#ax-pick-by", Picker).set_value(e.get("player"))

    # ------------------------------------------------------------------ live state

    def _cards(self) -> list[str]:
        out: list[str] = []
        for cat in m.CATEGORIES:
            value = self.query_one(f"#ax-pick-{cat}", Picker).value
            if isinstance(value, list):
                out.extend(value)
            elif value is not None:
                out.append(value)
        return out

    def _my_hand(self) -> set[str] | None:
        i = m.last_index(self.prior, "hand")
        if i is None:
            return None
        return {c for c in self.prior[i].get("cards") or [] if isinstance(c, str)}

    def _saw_mode(self) -> str | None:
        """"asked" when I asked and someone showed, "showed" when I showed, else None."""
        by = self.query_one("#ax-pick-by", Picker).value
        shower = self.query_one("#ax-pick-shower", Picker).value
        if shower is None or shower == NOBODY:
            return None
        if by == self.me:
            return "asked"
        if shower == self.me:
            return "showed"
        return None

    def _refresh_saw(self) -> None:
        mode = self._saw_mode()
        saw = self.query_one("#ax-pick-saw", Picker)
        label = self.query_one("#ax-saw-label", Static)
        visible = mode is not None
        saw.display = visible
        label.display = visible
        chosen = [self.query_one(f"#ax-pick-{cat}", Picker).value for cat in m.CATEGORIES]
        saw.set_options([(self.labels[c], c) if c else ("—", None) for c in chosen])
        # I can only have shown a card of my hand, and only been shown one that is not (issue 23).
        hand = self._my_hand()
        showed = mode == "showed"
        label.update(self._showed_label() if showed else "Card shown to me")
        possible = [c for c in chosen if c and (hand is None or (c in hand) == showed)]
        saw.set_disabled_values([c for c in chosen if c and c not in possible])
        if mode is not None and saw.value is None and hand is not None and len(possible) == 1:
            saw.set_value(possible[0])

    def _showed_label(self) -> str:
        """"Card I showed", with which of my cards the asker has seen already (issue 23): showing one of
        those tells them nothing new."""
        by = self.query_one("#ax-pick-by", Picker).value
        seen = m.seen_by(self.config, self.prior).get(str(by), [])
        if not seen:
            return f"Card I showed ({by} has seen none of mine)"
        return f"Card I showed ({by} has seen {', '.join(self.labels.get(c, c) for c in seen)})"

    def _refresh_people(self) -> None:
        by = self.query_one("#ax-pick-by", Picker).value
        shower_pick = self.query_one("#ax-pick-shower", Picker)
        shower_pick.set_disabled_values([by] if by else [])
        shower = shower_pick.value
        passed = self.query_one("#ax-pick-passed", Picker)
        passed.set_disabled_values([p for p in (by, shower) if p and p != NOBODY])
        if not self.passed_touched and by:
            passed.set_value(m.default_passed(self.players, by, None if shower in (None, NOBODY) else shower)
                             if shower is not None else [])
        self._refresh_saw()

    def build(self) -> tuple[dict[str, Any] | None, str]:
        """The entry the dialog holds now, or None and what is still missing."""
        cards = self._cards()
        if self.kind == "hand":
            need = m.hand_sizes_of(self.config).get(self.me, 0)
            entry = {"type": "hand", "cards": cards}
            if len(cards) != need:
                return None, f"Tap the {need} cards in your hand ({len(cards)} picked so far)."
            return entry, ""
        if self.kind == "face_up":
            most = m.face_up_count(self.config)
            entry = {"type": "face_up", "cards": cards}
            if len(cards) > most:
                return None, f"Only {most} cards lie face up in this setup; {len(cards)} are picked."
            if not cards:
                return None, f"Tap the {most} face-up cards."
            return entry, ""
        if self.kind == "reveal":
            who = self.query_one("#ax-pick-by", Picker).value
            if who is None:
                return None, "Tap who revealed the cards."
            if not cards:
                return None, "Tap the revealed cards."
            return {"type": "reveal", "player": who, "cards": cards}, ""
        missing = [m.CATEGORY_TITLES[cat][:-1].lower() for cat in m.CATEGORIES
                   if self.query_one(f"#ax-pick-{cat}", Picker).value is None]
        by = self.query_one("#ax-pick-by", Picker).value
        if missing:
            wanted = [f"a {what}" for what in missing]  # "Tap a suspect, a weapon and a location."
            return None, "Tap " + (", ".join(wanted[:-1]) + " and " if len(wanted) > 1 else "") + wanted[-1] + "."
        if self.kind == "accusation":
            return {"type": "accusation", "by": by, "cards": cards, "correct": False}, ""
        shower = self.query_one("#ax-pick-shower", Picker).value
        if shower is None:
            return None, "Tap who showed a card, or Nobody."
        passed = self.query_one("#ax-pick-passed", Picker).value
        card = self.query_one("#ax-pick-saw", Picker).value if self._saw_mode() else None
        entry = m.rumor_entry(by, cards, passed, None if shower == NOBODY else shower, card)
        return entry, ""

    def _update(self) -> None:
        if self.kind == "rumor":
            self._refresh_people()
        elif self.kind in ("hand", "face_up"):
            help_text = self.query_one("#ax-dlg-help", Static)
            if self.kind == "hand":
                need = m.hand_sizes_of(self.config).get(self.me, 0)
                help_text.update(f"Tap the {need} cards in your hand.\n{len(self._cards())} of {need} picked.")
            else:
                most = m.face_up_count(self.config)
                help_text.update(f"Tap the cards lying face up.\n{len(self._cards())} of {most} picked.")
        entry, problem = self.build()
        self._preview(None if entry is None else m.describe(entry, self.me), problem)

    @on(Picker.Changed)
    def _picked(self, event: Picker.Changed) -> None:
        if event.picker.id == "ax-pick-passed":
            self.passed_touched = True
        elif event.picker.id in ("ax-pick-by", "ax-pick-shower"):
            self.passed_touched = False  # a new asker or shower: passed goes back to its default
        self._update()

    # ------------------------------------------------------------------ actions

