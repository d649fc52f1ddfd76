"""The Mascarade dialogs: one modal pick list, built from the view's legal actions.

Each dialog dismisses with an action tuple (or None); the play screen submits it, so an
illegal choice still ends in the engine's sentence.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tui.mascarade.model import mask_name, place_name
from tui.widgets.choicedialog import OptionsDialog
from tui.widgets.choices import Btn, Choices


class PickDialog(OptionsDialog):
    """A title, a sentence, one group of options; picking one answers the dialog."""

    BINDINGS = [Binding("escape", "close", "Close", id="dialog-close")]

    def __init__(self, kind: str, title: str, text: str, options: list[tuple[str, Any]], columns: int = 1,
                 close_label: str = "Later") -> None:
        super().__init__(kind, title, text, options, columns)
        self.close_label = close_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id=f"{self.kind}-box"):
            yield Static(self.title_text, classes="dialog-title", markup=False)  # names are text, never markup
            # The options first, then the text, in a body that scrolls: with 12 players the powers'
            # text alone is taller than 24 rows, and the Later button stays below it on screen.
            with VerticalScroll(classes="dialog-body"):
                yield Choices(self._options, columns=self.columns, id=f"{self.kind}-opt", classes="big")
                if self.text:
                    yield Static(self.text, classes="dialog-text", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Btn(f"{self.close_label} (esc)", id=f"{self.kind}-cancel")


class ClaimDialog(PickDialog):
    """Claim or pass: the keys the prompt below names (c, p) answer here too, as the buttons do."""

    BINDINGS = [Binding("c", "answer('claim')", "Claim", show=False),
                Binding("p", "answer('pass')", "Pass", show=False)]

    def action_answer(self, kind: str) -> None:
        self.dismiss((kind,))


def _legal(view: dict, kind: str) -> list[tuple]:
    return [tuple(a) for a in view["legal"] if a[0] == kind]


def swap_dialog(view: dict) -> PickDialog:
    opts = []
    for a in _legal(view, "swap"):
        verb = "Swap with" if a[2] else "Pretend with"
        opts.append((f"{verb} {place_name(view, a[1])}", a))
    return PickDialog("swap", "Swap or pretend", "Pick whom to swap with, and whether to really swap. "
                      "Everyone else sees only that you may have swapped.", opts, columns=2)


def announce_dialog(view: dict) -> PickDialog:
    from engine.mascarade import load_masks

    masks = load_masks()
    opts = [(mask_name(view, a[1]), a) for a in _legal(view, "announce")]
    lines = [f"{mask_name(view, a[1])}: {masks[a[1]].text}" for a in _legal(view, "announce")]
    return PickDialog("announce", "Announce a mask", "\n".join(lines), opts, columns=3)


def claim_dialog(view: dict) -> PickDialog:
    ann = view["announcement"] or {}
    who = place_name(view, ann.get("seat", 0))
    mk = mask_name(view, ann.get("mask"))
    text = (f"{who} says: “I am the {mk}!” Claim it too and every claimant shows their card: "
            "the true holders use the power, the others pay 1 coin to the courthouse.")
    return ClaimDialog("claim", f"{who} announces the {mk}", text,
                       [(f"Claim: I am the {mk} (c)", ("claim",)), ("Pass (p)", ("pass",))], columns=2)


def choice_dialog(view: dict) -> PickDialog:
    """The power's choice (Spy, Fool, Guru, Princess, Sorceress, Trickster, Puppeteer), the Spy's swap,
    or the name a Guru asks for."""
    pend = view["pending"] or {}
    kind = pend.get("kind")
    if kind == "spy":
        mine, theirs = mask_name(view, pend.get("mine")), mask_name(view, pend.get("theirs"))
        target = place_name(view, pend["target"])
        return PickDialog("spy", "Spy: swap or not",
                          f"Your card is the {mine}; {target}'s is the {theirs}.",
                          [(f"Swap with {target}", ("spy_swap", True)), ("Keep (pretend)", ("spy_swap", False))],
                          columns=2)
    if kind == "guru":
        by = place_name(view, pend["by"])
        return PickDialog("guru", "Name your mask",
                          f"{by} is the Guru: name your mask. Wrong, you pay 4 coins to {by}.",
                          [(mask_name(view, a[1]), a) for a in _legal(view, "name")], columns=3)
    legal = _legal(view, "power")
    mask = pend.get("mask") or (legal[0][1] if legal else "")
    name = mask_name(view, mask)
    from engine.mascarade import load_masks

    power_text = load_masks()[mask].text if mask in load_masks() else ""
    opts: list[tuple[str, Any]] = []
    columns = 2
    for a in legal:
        if mask == "fool":
            verb = "Swap" if a[4] else "Pretend"
            opts.append((f"{verb} {place_name(view, a[2])} ↔ {place_name(view, a[3])}", a))
        elif mask == "puppeteer":
            opts.append((f"{place_name(view, a[2])} ↔ {place_name(view, a[3])}", a))
        else:
            opts.append((place_name(view, a[2]), a))
    if mask not in ("fool", "puppeteer"):
        columns = 3
    return PickDialog("power", f"{name}: your choice", power_text, opts, columns=columns)
