"""The "Why is it certain?" view every assistant opens on a certain fact.

It lists the chosen certain facts (one, or the facts of one sheet row) and, under each, the
fewest notes that prove it, as sentences in log order, then "so …". The explanations come from
:mod:`solvers.explain` in an exclusive, cancellable thread worker, fact by fact as they are
found. Highlighting a note shows which certain facts would no longer be certain without it;
tapping it (or Enter) closes the view with that note's index, and the assistant jumps to the note
to edit it. Esc or Back returns to the assistant unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from solvers.why import explain_module, note_text

FactFilter = Callable[[Any], bool]


def note_label(mod: Any, config: Any, log: list[Any], i: int, me: str) -> str:
    """'#4 Cat could not show …' (numbered as the assistant's log shows it, from 1, in its words)."""
    if i < 0:
        return "· " + note_text(mod, config, log, i, me)
    return f"#{i + 1} " + note_text(mod, config, log, i, me)


def rests_on_note(game: str, config: dict[str, Any], log: list[Any], note: int) -> list[Any]:
    """The certain facts that would no longer be certain without ``note`` (runs in a worker)."""
    return explain_module(game).explainer(config, log).rests_on(note)


def rests_line(game: str, note: int, lost: list[Any], *, limit: int = 3) -> str:
    """One line under the log for a selected note: what rests on it, so a doubted note shows its worth."""
    if not lost:
        return f"Nothing rests on #{note + 1} alone: every certain fact stays certain without it."
    mod = explain_module(game)
    said = [mod.fact_sentence(f) for f in lost[:limit]]
    more = f" and {len(lost) - limit} more" if len(lost) > limit else ""
    facts = f"{len(lost)} certain fact{'' if len(lost) == 1 else 's'} rest{'s' if len(lost) == 1 else ''}"
    return f"{facts} on #{note + 1}: " + "; ".join(said) + more + " (y: why)"


class WhyScreen(ModalScreen[int | None]):
    """Dismisses with the log index of a tapped note (jump there to edit it), or None."""

    DEFAULT_CSS = """
    WhyScreen { align: center middle; }
    WhyScreen #why-box { width: 96%; max-width: 110; height: 90%; border: round $accent;
                         background: $surface; padding: 0 1; }
    WhyScreen #why-title { text-style: bold; height: auto; }
    WhyScreen #why-list { height: 1fr; border: none; }
    WhyScreen #why-rests { height: auto; max-height: 4; color: $text-muted; }
    WhyScreen #why-buttons { height: 3; align-horizontal: right; }
    """

    BINDINGS: ClassVar = [Binding("escape", "back", "Back", id="why.back")]

    def __init__(self, game: str, config: dict[str, Any], log: list[Any], *, title: str,
                 wanted: FactFilter | None = None, first: Any = None, resting_on: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.mod = explain_module(game)
        self.config = config
        self.notes_log = log
        self.me = str(config.get("me", "")) if isinstance(config, dict) else ""
        self.title_text = title
        self.wanted = wanted
        self.first = first
        self.resting_on = resting_on  # show only the facts that would not be certain without this note
        self.explainer: Any = None
        self.done = False
        self.shown: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="why-box"):
            yield Static(self.title_text, id="why-title")
            yield OptionList(id="why-list")
            yield Static("Finding the notes behind each fact…", id="why-rests")
            with Horizontal(id="why-buttons"):
                yield Button("Back (Esc)", id="why-back", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#why-list", OptionList).focus()
        self._explain()

    # ------------------------------------------------------------------ the worker

    @work(thread=True, exclusive=True, group="why", exit_on_error=False)
    def _explain(self) -> None:
        worker = get_current_worker()
        try:
            ex = self.mod.explainer(self.config, self.notes_log)
        except Exception as e:  # an unreadable log: the assistant already shows why
            self.app.call_from_thread(self._failed, str(e))
            return
        self.explainer = ex
        facts = [f for f in ex.facts if self.wanted is None or self.wanted(f)]
        if self.resting_on is not None:
            lost = set(ex.rests_on(self.resting_on))
            facts = [f for f in facts if f in lost]
        if self.first in facts:
            facts.remove(self.first)
            facts.insert(0, self.first)
        for fact in facts:
            if worker.is_cancelled:
                return
            notes = ex.why(fact)
            if worker.is_cancelled:
                return
            self.app.call_from_thread(self._add, fact, notes)
        self.app.call_from_thread(self._finished, len(facts))

    def _failed(self, message: str) -> None:
        self.done = True
        self.query_one("#why-rests", Static).update(f"Cannot explain: {message}")

    def _add(self, fact: Any, notes: list[int]) -> None:
        ol = self.query_one("#why-list", OptionList)
        k = len(self.shown)
        self.shown.append(fact)
        said = self.mod.fact_sentence(fact)
        said = said[0].upper() + said[1:]
        options: list[Option | None] = [] if k == 0 else [None]
        options.append(Option(f"• {said}. Why:", disabled=True))
        if not notes:
            options.append(Option("   no note needed: it follows from the setup and the events logged.", disabled=True))
        for i in notes:
            label = note_label(self.mod, self.config, self.notes_log, i, self.me)
            options.append(Option("   " + label, id=f"note-{k}-{i}"))
        if notes:
            options.append(Option(f"   so {self.mod.fact_sentence(fact)}.", disabled=True))
        ol.add_options(options)
        if k == 0 and notes:
            ol.highlighted = 1

    def _finished(self, count: int) -> None:
        self.done = True
        rests = self.query_one("#why-rests", Static)
        if count == 0 and self.resting_on is not None:
            rests.update("Nothing rests on this note: every certain fact stays certain without it.")
        elif count == 0:
            rests.update("Nothing here is certain yet.")
        elif self.query_one("#why-list", OptionList).highlighted is None:
            rests.update("Tap a note to jump to it and edit it.")

    # ------------------------------------------------------------------ notes

    @staticmethod
    def _note_of(option_id: str | None) -> int | None:
        if not option_id or not option_id.startswith("note-"):
            return None
        return int(option_id.split("-", 2)[2])  # "note-0--1": the opening is note -1, not note 1

    @staticmethod
    def _fact_index(option_id: str | None) -> int | None:
        if not option_id or not option_id.startswith("note-"):
            return None
        return int(option_id.split("-")[1])

    @on(OptionList.OptionHighlighted, "#why-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        note = self._note_of(event.option.id)
        k = self._fact_index(event.option.id)
        if note is not None and self.explainer is not None:
            # The line names the note highlighted now at once: an older answer never stays under it.
            label = "the opening" if note < 0 else f"note #{note + 1}"
            self.query_one("#why-rests", Static).update(f"What rests on {label}…")
            self._rests(note, self.shown[k] if k is not None and k < len(self.shown) else None)

    @work(thread=True, exclusive=True, group="rests", exit_on_error=False)
    def _rests(self, note: int, fact: Any = None) -> None:
        worker = get_current_worker()
        lost = self.explainer.rests_on(note)
        other = None
        if fact is not None and fact not in lost:  # the cited note can go: name the proof that remains
            other = self.explainer.why_without(fact, note)
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_rests, note, lost, fact, other)

    def _highlighted_note(self) -> int | None:
        ol = self.query_one("#why-list", OptionList)
        if ol.highlighted is None:
            return None
        return self._note_of(ol.get_option_at_index(ol.highlighted).id)

    def _show_rests(self, note: int, lost: list[Any], fact: Any = None, other: list[int] | None = None) -> None:
        if note != self._highlighted_note():  # a late answer for a note highlighted earlier
            return
        label = "the opening" if note < 0 else f"note #{note + 1}"
        if other is not None:
            # Cited, yet not needed: the fact has another proof. Say which, and what rests on the note.
            proof = ", ".join("the opening" if i < 0 else f"#{i + 1}" for i in other) or "the setup and the events"
            text = f"Without {label}, {self.mod.fact_sentence(fact)} still follows from {proof}"
            if lost:
                said = [self.mod.fact_sentence(f) for f in lost]
                more = f" and {len(said) - 4} more" if len(said) > 4 else ""
                text += "; only these would no longer be certain: " + "; ".join(said[:4]) + more
            text += "."
        elif not lost:
            text = f"Without {label} everything certain stays certain."
        else:
            said = [self.mod.fact_sentence(f) for f in lost]
            more = f" and {len(said) - 6} more" if len(said) > 6 else ""
            facts = f"{len(lost)} fact{'' if len(lost) == 1 else 's'}"
            text = f"Without {label}, {facts} would no longer be certain: " + "; ".join(said[:6]) + more
        self.query_one("#why-rests", Static).update(text + "  · Tap or Enter: jump to it and edit it.")

    @on(OptionList.OptionSelected, "#why-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        note = self._note_of(event.option.id)
        if note is not None:
            self.workers.cancel_group(self, "why")
            self.dismiss(note)

    @on(Button.Pressed, "#why-back")
    def _back(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_back()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "why")
        self.dismiss(None)
