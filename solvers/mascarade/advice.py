"""Advice: what announcing each mask is worth, whether to counter-claim, what to do this turn.

The same code plays for the ``strong`` bot and answers ``unmask solve mascarade``.

Value. A coin position is worth an estimate of my chance to win: 1 (or 1/k when k players
share the win) once the game is won, 0 once it is lost, and otherwise a softmax of the coins,
``exp(beta * mine) / sum(exp(beta * theirs))``. Expected gains below are differences of that
estimate ("win-chance points"), so +0.05 means "about five points more likely to win".

Announcing mask ``m`` (one step of look-ahead over my belief):

* I hold ``m`` (probability ``p``): I use the power (a challenge changes nothing for me);
* player ``j`` holds it (probability ``h_j``): they counter-claim with the chance that they know
  their own card (the tracker's knowledge model, ``know[j, j]``); then they use the power and I
  pay 1; if they stay silent my bluff goes through and I use the power;
* a table card holds it: nobody can contest; my bluff goes through.

Counter-claiming when ``A`` announced ``m``: if I claim, every claimant reveals — I use the power
if I hold it, else I pay 1 and, when nobody holds it, ``A`` pays too and the power is lost.
If I pass, ``A`` uses the power whatever their card (unless a later player truly holds it and
claims). Blocking a bluff that would win the game is therefore worth a coin.

Power choices are greedy (the richest target for the Sorceress and the Trickster; the Guru
picks the player least likely to know their card; ...). All of this is a model, not a
solution of the game: the probabilities it reads are exact (or bounded), the opponents'
behaviour is guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.mascarade.data_files import load_masks, load_rules
from solvers.mascarade.model import Tracker

BETA = 0.35
INFO = {"spy": 0.6, "princess": 0.3, "fool": 0.3}  # coins-equivalent worth of what the power lets me see or do


@dataclass
class Situation:
    """What the advice reads: my belief's marginals and the public table."""

    me: int
    n: int
    coins: list[float]
    court: float
    order: list[int]
    masks: list[str]
    probs: np.ndarray  # [place, mask index]
    know: np.ndarray  # [player, place]: chance the player knows the card there
    bluff: list[float] | None = None  # per player: chance of a false "me too" (None: nobody bluffs)
    beta: float = BETA

    @property
    def places(self) -> int:
        return self.probs.shape[0]

    def col(self, mask: str) -> int:
        return self.masks.index(mask)


def situation_of(tracker: Tracker, beta: float = BETA) -> Situation:
    """The advice's input, read off a tracker."""
    return Situation(me=tracker.me, n=len(tracker.names), coins=[float(c) for c in tracker.coins],
                     court=float(tracker.court), order=list(tracker.order), masks=list(tracker.belief.ids),
                     probs=tracker.belief.marginals(), know=tracker.know.copy(),
                     bluff=[tracker.bluff_rate(j) for j in range(len(tracker.names))], beta=beta)


# --------------------------------------------------------------------------- value of a position


def win_chance(coins: list[float], me: int, beta: float = BETA, winners: list[int] | None = None) -> float:
    """My estimated chance to win from ``coins`` (or the certain result when ``winners`` is known)."""
    if winners is not None:
        return 1.0 / len(winners) if me in winners else 0.0
    top = max(coins)
    ex = [math.exp(beta * (c - top)) for c in coins]
    return ex[me] / sum(ex)


def _end_winners(coins: list[float]) -> list[int] | None:
    win = load_rules().win
    rich = [i for i, c in enumerate(coins) if c >= win]
    if rich:
        return rich
    if min(coins) <= 0:
        top = max(coins)
        return [i for i, c in enumerate(coins) if c == top]
    return None


def _neighbours(order: list[int], seat: int) -> tuple[int, int]:
    i = order.index(seat)
    return order[(i + 1) % len(order)], order[(i - 1) % len(order)]


def _take(coins: list[float], src: int, dst: int, k: float) -> None:
    k = max(0.0, min(k, coins[src]))
    coins[src] -= k
    coins[dst] += k


def apply_power(sit: Situation, user: int, mask: str, coins: list[float], court: float
                ) -> tuple[list[float], float, list[int] | None]:
    """The coins after ``user`` uses ``mask``'s power with greedy choices (a model, see module doc)."""
    mk = load_masks()[mask]
    eff = mk.effect
    c = list(coins)
    others = [i for i in range(sit.n) if i != user]
    won = None
    if eff == "bank":
        c[user] += mk.amount
    elif eff == "judge":
        c[user] += court
        court = 0.0
    elif eff == "widow":
        c[user] = max(c[user], float(mk.target))
    elif eff == "cheater":
        if c[user] >= mk.threshold:
            won = [user]
    elif eff == "peasant":
        c[user] += mk.amount
    elif eff == "patron":
        c[user] += mk.amount
        for nb in _neighbours(sit.order, user):
            c[nb] += mk.neighbours
    elif eff == "thief":
        for nb in _neighbours(sit.order, user):
            _take(c, nb, user, mk.amount)
    elif eff == "beggar":
        i = sit.order.index(user)
        for k in range(1, sit.n):
            o = sit.order[(i + k) % sit.n]
            if c[o] > c[user]:
                _take(c, o, user, mk.amount)
    elif eff == "trickster":
        t = max(others, key=lambda j: c[j])
        _take(c, t, user, mk.amount)
    elif eff == "sorceress":
        t = max(others, key=lambda j: c[j])
        c[user], c[t] = c[t], c[user]
    elif eff == "guru":
        t = guru_target(sit, user, c)
        _take(c, t, user, min(mk.amount, c[t]) * wrong_chance(sit, t))
    elif eff in ("princess", "fool"):
        c[user] += mk.amount
    elif eff == "puppeteer":
        rich = sorted(others, key=lambda j: -c[j])[:2]
        for t in rich:
            _take(c, t, user, mk.amount)
    if won is None:
        won = _end_winners(c)
    return c, court, won


def wrong_chance(sit: Situation, seat: int) -> float:
    """How likely ``seat`` names its own mask wrongly (it does not know its card: a coin toss)."""
    return 0.5 * (1.0 - float(sit.know[seat, seat])) if seat != sit.me else 1.0 - float(sit.probs[seat].max())


def guru_target(sit: Situation, user: int, coins: list[float]) -> int:
    others = [i for i in range(sit.n) if i != user]
    return max(others, key=lambda j: (min(4.0, coins[j]) * wrong_chance(sit, j), coins[j]))


def _value(sit: Situation, coins: list[float], winners: list[int] | None) -> float:
    return win_chance(coins, sit.me, sit.beta, winners)


def _fined(coins: list[float], court: float, who: list[int]) -> tuple[list[float], float]:
    c = list(coins)
    for i in who:
        k = min(1.0, c[i])
        c[i] -= k
        court += k
    return c, court


def _outcome(sit: Situation, user: int | None, mask: str, fined: list[int]) -> float:
    """My value after ``user`` (None: nobody) uses the power, then ``fined`` pay 1 each."""
    coins, court, won = list(sit.coins), sit.court, None
    if user is not None:
        coins, court, won = apply_power(sit, user, mask, coins, court)
    if won is not None and load_masks()[mask].effect == "cheater":
        return _value(sit, coins, won)
    coins, court = _fined(coins, court, fined)
    return _value(sit, coins, _end_winners(coins))


def power_gain(sit: Situation, mask: str) -> float:
    """What using ``mask`` (for sure, uncontested) is worth to me now, info bonuses included."""
    base = _value(sit, sit.coins, None)
    gain = _outcome(sit, sit.me, mask, []) - base
    bonus = INFO.get(load_masks()[mask].effect, 0.0)
    return gain + bonus * _coin_worth(sit)


def _coin_worth(sit: Situation) -> float:
    """Win-chance points of one more coin for me (to price information in coins)."""
    c = list(sit.coins)
    base = win_chance(c, sit.me, sit.beta)
    c[sit.me] += 1
    return win_chance(c, sit.me, sit.beta) - base


def _holders(sit: Situation, mask: str, exclude: tuple[int, ...] = ()) -> tuple[np.ndarray, float]:
    """P(each player holds ``mask``) and P(a table card holds it), scaled to one holder."""
    col = sit.probs[:, sit.col(mask)]
    total = float(col.sum()) or 1.0
    h = col / total
    h_players = h[: sit.n].copy()
    for i in exclude:
        h_players[i] = 0.0
    return h_players, float(h[sit.n:].sum())


def announce_ev(sit: Situation, mask: str) -> dict:
    """Expected gain (win-chance points) of announcing ``mask`` now, and its parts."""
    base = _value(sit, sit.coins, None)
    u_me = _outcome(sit, sit.me, mask, [])
    u_caught = _outcome(sit, None, mask, [sit.me])  # a false "me too" exposes my bluff: I pay, nobody acts
    h, h_table = _holders(sit, mask)
    p = float(h[sit.me])
    bluff = [0.0 if j == sit.me or sit.bluff is None else sit.bluff[j] for j in range(sit.n)]
    quiet = float(np.prod([1 - b for b in bluff]))  # nobody says "me too" falsely

    def bluff_through(holder: int | None) -> float:
        q = quiet / (1 - bluff[holder]) if holder is not None and bluff[holder] < 1 else quiet
        return q * u_me + (1 - q) * u_caught

    ev = p * u_me + h_table * bluff_through(None)
    contest = 0.0
    for j in range(sit.n):
        if j == sit.me or h[j] == 0:
            continue
        c = float(sit.know[j, j])
        u_j = _outcome(sit, j, mask, [sit.me])
        ev += h[j] * ((1 - c) * bluff_through(j) + c * u_j)
        contest += h[j] * c
    bonus = INFO.get(load_masks()[mask].effect, 0.0) * _coin_worth(sit) * (1 - contest)
    return {"p_hold": float(sit.probs[sit.me, sit.col(mask)]), "ev": ev - base + bonus, "contest": contest}


def counter_ev(sit: Situation, announcer: int, mask: str, claimants: list[int] | None = None,
               later: list[int] | None = None) -> dict:
    """Claim or pass when ``announcer`` announced ``mask``: the two expected values (win-chance points)."""
    claimants = list(claimants or [announcer])
    later = list(later or [])
    me = sit.me
    base = _value(sit, sit.coins, None)
    col = sit.probs[:, sit.col(mask)]
    p = float(col[me])
    a = float(col[announcer])
    if len(claimants) > 1:  # a reveal happens anyway: only my own card matters
        others_true = [k for k in claimants if col[k] > 0.5]
        user = others_true[0] if others_true else None
        false = [k for k in claimants if k not in others_true]
        u_pass = _outcome(sit, user, mask, false)
        u_claim_hold = _outcome(sit, me, mask, false)
        u_claim_not = _outcome(sit, user, mask, [*false, me])
        ev_claim = p * u_claim_hold + (1 - p) * u_claim_not
        return {"claim": ev_claim > u_pass, "ev_claim": ev_claim - base, "ev_pass": u_pass - base, "p_hold": p}
    rest = 1.0 - p - a
    later_true = [(j, float(col[j]) * float(sit.know[j, j])) for j in later if j != me]
    u_a = _outcome(sit, announcer, mask, [])
    ev_pass = (1 - sum(x for _, x in later_true)) * u_a
    for j, x in later_true:
        ev_pass += x * _outcome(sit, j, mask, [announcer])
    ev_claim = p * _outcome(sit, me, mask, [announcer]) + a * _outcome(sit, announcer, mask, [me])
    ev_claim += max(0.0, rest) * _outcome(sit, None, mask, [announcer, me])
    return {"claim": ev_claim > ev_pass, "ev_claim": ev_claim - base, "ev_pass": ev_pass - base, "p_hold": p}


# --------------------------------------------------------------------------- turn choice


def card_value(sit: Situation, dist: np.ndarray) -> float:
    """What holding a card with mask distribution ``dist`` is worth (announced later, for sure)."""
    return float(sum(dist[k] * max(0.0, power_gain(sit, m)) for k, m in enumerate(sit.masks) if dist[k] > 0))


def best_turn(sit: Situation, legal: list[tuple], margin: float = 0.004, gamma: float = 0.7) -> tuple[tuple, dict]:
    """The turn action with the best estimated value, and the table of estimates."""
    table: dict = {"announce": {}, "swap": {}, "look": None}
    best: tuple | None = None
    best_v = -math.inf
    anns = [a for a in legal if a[0] == "announce"]
    for a in anns:
        r = announce_ev(sit, a[1])
        table["announce"][a[1]] = r
        if r["ev"] > best_v:
            best, best_v = a, r["ev"]
    me = sit.me
    mine = sit.probs[me]
    sure = float(mine.max())
    keep_value = card_value(sit, mine) * sure
    swaps = [a for a in legal if a[0] == "swap"]
    take, take_v = None, -math.inf
    for t in range(sit.places):
        if t == me or not any(x[1] == t for x in swaps):
            continue
        there = sit.probs[t]
        v = gamma * (card_value(sit, there) * float(there.max()) - keep_value)
        table["swap"][t] = v
        if v > take_v:
            take, take_v = t, v
    if best is not None and best_v >= margin and best_v >= take_v:
        return best, table
    if take is not None and take_v > margin:
        return ("swap", take, True), table
    if ("look",) in legal and sure < 0.8:
        table["look"] = gamma * card_value(sit, mine) * (1 - sure)
        return ("look",), table
    if best is not None and best_v > 0:
        return best, table
    # Pretend with the opponent whose good card I would most like them to doubt (a later bluff).
    target, tv = None, -math.inf
    for a in swaps:
        t = a[1]
        v = card_value(sit, sit.probs[t]) * (float(sit.know[t, t]) if t < sit.n else 0.2)
        if v > tv:
            target, tv = t, v
    if target is None:
        return legal[0], table
    return ("swap", target, False), table


def choose_power(sit: Situation, legal: list[tuple]) -> tuple:
    """A greedy choice for the power waiting on me (see module doc)."""
    kind = legal[0][1]
    me = sit.me
    coins = sit.coins
    if kind in ("sorceress", "trickster"):
        return max(legal, key=lambda a: (coins[a[2]], -a[2]))
    if kind == "guru":
        t = guru_target(sit, me, coins)
        return ("power", "guru", t) if ("power", "guru", t) in legal else legal[0]
    if kind == "puppeteer":
        return max(legal, key=lambda a: (coins[a[2]] + coins[a[3]], -a[2]))
    if kind == "princess":  # learn the card I know least about
        return max(legal, key=lambda a: (_entropy(sit.probs[a[2]]), coins[a[2]]))
    if kind == "spy":  # look where the best card may hide, or where I know least
        return max(legal, key=lambda a: (card_value(sit, sit.probs[a[2]]) + 0.01 * _entropy(sit.probs[a[2]])))
    if kind == "fool":  # shake the knowledge of the two best-informed opponents; I keep track (pretend)
        def score(a: tuple) -> float:
            return sum(float(sit.know[x, x]) * coins[x] if x < sit.n else 0.0 for x in (a[2], a[3]))
        best = max((a for a in legal if a[4] is False), key=score)
        return best
    return legal[0]


def _entropy(dist: np.ndarray) -> float:
    d = dist[dist > 0]
    return float(-(d * np.log(d)).sum())


def spy_decision(sit: Situation, mine: str, theirs: str) -> bool:
    """After a Spy look: really swap when their card is worth more to me than mine."""
    return power_gain(sit, theirs) > power_gain(sit, mine)
