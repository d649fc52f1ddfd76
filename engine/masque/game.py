"""Masque of the Red Death rules engine.

Pure rules over plain data: ``new_game`` sets up from a seeded RNG held in the state,
``apply`` returns a new state (or raises :class:`IllegalAction` and leaves the old one as
it was), and ``view`` gives one seat exactly what that seat may see.

Rooms are named by colour (``"black"``, ``"blue"``… in clockwise ring order), time slots by
their index ``0..5`` (12:00 to 12:50), Rumor cards by text: ``"12:10 blue"`` (Gossip: that
room is safe then) and ``"evidence 12:10"``. Actions are tuples of plain values:

* ``("place", room)`` — setup: put your Noble standee in a room
* ``("play", card)`` — choose your Action card this round, in secret
* ``("tile", slot, dir)`` — place a Movement tile (``"cw"``, ``"ccw"``, ``"stay"``) on your
  hidden midnight plan; allowed while you choose your Action card and in the planning step
* ``("ready",)`` — planning step: your plan is final
* ``("target", seat)`` — the nearby noble your card acts on (Admire, Mock)
* ``("ask", seat, slot)`` — look at or take a Rumor card of a nearby noble, naming a time slot
* ``("give", seat, card)`` — give one of your Rumor cards (Confidant)
* ``("look", index)`` — Evidence: which face-down Red Death card of its slot to look at
* ``("peek", slot, index)`` — Premonition: look at any Red Death card
* ``("waltz", room)`` — Waltz: move to any room now
* ``("return", card)`` / ``("done",)`` — Encore: take back a discarded Action card, or stop
* ``("move", room)`` — end of round: move to an adjacent room (two steps after Dance), or
  name your own room to stay
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core import EventLog, IllegalAction, Rng
from engine.core import shows_hidden as _shows_hidden
from engine.masque.rules import load_actions, load_rules, personality_cards, standard_cards

Phased = Any  # a slot that only its phase fills (see the state's annotations)
Action = tuple

_R = load_rules()
ROOMS: tuple[str, ...] = _R.rooms
ROOM_INDEX: dict[str, int] = {r: i for i, r in enumerate(ROOMS)}
NR = len(ROOMS)
SLOTS: tuple[str, ...] = _R.slots
NS = len(SLOTS)
GOSSIP = NS * NR  # gossip cards are 0..GOSSIP-1 (slot * NR + room); evidence is GOSSIP + slot
TRACK = _R.track
ROUNDS = _R.rounds
DIRS = ("cw", "ccw", "stay")
STEP = {"cw": 1, "ccw": -1, "stay": 0}

CARD_NAMES: tuple[str, ...] = tuple(f"{SLOTS[c // NR]} {ROOMS[c % NR]}" for c in range(GOSSIP)) + tuple(
    f"evidence {SLOTS[k]}" for k in range(NS)
)
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

# Phases: each is a decision of the seat in ``state.actor``, except OVER.
PLACE, CHOOSE, TARGET, ASK, GIVE, LOOK, PEEK, WALTZ, RETURN, MOVE, PLAN, OVER = (
    "place", "choose", "target", "ask", "give", "look", "peek", "waltz", "return", "move", "plan", "over",
)
_RESOLVING = "resolving"  # transient: the engine is resolving cards and nobody decides yet

DEFAULT_NAMES = ("You", "Prospero", "Fortunato", "Ligeia", "Berenice", "Morella", "Eleonora")


def gossip_card(slot: int, room: int) -> int:
    return slot * NR + room


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def ring_distance(a: int, b: int) -> int:
    d = (a - b) % NR
    return min(d, NR - d)


@dataclass(frozen=True)
class MasqueConfig:
    """A game's setup: 4 to 7 nobles, names, the harder variant, Personality cards on or off."""

    players: int = 4
    names: tuple[str, ...] = ()
    harder: bool = False
    personalities: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or isinstance(self.players, bool) or not 4 <= self.players <= 7:
            raise ValueError("Masque of the Red Death is for 4 to 7 players.")
        if self.names and len(self.names) != self.players:
            raise ValueError(f"Give {self.players} player names, not {len(self.names)}.")
        if len(set(self.seat_names())) != self.players:
            raise ValueError("Player names must be different.")
        if not isinstance(self.harder, bool) or not isinstance(self.personalities, bool):
            raise ValueError("harder and personalities are true or false.")

    def seat_names(self) -> tuple[str, ...]:
        return self.names or DEFAULT_NAMES[: self.players]

    @property
    def red_death(self) -> int:
        """Red Death cards per time slot: 2, or 3 in the harder variant."""
        return _R.red_death_harder if self.harder else _R.red_death

    def to_json(self) -> dict:
        return {"players": self.players, "names": list(self.seat_names()), "harder": self.harder,
                "personalities": self.personalities}

    @classmethod
    def from_json(cls, data: dict) -> MasqueConfig:
        if not isinstance(data, dict):
            raise ValueError("A Masque config is a JSON object.")
        known = {"players", "names", "harder", "personalities"}
        extra = set(data) - known
        if extra:
            raise ValueError(f"Unknown Masque option(s): {', '.join(sorted(extra))}.")
        kw = dict(data)
        if "names" in kw:
            if not isinstance(kw["names"], list | tuple) or not all(isinstance(x, str) for x in kw["names"]):
                raise ValueError("names is a list of player names.")
            kw["names"] = tuple(kw["names"])
        return cls(**kw)


class MasqueState:
    """The whole game, secrets included. Only the engine and the table ever hold one."""

    # One annotation per slot, for the type checker (the slots hold the values). A ``Phased``
    # slot holds a value while its phase lasts and None otherwise: the phase says which.
    actor: Phased
    alive: tuple[bool, ...]
    box: tuple[int, ...]
    choices: tuple[str | None, ...]
    chooser: int
    config: MasqueConfig
    deck: tuple[int, ...]
    discards: tuple[tuple[str, ...], ...]
    evidence: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    idx: int
    log: EventLog
    looks: tuple[frozenset[tuple[int, ...]], ...]
    midnight: tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[tuple[Any, ...], ...]], ...]
    order: tuple[int, ...]
    personality: tuple[str | None, ...]
    phase: str
    plans: tuple[tuple[str, ...], ...]
    pop: tuple[int, ...]
    pos: tuple[int, ...]
    prince: int
    r_card: Phased
    r_each: Phased
    r_excl: tuple[int, ...]
    r_i: int
    r_seat: Phased
    r_slot: Phased
    r_sub: int
    r_target: Phased
    ready: tuple[bool, ...]
    red: tuple[tuple[int, ...], ...]
    result: Phased
    revealed: bool
    rng: Rng
    round: int
    route: tuple[int, ...]
    rumors: tuple[tuple[int, ...], ...]
    seen: tuple[frozenset[int], ...]
    twice: tuple[bool, ...]

    __slots__ = (
        "actor",
        "alive",
        "box",
        "choices",
        "chooser",
        "config",
        "deck",
        "discards",
        "evidence",
        "hands",
        "idx",
        "log",
        "looks",
        "midnight",
        "order",
        "personality",
        "phase",
        "plans",
        "pop",
        "pos",
        "prince",
        "r_card",
        "r_each",
        "r_excl",
        "r_i",
        "r_seat",
        "r_slot",
        "r_sub",
        "r_target",
        "ready",
        "red",
        "result",
        "revealed",
        "rng",
        "round",
        "route",
        "rumors",
        "seen",
        "twice",
    )

    def copy(self) -> MasqueState:
        """A cheap copy: every field is an immutable value that ``apply`` replaces, never edits;
        only the RNG and the event log need copies of their own."""
        c = MasqueState.__new__(MasqueState)
        c.actor = self.actor
        c.alive = self.alive
        c.box = self.box
        c.chooser = self.chooser
        c.choices = self.choices
        c.config = self.config
        c.deck = self.deck
        c.discards = self.discards
        c.evidence = self.evidence
        c.hands = self.hands
        c.idx = self.idx
        c.looks = self.looks
        c.midnight = self.midnight
        c.order = self.order
        c.personality = self.personality
        c.phase = self.phase
        c.plans = self.plans
        c.pop = self.pop
        c.pos = self.pos
        c.prince = self.prince
        c.r_card = self.r_card
        c.r_each = self.r_each
        c.r_excl = self.r_excl
        c.r_i = self.r_i
        c.r_seat = self.r_seat
        c.r_slot = self.r_slot
        c.r_sub = self.r_sub
        c.r_target = self.r_target
        c.ready = self.ready
        c.red = self.red
        c.result = self.result
        c.revealed = self.revealed
        c.round = self.round
        c.route = self.route
        c.rumors = self.rumors
        c.seen = self.seen
        c.twice = self.twice
        c.rng = self.rng.copy()
        c.log = self.log.copy()
        return c


def _set(t: tuple, i: int, v: Any) -> tuple:
    return (*t[:i], v, *t[i + 1:])


_CARD_ORDER: dict[str, int] = {cid: i for i, cid in enumerate(load_actions())}


def _sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_CARD_ORDER.__getitem__))


# --------------------------------------------------------------------------- setup


def new_game(config: MasqueConfig, seed: int, rng: Rng | None = None) -> MasqueState:
    """Set up: popularity order, Personality cards, the Prince's route, the Red Death cards, the deck."""
    rng = Rng(seed) if rng is None else rng  # an outside rng: explicit chance (ChanceRng)
    n = config.players
    s = MasqueState()
    s.config = config
    s.rng = rng
    s.log = EventLog()
    # Popularity trackers go on spaces 1..n in a random order.
    order = rng.shuffled(range(n))
    pop = [0] * n
    for space, seat in enumerate(order, start=1):
        pop[seat] = space
    s.pop = tuple(pop)
    if config.personalities:
        deal = rng.shuffled(personality_cards())
        s.personality = tuple(deal[:n])
    else:
        s.personality = (None,) * n
    std = standard_cards()
    s.hands = tuple(_sorted_cards(std + ((p,) if p else ())) for p in s.personality)
    s.discards = ((),) * n
    tiles = [r for r in range(NR) for _ in range(_R.prince_tiles_per_room)]
    rng.shuffle(tiles)
    s.box = tuple(tiles[: _R.prince_tiles_in_box])
    s.route = tuple(tiles[_R.prince_tiles_in_box:])
    s.prince = s.route[0]
    red = []
    deck: list[int] = []
    for slot in range(NS):
        cards = rng.shuffled(range(NR))
        red.append(tuple(cards[: config.red_death]))
        deck.extend(gossip_card(slot, r) for r in cards[config.red_death:])
    s.red = tuple(red)
    deck.extend(GOSSIP + slot for slot in range(NS) for _ in range(_R.evidence_per_slot))
    rng.shuffle(deck)
    s.deck = tuple(deck)
    s.evidence = ()
    s.rumors = ((),) * n
    s.seen = (frozenset(),) * n
    s.looks = (frozenset(),) * n
    s.pos = (-1,) * n
    s.alive = (True,) * n
    s.plans = (("stay",) * NS,) * n
    s.ready = (False,) * n
    s.choices = (None,) * n
    s.revealed = False
    s.twice = (False,) * n
    s.round = 0
    s.chooser = 0
    s.order = ()
    s.idx = 0
    s.midnight = ()
    s.result = None
    _clear_resolution(s)
    s.log.append({
        "t": "setup", "players": list(config.seat_names()), "rooms": list(ROOMS), "slots": list(SLOTS),
        "prince_slots": list(_R.prince_slots), "prince_route": [ROOMS[r] for r in s.route],
        "popularity": list(s.pop), "red_death": config.red_death, "deck": len(s.deck),
        "personalities": config.personalities,
    })
    for seat in range(n):
        if s.personality[seat]:
            s.log.append({"t": "deal", "seat": seat, "card": s.personality[seat]}, (seat,))
    # Nobles are placed from the least popular, clockwise round the table.
    s.order = _clockwise_from_least(s)
    s.idx = 0
    s.phase = PLACE
    s.actor = s.order[0]
    return s


def _clear_resolution(s: MasqueState) -> None:
    s.r_seat = None
    s.r_card = None
    s.r_i = 0
    s.r_sub = 0
    s.r_target = None
    s.r_excl = ()
    s.r_each = None
    s.r_slot = None


def _clockwise_from_least(s: MasqueState) -> tuple[int, ...]:
    n = s.config.players
    least = min(range(n), key=s.pop.__getitem__)
    return tuple((least + k) % n for k in range(n))


# --------------------------------------------------------------------------- queries


def to_act(state: MasqueState) -> int | None:
    """The seat that must decide now (None when the game is over)."""
    return None if state.phase == OVER else state.actor


def is_over(state: MasqueState) -> bool:
    return state.phase == OVER


def result(state: MasqueState) -> dict | None:
    """Winners and why, once the game is over."""
    return state.result


def nearby(state: MasqueState, seat: int) -> list[int]:
    """The nobles in the same room as ``seat`` ("nearby nobles")."""
    here = state.pos[seat]
    return [t for t in range(state.config.players) if t != seat and state.pos[t] == here and state.alive[t]]


def popularity_order(state: MasqueState) -> list[int]:
    """Seats from the least popular to the most popular (trackers never share a space)."""
    return sorted(range(state.config.players), key=state.pop.__getitem__)


def _occupied(s: MasqueState, seat: int) -> set[int]:
    return {p % TRACK for i, p in enumerate(s.pop) if i != seat and s.alive[i]}


def open_spaces_below(state: MasqueState, seat: int) -> int:
    """How many popularity the noble can lose: the open spaces between it and space 1."""
    occ = _occupied(state, seat)
    return sum(1 for q in range(1, state.pop[seat]) if q % TRACK not in occ)


@dataclass(frozen=True)
class _Needs:
    """What a card needs to be playable, worked out once from its effects."""

    lose: int = 0
    other_lose: int = 0  # the target (Mock) or every nearby noble (Scandal) must be able to lose this much
    draw: int = 0
    asks: int = 0
    target: bool = False
    gives: bool = False
    each: bool = False
    near: bool = False


def _needs(card_id: str) -> _Needs:
    lose = other_lose = draw = asks = 0
    target = gives = each = near = False
    for eff, k in load_actions()[card_id].effects:
        if eff == "lose":
            lose += k
        elif eff == "draw":
            draw += k
        elif eff in ("look", "take"):
            asks += k
            target = True
        elif eff in ("other_gain", "other_lose"):
            target = True
            if eff == "other_lose":
                other_lose = k
        elif eff == "give":
            gives = target = True
        elif eff == "look_each":
            each = True
        elif eff == "nearby_lose":
            near = True
            other_lose = k
    return _Needs(lose, other_lose, draw, asks, target, gives, each, near)


_NEEDS: dict[str, _Needs] = {cid: _needs(cid) for cid in load_actions()}


def _playable(s: MasqueState, seat: int, card_id: str, near: list[int] | None = None) -> bool:
    """The rulebook: "you must be able to resolve all of its effects"."""
    nd = _NEEDS[card_id]
    if nd.draw and len(s.deck) < nd.draw:
        return False
    if nd.lose and open_spaces_below(s, seat) < nd.lose:
        return False
    if nd.target or nd.each or nd.near:
        if near is None:
            near = nearby(s, seat)
        if not near:
            return False
        rumors = s.rumors
        if nd.each and not any(rumors[t] for t in near):
            return False
        if nd.near and nd.other_lose and not all(open_spaces_below(s, t) >= nd.other_lose for t in near):
            return False  # Scandal: every nearby noble loses, so every one must be able to
        if nd.target:
            if nd.gives and not rumors[seat]:
                return False
            if nd.asks and not any(len(rumors[t]) >= nd.asks for t in near):
                return False
            if nd.other_lose and not _losers(s, near, nd.other_lose):
                return False  # Mock: a nearby noble who can lose the popularity
    return True


def _losers(s: MasqueState, near: list[int], k: int) -> list[int]:
    """The nobles of ``near`` who can lose ``k`` popularity (k open spaces below their tracker)."""
    return [t for t in near if open_spaces_below(s, t) >= k]


def _target_choices(s: MasqueState) -> list[int]:
    """The nobles the current card may act on: nearby, and able to lose what it takes (Mock)."""
    near = nearby(s, s.r_seat)
    eff, k = _current_effect(s)
    return _losers(s, near, k) if eff == "other_lose" else near


def _give_choices(s: MasqueState) -> list[int]:
    """Confidant gives to a nearby noble who holds a Rumor card, so that its take can be resolved."""
    return [t for t in nearby(s, s.r_seat) if s.rumors[t]]


def _tile_actions(s: MasqueState, seat: int) -> list[Action]:
    plan = s.plans[seat]
    return [("tile", k, d) for k in range(NS) for d in DIRS if d != plan[k]]


def _available(s: MasqueState, t: int) -> list[int]:
    """The target's Rumor cards that an ask of this card may still reach."""
    excl = s.r_excl
    return [c for c in s.rumors[t] if c not in excl] if excl else list(s.rumors[t])


def _current_effect(s: MasqueState) -> tuple[str, int]:
    return load_actions()[s.r_card].effects[s.r_i]


def _ask_targets(s: MasqueState) -> list[int]:
    eff, k = _current_effect(s)
    if eff == "look_each":
        return list(s.r_each or ())
    if s.r_target is not None:
        return [s.r_target] if _available(s, s.r_target) else []
    # A noble who can answer every look (Swindle: 2 cards) if there is one; else any who can answer one.
    sizes = [(t, len(_available(s, t))) for t in nearby(s, s.r_seat)]
    full = [t for t, h in sizes if h >= k]
    return full or [t for t, h in sizes if h]


def legal_actions(state: MasqueState) -> list[Action]:
    """Every action the seat to act may take now, in a stable order."""
    s = state
    p = s.phase
    seat = s.actor
    if p == CHOOSE:
        near = nearby(s, seat)
        acts: list[Action] = [("play", c) for c in s.hands[seat] if _playable(s, seat, c, near)]
        acts.extend(_tile_actions(s, seat))
        return acts
    if p == MOVE:
        here = s.pos[seat]
        reach = 2 if s.twice[seat] else 1
        return [("move", ROOMS[r]) for r in range(NR) if ring_distance(here, r) <= reach]
    if p == ASK:
        return [("ask", t, k) for t in _ask_targets(s) for k in range(NS)]
    if p == PLAN:
        return [*_tile_actions(s, seat), ("ready",)]
    if p == PLACE:
        return [("place", r) for r in ROOMS]
    if p == TARGET:
        return [("target", t) for t in _target_choices(s)]
    if p == GIVE:
        return [("give", t, CARD_NAMES[c]) for t in _give_choices(s) for c in s.rumors[seat]]
    if p == LOOK:
        return [("look", i) for i in range(s.config.red_death)]
    if p == PEEK:
        return [("peek", k, i) for k in range(NS) for i in range(s.config.red_death)]
    if p == WALTZ:
        return [("waltz", r) for r in ROOMS]
    if p == RETURN:
        return [*(("return", c) for c in _sorted_cards(set(s.discards[seat]))), ("done",)]
    return []


# --------------------------------------------------------------------------- apply


def apply(state: MasqueState, action: Action) -> MasqueState:
    """Return the state after ``action``; raise IllegalAction (state untouched) if it is not allowed."""
    action = tuple(action)
    _check(state, action)
    s = state.copy()
    _do(s, action)
    return s


def _check(state: MasqueState, a: Action) -> None:
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    if not a or not isinstance(a[0], str):
        raise IllegalAction("An action needs a name.")
    # Only text and whole numbers: 1.0 or True would compare equal to a legal action.
    for x in a:
        if isinstance(x, bool) or not isinstance(x, str | int):
            raise IllegalAction("An action is made of names and whole numbers only.")
    kind = a[0]
    p = state.phase
    seat = state.actor
    if kind == "tile":  # fast paths for the commonest actions; the rest compare with the legal list
        ok = (p in (CHOOSE, PLAN) and len(a) == 3 and type(a[1]) is int and 0 <= a[1] < NS and a[2] in STEP
              and state.plans[seat][a[1]] != a[2])
    elif kind == "play":
        ok = p == CHOOSE and len(a) == 2 and a[1] in state.hands[seat] and _playable(state, seat, a[1])
    elif kind == "move":
        ok = (p == MOVE and len(a) == 2 and a[1] in ROOM_INDEX
              and ring_distance(state.pos[seat], ROOM_INDEX[a[1]]) <= (2 if state.twice[seat] else 1))
    else:
        ok = a in legal_actions(state)
    if not ok:
        raise IllegalAction(_explain(state, a))


_WHEN = {
    "place": "Nobles are placed only before the first round.",
    "play": "You choose an Action card only when the round asks every noble to choose one.",
    "tile": "You may place Movement tiles while you choose your Action card or in the planning step.",
    "ready": "You confirm your midnight plan only in the planning step after the 12th round.",
    "target": "Nobody asked you to choose a noble for a card now.",
    "ask": "You are not looking at or taking a Rumor card now.",
    "give": "You are not giving a Rumor card now.",
    "look": "You look at a Red Death card only right after you draw Evidence.",
    "peek": "You look at any Red Death card only with Premonition.",
    "waltz": "You move to any room only with Waltz.",
    "return": "You take back discarded cards only with Encore.",
    "done": "There is nothing to stop now.",
    "move": "Nobles move only at the end of a round, after the Action cards.",
}
_PHASE_OF = {"place": PLACE, "play": CHOOSE, "ready": PLAN, "target": TARGET, "ask": ASK, "give": GIVE,
             "look": LOOK, "peek": PEEK, "waltz": WALTZ, "return": RETURN, "done": RETURN, "move": MOVE}


def _explain(s: MasqueState, a: Action) -> str:
    kind = a[0]
    if kind not in _WHEN:
        return f"{kind!r} is not an action of this game."
    if kind == "tile":
        if s.phase not in (CHOOSE, PLAN):
            return _WHEN["tile"]
        if len(a) != 3 or a[1] not in range(NS) or a[2] not in DIRS:
            return "A Movement tile names a time slot (0 to 5) and cw, ccw or stay."
        return "That Movement tile is already on your plan."
    if _PHASE_OF[kind] != s.phase:
        return _WHEN[kind]
    seat = s.actor
    if kind == "play":
        if len(a) != 2 or a[1] not in s.hands[seat]:
            return "You do not have that Action card in your hand."
        return "You must be able to resolve all the effects of an Action card to play it."
    if kind == "move":
        return "You may move only to an adjacent room (two rooms away after Dance), or stay."
    if kind == "target" and _current_effect(s)[0] == "other_lose":
        return "You must choose a nearby noble (one in your room) who can lose that much popularity."
    if kind == "give":
        return "You must give one of your Rumor cards to a nearby noble (one in your room) who holds a Rumor card."
    if kind == "target":
        return "You must choose a nearby noble (one in your room)."
    if kind == "ask":
        return "Name a nearby noble who has a Rumor card you may reach, and a time slot from 0 to 5."
    if kind in ("look", "peek"):
        return f"There are {s.config.red_death} Red Death cards per time slot; name one of them."
    if kind == "return":
        return "You can only take back an Action card from your own discard pile."
    return "That is not allowed now."


def _do(s: MasqueState, a: Action) -> None:
    kind = a[0]
    seat = s.actor
    if kind == "tile":
        k, d = a[1], a[2]
        s.plans = _set(s.plans, seat, _set(s.plans[seat], k, d))
        s.log.append({"t": "tile", "seat": seat, "slot": k, "dir": d}, (seat,))
        return
    if kind == "play":
        card = a[1]
        hand = list(s.hands[seat])
        hand.remove(card)
        s.hands = _set(s.hands, seat, tuple(hand))
        s.choices = _set(s.choices, seat, card)
        s.log.append({"t": "chosen", "seat": seat, "card": card}, (seat,))
        _next_chooser(s)
        return
    if kind == "move":
        to = ROOM_INDEX[a[1]]
        s.log.append({"t": "move", "seat": seat, "from": ROOMS[s.pos[seat]], "to": a[1], "how": "move"})
        s.pos = _set(s.pos, seat, to)
        s.idx += 1
        if s.idx < len(s.order):
            s.actor = s.order[s.idx]
        else:
            _end_round(s)
        return
    if kind == "place":
        s.pos = _set(s.pos, seat, ROOM_INDEX[a[1]])
        s.log.append({"t": "place", "seat": seat, "room": a[1]})
        s.idx += 1
        if s.idx < len(s.order):
            s.actor = s.order[s.idx]
        else:
            s.round = 1
            _start_round(s)
        return
    if kind == "ready":
        s.ready = _set(s.ready, seat, True)
        s.log.append({"t": "ready", "seat": seat})
        nxt = seat + 1
        while nxt < s.config.players and not s.alive[nxt]:
            nxt += 1
        if nxt < s.config.players:
            s.actor = nxt
        else:
            _midnight(s)
        return
    # ---- decisions inside a card's resolution
    if kind == "target":
        s.r_target = a[1]
        s.log.append({"t": "target", "seat": seat, "target": a[1], "card": s.r_card})
    elif kind == "ask":
        _ask(s, seat, a[1], a[2])
    elif kind == "give":
        t, card = a[1], CARD_INDEX[a[2]]
        mine = list(s.rumors[seat])
        mine.remove(card)
        s.rumors = _set(_set(s.rumors, seat, tuple(mine)), t, tuple(sorted((*s.rumors[t], card))))
        s.seen = _set(s.seen, t, s.seen[t] | {card})
        s.r_target = t
        s.r_excl = (card,)
        s.log.append({"t": "give", "seat": seat, "target": t, "card": a[2]}, (seat, t))
        s.r_i += 1
    elif kind == "look":
        _look(s, seat, s.r_slot, a[1], "evidence")
        s.r_slot = None
    elif kind == "peek":
        _look(s, seat, a[1], a[2], s.r_card)
        s.r_i += 1
    elif kind == "waltz":
        to = ROOM_INDEX[a[1]]
        s.log.append({"t": "move", "seat": seat, "from": ROOMS[s.pos[seat]], "to": a[1], "how": "waltz"})
        s.pos = _set(s.pos, seat, to)
        s.r_i += 1
    elif kind == "return":
        disc = list(s.discards[seat])
        disc.remove(a[1])
        s.discards = _set(s.discards, seat, tuple(disc))
        s.hands = _set(s.hands, seat, _sorted_cards((*s.hands[seat], a[1])))
        s.log.append({"t": "return", "seat": seat, "card": a[1]})
        s.r_sub += 1
    elif kind == "done":
        s.r_sub = 0
        s.r_i += 1
    else:  # pragma: no cover - _check guards this
        raise IllegalAction(f"Unknown action {kind!r}.")
    s.phase = _RESOLVING
    _resolve(s)


def _look(s: MasqueState, seat: int, slot: int, index: int, why: str) -> None:
    room = s.red[slot][index]
    s.looks = _set(s.looks, seat, s.looks[seat] | {(slot, index)})
    s.log.append({"t": "look", "seat": seat, "slot": slot, "index": index, "room": ROOMS[room], "why": why},
                 (seat,))


def _ask(s: MasqueState, seat: int, t: int, slot: int) -> None:
    """Name a time slot: that slot's card if the target has one (random among several), else a
    random card of the whole hand. Everyone sees the slot and how many cards were offered."""
    eff, _k = _current_effect(s)
    pool_all = _available(s, t)
    match = [c for c in pool_all if c // NR == slot]
    pool = match or pool_all
    card = pool[0] if len(pool) == 1 else s.rng.choice(pool)
    how = "take" if eff == "take" else "look"
    s.log.append({"t": "ask", "seat": seat, "target": t, "slot": slot, "offered": len(pool),
                  "matched": bool(match), "how": how, "card": CARD_NAMES[card]}, (seat, t))
    s.seen = _set(s.seen, seat, s.seen[seat] | {card})
    if how == "take":
        theirs = list(s.rumors[t])
        theirs.remove(card)
        s.rumors = _set(_set(s.rumors, t, tuple(theirs)), seat, tuple(sorted((*s.rumors[seat], card))))
    if eff == "look_each":
        s.r_each = tuple(x for x in s.r_each if x != t)
        return
    s.r_target = t
    s.r_sub += 1
    if how == "look":
        s.r_excl = (*s.r_excl, card)


# --------------------------------------------------------------------------- the round


def _start_round(s: MasqueState) -> None:
    """1. The Prince rewards; 2. every noble chooses an Action card in secret."""
    r = s.round
    s.log.append({"t": "round", "round": r, "clock": _R.prince_slots[r - 1], "prince": ROOMS[s.prince]})
    here = [t for t in range(s.config.players) if s.pos[t] == s.prince]
    for t in sorted(here, key=lambda x: -s.pop[x]):  # most popular first
        _gain(s, t, 1, "prince")
    s.choices = (None,) * s.config.players
    s.revealed = False
    s.twice = (False,) * s.config.players
    s.chooser = 0
    s.actor = 0
    s.phase = CHOOSE


def _next_chooser(s: MasqueState) -> None:
    s.chooser += 1
    if s.chooser < s.config.players:
        s.actor = s.chooser
        return
    # Everyone has chosen: reveal together, resolve from the least popular clockwise.
    s.revealed = True
    s.order = _clockwise_from_least(s)
    s.idx = 0
    s.log.append({"t": "reveal", "cards": list(s.choices), "order": list(s.order)})
    _clear_resolution(s)
    s.phase = _RESOLVING
    _resolve(s)


def _resolve(s: MasqueState) -> None:
    """Resolve the revealed cards until one needs a decision, then hand over to the moves."""
    cards = load_actions()
    while True:
        if s.r_card is None:
            if s.idx >= len(s.order):
                _start_moves(s)
                return
            seat = s.order[s.idx]
            s.r_seat = seat
            s.r_card = s.choices[seat]
            s.r_i = 0
            s.r_sub = 0
            s.r_target = None
            s.r_excl = ()
            s.r_each = None
            s.actor = seat
            s.log.append({"t": "resolve", "seat": seat, "card": s.r_card})
        card = cards[s.r_card]
        if s.r_i >= len(card.effects):
            seat = s.r_seat
            if card.keep:
                s.hands = _set(s.hands, seat, _sorted_cards((*s.hands[seat], card.id)))
            else:
                s.discards = _set(s.discards, seat, (*s.discards[seat], card.id))
            s.r_card = None
            s.idx += 1
            continue
        eff, k = card.effects[s.r_i]
        if not _effect(s, eff, k):
            return


def _fizzle(s: MasqueState, eff: str) -> None:
    s.log.append({"t": "fizzle", "seat": s.r_seat, "card": s.r_card, "effect": eff})
    s.r_i += 1
    s.r_sub = 0
    s.r_excl = ()


def _decide(s: MasqueState, phase: str) -> bool:
    s.phase = phase
    s.actor = s.r_seat
    return False


def _effect(s: MasqueState, eff: str, k: int) -> bool:
    """Resolve one effect of the current card; False when its seat must decide first."""
    seat = s.r_seat
    if eff == "gain":
        _gain(s, seat, k, s.r_card)
    elif eff == "lose":
        _lose(s, seat, k, s.r_card)
    elif eff == "draw":
        while s.r_sub < k:
            if not s.deck:
                _fizzle(s, eff)
                return True
            c = s.deck[-1]
            s.deck = s.deck[:-1]
            s.r_sub += 1
            if c < GOSSIP:
                s.rumors = _set(s.rumors, seat, tuple(sorted((*s.rumors[seat], c))))
                s.seen = _set(s.seen, seat, s.seen[seat] | {c})
                s.log.append({"t": "draw", "seat": seat, "card": CARD_NAMES[c]}, (seat,))
            else:  # Evidence: look at one Red Death card of its slot now, then discard it face up
                s.evidence = (*s.evidence, c)
                s.log.append({"t": "draw", "seat": seat, "card": CARD_NAMES[c]})
                s.r_slot = c - GOSSIP
                return _decide(s, LOOK)
        s.r_sub = 0
    elif eff == "twice":
        s.twice = _set(s.twice, seat, True)
    elif eff in ("other_gain", "other_lose"):
        if s.r_target is None:
            if not _target_choices(s):  # nobody nearby, or (Mock) nobody nearby can lose it any more
                _fizzle(s, eff)
                return True
            return _decide(s, TARGET)
        if eff == "other_gain":
            _gain(s, s.r_target, k, s.r_card)
        else:
            _lose(s, s.r_target, k, s.r_card)
    elif eff in ("look", "take"):
        if s.r_sub < k and _ask_targets(s):
            return _decide(s, ASK)
        if s.r_sub == 0:
            _fizzle(s, eff)
            return True
        s.r_sub = 0
        s.r_excl = ()
    elif eff == "give":
        if not s.rumors[seat] or not _give_choices(s):
            _fizzle(s, eff)
            return True
        return _decide(s, GIVE)
    elif eff == "look_each":
        if s.r_each is None:
            s.r_each = tuple(t for t in nearby(s, seat) if s.rumors[t])
            if not s.r_each:
                s.r_each = None
                _fizzle(s, eff)
                return True
        if s.r_each:
            return _decide(s, ASK)
        s.r_each = None
    elif eff == "nearby_lose":
        near = nearby(s, seat)
        if not near:
            _fizzle(s, eff)
            return True
        for t in sorted(near, key=lambda x: -s.pop[x]):
            _lose(s, t, k, s.r_card)
    elif eff == "anywhere":
        return _decide(s, WALTZ)
    elif eff == "premonition":
        return _decide(s, PEEK)
    elif eff == "least_gain":
        _gain(s, min(range(s.config.players), key=s.pop.__getitem__), k, s.r_card)
    elif eff == "encore":
        if s.r_sub < k and s.discards[seat]:
            return _decide(s, RETURN)
        s.r_sub = 0
    else:  # pragma: no cover - the data loader refuses unknown effects
        raise ValueError(f"unknown effect {eff!r}")
    s.r_i += 1
    return True


def _gain(s: MasqueState, seat: int, k: int, why: str) -> None:
    """Move forward ``k`` open spaces, skipping spaces held by other trackers (any lap)."""
    occ = _occupied(s, seat)
    p = s.pop[seat]
    for _ in range(k):
        p += 1
        while p % TRACK in occ:
            p += 1
    s.pop = _set(s.pop, seat, p)
    s.log.append({"t": "pop", "seat": seat, "change": k, "to": p, "why": why})


def _lose(s: MasqueState, seat: int, k: int, why: str) -> None:
    """Move back ``k`` open spaces, skipping held spaces; space 1 is the bottom of the track."""
    occ = _occupied(s, seat)
    p = s.pop[seat]
    lost = 0
    for _ in range(k):
        q = p - 1
        while q >= 1 and q % TRACK in occ:
            q -= 1
        if q < 1:
            break
        p = q
        lost += 1
    s.pop = _set(s.pop, seat, p)
    ev = {"t": "pop", "seat": seat, "change": -lost, "to": p, "why": why}
    if lost < k:  # the track's bottom stopped it (a card played when it could, resolved later)
        ev["wanted"] = -k
    s.log.append(ev)


def _start_moves(s: MasqueState) -> None:
    """Each noble may move to an adjacent room, from the most popular to the least."""
    _clear_resolution(s)
    s.order = tuple(sorted(range(s.config.players), key=lambda x: -s.pop[x]))
    s.idx = 0
    s.actor = s.order[0]
    s.phase = MOVE


def _end_round(s: MasqueState) -> None:
    """3. The Prince moves to his next tile; the clock advances."""
    if s.round < ROUNDS:
        s.prince = s.route[s.round]
        s.log.append({"t": "prince", "room": ROOMS[s.prince], "clock": _R.prince_slots[s.round]})
        s.round += 1
        _start_round(s)
        return
    s.round = ROUNDS + 1
    s.choices = (None,) * s.config.players
    s.revealed = False
    s.log.append({"t": "plan"})
    s.phase = PLAN
    s.actor = 0


def _midnight(s: MasqueState) -> None:
    """Plans are revealed; for each slot the nobles move, then each Red Death card kills its room."""
    n = s.config.players
    s.prince = -1
    s.log.append({"t": "midnight", "plans": [list(p) for p in s.plans],
                  "positions": [ROOMS[p] for p in s.pos]})
    results = []
    for k in range(NS):
        pos = list(s.pos)
        for t in range(n):
            if s.alive[t]:
                pos[t] = (pos[t] + STEP[s.plans[t][k]]) % NR
        s.pos = tuple(pos)
        snapshot = tuple(p if s.alive[t] else -1 for t, p in enumerate(s.pos))
        s.log.append({"t": "slot", "slot": k, "positions": [ROOMS[p] if p >= 0 else None for p in snapshot]})
        killed_slot = []
        for i, room in enumerate(s.red[k]):
            killed = [t for t in range(n) if s.alive[t] and s.pos[t] == room]
            for t in killed:
                s.alive = _set(s.alive, t, False)
            killed_slot.append(killed)
            s.log.append({"t": "red_death", "slot": k, "index": i, "room": ROOMS[room], "killed": killed})
        results.append((k, snapshot, s.red[k], tuple(tuple(x) for x in killed_slot)))
    s.midnight = tuple(results)
    survivors = [t for t in range(n) if s.alive[t]]
    if survivors:
        best = max(survivors, key=s.pop.__getitem__)
        winners, reason = [best], "most-popular-survivor"
    else:
        winners, reason = [], "all-dead"
    s.result = {"winners": winners, "reason": reason, "survivors": survivors, "popularity": list(s.pop),
                "red_death": {SLOTS[k]: [ROOMS[r] for r in s.red[k]] for k in range(NS)}}
    s.phase = OVER
    s.actor = None
    s.log.append({"t": "end", **_copy_event(s.result)})


# --------------------------------------------------------------------------- views

_SECRET_FIELDS = {"deal": ("card",), "chosen": ("card",), "tile": ("slot", "dir"), "draw": ("card",),
                  "ask": ("card",), "give": ("card",), "look": ("room",)}


_OWN_ECHOES = frozenset({"tile", "chosen", "give"})
_PUBLIC_REVEALS = frozenset({"reveal", "draw", "midnight", "slot", "red_death", "end"})
_REDACTED_REVEALS = frozenset({"ask"})


def shows_hidden(event: dict, seats: tuple[int, ...] | None, seat: int) -> bool:
    """Whether this log entry shows ``seat`` something hidden (a look, a Rumor card, revealed Action cards)."""
    return _shows_hidden(event, seats, seat, own=_OWN_ECHOES, public=_PUBLIC_REVEALS, redacted=_REDACTED_REVEALS)


def redact(event: dict) -> dict:
    """What a seat that may not see ``event`` whole is told about it."""
    out = _copy_event(event)
    for f in _SECRET_FIELDS.get(event["t"], ()):
        out[f] = None
    return out


_FLAT = frozenset({"deal", "place", "round", "pop", "chosen", "tile", "resolve", "draw", "look", "target",
                   "ask", "give", "move", "return", "fizzle", "prince", "plan", "ready"})
"""Event types whose values are all scalars: a shallow copy already protects the log."""


def _copy_event(event: dict) -> dict:
    """A copy whose lists and dicts are new too: a view's holder must not be able to edit the log."""
    out = event.copy()
    if event.get("t") in _FLAT:
        return out
    for k, v in event.items():
        t = type(v)
        if t is list:
            out[k] = [list(x) if type(x) is list else x for x in v]
        elif t is dict:
            out[k] = {kk: list(vv) if type(vv) is list else vv for kk, vv in v.items()}
    return out


def events_for(state: MasqueState, seat: int | None, since: int = 0) -> list[dict]:
    """The seat's observation stream from log index ``since``; each event carries its index ``n``."""
    out = []
    for i, (ev, seats) in enumerate(state.log.entries(since), start=since):
        if seats is None or (seat is not None and seat in seats):
            e = _copy_event(ev)
        else:
            e = _copy_event(ev)
            for f in _SECRET_FIELDS.get(ev["t"], ()):
                e[f] = None
        e["n"] = i
        out.append(e)
    return out


_SLOT_ROOM: tuple[tuple[str, str], ...] = tuple((SLOTS[c // NR], ROOMS[c % NR]) for c in range(GOSSIP))


def _notes(s: MasqueState, seat: int) -> dict:
    """What this seat knows for sure: Gossip it held or saw (safe), Red Death cards it looked at."""
    safe: dict[str, list[str]] = {k: [] for k in SLOTS}
    for c in sorted(s.seen[seat]):
        slot, room = _SLOT_ROOM[c]
        safe[slot].append(room)
    deadly: dict[str, list[str]] = {k: [] for k in SLOTS}
    looked = []
    if s.looks[seat]:
        for k, i in sorted(s.looks[seat]):
            room = ROOMS[s.red[k][i]]
            looked.append([k, i, room])
            if room not in deadly[SLOTS[k]]:
                deadly[SLOTS[k]].append(room)
    return {"safe": safe, "deadly": deadly, "looked": looked}


def view(state: MasqueState, seat: int, since: int = 0) -> dict:
    """Everything ``seat`` may know now, and nothing more. ``since`` trims old events."""
    s = state
    over = s.phase == OVER
    actor = to_act(s)
    acting = actor == seat
    pending = None
    if s.phase == CHOOSE:
        pending = {"kind": "action", "chosen": [c is not None for c in s.choices], "mine": s.choices[seat]}
    elif s.phase == PLAN:
        pending = {"kind": "plan", "ready": list(s.ready)}
    resolving = None
    if s.r_card is not None:
        resolving = {"seat": s.r_seat, "card": s.r_card, "need": s.phase, "target": s.r_target,
                     "step": s.r_i}
        if s.phase == LOOK:
            resolving["slot"] = s.r_slot
    midnight = [{"slot": k, "positions": [ROOMS[p] if p >= 0 else None for p in pos],
                 "red_death": [ROOMS[r] for r in red], "killed": [list(x) for x in killed]}
                for k, pos, red, killed in s.midnight]
    plans_public = over or bool(s.midnight)
    return {
        "game": "masque",
        "seat": seat,
        "players": list(s.config.seat_names()),
        "rooms": list(ROOMS),
        "slots": list(SLOTS),
        "phase": s.phase,
        "to_act": actor,
        "round": s.round,
        "rounds": ROUNDS,
        "clock": (_R.prince_slots[s.round - 1] if 1 <= s.round <= ROUNDS else ("midnight" if s.round else "8:00")),
        "prince": ROOMS[s.prince] if s.prince >= 0 else None,
        "prince_route": [ROOMS[r] for r in s.route],
        "prince_slots": list(_R.prince_slots),
        "positions": [ROOMS[p] if p >= 0 and s.alive[t] else None for t, p in enumerate(s.pos)],
        "alive": list(s.alive),
        "popularity": list(s.pop),
        "track": [{"space": (p - 1) % TRACK + 1, "lap": (p - 1) // TRACK + 1} for p in s.pop],
        "order": popularity_order(s),
        "hand": list(s.hands[seat]),
        "hand_sizes": [len(h) for h in s.hands],
        "discards": [list(d) for d in s.discards],
        "personality": s.personality[seat],
        "rumors": [CARD_NAMES[c] for c in s.rumors[seat]],
        "rumor_counts": [len(r) for r in s.rumors],
        "deck": len(s.deck),
        "evidence_discard": [CARD_NAMES[c] for c in s.evidence],
        "red_death_per_slot": s.config.red_death,
        "notes": _notes(s, seat),
        "plan": list(s.plans[seat]),
        "ready": list(s.ready),
        "plans": [list(p) for p in s.plans] if plans_public else None,
        "pending": pending,
        "revealed": list(s.choices) if s.revealed else None,
        "resolving": resolving,
        "twice": list(s.twice),
        "nearby": nearby(s, seat) if s.pos[seat] >= 0 else [],
        "midnight": midnight,
        "over": over,
        "result": _copy_event(s.result) if over else None,
        "events": events_for(s, seat, since),
        "legal": [list(x) for x in legal_actions(s)] if acting else [],
    }


# --------------------------------------------------------------------------- JSON


def action_to_json(action: Action) -> list:
    return list(action)


def action_from_json(data: Any) -> Action:
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"Not a Masque action: {data!r}")
    return tuple(data)


def state_to_json(state: MasqueState) -> dict:
    s = state
    return {
        "config": s.config.to_json(),
        "rng": s.rng.state,
        "phase": s.phase,
        "actor": s.actor,
        "round": s.round,
        "pop": list(s.pop),
        "pos": list(s.pos),
        "alive": list(s.alive),
        "personality": list(s.personality),
        "hands": [list(h) for h in s.hands],
        "discards": [list(d) for d in s.discards],
        "route": list(s.route),
        "box": list(s.box),
        "prince": s.prince,
        "red": [list(r) for r in s.red],
        "deck": list(s.deck),
        "evidence": list(s.evidence),
        "rumors": [list(r) for r in s.rumors],
        "seen": [sorted(x) for x in s.seen],
        "looks": [sorted([k, i] for k, i in x) for x in s.looks],
        "plans": [list(p) for p in s.plans],
        "ready": list(s.ready),
        "choices": list(s.choices),
        "revealed": s.revealed,
        "twice": list(s.twice),
        "chooser": s.chooser,
        "order": list(s.order),
        "idx": s.idx,
        "resolution": {"seat": s.r_seat, "card": s.r_card, "i": s.r_i, "sub": s.r_sub, "target": s.r_target,
                       "excl": list(s.r_excl), "each": list(s.r_each) if s.r_each is not None else None,
                       "slot": s.r_slot},
        "midnight": [[k, list(pos), list(red), [list(x) for x in killed]] for k, pos, red, killed in s.midnight],
        "result": _copy_event(s.result) if s.result is not None else None,
        "log": s.log.to_json(),
    }


def state_from_json(d: dict) -> MasqueState:
    s = MasqueState()
    s.config = MasqueConfig.from_json(d["config"])
    s.rng = Rng(d["rng"])
    s.phase = d["phase"]
    s.actor = d["actor"]
    s.round = d["round"]
    s.pop = tuple(d["pop"])
    s.pos = tuple(d["pos"])
    s.alive = tuple(d["alive"])
    s.personality = tuple(d["personality"])
    s.hands = tuple(tuple(h) for h in d["hands"])
    s.discards = tuple(tuple(x) for x in d["discards"])
    s.route = tuple(d["route"])
    s.box = tuple(d["box"])
    s.prince = d["prince"]
    s.red = tuple(tuple(r) for r in d["red"])
    s.deck = tuple(d["deck"])
    s.evidence = tuple(d["evidence"])
    s.rumors = tuple(tuple(r) for r in d["rumors"])
    s.seen = tuple(frozenset(x) for x in d["seen"])
    s.looks = tuple(frozenset((k, i) for k, i in x) for x in d["looks"])
    s.plans = tuple(tuple(p) for p in d["plans"])
    s.ready = tuple(d["ready"])
    s.choices = tuple(d["choices"])
    s.revealed = d["revealed"]
    s.twice = tuple(d["twice"])
    s.chooser = d["chooser"]
    s.order = tuple(d["order"])
    s.idx = d["idx"]
    r = d["resolution"]
    s.r_seat, s.r_card, s.r_i, s.r_sub, s.r_target = r["seat"], r["card"], r["i"], r["sub"], r["target"]
    s.r_excl = tuple(r["excl"])
    s.r_each = tuple(r["each"]) if r["each"] is not None else None
    s.r_slot = r["slot"]
    s.midnight = tuple((k, tuple(pos), tuple(red), tuple(tuple(x) for x in killed))
                       for k, pos, red, killed in d["midnight"])
    s.result = _copy_event(d["result"]) if d["result"] is not None else None
    s.log = EventLog.from_json(d["log"])
    return s
