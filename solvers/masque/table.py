"""Who holds which time slots: an exact belief over the Rumor hands at a Masque table, for one seat.

The table model is on when the config says ``"table": true`` (with ``players`` in seat order and
``me``). Its notes are the observation language of ``docs/masque.md``: my draws (``rumor``), other
nobles' Gossip draws (``draw``), every look or take with the slot named and the public answer
(``ask``: ``matched``, ``offered``; ``card`` when I was the asker or the target), Confidant's gift
(``give``) and a hand size counted at the table (``count``).

Hands start empty and grow only by draws, so hand sizes are known exactly. What is hidden is which
*slots* the cards of other hands belong to. Gossip cards I have never identified ("unseen") are
exchangeable within a slot, and the cards of one hand that the notes have told the same thing about
are exchangeable too. So a hand is a few *groups*: each a number of unseen cards and the set of slots
they can be (all slots for cards nobody asked about; ``{12:30}`` for cards known to be of 12:30; "not
12:30" after an answer of no card of that slot), plus the cards I identified (each with its holder).
A note only splits the groups it has to (an ask for 12:30 splits each group of the target into its
12:30 cards and the rest), so the belief never lists the slots of cards nobody has asked about.

A state is this description; its chance is its weight times the number of ways the unseen cards can
fill its groups and the deck (``_ways``: a sum over the groups' splits by slot, memoised, the groups
with one slot or every slot in closed form). Weights follow the physical cards: a pick of one offered
card is ``1 / offered``, a draw ``1 / deck``, and two groups of one hand with the same slots merge with
the binomial of their sizes (the ways of the separate groups count each merged way that many times).
States that no filling fits are dropped (Hall's condition on the slots), equal states merge. The
result is exact: equal to the earlier model that split every hand by slot (to 1e-12 on seeded
positions) and to a brute force over the physical cards (tested). Cards another noble gives
(Confidant) are any card of their hand with equal chance. A belief with more than ``MAX_STATES``
states is not tracked: the answer says so and names the note where it stopped, and the ask advice
falls back to the hypergeometric chance from the real hand size.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import product
from math import comb, factorial

from engine.masque import NR, NS, ROOMS, SLOTS

MAX_STATES = 60_000
FULL = (1 << NS) - 1  # a group that can be any slot

Group = tuple[int, int]  # (slots it can be, as a bit mask; how many cards)
Hand = tuple[Group, ...]  # sorted by mask, one group per mask
# (hands: one Hand per player, seen: the holder of each card I identified, aside: see ``_ask``)
State = tuple


class TableError(ValueError):
    """A table note that cannot be true with the notes before it; ``entry`` is its log index."""

    def __init__(self, entry: int, message: str) -> None:
        super().__init__(message)
        self.entry = entry


class TooMany(Exception):
    """The belief outgrew MAX_STATES; ``entry`` is the log index of the note it could not follow."""

    def __init__(self, entry: int = -1) -> None:
        super().__init__(f"more than {MAX_STATES} states at note {entry}")
        self.entry = entry


# ------------------------------------------------------------------ counting the fillings


def _bits(mask: int) -> list[int]:
    return [k for k in range(NS) if mask >> k & 1]


@cache
def _splits(mask: int, m: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every split of ``m`` cards over the slots of ``mask``, with 1 / (product of the parts' factorials)."""
    ks = _bits(mask)
    out = []

    def rec(i: int, left: int, parts: list[int]) -> None:
        if i == len(ks) - 1:
            parts = [*parts, left]
            v = [0] * NS
            c = 1.0
            for k, x in zip(ks, parts, strict=True):
                v[k] = x
                c /= factorial(x)
            out.append((tuple(v), c))
            return
        for x in range(left + 1):
            rec(i + 1, left - x, [*parts, x])

    rec(0, m, [])
    return tuple(out)


# A vector of at most 7 per slot is one integer, 4 bits a slot: ``left + _HIGH - v`` keeps every
# slot's high bit exactly when ``v <= left`` slot by slot (no borrow crosses a slot).
_HIGH = sum(8 << (4 * k) for k in range(NS))


def _pack(v: tuple[int, ...] | list[int]) -> int:
    return sum(x << (4 * k) for k, x in enumerate(v))


@cache
def _packed_splits(mask: int, m: int) -> tuple[tuple[int, float], ...]:
    return tuple((_pack(v), c) for v, c in _splits(mask, m) if max(v) <= 7)


@cache
def _rest(left: int) -> float:
    out = 1.0
    for k in range(NS):
        out /= factorial(left >> (4 * k) & 15)
    return out


@lru_cache(maxsize=100_000)
def _core(left: int, groups: tuple[Group, ...]) -> float:
    """Sum over the splits of the restricted ``groups`` (from the unseen cards ``left`` per slot,
    packed) of 1 / (the factorials of every part and of what is left for the free cards)."""
    if not groups:
        return _rest(left)
    (mask, m), rest = groups[0], groups[1:]
    total = 0.0
    up = left + _HIGH
    for v, c in _packed_splits(mask, m):
        t = up - v
        if t & _HIGH == _HIGH:
            total += c * _core(t - _HIGH, rest)
    return total


def _ways(unseen: tuple[int, ...], groups: list[Group], head: list[Group] | None = None) -> float:
    """The number of ways the unseen cards fill ``head`` + ``groups`` and the deck, over (product of
    unseen_k!). Groups of one slot are fixed; groups of every slot and the deck share the rest (a
    multinomial); groups with the same slots are pooled (Vandermonde: the binomial of their sizes).
    ``head`` (the groups a question changes) is summed first, so the memo of the rest is shared."""
    left = list(unseen)
    out = 1.0
    pooled: dict[int, int] = {}
    first: list[Group] = []
    free = 0
    for i, (mask, m) in enumerate([*(head or ()), *groups]):
        if not m:
            continue
        if mask == FULL:
            free += m
            out /= factorial(m)
        elif mask & (mask - 1) == 0:
            k = mask.bit_length() - 1
            left[k] -= m
            if left[k] < 0:
                return 0.0
            out /= factorial(m)
        elif not mask:
            return 0.0
        elif head is not None and i < len(head):
            first.append((mask, m))
        else:
            out /= factorial(m)
            pooled[mask] = pooled.get(mask, 0) + m
    for m in pooled.values():
        out *= factorial(m)
    deck = sum(left) - sum(m for _, m in first) - sum(pooled.values()) - free
    if deck < 0:
        return 0.0
    out *= factorial(deck + free) / factorial(deck)
    if max(left) > 7:  # pragma: no cover - NR is 7: at most 7 cards of a slot
        raise ValueError("more than 7 cards of a slot")
    return out * _core(_pack(left), (*first, *sorted(pooled.items())))


def _fits(unseen: tuple[int, ...], groups: list[Group]) -> bool:
    """Hall's condition: for every set of slots, the groups that must come from it fit in it."""
    need: dict[int, int] = {}
    for mask, m in groups:
        if m:
            if not mask:
                return False
            need[mask] = need.get(mask, 0) + m
    if sum(need.values()) > sum(unseen):
        return False
    masks = [mk for mk in need if mk != FULL]
    if not masks:
        return True
    for s in range(1, FULL):
        want = sum(need[mk] for mk in masks if mk & ~s == 0)
        if want and want > sum(unseen[k] for k in range(NS) if s >> k & 1):
            return False
    return True


# ------------------------------------------------------------------ hands as groups


def _add(hand: Hand, mask: int, m: int) -> tuple[Hand, int]:
    """``m`` cards of ``mask`` join the hand: the new hand and the merge's multiplicity."""
    if not m:
        return hand, 1
    out = []
    mult = 1
    done = False
    for mk, n in hand:
        if mk == mask:
            mult = comb(n + m, m)
            out.append((mk, n + m))
            done = True
        else:
            out.append((mk, n))
    if not done:
        out.append((mask, m))
        out.sort()
    return tuple(out), mult


def _take(hand: Hand, mask: int, m: int = 1) -> Hand:
    return tuple((mk, n - m if mk == mask else n) for mk, n in hand if not (mk == mask and n == m))


class TableModel:
    """The exact belief over the other nobles' Rumor hands (by time slot), note by note."""

    def __init__(self, players: list[str], me: int, red_death: int) -> None:
        self.players = players
        self.n = len(players)
        self.me = me
        self.red_death = red_death
        self.sizes = [0] * self.n
        self.seen: dict[int, int] = {}  # card -> position in the state's seen tuple
        self.seen_cards: list[int] = []
        self.unseen = tuple([NR - red_death] * NS)  # per slot, the Gossip cards I have never identified
        self.states: dict[State, float] = {(((),) * self.n, (), None): 1.0}
        self._memo: dict[tuple, list[tuple[tuple[int, ...], float]]] = {}  # see _split_of
        self._post: tuple[dict, list[tuple[State, float]]] | None = None  # the states it was computed for

    # ------------------------------------------------------------------ helpers

    def _groups(self, st: State) -> list[Group]:
        out = [g for hand in st[0] for g in hand]
        if st[2] is not None and st[2][1] == "g":
            out.append((st[2][2], 1))
        return out

    def _deck(self, st: State) -> int:
        return sum(self.unseen) - sum(m for _, m in self._groups(st))

    def _restore(self, st: State) -> tuple[State, int]:
        """The card set aside by a look goes back into its holder's hand (with the merge's multiplicity)."""
        hands, seen, aside = st
        if aside is None:
            return st, 1
        if aside[1] != "g":
            return (hands, seen, None), 1
        p, mask = aside[0], aside[2]
        hand, mult = _add(hands[p], mask, 1)
        return (_put(hands, p, hand), seen, None), mult

    def _apply(self, fn, *args) -> None:
        out: dict[State, float] = {}
        for st, w in self.states.items():
            for nst, f in fn(st, *args):
                if f > 0.0 and _fits(self.unseen, self._groups(nst)):
                    out[nst] = out.get(nst, 0.0) + w * f
        if len(out) > MAX_STATES:
            raise TooMany
        total = sum(out.values())
        if total <= 0.0:
            self.states = {}
            return
        self.states = {st: w / total for st, w in out.items()}

    def _clear_excl(self) -> None:
        out: dict[State, float] = {}
        for st, w in self.states.items():
            key, mult = self._restore(st)
            out[key] = out.get(key, 0.0) + w * mult
        self.states = out

    def posterior(self) -> list[tuple[State, float]]:
        """Each state (its set-aside card back in its hand) with its chance: weight times fillings."""
        if self._post is None or self._post[0] is not self.states:
            self._post = (self.states, self._posterior())
        return self._post[1]

    def _posterior(self) -> list[tuple[State, float]]:
        merged: dict[State, float] = {}
        for st, w in self.states.items():
            key, mult = self._restore(st)
            merged[key] = merged.get(key, 0.0) + w * mult
        out = [(st, w * _ways(self.unseen, self._groups(st))) for st, w in merged.items()]
        total = sum(w for _, w in out)
        return [(st, w / total) for st, w in out] if total > 0 else []

    def _holder(self, card: int) -> int:
        """Who holds an identified card (the most likely holder, when the notes leave a choice)."""
        i = self.seen[card]
        votes: dict[int, float] = {}
        for st, w in self.posterior():
            votes[st[1][i]] = votes.get(st[1][i], 0.0) + w
        return max(votes, key=lambda p: votes[p]) if votes else self.me

    def _identified(self, card: int) -> None:
        """A card I now know: the states' seen tuples already hold its place (appended by the step)."""
        self.seen[card] = len(self.seen_cards)
        self.seen_cards.append(card)
        k = card // NR
        self.unseen = (*self.unseen[:k], self.unseen[k] - 1, *self.unseen[k + 1:])

    # ------------------------------------------------------------------ notes

    def draw(self, p: int) -> None:
        """Player ``p`` drew a Gossip card I did not see: one card of the deck joins p's free cards."""
        self._clear_excl()
        self.sizes[p] += 1

        def step(st: State) -> Iterator[tuple[State, float]]:
            hands, seen, aside = st
            deck = self._deck(st)
            if deck <= 0:
                return
            hand, mult = _add(hands[p], FULL, 1)
            yield (_put(hands, p, hand), seen, aside), mult / deck

        self._apply(step)

    def my_draw(self, card: int) -> bool:
        """I drew ``card``; False when I already know where that card is (it cannot be in the deck)."""
        if card in self.seen:
            return False
        self._clear_excl()
        self.sizes[self.me] += 1
        if not self.unseen[card // NR]:
            self.states = {}
            return True

        def step(st: State) -> Iterator[tuple[State, float]]:
            deck = self._deck(st) + 1  # the deck before the draw (the card has left the unseen cards)
            yield (st[0], (*st[1], self.me), st[2]), 1.0 / deck

        # the card leaves the unseen cards first, so the fit check sees the deck one card smaller
        self._identified(card)
        self._apply(step)
        return True

    def count(self, p: int, cards: int) -> bool:
        """A hand counted at the table: missed draws are added; False when it holds fewer than known."""
        if cards < self.sizes[p]:
            return False
        for _ in range(cards - self.sizes[p]):
            self.draw(p)
        return True

    def ask(self, by: int, target: int, slot: int, matched: bool, offered: int, take: bool,
            card: int | None, second: bool) -> None:
        """A look or take with ``slot`` named; ``card`` when I was the asker or the target."""
        if not second:
            self._clear_excl()
        pick = self._card_pick(card)
        self.sizes[target] -= take
        self.sizes[by] += take
        self._apply(self._ask, by, target, slot, matched, offered, take, pick, second)

    def give(self, by: int, target: int, card: int | None) -> None:
        """Confidant: ``by`` gives ``target`` one card (any of theirs with equal chance, unless I saw it)."""
        self._clear_excl()
        pick = self._card_pick(card)
        size = self.sizes[by]
        self.sizes[by] -= 1
        self.sizes[target] += 1
        if size > 0:
            self._apply(self._give, by, target, pick, size)
        else:
            self.states = {}

    def _card_pick(self, card: int | None) -> tuple[int | None, int, bool]:
        """(card, its place in the seen tuple, new): a card I have not identified before is now known."""
        if card is None:
            return None, -1, False
        if card in self.seen:
            return card, self.seen[card], False
        i = len(self.seen_cards)
        self._identified(card)  # the pick's weight (1 / offered) is the same in every state
        return card, i, True

    def _ask(self, st: State, by: int, target: int, slot: int, matched: bool, offered: int, take: bool,
             pick: tuple[int | None, int, bool], second: bool) -> Iterator[tuple[State, float]]:
        hands, seen, aside = st
        mult0 = 1
        keep = second and aside is not None and aside[0] == target
        if not keep:
            (hands, seen, aside), mult0 = self._restore(st)
        # the card just looked at or given (set aside in ``aside``) cannot come again
        held = [j for j, loc in enumerate(seen) if loc == target and not (keep and aside[1] == "s" and aside[2] == j)]
        bit = 1 << slot
        fixed = sum(1 for j in held if self.seen_cards[j] // NR == slot)
        hand = hands[target]
        splits: list[tuple[Hand, int]] = []
        if matched:
            # every way the named slot's cards spread over the target's groups (each group splits in two)
            parts = [(mk, n) for mk, n in hand if mk & bit]
            others = tuple((mk, n) for mk, n in hand if not mk & bit)
            want = offered - fixed
            for js in product(*[range(min(n, want) + 1) if mk != bit else (n,) for mk, n in parts]):
                if sum(js) != want:
                    continue
                nh, mult = others, 1
                for (mk, n), j in zip(parts, js, strict=True):
                    nh, a = _add(nh, bit, j)
                    nh, b = _add(nh, mk & ~bit, n - j)
                    mult *= a * b
                splits.append((nh, mult))
        else:
            if fixed:
                return
            nh, mult = (), 1
            for mk, n in hand:
                nh, a = _add(nh, mk & ~bit, n)
                mult *= a
            splits.append((nh, mult))
        for nh, mult in splits:
            size = sum(n for _, n in nh) + len(held)
            if matched:
                cats = [(mk, n) for mk, n in nh if mk == bit]
                cats += [(-1, j) for j in held if self.seen_cards[j] // NR == slot]
            else:
                if offered != size:
                    continue
                cats = [*nh, *[(-1, j) for j in held]]
            if matched and sum(n if mk >= 0 else 1 for mk, n in cats) != offered:
                continue
            base = _put(hands, target, nh)
            for nst, f in self._pass(base, seen, cats, target, by, take, pick, offered, look=not take):
                back = 1
                if keep and aside is not None and aside[1] == "g":  # the card set aside goes back now
                    h, back = _add(nst[0][target], aside[2], 1)
                    nst = (_put(nst[0], target, h), nst[1], nst[2])
                yield nst, f * mult * mult0 * back

    def _give(self, st: State, by: int, target: int, pick: tuple[int | None, int, bool], size: int
              ) -> Iterator[tuple[State, float]]:
        hands, seen, _aside = st
        cats = [*hands[by], *[(-1, j) for j, loc in enumerate(seen) if loc == by]]
        yield from self._pass(hands, seen, cats, by, target, True, pick, size, look=True)

    def _pass(self, hands: tuple[Hand, ...], seen: tuple[int, ...], cats: list[Group], frm: int, to: int,
              moves: bool, pick: tuple[int | None, int, bool], offered: int, look: bool
              ) -> Iterator[tuple[State, float]]:
        """One card of ``cats`` (groups of ``frm``'s unseen cards, or (-1, seen index)) picked with equal
        chance among ``offered``; it goes to ``to`` when ``moves``. ``look``: it is set aside where it
        ends, for a second look (Swindle) or Confidant's take after the gift, which cannot offer it.
        ``pick``: the card when I saw it. Shared by asks (Flirt, Swindle, Threaten, Menace...) and gifts."""
        card, ci, new = pick
        where = to if moves else frm
        for mk, what in cats:
            if mk < 0:  # a card I identified before
                if card is not None and (new or what != ci):
                    continue
                nseen = _put(seen, what, where) if moves else seen
                yield (hands, nseen, (where, "s", what) if look else None), 1.0 / offered
                continue
            if card is not None and not (new and mk >> (card // NR) & 1):
                continue
            nh = _put(hands, frm, _take(hands[frm], mk))
            if card is not None:  # now identified: it leaves the unseen cards
                yield (nh, (*seen, where), (where, "s", ci) if look else None), 1.0 / offered
            elif not moves:
                yield (nh, seen, (frm, "g", mk) if look else None), 1.0 / offered
            elif look:  # given: set aside in the receiver's hand until the next note
                yield (nh, seen, (to, "g", mk)), 1.0 / offered
            else:
                hand, mult = _add(nh[to], mk, 1)
                yield (_put(nh, to, hand), seen, None), mult / offered

    # ------------------------------------------------------------------ answers

    def holds(self) -> list[list[float]]:
        """P(player p holds at least one card of slot k), per player and slot."""
        out = [[0.0] * NS for _ in range(self.n)]
        for st, w in self.posterior():
            hands, seen, _aside = st
            for p in range(self.n):
                sure = {self.seen_cards[j] // NR for j, loc in enumerate(seen) if loc == p}
                for v, f in self._split_of(hands, p):
                    for k in range(NS):
                        if k in sure or v[k]:
                            out[p][k] += w * f
        return out

    def offer_values(self, target: int, gains: list[float]) -> list[float]:
        """Expected gain of naming each slot to ``target``: the card offered is uniform among the
        target's cards of that slot (else among all its cards), worth ``gains[slot]`` when I have
        never identified it and nothing when I have."""
        out = [0.0] * NS
        for st, w in self.posterior():
            hands, seen, _aside = st
            held = [self.seen_cards[j] // NR for j, loc in enumerate(seen) if loc == target]
            for mine, f in self._split_of(hands, target):
                size = sum(mine) + len(held)
                if size == 0:
                    continue
                anyv = sum(mine[j] * gains[j] for j in range(NS)) / size
                for k in range(NS):
                    cnt = mine[k] + held.count(k)
                    out[k] += w * f * (mine[k] / cnt * gains[k] if cnt else anyv)
        return out

    def _split_of(self, hands: tuple[Hand, ...], p: int) -> list[tuple[tuple[int, ...], float]]:
        """The split by slot of p's unseen cards in one state, with its chance (shared by ``holds`` and
        ``offer_values``, and by the states that differ only elsewhere)."""
        others = tuple(sorted(g for q, hand in enumerate(hands) if q != p for g in hand))
        key = (self.unseen, hands[p], others)
        if key not in self._memo:
            self._memo[key] = self._hand_split(hands[p], list(others))
        return self._memo[key]

    def _hand_split(self, mine: Hand, others: list[Group]) -> list[tuple[tuple[int, ...], float]]:
        """Every split by slot of the unseen cards of the groups ``mine`` (the others as they are), with
        its chance: the groups' splits summed by their total (each weighs 1 / its parts' factorials),
        times the fillings of the rest with that total fixed."""
        sums: dict[tuple[int, ...], float] = {(0,) * NS: 1.0}
        for mk, n in mine:
            nxt: dict[tuple[int, ...], float] = {}
            for v0, c0 in sums.items():
                for v, c in _splits(mk, n):
                    t = tuple(a + b for a, b in zip(v0, v, strict=True))
                    nxt[t] = nxt.get(t, 0.0) + c0 * c
            sums = nxt
        # with p's cards fixed by slot, what changes between splits is only what they leave of each
        # slot for the others: the others' factors (their singles, pooled groups, the deck) are common
        left = list(self.unseen)
        pooled: dict[int, int] = {}
        for mk, n in others:
            if mk & (mk - 1) == 0:
                left[mk.bit_length() - 1] -= n
            elif mk != FULL:
                pooled[mk] = pooled.get(mk, 0) + n
        tail = tuple(sorted(pooled.items()))
        out = []
        for v, c in sums.items():
            rest = [a - b for a, b in zip(left, v, strict=True)]
            if min(rest) < 0:
                continue
            f = c * _core(_pack(rest), tail)
            if f > 0.0:
                out.append((v, f))
        total = sum(f for _, f in out)  # the splits are every way p's groups can be: they add up to all fillings
        return [(v, f / total) for v, f in out]


def _put(t: tuple, i: int, v: object) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def slot_name(k: int) -> str:
    return SLOTS[k]


def card_name(c: int) -> str:
    return f"{SLOTS[c // NR]} {ROOMS[c % NR]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def replay(players: list[str], me: str, red_death: int, log: list[dict]) -> TableModel:
    """The table model after every note of ``log`` (already checked by ``read_input``).

    Raises :class:`TableError` naming the first note that no arrangement of the Rumor cards fits,
    and :class:`TooMany` (with the note's index) when the belief grows past ``MAX_STATES``."""
    m = TableModel(players, players.index(me), red_death)
    prev: dict | None = None  # the last look or give, for a Swindle's second look and Confidant's take
    for i, e in enumerate(log):
        try:
            prev = _note(m, players, i, e, prev)
        except TooMany as err:
            raise TooMany(i) from err
    return m


def _note(m: TableModel, players: list[str], i: int, e: dict, prev: dict | None) -> dict | None:
    """Apply one note to the model; returns the note a following second ask refers to (or None)."""
    from solvers.masque.solver import parse_card

    mi = m.me
    t = e.get("type")
    if (t == "rumor" and not e.get("from")) or t == "hand":
        cards = [e["card"]] if t == "rumor" else list(e.get("cards") or [])
        for c in cards:
            k, x = parse_card(c, "note")
            card = k * NR + x
            if m.seen.get(card) is not None and m._holder(card) == mi:
                continue
            if not m.my_draw(card):
                raise TableError(i, f"You cannot have drawn {card_name(card)}: by the notes, "
                                    f"{players[m._holder(card)]} holds it.")
            if not m.states:
                raise TableError(i, f"You cannot have drawn {card_name(card)}: by the notes, "
                                    "no Gossip card is left in the deck.")
    elif t == "draw":
        p = players.index(e["by"])
        m.draw(p)
        if not m.states:
            raise TableError(i, f"{players[p]} cannot have drawn a Gossip card: by the notes, "
                                "none is left in the deck.")
    elif t == "count":
        p = players.index(e["player"])
        n = e["cards"]
        if p == mi and n != m.sizes[p]:
            raise TableError(i, f"By your notes you hold {_plural(m.sizes[p], 'Rumor card')}, not {n}: "
                                "note the cards you drew or lost instead.")
        if not m.count(p, n):
            raise TableError(i, f"By the notes {players[p]} holds at least {_plural(m.sizes[p], 'Rumor card')}; "
                                f"{n} is too few.")
        if not m.states:
            raise TableError(i, f"{players[p]} cannot hold {n} Rumor cards: not enough Gossip cards are left.")
    elif t == "ask":
        by, target = players.index(e["by"]), players.index(e["target"])
        k = e["slot"] if isinstance(e["slot"], int) else SLOTS.index(str(e["slot"]).strip())
        card = None
        if e.get("card") is not None:
            ck, cx = parse_card(e["card"], "note")
            card = ck * NR + cx
        elif mi in (by, target):
            raise TableError(i, "When you ask or are asked, the note names the card that changed hands "
                                "or was shown.")
        take = e.get("how", "look") == "take"
        second = bool(e.get("second")) and prev is not None and prev.get("by") == e["by"] \
            and prev.get("target") == e["target"]
        size = m.sizes[target]
        m.ask(by, target, k, bool(e["matched"]), int(e.get("offered", 1)), take, card, second)
        if not m.states:
            raise TableError(i, _ask_problem(players, by, target, k, e, size, card, mi))
    elif t == "give":
        by, target = players.index(e["by"]), players.index(e["target"])
        card = None
        if e.get("card") is not None:
            ck, cx = parse_card(e["card"], "note")
            card = ck * NR + cx
        elif mi in (by, target):
            raise TableError(i, "When you give or are given a card, the note names it.")
        size = m.sizes[by]
        m.give(by, target, card)
        if not m.states:
            what = card_name(card) if card is not None else "a Rumor card"
            why = "holds no Rumor card" if size == 0 else "cannot hold that card by the notes"
            raise TableError(i, f"{players[by]} cannot have given {what}: {players[by]} {why}.")
    if t in ("ask", "give") and not (t == "ask" and e.get("how") == "take"):
        return e
    return None


def _ask_problem(players: list[str], by: int, target: int, k: int, e: dict, size: int, card: int | None,
                 me: int) -> str:
    """Why an ask note fits no arrangement of the Rumor cards, in one sentence."""
    who, slot = players[target], SLOTS[k]
    offered = int(e.get("offered", 1))
    if size == 0:
        return f"{who} holds no Rumor card by the notes, so {players[by]} could not ask for one."
    if offered > size:
        return (f"{who} holds {_plural(size, 'Rumor card')} by the notes, so {who} cannot have offered "
                f"{offered}.")
    if card is not None and target == me:
        return f"You do not hold {card_name(card)} by your notes, so it cannot have been shown or taken."
    if e["matched"]:
        return (f"By the notes {who} cannot hold {_plural(offered, 'card')} of {slot} now "
                f"(too few {slot} cards are left where {who}'s could come from).")
    return (f"By the notes {who} surely holds a {slot} card, so the answer cannot be "
            f"\"no card of that slot\".")


def hand_sizes(players: list[str], me: str, log: list[dict]) -> list[int]:
    """Every Rumor hand's size from the notes alone (they are public: draws, takes, gifts, counts)."""
    sizes = [0] * len(players)
    mine: set[str] = set()
    for e in log:
        t = e.get("type")
        if (t == "rumor" and not e.get("from")) or t == "hand":
            mine.update([e["card"]] if t == "rumor" else e.get("cards") or [])
        elif t == "draw":
            sizes[players.index(e["by"])] += 1
        elif t == "ask" and e.get("how") == "take":
            sizes[players.index(e["target"])] -= 1
            sizes[players.index(e["by"])] += 1
            if e["by"] == me and e.get("card"):
                mine.add(e["card"])
            if e["target"] == me and e.get("card"):
                mine.discard(e["card"])
        elif t == "give":
            sizes[players.index(e["by"])] -= 1
            sizes[players.index(e["target"])] += 1
            if e["target"] == me and e.get("card"):
                mine.add(e["card"])
            if e["by"] == me and e.get("card"):
                mine.discard(e["card"])
        elif t == "count":
            p = players.index(e["player"])
            sizes[p] = max(sizes[p], e["cards"])
    sizes[players.index(me)] = len(mine)
    return sizes
