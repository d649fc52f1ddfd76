"""The Mascarade session format, read one entry at a time into a seat's belief and table state.

The format is what a person types at a real table (``docs/mascarade.md``): the players in
seat order, the opening layout, then each turn's entries — who swapped-or-pretended with whom
(and, for me, whether I swapped), who looked (and what I saw), who announced, who claimed,
what was revealed, the coins. Bots produce the same entries from their views
(:mod:`solvers.mascarade.observations`), so one tracker serves both.

Besides the layout belief, the tracker keeps the public table (coins, courthouse, seating
order, the announcement in progress) and a *knowledge model*: for every player and place, the
chance that this player knows the card there (1 after a look, a reveal or the opening; 0 after
someone else's hidden swap touched it; the average of the two places after their own swap,
whose outcome we do not know). The advice uses it to guess who would dare a counter-claim.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.mascarade.data_files import load_masks, load_rules
from solvers.mascarade.belief import Belief, Contradiction

ENTRY_TYPES = ("turn", "swap", "look", "spy", "shown", "announce", "claim", "pass", "uncontested", "reveal",
               "puppeteer", "coins", "power", "name")


class SolverInputError(ValueError):
    """A session the solver cannot read; the message is one line a user can act on."""


@dataclass
class Setup:
    """The parsed config: who plays, which cards, what this seat saw at the opening."""

    names: list[str]
    places: list[str]
    me: int
    cards: list[str]
    opening: list[str] | None
    coins: list[int]
    swap_prior: list[float]
    claim_weight: float = 1.0
    exact_limit: int = 200_000
    particles: int = 20_000
    seed: int = 0
    court: int = 0
    order: list[int] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.names)


def _fail(msg: str) -> None:
    raise SolverInputError(msg)


def parse_config(config: Any) -> Setup:
    """Check and read the session config (see ``docs/mascarade.md``)."""
    if not isinstance(config, dict):
        _fail("The config must be a JSON object.")
    known = {"players", "me", "masks", "table", "opening", "coins", "court", "order", "swap_prior", "claim_weight",
             "exact_limit", "particles", "seed"}
    extra = set(config) - known
    if extra:
        _fail(f"Unknown config field(s): {', '.join(sorted(extra))}.")
    names = config.get("players")
    if not isinstance(names, list) or not 4 <= len(names) <= 12 or not all(isinstance(x, str) and x for x in names):
        _fail("config.players must list the 4 to 12 player names in seat order (clockwise).")
    if len(set(names)) != len(names):
        _fail("config.players: the player names must be different.")
    n = len(names)
    rules = load_rules()
    masks = load_masks()
    cards = config.get("masks") or list(rules.sets[n])
    if not isinstance(cards, list) or not all(isinstance(m, str) for m in cards):
        _fail("config.masks must be a list of mask ids.")
    for m in cards:
        if m not in masks:
            _fail(f"config.masks: unknown mask {m!r}; the masks are: {', '.join(masks)}.")
    table = config.get("table", max(0, rules.cards - n))
    if not isinstance(table, int) or isinstance(table, bool) or table < 0:
        _fail("config.table must be the number of table cards (0, 1 or 2).")
    if len(cards) != n + table:
        _fail(f"config: {n} players and {table} table card(s) need {n + table} masks, not {len(cards)}.")
    places = [*names, *(f"T{i + 1}" for i in range(table))]
    me_name = config.get("me")
    if me_name not in names:
        _fail("config.me must be one of the players' names.")
    opening = config.get("opening")
    if opening is not None:
        if isinstance(opening, dict):
            missing = [p for p in places if p not in opening]
            if missing or set(opening) - set(places):
                _fail(f"config.opening must give the mask of every place: {', '.join(places)}.")
            opening = [opening[p] for p in places]
        if not isinstance(opening, list) or len(opening) != len(places):
            _fail(f"config.opening must list {len(places)} masks (players in seat order, then table cards).")
        if sorted(opening) != sorted(cards):
            _fail("config.opening must hold exactly the game's masks.")
    coins = config.get("coins", rules.coins)
    if isinstance(coins, dict):
        if set(coins) != set(names):
            _fail("config.coins must give the coins of every player (or one number for all).")
        coins = [coins[x] for x in names]
    if isinstance(coins, int) and not isinstance(coins, bool):
        coins = [coins] * n
    if not isinstance(coins, list) or len(coins) != n or not all(
            isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in coins):
        _fail("config.coins must be the coins each player starts with (one number, or one per player).")
    prior = [0.5] * n
    sp = config.get("swap_prior", {})
    if isinstance(sp, int | float) and not isinstance(sp, bool):
        sp = dict.fromkeys(names, sp)
    if not isinstance(sp, dict):
        _fail("config.swap_prior must map player names to a probability (or be one probability).")
    for k, v in sp.items():
        if k not in names:
            _fail(f"config.swap_prior: unknown player {k!r}.")
        if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 1:
            _fail(f"config.swap_prior[{k!r}] must be a probability between 0 and 1.")
        prior[names.index(k)] = float(v)
    cw = config.get("claim_weight", 1.0)
    if not isinstance(cw, int | float) or isinstance(cw, bool) or cw <= 0:
        _fail("config.claim_weight must be a positive number (1 = claims are not evidence).")
    el = config.get("exact_limit", 200_000)
    pc = config.get("particles", 20_000)
    seed = config.get("seed", 0)
    for key, v in (("exact_limit", el), ("particles", pc), ("seed", seed)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            _fail(f"config.{key} must be a whole number.")
    order = config.get("order", list(range(n)))
    if isinstance(order, list) and all(isinstance(x, str) for x in order):
        order = [names.index(x) if x in names else -1 for x in order]
    if not isinstance(order, list) or sorted(order) != list(range(n)):
        _fail("config.order must list every player once (clockwise).")
    court = config.get("court", 0)
    if not isinstance(court, int) or isinstance(court, bool) or court < 0:
        _fail("config.court must be the coins on the courthouse.")
    return Setup(names=list(names), places=places, me=names.index(me_name), cards=list(cards), opening=opening,
                 coins=coins, swap_prior=prior, claim_weight=float(cw), exact_limit=max(1, el),
                 particles=max(1, pc), seed=seed, court=court, order=list(order))


class Tracker:
    """One seat's running picture of the table: the layout belief plus the public state."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        n = setup.n
        P = len(setup.places)
        self.me = setup.me
        self.names = setup.names
        self.places = setup.places
        self.masks = list(dict.fromkeys(setup.cards))
        self.belief = Belief(setup.cards, setup.opening, exact_limit=setup.exact_limit,
                             particles=setup.particles, seed=setup.seed)
        self.coins = list(setup.coins)
        self.court = setup.court
        self.order = list(setup.order)
        self.know = np.ones((n, P)) if setup.opening is not None else np.zeros((n, P))
        self.pending: dict | None = None
        self.turn_by: int | None = None
        self.turns = 0
        # Turns played, counted by their one action (a swap-or-pretend, a look, an announcement): the
        # first ``opening_turns`` of them are swap-or-pretend only, "turn" entries or not.
        self.turn_actions = 0
        self._last_spy: int | None = None  # the Spy of the entry just before (its swap is no turn)
        self.claims = np.zeros((n, 2), dtype=np.int64)  # revealed announcements and claims: [true, false]
        self.asked = np.zeros(n, dtype=np.int64)  # answers (claim or pass) to someone else's announcement
        self.false_claims = np.zeros(n, dtype=np.int64)  # "me too" claims revealed false
        self.revealed_turn: set[int] = set()
        self.revealed_prev: set[int] = set()
        self.entries = 0
        # Coins follow from the entries (powers, fines, the Judge's courthouse); a "coins" entry corrects them.
        self.fines_due: list[int] = []  # false claimants of the last challenge: they pay once its powers are used
        self.guru: dict | None = None  # a Guru's power waiting for its target's name and card
        self.coins_unsure: list[int] = []  # entries after which the coins could not be derived

    # ------------------------------------------------------------------ field readers

    def _place(self, e: dict, key: str, i: int, players_only: bool = False) -> int:
        v = e.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(self.places):
            p = v
        elif isinstance(v, str) and v in self.places:
            p = self.places.index(v)
        elif isinstance(v, str) and v.lower().startswith("table ") and f"T{v[6:].strip()}" in self.places:
            p = self.places.index(f"T{v[6:].strip()}")
        else:
            _fail(f"Entry {i}: {key!r} must name a player{'' if players_only else ' or a table card (T1, T2)'}.")
        if players_only and p >= len(self.names):
            _fail(f"Entry {i}: {key!r} must be a player, not a table card.")
        return p

    def _mask(self, e: dict, key: str, i: int, optional: bool = False) -> str | None:
        v = e.get(key)
        if v is None and optional:
            return None
        if v not in self.masks:
            _fail(f"Entry {i}: {key!r} must be one of this game's masks: {', '.join(self.masks)}.")
        return v

    # ------------------------------------------------------------------ entries

    def add(self, e: Any, i: int | None = None) -> None:
        """Apply one log entry; SolverInputError for a malformed one, Contradiction if it cannot be."""
        i = self.entries if i is None else i
        if not isinstance(e, dict) or e.get("t") not in ENTRY_TYPES:
            _fail(f"Entry {i}: expected an object whose \"t\" is one of: {', '.join(ENTRY_TYPES)}.")
        getattr(self, "_e_" + e["t"])(e, i)
        if e["t"] in ("look", "announce"):
            self.turn_actions += 1
        self._last_spy = self._place(e, "by", i, True) if e["t"] == "spy" else None
        self.entries += 1

    # ------------------------------------------------------------------ coins

    def _pay(self, src: int | None, dst: int | None, amount: int) -> int:
        """Move up to ``amount`` coins (what the payer has); None is the bank, -1 the courthouse."""
        have = self.court if src == -1 else None if src is None else self.coins[src]
        k = max(0, amount if have is None else min(amount, have))
        if src == -1:
            self.court -= k
        elif src is not None:
            self.coins[src] -= k
        if dst == -1:
            self.court += k
        elif dst is not None:
            self.coins[dst] += k
        return k

    def settle(self) -> None:
        """The end of an announcement: the false claimants pay their fines to the courthouse."""
        fine = 1
        for p in self.fines_due:
            self._pay(p, -1, fine)
        self.fines_due = []
        if self.guru is not None:  # the target never named (or was never revealed): the coins are unknown
            self.coins_unsure.append(self.guru["entry"])
            self.guru = None

    def _players_order(self) -> list[int]:
        return [p for p in self.order if p < len(self.names)]

    def _neighbours(self, seat: int) -> tuple[int, int]:
        order = self._players_order()
        k = order.index(seat)
        return order[(k + 1) % len(order)], order[(k - 1) % len(order)]

    def _use_coins(self, by: int, mask: str, e: dict, i: int) -> None:
        """What ``mask``'s power does to the coins when ``by`` uses it (as the engine does)."""
        mk = load_masks()[mask]
        eff = mk.effect
        if eff == "bank" or eff in ("fool", "princess"):
            self._pay(None, by, mk.amount)
        elif eff == "judge":
            self._pay(-1, by, self.court)
        elif eff == "widow":
            self._pay(None, by, max(0, mk.target - self.coins[by]))
        elif eff == "peasant":
            pair = self.pending is not None and len(self.pending.get("true", [])) == 2
            self._pay(None, by, mk.pair_amount if pair else mk.amount)
        elif eff == "patron":
            self._pay(None, by, mk.amount)
            for nb in self._neighbours(by):
                self._pay(None, nb, mk.neighbours)
        elif eff == "thief":
            for nb in self._neighbours(by):
                self._pay(nb, by, mk.amount)
        elif eff == "beggar":
            order = self._players_order()
            k = order.index(by)
            for other in (order[(k + j) % len(order)] for j in range(1, len(order))):
                if self.coins[other] > self.coins[by]:
                    self._pay(other, by, mk.amount)
        elif eff in ("trickster", "sorceress"):
            target = self._place(e, "target", i) if e.get("target") is not None else None
            if target is None and eff == "trickster":
                others = [p for p in range(len(self.names)) if p != by]
                top = max(self.coins[p] for p in others)
                richest = [p for p in others if self.coins[p] == top]
                target = richest[0] if len(richest) == 1 else None
            if target is None:
                self.coins_unsure.append(i)
            elif eff == "trickster":
                self._pay(target, by, mk.amount)
            else:
                self.coins[by], self.coins[target] = self.coins[target], self.coins[by]
        elif eff == "guru":
            self.guru = {"by": by, "entry": i, "amount": mk.amount, "target": None, "named": None}
        # spy and cheater move no coins; the puppeteer has its own entry

    def _power_used(self, by: int, mask: str, e: dict, i: int) -> None:
        """A power used once per holder and announcement, whether entered as "uncontested" or "power"."""
        used = self.pending.setdefault("used", []) if self.pending is not None else []
        if by in used:
            return
        used.append(by)
        self._use_coins(by, mask, e, i)

    def _e_turn(self, e: dict, i: int) -> None:
        self.settle()
        self.turn_by = self._place(e, "by", i, True)
        self.pending = None
        self.turns += 1
        self.revealed_prev = self.revealed_turn
        self.revealed_turn = set()

    def _e_swap(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        if "with" in e:
            a, b = by, self._place(e, "with", i)
        else:
            a, b = self._place(e, "a", i), self._place(e, "b", i)
        if a == b:
            _fail(f"Entry {i}: a swap needs two different places.")
        if by in (a, b) and self._last_spy != by:  # a turn's swap (not the Fool's, not the Spy's)
            self.turn_actions += 1
        sw = e.get("swapped")
        if by == self.me:
            if not isinstance(sw, bool):
                _fail(f"Entry {i}: for your own swap, say whether you really swapped (\"swapped\": true or false).")
            self.belief.swap_known(a, b, sw)
        else:
            self.belief.swap(a, b, self.setup.swap_prior[by])
        k = self.know
        for j in range(len(self.names)):
            if j == by:
                if j != self.me:
                    avg = (k[j, a] + k[j, b]) / 2 if k[j, a] < 1 or k[j, b] < 1 else 1.0
                    k[j, a] = k[j, b] = avg
                elif sw:
                    k[j, [a, b]] = k[j, [b, a]]
            else:
                k[j, a] = k[j, b] = 0.0

    def _e_look(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        card = self._mask(e, "card", i, optional=by != self.me)
        if card is not None:
            if by != self.me:
                _fail(f"Entry {i}: you cannot know what another player saw.")
            self.belief.observe(by, card)
        self.know[by, by] = 1.0

    def _e_spy(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        t = self._place(e, "target", i)
        if by == self.me:
            mine = self._mask(e, "mine", i)
            theirs = self._mask(e, "theirs", i)
            self.belief.observe(by, mine)
            self.belief.observe(t, theirs)
        elif e.get("mine") is not None or e.get("theirs") is not None:
            _fail(f"Entry {i}: only the Spy sees the two cards.")
        self.know[by, by] = self.know[by, t] = 1.0

    def _e_shown(self, e: dict, i: int) -> None:
        t = self._place(e, "target", i, True)
        card = self._mask(e, "card", i, optional=True)
        if card is not None:
            if t == self.me:
                _fail(f"Entry {i}: the Princess shows a card to everyone but its owner.")
            self.belief.observe(t, card)
        elif t != self.me:
            _fail(f"Entry {i}: say which card the Princess showed (\"card\").")
        for j in range(len(self.names)):
            if j != t:
                self.know[j, t] = 1.0

    def _e_announce(self, e: dict, i: int) -> None:
        self.settle()
        by = self._place(e, "by", i, True)
        mask = self._mask(e, "mask", i)
        self.pending = {"by": by, "mask": mask, "claimants": [by], "passed": []}
        if by != self.me and self.setup.claim_weight != 1.0:
            self.belief.weigh(by, mask, self.claim_ratio(by))

    def _e_claim(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        mask = self._mask(e, "mask", i, optional=True)
        if self.pending is None:
            _fail(f"Entry {i}: a claim needs an announcement before it.")
        if mask is not None and mask != self.pending["mask"]:
            _fail(f"Entry {i}: the claim names {mask!r} but {self.pending['mask']!r} was announced.")
        self.pending["claimants"].append(by)
        self.asked[by] += 1
        if by != self.me and self.setup.claim_weight != 1.0:
            self.belief.weigh(by, self.pending["mask"], self.claim_ratio(by))

    def _e_pass(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        self.asked[by] += 1
        if self.pending is not None:
            self.pending["passed"].append(by)

    def _e_uncontested(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        mask = self._mask(e, "mask", i, optional=True)
        if self.pending is not None:
            self.pending["resolved"] = True
            mask = mask or self.pending["mask"]
        if mask is not None:  # nobody contests: the announcer uses the power, card unseen
            self._power_used(by, mask, e, i)

    def _e_reveal(self, e: dict, i: int) -> None:
        cards = e.get("cards")
        if isinstance(cards, list):
            try:
                cards = {c[0]: c[1] for c in cards}
            except (TypeError, IndexError, KeyError):
                _fail(f"Entry {i}: \"cards\" must map players to the masks revealed.")
        if not isinstance(cards, dict) or not cards:
            _fail(f"Entry {i}: \"cards\" must map players to the masks revealed.")
        seen = []
        for who, m in cards.items():
            key = int(who) if isinstance(who, str) and who.isdigit() and who not in self.places else who
            p = self._place({"p": key}, "p", i, True)
            mask = self._mask({"m": m}, "m", i)
            seen.append((p, mask))
        for p, mask in seen:
            self.belief.observe(p, mask)
            self.know[:, p] = 1.0
            self.revealed_turn.add(p)
        if self.guru is not None and self.guru["target"] is not None:
            named = dict(seen).get(self.guru["target"])
            if named is not None:  # the Guru's target is revealed: a wrong name pays the Guru
                if named != self.guru["named"]:
                    self._pay(self.guru["target"], self.guru["by"], self.guru["amount"])
                self.guru = None
        if self.pending is not None and not self.pending.get("resolved"):
            for p, mask in seen:
                if p in self.pending["claimants"]:
                    true = mask == self.pending["mask"]
                    self.claims[p, 0 if true else 1] += 1
                    if not true and p != self.pending["by"]:
                        self.false_claims[p] += 1
            claimants = [p for p, _m in seen if p in self.pending["claimants"]]
            self.pending["true"] = [p for p, m in seen if p in claimants and m == self.pending["mask"]]
            self.fines_due = [p for p, m in seen if p in claimants and m != self.pending["mask"]]
            self.pending["resolved"] = True

    def claim_ratio(self, player: int) -> float:
        """The soft-evidence ratio for this player's claims: ``claim_weight`` scaled down by the share of
        their revealed claims that were false (a player caught lying often says little)."""
        true, false = (int(x) for x in self.claims[player])
        reliability = (true + 1) / (true + false + 1)
        return 1.0 + (self.setup.claim_weight - 1.0) * min(1.0, reliability)

    def bluff_rate(self, player: int) -> float:
        """How often this player says "me too" without the mask (seen in reveals; a small prior)."""
        return float((self.false_claims[player] + 0.1) / (self.asked[player] + 5.0))

    def _e_puppeteer(self, e: dict, i: int) -> None:
        a = self._place(e, "a", i, True)
        b = self._place(e, "b", i, True)
        if a == b:
            _fail(f"Entry {i}: the Puppeteer moves two different players.")
        self.belief.swap_known(a, b, True)
        by = self._place(e, "by", i) if e.get("by") is not None else None
        if by is not None and (self.pending is None or by not in self.pending.get("used", [])):
            if self.pending is not None:
                self.pending.setdefault("used", []).append(by)
            amount = load_masks()["puppeteer"].amount
            self._pay(a, by, amount)
            self._pay(b, by, amount)
        self.coins[a], self.coins[b] = self.coins[b], self.coins[a]
        ia, ib = self.order.index(a), self.order.index(b)
        self.order[ia], self.order[ib] = b, a
        self.know[:, [a, b]] = self.know[:, [b, a]]

    def _e_coins(self, e: dict, i: int) -> None:
        """A correction: everyone's coins as they are now; it replaces whatever was derived or owed before."""
        self.fines_due = []
        self.guru = None
        self.coins_unsure = []
        coins = e.get("coins")
        if isinstance(coins, dict):
            if set(coins) != set(self.names):
                _fail(f"Entry {i}: \"coins\" must give every player's coins.")
            coins = [coins[x] for x in self.names]
        if not isinstance(coins, list) or len(coins) != len(self.names) or not all(
                isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in coins):
            _fail(f"Entry {i}: \"coins\" must give every player's coins (whole numbers).")
        self.coins = list(coins)
        court = e.get("court", self.court)
        if not isinstance(court, int) or isinstance(court, bool) or court < 0:
            _fail(f"Entry {i}: \"court\" must be the coins on the courthouse.")
        self.court = court

    def _e_power(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        mask = self._mask(e, "mask", i)
        self._power_used(by, mask, e, i)

    def _e_name(self, e: dict, i: int) -> None:
        by = self._place(e, "by", i, True)
        mask = self._mask(e, "mask", i)
        if self.guru is not None:  # the Guru's target names their mask; the reveal settles the payment
            self.guru.update(target=by, named=mask)


def run_log(setup: Setup, log: list, skip: frozenset[int] = frozenset(), opening: bool = True) -> Tracker:
    """A tracker fed with every entry of ``log`` except those in ``skip`` (Contradiction if they clash)."""
    if not opening and setup.opening is not None:
        setup = Setup(**{**setup.__dict__, "opening": None})
    tr = Tracker(setup)
    for i, e in enumerate(log):
        if i not in skip:
            tr.add(e, i)
    tr.settle()  # fines owed by the last challenge
    return tr


__all__ = ["Contradiction", "Setup", "SolverInputError", "Tracker", "parse_config", "run_log"]
