"""Tokyo Ghoul: Bloody Masquerade rules engine.

Pure rules over plain data: ``new_game`` deals from a seeded RNG held in the state,
``apply`` returns a new state (or raises :class:`IllegalAction` and leaves the old one as it
was), and ``view`` gives one seat exactly what that seat may see. Rules decisions where
the rulebook is silent are listed in ``data/rules.toml`` and explained in ``docs/ghoul.md``.

A seat is skipped only when the whole table can tell its decision is forced (showing the only
two cards you have, a Cover Up with no marker anywhere, a move with one place to go when no
Inspector could use a special): that decision is taken for it, with the same events as if it
had chosen. A decision forced by hidden facts (three Doves in hand, a Mask to place, a card you
hold) is asked all the same, with its single option, and every active player whose location
can attack somebody is asked about the attack (a player who cannot kill may only pass).

Actions are tuples of plain values (suits and places by name/number):

* ``("reveal", suit)``       place a card face up (Mask variant setup, or a refill)
* ``("show", suit, suit)``   preliminary phase: the 2 cards shown to your left neighbour;
                             in an interrogation: the 2 cards you show the active player
* ``("give", suit)``         preliminary phase: the card given to your right neighbour
* ``("move", place)``        move the Action token to a visible place (0-7)
* ``("special", seat)``      Inspectors' special action instead of moving
* ``("interrogate", seat)``; ``("exchange", give, take, give_from, take_from)`` with
                             ``*_from`` "hand" or "board" (a face-up Mask-variant card)
* ``("remove", seat)``, ``("add", seat)``  Cover Up Tracks
* ``("attack", seat)``
* ``("look", seat)``, ``("swap", seat)``   Support variant, at the end of your turn
* ``("pass",)``              skip an optional action
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from engine import words
from engine.core import EventLog, IllegalAction, Rng
from engine.core import shows_hidden as _shows_hidden
from engine.ghoul.data import (
    COFFEE,
    DOVE,
    FOOD,
    MASK,
    SUIT_INDEX,
    SUITS,
    TRANSFORMATION,
    Character,
    load_data,
)

Phased = Any  # a slot that only its phase fills (see the state's annotations)
Action = tuple

# Phases
SETUP_FACE = "setup_face"  # Mask variant: each player without a Mask picks the face-up card
PRELIM_SHOW = "prelim_show"
PRELIM_GIVE = "prelim_give"
MOVE = "move"
INTERROGATE = "interrogate"
SHOW = "show"
EXCHANGE = "exchange"
REFILL = "refill"
COVER_REMOVE = "cover_remove"
COVER_ADD = "cover_add"
ATTACK = "attack"
SUPPORT = "support"
OVER = "over"
SIMULTANEOUS = (SETUP_FACE, PRELIM_SHOW, PRELIM_GIVE)

NEUTRAL, KANEKI_TOKEN = "neutral", "kaneki"
DEFAULT_NAMES = ("You", "Aiko", "Daichi", "Emi", "Haru", "Kenta", "Mei", "Sora")
ZERO = (0, 0, 0, 0, 0)


@dataclass(frozen=True)
class GhoulConfig:
    """A game's setup: players, names, variants, and optionally the cast (character ids)."""

    players: int = 6
    names: tuple[str, ...] = ()
    mask: bool = False
    support: bool = False
    setup: str = "a"
    characters: tuple[str, ...] = ()
    max_rounds: int = 60

    def __post_init__(self) -> None:
        data = load_data()
        if not isinstance(self.players, int) or not 4 <= self.players <= 8:
            raise ValueError("Tokyo Ghoul: Bloody Masquerade is for 4 to 8 players.")
        data.setup(self.players, self.setup)  # raises with a sentence
        if self.names and len(self.names) != self.players:
            raise ValueError(f"Give {self.players} player names, not {len(self.names)}.")
        if len(set(self.seat_names())) != self.players:
            raise ValueError("Player names must be different.")
        if self.characters:
            problems = data.cast_problems(self.characters, self.players, self.setup, self.mask)
            if problems:
                raise ValueError(" ".join(problems))
        if not isinstance(self.max_rounds, int) or self.max_rounds < 1:
            raise ValueError("max_rounds must be at least 1.")

    def seat_names(self) -> tuple[str, ...]:
        return self.names or DEFAULT_NAMES[: self.players]

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "names": list(self.seat_names()),
            "mask": self.mask,
            "support": self.support,
            "setup": self.setup,
            "characters": list(self.characters),
            "max_rounds": self.max_rounds,
        }

    @classmethod
    def from_json(cls, data: dict) -> GhoulConfig:
        if not isinstance(data, dict):
            raise ValueError("A Tokyo Ghoul config is a JSON object.")
        known = {"players", "names", "mask", "support", "setup", "characters", "max_rounds"}
        extra = set(data) - known
        if extra:
            raise ValueError(f"Unknown Tokyo Ghoul option(s): {', '.join(sorted(extra))}.")
        kw = dict(data)
        for k in ("names", "characters"):
            if k in kw:
                kw[k] = tuple(kw[k])
        for k in ("mask", "support"):
            if k in kw and not isinstance(kw[k], bool):
                raise ValueError(f"The option {k!r} is true or false.")
        return cls(**kw)


class GhoulState:
    """The whole game, secrets included. Only the engine and the table ever hold one.

    ``hands[i]`` counts every card seat ``i`` holds (hidden hand + face-up card), per suit;
    ``up[i]`` is the suit of its face-up card (-1: none; always -1 outside the Mask variant).
    """

    # One annotation per slot, for the type checker (the slots hold the values). A ``Phased``
    # slot holds a value while its phase lasts and None otherwise: the phase says which.
    cast: tuple[str, ...]
    chars: tuple[str, ...]
    config: GhoulConfig
    face: tuple[bool, ...]
    first: int
    hands: tuple[tuple[int, ...], ...]
    known: tuple[bool, ...]
    legal: tuple[tuple[Any, ...], ...]
    log: EventLog
    markers: tuple[int, ...]
    moved: bool
    order_pi: int
    pending: Phased
    phase: str
    pool: int
    pool_out: bool
    prelim_give: Phased
    prelim_show: Phased
    refill: tuple[int, ...]
    result: Phased
    ring: tuple[str, ...]
    rng: Rng
    round: int
    shown: tuple[int, ...]
    sknown: tuple[tuple[str | None, ...], ...]
    step: int
    target: int
    tk: int
    token: int
    turn: int
    up: tuple[int, ...]

    __slots__ = (
        "cast",
        "chars",
        "config",
        "face",
        "first",
        "hands",
        "known",
        "legal",
        "log",
        "markers",
        "moved",
        "order_pi",
        "pending",
        "phase",
        "pool",
        "pool_out",
        "prelim_give",
        "prelim_show",
        "refill",
        "result",
        "ring",
        "rng",
        "round",
        "shown",
        "sknown",
        "step",
        "target",
        "tk",
        "token",
        "turn",
        "up",
    )

    def copy(self) -> GhoulState:
        """A cheap copy: every field is immutable or replaced, never edited, by ``apply``."""
        c = GhoulState.__new__(GhoulState)
        c.cast = self.cast
        c.chars = self.chars
        c.config = self.config
        c.face = self.face
        c.first = self.first
        c.hands = self.hands
        c.known = self.known
        c.legal = self.legal
        c.markers = self.markers
        c.moved = self.moved
        c.order_pi = self.order_pi
        c.pending = self.pending
        c.phase = self.phase
        c.pool = self.pool
        c.pool_out = self.pool_out
        c.prelim_give = self.prelim_give
        c.prelim_show = self.prelim_show
        c.refill = self.refill
        c.result = self.result
        c.ring = self.ring
        c.round = self.round
        c.shown = self.shown
        c.sknown = self.sknown
        c.step = self.step
        c.target = self.target
        c.tk = self.tk
        c.token = self.token
        c.turn = self.turn
        c.up = self.up
        c.rng = self.rng.copy()
        c.log = self.log.copy()
        return c


# --------------------------------------------------------------------------- helpers

_DATA = load_data()
_CHARS: dict[str, Character] = _DATA.characters
_TILES = _DATA.tiles


def _set(t: tuple, i: int, v: Any) -> tuple:
    return (*t[:i], v, *t[i + 1 :])


def _add(h: tuple, suit: int, k: int) -> tuple:
    return (*h[:suit], h[suit] + k, *h[suit + 1 :])


def cards_of(h: tuple) -> list[str]:
    """A hand as a sorted list of suit names (with repeats)."""
    return [SUITS[s] for s in range(5) for _ in range(h[s])]


def hidden_of(s: GhoulState, seat: int) -> tuple:
    """The cards ``seat`` holds in hand (not the face-up one)."""
    u = s.up[seat]
    h = s.hands[seat]
    return h if u < 0 else _add(h, u, -1)


def matches(h: tuple, rule: str) -> bool:
    """Does a holding draw suspicion under a location's Suspicion rule?"""
    if rule == "transformation":
        return h[TRANSFORMATION] >= 1
    if rule == "pair":
        return max(h) >= 2
    if rule == "coffee":
        return h[COFFEE] >= 2
    if rule == "food":
        return h[FOOD] >= 2
    if rule == "dove":
        return h[DOVE] >= 2
    raise ValueError(rule)  # pragma: no cover - data is checked on load


def character(cid: str) -> Character:
    return _CHARS[cid]


def destinations(token: int, face: tuple[bool, ...]) -> list[int]:
    """The places the Action token can reach: the next one or two face-up tiles, clockwise."""
    out = []
    p = token
    for _ in range(7):
        p = (p + 1) % 8
        if face[p]:
            out.append(p)
            if len(out) == 2:
                break
    return out


def _order(s: GhoulState) -> int:
    """The seat whose turn it is to commit in a simultaneous phase."""
    return (s.first + s.order_pi) % s.config.players


# --------------------------------------------------------------------------- setup


def _draw_cast(config: GhoulConfig, rng: Rng) -> list[str]:
    row = _DATA.setup(config.players, config.setup)
    n = config.players
    ok = [c for c in _CHARS.values() if (not c.variant or (c.variant == "mask" and config.mask)) and c.min_players <= n]
    cast: list[str] = []

    def clash(c: Character) -> bool:
        return bool(set(c.excludes) & set(cast)) or any(c.id in _CHARS[x].excludes for x in cast)

    for slot, k in (("ghoul", row.ghouls), ("inspector", row.inspectors), ("human", row.humans)):
        # Kaneki (half Human, half Ghoul) counts as a Ghoul or a Human at setup, never as an Inspector.
        cands = [c for c in ok if (c.slot == slot or (c.slot == "either" and slot != "inspector")) and c.id not in cast]
        rng.shuffle(cands)
        got = 0
        for c in cands:
            if got == k:
                break
            if not clash(c):
                cast.append(c.id)
                got += 1
        if got < k:  # pragma: no cover - the data has enough characters
            raise ValueError(f"Not enough {slot} characters for {n} players.")
    return cast


def new_game(config: GhoulConfig, seed: int, rng: Rng | None = None) -> GhoulState:
    """Set up a game: the ring, the cast, identities, the deal, Support tokens, who starts."""
    rng = Rng(seed) if rng is None else rng  # an outside rng: explicit chance (ChanceRng)
    n = config.players
    s = GhoulState()
    s.config = config
    s.rng = rng
    row = _DATA.setup(n, config.setup)
    # The ring: red tiles face down on their places, the others face up around them.
    red = [t.id for t in _TILES.values() if t.red]
    other = [t.id for t in _TILES.values() if not t.red]
    rng.shuffle(red)
    rng.shuffle(other)
    ring = []
    for p in range(8):
        ring.append(red.pop() if p in _DATA.red_places else other.pop())
    s.ring = tuple(ring)
    s.face = tuple(p not in _DATA.red_places for p in range(8))
    s.known = s.face
    s.token = _DATA.start_place
    s.moved = False
    # Characters.
    cast = list(config.characters) if config.characters else _draw_cast(config, rng)
    order = {cid: i for i, cid in enumerate(_CHARS)}
    s.cast = tuple(sorted(cast, key=order.__getitem__))
    seats = list(cast)
    rng.shuffle(seats)
    s.chars = tuple(seats)
    # Clue cards: every card in play is dealt.
    deck_counts = _DATA.deck(n, config.mask)
    deck = [suit for suit in range(5) for _ in range(deck_counts[suit])]
    rng.shuffle(deck)
    per = len(deck) // n
    hands = []
    for i in range(n):
        h = [0] * 5
        for c in deck[i * per : (i + 1) * per]:
            h[c] += 1
        hands.append(tuple(h))
    s.hands = tuple(hands)
    s.up = (-1,) * n
    s.markers = (0,) * n
    s.pool = row.markers
    s.pool_out = False
    s.tk = rng.below(n) if config.support else -1
    s.sknown = tuple(
        tuple((KANEKI_TOKEN if s.tk == j else NEUTRAL) if j == i else None for j in range(n)) if config.support else ()
        for i in range(n)
    )
    s.first = rng.below(n)
    s.turn = s.first
    s.round = 1
    s.step = 0
    s.target = -1
    s.shown = ()
    s.refill = ()
    s.order_pi = 0
    s.pending = (None,) * n
    s.prelim_show = (None,) * n
    s.prelim_give = (None,) * n
    s.result = None
    s.legal = ()
    s.log = EventLog()
    s.log.append(
        {
            "t": "setup",
            "players": list(config.seat_names()),
            "cast": list(s.cast),
            "mask": config.mask,
            "support": config.support,
            "ring": [t if s.known[p] else None for p, t in enumerate(s.ring)],
            "red": [p in _DATA.red_places for p in range(8)],
            "token": s.token,
            "pool": s.pool,
            "deck": {SUITS[i]: deck_counts[i] for i in range(5) if deck_counts[i]},
            "hand_size": per,
            "first": s.first,
        }
    )
    for i in range(n):
        s.log.append({"t": "identity", "seat": i, "character": s.chars[i]}, (i,))
        s.log.append({"t": "hand", "seat": i, "cards": cards_of(s.hands[i]), "face_up": None}, (i,))
        if config.support:
            s.log.append({"t": "support_token", "seat": i, "token": s.sknown[i][i]}, (i,))
    s.phase = SETUP_FACE if config.mask else PRELIM_SHOW
    _settle(s)
    return s


# --------------------------------------------------------------------------- queries


def to_act(state: GhoulState) -> int | None:
    """The seat that must decide now (None when the game is over)."""
    p = state.phase
    if p == OVER:
        return None
    if p in SIMULTANEOUS:
        return _order(state)
    if p == SHOW:
        return state.target
    if p == REFILL:
        return state.refill[0]
    return state.turn


def is_over(state: GhoulState) -> bool:
    return state.phase == OVER


def result(state: GhoulState) -> dict | None:
    """Winners and why, once the game is over."""
    return state.result


def legal_actions(state: GhoulState) -> list[Action]:
    """Every action the seat to act may take now, in a stable order."""
    return list(state.legal)


def _pairs(h: tuple) -> list[Action]:
    out = []
    for a in range(5):
        if h[a]:
            for b in range(a, 5):
                if h[b] > (a == b):
                    out.append(("show", SUITS[a], SUITS[b]))
    return out


def _special_targets(s: GhoulState, seat: int) -> list[int]:
    c = _CHARS[s.chars[seat]]
    if not c.inspector_x or s.hands[seat][DOVE] < 2:
        return []
    count_up = bool(_DATA.options.get("special_counts_face_up"))
    return [
        t
        for t in range(s.config.players)
        if t != seat and s.markers[t] + (1 if count_up and s.up[t] >= 0 else 0) >= c.inspector_x
    ]


def _attack_targets(s: GhoulState) -> list[int]:
    tile = _TILES[s.ring[s.token]]
    rule = tile.actions[s.step - 1].rule
    n = s.config.players
    others = [t for t in range(n) if t != s.turn]
    if rule == "three":
        return [t for t in others if s.markers[t] >= 3]
    top = max(s.markers[t] for t in others)
    if top < int(_DATA.options.get("attack_most_min_markers", 1)):
        return []
    return [t for t in others if s.markers[t] == top]


def _compute_legal(s: GhoulState) -> tuple[Action, ...]:
    p = s.phase
    n = s.config.players
    if p == OVER:
        return ()
    if p == MOVE:
        acts: list[Action] = [("move", d) for d in destinations(s.token, s.face)]
        acts.extend(("special", t) for t in _special_targets(s, s.turn))
        return tuple(acts)
    if p == INTERROGATE:
        return (*(("interrogate", t) for t in range(n) if t != s.turn), ("pass",))
    if p == SHOW:
        return tuple(_pairs(hidden_of(s, s.target)))
    if p == EXCHANGE:
        me, tg = s.turn, s.target
        gives = [(SUITS[x], "hand") for x, k in enumerate(hidden_of(s, me)) if k]
        if s.up[me] >= 0:
            gives.append((SUITS[s.up[me]], "board"))
        takes = [(SUITS[x], "hand") for x in sorted(set(s.shown))]
        if s.up[tg] >= 0:
            takes.append((SUITS[s.up[tg]], "board"))
        return (*(("exchange", g, t, gf, tf) for g, gf in gives for t, tf in takes), ("pass",))
    if p == REFILL:
        h = s.hands[s.refill[0]]
        return tuple(("reveal", SUITS[x]) for x in range(5) if h[x])
    if p == COVER_REMOVE:
        return (*(("remove", t) for t in range(n) if s.markers[t] > 0), ("pass",))
    if p == COVER_ADD:
        if s.pool <= 0:
            return (("pass",),)
        return (*(("add", t) for t in range(n)), ("pass",))
    if p == ATTACK:
        if not _CHARS[s.chars[s.turn]].kill:
            return (("pass",),)  # asked all the same: see _continue
        return (*(("attack", t) for t in _attack_targets(s)), ("pass",))
    if p == SUPPORT:
        return (*(("look", t) for t in range(n)), *(("swap", t) for t in range(n) if t != s.turn), ("pass",))
    seat = _order(s)
    if p == SETUP_FACE:
        h = s.hands[seat]
        if h[MASK]:
            return (("reveal", "mask"),)
        return tuple(("reveal", SUITS[x]) for x in range(5) if h[x])
    if p == PRELIM_SHOW:
        return tuple(_pairs(hidden_of(s, seat)))
    if p == PRELIM_GIVE:
        return tuple(("give", SUITS[x]) for x, k in enumerate(hidden_of(s, seat)) if k)
    raise AssertionError(p)  # pragma: no cover


# --------------------------------------------------------------------------- apply


def apply(state: GhoulState, action: Action) -> GhoulState:
    """Return the state after ``action``; raise IllegalAction (state untouched) if it is not allowed."""
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    action = tuple(action)
    if not action or any(isinstance(x, bool) or not isinstance(x, (str, int)) for x in action):
        raise IllegalAction("An action is made of names and whole numbers only.")
    if action not in state.legal:
        raise IllegalAction(_explain(state, action))
    s = state.copy()
    _do(s, action)
    _settle(s)
    return s


def _settle(s: GhoulState) -> None:
    """Take every publicly forced decision and cache the next legal list.

    A decision with one legal action is taken for the seat only when every other seat can tell
    it is forced (:func:`_publicly_forced`); otherwise the seat is asked, with its single option:
    skipping it would tell the table something only its hand or character decides.
    """
    while True:
        legal = _compute_legal(s)
        if len(legal) != 1 or not _publicly_forced(s):
            s.legal = legal
            return
        _do(s, legal[0])


def _publicly_forced(s: GhoulState) -> bool:
    """Whether the decision now has a single option by public facts alone (hand sizes, markers,
    the Pool, the board, the cast), so taking it at once tells nobody anything.

    Sound by construction: whenever this holds, the seat really has a single legal action.
    """
    p = s.phase
    if p == OVER:
        return False
    seat = to_act(s)
    assert seat is not None
    size = sum(hidden_of(s, seat))
    if p in (SETUP_FACE, REFILL, PRELIM_GIVE):
        return size == 1
    if p in (PRELIM_SHOW, SHOW):
        return size == 2  # two cards make one pair
    if p == COVER_REMOVE:
        return not any(s.markers)
    if p == COVER_ADD:
        return s.pool <= 0
    if p == MOVE:
        return len(destinations(s.token, s.face)) == 1 and not _special_possible(s)
    return False  # interrogate, exchange, attack, support: always a choice to be asked


def _special_possible(s: GhoulState) -> bool:
    """Could the seat to move hold an Inspector's special with a target, for all the table knows?
    Judged from the cast (public), markers and face-up cards, never from the seat's character or hand."""
    seat = s.turn
    if sum(s.hands[seat]) < 2 or _DATA.deck(s.config.players, s.config.mask)[DOVE] < 2:
        return False
    count_up = bool(_DATA.options.get("special_counts_face_up"))
    marks = [s.markers[t] + (1 if count_up and s.up[t] >= 0 else 0) for t in range(s.config.players) if t != seat]
    xs = [x for x in (_CHARS[c].inspector_x for c in s.cast) if x]
    return any(m >= x for x in xs for m in marks)


_WHY = {
    SETUP_FACE: "Place one of your cards face up on your Investigation board (a Mask if you have one).",
    PRELIM_SHOW: "Choose two cards of your hand to show to your left neighbour.",
    PRELIM_GIVE: "Choose one card of your hand to give to your right neighbour.",
    MOVE: "Move the Action token 1 or 2 visible locations (or, as an Inspector, use your special action).",
    INTERROGATE: "Choose a player to interrogate, or pass.",
    SHOW: "Show two cards of your hand to the active player.",
    EXCHANGE: "Exchange one of your cards with one you were shown, or pass.",
    REFILL: "Place a new card face up on your Investigation board.",
    COVER_REMOVE: "Remove a Suspicion marker from a board, or pass.",
    COVER_ADD: "Give a Suspicion marker from the Pool to a player, or pass.",
    ATTACK: "Attack an eligible player, or pass.",
    SUPPORT: "Look at a Support token, or swap yours with another player's, or pass.",
}


def _explain(s: GhoulState, a: Action) -> str:
    kind = a[0]
    p = s.phase
    if kind == "move" and p == MOVE:
        return "The Action token moves 1 or 2 visible locations clockwise; hidden ones do not count."
    if kind == "special" and p == MOVE:
        return (
            "Only an Inspector with two Dove cards may kill instead of moving, and only a player with "
            "enough Suspicion markers."
        )
    if kind == "attack" and p == ATTACK:
        return "You can attack only the player this location allows."
    if kind == "show" and p in (SHOW, PRELIM_SHOW):
        return "Show two cards you hold in your hand."
    if kind == "give" and p == PRELIM_GIVE:
        return "Give a card you hold in your hand."
    if kind == "exchange" and p == EXCHANGE:
        return "Exchange one of your cards for one of the cards you were just shown (or a face-up card)."
    if kind == "interrogate" and p == INTERROGATE:
        return "Interrogate another player."
    if kind == "remove" and p == COVER_REMOVE:
        return "Remove a marker only from a board that has one."
    if kind == "reveal" and p in (SETUP_FACE, REFILL):
        return "Place face up a card you hold; it must be a Mask if you have one."
    if kind in ("look", "swap") and p == SUPPORT:
        return "Look at any Support token, or swap yours with another player's."
    return f"That is not possible now. {_WHY.get(p, '')}".strip()


def _do(s: GhoulState, a: Action) -> None:
    kind = a[0]
    p = s.phase
    if p in SIMULTANEOUS:
        _commit(s, a)
    elif kind == "move":
        _move(s, a[1])
    elif kind == "special":
        seat = s.turn
        s.log.append(
            {"t": "special", "seat": seat, "character": s.chars[seat], "target": a[1], "doves": s.hands[seat][DOVE]}
        )
        _attack(s, seat, a[1], "special")
    elif kind == "interrogate":
        _interrogate(s, a[1])
    elif kind == "show":
        _shown(s, (SUIT_INDEX[a[1]], SUIT_INDEX[a[2]]))
    elif kind == "exchange":
        _exchange(s, SUIT_INDEX[a[1]], SUIT_INDEX[a[2]], a[3], a[4])
    elif kind == "reveal":  # refill
        seat = s.refill[0]
        s.up = _set(s.up, seat, SUIT_INDEX[a[1]])
        s.log.append({"t": "face_up", "seat": seat, "card": a[1], "why": "refill"})
        _hand_event(s, seat)
        s.refill = s.refill[1:]
        if not s.refill:
            _continue(s)
    elif kind == "remove":
        t = a[1]
        s.markers = _set(s.markers, t, s.markers[t] - 1)
        s.pool += 1
        s.log.append({"t": "cover_remove", "seat": s.turn, "target": t, "pool": s.pool})
        s.phase = COVER_ADD
    elif kind == "add":
        t = a[1]
        s.markers = _set(s.markers, t, s.markers[t] + 1)
        s.pool -= 1
        if s.pool == 0:
            s.pool_out = True
        s.log.append({"t": "cover_add", "seat": s.turn, "target": t, "pool": s.pool})
        _continue(s)
    elif kind == "attack":
        _attack(s, s.turn, a[1], "attack")
    elif kind == "look":
        t = a[1]
        tok = KANEKI_TOKEN if s.tk == t else NEUTRAL
        s.log.append({"t": "support_look", "seat": s.turn, "target": t, "token": tok}, (s.turn,))
        row = _set(s.sknown[s.turn], t, tok)
        s.sknown = _set(s.sknown, s.turn, row)
        _end_turn(s)
    elif kind == "swap":
        me, t = s.turn, a[1]
        if s.tk == me:
            s.tk = t
        elif s.tk == t:
            s.tk = me
        s.log.append({"t": "support_swap", "seat": me, "target": t})
        rows = []
        for row in s.sknown:
            r = list(row)
            r[me], r[t] = r[t], r[me]
            rows.append(tuple(r))
        s.sknown = tuple(rows)
        _end_turn(s)
    elif kind == "pass":
        if p == INTERROGATE:
            s.log.append({"t": "interrogate", "seat": s.turn, "target": None, "count": 0})
            _continue(s)
        elif p == EXCHANGE:
            s.log.append(
                {
                    "t": "exchange",
                    "seat": s.turn,
                    "target": s.target,
                    "done": False,
                    "gave": None,
                    "took": None,
                    "gave_from": None,
                    "took_from": None,
                },
                (s.turn, s.target),
            )
            # The same events as after a real exchange: nobody else can tell the difference.
            _hand_event(s, s.turn)
            _hand_event(s, s.target)
            s.target = -1
            s.shown = ()
            _continue(s)
        elif p == COVER_REMOVE:
            s.log.append({"t": "cover_remove", "seat": s.turn, "target": None, "pool": s.pool})
            s.phase = COVER_ADD
        elif p == COVER_ADD:
            s.log.append({"t": "cover_add", "seat": s.turn, "target": None, "pool": s.pool})
            _continue(s)
        elif p == ATTACK:
            _continue(s)  # silent: a pass must not tell a killer from anyone else
        elif p == SUPPORT:
            _end_turn(s)
        else:  # pragma: no cover
            raise AssertionError(p)
    else:  # pragma: no cover - apply checks legality
        raise AssertionError(a)


# --------------------------------------------------------------------------- preliminary phase


def _commit(s: GhoulState, a: Action) -> None:
    """A hidden commitment; when the last seat has chosen, everything is revealed together."""
    seat = _order(s)
    n = s.config.players
    p = s.phase
    if p == SETUP_FACE:
        choice: Any = SUIT_INDEX[a[1]]
        s.log.append({"t": "face_chosen", "seat": seat, "card": a[1]}, (seat,))
    elif p == PRELIM_SHOW:
        choice = (SUIT_INDEX[a[1]], SUIT_INDEX[a[2]])
        s.log.append({"t": "show_chosen", "seat": seat, "cards": [a[1], a[2]]}, (seat,))
    else:
        choice = SUIT_INDEX[a[1]]
        s.log.append({"t": "give_chosen", "seat": seat, "card": a[1]}, (seat,))
    s.pending = _set(s.pending, seat, choice)
    s.order_pi += 1
    if s.order_pi < n:
        return
    chosen = s.pending
    s.pending = (None,) * n
    s.order_pi = 0
    if p == SETUP_FACE:
        s.up = tuple(chosen)
        for i in range(n):
            s.log.append({"t": "face_up", "seat": i, "card": SUITS[chosen[i]], "why": "setup"})
        for i in range(n):
            _hand_event(s, i)
        s.phase = PRELIM_SHOW
    elif p == PRELIM_SHOW:
        s.prelim_show = tuple(chosen)
        for i in range(n):
            to = (i + 1) % n
            s.log.append({"t": "prelim_shown", "seat": i, "to": to, "cards": [SUITS[c] for c in chosen[i]]}, (i, to))
        s.phase = PRELIM_GIVE
    else:
        s.prelim_give = tuple(chosen)
        hands = list(s.hands)
        for i in range(n):
            to = (i - 1) % n
            hands[i] = _add(hands[i], chosen[i], -1)
            hands[to] = _add(hands[to], chosen[i], 1)
            s.log.append({"t": "prelim_given", "seat": i, "to": to, "card": SUITS[chosen[i]]}, (i, to))
        s.hands = tuple(hands)
        for i in range(n):
            _mask_rule(s, i)
        for i in range(n):
            _hand_event(s, i)
        s.log.append({"t": "preliminary_done"})
        _start_turn(s)


def _hand_event(s: GhoulState, seat: int) -> None:
    u = s.up[seat]
    s.log.append(
        {"t": "hand", "seat": seat, "cards": cards_of(hidden_of(s, seat)), "face_up": SUITS[u] if u >= 0 else None},
        (seat,),
    )


def _mask_rule(s: GhoulState, seat: int) -> None:
    """Mask variant: an empty board is refilled (with a Mask if you hold one), and a Mask you
    receive replaces a face-up card that is not a Mask."""
    if not s.config.mask:
        return
    u = s.up[seat]
    if u < 0:
        if s.hands[seat][MASK]:
            s.up = _set(s.up, seat, MASK)
            s.log.append({"t": "face_up", "seat": seat, "card": "mask", "why": "refill"})
        else:
            s.refill = (*s.refill, seat)
    elif u != MASK and s.hands[seat][MASK]:
        s.up = _set(s.up, seat, MASK)
        s.log.append({"t": "face_up", "seat": seat, "card": "mask", "why": "mask"})


# --------------------------------------------------------------------------- a turn


def _start_turn(s: GhoulState) -> None:
    seat = s.turn
    s.log.append({"t": "turn", "seat": seat, "round": s.round})
    c = _CHARS[s.chars[seat]]
    if c.instant and s.hands[seat][c.instant[0]] >= c.instant[1]:
        s.log.append({"t": "instant", "seat": seat, "character": c.id, "cards": cards_of(s.hands[seat])})
        _finish(s, "instant", winner=seat)
        return
    s.phase = MOVE


def _move(s: GhoulState, dest: int) -> None:
    start = s.token
    face = list(s.face)
    known = list(s.known)
    revealed = []
    p = start
    while True:
        p = (p + 1) % 8
        if p == dest:
            break
        if not face[p]:
            face[p] = True
            known[p] = True
            revealed.append({"place": p, "tile": s.ring[p]})
    hidden = None
    if s.moved:
        face[start] = False
        hidden = start
    s.face = tuple(face)
    s.known = tuple(known)
    s.moved = True
    s.token = dest
    s.step = 0
    s.log.append(
        {
            "t": "move",
            "seat": s.turn,
            "from": start,
            "to": dest,
            "tile": s.ring[dest],
            "revealed": revealed,
            "hidden": hidden,
        }
    )
    _continue(s)


def _continue(s: GhoulState) -> None:
    """Resolve the location's actions from ``step`` on, stopping at the next decision."""
    actions = _TILES[s.ring[s.token]].actions
    while s.step < len(actions):
        act = actions[s.step]
        s.step += 1
        kind = act.kind
        if kind == "suspicion":
            _suspicion(s, cast(str, act.rule))  # a suspicion effect always names its rule
        elif kind == "interrogation":
            s.phase = INTERROGATE
            return
        elif kind == "cover":
            s.phase = COVER_REMOVE
            return
        elif kind == "attack" and _attack_targets(s):
            # Every seat is asked when the location has a target, killer or not (a non-killer
            # can only pass): who is asked must not tell who can kill.
            s.phase = ATTACK
            return
    if s.config.support:
        s.phase = SUPPORT
        return
    _end_turn(s)


def _suspicion(s: GhoulState, rule: str) -> None:
    n = s.config.players
    matched = []
    for k in range(n):
        seat = (s.turn + k) % n
        if matches(s.hands[seat], rule):
            matched.append(seat)
    took = matched[: s.pool]
    if took:
        m = list(s.markers)
        for seat in took:
            m[seat] += 1
        s.markers = tuple(m)
        s.pool -= len(took)
        if s.pool == 0:
            s.pool_out = True
    s.log.append(
        {
            "t": "suspicion",
            "seat": s.turn,
            "place": s.token,
            "tile": s.ring[s.token],
            "rule": rule,
            "matched": matched,
            "took": took,
            "pool": s.pool,
        }
    )


def _interrogate(s: GhoulState, target: int) -> None:
    s.target = target
    hidden = hidden_of(s, target)
    count = 3 if s.markers[target] >= 3 else 2
    count = min(count, sum(hidden))
    s.log.append({"t": "interrogate", "seat": s.turn, "target": target, "count": count})
    if count >= sum(hidden):
        _shown(s, tuple(x for x in range(5) for _ in range(hidden[x])))
    else:
        s.phase = SHOW


def _shown(s: GhoulState, cards: tuple[int, ...]) -> None:
    s.shown = cards
    s.log.append({"t": "shown", "seat": s.target, "to": s.turn, "cards": [SUITS[c] for c in cards]}, (s.target, s.turn))
    s.phase = EXCHANGE


def _exchange(s: GhoulState, give: int, take: int, give_from: str, take_from: str) -> None:
    me, tg = s.turn, s.target
    hands = list(s.hands)
    hands[me] = _add(_add(hands[me], give, -1), take, 1)
    hands[tg] = _add(_add(hands[tg], take, -1), give, 1)
    s.hands = tuple(hands)
    if give_from == "board":
        s.up = _set(s.up, me, -1)
    if take_from == "board":
        s.up = _set(s.up, tg, -1)
    s.log.append(
        {
            "t": "exchange",
            "seat": me,
            "target": tg,
            "done": True,
            "gave": SUITS[give],
            "took": SUITS[take],
            "gave_from": give_from,
            "took_from": take_from,
        },
        (me, tg),
    )
    # A face-up card leaving a board is seen by everyone.
    if give_from == "board":
        s.log.append({"t": "face_up", "seat": me, "card": None, "why": "left"})
    if take_from == "board":
        s.log.append({"t": "face_up", "seat": tg, "card": None, "why": "left"})
    s.target = -1
    s.shown = ()
    _mask_rule(s, me)
    _mask_rule(s, tg)
    _hand_event(s, me)
    _hand_event(s, tg)
    if s.refill:
        s.phase = REFILL
    else:
        _continue(s)


def _attack(s: GhoulState, attacker: int, target: int, how: str) -> None:
    defended = s.config.support and s.tk == target
    victim, killer = (attacker, target) if defended else (target, attacker)
    tokens = None
    if s.config.support:
        tokens = [KANEKI_TOKEN if s.tk == attacker else NEUTRAL, KANEKI_TOKEN if s.tk == target else NEUTRAL]
    s.log.append(
        {
            "t": "attack",
            "seat": attacker,
            "target": target,
            "how": how,
            "character": s.chars[attacker],
            "target_character": s.chars[target],
            "support": tokens,
            "victim": victim,
            "killer": killer,
        }
    )
    _finish(s, "defence" if defended else how, victim=victim, killer=killer, attacker=attacker)


def _end_turn(s: GhoulState) -> None:
    if s.pool_out:
        _finish(s, "pool")
        return
    n = s.config.players
    nxt = (s.turn + 1) % n
    if nxt == s.first:
        s.round += 1
        if s.round > s.config.max_rounds:
            _finish(s, "round-limit")
            return
    s.turn = nxt
    s.step = 0
    _start_turn(s)


# --------------------------------------------------------------------------- the end


def holds(h: tuple, needs: tuple[tuple[int, int], ...]) -> bool:
    return all(h[suit] >= k for suit, k in needs)


def winners_of(
    chars: tuple[str, ...],
    hands: tuple[tuple, ...],
    reason: str,
    victim: int | None = None,
    killer: int | None = None,
    attacker: int | None = None,
    winner: int | None = None,
) -> tuple[list[int], dict[str, list[str]]]:
    """Who wins, and why, when the game ends for ``reason`` (the objectives of docs/ghoul.md)."""
    n = len(chars)
    why: dict[str, list[str]] = {}
    if reason == "instant":
        return [cast(int, winner)], {str(winner): ["instant victory"]}  # an instant victory has a winner
    cs = [_CHARS[c] for c in chars]
    vkinds = cs[victim].kinds if victim is not None else frozenset()
    inspectors_win = killer is not None and cs[killer].is_inspector and "ghoul" in vkinds
    seat_of = {c: i for i, c in enumerate(chars)}
    for i, c in enumerate(cs):
        if reason == "defence" and i == attacker:
            continue  # the attacker killed by the defence loses
        got = []
        if c.is_inspector:
            if inspectors_win:
                got.append("the Inspectors killed a Ghoul")
        elif c.kill and killer == i and c.kill in vkinds:
            got.append(f"killed {words.a(c.kill.title())}")
        if c.alive_with and i != victim and holds(hands[i], c.alive_with):
            got.append("stayed alive with the cards")
        if c.partner and c.partner in seat_of and seat_of[c.partner] != victim:
            got.append(f"{_CHARS[c.partner].name} is alive")
        if got:
            why[str(i)] = got
    return [i for i in range(n) if str(i) in why], why


def _finish(
    s: GhoulState,
    reason: str,
    victim: int | None = None,
    killer: int | None = None,
    attacker: int | None = None,
    winner: int | None = None,
) -> None:
    wins, why = winners_of(s.chars, s.hands, reason, victim, killer, attacker, winner)
    s.phase = OVER
    s.legal = ()
    s.result = {
        "winners": wins,
        "reason": reason,
        "why": why,
        "characters": list(s.chars),
        "holdings": [cards_of(h) for h in s.hands],
        "victim": victim,
        "killer": killer,
        "markers": list(s.markers),
    }
    s.log.append({"t": "end", **_copy_event(s.result)})


# --------------------------------------------------------------------------- views

_SECRET_FIELDS = {
    "identity": ("character",),
    "hand": ("cards", "face_up"),
    "support_token": ("token",),
    "face_chosen": ("card",),
    "show_chosen": ("cards",),
    "give_chosen": ("card",),
    "prelim_shown": ("cards",),
    "prelim_given": ("card",),
    "shown": ("cards",),
    "exchange": ("done", "gave", "took", "gave_from", "took_from"),
    "support_look": ("token",),
}


_OWN_ECHOES = frozenset({"face_chosen", "show_chosen", "give_chosen", "prelim_shown", "prelim_given", "shown"})
_PUBLIC_REVEALS = frozenset({"face_up", "instant", "suspicion", "attack", "interrogate", "end"})
_REDACTED_REVEALS = frozenset({"shown", "exchange"})


def shows_hidden(event: dict, seats: tuple[int, ...] | None, seat: int) -> bool:
    """Whether this log entry shows ``seat`` something hidden (an interrogation, a card turned up, a tile revealed)."""
    if seats is None and event.get("t") == "move" and event.get("revealed"):
        return True
    return _shows_hidden(event, seats, seat, own=_OWN_ECHOES, public=_PUBLIC_REVEALS, redacted=_REDACTED_REVEALS)


def redact(event: dict) -> dict:
    """What a seat that may not see ``event`` whole is told about it."""
    out = _copy_event(event)
    for f in _SECRET_FIELDS.get(event["t"], ()):
        out[f] = None
    return out


def events_for(state: GhoulState, seat: int | None, since: int = 0) -> list[dict]:
    """The seat's observation stream from log index ``since``; each event carries its index ``n``."""
    out = []
    for i, (ev, seats) in enumerate(state.log.entries(since), start=since):
        e = _copy_event(ev) if seats is None or (seat is not None and seat in seats) else redact(ev)
        e["n"] = i
        out.append(e)
    return out


def _copy_event(event: dict) -> dict:
    """A copy whose lists and dicts are new too: whoever holds a view must not edit the log."""
    out = {}
    for k, v in event.items():
        if isinstance(v, list):
            v = [dict(x) if isinstance(x, dict) else (list(x) if isinstance(x, list) else x) for x in v]
        elif isinstance(v, dict):
            v = {kk: list(vv) if isinstance(vv, list) else vv for kk, vv in v.items()}
        out[k] = v
    return out


_CHAR_JSON = {cid: c.to_json() for cid, c in _CHARS.items()}
_TILE_ACTIONS = {tid: tuple((a.kind, a.rule) for a in t.actions) for tid, t in _TILES.items()}


def _char_json(cid: str) -> dict:
    """A fresh copy of a character's public card (views never share objects with each other)."""
    d = dict(_CHAR_JSON[cid])
    d["kinds"] = list(d["kinds"])
    d["instant"] = list(d["instant"]) if d["instant"] else None
    d["alive_with"] = dict(d["alive_with"])
    d["objectives"] = list(d["objectives"])
    return d


def _actions_json(tid: str) -> list[dict]:
    return [{"kind": k, "rule": r} for k, r in _TILE_ACTIONS[tid]]


def _ring_view(s: GhoulState) -> list[dict]:
    out = []
    red = _DATA.red_places
    for p in range(8):
        tid = s.ring[p] if s.known[p] else None
        out.append(
            {
                "place": p,
                "tile": tid,
                "name": _TILES[tid].name if tid else None,
                "red": p in red,
                "face_up": s.face[p],
                "actions": _actions_json(tid) if tid else None,
                "token": p == s.token,
            }
        )
    return out


def _pending(s: GhoulState) -> dict | None:
    actor = to_act(s)
    if actor is None:
        return None
    d = {"kind": s.phase, "seat": actor, "text": _WHY.get(s.phase, "")}
    if s.phase in (SHOW, EXCHANGE):
        d["by"] = s.turn
        d["target"] = s.target
    return d


def view(state: GhoulState, seat: int, since: int = 0) -> dict:
    """Everything ``seat`` may know now, and nothing more. ``since`` trims old events."""
    s = state
    n = s.config.players
    over = s.phase == OVER
    actor = to_act(s)
    row = _DATA.setup(n, s.config.setup)
    tile_id = s.ring[s.token] if s.known[s.token] else None
    interrogation = None
    if s.phase in (SHOW, EXCHANGE):
        party = seat in (s.turn, s.target)
        interrogation = {
            "by": s.turn,
            "target": s.target,
            "count": 3 if s.markers[s.target] >= 3 else 2,
            "shown": [SUITS[c] for c in s.shown] if party and s.phase == EXCHANGE else None,
        }
    prelim = None
    if s.prelim_show[0] is not None or s.pending[seat] is not None:
        right, left = (seat - 1) % n, (seat + 1) % n
        prelim = {
            "my_show": [SUITS[c] for c in s.prelim_show[seat]] if s.prelim_show[seat] is not None else None,
            "shown_to_me": [SUITS[c] for c in s.prelim_show[right]] if s.prelim_show[right] is not None else None,
            "gave": SUITS[s.prelim_give[seat]] if s.prelim_give[seat] is not None else None,
            "received": SUITS[s.prelim_give[left]] if s.prelim_give[left] is not None else None,
            "my_choice": _pending_choice(s.pending[seat]),
        }
    support = None
    if s.config.support:
        support = {"token": s.sknown[seat][seat], "known": list(s.sknown[seat])}
    return {
        "game": "ghoul",
        "seat": seat,
        "players": list(s.config.seat_names()),
        "variants": {"mask": s.config.mask, "support": s.config.support},
        "config": s.config.to_json(),
        "character": _char_json(s.chars[seat]),
        "cast": [_char_json(c) for c in s.cast],
        "hand": cards_of(hidden_of(s, seat)),
        "holding": {SUITS[x]: k for x, k in enumerate(s.hands[seat]) if k},
        "face_up": [SUITS[u] if u >= 0 else None for u in s.up],
        "hand_sizes": [sum(s.hands[i]) - (1 if s.up[i] >= 0 else 0) for i in range(n)],
        "deck": {SUITS[i]: k for i, k in enumerate(_DATA.deck(n, s.config.mask)) if k},
        "markers": list(s.markers),
        "pool": s.pool,
        "pool_total": row.markers,
        "pool_out": s.pool_out,
        "ring": _ring_view(s),
        "token": s.token,
        "first_move": not s.moved,
        "reachable": destinations(s.token, s.face),
        "tile_actions": _actions_json(tile_id) if tile_id else [],
        "action_index": s.step - 1
        if s.phase in (INTERROGATE, SHOW, EXCHANGE, REFILL, COVER_REMOVE, COVER_ADD, ATTACK)
        else None,
        "turn": s.turn,
        "round": s.round,
        "first": s.first,
        "phase": s.phase,
        "to_act": actor,
        "pending": _pending(s),
        "interrogation": interrogation,
        "refill": list(s.refill),
        "prelim": prelim,
        "support": support,
        "dead": s.result["victim"] if over else None,
        "over": over,
        "result": _copy_event(s.result) if over else None,
        "events": events_for(s, seat, since),
        "legal": [list(x) for x in s.legal] if actor == seat else [],
    }


def _pending_choice(c: Any) -> Any:
    if c is None:
        return None
    if isinstance(c, tuple):
        return [SUITS[x] for x in c]
    return SUITS[c]


# --------------------------------------------------------------------------- search


_SEARCH_PHASES = (MOVE, INTERROGATE, EXCHANGE, COVER_REMOVE, COVER_ADD, ATTACK, SUPPORT)


def hypothetical(
    view: dict, hands: list[tuple[int, ...]], chars: list[str], tk: int, ring: list[str], seed: int
) -> GhoulState:
    """A state that looks exactly like ``view`` from its seat, with the seat's unknowns set to
    the given values (everyone's holdings, characters, the Transformed Kaneki token, the tile
    on every place): a world sampled by a bot's beliefs, for search. Its log starts empty.

    Supported: positions where the viewing seat is the active player and no other seat is in
    the middle of a decision, and the seat's own answer to an interrogation (phase ``show``).
    """
    phase = view["phase"]
    seat = view["seat"]
    showing = phase == SHOW and view["interrogation"] is not None and view["interrogation"]["target"] == seat
    if not showing and (phase not in _SEARCH_PHASES or view["turn"] != seat):
        raise ValueError(f"A hypothetical state needs the seat's own turn, not phase {phase!r}.")
    n = len(view["players"])
    s = GhoulState()
    s.config = GhoulConfig.from_json(view["config"])
    s.rng = Rng(seed)
    s.cast = tuple(c["id"] for c in view["cast"])
    s.chars = tuple(chars)
    s.hands = tuple(tuple(h) for h in hands)
    s.up = tuple(SUIT_INDEX[u] if u is not None else -1 for u in view["face_up"])
    s.markers = tuple(view["markers"])
    s.pool = view["pool"]
    s.pool_out = view["pool_out"]
    s.ring = tuple(ring)
    s.face = tuple(r["face_up"] for r in view["ring"])
    s.known = (True,) * 8
    s.token = view["token"]
    s.moved = not view["first_move"]
    s.turn = view["turn"]
    s.first = view["first"]
    s.round = view["round"]
    s.phase = phase
    if phase == MOVE:
        s.step = 0
    elif phase == SUPPORT:
        s.step = len(_TILES[s.ring[s.token]].actions)
    else:
        s.step = view["action_index"] + 1
    s.target, s.shown = -1, ()
    if phase == SHOW:
        s.target = seat
    if phase == EXCHANGE:
        it = view["interrogation"]
        s.target = it["target"]
        s.shown = tuple(SUIT_INDEX[c] for c in it["shown"])
    s.refill = ()
    s.order_pi = 0
    s.pending = (None,) * n
    s.prelim_show = (None,) * n
    s.prelim_give = (None,) * n
    s.tk = tk if s.config.support else -1
    s.sknown = tuple(
        tuple((KANEKI_TOKEN if tk == j else NEUTRAL) if j == i else None for j in range(n)) if s.config.support else ()
        for i in range(n)
    )
    s.result = None
    s.log = EventLog()
    s.legal = _compute_legal(s)
    return s


# --------------------------------------------------------------------------- JSON


def action_to_json(action: Action) -> list:
    return list(action)


def action_from_json(data: Any) -> Action:
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"Not a Tokyo Ghoul action: {data!r}")
    return tuple(data)


def _enc(c: Any) -> Any:
    return list(c) if isinstance(c, tuple) else c


def state_to_json(state: GhoulState) -> dict:
    s = state
    return {
        "config": s.config.to_json(),
        "rng": s.rng.state,
        "cast": list(s.cast),
        "chars": list(s.chars),
        "hands": [list(h) for h in s.hands],
        "up": list(s.up),
        "markers": list(s.markers),
        "pool": s.pool,
        "pool_out": s.pool_out,
        "ring": list(s.ring),
        "face": list(s.face),
        "known": list(s.known),
        "token": s.token,
        "moved": s.moved,
        "turn": s.turn,
        "first": s.first,
        "round": s.round,
        "phase": s.phase,
        "step": s.step,
        "target": s.target,
        "shown": list(s.shown),
        "refill": list(s.refill),
        "order_pi": s.order_pi,
        "pending": [_enc(c) for c in s.pending],
        "prelim_show": [_enc(c) for c in s.prelim_show],
        "prelim_give": list(s.prelim_give),
        "tk": s.tk,
        "sknown": [list(r) for r in s.sknown],
        "result": _copy_event(s.result) if s.result is not None else None,
        "log": s.log.to_json(),
    }


def _dec(c: Any) -> Any:
    return tuple(c) if isinstance(c, list) else c


def state_from_json(d: dict) -> GhoulState:
    s = GhoulState()
    s.config = GhoulConfig.from_json(d["config"])
    s.rng = Rng(d["rng"])
    s.cast = tuple(d["cast"])
    s.chars = tuple(d["chars"])
    s.hands = tuple(tuple(h) for h in d["hands"])
    s.up = tuple(d["up"])
    s.markers = tuple(d["markers"])
    for k in (
        "pool",
        "pool_out",
        "token",
        "moved",
        "turn",
        "first",
        "round",
        "phase",
        "step",
        "target",
        "order_pi",
        "tk",
    ):
        setattr(s, k, d[k])
    s.ring = tuple(d["ring"])
    s.face = tuple(d["face"])
    s.known = tuple(d["known"])
    s.shown = tuple(d["shown"])
    s.refill = tuple(d["refill"])
    s.pending = tuple(_dec(c) for c in d["pending"])
    s.prelim_show = tuple(_dec(c) for c in d["prelim_show"])
    s.prelim_give = tuple(d["prelim_give"])
    s.sknown = tuple(tuple(r) for r in d["sknown"])
    s.result = _copy_event(d["result"]) if d["result"] is not None else None
    s.log = EventLog.from_json(d["log"])
    s.legal = _compute_legal(s) if s.phase != OVER else ()
    return s
