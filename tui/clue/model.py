"""View models for the Clue screens: plain data and sentences built from one seat's view.

Nothing here imports Textual, so the wording and the layout facts are testable on their own
and the widgets stay thin: they draw what these functions return and hold no rules.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import cache

from engine import words
from engine.clue.board import Board, load_board, load_rules
from engine.clue.plan import Route, plan, steps_needed

REASONS = {
    "solved": "solved the plot",
    # Wrong accusations, the White Walkers, or both: "everyone was wrong" was untrue when they mixed.
    "unsolved": "nobody is left who may accuse: the plot stays unsolved",
    "all-eliminated": "the White Walkers eliminated everyone: nobody wins",
    "round-limit": "the round limit was reached: the plot stays unsolved",
}


# --------------------------------------------------------------------------- names


@cache
def abbreviations(names: tuple[str, ...]) -> dict[str, str]:
    """Two-letter initials ("Margaery Tyrell" -> "MT"), made longer until all differ."""
    def initials(name: str, extra: int) -> str:
        words = [w for w in name.replace("'", "").split() if w[:1].isupper()] or name.split()
        if len(words) == 1:
            return words[0][: 2 + extra]
        return words[0][: 1 + extra] + words[-1][0]

    for extra in range(4):
        out = {n: initials(n, extra) for n in names}
        if len(set(out.values())) == len(names):
            return out
    return {n: n for n in names}


@cache
def short_names(names: tuple[str, ...]) -> dict[str, str]:
    """First words ("Margaery Tyrell" -> "Margaery"), or the whole name when they clash."""
    firsts = {n: n.split()[0] for n in names}
    if len(set(firsts.values())) == len(names):
        return firsts
    return {n: n for n in names}


@cache
def square_index(board_id: str) -> dict[int, tuple[int, int, int, int]]:
    """Path square -> (end a, end b, squares from a, squares from b)."""
    board = load_board(board_id)
    out = {}
    for a, b, squares in board.paths:
        steps = len(squares) + 1
        for k, node in enumerate(squares, start=1):
            out[node] = (a, b, k, steps - k)
    return out


def node_label(board: Board, node: int, short: bool = True, toward: bool | None = None) -> str:
    """A location's name, or "2 from Privy" for a path square ("?" marks a Plot square).

    ``toward`` adds the far end ("2 from Privy toward Location 7"); it defaults to ``not short``.
    """
    if node <= board.centre:
        return board.short[node] if short else board.node_names[node]
    a, b, ka, kb = square_index(board.id)[node]
    near, k, far = (a, ka, b) if ka <= kb else (b, kb, a)
    names = board.short if short else board.node_names
    label = f"{k} from {names[near]}"
    if (not short) if toward is None else toward:
        label += f" toward {names[far]}"
    if node in board.plot_squares:
        label += " (?)"
    return label


def card_short(board: Board, card: str) -> str:
    if card in board.locations:
        return board.short[board.locations.index(card)]
    return card


@dataclass(frozen=True)
class Seats:
    """Who is who, for sentences: the viewer is "You"."""

    me: int
    names: tuple[str, ...]
    characters: tuple[str, ...]

    @classmethod
    def from_view(cls, view: dict) -> Seats:
        return cls(view["seat"], tuple(view["players"]), tuple(view["characters"]))

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "Nobody"
        return "You" if seat == self.me else self.names[seat]

    def obj(self, seat: int) -> str:
        return "you" if seat == self.me else self.names[seat]

    def poss(self, seat: int) -> str:
        return "Your" if seat == self.me else f"{self.names[seat]}'s"

    def full(self, seat: int) -> str:
        """'Bran (Cersei Lannister)' for the players list."""
        who = "You" if seat == self.me else self.names[seat]
        return f"{who} ({self.characters[seat]})"


# --------------------------------------------------------------------------- the log


def _cards(cards: list[str]) -> str:
    return ", ".join(cards)


def the(board: Board, card: str) -> str:
    """'the Crossbow', but 'Sansa Stark' and 'Privy' (names take no article)."""
    return f"the {card}" if card in board.weapons else card


def describe(ev: dict, seats: Seats, board: Board) -> str | None:
    """One event as a sentence the player reads in the log; None for events not worth a line."""
    t = ev["t"]
    s = ev.get("seat")
    who = seats.name(s) if "seat" in ev else ""
    if t == "setup":
        line = f"A new game on {board.name}: " + ", ".join(seats.full(i) for i in range(len(seats.names))) + "."
        if ev["face_up"]:
            line += f" Face up beside the board: {_cards(ev['face_up'])}."
        if ev["centre"]:
            lie = "lies" if ev["centre"] == 1 else "lie"
            line += f" {words.count(ev['centre'], 'card')} {lie} face down in the {board.centre_name}."
        if ev["aside"]:
            line += f" {words.count(ev['aside'], 'card')} {'is' if ev['aside'] == 1 else 'are'} set aside face down."
        return line
    if t == "hand":
        if ev["cards"] is None:
            return None
        return f"Your hand: {_cards(ev['cards'])}."
    if t == "turn":
        turn = "Your turn" if s == seats.me else f"{seats.names[s]}'s turn"
        return f"— Round {ev['round']}: {turn} —"
    if t == "roll":
        dice = " and ".join(str(d) for d in ev["dice"])
        return f"{who} rolled {dice}."
    if t == "move":
        where = node_label(board, ev["to"], short=False)
        if ev["how"] == "rumor":
            return f"The rumor moved {ev['suspect']} to {where}."
        if ev["how"] == "passage":
            return f"{who} took the secret passage to {where}."
        if ev["how"] == "teleport":
            return f"{who} went to {where} (Master of Whisperers)."
        into = "into" if ev["to"] <= board.centre else "to"
        return f"{who} walked {into} {where}."
    if t == "plot":
        card = ev["card"]
        if card is None:
            return f"{who} drew a Plot card."
        name = load_rules().plot_type(card).name
        if card == "white-walker":
            n = ev.get("walkers", 0)
            if n >= 8:
                return f"{who} drew the 8th White Walker!"
            return f"{who} drew a White Walker ({n} of 8 beside the board)."
        return f"{who} drew {name}."
    if t == "eliminated":
        verb = "were" if s == seats.me else "was"
        return f"{who} {verb} eliminated by the White Walkers. Their cards, now face up: {_cards(ev['cards'])}."
    if t == "rumor":
        return f"{who} started a rumor: {_cards(ev['cards'])}."
    if t == "pass":
        return f"{who} could not show a card."
    if t == "show":
        to = ev["to"]
        if ev["card"] is None:
            return f"{who} showed {seats.obj(to)} a card."
        return f"{who} showed {seats.obj(to)} {the(board, ev['card'])}."
    if t == "no_show":
        return f"Nobody could show {seats.obj(s)} a card."
    if t == "aside":
        if ev["card"] is None:
            return f"{who} looked at set-aside card {ev['index'] + 1}."
        return f"{who} looked at set-aside card {ev['index'] + 1}: {the(board, ev['card'])}."
    if t == "accuse":
        c = ev["cards"]
        verdict = "correct!" if ev["correct"] else "wrong."
        return f"{who} accused {c[0]} with the {c[1]} in {c[2]}: {verdict}"
    if t == "centre_look":
        if ev["cards"] is None:
            return f"{who} looked at the cards in the {board.centre_name}."
        return f"{who} looked at the cards in the {board.centre_name}: {_cards(ev['cards'])}."
    if t == "peek":
        target = ev["target"]
        if ev["card"] is None:
            return f"{who} used a Raven on {seats.obj(target)}."
        if s == seats.me:
            return f"Your Raven saw {the(board, ev['card'])} in {seats.names[target]}'s hand."
        return f"{who}'s Raven saw your card: {ev['card']}."
    if t == "power":
        return f"{who} used {seats.characters[s]}'s power to roll and move once more."
    if t == "stay":
        return f"{who} stayed to start a rumor."
    if t == "decline":
        return f"{who} declined to draw a Plot card."
    if t == "play":
        name = load_rules().plot_type(ev["card"]).name
        return f"{who} played {words.a(name)}."
    if t == "end":
        return "Game over: " + outcome(ev, seats) + "."
    return None


def outcome(result: dict, seats: Seats) -> str:
    """Who won and why, in one line."""
    reason = result["reason"]
    if reason == "solved" and result["winners"]:
        return f"{seats.name(result['winners'][0])} {REASONS['solved']}"
    return REASONS.get(reason, reason)


# --------------------------------------------------------------------------- board


@dataclass
class CellModel:
    node: int
    name: str
    tokens: list[str] = field(default_factory=list)  # suspects here
    weapons: list[str] = field(default_factory=list)
    passage_to: str | None = None
    reachable: bool = False
    here: bool = False  # the viewer's token stands here
    plan: str = ""  # "◆3" in reach of this roll (3 steps), "→9" steps away, "⇄" by the secret passage


def board_cells(view: dict, board: Board, reachable: set[int]) -> dict[int, CellModel]:
    """What each location and the centre shows."""
    me = view["characters"][view["seat"]]
    marks = plan_marks(view, board, reachable)
    cells = {}
    for node in range(board.centre + 1):
        passage = board.passages.get(node)
        cells[node] = CellModel(
            node=node,
            name=board.short[node],
            passage_to=board.short[passage] if passage is not None else None,
            reachable=node in reachable,
            plan=marks.get(node, ""),
        )
    for sus in board.suspects:
        node = view["positions"][sus]
        if node in cells:
            cells[node].tokens.append(sus)
            if sus == me:
                cells[node].here = True
    for weapon in board.weapons:
        node = view["weapons"][weapon]
        if node in cells:
            cells[node].weapons.append(weapon)
    return cells


def on_paths(view: dict, board: Board) -> list[str]:
    """Tokens standing on path squares: "Tyrion: 2 from Privy"."""
    names = short_names(board.suspects)
    out = []
    for sus in board.suspects:
        node = view["positions"][sus]
        if node > board.centre:
            out.append(f"{names[sus]}: {node_label(board, node)}")
    return out


def paths_line(view: dict, board: Board, width: int, lines: int = 2) -> str:
    """"On paths: …" in at most ``lines`` lines of ``width``: tokens on one square share it, and when
    names are still too long they become initials (listed on the Players tab). "" when nobody is."""
    squares: dict[int, list[str]] = {}
    for sus in board.suspects:
        node = view["positions"][sus]
        if node > board.centre:
            squares.setdefault(node, []).append(sus)
    if not squares:
        return ""
    line = ""
    for names in (short_names(board.suspects), abbreviations(board.suspects)):
        parts = [f"{', '.join(names[s] for s in tokens)}: {node_label(board, node)}"
                 for node, tokens in squares.items()]
        line = "On paths: " + "; ".join(parts)
        if _fits(line, width, lines):
            break
    return line


def wrapped_lines(text: str, width: int) -> int:
    """How many lines ``text`` takes, word-wrapped at ``width``."""
    return len(textwrap.wrap(text, width))


def _fits(text: str, width: int, lines: int) -> bool:
    return wrapped_lines(text, width) <= lines


def reachable(view: dict, board: Board) -> set[int]:
    """Nodes the viewer may move to now (only while it is their move)."""
    if view["to_act"] != view["seat"]:
        return set()
    kind = "move" if view["phase"] == "move" else "teleport" if view["phase"] == "teleport" else None
    return {a[1] for a in view["legal"] if a[0] == kind} if kind else set()


def my_node(view: dict) -> int:
    """Where the viewer's token stands."""
    return view["positions"][view["characters"][view["seat"]]]


def routes(view: dict, board: Board) -> dict[int, Route]:
    """The best route from the viewer's token to every place (engine.clue.plan)."""
    return _routes_from(board.id, my_node(view))


@cache
def _routes_from(board_id: str, node: int) -> dict[int, Route]:
    """Routes depend only on the board and the start: computed once each (a few ms), not per redraw."""
    return plan(load_board(board_id), node)


def plan_marks(view: dict, board: Board, reach: set[int]) -> dict[int, str]:
    """The mark each place shows: "◆3" in reach of this roll (3 steps), "◆" for a Master of Whisperers'
    choice, "→9" the steps of the best route, "⇄" by the secret passage ("→5⇄": 5 steps and the passage).

    A mark, not only a colour, so the places this roll reaches stand out in any theme and on a
    terminal without colours.
    """
    here = my_node(view)
    best = routes(view, board)
    left = frozenset(view["left"])
    out: dict[int, str] = {}
    for node in range(board.centre + 1):
        if node == here:
            continue
        if node in reach:
            steps = steps_needed(board, here, node, left) if view["phase"] == "move" else None
            out[node] = "◆" if steps is None else f"◆{steps}"
        elif node in best:
            route = best[node]
            if route.by_passage:
                out[node] = "⇄" if route.steps == 0 else f"→{route.steps}⇄"
            else:
                out[node] = f"→{route.steps}"
    return out


def _square_words(board: Board, node: int, names: tuple[str, ...]) -> str:
    """"the ? square 3 from Throne Room" (a route stops there) or "the square 2 from Privy"."""
    a, b, ka, kb = square_index(board.id)[node]
    near, k = (a, ka) if ka <= kb else (b, kb)
    kind = "? square" if node in board.plot_squares else "square"
    return f"the {kind} {k} from {names[near]}"


def route_sentence(board: Board, route: Route, long: bool = True) -> str:
    """A route in words, one leg a turn.

    Long: "Privy: 9 steps, 2 turns at best: walk 4 to Location 6, then walk 5 to Privy."
    Short (the Plan tab at 80 columns): "Privy: 9 steps, 2 turns: 4 to Location 6, 5 to Privy."
    """
    names = board.node_names if long else board.short
    head = f"{names[route.target]}: {words.count(route.steps, 'step')}, {words.count(route.turns, 'turn')}"
    legs = []
    for leg in route.legs:
        where = names[leg.to] if leg.to <= board.centre else _square_words(board, leg.to, names)
        if long:
            legs.append(f"the secret passage to {where}" if leg.passage else f"walk {leg.steps} to {where}")
        else:
            legs.append(f"⇄ {where}" if leg.passage else f"{leg.steps} to {where}")
    if long:
        return f"{head} at best: {', then '.join(legs)}."
    return f"{head}: {', '.join(legs)}."


@dataclass(frozen=True)
class PlanRow:
    node: int
    mark: str  # "◆" in reach of this roll, "⇄" by the passage, "" otherwise
    name: str
    steps: int
    turns: int


def plan_rows(view: dict, board: Board) -> list[PlanRow]:
    """Every place with its distance from the viewer's token, nearest first (in turns, then steps)."""
    here = my_node(view)
    reach = reachable(view, board)
    best = routes(view, board)
    rows = []
    for node in range(board.centre + 1):
        if node == here or node not in best:
            continue
        route = best[node]
        mark = "◆" if node in reach else "⇄" if route.by_passage else ""
        rows.append(PlanRow(node, mark, board.short[node], route.steps, route.turns))
    rows.sort(key=lambda r: (r.mark != "◆", r.turns, r.steps, r.node))
    return rows


@dataclass(frozen=True)
class MoveOption:
    label: str
    node: int


def move_options(view: dict, board: Board) -> list[MoveOption]:
    """Every way to move now: enter a reachable location, walk toward a far one, or stop on a square."""
    here = view["positions"][view["characters"][view["seat"]]]
    steps = view["steps"]
    left = frozenset(view["left"])
    dests = sorted(a[1] for a in view["legal"] if a[0] == "move")
    best = _routes_from(board.id, here)
    out = []
    used = set()
    for node in range(board.centre + 1):
        if node in dests:
            need = steps_needed(board, here, node, left)
            cost = f" ({words.count(need, 'step')})" if need is not None else ""
            out.append(MoveOption(f"◆ Enter {board.node_names[node]}{cost}", node))
            used.add(node)
    for node in range(board.centre + 1):
        if node in dests or node == here:
            continue
        stop = board.path_toward(here, node, steps, left)
        if stop is None or stop <= board.centre:
            continue
        far = ""
        if node in best:
            far = f", {words.count(best[node].steps, 'step')} in {words.count(best[node].turns, 'turn')}"
        out.append(MoveOption(f"Toward {board.short[node]}{far} (stop {node_label(board, stop)})", stop))
        used.add(stop)
    for node in dests:
        if node not in used:
            out.append(MoveOption(f"Stop {node_label(board, node, toward=True)}", node))
    return out


def walk_target(view: dict, board: Board, node: int) -> int | None:
    """Where a click on ``node`` moves the viewer's token this roll (toward it if out of reach)."""
    here = view["positions"][view["characters"][view["seat"]]]
    steps, left = view["steps"], frozenset(view["left"])
    target = board.path_toward(here, node, steps, left)
    if target is None:  # no path leads there without a stop: walk toward the best route's first stop
        route = _routes_from(board.id, here).get(node)
        if route is not None and not route.legs[0].passage:
            target = board.path_toward(here, route.legs[0].to, steps, left)
    return target


# --------------------------------------------------------------------------- status


def legal_kinds(view: dict) -> set[str]:
    return {a[0] for a in view["legal"]}


def status_line(view: dict, board: Board, width: int | None = None) -> str:
    """The header: board, round, who acts, walkers, plot deck and dice, in at most ``width`` cells.

    When it is too long the least needed parts give way first (the board's name, then long labels,
    then the actor's name is cut), so the dice at the end are never what gets cut off.
    """
    seats = Seats.from_view(view)
    if view["over"]:
        actor_text = "Game over"
    else:
        actor = view["to_act"]
        mine = {"refute": "You show a card", "offer": "Your choice"}.get(view["phase"], "Your move")
        actor_text = mine if actor == seats.me else f"{seats.names[actor]} to act"
    dice = "+".join(str(d) for d in view["dice"]) if view["dice"] else ""
    w, deck = view["walkers"], view["plot_deck"]
    variants = (
        [board.name, f"Round {view['round']}", actor_text, f"Walkers {w}/8", f"Plot deck {deck}"]
        + ([f"Dice {dice}"] if dice else []),
        [f"Round {view['round']}", actor_text, f"Walkers {w}/8", f"Plot deck {deck}"]
        + ([f"Dice {dice}"] if dice else []),
        [f"R{view['round']}", actor_text, f"Walkers {w}/8", f"Plot {deck}"] + ([f"Dice {dice}"] if dice else []),
    )
    for parts in variants:
        line = " · ".join(parts)
        if width is None or len(line) <= width:
            return line
    rest = " · ".join(variants[-1][2:])
    room = max(width - len(rest) - len(variants[-1][0]) - 6, 4)
    if len(actor_text) > room:
        actor_text = actor_text[: room - 1] + "…"
    return " · ".join([variants[-1][0], actor_text, *variants[-1][2:]])


def prompt(view: dict, board: Board) -> str:
    """What the viewer should do now, in one sentence."""
    seats = Seats.from_view(view)
    if view["over"]:
        return "The game is over."
    me = seats.me
    actor = view["to_act"]
    if view["wrong"][me] and actor != me:
        return "Your accusation was wrong: you only show cards now (ctrl+b: instant bots). " + _waiting(view, seats)
    if view["eliminated"][me]:
        return "The White Walkers eliminated you (ctrl+b: instant bots). " + _waiting(view, seats)
    if actor != me:
        return _waiting(view, seats)
    kinds = legal_kinds(view)
    phase = view["phase"]
    here = view["positions"][view["characters"][me]]
    if phase == "start":
        opts = ["roll the dice (r)"]
        if "passage" in kinds:
            opts.append(f"take the secret passage to {board.short[board.passages[here]]} (g)")
        if "stay" in kinds:
            opts.append(f"stay in {board.short[here]} (y)")
        return "Your turn: " + " or ".join(opts) + "."
    if phase == "move":
        return f"{words.count(view['steps'], 'step')}: click a highlighted place, or press m to choose where to go."
    if phase == "refute":
        asker, cards = view["rumor"]
        return f"{seats.names[asker]} asks about {', '.join(cards)}: show one card (s)."
    if phase == "offer":
        return "A rumor moved your token: draw a Plot card (d) or decline (n)?"
    if phase == "teleport":
        return "Master of Whisperers: choose any place to go (t), or click it on the board."
    if phase == "peek":
        return "Raven: choose whose hand to look at (k)."
    if phase == "aside":
        return "Nobody could show you a card: look at one set-aside card (o)."
    opts = []
    if "rumor" in kinds:
        opts.append(f"start a rumor in {board.short[here]} (u)")
    if "accuse" in kinds:
        opts.append("accuse (a)")
    if "look_centre" in kinds:
        opts.append("look at the centre cards (c)")
    if "power" in kinds:
        opts.append("use your power to roll and move once more (x)")  # not "move again": a teleport is no move
    opts.append("end your turn (e)")
    return "Now " + ", ".join(opts[:-1]) + (" or " if len(opts) > 1 else "") + opts[-1] + "."


def _waiting(view: dict, seats: Seats) -> str:
    actor = view["to_act"]
    if actor is None:
        return ""
    what = {"refute": "is choosing a card to show", "offer": "may draw a Plot card",
            "teleport": "is choosing where to go", "peek": "is using a Raven"}.get(view["phase"], "is playing")
    return f"{seats.names[actor]} ({short_names(tuple(view['characters']))[view['characters'][actor]]}) {what}…"


# --------------------------------------------------------------------------- detective sheet

MARKS = ("", "✓", "✗", "?")  # what a tap (or Enter, Space) cycles through, in this order
NOTE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a note letter of the player's own (who showed it, say)


def is_mark(mark: object) -> bool:
    """A mark the player may put in a cell: ✓, ✗, ?, or one capital letter."""
    return isinstance(mark, str) and (mark in MARKS[1:] or (len(mark) == 1 and mark in NOTE_LETTERS))


def next_mark(mark: str) -> str:
    """The mark a tap puts in a cell: blank -> ✓ -> ✗ -> ? -> blank (a note letter taps back to blank)."""
    i = MARKS.index(mark) if mark in MARKS else len(MARKS) - 1
    return MARKS[(i + 1) % len(MARKS)]


def read_marks(raw: object, board: Board, players: int) -> tuple[dict[str, str], int]:
    """A session file's ``clue_marks``, checked: the marks kept and how many were dropped.

    A key is "card|column" (column 0..players-1 a seat, ``players`` the envelope). A file edited by
    hand or from another build may hold anything: whatever is not a mark on a card of this board is
    dropped (and counted, so the screen can say so), never an error.
    """
    if raw is None:
        return {}, 0
    if not isinstance(raw, dict):
        return {}, 1
    cards = set(board.cards)
    kept: dict[str, str] = {}
    for key, mark in raw.items():
        card, _, col = key.rpartition("|") if isinstance(key, str) else ("", "", "")
        if card in cards and col.isdigit() and int(col) <= players and is_mark(mark):
            kept[f"{card}|{int(col)}"] = mark
    return kept, len(raw) - len(kept)


def seen_of_mine(view: dict) -> dict[int, list[str]]:
    """For every other seat, the cards of mine it has seen: the cards I showed it, and its Ravens.

    In the order they were first seen. Once I am eliminated my cards lie face up: everyone has seen them.
    """
    me = view["seat"]
    seen: dict[int, list[str]] = {i: [] for i in range(len(view["players"])) if i != me}
    for ev in view["events"]:
        t = ev["t"]
        if t == "show" and ev.get("seat") == me and ev.get("card") is not None:
            who, cards = ev["to"], [ev["card"]]
        elif t == "peek" and ev.get("target") == me and ev.get("card") is not None:
            who, cards = ev["seat"], [ev["card"]]
        elif t == "eliminated" and ev.get("seat") == me:
            for cards_seen in seen.values():
                cards_seen.extend(c for c in ev["cards"] if c not in cards_seen)
            continue
        else:
            continue
        if who in seen:
            seen[who].extend(c for c in cards if c not in seen[who])
    return seen


def seen_hint(view: dict, asker: int) -> str:
    """The Show dialog's reminder: which of my cards the asker has seen already."""
    name = Seats.from_view(view).names[asker]
    cards = seen_of_mine(view).get(asker, [])
    return f"{name} has seen: {', '.join(cards)}." if cards else f"{name} has seen none of your cards."


@dataclass
class SheetRow:
    card: str
    category: str
    cells: list[str]  # one per column: each player, then the envelope
    known: list[bool]  # which cells are facts (seen, or the solver's): not editable
    note: str = ""  # "up" (face up), "ctr" (centre pile), "set" (set aside): cards no player holds
    # Per cell where its content comes from: "seen" (what you saw happen), "solver" (Settings: the
    # solver's help), "mine" (your own mark) or "" (blank). Drawn differently, so a fact never
    # looks like a guess of yours.
    source: list[str] = field(default_factory=list)


def sheet_rows(view: dict, board: Board, holder: dict, env_candidates: dict[str, list[str]],
               marks: dict[str, str], lacks: dict[int, set[str]] | None = None,
               solver: dict[str, list[float]] | None = None) -> list[SheetRow]:
    """One row per card: the facts you saw, the solver's certain facts (when asked), then your own marks.

    ``holder`` and ``env_candidates`` come from ``solvers.clue.sheet.Sheet``; ``marks`` maps
    "card|column" to a mark (:func:`is_mark`). ``lacks`` (the passes you saw): another player who
    could not show a card for a rumor gets ✗ for its three cards, as facts. ``solver``: card -> the
    probability of each column (each player, then the envelope); a 1 is ●, a 0 is ✗.
    """
    n = len(view["players"])
    rows = []
    notes = {"face_up": "up", "centre": "ctr", "aside": "set"}
    for cat, cards in (("suspect", board.suspects), ("weapon", board.weapons), ("location", board.locations)):
        cand = env_candidates[cat]
        for card in cards:
            h = holder.get(card)
            cells = [marks.get(f"{card}|{col}", "") for col in range(n + 1)]
            source = ["mine" if c else "" for c in cells]
            note = ""
            seen: dict[int, str] = {}
            if isinstance(h, int):
                seen = {col: "●" if col == h else "·" for col in range(n + 1)}
            elif h in notes:
                note = notes[h]
                seen[n] = "·"
            elif h == "envelope" or (len(cand) == 1 and cand[0] == card):
                seen[n] = "●"
            if lacks and not isinstance(h, int):
                for col in range(n):  # your own passes need no mark: you know your hand
                    if col != view["seat"] and card in lacks.get(col, ()):
                        seen[col] = "✗"
            probs = (solver or {}).get(card)
            for col in range(n + 1):
                if col in seen:
                    cells[col], source[col] = seen[col], "seen"
                elif probs is not None and probs[col] in (0.0, 1.0):
                    cells[col], source[col] = ("●" if probs[col] == 1.0 else "✗"), "solver"
            known = [s in ("seen", "solver") for s in source]
            rows.append(SheetRow(card, cat, cells, known, note, source))
    return rows


def players_lines(view: dict) -> list[str]:
    """One line per seat: who, which character, how many cards, and how they stand."""
    seats = Seats.from_view(view)
    out = []
    for i in range(len(seats.names)):
        state = []
        if view["eliminated"][i]:
            state.append("eliminated")
        if view["wrong"][i]:
            state.append("accused wrongly")
        if view["power_used"][i]:
            state.append("power used")
        extra = f" — {', '.join(state)}" if state else ""
        turn = "▶ " if view["turn"] == i and not view["over"] else "  "
        out.append(f"{turn}{seats.full(i)}: {words.count(view['hand_sizes'][i], 'card')}, "
                   f"{view['plot_counts'][i]} Plot{extra}")
    return out
