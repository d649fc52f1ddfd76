"""The Clue board: the locations on the perimeter of a 4 x 4 grid, the centre in its middle 2 x 2.

Each place is a clickable cell that draws a :class:`tui.clue.model.CellModel`: its short name,
the suspect tokens and weapons there, a secret-passage marker, its distance from the viewer
("→9" steps, "⇄" by the passage) and, when this roll reaches it, a highlight and a "◆" mark.
Cells pick long or short names to fit the room they get.
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


def _wrap(words: list[tuple[str, str]], width: int) -> tuple[list[Text], bool]:
    """Greedy word wrap of styled items into lines of at most ``width`` cells.

    An item too long for a line ("Faceless Man" in 11 cells) gets lines of its own, broken at its
    spaces. Returns the lines and whether anything still had to be cut.
    """
    lines: list[Text] = []
    line = Text()
    cut = False

    def flush() -> None:
        nonlocal line
        if line.cell_len:
            lines.append(line)
            line = Text()

    for word, style in words:
        if len(word) <= width:
            if line.cell_len and line.cell_len + 1 + len(word) > width:
                flush()
            if line.cell_len:
                line.append(" ")
            line.append(word, style=style)
            continue
        flush()
        for piece in word.split():
            if line.cell_len and line.cell_len + 1 + len(piece) > width:
                flush()
            if line.cell_len:
                line.append(" ")
            cut = cut or len(piece) > width
            line.append(piece[:width], style=style)
        flush()
    flush()
    return lines, cut


def _passage_lines(dest: str, width: int) -> list[Text]:
    """"⇄ Bedchamber" on one line when it fits (without the space if need be), else over two."""
    for arrow in (f"⇄ {dest}", f"⇄{dest}"):
        if len(arrow) <= width:
            return [Text(arrow, style="italic")]
    lines, _cut = _wrap([(f"⇄ {dest}", "italic")], width)
    return lines


def cell_text(cell: CellModel, board: Board, me: str, players: set[str], width: int, height: int) -> Text:
    """Lay out one cell's content in ``width`` x ``height``, preferring full names when they fit.

    Nothing is cut or left out while a shorter form fits: full weapon names (broken at spaces), then
    weapon initials, then every token as initials; only then does the passage lose its destination
    (the arrow stays by the name). Initials are listed on the Players tab.
    """
    width = max(width, 4)
    height = max(height, 1)

    def token_style(s: str) -> str:
        if s == me:
            return "bold reverse"
        return "bold" if s in players else "dim"

    full_weapons = {w: w for w in board.weapons}
    short_sus, abbr_sus = short_names(board.suspects), abbreviations(board.suspects)
    abbr_weapons = abbreviations(board.weapons)

    def layouts() -> list[tuple[list[Text], bool]]:
        out = []
        for suspects, weapons, one_stream in ((short_sus, full_weapons, False), (short_sus, abbr_weapons, False),
                                              (abbr_sus, abbr_weapons, True)):
            sus = [(suspects[s], token_style(s)) for s in cell.tokens]
            wea = [(weapons[w], "italic") for w in cell.weapons]
            if one_stream:
                out.append(_wrap(sus + wea, width))
            else:
                a, cut_a = _wrap(sus, width)
                b, cut_b = _wrap(wea, width)
                out.append((a + b, cut_a or cut_b))
        return out

    options = layouts()
    name_text = cell.name[:width]

    def framed(name: str, tail: list[Text]) -> tuple[Text, list[Text]]:
        """The name line with the plan mark at its end when both fit, else the mark on a line of its own."""
        line = Text(name, style="bold")
        if not cell.plan:
            return line, tail
        mark = Text(cell.plan, style="bold" if cell.plan.startswith("◆") else "italic")
        if len(name) + 1 + len(cell.plan) <= width:
            line.append(" " * (width - len(name) - len(cell.plan)) if width <= 16 else " ")
            line.append_text(mark)
            return line, tail
        return line, [mark, *tail]

    # (name line, tail lines) to try in turn: the passage's destination first, then only its arrow.
    frames: list[tuple[Text, list[Text]]] = []
    if cell.passage_to:
        compact = next((f"{name_text}{sep}⇄" for sep in (" ", "") if len(name_text) + len(sep) + 1 <= width), None)
        full = framed(name_text, _passage_lines(cell.passage_to, width))
        if compact and height < 4:
            frames.append(framed(compact, []))
        frames.append(full)
        if compact and height >= 4:
            frames.append(framed(compact, []))
    else:
        frames.append(framed(name_text, []))
    chosen: tuple[Text, list[Text], list[Text]] | None = None
    for name, tail in frames:
        room = height - 1 - len(tail)
        for lines, cut in options:
            if not cut and len(lines) <= room:
                chosen = (name, lines, tail)
                break
        if chosen:
            break
    if chosen is None:  # nothing fits whole: the shortest form, as much of it as there is room for
        name, tail = frames[-1]
        chosen = (name, options[-1][0][: max(height - 1 - len(tail), 0)], tail)
    name, body, tail = chosen
    out = Text()
    out.append_text(name)
    for line in [*body, *tail]:
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
