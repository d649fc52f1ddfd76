"""The test oracle: the Masque table model as it was before issue 23's groups (every hand a note touches
is split by slot), kept unchanged so tests can check the grouped model gives the same belief.

Who holds which time slots: an exact belief over the Rumor hands at a Masque table, for one seat.

The table model is on when the config says ``"table": true`` (with ``players`` in seat order and
``me``). Its notes are the observation language of ``docs/masque.md``: my draws (``rumor``), other
nobles' Gossip draws (``draw``), every look or take with the slot named and the public answer
(``ask``: ``matched``, ``offered``; ``card`` when I was the asker or the target), Confidant's gift
(``give``) and a hand size counted at the table (``count``).

Hands start empty and grow only by draws, so hand sizes are known exactly. What is hidden is which
*slots* the cards of other hands belong to. Gossip cards I have never identified ("unseen") are
exchangeable within a slot, so a hand is described by its unseen cards per slot plus the cards I
identified (each with its holder). A hand nobody has asked or traded with stays *undetermined*: its
cards, the deck's Gossip and every other undetermined hand are one uniformly shuffled pool, so such a
hand is only resolved (split by slot, multivariate hypergeometric) when a note needs it. The belief
is a weighted set of these states, filtered note by note: exact, and equal to a brute force over
the physical cards (tested). Cards another noble gives (Confidant) are modelled as any card of their
hand with equal chance. A belief with more than ``MAX_STATES`` states is not tracked (the answer says
so and the ask advice falls back to the hypergeometric chance from the real hand size).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from math import comb

from engine.masque import NR, NS, ROOMS, SLOTS

MAX_STATES = 60_000

State = tuple  # (res, und, seen, excl): see _Filter


class TableError(ValueError):
    """A table note that cannot be true with the notes before it; ``entry`` is its log index."""

    def __init__(self, entry: int, message: str) -> None:
        super().__init__(message)
        self.entry = entry


class TooMany(Exception):
    """The belief outgrew MAX_STATES."""


def _compositions(n: int, pool: list[int]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every way ``n`` cards drawn from ``pool`` (cards per slot) split by slot, with its chance."""
    return _compositions_of(n, tuple(pool))


@cache
def _compositions_of(n: int, pool: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    return tuple(_split(n, pool))


def _split(n: int, pool: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], float]]:
    total = sum(pool)
    if n > total:
        return
    denom = comb(total, n)

    def rec(k: int, left: int) -> Iterator[tuple[list[int], int]]:
        if k == NS - 1:
            if left <= pool[k]:
                yield [left], comb(pool[k], left)
            return
        for x in range(min(left, pool[k]) + 1):
            for rest, w in rec(k + 1, left - x):
                yield [x, *rest], w * comb(pool[k], x)

    for parts, w in rec(0, n):
        yield tuple(parts), w / denom


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
        # every hand starts empty; a hand's cards nobody has asked about stay undetermined (``und``)
        res0 = tuple((0,) * NS for _ in range(self.n))
        self._unseen_cache: list[int] | None = None
        self.states: dict[State, float] = {(res0, (0,) * self.n, (), None): 1.0}

    # ------------------------------------------------------------------ helpers

    def _unseen(self) -> list[int]:
        """Per slot, the Gossip cards in play I have never identified (deck and hands)."""
        if self._unseen_cache is None:
            out = [NR - self.red_death] * NS
            for c in self.seen_cards:
                out[c // NR] -= 1
            self._unseen_cache = out
        return list(self._unseen_cache)

    def _pool(self, st: State) -> list[int]:
        """Per slot, the unseen cards in the deck or in undetermined hands."""
        pool = self._unseen()
        for r in st[0]:
            for k in range(NS):
                pool[k] -= r[k]
        return pool

    def _deck(self, st: State) -> int:
        return sum(self._pool(st)) - sum(st[1])

    def _resolve(self, st: State, p: int) -> Iterator[tuple[State, float]]:
        res, und, seen, excl = st
        if not und[p]:
            yield st, 1.0
            return
        pool = self._pool(st)
        for comp, w in _compositions(und[p], pool):
            yield (_put(res, p, tuple(a + b for a, b in zip(res[p], comp, strict=True))), _put(und, p, 0), seen,
                   excl), w

    def _holder(self, card: int) -> int:
        """Who holds an identified card (the most likely holder, when the notes leave a choice)."""
        i = self.seen[card]
        votes: dict[int, float] = {}
        for st, w in self.states.items():
            votes[st[2][i]] = votes.get(st[2][i], 0.0) + w
        return max(votes, key=lambda p: votes[p]) if votes else self.me

    def _apply(self, fn, *args) -> None:
        out: dict[State, float] = {}
        for st, w in self.states.items():
            for nst, f in fn(st, *args):
                if f > 0.0:
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
            key = (*st[:3], None)
            out[key] = out.get(key, 0.0) + w
        self.states = out

    def _identified(self, card: int) -> None:
        """A card I now know: the states' seen tuples already hold its place (appended by the step)."""
        self.seen[card] = len(self.seen_cards)
        self.seen_cards.append(card)
        self._unseen_cache = None

    # ------------------------------------------------------------------ notes

    def draw(self, p: int) -> None:
        """Player ``p`` drew a Gossip card I did not see."""
        self._clear_excl()
        self.sizes[p] += 1

        def step(st: State) -> Iterator[tuple[State, float]]:
            res, und, seen, excl = st
            if self._deck(st) <= 0:
                return
            yield (res, _put(und, p, und[p] + 1), seen, excl), 1.0

        self._apply(step)

    def my_draw(self, card: int) -> bool:
        """I drew ``card``; False when I already know where that card is (it cannot be in the deck)."""
        if card in self.seen:
            return False
        self._clear_excl()
        k = card // NR
        unseen_k = self._unseen()[k]
        self.sizes[self.me] += 1

        def step(st: State) -> Iterator[tuple[State, float]]:
            if self._deck(st) <= 0:
                return
            pool = self._pool(st)
            yield (st[0], st[1], (*st[2], self.me), st[3]), pool[k] / unseen_k / sum(pool)

        self._apply(step)
        self._identified(card)
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
        new = card is not None and card not in self.seen
        unseen_k = self._unseen()[card // NR] if new and card is not None else 1
        ci = (len(self.seen_cards) if new else self.seen.get(card, -1)) if card is not None else None
        self.sizes[target] -= take
        self.sizes[by] += take
        self._apply(self._ask, by, target, slot, matched, offered, take, card, ci, new, unseen_k, second)
        if new and card is not None:
            self._identified(card)

    def _ask(self, st: State, by: int, target: int, slot: int, matched: bool, offered: int, take: bool,
             card: int | None, ci: int | None, new: bool, unseen_k: int, second: bool
             ) -> Iterator[tuple[State, float]]:
        for st1, f1 in self._resolve(st, target):
            res, und, seen, excl = st1
            ex = excl if second and excl and excl[0] == target else None
            avail = list(res[target])
            held = [j for j, loc in enumerate(seen) if loc == target]
            if ex:
                if ex[1] == "u":
                    avail[ex[2]] -= 1
                else:
                    held = [j for j in held if j != ex[2]]
            # the offer's public shape
            cats: list[tuple[str, int, int]] = []  # (kind, slot or seen index, how many)
            cnt_k = avail[slot] + sum(1 for j in held if self.seen_cards[j] // NR == slot)
            if matched != (cnt_k > 0):
                continue
            size = sum(avail) + len(held)
            if offered != (cnt_k if matched else size):
                continue
            for k in range(NS):
                if avail[k] and (not matched or k == slot):
                    cats.append(("u", k, avail[k]))
            for j in held:
                if not matched or self.seen_cards[j] // NR == slot:
                    cats.append(("s", j, 1))
            for kind, what, many in cats:
                if card is not None:
                    if new and not (kind == "u" and what == card // NR):
                        continue
                    if not new and not (kind == "s" and what == ci):
                        continue
                    f = many / offered / (unseen_k if new else 1)
                else:
                    f = many / offered
                nres, nseen = res, seen
                nexcl = None if take else (target, kind, what)
                if kind == "u" and new:
                    nres = _put(nres, target, _inc(nres[target], what, -1))
                    nseen = (*nseen, by if take else target)
                    nexcl = None if take else (target, "s", ci)
                elif kind == "u" and take:
                    nres = _put(nres, target, _inc(nres[target], what, -1))
                    nres = _put(nres, by, _inc(nres[by], what, 1))
                elif kind == "s" and take:
                    nseen = _put(nseen, what, by)
                yield (nres, und, nseen, nexcl), f1 * f

    def give(self, by: int, target: int, card: int | None) -> None:
        """Confidant: ``by`` gives ``target`` one card (any of theirs with equal chance, unless I saw it)."""
        self._clear_excl()
        new = card is not None and card not in self.seen
        unseen_k = self._unseen()[card // NR] if new and card is not None else 1
        i = (len(self.seen_cards) if new else self.seen.get(card, -1)) if card is not None else -1
        size = self.sizes[by]
        self.sizes[by] -= 1
        self.sizes[target] += 1
        self._apply(self._give, by, target, card, i, new, unseen_k, size)
        if new and card is not None:
            self._identified(card)

    def _give(self, st: State, by: int, target: int, card: int | None, ci: int, new: bool, unseen_k: int,
              size: int) -> Iterator[tuple[State, float]]:
        if size <= 0:
            return
        for st1, f1 in self._resolve(st, by):
            res, und, seen, _ex = st1
            cats = [("u", k, res[by][k]) for k in range(NS) if res[by][k]]
            cats += [("s", j, 1) for j, loc in enumerate(seen) if loc == by]
            for kind, what, many in cats:
                if card is not None:
                    if new and not (kind == "u" and what == card // NR):
                        continue
                    if not new and not (kind == "s" and what == ci):
                        continue
                f = many / size / (unseen_k if new else 1)
                nres, nseen = res, seen
                if kind == "u" and new:
                    nres = _put(nres, by, _inc(nres[by], what, -1))
                    nseen = (*nseen, target)
                    nex = (target, "s", ci)
                elif kind == "u":
                    nres = _put(_put(nres, by, _inc(nres[by], what, -1)), target, _inc(nres[target], what, 1))
                    nex = (target, "u", what)
                else:
                    nseen = _put(nseen, what, target)
                    nex = (target, "s", what)
                yield (nres, und, nseen, nex), f1 * f

    # ------------------------------------------------------------------ answers

    def holds(self) -> list[list[float]]:
        """P(player p holds at least one card of slot k), per player and slot."""
        out = [[0.0] * NS for _ in range(self.n)]
        for st, w in self.states.items():
            for p, row in enumerate(self._slot_chance(st)):
                for k in range(NS):
                    out[p][k] += w * row[k]
        return out

    def _slot_chance(self, st: State) -> list[list[float]]:
        res, und, seen, _ex = st
        pool = self._pool(st)
        tot = sum(pool)
        rows = []
        for p in range(self.n):
            row = [0.0] * NS
            for j, loc in enumerate(seen):
                if loc == p:
                    row[self.seen_cards[j] // NR] = 1.0
            for k in range(NS):
                if row[k] == 1.0:
                    continue
                if res[p][k]:
                    row[k] = 1.0
                elif und[p]:
                    row[k] = 1.0 - comb(tot - pool[k], und[p]) / comb(tot, und[p])
            rows.append(row)
        return rows

    def offer_values(self, target: int, gains: list[float]) -> list[float]:
        """Expected gain of naming each slot to ``target``: the card offered is uniform among the
        target's cards of that slot (else among all its cards), worth ``gains[slot]`` when I have
        never identified it and nothing when I have."""
        # only the target's own cards and the pool its undetermined cards come from matter: group the states
        groups: dict[tuple, float] = {}
        for st, w in self.states.items():
            res, und, seen, _ex = st
            held = tuple(sorted(self.seen_cards[j] // NR for j, loc in enumerate(seen) if loc == target))
            key = (res[target], und[target], tuple(self._pool(st)) if und[target] else (), held)
            groups[key] = groups.get(key, 0.0) + w
        out = [0.0] * NS
        for (own, n, pool, held), w in groups.items():
            for comp, f in _compositions(n, list(pool)) if n else [((0,) * NS, 1.0)]:
                mine = [a + b for a, b in zip(own, comp, strict=True)]
                size = sum(mine) + len(held)
                if size == 0:
                    continue
                anyv = sum(mine[j] * gains[j] for j in range(NS)) / size
                for k in range(NS):
                    cnt = mine[k] + held.count(k)
                    out[k] += w * f * (mine[k] / cnt * gains[k] if cnt else anyv)
        return out


def _put(t: tuple, i: int, v: object) -> tuple:
    return (*t[:i], v, *t[i + 1:])


def _inc(t: tuple[int, ...], k: int, d: int) -> tuple[int, ...]:
    return (*t[:k], t[k] + d, *t[k + 1:])


def slot_name(k: int) -> str:
    return SLOTS[k]


def card_name(c: int) -> str:
    return f"{SLOTS[c // NR]} {ROOMS[c % NR]}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def replay(players: list[str], me: str, red_death: int, log: list[dict]) -> TableModel:
    """The table model after every note of ``log`` (already checked by ``read_input``).

    Raises :class:`TableError` naming the first note that no arrangement of the Rumor cards fits,
    and :class:`TooMany` when the belief grows past ``MAX_STATES``."""
    from solvers.masque.solver import parse_card

    m = TableModel(players, players.index(me), red_death)
    mi = m.me
    prev: dict | None = None  # the last look or give, for a Swindle's second look and Confidant's take
    for i, e in enumerate(log):
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
            prev = e
        else:
            prev = None
    return m


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
