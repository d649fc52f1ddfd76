"""Safe rooms and the best midnight plan for one seat of Masque of the Red Death.

The Red Death cards of each time slot are R distinct rooms (R = 2, or 3 in the harder
variant) chosen uniformly at setup, independently from slot to slot. What one seat knows
about them is hard evidence only:

* a Gossip card it holds, held, drew, was given, took or saw names a room that is *not*
  a Red Death room of that slot (the Gossip card of a Red Death room lies on the board);
* an Evidence look (or Premonition) shows one Red Death card: that room is deadly.

So per slot the posterior is uniform over the R-subsets of rooms that avoid the known-safe
rooms and contain the known-deadly ones; we enumerate them exactly (at most C(7,3) = 35).
Slots are independent given this knowledge, so a plan survives with the product of its
per-slot survival chances, and the best plan is a max-product path on the ring (a DP over
6 slots x 7 rooms; the k best plans come from a k-best DP). Nothing else a seat sees (which
slots others name, how many cards they offer) says anything about *which* rooms are deadly:
the unknown rooms of a slot stay exchangeable. Those signals only shape the ask advice.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import comb

from engine.masque import NR, NS, ROOMS, SLOTS
from engine.masque.rules import load_rules

DIRS = ("stay", "cw", "ccw")  # tie-break order for equally good plans: fewer moves first
_STEP = {"stay": 0, "cw": 1, "ccw": -1}
_R = load_rules()


class SolverInputError(ValueError):
    """Input the solver cannot read; the message is one line saying which entry and why."""


# --------------------------------------------------------------------------- per-slot posterior


@cache
def _subsets(r: int) -> tuple[int, ...]:
    return tuple(sum(1 << x for x in c) for c in itertools.combinations(range(NR), r))


@cache
def slot_counts(safe: int, deadly: int, r: int) -> tuple[int, tuple[int, ...]]:
    """Enumerate the Red Death subsets of one slot consistent with the known-safe and
    known-deadly room masks: (how many, how many contain each room)."""
    total = 0
    per = [0] * NR
    for m in _subsets(r):
        if m & safe or m & deadly != deadly:
            continue
        total += 1
        for x in range(NR):
            if m >> x & 1:
                per[x] += 1
    return total, tuple(per)


@cache
def slot_probs(safe: int, deadly: int, r: int) -> tuple[float, ...]:
    """P(the Red Death visits each room in this slot); all zero when nothing fits (a contradiction)."""
    total, per = slot_counts(safe, deadly, r)
    if total == 0:
        return (0.0,) * NR
    return tuple(c / total for c in per)


def death_table(safe: Sequence[int], deadly: Sequence[int], r: int) -> list[tuple[float, ...]]:
    return [slot_probs(safe[k], deadly[k], r) for k in range(NS)]


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class Plan:
    start: int
    moves: tuple[str, ...]
    survival: float

    @property
    def rooms(self) -> tuple[int, ...]:
        out = []
        r = self.start
        for d in self.moves:
            r = (r + _STEP[d]) % NR
            out.append(r)
        return tuple(out)

    def to_json(self) -> dict:
        return {"start": ROOMS[self.start], "moves": list(self.moves), "rooms": [ROOMS[x] for x in self.rooms],
                "survival": self.survival}


def survival_of(p: Sequence[Sequence[float]], start: int, moves: Sequence[str]) -> float:
    """The chance a plan survives all six slots: the product of its per-slot survival chances."""
    v = 1.0
    r = start
    for k, d in enumerate(moves):
        r = (r + _STEP[d]) % NR
        v *= 1.0 - p[k][r]
    return v


def best_by_start(p: Sequence[Sequence[float]]) -> list[float]:
    """The best plan's survival from each start room (max-product DP, backward over the slots)."""
    f = [1.0] * NR
    for k in range(NS - 1, -1, -1):
        pk = p[k]
        g = [(1.0 - pk[x]) * f[x] for x in range(NR)]
        f = [max(g[x - 1], g[x], g[(x + 1) % NR]) for x in range(NR)]
    return f


def best_survival(p: Sequence[Sequence[float]], starts: Iterable[int] = range(NR)) -> float:
    f = best_by_start(p)
    return max(f[x] for x in starts)


def best_plans(p: Sequence[Sequence[float]], starts: Iterable[int] = range(NR), top: int = 5) -> list[Plan]:
    """The ``top`` best plans (exact k-best DP), best first; ties prefer fewer moves."""
    idx = {d: i for i, d in enumerate(DIRS)}
    # f[x] = the best (key, survival, moves) lists for slots k..5 when standing in room x before slot k
    f: list[list[tuple[float, tuple[int, ...], tuple[str, ...]]]] = [[(1.0, (), ())] for _ in range(NR)]
    for k in range(NS - 1, -1, -1):
        pk = p[k]
        nf = []
        for x in range(NR):
            cand = []
            for d in DIRS:
                y = (x + _STEP[d]) % NR
                q = 1.0 - pk[y]
                for v, key, moves in f[y]:
                    cand.append((q * v, (idx[d], *key), (d, *moves)))
            cand.sort(key=lambda c: (-round(c[0], 12), c[1]))
            nf.append(cand[:top])
        f = nf
    allp = [(v, key, x, moves) for x in starts for v, key, moves in f[x]]
    allp.sort(key=lambda c: (-round(c[0], 12), c[1], c[2]))
    return [Plan(x, moves, v) for v, _key, x, moves in allp[:top]]


# --------------------------------------------------------------------------- knowledge


@dataclass
class Knowledge:
    """What one seat knows for sure, with the log entries behind each fact (for contradictions)."""

    red_death: int = 2
    safe: list[dict[int, list[int]]] = field(default_factory=lambda: [{} for _ in range(NS)])
    deadly: list[dict[int, list[int]]] = field(default_factory=lambda: [{} for _ in range(NS)])
    looks: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (slot, index) -> (room, entry)
    indexed: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (slot, room) -> (index, entry)
    asks: list[dict] = field(default_factory=list)
    start: int | None = None
    clash: tuple[list[int], str] | None = None

    def add_safe(self, slot: int, room: int, entry: int = -1) -> None:
        self.safe[slot].setdefault(room, []).append(entry)

    def add_deadly(self, slot: int, room: int, entry: int = -1, index: int | None = None) -> None:
        self.deadly[slot].setdefault(room, []).append(entry)
        if index is not None:
            prev = self.looks.setdefault((slot, index), (room, entry))
            if prev[0] != room and self.clash is None:
                self.clash = ([prev[1], entry], f"Red Death card {index + 1} of {SLOTS[slot]} cannot be both "
                              f"{ROOMS[prev[0]]} and {ROOMS[room]}.")
            other = self.indexed.setdefault((slot, room), (index, entry))
            if other[0] != index and self.clash is None:  # one card per slot and room
                first, second = sorted((other[0], index))
                self.clash = ([other[1], entry], f"Red Death cards {first + 1} and {second + 1} of {SLOTS[slot]} "
                              f"cannot both be {ROOMS[room]}: each slot has one card per room.")

    def masks(self) -> tuple[list[int], list[int]]:
        safe = [sum(1 << x for x in self.safe[k]) for k in range(NS)]
        deadly = [sum(1 << x for x in self.deadly[k]) for k in range(NS)]
        return safe, deadly

    def conflict(self) -> tuple[list[int], str] | None:
        """The log entries that cannot all be true, and why; None when they fit together."""
        if self.clash:
            return self.clash
        r = self.red_death
        for k in range(NS):
            both = sorted(set(self.safe[k]) & set(self.deadly[k]))
            if both:
                x = both[0]
                return (sorted({*self.safe[k][x], *self.deadly[k][x]}),
                        f"{SLOTS[k]} {ROOMS[x]} is both a Gossip card you know (safe) and a Red Death room you saw.")
            if len(self.deadly[k]) > r:
                return (sorted({e for v in self.deadly[k].values() for e in v}),
                        f"You saw {len(self.deadly[k])} different Red Death rooms at {SLOTS[k]}; there are only {r}.")
            if len(self.safe[k]) > NR - r:
                return (sorted({e for v in self.safe[k].values() for e in v}),
                        f"You know {len(self.safe[k])} safe rooms at {SLOTS[k]}; only {NR - r} rooms are safe.")
        return self.clash


# --------------------------------------------------------------------------- ask advice


def _value(p: list[tuple[float, ...]], starts: Sequence[int]) -> float:
    return best_survival(p, starts)


def learn_gains(safe: list[int], deadly: list[int], r: int, starts: Sequence[int]) -> tuple[float, list[float]]:
    """The best survival now, and per slot the expected best survival gained by learning one
    new Gossip card of that slot (its room weighted by how likely each unknown room is safe)."""
    p = death_table(safe, deadly, r)
    base = _value(p, starts)
    gains = []
    for k in range(NS):
        unknown = [x for x in range(NR) if not (safe[k] >> x) & 1 and not (deadly[k] >> x) & 1]
        weights = [(x, 1.0 - p[k][x]) for x in unknown if p[k][x] < 1.0]
        tot = sum(w for _x, w in weights)
        if tot <= 0.0:
            gains.append(0.0)
            continue
        exp = 0.0
        for x, w in weights:
            q = list(p)
            q[k] = slot_probs(safe[k] | (1 << x), deadly[k], r)
            exp += w / tot * _value(q, starts)
        gains.append(max(0.0, exp - base))
    return base, gains


def unknown_cards(safe: list[int], r: int) -> list[int]:
    """Per slot, how many Gossip cards this seat has never seen (they are in the deck or other hands)."""
    return [max(0, NR - r - bin(safe[k]).count("1")) for k in range(NS)]


def match_chances(m: list[int], hand: int) -> list[float]:
    """P(a hand of ``hand`` cards drawn from the unseen Gossip cards holds one of each slot)."""
    total = sum(m)
    if hand <= 0 or total <= 0:
        return [0.0] * NS
    h = min(hand, total)
    return [1.0 - comb(total - m[k], h) / comb(total, h) for k in range(NS)]


def ask_values(gains: list[float], m: list[int], hand: int, soft: dict[int, bool] | None = None) -> list[float]:
    """Expected gain of naming each slot: its own card when the target has one, else a random card."""
    chance = match_chances(m, hand)
    if soft:
        for k, matched in soft.items():
            chance[k] = 0.5 * chance[k] + (0.5 if matched else 0.0)
    total = sum(m)
    out = []
    for k in range(NS):
        rest = total - m[k]
        other = sum(m[t] * gains[t] for t in range(NS) if t != k) / rest if rest > 0 else 0.0
        out.append(chance[k] * gains[k] + (1.0 - chance[k]) * other)
    return out


# --------------------------------------------------------------------------- the public solve()

_TYPES = ("rumor", "hand", "seen", "evidence", "start", "ask", "draw", "give", "count")
TABLE_TYPES = ("draw", "give", "count")  # notes only the table model reads


def _slot(value: object, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NS:
        return value
    if isinstance(value, str) and value.strip() in SLOTS:
        return SLOTS.index(value.strip())
    raise SolverInputError(f"{where}: {value!r} is not a time slot; use one of {', '.join(SLOTS)}.")


def _room(value: object, where: str) -> int:
    if isinstance(value, str) and value.strip().lower() in ROOMS:
        return ROOMS.index(value.strip().lower())
    raise SolverInputError(f"{where}: {value!r} is not a room; use one of {', '.join(ROOMS)}.")


def parse_card(value: object, where: str) -> tuple[int, int]:
    """``"12:10 blue"`` -> (slot, room)."""
    if not isinstance(value, str) or len(value.split()) != 2:
        raise SolverInputError(f"{where}: {value!r} is not a Gossip card; write it like \"12:10 blue\".")
    a, b = value.split()
    return _slot(a, where), _room(b, where)


def _names(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise SolverInputError("config: players must be a list of names.")
    return value


def read_input(config: dict, log: list[dict]) -> tuple[Knowledge, dict]:
    """Check and read the documented input; SolverInputError names the first bad entry."""
    if not isinstance(config, dict):
        raise SolverInputError("config must be a JSON object.")
    if not isinstance(log, list):
        raise SolverInputError("log must be a list of entries.")
    known = {"red_death", "variant", "start", "top", "soft", "target", "players", "me", "table"}
    extra = set(config) - known
    if extra:
        raise SolverInputError(f"config: unknown option(s) {', '.join(sorted(extra))}.")
    r = config.get("red_death")
    variant = config.get("variant")
    if variant is not None and variant not in ("standard", "harder"):
        raise SolverInputError("config: variant is \"standard\" or \"harder\".")
    if r is None:
        r = _R.red_death_harder if variant == "harder" else _R.red_death
    if r not in (_R.red_death, _R.red_death_harder) or isinstance(r, bool):
        raise SolverInputError(f"config: red_death is {_R.red_death} or {_R.red_death_harder}.")
    top = config.get("top", 5)
    if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= 50:
        raise SolverInputError("config: top is a whole number from 1 to 50.")
    soft = config.get("soft", False)
    if not isinstance(soft, bool):
        raise SolverInputError("config: soft is true or false.")
    players = _names(config.get("players"))
    table = config.get("table", False)
    if not isinstance(table, bool):
        raise SolverInputError("config: table is true or false.")
    if table:
        if len(players) < 2 or len(set(players)) != len(players):
            raise SolverInputError("config: a table needs players, two or more different names in seat order.")
        if config.get("me") not in players:
            raise SolverInputError("config: me is one of the players.")
    target = config.get("target")
    hand = 2
    target_name = None
    if target is not None:
        if not isinstance(target, dict):
            raise SolverInputError("config: target is an object like {\"name\": \"Ann\", \"hand\": 3}.")
        hand = target.get("hand", 2)
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise SolverInputError("config: target.hand is the target's number of Rumor cards.")
        target_name = target.get("name")
    opts_hand = target.get("hand") if isinstance(target, dict) else None
    know = Knowledge(red_death=r)
    starts: list[int] | None = None
    if "start" in config:
        st = config["start"]
        starts = [_room(x, "config.start") for x in (st if isinstance(st, list) else [st])]
        if not starts:
            raise SolverInputError("config: start names at least one room.")
    for i, e in enumerate(log):
        where = f"log entry {i}"
        if not isinstance(e, dict) or e.get("type") not in _TYPES:
            raise SolverInputError(f"{where}: each entry is an object whose type is one of {', '.join(_TYPES)}.")
        t = e["type"]
        if t in ("rumor", "seen"):
            k, x = parse_card(e.get("card"), where)
            know.add_safe(k, x, i)
        elif t == "hand":
            cards = e.get("cards")
            if not isinstance(cards, list):
                raise SolverInputError(f"{where}: a hand entry lists its cards.")
            for c in cards:
                k, x = parse_card(c, where)
                know.add_safe(k, x, i)
        elif t == "evidence":
            k = _slot(e.get("slot"), where)
            x = _room(e.get("room"), where)
            index = e.get("index")
            if index is not None and (not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < r):
                raise SolverInputError(f"{where}: index is which Red Death card of the slot (0 to {r - 1}).")
            know.add_deadly(k, x, i, index)
        elif t == "start":
            know.start = _room(e.get("room"), where)
        elif t == "ask":
            k = _slot(e.get("slot"), where)
            matched = e.get("matched")
            if matched is not None and not isinstance(matched, bool):
                raise SolverInputError(f"{where}: matched is true or false.")
            know.asks.append({"by": e.get("by"), "target": e.get("target"), "slot": k, "matched": matched})
            if e.get("card") is not None:  # I asked, or I was asked: the card is a Gossip card I saw
                ck, cx = parse_card(e.get("card"), where)
                if matched and ck != k:
                    raise SolverInputError(f"{where}: a matched ask shows a card of the slot named.")
                know.add_safe(ck, cx, i)
            if table:
                _table_ask(e, players, where)
        elif t in TABLE_TYPES:
            if not table:
                raise SolverInputError(f"{where}: {t} notes need the table (config table: true, players and me).")
            _table_note(e, players, where)
            if t == "give" and e.get("card") is not None:
                k, x = parse_card(e.get("card"), where)
                know.add_safe(k, x, i)
    if starts is None:
        starts = [know.start] if know.start is not None else list(range(NR))
    opts = {"top": top, "soft": soft, "hand": hand, "target": target_name, "starts": starts, "table": table,
            "players": players, "me": config.get("me"), "hand_given": opts_hand is not None}
    return know, opts


def _who(value: object, players: list[str], where: str, field: str) -> int:
    if value not in players:
        raise SolverInputError(f"{where}: {field} {value!r} is not one of the players ({', '.join(players)}).")
    return players.index(value)


def _count(value: object, where: str, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SolverInputError(f"{where}: {field} is a whole number, 0 or more.")
    return value


def _table_ask(e: dict, players: list[str], where: str) -> None:
    by = _who(e.get("by"), players, where, "by")
    target = _who(e.get("target"), players, where, "target")
    if by == target:
        raise SolverInputError(f"{where}: a noble never asks itself.")
    if not isinstance(e.get("matched"), bool):
        raise SolverInputError(f"{where}: matched is true or false (did a card of that slot come?).")
    if _count(e.get("offered", 1), where, "offered") < 1:
        raise SolverInputError(f"{where}: offered is 1 or more (an ask needs a card to answer with).")
    if e.get("how", "look") not in ("look", "take"):
        raise SolverInputError(f"{where}: how is \"look\" or \"take\".")
    if not isinstance(e.get("second", False), bool):
        raise SolverInputError(f"{where}: second is true or false.")


def _table_note(e: dict, players: list[str], where: str) -> None:
    t = e["type"]
    if t == "draw":
        _who(e.get("by"), players, where, "by")
    elif t == "count":
        _who(e.get("player"), players, where, "player")
        _count(e.get("cards"), where, "cards")
    else:  # give
        by = _who(e.get("by"), players, where, "by")
        if _who(e.get("target"), players, where, "target") == by:
            raise SolverInputError(f"{where}: a noble never gives to itself.")
        if e.get("card") is not None:
            parse_card(e.get("card"), where)


def solve(config: dict, log: list[dict]) -> dict:
    """The safe-room report for one seat (see ``docs/masque.md`` for the input and output)."""
    know, opts = read_input(config, log)
    bad = know.conflict()
    if bad:
        entries, message = bad
        return {"status": "contradiction", "conflict": entries, "message": message}
    r = know.red_death
    table_out, model, stopped = None, None, -1
    if opts["table"]:
        from solvers.masque.table import TableError, TooMany, replay

        try:
            model = replay(opts["players"], opts["me"], r, log)
        except TableError as err:
            return {"status": "contradiction", "conflict": [err.entry], "message": str(err)}
        except TooMany as err:
            model, stopped = None, err.entry
    safe, deadly = know.masks()
    p = death_table(safe, deadly, r)
    starts = opts["starts"]
    plans = best_plans(p, starts, opts["top"])
    by_start = best_by_start(p)
    _base, gains = learn_gains(safe, deadly, r, starts)
    m = unknown_cards(safe, r)
    soft = None
    if opts["soft"] and opts["target"] is not None:
        soft = {a["slot"]: bool(a["matched"]) for a in know.asks
                if a["target"] == opts["target"] and a["matched"] is not None}
    hand = opts["hand"]
    if opts["table"]:
        table_out = _table_json(opts, model, gains, m, log, r, stopped)
        if opts["target"] in opts["players"] and not opts["hand_given"]:
            hand = table_out["players"][opts["players"].index(opts["target"])]["cards"]
    values = ask_values(gains, m, hand, soft)
    if table_out and table_out["exact"] and opts["target"] in opts["players"] and not opts["hand_given"] and not soft:
        values = model.offer_values(opts["players"].index(opts["target"]), gains)
    best_k = max(range(NS), key=lambda k: (round(values[k], 12), gains[k], -k))
    certain_safe = [f"{SLOTS[k]} {ROOMS[x]}" for k in range(NS) for x in range(NR) if p[k][x] == 0.0]
    certain_deadly = [f"{SLOTS[k]} {ROOMS[x]}" for k in range(NS) for x in range(NR) if p[k][x] == 1.0]
    return {
        "status": "ok",
        "exact": True,
        "red_death": r,
        "deadly": {SLOTS[k]: {ROOMS[x]: p[k][x] for x in range(NR)} for k in range(NS)},
        "consistent": {SLOTS[k]: slot_counts(safe[k], deadly[k], r)[0] for k in range(NS)},
        "certain": {"safe": certain_safe, "deadly": certain_deadly},
        "best_plan": plans[0].to_json(),
        "next_best": [pl.to_json() for pl in plans[1:]],
        "by_start": {ROOMS[x]: by_start[x] for x in range(NR)},
        "ask_slot": {"slot": SLOTS[best_k], "gain": values[best_k],
                     "by_slot": {SLOTS[k]: values[k] for k in range(NS)},
                     "learn_gain": {SLOTS[k]: gains[k] for k in range(NS)}, "target_hand": hand,
                     "soft": soft is not None},
        **({"table": table_out} if table_out is not None else {}),
    }


def _table_json(opts: dict, model: object, gains: list[float], m: list[int], log: list[dict], r: int,
                stopped: int = -1) -> dict:
    """Per player: Rumor hand size, the chance of holding a card of each slot, and the slot to name.
    Not exact (``stopped``: the note the model could not follow): no chances at all (never a false
    certainty), the message says so and names the note."""
    from solvers.masque.table import TableModel, hand_sizes

    players: list[str] = opts["players"]
    me = players.index(opts["me"])
    if isinstance(model, TableModel):
        sizes, holds, exact = model.sizes, model.holds(), True
    else:
        sizes, holds, exact = hand_sizes(players, opts["me"], log), None, False
    rows = []
    for i, name in enumerate(players):
        row: dict = {"name": name, "cards": sizes[i], "me": i == me}
        if holds is not None:
            row["holds"] = {SLOTS[k]: holds[i][k] for k in range(NS)}
        if i != me and sizes[i] > 0:
            vals = (model.offer_values(i, gains) if isinstance(model, TableModel)
                    else ask_values(gains, m, sizes[i]))
            best = max(range(NS), key=lambda k: (round(vals[k], 12), gains[k], -k))
            row["ask"] = {"slot": SLOTS[best], "gain": vals[best]}
        rows.append(row)
    out: dict = {"exact": exact, "players": rows, "states": len(model.states) if isinstance(model, TableModel) else 0}
    if not exact:
        out["stopped_at"] = stopped
        out["message"] = (f"Not exact: from entry #{stopped + 1} on there are too many ways the Rumor hands could "
                          "be split to follow, so the chances by slot are left out; the hand sizes are exact and "
                          "the advice comes from them alone.")
    return out
