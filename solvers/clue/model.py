"""Parse and validate a Clue config + observation log into integer constraints.

The solver core works on card indexes and holder bitmasks only, so this module is the
single place that knows the public log format.  Every log entry compiles to an
:class:`EntryAtoms` so that the contradiction finder can switch entries on and off
without re-parsing anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CATEGORIES: tuple[str, str, str] = ("suspects", "weapons", "locations")
ENVELOPE = "envelope"
FACE_UP = "face_up"


class SolverInputError(ValueError):
    """A config or log that cannot be read as a Clue problem (not a logical contradiction).

    ``entry_index`` is the index of the offending log entry, or ``None`` for the config.
    """

    def __init__(self, message: str, entry_index: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.entry_index = entry_index


# A literal "card lies with one of the holders in mask".
Literal = tuple[int, int]


@dataclass
class EntryAtoms:
    """The constraints one log entry contributes.

    ``restrict``: (card, mask) pairs, the card lies with a holder in mask.
    ``clauses``: at least one literal of each tuple holds.
    ``refuters``: (shower holder, seen card, other rumor cards) for the optional refuter model.
    """

    restrict: list[Literal] = field(default_factory=list)
    clauses: list[tuple[Literal, ...]] = field(default_factory=list)
    refuters: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)


@dataclass
class Problem:
    """A validated problem: cards, internal holders with capacities, and per-entry constraints.

    Internal holders are the players in seat order, then one envelope slot per category
    (capacity 1 each, so the envelope holds exactly one card of each category), then the piles,
    then ``face_up`` when there are face-up cards.  ``holder_names`` are the public names; the three
    envelope slots share the name ``"envelope"``.
    """

    cards: tuple[str, ...]
    category: tuple[int, ...]
    players: tuple[str, ...]
    me: int
    piles: tuple[str, ...]
    holder_names: tuple[str, ...]
    caps: tuple[int, ...]
    base_allowed: tuple[int, ...]
    env_slots: tuple[int, int, int]
    face_up_holder: int | None
    entries: list[EntryAtoms]
    log: Sequence[Mapping[str, Any]] = ()

    def describe(self, idx: int) -> str:
        """Plain words for log entry ``idx`` (built only when a message needs it)."""
        return describe_entry(self.log[idx], idx)

    @property
    def public_holders(self) -> list[str]:
        """Public holder keys in output order (players, envelope, piles, face_up)."""
        out: list[str] = []
        for name in self.holder_names:
            if name not in out:
                out.append(name)
        return out


def _err(msg: str, idx: int | None) -> SolverInputError:
    where = "Config" if idx is None else f"Log entry {idx}"
    return SolverInputError(f"{where}: {msg}", idx)


def _str_list(value: Any, what: str, idx: int | None) -> list[str]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise _err(f"{what} must be a list of names.", idx)
    return list(value)


def _size(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _err(f"{what} must be a non-negative whole number, got {value!r}.", None)
    return value


def build_problem(config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> Problem:
    """Validate ``config`` and ``log`` and compile them; raises :class:`SolverInputError`."""
    if not isinstance(config, Mapping):
        raise _err("the config must be a mapping.", None)
    deck = config.get("deck")
    board = config.get("board", "custom")
    if deck is None and board != "custom":
        # A packaged board brings its own deck; only a custom deck must be spelled out.
        from engine.clue.board import BOARDS, load_board

        if board not in BOARDS:
            raise _err(f"unknown board {board!r}; use one of {', '.join(BOARDS)}, or 'custom' with a 'deck'.", None)
        b = load_board(board)
        deck = {"suspects": list(b.suspects), "weapons": list(b.weapons), "locations": list(b.locations)}
    if not isinstance(deck, Mapping):
        raise _err("'deck' must map suspects, weapons and locations to card lists.", None)
    cards: list[str] = []
    category: list[int] = []
    for k, cat in enumerate(CATEGORIES):
        if cat not in deck:
            raise _err(f"the deck has no '{cat}' list.", None)
        names = _str_list(deck[cat], f"deck '{cat}'", None)
        if not names:
            raise _err(f"the deck has no {cat}.", None)
        cards.extend(names)
        category.extend([k] * len(names))
    extra = set(deck) - set(CATEGORIES)
    if extra:
        raise _err(f"the deck has an unknown category {sorted(extra)[0]!r}.", None)
    seen: set[str] = set()
    for name in cards:
        if name in seen:
            raise _err(f"card {name!r} appears twice in the deck.", None)
        seen.add(name)

    players = _str_list(config.get("players"), "'players'", None)
    if not 2 <= len(players) <= 6:
        raise _err(f"there must be 2 to 6 players, got {len(players)}.", None)
    if len(set(players)) != len(players):
        raise _err("a player name appears twice.", None)
    me_name = config.get("me")
    if me_name not in players:
        raise _err(f"'me' ({me_name!r}) is not one of the players.", None)

    piles_cfg = config.get("piles") or {}
    if not isinstance(piles_cfg, Mapping):
        raise _err("'piles' must map pile names to sizes.", None)
    piles: list[str] = []
    pile_sizes: list[int] = []
    for name, size in piles_cfg.items():
        if not isinstance(name, str) or name in players or name in (ENVELOPE, FACE_UP):
            raise _err(f"pile name {name!r} clashes with a player or a reserved holder name.", None)
        piles.append(name)
        pile_sizes.append(_size(size, f"pile {name!r} size"))

    spare = len(cards) - 3 - sum(pile_sizes)
    if spare < 0:
        raise _err(f"the piles need {sum(pile_sizes)} cards but only {len(cards) - 3} are outside the envelope.", None)
    hs_cfg = config.get("hand_sizes")
    if hs_cfg is None:
        each = spare // len(players)
        hand_sizes = [each] * len(players)
    else:
        if not isinstance(hs_cfg, Mapping):
            raise _err("'hand_sizes' must map every player to a hand size.", None)
        unknown = [p for p in hs_cfg if p not in players]
        if unknown:
            raise _err(f"'hand_sizes' names {unknown[0]!r}, who is not a player.", None)
        missing = [p for p in players if p not in hs_cfg]
        if missing:
            raise _err(f"'hand_sizes' gives no size for {missing[0]!r}.", None)
        hand_sizes = [_size(hs_cfg[p], f"hand size of {p!r}") for p in players]
    face_up = spare - sum(hand_sizes)
    if face_up < 0:
        raise _err(
            f"the hands need {sum(hand_sizes)} cards but only {spare} are left after the envelope and piles.", None
        )

    names = list(players) + [ENVELOPE] * 3 + piles
    caps: list[int] = [*hand_sizes, 1, 1, 1, *pile_sizes]
    face_up_holder: int | None = None
    if face_up > 0:
        face_up_holder = len(names)
        names.append(FACE_UP)
        caps.append(face_up)
    nplayers = len(players)
    env_slots = (nplayers, nplayers + 1, nplayers + 2)
    all_mask = (1 << len(names)) - 1
    env_mask = sum(1 << e for e in env_slots)
    base_allowed = tuple((all_mask & ~env_mask) | (1 << env_slots[category[c]]) for c in range(len(cards)))

    problem = Problem(
        cards=tuple(cards),
        category=tuple(category),
        players=tuple(players),
        me=players.index(me_name),
        piles=tuple(piles),
        holder_names=tuple(names),
        caps=tuple(caps),
        base_allowed=base_allowed,
        env_slots=env_slots,
        face_up_holder=face_up_holder,
        entries=[],
        log=log,
    )
    if not isinstance(log, Sequence) or isinstance(log, (str, bytes)):
        raise _err("the log must be a list of entries.", None)
    compiler = _Compiler(problem)
    for idx, entry in enumerate(log):
        problem.entries.append(compiler.compile(entry, idx))
    return problem


def _join(cards: Any) -> str:
    return ", ".join(str(c) for c in cards)


def describe_entry(entry: Mapping[str, Any], idx: int) -> str:
    """A short plain-words description of a (validated) log entry, e.g. for conflict messages."""
    kind = entry.get("type")
    cards = entry.get("cards") or []
    if kind == "hand":
        return f"entry {idx} (my hand: {_join(cards)})"
    if kind == "face_up":
        return f"entry {idx} (face-up cards {_join(cards)})"
    if kind == "reveal":
        return f"entry {idx} ({entry.get('player')} revealed {_join(cards)})"
    if kind == "not_held":
        return f"entry {idx} ({entry.get('player')} holds none of {_join(cards)})"
    if kind == "accusation":
        verdict = "correct" if entry.get("correct") else "wrong"
        return f"entry {idx} ({entry.get('by')}'s {verdict} accusation {_join(cards)})"
    text = f"entry {idx} ({entry.get('by')}'s rumor {_join(cards)}"
    passed = entry.get("passed") or []
    if passed:
        text += f", {_join(passed)} passed"
    shower = entry.get("shown_by")
    if shower is None:
        return text + ", nobody showed)"
    if entry.get("card") is None:
        return text + f", {shower} showed a card)"
    return text + f", {shower} showed {entry.get('card')})"


Clause = tuple[tuple[int, int], ...]
CoreInputs = tuple[list[int], list[int], list[Clause], list[tuple[int, Clause]]]


def build_inputs(problem: Problem, entries: Iterable[int], *, refuter_model: bool = False) -> CoreInputs:
    """Combine the constraints of the chosen log entries into counting-core inputs."""
    allowed = list(problem.base_allowed)
    clauses: list[Clause] = []
    wfactors: list[tuple[int, Clause]] = []
    for i in entries:
        atoms = problem.entries[i]
        for c, m in atoms.restrict:
            allowed[c] &= m
        clauses.extend(atoms.clauses)
        if refuter_model:
            for shower, _seen, others in atoms.refuters:
                wfactors.append((0, tuple((o, 1 << shower) for o in others)))
    return list(problem.caps), allowed, clauses, wfactors


class _Compiler:
    """Turns one validated log entry into :class:`EntryAtoms`."""

    def __init__(self, problem: Problem) -> None:
        self.p = problem
        self.card_index = {name: i for i, name in enumerate(problem.cards)}
        self.player_index = {name: i for i, name in enumerate(problem.players)}
        holder_index: dict[str, int] = {}
        for i, name in enumerate(problem.holder_names):
            if name != ENVELOPE:
                holder_index[name] = i
        self.holder_index = holder_index
        self.env_mask = sum(1 << e for e in problem.env_slots)
        self.handlers: dict[str, Callable[[Mapping[str, Any], int], EntryAtoms]] = {
            "hand": self._hand,
            "face_up": self._face_up,
            "rumor": self._rumor,
            "reveal": self._reveal,
            "accusation": self._accusation,
            "not_held": self._not_held,
        }

    # -- helpers ---------------------------------------------------------------------------------
    def _card(self, name: Any, idx: int) -> int:
        if not isinstance(name, str) or name not in self.card_index:
            raise _err(f"{name!r} is not a card in the deck.", idx)
        return self.card_index[name]

    def _cards(self, value: Any, idx: int, *, allow_empty: bool = False) -> list[int]:
        if not isinstance(value, (list, tuple)):
            raise _err("'cards' must be a list of card names.", idx)
        index = self.card_index
        try:
            out = [index[v] for v in value]
        except (KeyError, TypeError):
            out = [self._card(v, idx) for v in value]
        if len(set(out)) != len(out):
            dup = next(v for v in value if list(value).count(v) > 1)
            raise _err(f"card {dup!r} is listed twice.", idx)
        if not out and not allow_empty:
            raise _err("'cards' is empty.", idx)
        return out

    def _player(self, name: Any, idx: int, what: str) -> int:
        if not isinstance(name, str) or name not in self.player_index:
            raise _err(f"{what} {name!r} is not a player.", idx)
        return self.player_index[name]

    def _holder(self, name: Any, idx: int) -> int | None:
        """Holder index for a reveal / not_held target; None means the envelope."""
        if name == ENVELOPE:
            return None
        if not isinstance(name, str) or name not in self.holder_index:
            raise _err(f"{name!r} is not a player or a pile.", idx)
        return self.holder_index[name]

    def _mask_of(self, holder: int | None) -> int:
        return self.env_mask if holder is None else 1 << holder

    def _triple(self, value: Any, idx: int) -> list[int]:
        cards = self._cards(value, idx)
        cats = sorted(self.p.category[c] for c in cards)
        if cats != [0, 1, 2]:
            raise _err("the three cards must be one suspect, one weapon and one location.", idx)
        return cards

    # -- entries ---------------------------------------------------------------------------------
    def compile(self, entry: Any, idx: int) -> EntryAtoms:
        if type(entry) is not dict and not isinstance(entry, Mapping):
            raise _err("an entry must be a mapping with a 'type'.", idx)
        kind = entry.get("type")
        handler = self.handlers.get(kind if isinstance(kind, str) else "")
        if handler is None:
            raise _err(f"unknown entry type {kind!r}.", idx)
        return handler(entry, idx)

    def _hand(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        p = self.p
        cards = self._cards(entry.get("cards"), idx, allow_empty=True)
        size = p.caps[p.me]
        if len(cards) != size:
            raise _err(f"the hand lists {len(cards)} cards but {p.players[p.me]}'s hand size is {size}.", idx)
        me_bit = 1 << p.me
        held = set(cards)
        atoms = EntryAtoms(restrict=[(c, me_bit if c in held else ~me_bit) for c in range(len(p.cards))])
        return atoms

    def _face_up(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        cards = self._cards(entry.get("cards"), idx, allow_empty=True)
        fu = self.p.face_up_holder
        count = 0 if fu is None else self.p.caps[fu]
        if len(cards) > count:
            raise _err(f"it lists {len(cards)} face-up cards but the deal leaves only {count} face up.", idx)
        mask = 0 if fu is None else 1 << fu
        return EntryAtoms(restrict=[(c, mask) for c in cards])

    def _quick_triple(self, value: Any) -> list[int] | None:
        """The card indices of a well-formed rumor or accusation triple (three known cards, one of
        each category), else None: then :meth:`_triple` checks it again and says what is wrong."""
        if (type(value) is not list and type(value) is not tuple) or len(value) != 3:
            return None
        index = self.card_index
        a, b, c = value
        if type(a) is not str or type(b) is not str or type(c) is not str:
            return None
        ia, ib, ic = index.get(a), index.get(b), index.get(c)
        if ia is None or ib is None or ic is None:
            return None
        cat = self.p.category
        if cat[ia] + cat[ib] + cat[ic] != 3 or cat[ia] == cat[ib] or cat[ib] == cat[ic] or cat[ia] == cat[ic]:
            return None
        return [ia, ib, ic]

    def _rumor(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        p = self.p
        players = self.player_index
        by_raw = entry.get("by")
        by = players.get(by_raw) if type(by_raw) is str else None
        if by is None:
            by = self._player(by_raw, idx, "rumor maker")
        cards_raw = entry.get("cards")
        cards = self._quick_triple(cards_raw) or self._triple(cards_raw, idx)
        passed_raw = entry.get("passed", [])
        try:  # the players' names are the only keys: a name found is a valid name
            passed = [players[x] for x in passed_raw] if type(passed_raw) in (list, tuple) else None
        except (KeyError, TypeError):
            passed = None
        if passed is None:
            passed = self._passed(passed_raw, idx)
        if by in passed:
            raise _err(f"{p.players[by]} cannot pass on their own rumor.", idx)
        shown_raw = entry.get("shown_by")
        seen_raw = entry.get("card")
        restrict = [(c, ~(1 << q)) for q in set(passed) for c in cards]
        if shown_raw is None:
            if seen_raw is not None:
                raise _err("a card is given but nobody showed one.", idx)
            return EntryAtoms(restrict, [], [])
        shower = players.get(shown_raw) if type(shown_raw) is str else None
        if shower is None:
            shower = self._player(shown_raw, idx, "shower")
        if shower == by:
            raise _err(f"{p.players[by]} cannot show a card for their own rumor.", idx)
        if shower in passed:
            raise _err(f"{p.players[shower]} both passed and showed.", idx)
        bit = 1 << shower
        if seen_raw is None:
            return EntryAtoms(restrict, [tuple((c, bit) for c in cards)], [])
        seen = self.card_index.get(seen_raw) if type(seen_raw) is str else None
        if seen is None:
            seen = self._card(seen_raw, idx)
        if seen not in cards:
            raise _err(f"the shown card {seen_raw!r} is not one of the rumor's cards.", idx)
        restrict.append((seen, bit))
        refuters = [(shower, seen, tuple(c for c in cards if c != seen))] if shower != p.me else []
        return EntryAtoms(restrict, [], refuters)

    def _passed(self, passed_raw: Any, idx: int) -> list[int]:
        """The passing players of a rumor, each checked (what :meth:`_rumor` falls back to)."""
        if passed_raw is None:
            passed_raw = []
        if not isinstance(passed_raw, (list, tuple)):
            raise _err("'passed' must be a list of players.", idx)
        return [self._player(x, idx, "passing player") for x in passed_raw]

    def _reveal(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        holder = self._holder(entry.get("player"), idx)
        cards = self._cards(entry.get("cards"), idx)
        return EntryAtoms(restrict=[(c, self._mask_of(holder)) for c in cards])

    def _not_held(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        holder = self._holder(entry.get("player"), idx)
        cards = self._cards(entry.get("cards"), idx)
        return EntryAtoms(restrict=[(c, ~self._mask_of(holder)) for c in cards])

    def _accusation(self, entry: Mapping[str, Any], idx: int) -> EntryAtoms:
        by = self._player(entry.get("by"), idx, "accuser")
        cards = self._triple(entry.get("cards"), idx)
        correct = entry.get("correct")
        if not isinstance(correct, bool):
            raise _err("'correct' must be true or false.", idx)
        del by  # validated only: who accused does not change what it tells
        if correct:
            return EntryAtoms(restrict=[(c, self.env_mask) for c in cards])
        return EntryAtoms(clauses=[tuple((c, ~self.env_mask) for c in cards)])
