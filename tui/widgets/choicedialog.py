"""Modal questions of the play screens that one tap answers: a group of :class:`Choices` and a way out.

They never submit anything themselves: the play screen's callback gets the value picked (or None),
so an illegal choice still ends in the engine's own sentence.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen
from textual.widgets import Button

from tui.widgets.choices import Choices


class OnceDialog(ModalScreen[Any]):
    """A dialog that answers once.

    A burst of Enter presses (or a double tap) queues several picks before the first is handled;
    each would dismiss again, and Textual's ``dismiss`` pops whatever screen is on top, so the second
    one popped the play screen (a blank screen, or Home). Only the first dismissal counts, and only
    while this dialog is the screen on top.
    """

    _answered = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._answered or self.app.screen is not self:
            return AwaitComplete.nothing()
        self._answered = True
        return super().dismiss(result)


class ChoiceDialog(OnceDialog):
    """Answered by a pick in its (first) :class:`Choices`, which has the focus; Escape or the button
    ``cancel_id`` closes it without an answer (None)."""

    cancel_id = "cancel"

    def on_mount(self) -> None:
        self.query_one(Choices).focus()

    def on_choices_chosen(self, event: Choices.Chosen) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == self.cancel_id:
            self.dismiss(None)


class OptionsDialog(ChoiceDialog):
    """The question of decision ``kind``: a title, what the seat knows (``text``), the options to pick from.

    Ids follow the kind: the options are ``#{kind}-opt`` and the way out ``#{kind}-cancel``."""

    def __init__(self, kind: str, title: str, text: str, options: list[tuple[str, Any]], columns: int = 1) -> None:
        super().__init__()
        self.kind = kind
        self.title_text = title
        self.text = text
        self._options = options
        self.columns = columns
        self.cancel_id = f"{kind}-cancel"

    def options(self) -> list[tuple[str, Any]]:
        return list(self._options)
