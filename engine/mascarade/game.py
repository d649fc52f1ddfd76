"""Mascarade (Board Game Arena edition) rules engine.

Pure rules over plain data. ``new_game`` deals from a seeded RNG kept in the state, ``apply``
returns a new state (or raises :class:`IllegalAction` and leaves the old one as it was), and
``view`` gives one seat exactly what that seat may see.

Places. Cards lie in front of *places*: places ``0 .. n-1`` are the players (seat numbers),
places ``n .. n+t-1`` are the table cards (face-down cards with no owner; 2 with 4 players,
1 with 5). A seat number never changes; the Puppeteer changes who sits where in the
clockwise ``order``, and with it who holds which card and coins.

Actions (tuples of str/int/bool, listed in a stable order by ``legal_actions``):

* ``("swap", place, swapped)`` — swap-or-pretend with another player or a table card;
  ``swapped`` is the secret decision (True: the cards are exchanged).
* ``("look",)`` — look at your own card.
* ``("announce", mask)`` — name a mask of the game's set.
* ``("claim",)`` / ``("pass",)`` — after an announcement, each other player in turn.
* ``("power", mask, ...)`` — the choice a power needs: ``("power", "spy", place)``,
  ``("power", "fool", place, place, swapped)``, ``("power", "guru", seat)``,
  ``("power", "princess", seat)``, ``("power", "sorceress", seat)``,
  ``("power", "trickster", seat)`` (only when the richest are tied),
  ``("power", "puppeteer", seat, seat)``.
* ``("spy_swap", swapped)`` — the Spy, having seen both cards, swaps or pretends.
* ``("name", mask)`` — the Guru's target names their mask.

Events (the observation language, ``view()["events"]``; secret fields are ``None`` for the
seats that may not see them): see ``docs/mascarade.md`` for the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from engine.core import EventLog, IllegalAction, Rng
from engine.core import shows_hidden as _shows_hidden
from engine.mascarade.data_files import Mask, load_masks, load_rules

Phased = Any  # a slot that only its phase fills (see the state's annotations)
Action = tuple

TURN, CLAIM, POWER, SPY, GURU, OVER = "turn", "claim", "power", "spy", "guru", "over"
REVEALED_RULES = ("no-announce", "must-swap")
DEFAULT_NAMES = ("You", "Ada", "Bruno", "Chloe", "Dario", "Elena", "Farid", "Greta", "Hugo", "Iris", "Jonas",
                 "Kira")
CHOICE_EFFECTS = frozenset({"spy", "fool", "guru", "princess", "sorceress", "puppeteer"})


def table_count(players: int) -> int:
    """Table cards: the cards in play are never fewer than six (FACT: 2 with 4 players, 1 with 5)."""
    return max(0, load_rules().cards - players)


@dataclass(frozen=True)
class MascaradeConfig:
    """A game's setup: the player count, names, a custom mask set, and the rule options."""

    players: int = 4
    names: tuple[str, ...] = ()
    masks: tuple[str, ...] = ()
    opening: bool = True
    revealed_rule: str = "no-announce"
    spy_table: bool = True
    fool_table: bool = True
    max_turns: int = 0  # 0: the data file's safety cap

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 4 <= self.players <= 12:
            raise ValueError("Mascarade is for 4 to 12 players.")
        if self.names and len(self.names) != self.players:
            raise ValueError(f"Give {self.players} player names, not {len(self.names)}.")
        names = self.seat_names()
        if len(set(names)) != self.players or any(not isinstance(x, str) or not x.strip() for x in names):
            raise ValueError("Player names must be different and not empty.")
        if self.revealed_rule not in REVEALED_RULES:
            raise ValueError(f"revealed_rule must be one of: {', '.join(REVEALED_RULES)}.")
        if not isinstance(self.max_turns, int) or self.max_turns < 0:
            raise ValueError("max_turns must be a whole number, at least 0 (0: the default cap).")
        if self.masks:
            check_mask_set(self.masks, self.players)

    def seat_names(self) -> tuple[str, ...]:
        return tuple(self.names) or DEFAULT_NAMES[: self.players]

    def table_cards(self) -> int:
        return table_count(self.players)

    def mask_set(self) -> tuple[str, ...]:
        """The cards in play (Peasants twice), in the data file's mask order."""
        return _mask_set(self.masks, self.players)

    def turn_cap(self) -> int:
        return self.max_turns or load_rules().max_turns

    def to_json(self) -> dict:
        return {"players": self.players, "names": list(self.seat_names()), "masks": list(self.mask_set()),
                "opening": self.opening, "revealed_rule": self.revealed_rule, "spy_table": self.spy_table,
                "fool_table": self.fool_table, "max_turns": self.max_turns}

    @classmethod
    def from_json(cls, data: dict) -> MascaradeConfig:
        if not isinstance(data, dict):
            raise ValueError("A Mascarade config is a JSON object.")
        known = {"players", "names", "masks", "opening", "revealed_rule", "spy_table", "fool_table", "max_turns"}
        extra = set(data) - known
        if extra:
            raise ValueError(f"Unknown Mascarade option(s): {', '.join(sorted(extra))}.")
        kw = dict(data)
        for k in ("names", "masks"):
            if k in kw:
                if not isinstance(kw[k], list | tuple):
                    raise ValueError(f"{k} must be a list.")
                kw[k] = tuple(kw[k])
        for k in ("opening", "spy_table", "fool_table"):
            if k in kw and not isinstance(kw[k], bool):
                raise ValueError(f"{k} must be true or false.")
        cfg = cls(**kw)
        if cfg.masks and tuple(sorted(cfg.masks)) == tuple(sorted(load_rules().sets[cfg.players])):
            cfg = cls(**{**kw, "masks": ()})  # the standard set, written out: keep configs equal
        return cfg


@lru_cache(maxsize=256)
def _mask_set(masks: tuple[str, ...], players: int) -> tuple[str, ...]:
    chosen = masks or load_rules().sets[players]
    order = {m: i for i, m in enumerate(load_masks())}
    return tuple(sorted(chosen, key=order.__getitem__))


def check_mask_set(masks: tuple[str, ...] | list[str], players: int) -> None:
    """Raise ValueError with a sentence unless ``masks`` is a valid custom set for ``players``."""
    known = load_masks()
    for m in masks:
        if m not in known:
            raise ValueError(f"Unknown mask {m!r}; the masks are: {', '.join(known)}.")
    want = players + table_count(players)
    if len(masks) != want:
        raise ValueError(f"{players} players play with {want} cards; the set has {len(masks)}.")
    if "judge" not in masks:
        raise ValueError("The Judge is always in the game.")
    for m in set(masks):
        c = list(masks).count(m)
        if c != known[m].count and not (m == "peasant" and c == 0):
            if m == "peasant":
                raise ValueError("The Peasants come only as a pair.")
            raise ValueError(f"There is only one {known[m].name} card.")


class MascaradeState:
    """The whole game, secrets included. Only the engine and the table ever hold one."""

    # One annotation per slot, for the type checker (the slots hold the values). A ``Phased``
    # slot holds a value while its phase lasts and None otherwise: the phase says which.
    _legal: Phased
    announcer: Phased
    bank: int
    cards: tuple[str, ...]
    cheater: Phased
    claim_queue: tuple[int, ...]
    claimants: tuple[int, ...]
    coins: tuple[int, ...]
    config: MascaradeConfig
    court: int
    false_claimants: tuple[int, ...]
    first: int
    guru_by: Phased
    guru_target: Phased
    ids: tuple[str, ...]
    known: tuple[tuple[str | None, ...], ...]
    log: EventLog
    mask: Phased
    order: tuple[int, ...]
    pair: bool
    phase: str
    power_seat: Phased
    queue: tuple[Any, ...]
    result: Phased
    revealed_now: frozenset[int]
    revealed_prev: frozenset[int]
    rng: Rng
    spy_target: Phased
    turn_no: int
    turn_pos: int

    __slots__ = (
        "_legal",
        "announcer",
        "bank",
        "cards",
        "cheater",
        "claim_queue",
        "claimants",
        "coins",
        "config",
        "court",
        "false_claimants",
        "first",
        "guru_by",
        "guru_target",
        "ids",
        "known",
        "log",
        "mask",
        "order",
        "pair",
        "phase",
        "power_seat",
        "queue",
        "result",
        "revealed_now",
        "revealed_prev",
        "rng",
        "spy_target",
        "turn_no",
        "turn_pos",
    )

    def copy(self) -> MascaradeState:
        """A cheap copy: every field is immutable or replaced (never edited) by ``apply``."""
        c = MascaradeState.__new__(MascaradeState)
        c.announcer = self.announcer
        c.bank = self.bank
        c.cards = self.cards
        c.cheater = self.cheater
        c.claim_queue = self.claim_queue
        c.claimants = self.claimants
        c.coins = self.coins
        c.config = self.config
        c.court = self.court
        c.first = self.first
        c.guru_by = self.guru_by
        c.guru_target = self.guru_target
        c.ids = self.ids
        c.known = self.known
        c.mask = self.mask
        c.order = self.order
        c.pair = self.pair
        c.phase = self.phase
        c.power_seat = self.power_seat
        c.queue = self.queue
        c.false_claimants = self.false_claimants
        c.result = self.result
        c.revealed_now = self.revealed_now
        c.revealed_prev = self.revealed_prev
        c.spy_target = self.spy_target
        c.turn_no = self.turn_no
        c.turn_pos = self.turn_pos
        c._legal = None
        c.rng = self.rng.copy()
        c.log = self.log.copy()
        return c

    @property
    def players(self) -> int:
        return self.config.players

    def turn_seat(self) -> int:
        return self.order[self.turn_pos]


def _masks() -> dict[str, Mask]:
    return load_masks()


def new_game(config: MascaradeConfig, seed: int, rng: Rng | None = None) -> MascaradeState:
    """Deal the masks, show them all face up (the opening), and pick the first player."""
    rules = load_rules()
    rng = Rng(seed) if rng is None else rng  # an outside rng: explicit chance (ChanceRng)
    n = config.players
    cards = rng.shuffled(config.mask_set())
    s = MascaradeState()
    s.config = config
    s.rng = rng
    s.ids = tuple(dict.fromkeys(config.mask_set()))
    s.cards = tuple(cards)
    s.coins = (rules.coins,) * n
    s.bank = rules.bank
    s.court = 0
    s.order = tuple(range(n))
    s.first = rng.below(n)
    s.turn_pos = s.first
    s.turn_no = 1
    s.phase = TURN
    s.announcer = None
    s.mask = None
    s.claim_queue = ()
    s.claimants = ()
    s.queue = ()
    s.false_claimants = ()
    s.pair = False
    s.power_seat = None
    s.spy_target = None
    s.guru_by = None
    s.guru_target = None
    s.cheater = None
    s.revealed_now = frozenset()
    s.revealed_prev = frozenset()
    s.result = None
    s.log = EventLog()
    places = len(cards)
    s.log.append({"t": "setup", "players": list(config.seat_names()), "masks": list(config.mask_set()),
                  "table": config.table_cards(), "coins": list(s.coins), "court": 0, "bank": s.bank,
                  "order": list(s.order), "first": s.first, "opening": config.opening,
                  "revealed_rule": config.revealed_rule, "spy_table": config.spy_table,
                  "fool_table": config.fool_table, "opening_turns": rules.opening_turns})
    if config.opening:
        s.log.append({"t": "opening", "cards": list(cards)})
        s.known = (tuple(cards),) * n
    else:
        s.known = ((None,) * places,) * n
    s.log.append({"t": "turn", "seat": s.first, "turn": 1})
    return s


# --------------------------------------------------------------------------- queries


def to_act(state: MascaradeState) -> int | None:
    """The seat that must decide now (None when the game is over)."""
    p = state.phase
    if p == TURN:
        return state.order[state.turn_pos]
    if p == CLAIM:
        return state.claim_queue[0]
    if p in (POWER, SPY):
        return state.power_seat
    if p == GURU:
        return state.guru_target
    return None


def is_over(state: MascaradeState) -> bool:
    return state.phase == OVER


def result(state: MascaradeState) -> dict | None:
    """Winners and why, once the game is over."""
    return state.result


def places(state: MascaradeState) -> int:
    return len(state.cards)


def neighbours(order: tuple[int, ...], seat: int) -> tuple[int, int]:
    """(left, right): the next player clockwise and the previous one. Table cards are never neighbours."""
    i = order.index(seat)
    n = len(order)
    return order[(i + 1) % n], order[(i - 1) % n]


def clockwise_from(order: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The other players, clockwise from ``seat``'s left."""
    i = order.index(seat)
    n = len(order)
    return tuple(order[(i + k) % n] for k in range(1, n))


def announce_blocked(state: MascaradeState) -> str | None:
    """Why the player to act may not announce this turn (None if they may)."""
    opening = load_rules().opening_turns
    if state.turn_no <= opening:
        if opening == 1:
            return "The first turn of the game is swap-or-pretend only."
        return f"The first {opening} turns of the game are swap-or-pretend only."
    if state.order[state.turn_pos] in state.revealed_prev:
        if state.config.revealed_rule == "must-swap":
            return "Your card was revealed during the previous turn: you must swap or pretend."
        return "Your card was revealed during the previous turn: you may not announce."
    return None


def _must_swap(state: MascaradeState) -> bool:
    if state.turn_no <= load_rules().opening_turns:
        return True
    return state.config.revealed_rule == "must-swap" and state.order[state.turn_pos] in state.revealed_prev


def _richest_others(state: MascaradeState, seat: int) -> list[int]:
    others = [i for i in range(state.players) if i != seat]
    top = max(state.coins[i] for i in others)
    return [i for i in others if state.coins[i] == top]


@lru_cache(maxsize=256)
def _swaps(places: int, me: int) -> tuple[Action, ...]:
    return tuple(("swap", t, sw) for t in range(places) if t != me for sw in (True, False))


@lru_cache(maxsize=64)
def _announces(ids: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(("announce", m) for m in ids)


def legal_actions(state: MascaradeState) -> list[Action]:
    """Every action the seat to act may take now, in a stable order."""
    cached = getattr(state, "_legal", None)
    if cached is None:
        cached = state._legal = tuple(_legal_actions(state))  # a state never changes once built
    return list(cached)


def _legal_actions(state: MascaradeState) -> list[Action]:
    p = state.phase
    n = state.players
    if p == OVER:
        return []
    if p == TURN:
        me = state.order[state.turn_pos]
        acts = list(_swaps(len(state.cards), me))
        if _must_swap(state):
            return acts
        acts.append(("look",))
        if announce_blocked(state) is None:
            acts.extend(_announces(state.ids))
        return acts
    if p == CLAIM:
        return [("claim",), ("pass",)]
    if p == SPY:
        return [("spy_swap", True), ("spy_swap", False)]
    if p == GURU:
        return [("name", m) for m in state.ids]
    # POWER: the choice the power of state.mask needs
    me = state.power_seat
    eff = _masks()[state.mask].effect
    others = [i for i in range(n) if i != me]
    tables = list(range(n, len(state.cards)))
    if eff == "spy":
        return [("power", "spy", t) for t in others + (tables if state.config.spy_table else [])]
    if eff == "fool":
        pool = others + (tables if state.config.fool_table else [])
        return [("power", "fool", a, b, sw) for i, a in enumerate(pool) for b in pool[i + 1:] for sw in (True, False)]
    if eff == "puppeteer":
        return [("power", "puppeteer", a, b) for i, a in enumerate(others) for b in others[i + 1:]]
    if eff == "trickster":
        return [("power", "trickster", t) for t in _richest_others(state, me)]
    return [("power", state.mask, t) for t in others]  # guru, princess, sorceress


# --------------------------------------------------------------------------- apply


def _same(a: Action, b: Action) -> bool:
    """Equal with the same types: True must not pass for 1, nor 1 for True."""
    return a == b and tuple(map(type, a)) == tuple(map(type, b))


def apply(state: MascaradeState, action: Action) -> MascaradeState:
    """Return the state after ``action``; raise IllegalAction (state untouched) if it is not allowed."""
    action = tuple(action)
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    legal_actions(state)  # fills the cache
    legal = state._legal
    try:
        ok = _same(action, legal[legal.index(action)])
    except ValueError:
        ok = False
    if not ok:
        raise IllegalAction(_explain(state, action))
    s = state.copy()
    _do(s, action)
    return s


def _explain(state: MascaradeState, a: Action) -> str:
    kind = a[0] if a and isinstance(a[0], str) else None
    p = state.phase
    if p == CLAIM:
        return f"Claim or pass: do you say you are the {_masks()[state.mask].name} too?"
    if p == SPY:
        return "As the Spy you have seen both cards: now swap them or pretend to."
    if p == GURU:
        return "Name the mask you think you have (one of the game's masks)."
    if p == POWER:
        return f"Choose how to use the {_masks()[state.mask].name}'s power."
    if kind == "announce":
        why = announce_blocked(state)
        if why:
            return why
        return "You can announce only a mask that is in this game."
    if kind == "look" and _must_swap(state):
        return announce_blocked(state) or "You must swap or pretend this turn."
    if kind == "swap":
        return "Swap or pretend with another player or a table card (and say whether you really swap)."
    if kind in ("claim", "pass", "spy_swap", "name", "power"):
        return "Nobody asked you for that now; it is your turn: swap, look or announce."
    return f"{a!r} is not a Mascarade action."


def _set(t: tuple, i: int, v: Any) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def _coin_fields(s: MascaradeState) -> dict:
    return {"coins": list(s.coins), "court": s.court, "bank": s.bank}


def _give(s: MascaradeState, src: int | str, dst: int | str, amount: int) -> int:
    """Move up to ``amount`` coins (what the payer has); a seat, ``"bank"`` or ``"court"``. Returns the amount."""
    have = s.bank if src == "bank" else s.court if src == "court" else s.coins[src]  # type: ignore[index]
    k = max(0, min(amount, have))
    if k == 0:
        return 0
    if src == "bank":
        s.bank -= k
    elif src == "court":
        s.court -= k
    else:
        s.coins = _set(s.coins, src, s.coins[src] - k)  # type: ignore[arg-type,index]  # a seat here
    if dst == "bank":
        s.bank += k
    elif dst == "court":
        s.court += k
    else:
        s.coins = _set(s.coins, dst, s.coins[dst] + k)  # type: ignore[arg-type,index]  # a seat here
    return k


# knowledge: what each seat saw last at each place (for the view; the solvers work it out themselves)

def _know(s: MascaradeState, seats: tuple[int, ...] | range, place: int, mask: str | None) -> None:
    known = list(s.known)
    for i in seats:
        row = known[i]
        if row[place] != mask:
            known[i] = (*row[:place], mask, *row[place + 1:])
    s.known = tuple(known)


def _hidden_swap(s: MascaradeState, actor: int, a: int, b: int, swapped: bool, by: str) -> None:
    """A swap-or-pretend: the outcome is the actor's secret; others lose track of both cards."""
    if swapped:
        c = list(s.cards)
        c[a], c[b] = c[b], c[a]
        s.cards = tuple(c)
    known = list(s.known)
    for i in range(s.players):
        k = known[i]
        if i == actor:
            if swapped:
                kl = list(k)
                kl[a], kl[b] = kl[b], kl[a]
                known[i] = tuple(kl)
        elif k[a] is not None or k[b] is not None:
            kl = list(k)
            kl[a] = kl[b] = None
            known[i] = tuple(kl)
    s.known = tuple(known)
    s.log.append({"t": "swap", "seat": actor, "a": a, "b": b, "swapped": swapped, "by": by}, (actor,))


def _reveal(s: MascaradeState, seats: tuple[int, ...], why: str, mask: str) -> None:
    s.log.append({"t": "reveal", "why": why, "mask": mask, "cards": [[i, s.cards[i]] for i in seats]})
    s.revealed_now = s.revealed_now | frozenset(seats)
    for i in seats:
        _know(s, range(s.players), i, s.cards[i])


def _do(s: MascaradeState, a: Action) -> None:
    kind = a[0]
    seat = cast(int, to_act(s))  # apply() refused every action once the game was over
    if kind == "swap":
        _hidden_swap(s, seat, seat, a[1], a[2], "turn")
        _end_turn(s)
    elif kind == "look":
        s.log.append({"t": "look", "seat": seat, "card": s.cards[seat]}, (seat,))
        _know(s, (seat,), seat, s.cards[seat])
        _end_turn(s)
    elif kind == "announce":
        s.announcer = seat
        s.mask = a[1]
        s.claimants = (seat,)
        s.claim_queue = clockwise_from(s.order, seat)
        s.phase = CLAIM
        s.log.append({"t": "announce", "seat": seat, "mask": a[1]})
    elif kind in ("claim", "pass"):
        s.claim_queue = s.claim_queue[1:]
        if kind == "claim":
            s.claimants = (*s.claimants, seat)
            s.log.append({"t": "claim", "seat": seat, "mask": s.mask})
        else:
            s.log.append({"t": "pass", "seat": seat, "mask": s.mask})
        if not s.claim_queue:
            _resolve(s)
    elif kind == "power":
        _power_choice(s, seat, a)
    elif kind == "spy_swap":
        _hidden_swap(s, seat, seat, s.spy_target, a[1], "spy")
        s.spy_target = None
        _run_queue(s)
    elif kind == "name":
        _guru_named(s, seat, a[1])
    else:  # pragma: no cover - apply() only lets legal actions through
        raise IllegalAction(f"Unknown action {kind!r}.")


def _resolve(s: MascaradeState) -> None:
    """Everyone has claimed or passed: use the power unrevealed, or reveal every claimant."""
    m = s.mask
    if len(s.claimants) == 1:
        s.log.append({"t": "uncontested", "seat": s.announcer, "mask": m})
        s.queue = (s.announcer,)
        s.false_claimants = ()
        s.pair = False
    else:
        _reveal(s, s.claimants, "claim", m)
        true = tuple(i for i in s.claimants if s.cards[i] == m)
        s.queue = true
        s.false_claimants = tuple(i for i in s.claimants if s.cards[i] != m)
        s.pair = len(true) == 2
    s.phase = POWER
    _run_queue(s)


def _run_queue(s: MascaradeState) -> None:
    """Each true holder uses the power in claim order; then the fines; then the end check."""
    while s.queue:
        seat = s.queue[0]
        s.queue = s.queue[1:]
        if _use_power(s, seat):
            return  # waits for the holder's choice
    for i in s.false_claimants:
        k = _give(s, i, "court", 1)
        s.log.append({"t": "fine", "seat": i, "amount": k, **_coin_fields(s)})
    s.false_claimants = ()
    s.power_seat = None
    if not _check_end(s):
        _end_turn(s)


def _power_event(s: MascaradeState, seat: int, **fields: Any) -> None:
    s.log.append({"t": "power", "seat": seat, "mask": s.mask, **fields, **_coin_fields(s)})


def _use_power(s: MascaradeState, seat: int) -> bool:
    """Use ``s.mask``'s power for ``seat``; True when the power waits for a choice."""
    mk = _masks()[s.mask]
    eff = mk.effect
    if eff in CHOICE_EFFECTS or (eff == "trickster" and len(_richest_others(s, seat)) > 1):
        s.power_seat = seat
        s.phase = POWER
        s.log.append({"t": "choose", "seat": seat, "mask": s.mask})
        return True
    if eff == "bank":
        k = _give(s, "bank", seat, mk.amount)
        _power_event(s, seat, gain=k)
    elif eff == "judge":
        k = _give(s, "court", seat, s.court)
        _power_event(s, seat, gain=k)
    elif eff == "widow":
        k = _give(s, "bank", seat, max(0, mk.target - s.coins[seat]))
        _power_event(s, seat, gain=k)
    elif eff == "cheater":
        won = s.coins[seat] >= mk.threshold
        if won and s.cheater is None:
            s.cheater = seat
        _power_event(s, seat, win=won)
    elif eff == "peasant":
        k = _give(s, "bank", seat, mk.pair_amount if s.pair else mk.amount)
        _power_event(s, seat, gain=k)
    elif eff == "patron":
        k = _give(s, "bank", seat, mk.amount)
        left, right = neighbours(s.order, seat)
        for nb in (left, right):
            _give(s, "bank", nb, mk.neighbours)
        _power_event(s, seat, gain=k, neighbours=[left, right])
    elif eff == "thief":
        left, right = neighbours(s.order, seat)
        paid = [_give(s, left, seat, mk.amount), _give(s, right, seat, mk.amount)]
        _power_event(s, seat, targets=[left, right], paid=paid)
    elif eff == "beggar":
        gave = []
        for other in clockwise_from(s.order, seat):
            if s.coins[other] > s.coins[seat]:
                _give(s, other, seat, mk.amount)
                gave.append(other)
        _power_event(s, seat, targets=gave)
    elif eff == "trickster":
        t = _richest_others(s, seat)[0]
        k = _give(s, t, seat, mk.amount)
        _power_event(s, seat, target=t, gain=k)
    else:  # pragma: no cover - every effect is handled above
        raise ValueError(f"Unknown effect {eff!r}")
    return False


def _power_choice(s: MascaradeState, seat: int, a: Action) -> None:
    mk = _masks()[s.mask]
    eff = mk.effect
    if eff == "spy":
        t = a[2]
        s.spy_target = t
        _power_event(s, seat, target=t)
        s.log.append({"t": "spy_look", "seat": seat, "target": t, "mine": s.cards[seat], "theirs": s.cards[t]},
                     (seat,))
        _know(s, (seat,), seat, s.cards[seat])
        _know(s, (seat,), t, s.cards[t])
        s.phase = SPY
        return
    if eff == "guru":
        t = a[2]
        s.guru_by = seat
        s.guru_target = t
        _power_event(s, seat, target=t)
        s.phase = GURU
        return
    if eff == "fool":
        k = _give(s, "bank", seat, mk.amount)
        _power_event(s, seat, a=a[2], b=a[3], gain=k)
        _hidden_swap(s, seat, a[2], a[3], a[4], "fool")
    elif eff == "princess":
        t = a[2]
        k = _give(s, "bank", seat, mk.amount)
        _power_event(s, seat, target=t, gain=k)
        viewers = tuple(i for i in range(s.players) if i != t)
        s.log.append({"t": "shown", "seat": seat, "target": t, "card": s.cards[t]}, viewers)
        _know(s, viewers, t, s.cards[t])
    elif eff == "sorceress":
        t = a[2]
        mine, theirs = s.coins[seat], s.coins[t]
        s.coins = _set(_set(s.coins, seat, theirs), t, mine)
        _power_event(s, seat, target=t)
    elif eff == "trickster":
        t = a[2]
        k = _give(s, t, seat, mk.amount)
        _power_event(s, seat, target=t, gain=k)
    elif eff == "puppeteer":
        x, y = a[2], a[3]
        paid = [_give(s, x, seat, mk.amount), _give(s, y, seat, mk.amount)]
        # x and y trade places: each takes over the other's card, coins and turn position.
        c = list(s.cards)
        c[x], c[y] = c[y], c[x]
        s.cards = tuple(c)
        co = list(s.coins)
        co[x], co[y] = co[y], co[x]
        s.coins = tuple(co)
        s.order = tuple(y if i == x else x if i == y else i for i in s.order)
        known = []
        for row in s.known:
            kl = list(row)
            kl[x], kl[y] = kl[y], kl[x]
            known.append(tuple(kl))
        s.known = tuple(known)
        _power_event(s, seat, a=x, b=y, paid=paid, order=list(s.order))
    _run_queue(s)


def _guru_named(s: MascaradeState, seat: int, named: str) -> None:
    fine = _masks()["guru"].amount
    s.log.append({"t": "name", "seat": seat, "mask": named})
    _reveal(s, (seat,), "guru", named)
    paid = 0
    if s.cards[seat] != named:
        paid = _give(s, seat, s.guru_by, fine)
    s.log.append({"t": "verdict", "seat": s.guru_by, "target": seat, "named": named,
                  "right": s.cards[seat] == named, "paid": paid, **_coin_fields(s)})
    s.power_seat = s.guru_by
    s.guru_by = s.guru_target = None
    s.phase = POWER
    _run_queue(s)


def _richest(s: MascaradeState) -> list[int]:
    top = max(s.coins)
    return [i for i, c in enumerate(s.coins) if c == top]


def _check_end(s: MascaradeState) -> bool:
    """After a whole action: a Cheater win, else 13+ coins, else a player at 0 (richest wins)."""
    win = load_rules().win
    if s.cheater is not None:
        _finish(s, [s.cheater], "cheater")
        return True
    rich = [i for i, c in enumerate(s.coins) if c >= win]
    if rich:
        _finish(s, rich, "coins")
        return True
    if min(s.coins) <= 0:
        _finish(s, _richest(s), "bankrupt")
        return True
    return False


def _finish(s: MascaradeState, winners: list[int], reason: str) -> None:
    s.phase = OVER
    s.power_seat = None
    s.result = {"winners": sorted(winners), "reason": reason, "coins": list(s.coins), "court": s.court,
                "turns": s.turn_no}
    s.log.append({"t": "end", **s.result, "coins": list(s.coins)})  # a copy: the log never shares lists


def _end_turn(s: MascaradeState) -> None:
    s.revealed_prev = s.revealed_now
    s.revealed_now = frozenset()
    s.announcer = None
    s.mask = None
    s.claimants = ()
    s.claim_queue = ()
    s.queue = ()
    s.false_claimants = ()
    s.pair = False
    s.power_seat = None
    if s.turn_no >= s.config.turn_cap():
        _finish(s, _richest(s), "turn-limit")
        return
    s.turn_pos = (s.turn_pos + 1) % s.players
    s.turn_no += 1
    s.phase = TURN
    s.log.append({"t": "turn", "seat": s.order[s.turn_pos], "turn": s.turn_no})


# --------------------------------------------------------------------------- views

_SECRET_FIELDS = {"swap": ("swapped",), "look": ("card",), "spy_look": ("mine", "theirs"), "shown": ("card",)}


_OWN_ECHOES = frozenset({"swap"})
_PUBLIC_REVEALS = frozenset({"reveal", "verdict", "end"})
_REDACTED_REVEALS: frozenset[str] = frozenset()


def shows_hidden(event: dict, seats: tuple[int, ...] | None, seat: int) -> bool:
    """Whether this log entry shows ``seat`` something hidden (a look, a card shown, cards revealed)."""
    return _shows_hidden(event, seats, seat, own=_OWN_ECHOES, public=_PUBLIC_REVEALS, redacted=_REDACTED_REVEALS)


def redact(event: dict) -> dict:
    """What a seat that may not see ``event`` whole is told about it."""
    out = dict(event)
    for f in _SECRET_FIELDS.get(event["t"], ()):
        out[f] = None
    return out


_LIST_FIELDS = {"setup": ("players", "masks", "coins", "order"), "opening": ("cards",), "reveal": ("cards",),
                "power": ("coins", "targets", "paid", "neighbours", "order"), "fine": ("coins",),
                "verdict": ("coins",), "end": ("winners", "coins")}


def _copy_event(event: dict) -> dict:
    """A copy whose lists are new too: whoever holds a view must not be able to edit the log."""
    out = dict(event)
    for k in _LIST_FIELDS.get(event["t"], ()):
        v = out.get(k)
        if v is not None:
            out[k] = [list(x) if type(x) is list else x for x in v]
    return out


def _copy_result(res: dict) -> dict:
    return {k: list(v) if type(v) is list else v for k, v in res.items()}


def events_for(state: MascaradeState, seat: int | None, since: int = 0) -> list[dict]:
    """The seat's observation stream from log index ``since``; each event carries its index ``n``."""
    out = []
    for i, (ev, seats) in enumerate(state.log.entries(since), start=since):
        e = _copy_event(ev) if seats is None or (seat is not None and seat in seats) else _copy_event(redact(ev))
        e["n"] = i
        out.append(e)
    return out


def place_names(state: MascaradeState) -> list[str]:
    t = len(state.cards) - state.players
    return [*state.config.seat_names(), *(f"Table {i + 1}" for i in range(t))]


def _pending(state: MascaradeState, seat: int) -> dict | None:
    """What the seat to act is being asked, for a play screen."""
    p = state.phase
    if p == TURN:
        return {"kind": "turn", "seat": state.order[state.turn_pos], "announce_blocked": announce_blocked(state)}
    if p == CLAIM:
        return {"kind": "claim", "seat": state.claim_queue[0], "mask": state.mask, "announcer": state.announcer}
    if p == POWER:
        return {"kind": "power", "seat": state.power_seat, "mask": state.mask}
    if p == SPY:
        out = {"kind": "spy", "seat": state.power_seat, "target": state.spy_target}
        if seat == state.power_seat:
            out["mine"] = state.cards[seat]
            out["theirs"] = state.cards[state.spy_target]
        return out
    if p == GURU:
        return {"kind": "guru", "seat": state.guru_target, "by": state.guru_by}
    return None


def view(state: MascaradeState, seat: int, since: int = 0) -> dict:
    """Everything ``seat`` may know now, and nothing more. ``since`` trims old events."""
    n = state.players
    over = state.phase == OVER
    actor = to_act(state)
    announcement = None
    if state.mask is not None:
        announcement = {"seat": state.announcer, "mask": state.mask, "claimants": list(state.claimants),
                        "waiting": list(state.claim_queue)}
    return {
        "game": "mascarade",
        "seat": seat,
        "players": list(state.config.seat_names()),
        "places": place_names(state),
        "table": len(state.cards) - n,
        "masks": list(state.config.mask_set()),
        "mask_names": {m: _masks()[m].name for m in state.ids},
        "coins": list(state.coins),
        "court": state.court,
        "bank": state.bank,
        "order": list(state.order),
        "first": state.first,
        "turn": state.order[state.turn_pos],
        "turn_no": state.turn_no,
        "opening_turns": load_rules().opening_turns,
        "revealed_last_turn": sorted(state.revealed_prev),
        "revealed_this_turn": sorted(state.revealed_now),
        "known": list(state.known[seat]),
        "announcement": announcement,
        "pending": _pending(state, seat),
        "phase": state.phase,
        "to_act": actor,
        "over": over,
        "result": _copy_result(state.result) if over else None,
        # Once the game is over every card is turned face up.
        "final_cards": list(state.cards) if over else None,
        "events": events_for(state, seat, since),
        "legal": [list(x) for x in legal_actions(state)] if actor == seat else [],
    }


# --------------------------------------------------------------------------- JSON


def action_to_json(action: Action) -> list:
    return list(action)


def action_from_json(data: Any) -> Action:
    if not isinstance(data, list | tuple) or not data or not isinstance(data[0], str):
        raise ValueError(f"Not a Mascarade action: {data!r}")
    return tuple(data)


def state_to_json(state: MascaradeState) -> dict:
    return {
        "config": state.config.to_json(),
        "rng": state.rng.state,
        "ids": list(state.ids),
        "cards": list(state.cards),
        "coins": list(state.coins),
        "bank": state.bank,
        "court": state.court,
        "order": list(state.order),
        "first": state.first,
        "turn_pos": state.turn_pos,
        "turn_no": state.turn_no,
        "phase": state.phase,
        "announcer": state.announcer,
        "mask": state.mask,
        "claim_queue": list(state.claim_queue),
        "claimants": list(state.claimants),
        "queue": list(state.queue),
        "false_claimants": list(state.false_claimants),
        "pair": state.pair,
        "power_seat": state.power_seat,
        "spy_target": state.spy_target,
        "guru_by": state.guru_by,
        "guru_target": state.guru_target,
        "cheater": state.cheater,
        "revealed_now": sorted(state.revealed_now),
        "revealed_prev": sorted(state.revealed_prev),
        "known": [list(k) for k in state.known],
        "result": _copy_result(state.result) if state.result is not None else None,
        "log": state.log.to_json(),
    }


def state_from_json(d: dict) -> MascaradeState:
    s = MascaradeState()
    s.config = MascaradeConfig.from_json(d["config"])
    s.rng = Rng(d["rng"])
    for k in ("ids", "cards", "coins", "order", "claim_queue", "claimants", "queue", "false_claimants"):
        setattr(s, k, tuple(d[k]))
    for k in ("bank", "court", "first", "turn_pos", "turn_no", "phase", "announcer", "mask", "pair", "power_seat",
              "spy_target", "guru_by", "guru_target", "cheater"):
        setattr(s, k, d[k])
    s.revealed_now = frozenset(d["revealed_now"])
    s.revealed_prev = frozenset(d["revealed_prev"])
    s.known = tuple(tuple(k) for k in d["known"])
    s.result = _copy_result(d["result"]) if d["result"] is not None else None
    s.log = EventLog.from_json(d["log"])
    return s
