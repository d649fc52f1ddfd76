"""Clue: Game of Thrones rules engine.

Pure rules over plain data: ``new_game`` deals from a seeded RNG held in the state,
``apply`` returns a new state (or raises :class:`IllegalAction` and leaves the old one as
it was), and ``view`` gives one seat exactly what that seat may see.

Actions are tuples of plain values, so they print, compare and round-trip through JSON:

* ``("roll",)``, ``("passage",)``, ``("stay",)`` at the start of a turn
* ``("move", node)`` after a roll; ``("teleport", node)`` for Master of Whisperers
* ``("rumor", suspect, weapon)``; ``("show", card)`` when refuting
* ``("accuse", suspect, weapon, location)``; ``("look_centre",)``; ``("look_aside", i)``
* ``("power",)`` for the character's second move; ``("play", "raven")``; ``("peek", seat)``
* ``("draw",)`` / ``("decline",)`` when a rumor moved your token; ``("end",)``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from engine import words
from engine.clue.board import BOARDS, Board, load_board, load_rules
from engine.core import EventLog, IllegalAction, Rng
from engine.core import shows_hidden as _shows_hidden

Phased = Any  # a slot that only its phase fills (see the state's annotations)
Action = tuple

# Phases
START, MOVE, TELEPORT, AFTER, REFUTE, ASIDE, OFFER, PEEK, OVER = (
    "start", "move", "teleport", "after", "refute", "aside", "offer", "peek", "over",
)

DEFAULT_NAMES = ("You", "Bran", "Arya", "Jon", "Brienne", "Davos")


@dataclass(frozen=True)
class ClueConfig:
    """A game's setup. ``players == 2`` is the two-players / two-teams mode."""

    board: str = "red-keep"
    players: int = 4
    names: tuple[str, ...] = ()
    characters: tuple[str, ...] = ()
    centre_pile: bool = False
    max_rounds: int = 200

    def __post_init__(self) -> None:
        if self.board not in BOARDS:
            raise ValueError(f"Unknown board {self.board!r}; choose one of: {', '.join(BOARDS)}.")
        if not 2 <= self.players <= 6:
            raise ValueError("Clue: Game of Thrones is for 2 to 6 players.")
        if self.names and len(self.names) != self.players:
            raise ValueError(f"Give {self.players} player names, not {len(self.names)}.")
        if len(set(self.seat_names())) != self.players:
            raise ValueError("Player names must be different.")
        board = load_board(self.board)
        chars = self.seat_characters()
        if len(chars) != self.players or len(set(chars)) != len(chars):
            raise ValueError("Each player needs a different character.")
        for c in chars:
            if c not in board.suspects:
                raise ValueError(f"{c!r} is not a suspect of {board.name}.")
        if self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1.")

    def seat_names(self) -> tuple[str, ...]:
        return self.names or DEFAULT_NAMES[: self.players]

    def seat_characters(self) -> tuple[str, ...]:
        return self.characters or load_board(self.board).suspects[: self.players]

    def to_json(self) -> dict:
        return {
            "board": self.board,
            "players": self.players,
            "names": list(self.seat_names()),
            "characters": list(self.seat_characters()),
            "centre_pile": self.centre_pile,
            "max_rounds": self.max_rounds,
        }

    @classmethod
    def from_json(cls, data: dict) -> ClueConfig:
        known = {"board", "players", "names", "characters", "centre_pile", "max_rounds"}
        extra = set(data) - known
        if extra:
            raise ValueError(f"Unknown Clue option(s): {', '.join(sorted(extra))}.")
        kw = dict(data)
        for k in ("names", "characters"):
            if k in kw:
                kw[k] = tuple(kw[k])
        return cls(**kw)


class ClueState:
    """The whole game, secrets included. Only the engine and the table ever hold one."""

    # One annotation per slot, for the type checker (the slots hold the values). A ``Phased``
    # slot holds a value while its phase lasts and None otherwise: the phase says which.
    aside: tuple[str, ...]
    board: Board
    centre: tuple[str, ...]
    chars: tuple[str, ...]
    config: ClueConfig
    dice: Phased
    discard: tuple[str, ...]
    eliminated: tuple[bool, ...]
    entered: bool
    envelope: tuple[str, ...]
    face_up: tuple[str, ...]
    first: int
    hands: tuple[tuple[str, ...], ...]
    left: frozenset[int]
    log: EventLog
    looked: bool
    moved: bool
    moved_by_rumor: tuple[bool, ...]
    offer: Phased
    phase: str
    plot_deck: tuple[str, ...]
    plot_hands: tuple[tuple[str, ...], ...]
    pos: dict[str, int]
    power_now: bool
    power_used: tuple[bool, ...]
    refuter: Phased
    result: Phased
    resume: Phased
    rng: Rng
    round: int
    rumor: Phased
    rumored: bool
    steps: int
    teleporter: Phased
    turn: int
    walkers: int
    weapons: dict[str, int]
    wrong: tuple[bool, ...]

    __slots__ = (
        "aside",
        "board",
        "centre",
        "chars",
        "config",
        "dice",
        "discard",
        "eliminated",
        "entered",
        "envelope",
        "face_up",
        "first",
        "hands",
        "left",
        "log",
        "looked",
        "moved",
        "moved_by_rumor",
        "offer",
        "phase",
        "plot_deck",
        "plot_hands",
        "pos",
        "power_now",
        "power_used",
        "refuter",
        "result",
        "resume",
        "rng",
        "round",
        "rumor",
        "rumored",
        "steps",
        "teleporter",
        "turn",
        "walkers",
        "weapons",
        "wrong",
    )

    def copy(self) -> ClueState:
        """A cheap copy (the hot path of any search): every field is immutable or replaced, never
        edited, by ``apply``; only the RNG and the event log need copies of their own."""
        c = ClueState.__new__(ClueState)
        c.aside = self.aside
        c.board = self.board
        c.centre = self.centre
        c.chars = self.chars
        c.config = self.config
        c.dice = self.dice
        c.discard = self.discard
        c.eliminated = self.eliminated
        c.entered = self.entered
        c.envelope = self.envelope
        c.face_up = self.face_up
        c.first = self.first
        c.hands = self.hands
        c.left = self.left
        c.looked = self.looked
        c.moved = self.moved
        c.moved_by_rumor = self.moved_by_rumor
        c.offer = self.offer
        c.phase = self.phase
        c.plot_deck = self.plot_deck
        c.plot_hands = self.plot_hands
        c.pos = self.pos
        c.power_now = self.power_now
        c.power_used = self.power_used
        c.refuter = self.refuter
        c.result = self.result
        c.resume = self.resume
        c.round = self.round
        c.rumor = self.rumor
        c.rumored = self.rumored
        c.steps = self.steps
        c.teleporter = self.teleporter
        c.turn = self.turn
        c.walkers = self.walkers
        c.weapons = self.weapons
        c.wrong = self.wrong
        c.rng = self.rng.copy()
        c.log = self.log.copy()
        return c


def _deck_order(board: Board) -> dict[str, int]:
    return {c: i for i, c in enumerate(board.cards)}


def new_game(config: ClueConfig, seed: int, rng: Rng | None = None) -> ClueState:
    """Deal a new game: envelope, hands, leftovers, the Plot deck, and who starts."""
    board = load_board(config.board)
    rules = load_rules()
    rng = Rng(seed) if rng is None else rng  # an outside rng: explicit chance (ChanceRng)
    s = ClueState()
    s.config = config
    s.board = board
    s.rng = rng
    n = config.players
    s.envelope = (rng.choice(board.suspects), rng.choice(board.weapons), rng.choice(board.locations))
    rest = [c for c in board.cards if c not in s.envelope]
    rng.shuffle(rest)
    aside: list[str] = []
    if n == 2:
        aside, rest = rest[:4], rest[4:]
    per = len(rest) // n
    order = _deck_order(board)
    s.hands = tuple(tuple(sorted(rest[i * per : (i + 1) * per], key=order.__getitem__)) for i in range(n))
    leftovers = tuple(sorted(rest[n * per :], key=order.__getitem__))
    if config.centre_pile:
        s.face_up, s.centre = (), leftovers
    else:
        s.face_up, s.centre = leftovers, ()
    s.aside = tuple(aside)
    s.chars = config.seat_characters()
    centre = board.centre
    s.pos = {sus: centre for sus in board.suspects}
    s.weapons = {w: centre for w in board.weapons}
    deck = [p.id for p in rules.plot for _ in range(p.count)]
    rng.shuffle(deck)
    s.plot_deck = tuple(deck)
    s.plot_hands = tuple(() for _ in range(n))
    s.discard = ()
    s.walkers = 0
    s.first = rng.below(n)
    s.turn = s.first
    s.round = 1
    s.dice = None
    s.steps = 0
    s.left = frozenset()
    s.entered = False
    s.moved = False
    s.rumored = False
    s.looked = False
    s.power_used = (False,) * n
    s.power_now = False
    s.moved_by_rumor = (False,) * n
    s.wrong = (False,) * n
    s.eliminated = (False,) * n
    s.rumor = None
    s.refuter = None
    s.offer = None
    s.resume = None
    s.teleporter = None
    s.result = None
    s.log = EventLog()
    s.phase = START
    s.log.append({"t": "setup", "board": board.id, "players": list(config.seat_names()),
                  "characters": list(s.chars), "face_up": list(s.face_up),
                  "centre": len(s.centre), "aside": len(s.aside), "first": s.first,
                  "hand_sizes": [len(h) for h in s.hands]})
    for seat in range(n):
        s.log.append({"t": "hand", "seat": seat, "cards": list(s.hands[seat])}, (seat,))
    s.log.append({"t": "turn", "seat": s.turn, "round": 1})
    return s


# --------------------------------------------------------------------------- queries


def to_act(state: ClueState) -> int | None:
    """The seat that must decide now (None when the game is over)."""
    p = state.phase
    if p == OVER:
        return None
    if p == REFUTE:
        return state.refuter
    if p == OFFER:
        return state.offer
    if p == TELEPORT:
        return state.teleporter
    return state.turn


def is_over(state: ClueState) -> bool:
    return state.phase == OVER


def result(state: ClueState) -> dict | None:
    """Winners and why, once the game is over."""
    return state.result


def _here(state: ClueState) -> int:
    return state.pos[state.chars[state.turn]]


def _matching(state: ClueState, seat: int) -> list[str]:
    cards = state.rumor[1]
    return [c for c in state.hands[seat] if c in cards]


def legal_actions(state: ClueState) -> list[Action]:
    """Every action the seat to act may take now, in a stable order."""
    p = state.phase
    b = state.board
    if p == OVER:
        return []
    if p == REFUTE:
        return [("show", c) for c in _matching(state, state.refuter)]
    if p == OFFER:
        return [("draw",), ("decline",)]
    if p == TELEPORT:
        here = state.pos[state.chars[state.teleporter]]
        return [("teleport", node) for node in range(b.centre + 1) if node != here]
    if p == ASIDE:
        return [("look_aside", i) for i in range(len(state.aside))]
    if p == PEEK:
        return [("peek", t) for t in _peek_targets(state)]
    if p == MOVE:
        return [("move", d) for d in b.destinations(_here(state), state.steps, state.left)]
    seat = state.turn
    here = _here(state)
    acts: list[Action] = []
    if p == START:
        acts.append(("roll",))
        if here in b.passages and b.passages[here] not in state.left:
            acts.append(("passage",))
        if state.moved_by_rumor[seat] and here < b.centre:
            acts.append(("stay",))
    else:  # AFTER
        if not state.rumored and state.entered and here < b.centre:
            acts.extend(("rumor", su, w) for su in b.suspects for w in b.weapons)
        if here == b.centre and state.entered and not state.looked:
            acts.extend(("accuse", su, w, lo) for su in b.suspects for w in b.weapons for lo in b.locations)
            if state.centre:
                acts.append(("look_centre",))
        if state.moved and not state.rumored and not state.power_used[seat] and not state.power_now:
            acts.append(("power",))
    if "raven" in state.plot_hands[seat] and _peek_targets(state):
        acts.append(("play", "raven"))
    if p == AFTER:
        acts.append(("end",))
    return acts


def _peek_targets(state: ClueState) -> list[int]:
    return [t for t in range(state.config.players)
            if t != state.turn and not state.eliminated[t] and state.hands[t]]


# --------------------------------------------------------------------------- apply


def apply(state: ClueState, action: Action) -> ClueState:
    """Return the state after ``action``; raise IllegalAction (state untouched) if it is not allowed."""
    action = tuple(action)
    _check(state, action)
    s = state.copy()
    _do(s, action)
    return s


def _check(state: ClueState, a: Action) -> None:
    """Validate without building the whole legal list (accusations alone are hundreds)."""
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    if not a:
        raise IllegalAction("An action needs a name.")
    # Only text and whole numbers: 1.0 or True would compare equal to a legal move and
    # then corrupt the state (a float node, a bool index).
    if any(isinstance(x, bool) or not isinstance(x, (str, int)) for x in a):
        raise IllegalAction("An action is made of names and whole numbers only.")
    kind = a[0]
    b = state.board
    if kind == "accuse":
        if state.phase != AFTER or _here(state) != b.centre or not state.entered:
            raise IllegalAction(f"You can only accuse after entering the {b.centre_name}.")
        if state.looked:
            raise IllegalAction(f"You looked at the cards in the {b.centre_name}; you cannot also accuse this turn.")
        if len(a) != 4 or a[1] not in b.suspects or a[2] not in b.weapons or a[3] not in b.locations:
            raise IllegalAction("An accusation names one suspect, one weapon and one location.")
        return
    if kind == "rumor":
        if state.phase != AFTER:
            raise IllegalAction("You can only start a rumor after you move.")
        here = _here(state)
        if here >= b.centre:
            where = b.centre_name if here == b.centre else "a path"
            raise IllegalAction(f"You cannot start a rumor in {where}; only in a location.")
        if state.rumored:
            raise IllegalAction("You already started a rumor this turn.")
        if not state.entered:
            raise IllegalAction("You must enter a location (or stay after a rumor moved you) to start a rumor.")
        if len(a) != 3 or a[1] not in b.suspects or a[2] not in b.weapons:
            raise IllegalAction("A rumor names one suspect and one weapon; the location is where you stand.")
        return
    if a not in legal_actions(state):
        raise IllegalAction(_explain(state, a))


def _explain(state: ClueState, a: Action) -> str:
    kind = a[0]
    b = state.board
    if kind == "show":
        if state.phase != REFUTE:
            return "Nobody asked you to show a card."
        return "You must show a card named in the rumor that you hold."
    if kind == "move":
        if state.phase != MOVE:
            return "Roll the dice before you move."
        return f"You cannot reach that space with {words.count(state.steps, 'step')}."
    if kind == "passage":
        return "There is no secret passage from here you may use now."
    if kind == "stay":
        return "You may stay only when a rumor moved your token into a location."
    if kind == "power":
        return "Your character's power is used once per game, after you move and before a rumor."
    if kind == "end":
        return "You cannot end your turn yet."
    if kind == "roll":
        return "You cannot roll now."
    if kind == "look_centre":
        return f"There is nothing to look at, or you did not enter the {b.centre_name} this turn."
    if kind == "play":
        return "You have no such Plot card to play now."
    return f"{kind!r} is not allowed now."


def _draw(s: ClueState, seat: int) -> str | None:
    """Draw one Plot card and resolve what happens at once. Returns the effect drawn."""
    if s.eliminated[seat] or s.wrong[seat] or not s.plot_deck:  # a wrong accuser only answers rumors
        return None
    card = s.plot_deck[-1]
    s.plot_deck = s.plot_deck[:-1]
    if card == "white-walker":
        if s.walkers < 7:
            s.walkers += 1
            s.log.append({"t": "plot", "seat": seat, "card": card, "walkers": s.walkers})
            return None
        # The 8th: the drawer is out, cards face up, and the card goes back into the pile.
        s.log.append({"t": "plot", "seat": seat, "card": card, "walkers": 8})
        deck = [*list(s.plot_deck), card]
        s.rng.shuffle(deck)
        s.plot_deck = tuple(deck)
        _eliminate(s, seat)
        return "eliminated"
    if card == "master-of-whisperers":
        s.log.append({"t": "plot", "seat": seat, "card": card})
        s.discard = (*s.discard, card)
        return "teleport"
    s.plot_hands = _set(s.plot_hands, seat, s.plot_hands[seat] + (card,))
    s.log.append({"t": "plot", "seat": seat, "card": card}, (seat,))
    return None


def _eliminate(s: ClueState, seat: int) -> None:
    s.eliminated = _set(s.eliminated, seat, True)
    s.discard = s.discard + s.plot_hands[seat]
    s.plot_hands = _set(s.plot_hands, seat, ())
    s.log.append({"t": "eliminated", "seat": seat, "cards": list(s.hands[seat])})
    _check_all_out(s)


def _check_all_out(s: ClueState) -> None:
    if s.phase == OVER:
        return
    if not any(not w and not e for w, e in zip(s.wrong, s.eliminated, strict=False)):
        reason = "all-eliminated" if all(s.eliminated) else "unsolved"
        _finish(s, [], reason)


def _finish(s: ClueState, winners: list[int], reason: str) -> None:
    s.phase = OVER
    s.result = {"winners": winners, "reason": reason, "envelope": list(s.envelope)}
    s.log.append({"t": "end", **s.result})


def _set(t: tuple, i: int, v: Any) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def _roll(s: ClueState, seat: int) -> None:
    faces = load_rules().dice_faces
    dice = [s.rng.choice(faces), s.rng.choice(faces)]
    s.dice = dice
    s.log.append({"t": "roll", "seat": seat, "dice": list(dice)})
    steps = sum(d for d in dice if isinstance(d, int))  # the "?" face moves nothing
    teleport = False
    for d in dice:
        if d == "?":
            eff = _draw(s, seat)
            if s.phase == OVER:
                return
            if eff == "eliminated":
                _end_turn(s)
                return
            teleport = teleport or eff == "teleport"
    s.moved = True
    if teleport:
        _start_teleport(s, seat, AFTER)
        return
    s.steps = steps
    if s.board.destinations(_here(s), steps, s.left):
        s.phase = MOVE
    else:
        s.phase = AFTER


def _start_teleport(s: ClueState, seat: int, resume: str) -> None:
    s.teleporter = seat
    s.resume = resume
    s.phase = TELEPORT


def _move_token(s: ClueState, seat: int, node: int, how: str) -> None:
    sus = s.chars[seat]
    old = s.pos[sus]
    if s.board.is_room(old):
        s.left = s.left | {old}
    s.pos = {**s.pos, sus: node}
    s.log.append({"t": "move", "seat": seat, "suspect": sus, "to": node, "how": how})


def _arrive(s: ClueState, seat: int) -> None:
    """After a move in your own turn: entering a location or the centre lets you act there."""
    node = _here(s)
    s.entered = s.board.is_room(node)
    s.phase = AFTER
    if node in s.board.plot_squares:
        eff = _draw(s, seat)
        if s.phase == OVER:
            return
        if eff == "eliminated":
            _end_turn(s)
        elif eff == "teleport":
            _start_teleport(s, seat, AFTER)


def _do(s: ClueState, a: Action) -> None:
    kind = a[0]
    seat = cast(int, to_act(s))  # apply() refused every action once the game was over
    b = s.board
    if kind == "roll":
        _roll(s, seat)
    elif kind == "move":
        _move_token(s, seat, a[1], "walk")
        _arrive(s, seat)
    elif kind == "passage":
        s.moved = True
        _move_token(s, seat, b.passages[_here(s)], "passage")
        _arrive(s, seat)
    elif kind == "stay":
        s.log.append({"t": "stay", "seat": seat})
        s.entered = True
        s.phase = AFTER
    elif kind == "teleport":
        _move_token(s, seat, a[1], "teleport")
        if s.resume == AFTER:
            s.entered = True
            s.phase = AFTER
        else:  # drawn after a rumor moved this player: back to finishing that rumor
            s.moved_by_rumor = _set(s.moved_by_rumor, seat, True)
            _end_turn(s)
    elif kind == "power":
        s.power_used = _set(s.power_used, seat, True)
        s.power_now = True
        s.log.append({"t": "power", "seat": seat, "power": b.powers[s.chars[seat]]})
        s.entered = False
        _roll(s, seat)
    elif kind == "rumor":
        _rumor(s, seat, a[1], a[2])
    elif kind == "show":
        asker = s.rumor[0]
        s.log.append({"t": "show", "seat": seat, "to": asker, "card": a[1]}, (seat, asker))
        _after_refutation(s)
    elif kind == "look_aside":
        i = a[1]
        s.log.append({"t": "aside", "seat": seat, "index": i, "card": s.aside[i]}, (seat,))
        _after_refutation(s)
    elif kind == "draw":
        eff = _draw(s, seat)
        if s.phase == OVER:
            return
        if eff == "teleport":
            _start_teleport(s, seat, "rumor")
            return
        _end_turn(s)
    elif kind == "decline":
        s.log.append({"t": "decline", "seat": seat})
        _end_turn(s)
    elif kind == "accuse":
        cards = (a[1], a[2], a[3])
        correct = cards == s.envelope
        s.log.append({"t": "accuse", "seat": seat, "cards": list(cards), "correct": correct})
        if correct:
            _finish(s, [seat], "solved")
            return
        s.wrong = _set(s.wrong, seat, True)
        # "Check the contents of the confidential envelope, out of sight of the other players."
        s.log.append({"t": "envelope", "seat": seat, "cards": list(s.envelope)}, (seat,))
        _check_all_out(s)
        if s.phase != OVER:
            _end_turn(s)
    elif kind == "look_centre":
        s.looked = True
        s.log.append({"t": "centre_look", "seat": seat, "cards": list(s.centre)}, (seat,))
    elif kind == "play":
        hand = list(s.plot_hands[seat])
        hand.remove(a[1])
        s.plot_hands = _set(s.plot_hands, seat, tuple(hand))
        s.discard = (*s.discard, a[1])
        s.log.append({"t": "play", "seat": seat, "card": a[1]})
        s.resume = s.phase
        s.phase = PEEK
    elif kind == "peek":
        target = a[1]
        card = s.rng.choice(s.hands[target])
        s.log.append({"t": "peek", "seat": seat, "target": target, "card": card}, (seat, target))
        s.phase = s.resume
        s.resume = None
    elif kind == "end":
        _end_turn(s)
    else:  # pragma: no cover - _check guards this
        raise IllegalAction(f"Unknown action {kind!r}.")


def _rumor(s: ClueState, seat: int, suspect: str, weapon: str) -> None:
    b = s.board
    here = _here(s)
    location = b.locations[here]
    s.rumored = True
    s.log.append({"t": "rumor", "seat": seat, "cards": [suspect, weapon, location]})
    s.weapons = {**s.weapons, weapon: here}
    s.offer = None
    if s.pos[suspect] != here:
        s.pos = {**s.pos, suspect: here}
        if suspect in s.chars:
            moved = s.chars.index(suspect)
            s.log.append({"t": "move", "seat": moved, "suspect": suspect, "to": here, "how": "rumor"})
            s.moved_by_rumor = _set(s.moved_by_rumor, moved, True)
            # "Keep your cards hidden and continue to answer the rumors": a wrong accuser draws no Plot card.
            if not s.eliminated[moved] and not s.wrong[moved] and s.plot_deck:
                s.offer = moved
        else:
            s.log.append({"t": "move", "seat": None, "suspect": suspect, "to": here, "how": "rumor"})
    s.rumor = (seat, (suspect, weapon, location), seat)
    _next_refuter(s)


def _next_refuter(s: ClueState) -> None:
    asker, cards, at = s.rumor
    n = s.config.players
    i = at
    while True:
        i = (i + 1) % n
        if i == asker:
            s.log.append({"t": "no_show", "seat": asker})
            if s.aside:
                s.phase = ASIDE
                return
            _after_refutation(s)
            return
        if s.eliminated[i]:
            continue
        if any(c in cards for c in s.hands[i]):
            s.rumor = (asker, cards, i)
            s.refuter = i
            s.phase = REFUTE
            return
        s.log.append({"t": "pass", "seat": i})


def _after_refutation(s: ClueState) -> None:
    s.refuter = None
    if s.offer is not None:
        s.phase = OFFER
        return
    _end_turn(s)


def _end_turn(s: ClueState) -> None:
    if s.phase == OVER:
        return
    n = s.config.players
    cur = s.turn
    s.moved_by_rumor = _set(s.moved_by_rumor, cur, False)
    s.rumor = None
    s.refuter = None
    s.offer = None
    s.resume = None
    s.teleporter = None
    s.dice = None
    s.steps = 0
    s.left = frozenset()
    s.entered = s.moved = s.rumored = s.looked = s.power_now = False
    nxt = cur
    for _ in range(n):
        nxt = (nxt + 1) % n
        if nxt == s.first:
            s.round += 1
        if not s.wrong[nxt] and not s.eliminated[nxt]:
            break
    else:
        _check_all_out(s)
        return
    if s.round > s.config.max_rounds:
        _finish(s, [], "round-limit")
        return
    s.turn = nxt
    s.phase = START
    s.log.append({"t": "turn", "seat": nxt, "round": s.round})


# --------------------------------------------------------------------------- views

_SECRET_FIELDS = {"envelope": ("cards",), "hand": ("cards",), "plot": ("card",), "show": ("card",), "aside": ("card",),
                  "centre_look": ("cards",), "peek": ("card",)}


_OWN_ECHOES = frozenset({"show", "aside"})
_PUBLIC_REVEALS = frozenset({"plot", "pass", "no_show", "accuse", "eliminated", "end"})
_REDACTED_REVEALS = frozenset({"show", "peek"})


def shows_hidden(event: dict, seats: tuple[int, ...] | None, seat: int) -> bool:
    """Whether this log entry shows ``seat`` something hidden (a card shown, a pass, a Plot card): undo stops there."""
    return _shows_hidden(event, seats, seat, own=_OWN_ECHOES, public=_PUBLIC_REVEALS, redacted=_REDACTED_REVEALS)


def redact(event: dict) -> dict:
    """What a seat that may not see ``event`` whole is told about it."""
    fields = _SECRET_FIELDS.get(event["t"], ())
    out = _copy_event(event)
    for f in fields:
        v = out[f]
        if isinstance(v, list):
            out["count"] = len(v)
        out[f] = None
    return out


def events_for(state: ClueState, seat: int | None, since: int = 0) -> list[dict]:
    """The seat's observation stream from log index ``since``; each event carries its index ``n``."""
    out = []
    for i, (ev, seats) in enumerate(state.log.entries(since), start=since):
        if seats is None or (seat is not None and seat in seats):
            e = _copy_event(ev)
        else:
            e = redact(ev)
        e["n"] = i
        out.append(e)
    return out


def _copy_event(event: dict) -> dict:
    """A copy whose lists are new too: whoever holds a view must not be able to edit the log."""
    return {k: list(v) if isinstance(v, list) else v for k, v in event.items()}


def view(state: ClueState, seat: int, since: int = 0) -> dict:
    """Everything ``seat`` may know now, and nothing more. ``since`` trims old events."""
    b = state.board
    n = state.config.players
    over = state.phase == OVER
    actor = to_act(state)
    v = {
        "game": "clue",
        "seat": seat,
        "board": b.id,
        "players": list(state.config.seat_names()),
        "characters": list(state.chars),
        "hand": list(state.hands[seat]),
        "plot_hand": list(state.plot_hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "plot_counts": [len(h) for h in state.plot_hands],
        "face_up": list(state.face_up),
        "centre_count": len(state.centre),
        "aside_count": len(state.aside),
        "revealed": {str(i): list(state.hands[i]) for i in range(n) if state.eliminated[i]},
        "positions": dict(state.pos),
        "weapons": dict(state.weapons),
        "turn": state.turn,
        "round": state.round,
        "phase": state.phase,
        "to_act": actor,
        "dice": list(state.dice) if state.dice is not None else None,
        "steps": state.steps if state.phase == MOVE else 0,
        "left": sorted(state.left),
        "rumor": [state.rumor[0], list(state.rumor[1])] if state.rumor else None,
        "eliminated": list(state.eliminated),
        "wrong": list(state.wrong),
        "power_used": list(state.power_used),
        "walkers": state.walkers,
        "plot_deck": len(state.plot_deck),
        "over": over,
        "result": _copy_event(state.result) if over else None,
        "events": events_for(state, seat, since),
        "legal": [list(x) for x in legal_actions(state)] if actor == seat else [],
    }
    return v


# --------------------------------------------------------------------------- JSON


def action_to_json(action: Action) -> list:
    return list(action)


def action_from_json(data: Any) -> Action:
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"Not a Clue action: {data!r}")
    return tuple(data)


def state_to_json(state: ClueState) -> dict:
    return {
        "config": state.config.to_json(),
        "rng": state.rng.state,
        "envelope": list(state.envelope),
        "hands": [list(h) for h in state.hands],
        "face_up": list(state.face_up),
        "centre": list(state.centre),
        "aside": list(state.aside),
        "chars": list(state.chars),
        "pos": dict(state.pos),
        "weapons": dict(state.weapons),
        "plot_deck": list(state.plot_deck),
        "plot_hands": [list(h) for h in state.plot_hands],
        "discard": list(state.discard),
        "walkers": state.walkers,
        "turn": state.turn,
        "first": state.first,
        "round": state.round,
        "phase": state.phase,
        "dice": list(state.dice) if state.dice is not None else None,
        "steps": state.steps,
        "left": sorted(state.left),
        "entered": state.entered,
        "moved": state.moved,
        "rumored": state.rumored,
        "looked": state.looked,
        "power_used": list(state.power_used),
        "power_now": state.power_now,
        "moved_by_rumor": list(state.moved_by_rumor),
        "wrong": list(state.wrong),
        "eliminated": list(state.eliminated),
        "rumor": [state.rumor[0], list(state.rumor[1]), state.rumor[2]] if state.rumor else None,
        "refuter": state.refuter,
        "offer": state.offer,
        "resume": state.resume,
        "teleporter": state.teleporter,
        "result": _copy_event(state.result) if state.result is not None else None,
        "log": state.log.to_json(),
    }


def state_from_json(d: dict) -> ClueState:
    s = ClueState()
    s.config = ClueConfig.from_json(d["config"])
    s.board = load_board(s.config.board)
    s.rng = Rng(d["rng"])
    s.envelope = tuple(d["envelope"])
    s.hands = tuple(tuple(h) for h in d["hands"])
    s.face_up = tuple(d["face_up"])
    s.centre = tuple(d["centre"])
    s.aside = tuple(d["aside"])
    s.chars = tuple(d["chars"])
    s.pos = dict(d["pos"])
    s.weapons = dict(d["weapons"])
    s.plot_deck = tuple(d["plot_deck"])
    s.plot_hands = tuple(tuple(h) for h in d["plot_hands"])
    s.discard = tuple(d["discard"])
    for k in ("walkers", "turn", "first", "round", "phase", "steps", "entered", "moved",
              "rumored", "looked", "power_now", "refuter", "offer", "resume", "teleporter"):
        setattr(s, k, d[k])
    s.dice = list(d["dice"]) if d["dice"] is not None else None
    s.result = _copy_event(d["result"]) if d["result"] is not None else None
    s.left = frozenset(d["left"])
    for k in ("power_used", "moved_by_rumor", "wrong", "eliminated"):
        setattr(s, k, tuple(d[k]))
    r = d["rumor"]
    s.rumor = (r[0], tuple(r[1]), r[2]) if r else None
    s.log = EventLog.from_json(d["log"])
    return s
