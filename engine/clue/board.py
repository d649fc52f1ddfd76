"""Boards as data: the locations, paths, passages and cards of one Clue board, loaded from TOML.

Nodes are small ints so that movement is cheap: ``0..L-1`` are the location cards in deck
order, ``L`` is the centre space, and path squares follow.
"""

from __future__ import annotations

import itertools
import tomllib
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

BOARDS = ("red-keep", "meereen")


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    locations: tuple[str, ...]
    short: tuple[str, ...]  # short label per location node, then the centre
    cells: tuple[tuple[int, int], ...]  # layout cell per location
    assumed_locations: frozenset[str]
    centre_name: str
    node_names: tuple[str, ...]
    plot_squares: frozenset[int]
    passages: dict[int, int]
    adjacency: tuple[tuple[int, ...], ...]
    powers: dict[str, str]
    assumed_powers: frozenset[str]
    # (path a, path b, squares a->b) for drawing; squares exclude the two ends
    paths: tuple[tuple[int, int, tuple[int, ...]], ...]
    reach: tuple[tuple[tuple[int, int], ...], ...] = field(repr=False, default=())

    @property
    def centre(self) -> int:
        return len(self.locations)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.suspects + self.weapons + self.locations

    def category(self, card: str) -> str | None:
        if card in self.suspects:
            return "suspect"
        if card in self.weapons:
            return "weapon"
        if card in self.locations:
            return "location"
        return None

    def is_room(self, node: int) -> bool:
        """A location or the centre: entering one ends movement."""
        return node <= len(self.locations)

    def location_node(self, name: str) -> int:
        if name == self.centre_name:
            return self.centre
        return self.locations.index(name)

    def destinations(self, start: int, steps: int, forbidden: frozenset[int]) -> list[int]:
        """Every node reachable with at most ``steps`` moves, never back into ``forbidden``."""
        out = []
        for node, dist in self.reach[start]:
            if dist > steps:
                break
            if node not in forbidden:
                out.append(node)
        return out

    def distance(self, start: int, target: int) -> int | None:
        for node, dist in self.reach[start]:
            if node == target:
                return dist
        return None

    def path_toward(self, start: int, target: int, steps: int, forbidden: frozenset[int]) -> int | None:
        """The reachable node closest to ``target`` (for "walk toward" in the UI)."""
        dests = self.destinations(start, steps, forbidden)
        if not dests:
            return None
        if target in dests:
            return target
        best, best_d = None, None
        for d in dests:
            dd = self.distance(d, target)
            if dd is not None and (best_d is None or dd < best_d):
                best, best_d = d, dd
        return best


def _bfs(adjacency: list[list[int]], start: int, terminal: set[int]) -> tuple[tuple[int, int], ...]:
    dist = {start: 0}
    order: list[tuple[int, int]] = []
    queue = deque([start])
    while queue:
        u = queue.popleft()
        if u != start:
            order.append((u, dist[u]))
            if u in terminal:
                continue
        for v in adjacency[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    order.sort(key=lambda nd: (nd[1], nd[0]))
    return tuple(order)


class BoardError(ValueError):
    """A board file that does not describe a usable board."""


@cache
def load_board(board_id: str) -> Board:
    """Load one of the packaged boards by id."""
    if board_id not in BOARDS:
        raise BoardError(f"Unknown board {board_id!r}; choose one of: {', '.join(BOARDS)}.")
    text = resources.files(__package__).joinpath("data", f"{board_id}.toml").read_text("utf-8")
    return parse_board(tomllib.loads(text))


_LOCATION_KEYS = {"name", "short", "cell", "assumed"}


def parse_board(data: dict) -> Board:
    data = _hoist_misplaced_keys(data)
    locs = [loc["name"] for loc in data["locations"]]
    centre_name = data["centre"]
    names: list[str] = [*list(locs), centre_name]
    short = [loc.get("short", loc["name"]) for loc in data["locations"]] + [data.get("centre_short", centre_name)]
    index = {n: i for i, n in enumerate(names)}
    adjacency: list[list[int]] = [[] for _ in names]
    plot: set[int] = set()
    paths = []
    for p in data.get("paths", []):
        try:
            a, b = index[p["a"]], index[p["b"]]
        except KeyError as e:
            raise BoardError(f"A path names {e.args[0]!r}, which is not a location of this board.") from None
        steps = int(p["steps"])
        if steps < 1:
            raise BoardError(f"The path {p['a']} - {p['b']} needs at least one step.")
        chain = [a]
        squares = []
        for k in range(1, steps):
            node = len(names)
            names.append(f"{p['a']} - {p['b']} square {k}")
            adjacency.append([])
            squares.append(node)
            chain.append(node)
            if k in p.get("plot", []):
                plot.add(node)
        chain.append(b)
        for u, v in itertools.pairwise(chain):
            adjacency[u].append(v)
            adjacency[v].append(u)
        paths.append((a, b, tuple(squares)))
    passages: dict[int, int] = {}
    for pair in data.get("passages", []):
        try:
            a_name, b_name = pair
            a, b = index[a_name], index[b_name]
        except (KeyError, TypeError, ValueError):
            raise BoardError(f"A secret passage must join two locations of this board, not {pair!r}.") from None
        if a >= len(locs) or b >= len(locs) or a == b:
            raise BoardError(f"A secret passage must join two different locations, not {pair!r}.")
        passages[a] = b
        passages[b] = a
    terminal = set(range(len(locs) + 1)) | plot
    reach = tuple(_bfs(adjacency, s, terminal) for s in range(len(names)))
    powers = {c["suspect"]: c.get("power", "second-move") for c in data.get("characters", [])}
    for s in data["suspects"]:
        powers.setdefault(s, "second-move")
    return Board(
        id=data["id"],
        name=data["name"],
        suspects=tuple(data["suspects"]),
        weapons=tuple(data["weapons"]),
        locations=tuple(locs),
        short=tuple(short),
        cells=tuple(tuple(loc.get("cell", (0, 0))) for loc in data["locations"]),
        assumed_locations=frozenset(loc["name"] for loc in data["locations"] if loc.get("assumed")),
        centre_name=centre_name,
        node_names=tuple(names),
        plot_squares=frozenset(plot),
        passages=passages,
        adjacency=tuple(tuple(a) for a in adjacency),
        powers=powers,
        assumed_powers=frozenset(c["suspect"] for c in data.get("characters", []) if c.get("assumed")),
        paths=tuple(paths),
        reach=reach,
    )


def _hoist_misplaced_keys(data: dict) -> dict:
    """Undo a TOML trap: a top-level key written after ``[[locations]]`` lands in the last location.

    ``passages = [...]`` placed below the location tables is read by TOML as a field of the
    last location, which silently removed every secret passage. Accept it there (and lift it
    to the board), and refuse any other unknown location field so such slips are loud.
    """
    locations = []
    hoisted: dict = {}
    for loc in data.get("locations", []):
        extra = set(loc) - _LOCATION_KEYS
        if "passages" in extra and "passages" not in data and "passages" not in hoisted:
            hoisted["passages"] = loc["passages"]
            loc = {k: v for k, v in loc.items() if k != "passages"}
            extra.discard("passages")
        if extra:
            raise BoardError(f"Location {loc.get('name')!r} has unknown field(s): {', '.join(sorted(extra))}.")
        locations.append(loc)
    if not hoisted:
        return data
    return {**data, **hoisted, "locations": locations}


@dataclass(frozen=True)
class PlotCardType:
    id: str
    name: str
    count: int
    effect: str
    text: str
    assumed: bool


@dataclass(frozen=True)
class Rules:
    dice_faces: tuple[int | str, ...]  # a number of steps, or "?" (the Raven face)
    plot: tuple[PlotCardType, ...]
    assumptions: tuple[tuple[str, str], ...]

    def plot_type(self, card_id: str) -> PlotCardType:
        for p in self.plot:
            if p.id == card_id:
                return p
        raise KeyError(card_id)


@cache
def load_rules() -> Rules:
    text = resources.files(__package__).joinpath("data", "rules.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return Rules(
        dice_faces=tuple(data["dice"]["faces"]),
        plot=tuple(
            PlotCardType(p["id"], p["name"], int(p["count"]), p["effect"], p.get("text", ""), bool(p.get("assumed")))
            for p in data["plot"]
        ),
        assumptions=tuple((a["id"], a["text"]) for a in data.get("assumptions", [])),
    )


_POWERS = {"second-move": "once per game, move again after your move"}


def describe_assumed(stem: str, key: str, record: dict) -> tuple[str, str] | None:
    """How the Rules screen words a record of the data files flagged ``assumed = true``."""
    if key == "locations":
        board = load_board(stem).name
        return f"Board: {board}", f"{record['name']}: a placeholder name for a location of {board} (rename it)."
    if key == "characters":
        board = load_board(stem).name
        power = _POWERS.get(record.get("power", ""), record.get("power", ""))
        return f"Board: {board}", f"{record['suspect']}'s Character card power: {power} (the printed power is unknown)."
    if key == "dice":
        faces = ", ".join(str(f) for f in record["faces"])
        return "Dice", f"Each of the two dice has the faces {faces}."
    if key == "plot":
        return "Plot cards", f"{record['name']} ×{record['count']}: {record['text']}"
    return None
