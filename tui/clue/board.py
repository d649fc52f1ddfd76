"""The Clue board: the locations on the perimeter of a 4 x 4 grid, the centre in its middle 2 x 2.

Each place is a clickable cell that draws a :class:`tui.clue.model.CellModel`: its short name,
the suspect tokens and weapons there, a secret-passage marker, and a highlight when the
viewer can reach it now. Cells pick long or short names to fit the room they get.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.message import Message
from textual.widgets import Static

from engine.clue.board import Board
from tui.clue.model import CellModel, abbreviations, short_names

CENTRE_CELLS = {(1, 1), (1, 2), (2, 1), (2, 2)}


def _wrap(words: list[tuple[str, str]], width: int) -> list[Text]:
    """Greedy word wrap of styled words into lines of at most ``width`` cells."""
    lines: list[Text] = []
    line = Text()
    for word, style in words:
        need = len(word) + (1 if line.cell_len else 0)
        if line.cell_len and line.cell_len + need > width:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append(" ")
        line.append(word[:width], style=style)
    if line.cell_len:
        lines.append(line)
    return lines


def cell_text(cell: CellModel, board: Board, me: str, players: set[str], width: int, height: int) -> Text:
    """Lay out one cell's content in ``width`` x ``height``, preferring full names when they fit."""
    width = max(width, 4)
    height = max(height, 1)
    name = Text(cell.name[:width], style="bold")
    tail = []
    if cell.passage_to:
        arrow = f"⇄ {cell.passage_to}"
        if len(cell.name) + 2 <= width and height < 4:
            name.append(" ⇄", style="bold")
        else:
            tail = [Text(arrow[:width], style="italic")]

    def token_style(s: str) -> str:
        if s == me:
            return "bold reverse"
        return "bold" if s in players else "dim"

    body_room = height - 1 - len(tail)
    best: list[Text] = []
    full_weapons = {w: w for w in board.weapons}
    for suspects, weapons in ((short_names(board.suspects), full_weapons),
                              (short_names(board.suspects), abbreviations(board.weapons)),
                              (abbreviations(board.suspects), abbreviations(board.weapons))):
        lines = _wrap([(suspects[s], token_style(s)) for s in cell.tokens], width)
        lines += _wrap([(weapons[w], "italic") for w in cell.weapons], width)
        best = lines
        if len(lines) <= body_room:
            break
    out = Text()
    out.append_text(name)
    for line in [*best[: max(body_room, 0)], *tail]:
        out.append("\n")
        out.append_text(line)
    return out


class LocationCell(Static):
    """One place on the board; a click asks the play screen to go there."""

    class Clicked(Message):
        def __init__(self, node: int) -> None:
            super().__init__()
            self.node = node

    def __init__(self, node: int, board: Board, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.node = node
        self.board = board
        self.model: CellModel | None = None
        self.me = ""
        self.players: set[str] = set()

    def show(self, model: CellModel, me: str, players: set[str]) -> None:
        if model == self.model and me == self.me and players == self.players:
            return
        self.model = model
        self.me = me
        self.players = players
        self.set_class(model.reachable, "-reachable")
        self.set_class(model.here, "-here")
        self.refresh()

    def render(self) -> Text:
        if self.model is None:
            return Text(self.board.short[self.node])
        size = self.content_size
        return cell_text(self.model, self.board, self.me, self.players, size.width, size.height)

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.node))


class BoardView(Grid):
    """The 4 x 4 layout grid; cells are placed row by row and the centre spans the middle 2 x 2."""

    def __init__(self, board: Board, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board = board

    def compose(self) -> ComposeResult:
        b = self.board
        at = {tuple(cell): node for node, cell in enumerate(b.cells)}
        for r in range(4):
            for c in range(4):
                if (r, c) in CENTRE_CELLS:
                    if (r, c) == (1, 1):
                        yield LocationCell(b.centre, b, id=f"loc-{b.centre}", classes="cell centre-cell")
                elif (r, c) in at:
                    node = at[(r, c)]
                    odd = " -odd" if (r + c) % 2 else ""
                    yield LocationCell(node, b, id=f"loc-{node}", classes="cell" + odd)
                else:
                    yield Static("", classes="empty-cell")

    def on_mount(self) -> None:
        centre = self.query_one(f"#loc-{self.board.centre}", LocationCell)
        centre.styles.column_span = 2
        centre.styles.row_span = 2

    def show(self, cells: dict[int, CellModel], me: str, players: set[str]) -> None:
        for node, model in cells.items():
            self.query_one(f"#loc-{node}", LocationCell).show(model, me, players)
