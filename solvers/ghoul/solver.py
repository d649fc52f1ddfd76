"""Hands and identities for one seat of Tokyo Ghoul: Bloody Masquerade.

Public entry points: :func:`solve` (input and output formats in ``docs/ghoul.md``),
:func:`certain_facts` (only the certain facts, a cheap oracle for explanations) and
:func:`flow_certain_facts` (the card-flow pass's facts, with the rows that cannot reach the end
of the log dropped early: a fact missing from them is shown not certain, for explanations).

The numbers come from the exact card-flow pass of :mod:`solvers.ghoul.flow` (worlds = dealt
deal + hidden choices, ``docs/ghoul.md`` "The card-flow model") whenever the table is small
enough (``"exact": true``, ``"method": "flow"``). Otherwise, and for the strong bot's behaviour
model, they come from the per-player relaxation below (``"method": "bound"``):

1. *One timeline per player.* For every player the log is replayed as a set of possible
   hands (a bit set over at most 70 multisets, :mod:`solvers.ghoul.hands`); a card that
   moved unseen adds every hand one card away; one set per "instant class" of character.
2. *Counting of present deals* in those sets with a dynamic programme over players
   (cards used per suit × characters used per class, forward-backward numpy arrays).

The sets contain every hand possible in the model, so the certain facts of the bound are
true, but may be incomplete, and its probabilities are not the model's (``"exact": false``).

Contradictions: when no world fits, ``status`` is ``"contradiction"`` with a minimal set of
log entries that cannot all hold (found by deletion, as in the Clue solver).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.ghoul.data import DOVE, MASK, SUITS, load_data
from solvers.ghoul.flow import FlowConflict, FlowResult, solve_factored, solve_flow
from solvers.ghoul.flow import sample as flow_sample
from solvers.ghoul.hands import Universe, bits, universe
from solvers.ghoul.model import Problem, SolverInputError, build_problem

__all__ = [
    "Behaviour",
    "Filtered",
    "Solution",
    "SolverInputError",
    "certain_facts",
    "filter_log",
    "flow_certain_facts",
    "sample_worlds",
    "solve",
    "solve_problem",
]

_DATA = load_data()
_CHARS = _DATA.characters


class _Conflict(Exception):
    """The log (or the part replayed) cannot all be true."""


@dataclass
class Filtered:
    """Step 1's result: per player and instant class, the set of possible present hands."""

    problem: Problem
    uni: Universe
    instants: list[tuple[int, int] | None]
    masks: list[list[int]]
    fixed: list[str | None]
    allowed: list[set[str]]
    exact: bool
    markers: list[int]
    pool: int
    face_up: list[int | None]
    support: list[float] | None
    ring: list[str | None] | None
    face: list[bool]
    token: int
    moved: bool
    over: bool
    victim: int | None
    turns: int
    last_turn: int | None
    evidence: list[tuple[str, int, int]] = field(default_factory=list)  # (kind, player, suit) choices I saw


@dataclass
class Solution:
    """Step 2's result, with the joint marginals kept for advice and bots."""

    status: str
    exact: bool = True
    worlds: float = 0.0
    hand_probs: list[dict[tuple[int, ...], float]] = field(default_factory=list)
    joint: list[dict[tuple[int, int], float]] = field(default_factory=list)  # (class, hand index) -> p
    classes: list[tuple[int | None, list[str]]] = field(default_factory=list)  # (instant index, characters)
    identity: list[dict[str, float]] = field(default_factory=list)
    filtered: Filtered | None = None
    conflict: list[int] = field(default_factory=list)
    message: str = ""
    counting: Any = None  # the _Counting behind the marginals, kept for sampling worlds
    approximate: list[str] = field(default_factory=list)  # why the exact pass is not exact
    method: str = "bound"  # "flow" (the exact card-flow pass), "sample" (sampled deals) or "bound"
    certain: dict[str, Any] | None = None  # with "sample": the complete certain facts (CP-SAT)
    error: float = 0.0  # with "sample": the widest 95% half-width of the probabilities
    samples: int = 0  # with "sample": how many deals were drawn
    undecided: list[dict[str, Any]] | None = None  # with CP-SAT's facts: those it could not settle


# --------------------------------------------------------------------------- step 1


def filter_log(problem: Problem, subset: Sequence[int] | None = None) -> Filtered:
    """Replay the log (or the entries in ``subset``) into per-player hand sets; raise _Conflict."""
    p = problem
    n = p.n
    me = p.me
    uni = universe(p.hand_size, p.deck)
    instants: list[tuple[int, int] | None] = [None]
    for c in p.cast:
        inst = _CHARS[c].instant
        if inst and inst not in instants:
            instants.append(inst)
    k = len(instants)
    masks = [[uni.all] * k for _ in range(n)]
    fixed: list[str | None] = [None] * n
    fixed[me] = p.character
    others = set(p.cast) - {p.character}
    allowed = [set(others) for _ in range(n)]
    allowed[me] = {p.character}
    face_up: list[int | None] = [None] * n
    markers = [0] * n
    pool = p.pool
    support = [1.0 / n] * n if p.support else None
    face = [not r for r in p.red]
    ring = list(p.ring) if p.ring is not None else None
    token = p.token
    moved = False
    over = False
    victim = None
    informed = False
    exact = True
    turns = 0
    last_turn = None
    inst_masks = [0] + [uni.at_least(s, c) for s, c in instants[1:]]
    evidence: list[tuple[str, int, int]] = []

    def restrict(pl: int, m: int) -> None:
        nonlocal informed
        row = masks[pl]
        changed = False
        for j in range(k):
            new = row[j] & m
            if new != row[j]:
                row[j] = new
                changed = True
        if not any(row):
            raise _Conflict
        if changed and pl != me:
            informed = True

    def move_hands(pl: int, fn) -> None:
        row = masks[pl]
        for j in range(k):
            row[j] = fn(row[j])
        if not any(row):
            raise _Conflict

    def unknown(pl: int, fn) -> None:
        nonlocal exact
        if informed and pl != me:
            exact = False
        move_hands(pl, fn)

    def face_rule(pl: int) -> None:
        u = face_up[pl]
        if u is None:
            return
        m = uni.at_least(u, 1)
        if u != MASK:
            m &= uni.no_mask
        restrict(pl, m)

    def fix(pl: int, c: str | None) -> None:
        if c is None:
            return
        if c not in p.cast:
            raise _Conflict
        if fixed[pl] is not None and fixed[pl] != c:
            raise _Conflict
        if any(fixed[q] == c for q in range(n) if q != pl):
            raise _Conflict
        fixed[pl] = c
        allowed[pl] = {c}
        for q in range(n):
            if q != pl and c in allowed[q]:
                allowed[q] = allowed[q] - {c}
                if not allowed[q]:
                    raise _Conflict

    def not_claimed(pl: int) -> None:
        """A turn started without an instant victory: that character's winning hands are out."""
        nonlocal informed
        row = masks[pl]
        for j in range(1, k):
            new = row[j] & ~inst_masks[j]
            if new != row[j]:
                row[j] = new
                if pl != me:
                    informed = True
        if not any(row):
            raise _Conflict

    def allow_only(pl: int, chars: set[str]) -> None:
        allowed[pl] &= chars
        if not allowed[pl]:
            raise _Conflict

    order = range(len(p.entries)) if subset is None else subset
    for idx in order:
        e = p.entries[idx]
        t = e["type"]
        if t == "hand":
            if "face_up" in e:
                face_up[me] = e["face_up"]
            restrict(me, uni.exactly(e["cards"]))
        elif t == "support":
            if support is not None:
                if e["token"] == "kaneki":
                    support = [1.0 if q == me else 0.0 for q in range(n)]
                else:
                    support = _condition(support, me, False)
        elif t == "preliminary":
            right, left = (me - 1) % n, (me + 1) % n
            if e["shown"] is not None:
                need = list(e["shown"])
                if face_up[right] is not None:
                    need[face_up[right]] += 1
                restrict(right, uni.contains(tuple(need)))
            if e["shown"] is not None:
                evidence.extend(("showed", right, x) for x in range(5) for _ in range(e["shown"][x]))
            gave, got = e["gave"], e["received"]
            if got is not None:
                evidence.append(("gave", left, got))
            # Until the gifts are made ("passed": false) no card has moved yet: nobody's hands step.
            for pl in range(n) if e["passed"] else ():
                out = gave if pl == me else (got if pl == left else None)
                inn = got if pl == me else (gave if pl == right else None)
                if out is not None and inn is not None:
                    move_hands(pl, lambda m, y=out, x=inn: uni.step_known(m, y, x))
                elif out is not None:
                    unknown(pl, lambda m, y=out: uni.step(m, uni.give_known[y]))
                elif inn is not None:
                    unknown(pl, lambda m, x=inn: uni.step(m, uni.get_known[x]))
                else:
                    unknown(pl, lambda m: uni.step(m, uni.any_swap))
            for pl, c in e["face_up"].items():
                face_up[pl] = c
            for pl in range(n):
                face_rule(pl)
        elif t == "face_up":
            face_up[e["player"]] = e["card"]
            face_rule(e["player"])
        elif t in ("move", "turn"):
            pl = e["player"]
            turns += 1
            last_turn = pl
            not_claimed(pl)
            if t == "move" and e["to"] is not None:
                token, moved = _move_token(face, token, moved, e["to"], ring, e["revealed"])
        elif t == "interrogation":
            a, b = e["by"], e["target"]
            if e["shown"] is not None:
                need = list(e["shown"])
                if face_up[b] is not None:
                    need[face_up[b]] += 1
                need_t = tuple(need)
                if sum(need_t) == p.hand_size:
                    restrict(b, uni.exactly(need_t))
                else:
                    restrict(b, uni.contains(need_t))
            ex = e["exchange"]
            if a == me and e["shown"] is not None and sum(e["shown"]) == 2:
                evidence.extend(("showed", b, x) for x in range(5) for _ in range(e["shown"][x]))
            if b == me and isinstance(ex, tuple):
                evidence.append(("took", a, ex[1]))
                evidence.append(("gave", a, ex[0]))
            if isinstance(ex, tuple):
                g, tk = ex[0], ex[1]
                move_hands(a, lambda m, g=g, tk=tk: uni.step_known(m, g, tk))
                move_hands(b, lambda m, g=g, tk=tk: uni.step_known(m, tk, g))
            elif ex == "unknown":
                unknown(a, lambda m: uni.step(m, uni.any_swap))
                unknown(b, lambda m: uni.step(m, uni.any_swap))
            for pl, c in e["face_up"].items():
                face_up[pl] = c
            face_rule(a)
            face_rule(b)
        elif t == "suspicion":
            m = uni.rule(e["rule"])
            for pl in range(n):
                restrict(pl, m if pl in e["players"] else uni.all & ~m)
            took = e["took"] if e["took"] is not None else sorted(e["players"])
            for pl in took:
                markers[pl] += 1
            pool -= len(took)
        elif t == "cover":
            if e["removed"] is not None:
                markers[e["removed"]] -= 1
                pool += 1
            if e["added"] is not None:
                markers[e["added"]] += 1
                pool -= 1
        elif t in ("attack", "special"):
            a, b = e["by"], e["target"]
            fix(a, e["by_character"])
            fix(b, e["target_character"])
            killers = {c for c in p.cast if _CHARS[c].kill}
            if t == "special":
                not_claimed(a)
                allow_only(a, {c for c in p.cast if _CHARS[c].is_inspector})
                restrict(a, uni.at_least(DOVE, 2))
            else:
                allow_only(a, killers)
            if e["support"] is not None and support is not None:
                support = [0.0] * n
                if "kaneki" in e["support"]:
                    support[a if e["support"][0] == "kaneki" else b] = 1.0
                else:
                    support = None  # nobody in the fight had it; the rest no longer matters
            over = True
            victim = e["victim"]
        elif t == "instant":
            fix(e["player"], e["character"])
            if e["cards"] is not None:
                restrict(
                    e["player"], uni.exactly(e["cards"]) if sum(e["cards"]) == p.hand_size else uni.contains(e["cards"])
                )
            over = True
        elif t == "reveal":
            fix(e["player"], e["character"])
            if e["cards"] is not None:
                restrict(e["player"], uni.exactly(e["cards"]))
        elif t == "support_look":
            if support is not None and e["token"] is not None:
                support = _condition(support, e["target"], e["token"] == "kaneki")
        elif t == "support_swap" and support is not None:
            a, b = e["by"], e["with"]
            support[a], support[b] = support[b], support[a]
    for pl in range(n):
        if len(allowed[pl]) == 1 and fixed[pl] is None:
            fix(pl, next(iter(allowed[pl])))
    return Filtered(
        problem=p,
        uni=uni,
        instants=instants,
        masks=masks,
        fixed=fixed,
        allowed=allowed,
        exact=exact,
        markers=markers,
        pool=pool,
        face_up=face_up,
        support=support,
        ring=ring,
        face=face,
        token=token,
        moved=moved,
        over=over,
        victim=victim,
        turns=turns,
        last_turn=last_turn,
        evidence=evidence,
    )


def _condition(prob: list[float], seat: int, has: bool) -> list[float]:
    if has:
        if prob[seat] <= 0:
            raise _Conflict
        return [1.0 if q == seat else 0.0 for q in range(len(prob))]
    out = list(prob)
    out[seat] = 0.0
    tot = sum(out)
    if tot <= 0:
        raise _Conflict
    return [x / tot for x in out]


def _move_token(
    face: list[bool], token: int, moved: bool, dest: int, ring: list | None, revealed: Mapping[int, str]
) -> tuple[int, bool]:
    """The ring rules: skipped hidden tiles turn face up, the tile left turns face down."""
    pl = token
    for _ in range(8):
        pl = (pl + 1) % 8
        if pl == dest:
            break
        if not face[pl]:
            face[pl] = True
            if ring is not None and pl in revealed:
                ring[pl] = revealed[pl]
    if moved:
        face[token] = False
    face[dest] = True
    if ring is not None and dest in revealed:
        ring[dest] = revealed[dest]
    return dest, True


# --------------------------------------------------------------------------- step 2


@dataclass(frozen=True)
class Behaviour:
    """A model of how players act, for a bot's beliefs (never for the public solve): players tend
    to hold the suits their character needs, to take them, and not to give or show them.

    Each factor multiplies the weight of a (character, hand) pair of a player: ``hold`` per
    needed card held (up to the number needed); ``took``/``gave``/``showed`` per card that
    player chose to take from me, give me, or show me, when the character needs that suit.
    """

    hold: float = 3.0
    took: float = 5.0
    took_unneeded: float = 0.7
    gave: float = 0.25
    showed: float = 0.4


def needs(c: Any) -> tuple[int, ...]:
    """How many cards of each suit a character wants (end objective, instant victory, special)."""
    need = [0] * 5
    for s, k in c.alive_with:
        need[s] = max(need[s], k)
    if c.instant:
        need[c.instant[0]] = max(need[c.instant[0]], c.instant[1])
    if c.inspector_x:
        need[DOVE] = max(need[DOVE], 2)
    return tuple(need)


def _classes(f: Filtered, behaviour: Behaviour | None) -> list[tuple[int, list[str]]]:
    """Group the unassigned characters by (instant class, which players may be them[, needs])."""
    n = f.problem.n
    unknown_players = [q for q in range(n) if f.fixed[q] is None]
    taken = {c for c in f.fixed if c is not None}
    rest = [c for c in f.problem.cast if c not in taken]
    groups: dict[tuple, list[str]] = {}
    for c in rest:
        inst = _CHARS[c].instant
        j = f.instants.index(inst) if inst else 0
        sig = (j, tuple(c in f.allowed[q] for q in unknown_players), needs(_CHARS[c]) if behaviour else None)
        groups.setdefault(sig, []).append(c)
    return [(sig[0], chars) for sig, chars in groups.items()]


class _Lattice:
    """The counting lattice: cards used so far per suit (one suit left implied) x characters
    used so far per class (one class left implied), the class cells flattened on the last axis."""

    def __init__(self, deck: tuple[int, ...], class_sizes: list[int]) -> None:
        present = [s for s in range(5) if deck[s] > 0]
        # Every hand has the same size, so the count of one suit follows from the others.
        drop = max(present, key=lambda s: deck[s])
        self.sdims = [s for s in present if s != drop]
        self.sshape = tuple(deck[s] + 1 for s in self.sdims)
        # The class with most characters needs no dimension: the others fix its count.
        order = sorted(range(len(class_sizes)), key=lambda c: -class_sizes[c])
        self.cdims = order[1:]
        self.cshape = tuple(class_sizes[c] + 1 for c in self.cdims)
        self.csize = int(np.prod(self.cshape)) if self.cshape else 1
        self.shape = (*self.sshape, self.csize)
        # For each class with a dimension: flat class cells x and x + e_c (both inside the box).
        self.cshift: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        if self.cshape:
            grid = np.arange(self.csize).reshape(self.cshape)
            for k, c in enumerate(self.cdims):
                src = tuple(slice(0, d - 1) if i == k else slice(None) for i, d in enumerate(self.cshape))
                dst = tuple(slice(1, d) if i == k else slice(None) for i, d in enumerate(self.cshape))
                self.cshift[c] = (grid[src].ravel(), grid[dst].ravel())
        self._boxes: dict[tuple[int, ...], tuple[tuple, tuple]] = {}

    def boxes(self, h: tuple[int, ...]) -> tuple[tuple, tuple]:
        """Slices of the source cells x and of the cells x + h (suit axes only)."""
        b = self._boxes.get(h)
        if b is None:
            off = [h[s] for s in self.sdims]
            src = (*(slice(0, d - o) for d, o in zip(self.sshape, off, strict=True)), slice(None))
            dst = (*(slice(o, d) for d, o in zip(self.sshape, off, strict=True)), slice(None))
            b = self._boxes[h] = (src, dst)
        return b

    def unit(self) -> np.ndarray:
        a = np.zeros(self.shape)
        a[(0,) * len(self.shape)] = 1.0
        return a

    def push(
        self,
        f: np.ndarray,
        groups: list[tuple[list[tuple[tuple[int, ...], float]], list[tuple[int, float]]]],
    ) -> np.ndarray:
        """Add one player: for each group of classes sharing weighted hands, every hand in it."""
        out = np.zeros(self.shape)
        for hands, cls in groups:
            acc = np.zeros(self.shape)
            for h, w in hands:
                src, dst = self.boxes(h)
                acc[dst] += w * f[src]
            for c, lw in cls:
                sh = self.cshift.get(c)
                if sh is None:
                    out += lw * acc if lw != 1.0 else acc
                else:
                    out[..., sh[1]] += lw * acc[..., sh[0]]
        return out


class _Counting:
    """Step 2 for one filtered log: the weighted options of every player, the forward and
    backward arrays, marginals, and exact sampling of whole worlds."""

    def __init__(self, f: Filtered, behaviour: Behaviour | None) -> None:
        self.f = f
        p = f.problem
        self.uni = uni = f.uni
        self.classes = _classes(f, behaviour)
        self.lat = lat = _Lattice(p.deck, [len(chars) for _j, chars in self.classes])
        self.order = [p.me] + [q for q in range(p.n) if q != p.me]
        self.ok = True
        # Per player: list of (class or -1, hand mask, per-hand weights, player-level weight).
        self.choices: list[list[tuple[int, int, dict[int, float], float]]] = []
        self.groups: list[list] = []
        lik = _likelihoods(f, self.classes, behaviour)
        for q in self.order:
            if f.fixed[q] is not None:
                ch = _CHARS[f.fixed[q]]
                inst = ch.instant
                row = [(-1, f.masks[q][f.instants.index(inst) if inst else 0], needs(ch), 1.0)]
            else:
                row = [
                    (c, f.masks[q][self.classes[c][0]], needs(_CHARS[self.classes[c][1][0]]), lik[q][c])
                    for c in range(len(self.classes))
                    if self.classes[c][1][0] in f.allowed[q]
                ]
            row = [r for r in row if r[1] and r[3] > 0]
            if not row:
                self.ok = False
                return
            choice_row = []
            by_key: dict[tuple, list[tuple[int, float]]] = {}
            hand_w: dict[tuple, dict[int, float]] = {}
            for c, m, need, lw in row:
                hw = {
                    hi: uni.weight[hi] * (_hold_factor(uni.hands[hi], need, behaviour) if behaviour else 1.0)
                    for hi in bits(m)
                }
                key = (m, need if behaviour else None)
                by_key.setdefault(key, []).append((c, lw))
                hand_w[key] = hw
                choice_row.append((c, m, hw, lw))
            self.choices.append(choice_row)
            self.groups.append(
                [([(uni.hands[hi], w) for hi, w in hand_w[key].items()], cls) for key, cls in by_key.items()]
            )
        m_players = len(self.order)
        self.fw = [lat.unit()]
        for i in range(m_players):
            self.fw.append(lat.push(self.fw[i], self.groups[i]))
        self.total = float(self.fw[m_players][tuple(d - 1 for d in lat.shape)])
        self.ok = self.total > 0
        self.bw: list[np.ndarray] | None = None
        self._samplers: list | None = None

    def backward(self) -> list[np.ndarray]:
        if self.bw is None:
            m_players = len(self.order)
            bw = [self.lat.unit()] * (m_players + 1)
            for i in range(m_players - 1, 0, -1):
                bw[i] = self.lat.push(bw[i + 1], self.groups[i])
            self.bw = bw
        return self.bw

    def marginals(self) -> list[dict[tuple[int, int], float]]:
        """For each player: (class or -1, hand index) -> probability."""
        lat, uni = self.lat, self.uni
        bw = self.backward()
        flip = tuple(slice(None, None, -1) for _ in lat.shape)
        cs = lat.csize
        out: list[dict[tuple[int, int], float]] = [{} for _ in self.order]
        for i, q in enumerate(self.order):
            fi = self.fw[i]
            rb = bw[i + 1][flip]
            joint: dict[tuple[int, int], float] = {}
            union = 0
            for _c, m, _hw, _lw in self.choices[i]:
                union |= m
            for hi in bits(union):
                src, dst = lat.boxes(uni.hands[hi])
                t = fi[src].reshape(-1, cs).T @ rb[dst].reshape(-1, cs)
                for c, m, hw, lw in self.choices[i]:
                    if not (m >> hi) & 1:
                        continue
                    sh = lat.cshift.get(c)
                    v = float(np.trace(t)) if sh is None else float(t[sh[0], sh[1]].sum())
                    if v > 0:
                        joint[(c, hi)] = hw[hi] * lw * v / self.total
            out[q] = joint
        return out

    def _prepare_sampling(self) -> list:
        """Per player, numpy arrays of its options: suit offsets, class decrement, weight."""
        lat, uni = self.lat, self.uni
        nc = len(lat.cdims)
        cindex = {c: k for k, c in enumerate(lat.cdims)}
        samplers = []
        for i in range(len(self.order)):
            offs, decs, ws, keys = [], [], [], []
            for c, m, hw, lw in self.choices[i]:
                dec = [0] * nc
                if c in cindex:
                    dec[cindex[c]] = 1
                for hi in bits(m):
                    h = uni.hands[hi]
                    offs.append([h[s] for s in lat.sdims])
                    decs.append(dec)
                    ws.append(hw[hi] * lw)
                    keys.append((c, hi))
            samplers.append(
                (
                    np.array(offs, dtype=np.int64).reshape(len(keys), len(lat.sdims)),
                    np.array(decs, dtype=np.int64).reshape(len(keys), nc),
                    np.array(ws),
                    keys,
                )
            )
        return samplers

    def sample(self, rng: Any) -> list[tuple[int, int]]:
        """One world drawn exactly from the model: (class or -1, hand index) per player (seat order)."""
        if self._samplers is None:
            self._samplers = self._prepare_sampling()
        lat = self.lat
        bw = self.backward()
        strides = np.array([int(np.prod(lat.cshape[k + 1 :])) for k in range(len(lat.cdims))], dtype=np.int64)
        rem_s = np.array([d - 1 for d in lat.sshape], dtype=np.int64)
        rem_c = np.array([d - 1 for d in lat.cshape], dtype=np.int64)
        out: list[tuple[int, int]] = [(-1, -1)] * len(self.order)
        for i, q in enumerate(self.order):
            offs, decs, ws, keys = self._samplers[i]
            rs = rem_s[None, :] - offs
            rc = rem_c[None, :] - decs
            ok = (rs >= 0).all(axis=1) & (rc >= 0).all(axis=1)
            vals = np.zeros(len(keys))
            if ok.any():
                cls = (rc[ok] @ strides) if len(strides) else np.zeros(int(ok.sum()), dtype=np.int64)
                idx = (*tuple(rs[ok].T), cls)
                vals[ok] = ws[ok] * bw[i + 1][idx]
            tot = vals.sum()
            x = rng.random() * tot
            k = int(np.searchsorted(np.cumsum(vals), x, side="right"))
            k = min(k, len(keys) - 1)
            while vals[k] <= 0:  # guard against rounding at the very end of the cumulative sum
                k -= 1
            out[q] = keys[k]
            rem_s = rs[k]
            rem_c = rc[k]
        return out


def _hold_factor(h: tuple[int, ...], need: tuple[int, ...], b: Behaviour) -> float:
    k = sum(min(h[s], need[s]) for s in range(5))
    return b.hold**k


def _likelihoods(f: Filtered, classes: list[tuple[int, list[str]]], b: Behaviour | None) -> list[list[float]]:
    """Per player and class: how likely the choices I saw that player make are, under ``b``."""
    n = f.problem.n
    out = [[1.0] * len(classes) for _ in range(n)]
    if b is None:
        return out
    for c, (_j, chars) in enumerate(classes):
        need = needs(_CHARS[chars[0]])
        for kind, q, s in f.evidence:
            if kind == "took":
                out[q][c] *= b.took if need[s] else b.took_unneeded
            elif kind == "gave" and need[s]:
                out[q][c] *= b.gave
            elif kind == "showed" and need[s]:
                out[q][c] *= b.showed
    return out


def solve_problem(
    problem: Problem,
    subset: Sequence[int] | None = None,
    marginals: bool = True,
    behaviour: Behaviour | None = None,
    flow: bool = True,
    sampled: bool = True,
) -> Solution:
    """The posterior for a checked problem (or a subset of its log).

    Without a behaviour model and with ``flow``, the exact card-flow pass
    (:mod:`solvers.ghoul.flow`) runs when the table is small enough; otherwise (or for a bot's
    behaviour model) the per-player bound of steps 1-2 above (``exact`` false)."""
    try:
        f = filter_log(problem, subset)
    except _Conflict:
        return Solution(status="contradiction")
    if flow and behaviour is None:
        try:
            fr = solve_flow(problem, f.fixed, f.allowed, subset, chance=problem.exchange_chance)
        except FlowConflict:
            return Solution(status="contradiction")
        if fr is not None:
            return _from_flow(f, fr)
        try:
            # Over the budget: while no card has moved, the deal factored by player (the same
            # answer when both run); then the same pass started only from the deals that can meet
            # the log, then sampled deals with CP-SAT's certain facts.
            fr = solve_factored(problem, f.fixed, f.allowed, subset, chance=problem.exchange_chance)
            if fr is not None:
                return _from_flow(f, fr)
            fr = solve_flow(problem, f.fixed, f.allowed, subset, chance=problem.exchange_chance, prune=True,
                            restricted_deal=True)
            if fr is not None:
                return _from_flow(f, fr)
            if sampled:
                return _sampled(f, subset, marginals)
        except FlowConflict:
            return Solution(status="contradiction")
    return _bound(f, behaviour, marginals)


def _bound(f: Filtered, behaviour: Behaviour | None, marginals: bool) -> Solution:
    """The per-player bound of steps 1-2 above (``exact`` false; its certain facts are true but
    may be incomplete)."""
    problem = f.problem
    cnt = _Counting(f, behaviour)
    if not cnt.ok:
        return Solution(status="contradiction")
    sol = Solution(
        status="ok",
        exact=False,
        worlds=cnt.total,
        filtered=f,
        classes=[(j, chars) for j, chars in cnt.classes],
        counting=cnt,
    )
    if not marginals:
        return sol
    n = problem.n
    uni = f.uni
    sol.joint = cnt.marginals()
    sol.hand_probs = [{} for _ in range(n)]
    for q in range(n):
        hp: dict[tuple[int, ...], float] = {}
        for (_c, hi), v in sol.joint[q].items():
            hh = uni.hands[hi]
            hp[hh] = hp.get(hh, 0.0) + v
        sol.hand_probs[q] = hp
    # Identities: a class's probability is shared evenly by its characters.
    for q in range(n):
        ident: dict[str, float] = {}
        if f.fixed[q] is not None:
            ident[f.fixed[q]] = 1.0
        else:
            pc: dict[int, float] = {}
            for (c, _hi), v in sol.joint[q].items():
                pc[c] = pc.get(c, 0.0) + v
            for c, v in pc.items():
                chars = cnt.classes[c][1]
                for ch in chars:
                    ident[ch] = ident.get(ch, 0.0) + v / len(chars)
        sol.identity.append(ident)
    return sol


def _from_flow(f: Filtered, fr: FlowResult) -> Solution:
    """A :class:`Solution` from the exact pass: one class per character still unknown."""
    p = f.problem
    uni = f.uni
    unknown_chars = sorted({c for q in range(p.n) if f.fixed[q] is None for c in fr.identity[q]})
    classes: list[tuple[int, list[str]]] = []
    class_of: dict[str, int] = {}
    for c in unknown_chars:
        inst = _CHARS[c].instant
        class_of[c] = len(classes)
        classes.append((f.instants.index(inst) if inst in f.instants else 0, [c]))
    sol = Solution(
        status="ok",
        exact=not fr.approximate,
        worlds=fr.total * math.prod(math.factorial(k) for k in p.deck),
        filtered=f,
        classes=classes,
        approximate=fr.approximate,
        method="flow",
        counting=fr,
    )
    for q in range(p.n):
        sol.hand_probs.append({uni.hands[hi]: v for hi, v in fr.hand_probs[q].items()})
        sol.identity.append({c: float(v) for c, v in fr.identity[q].items()})
        fixed = f.fixed[q] is not None
        sol.joint.append({(-1 if fixed else class_of[c], hi): v for (c, hi), v in fr.char_hand[q].items()})
    return sol


def _sampled(f: Filtered, subset: Sequence[int] | None, marginals: bool) -> Solution:
    """Past the exact pass's budget: probabilities from sampled deals (:mod:`solvers.ghoul.sampled`,
    with their stated 95% error) and the complete certain facts from CP-SAT
    (:mod:`solvers.ghoul.cpsat`), which starts from the sampled worlds (each one shows facts that
    are not certain) and the per-player bound (a sound outer bound: the facts it proves need no
    check). Should even a small batch of sampled deals be too large, the probabilities are the
    bound's (``"method": "bound"``) while the certain facts are still CP-SAT's. A fact CP-SAT
    could not settle within its caps is listed in ``undecided`` and left out of the certain facts.
    Without ``marginals`` only the certain facts are computed. Raises :class:`FlowConflict`."""
    from solvers.ghoul import cpsat, sampled

    p = f.problem
    bound = _bound(f, None, True)
    if bound.status != "ok":  # the bound holds every world: none fits
        raise FlowConflict
    outer_hands = [{hi for (_c, hi), v in bound.joint[q].items() if v > 0} for q in range(p.n)]
    outer_chars = [{c for c, v in bound.identity[q].items() if v > 0} for q in range(p.n)]
    est = sampled.estimate(p, f.fixed, f.allowed, p.exchange_chance, subset) if marginals else None
    seen_hands: list[set[int]] | None = None
    seen_chars: list[set[str]] | None = None
    if est is not None:
        H, W = est.result.extra["H"], est.result.extra["W"]
        live = H[W.sum(axis=1) > 0]
        seen_hands = [set(np.unique(live[:, q]).tolist()) for q in range(p.n)]
        seen_chars = [set(ident) for ident in est.result.identity]
    pos = cpsat.possible(p, f.fixed, f.allowed, p.exchange_chance, subset, seen_hands, seen_chars,
                         outer_hands, outer_chars)
    if est is None and marginals:
        sol = bound
    elif est is None:
        sol = Solution(status="ok", exact=False, filtered=f, method="sample")
    else:
        sol = _from_flow(f, est.result)
        sol.exact = False
        sol.method = "sample"
        sol.error = est.error
        sol.samples = est.deals
    sol.approximate = sorted(set(sol.approximate) | set(pos.approximate))
    sol.certain = cpsat.certain(p, pos)
    sol.undecided = cpsat.undecided(p, pos)
    return sol


def sample_worlds(sol: Solution, k: int, rng: Any) -> list[tuple[list[tuple[int, ...]], list[str], int]]:
    """``k`` worlds drawn from the solution's distribution: (holdings, characters, Kaneki token seat)."""
    if sol.method in ("flow", "sample"):
        return _sample_flow(sol, k, rng)
    cnt: _Counting = sol.counting
    f = cnt.f
    n = f.problem.n
    out = []
    for _ in range(k):
        keys = cnt.sample(rng)
        hands = [cnt.uni.hands[hi] for _c, hi in keys]
        chars: list[str] = [f.fixed[q] or "" for q in range(n)]
        pools = {c: list(ch) for c, (_j, ch) in enumerate(cnt.classes)}
        for q in range(n):
            c = keys[q][0]
            if c >= 0:
                pool = pools[c]
                chars[q] = pool.pop(int(rng.random() * len(pool)) % len(pool))
        tk = -1
        if f.support is not None:
            x = rng.random()
            acc = 0.0
            for q, v in enumerate(f.support):
                acc += v
                if x < acc:
                    tk = q
                    break
            if tk < 0:
                tk = max(range(n), key=lambda q: f.support[q])
        out.append((hands, chars, tk))
    return out


def _support_seat(f: Filtered, rng: Any) -> int:
    if f.support is None:
        return -1
    x = rng.random()
    acc = 0.0
    for q, v in enumerate(f.support):
        acc += v
        if x < acc:
            return q
    return max(range(f.problem.n), key=lambda q: f.support[q])


def _sample_flow(sol: Solution, k: int, rng: Any) -> list[tuple[list[tuple[int, ...]], list[str], int]]:
    f = sol.filtered
    assert f is not None
    out = []
    for _ in range(k):
        hands, chars = flow_sample(sol.counting, f.fixed, rng)
        out.append(([f.uni.hands[h] for h in hands], chars, _support_seat(f, rng)))
    return out


# --------------------------------------------------------------------------- contradictions


def minimal_conflict(problem: Problem) -> list[int]:
    """A minimal inconsistent subset of log entries (deletion-based)."""
    n = len(problem.entries)

    def ok(entries: Sequence[int]) -> bool:
        return solve_problem(problem, entries, marginals=False).status == "ok"

    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(range(mid)):
            lo = mid + 1
        else:
            hi = mid
    keep = list(range(lo))
    # Earliest first: a hand typed later supersedes one typed before it, so the conflict keeps
    # the newer facts and names the entries a person would check.
    for i in range(lo - 1):
        trial = [j for j in keep if j != i]
        if not ok(trial):
            keep = trial
    return keep


def _conflict_message(problem: Problem, conflict: list[int]) -> str:
    parts = [problem.describe(i) for i in conflict]
    if len(parts) == 1:
        return f"No deal fits {parts[0]}: it contradicts the game setup."
    if len(parts) == 2:
        return f"{parts[0][0].upper()}{parts[0][1:]} and {parts[1]} contradict each other: no deal fits both."
    return "No deal fits all of " + ", ".join(parts[:-1]) + f" and {parts[-1]} together."


# --------------------------------------------------------------------------- output


def _summary(sol: Solution) -> dict[str, Any]:
    f = sol.filtered
    assert f is not None
    p = f.problem
    names = p.names
    suits = [s for s in range(5) if p.deck[s] > 0]
    hands: dict[str, Any] = {}
    for q in range(p.n):
        hp = sol.hand_probs[q]
        per = {}
        for s in suits:
            per[SUITS[s]] = {
                "p_at_least_one": _r(sum(v for h, v in hp.items() if h[s] >= 1)),
                "p_at_least_two": _r(sum(v for h, v in hp.items() if h[s] >= 2)),
                "expected": _r(sum(v * h[s] for h, v in hp.items())),
            }
        hands[names[q]] = per
    certain = _certain(sol)
    identities = {
        names[q]: {c: _r(v) for c, v in sorted(sol.identity[q].items(), key=lambda kv: -kv[1])} for q in range(p.n)
    }
    factions = {}
    for q in range(p.n):
        fr = {"human": 0.0, "ghoul": 0.0, "inspector": 0.0}
        for c, v in sol.identity[q].items():
            for kind in _CHARS[c].kinds:
                fr[kind] += v
        factions[names[q]] = {k: _r(v) for k, v in fr.items()}
    return {
        "status": "ok",
        "exact": sol.exact,
        "method": sol.method,
        "approximate": list(sol.approximate),
        "exchange_chance": p.exchange_chance,
        "worlds": sol.worlds,
        "hands": hands,
        "certain": certain,
        "identities": identities,
        "factions": factions,
        "objectives": objectives(sol),
        "markers": {names[q]: f.markers[q] for q in range(p.n)},
        "pool": f.pool,
        "support": {names[q]: _r(v) for q, v in enumerate(f.support)} if f.support is not None else None,
        "board": {"ring": f.ring, "face_up": list(f.face), "token": f.token, "first_move": not f.moved}
        if f.ring is not None
        else None,
    } | ({"error_95": _r(sol.error), "samples": sol.samples} if sol.method == "sample" else {}) | (
        {"undecided": sol.undecided} if sol.undecided is not None else {}
    )


def certain_facts(
    config: Mapping[str, Any], log: Sequence[Mapping[str, Any]], *, exact: bool = True, sampled: bool = True
) -> dict[str, Any] | None:
    """Only the certain facts (``solve()``'s ``certain``), or ``None`` when the log is a
    contradiction: the cheap oracle for explanations that solve many subsets of a log (no
    advice, objectives or minimal conflict). Raises :class:`SolverInputError`.

    ``exact=False`` skips the card-flow pass and gives the per-player bound's facts: every one
    is true (the bound's hand sets hold every possible hand) but some may be missing, and it is
    100-300 times faster, which makes it a first test before the exact pass.

    ``sampled=False``: past the card-flow pass's budget, the bound's facts instead of sampled deals
    and CP-SAT's (sound, possibly incomplete, and seconds cheaper: an explanation's many subsets)."""
    problem = build_problem(config, log)
    sol = solve_problem(problem, flow=exact, sampled=sampled)
    if sol.status != "ok":
        return None
    return _certain(sol)


def flow_certain_facts(config: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The certain facts of the card-flow pass that drops early the rows that cannot reach the end
    of the log (``solve_flow(..., prune=True)``), or ``None`` when that pass cannot tell (over
    its budget, or no world fits). Raises :class:`SolverInputError`.

    When the ordinary pass is within its budget these are :func:`certain_facts`' facts (the same
    rows reach the end, with the same weights); when it is not, :func:`certain_facts` gives the
    bound's, and these are the model's exact facts, which hold the bound's. Either way a fact
    missing here fails in a world of positive weight: a test that shows a fact is *not* certain
    (for explanations), often far cheaper than the ordinary pass."""
    problem = build_problem(config, log)
    try:
        f = filter_log(problem)
        fr = solve_flow(problem, f.fixed, f.allowed, chance=problem.exchange_chance, prune=True)
    except (_Conflict, FlowConflict):
        return None
    if fr is None:
        return None
    return _certain(_from_flow(f, fr))


def _certain(sol: Solution) -> dict[str, Any]:
    if sol.certain is not None:
        return sol.certain
    f = sol.filtered
    assert f is not None
    p = f.problem
    suits = [s for s in range(5) if p.deck[s] > 0]
    certain: dict[str, Any] = {}
    for q in range(p.n):
        hp = sol.hand_probs[q]
        lo = {SUITS[s]: min(h[s] for h in hp) for s in suits}
        hi = {SUITS[s]: max(h[s] for h in hp) for s in suits}
        only = next(iter(hp)) if len(hp) == 1 else None
        ident = sol.identity[q]
        certain[p.names[q]] = {
            "has": {s: k for s, k in lo.items() if k > 0},
            "lacks": [s for s, k in hi.items() if k == 0],
            "at_most": hi,
            "hand": [SUITS[s] for s in range(5) for _ in range(only[s])] if only else None,
            "character": next(iter(ident)) if len(ident) == 1 else None,
            "not_characters": sorted(c for c in p.cast if c not in ident),
        }
    return certain


def objectives(sol: Solution) -> dict[str, dict[str, dict[str, Any]]]:
    """For each player and each character they may be: is each objective still reachable,
    and how likely it would be met if the game ended now by the Pool running out."""
    f = sol.filtered
    assert f is not None
    p = f.problem
    uni = f.uni
    out: dict[str, dict[str, dict[str, Any]]] = {}
    alive = [q != f.victim for q in range(p.n)]
    class_of = {c: i for i, (_j, chars) in enumerate(sol.classes) for c in chars}
    seat_chance: dict[str, float] = {}
    for q in range(p.n):
        for c, v in sol.identity[q].items():
            seat_chance.setdefault(c, 0.0)
            seat_chance[c] += v if alive[q] else 0.0
    for q in range(p.n):
        row = {}
        for c, pc in sol.identity[q].items():
            ch = _CHARS[c]
            d: dict[str, Any] = {"p": _r(pc)}
            if ch.alive_with:
                num = den = 0.0
                mine = -1 if f.fixed[q] is not None else class_of[c]
                for (cl, hi), v in sol.joint[q].items():
                    if cl != mine:
                        continue
                    den += v
                    h = uni.hands[hi]
                    if all(h[s] >= k for s, k in ch.alive_with):
                        num += v
                d["alive_with"] = {
                    "reachable": alive[q] and all(p.deck[s] >= k for s, k in ch.alive_with),
                    "p_met_now": _r(num / den) if den > 0 and alive[q] else 0.0,
                }
            if ch.instant:
                s, k = ch.instant
                d["instant"] = {"reachable": not f.over and p.deck[s] >= k}
            if ch.kill:
                d["kill"] = {"reachable": not f.over, "target": ch.kill}
            if ch.partner:
                d["partner"] = {
                    "partner": ch.partner,
                    "in_play": ch.partner in p.cast,
                    "p_alive": _r(seat_chance.get(ch.partner, 0.0)) if ch.partner in p.cast else 0.0,
                }
            row[c] = d
        out[p.names[q]] = row
    return out


def _r(x: float) -> float:
    return round(float(x), 6)


def solve(config: Mapping[str, Any], log: Sequence[Mapping[str, Any]], *, advice: bool = True) -> dict[str, Any]:
    """Everything one seat can know: hands, certain facts, identities, objectives and advice.

    Raises :class:`SolverInputError` (one line) on input it cannot read; returns
    ``{"status": "contradiction", ...}`` when the log cannot all be true.
    """
    problem = build_problem(config, log)
    sol = solve_problem(problem)
    if sol.status != "ok":
        conflict = minimal_conflict(problem)
        return {
            "status": "contradiction",
            "conflict": conflict,
            "entries": [dict(problem.raw[i]) for i in conflict],
            "message": _conflict_message(problem, conflict),
        }
    out = _summary(sol)
    if advice:
        from solvers.ghoul.advice import compute_advice

        out["advice"] = compute_advice(sol)
    return out
