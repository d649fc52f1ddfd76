"""Calibration: when bots play exactly as a solver's documented model says, its probabilities
come true as often as they say (issue 21, acceptance 4).

Seeded games are played by bots that follow the model (Mascarade: every seat random, so a hidden
swap-or-pretend is a real swap half the time, the default ``swap_prior``, and no public choice
depends on a hidden card; Clue: every seat random, so a refuter shows any of its matching cards
with equal chance, the ``refuter_model`` the solver is asked to use, and rumors do not depend on
the hand; Masque: every seat random, see :func:`masque_game`; Tokyo Ghoul: every seat a player of
the card-flow model, see :func:`ghoul_model_action`). One seat's notes are solved along the way;
each probability strictly between 0 and 1 is put in one of ten buckets with whether it came true.
The predictions of one game are correlated, so the noise is estimated per game (a cluster-robust
standard error): per bucket ``z = sum(outcome - p) / sqrt(sum over games of (sum of that game's
outcome - p)^2)``. A bucket fails when ``|z|`` passes ``Z_LIMIT``. The default run plays a small
sample; the soak plays 300 Mascarade, 200 Clue, 1,000 Masque and 200 Tokyo Ghoul games, and 2,000
Tokyo Ghoul preliminary phases, and prints the reliability tables (docs/performance.md,
"Calibration")."""

from __future__ import annotations

import math

import pytest
from test_clue_soundness import truth as clue_truth
from test_mascarade_beliefs import SeatWatcher

from engine.clue import ClueConfig
from engine.core import Rng, derive_seed
from engine.ghoul.data import SUITS as GHOUL_SUITS
from engine.ghoul.game import (
    ATTACK,
    EXCHANGE,
    PRELIM_GIVE,
    PRELIM_SHOW,
    REFILL,
    SETUP_FACE,
    SHOW,
    GhoulConfig,
    GhoulState,
    hidden_of,
    legal_actions,
)
from engine.ghoul.game import MOVE as GHOUL_MOVE
from engine.ghoul.game import apply as ghoul_apply
from engine.ghoul.game import is_over as ghoul_is_over
from engine.ghoul.game import new_game as ghoul_new_game
from engine.ghoul.game import to_act as ghoul_to_act
from engine.ghoul.game import view as ghoul_view
from engine.mascarade import Config
from engine.masque import NS, ROOMS, SLOTS, MasqueConfig
from engine.masque.game import PLAN as MASQUE_PLAN
from solvers.clue.observations import ObservationLog as ClueLog
from solvers.clue.solver import solve as clue_solve
from solvers.ghoul.observations import ObservationLog as GhoulLog
from solvers.ghoul.solver import solve as ghoul_solve
from solvers.mascarade import result_of
from solvers.masque.observations import ObservationLog as MasqueLog
from solvers.masque.solver import solve as masque_solve
from solvers.table import Table

Z_LIMIT = 4.0  # ten buckets: a false alarm about once in 1,500 runs of a calibrated solver
BUCKETS = 10


class Reliability:
    """Predictions bucketed by probability, with per-game sums for the cluster-robust noise."""

    def __init__(self) -> None:
        self.n = [0] * BUCKETS
        self.p = [0.0] * BUCKETS
        self.y = [0.0] * BUCKETS
        self.var = [0.0] * BUCKETS
        self.games = [0] * BUCKETS
        self._game: dict[int, float] = {}

    def add(self, p: float, came_true: bool) -> None:
        if not 1e-9 < p < 1 - 1e-9:
            return  # a certainty: checked by the soundness tests
        b = min(BUCKETS - 1, int(p * BUCKETS))
        self.n[b] += 1
        self.p[b] += p
        self.y[b] += came_true
        self._game[b] = self._game.get(b, 0.0) + came_true - p

    def end_game(self) -> None:
        for b, r in self._game.items():
            self.var[b] += r * r
            self.games[b] += 1
        self._game = {}

    def z(self, b: int) -> float:
        off = self.y[b] - self.p[b]
        if abs(off) <= 1e-9 * self.n[b]:
            # Outcomes that add up to exactly their chances in every game (a slot's unknown Masque
            # rooms, uniform identities) leave only rounding in both sums: no evidence either way.
            return 0.0
        return off / math.sqrt(self.var[b]) if self.var[b] > 0 else 0.0

    def table(self, title: str) -> str:
        rows = [f"{title}: bucket, predictions, games, mean predicted, observed, z"]
        for b in range(BUCKETS):
            if self.n[b]:
                rows.append(f"  {b / BUCKETS:.1f}-{(b + 1) / BUCKETS:.1f}  {self.n[b]:>7}  {self.games[b]:>4}  "
                            f"{self.p[b] / self.n[b]:.3f}  {self.y[b] / self.n[b]:.3f}  {self.z(b):+.2f}")
        return "\n".join(rows)

    def worst(self) -> float:
        return max((abs(self.z(b)) for b in range(BUCKETS) if self.games[b] >= 5), default=0.0)


def _synthetic(shift: float) -> Reliability:
    """200 seeded "games" of 40 predictions that come true as often as they say, each repeated
    five times (like a solver asked again before anything new is seen), reported ``shift`` off."""
    r = Rng(2026)
    rel = Reliability()
    for _game in range(200):
        for _ in range(40):
            p = 0.05 + 0.9 * r.random()
            came_true = r.random() < p
            for _again in range(5):
                rel.add(min(max(p + shift, 0.01), 0.99), came_true)
        rel.end_game()
    return rel


def check_calibrated(play, games: range, *titles: str, limit: float, min_n: int | tuple[int, ...] = 0) -> None:
    """Play ``games`` through ``play(game_no, *reliabilities)``, one table per title; print them and
    fail when a table has too few predictions or a bucket is off by more than ``limit``."""
    rels = [Reliability() for _ in titles]
    for g in games:
        play(g, *rels)
    print("\n" + "\n".join(rel.table(f"{title}, {len(games)} games") for rel, title in zip(rels, titles, strict=True)))
    mins = min_n if isinstance(min_n, tuple) else (min_n,) * len(titles)
    for rel, title, least in zip(rels, titles, mins, strict=True):
        assert sum(rel.n) > least, title
        assert rel.worst() <= limit, rel.table(title)


def test_the_check_passes_a_calibrated_source_and_catches_a_shift_of_a_tenth():
    """The check can fail: the same outcomes reported 0.1 too high or too low exceed ``Z_LIMIT``
    in some bucket, while the true chances pass; repeating a prediction does not make it surer
    (the noise is estimated per game)."""
    assert _synthetic(0.0).worst() <= Z_LIMIT
    assert _synthetic(0.1).worst() > Z_LIMIT
    assert _synthetic(-0.1).worst() > Z_LIMIT


def test_chances_that_add_up_exactly_in_every_game_are_no_evidence():
    """Three players who are each one of three characters, 1/3 each: every game's outcomes add up to
    exactly its chances, so only rounding is left in the sums; z must be 0, not rounding over rounding."""
    rel = Reliability()
    for game in range(50):
        for player in range(3):
            for char in range(3):
                rel.add(1 / 3, (player + game) % 3 == char)
        rel.end_game()
    assert rel.z(3) == 0.0 and rel.worst() == 0.0


def mascarade_game(game_no: int, rel: Reliability, every: int = 6) -> None:
    """One seeded 4-8 player game of random bots; one seat's probabilities every few steps."""
    r = Rng(777 + game_no)
    players = 4 + game_no % 5
    config = Config(players=players, opening=game_no % 3 != 2)
    table = Table("mascarade", config, 91 * game_no + 5, ["random"] * players)
    watcher = SeatWatcher(game_no % players)
    step = 0
    while not table.is_over():
        watcher.update(table.state)
        tr = watcher.tracker
        if tr is not None and step % every == r.below(every):
            res = result_of(tr, advice=False)
            cards = table.state.cards
            for place, probs in res["probabilities"].items():
                truth = cards[tr.places.index(place)]
                for mask, p in probs.items():
                    rel.add(p, mask == truth)
        table.step_bot()
        step += 1
    rel.end_game()


def test_mascarade_is_calibrated_sample():
    # a small sample: only a gross miscalibration fails here
    check_calibrated(mascarade_game, range(12), "Mascarade", limit=Z_LIMIT + 1, min_n=500)


@pytest.mark.soak
def test_mascarade_is_calibrated_300_games():
    check_calibrated(mascarade_game, range(1000, 1300), "Mascarade", limit=Z_LIMIT)


def clue_game(game_no: int, rel: Reliability, every: int = 3) -> None:
    """One seeded 3-6 player Clue game of random bots; one seat's holder probabilities now and then."""
    players = 3 + game_no % 4
    config = ClueConfig(board="meereen" if game_no % 2 else "red-keep", players=players, max_rounds=40)
    table = Table("clue", config, derive_seed(17, game_no), ["random"] * players)
    real = clue_truth(table)
    seat = game_no % players
    obs = ClueLog(seat)
    step = 0
    while True:
        obs.update(table.view(seat, obs.since)["events"])
        if obs.config and step % every == 0:
            sol = clue_solve(obs.config, obs.entries(), refuter_model=True)
            for card, row in sol.holders.items():
                for holder, p in row.items():
                    rel.add(p, real[card] == holder)
        if table.is_over() or not table.step_bot():
            break
        step += 1
    rel.end_game()


def test_clue_is_calibrated_sample():
    check_calibrated(clue_game, range(5), "Clue (refuter model)", limit=Z_LIMIT + 1, min_n=500)


@pytest.mark.soak
def test_clue_is_calibrated_200_games():
    check_calibrated(clue_game, range(1000, 1200), "Clue (refuter model)", limit=Z_LIMIT)


# ============================================================================ Masque of the Red Death


def masque_game(game_no: int, rooms: Reliability, plans: Reliability) -> None:
    """One seeded 4-7 player Masque game of random bots; one seat's best plan solved each round.

    The solver's model: each slot's Red Death rooms are a uniform R-subset, independent from slot
    to slot, and only hard evidence (a Gossip card the seat holds or saw, an Evidence look) tells
    rooms apart. Random bots fit it: the deck is shuffled uniformly, a named slot answers with a
    random matching card, an Evidence look picks an index (the cards of a slot lie in random order),
    and no public choice depends on a Red Death room before midnight.

    Every room's ``deadly`` chance bucketed together would test nothing: the unknown rooms of a
    slot share one chance, so they fall in one bucket and their outcomes add up to exactly the sum
    of their chances (R minus the rooms seen deadly). So the predictions are the ones a player acts
    on: in ``rooms``, the chance that the room the best plan stands in at each slot is deadly; in
    ``plans``, the best plan's survival (the product over slots, so slot independence is tested).
    """
    players = 4 + game_no % 4
    config = MasqueConfig(players=players, harder=game_no % 3 == 2)
    table = Table("masque", config, derive_seed(23, game_no), ["random"] * players)
    seat = game_no % players
    obs = MasqueLog(seat)
    solved_round = -1
    while not table.is_over():
        s = table.state
        if s.phase == MASQUE_PLAN or s.round > 12:
            break
        if s.round != solved_round and s.round >= 1:
            solved_round = s.round
            obs.update(table.view(seat, obs.since)["events"])
            best = masque_solve(obs.config, obs.log)
            deadly, plan = best["deadly"], best["best_plan"]
            red = [{ROOMS[x] for x in s.red[k]} for k in range(NS)]
            for k, room in enumerate(plan["rooms"]):
                rooms.add(deadly[SLOTS[k]][room], room in red[k])
            plans.add(plan["survival"], all(room not in red[k] for k, room in enumerate(plan["rooms"])))
        table.step_bot()
    rooms.end_game()
    plans.end_game()


def test_masque_is_calibrated_sample():
    check_calibrated(masque_game, range(12), "Masque, rooms of the best plan", "Masque, best plan survives",
                     limit=Z_LIMIT + 1, min_n=(500, 100))


@pytest.mark.soak
def test_masque_is_calibrated_1000_games():
    check_calibrated(masque_game, range(1000, 2000), "Masque, rooms of the best plan", "Masque, best plan survives",
                     limit=Z_LIMIT)


# ============================================================================ Tokyo Ghoul

EXCHANGE_CHANCE = 0.5  # what the bots do and what the solver is told (its default)


def _one_card(h: tuple[int, ...], rng: Rng) -> int:
    """A card of a hand (counts per suit), each card equally likely: its suit."""
    u = rng.below(sum(h))
    for x, k in enumerate(h):
        if u < k:
            return x
        u -= k
    raise AssertionError(h)


def ghoul_model_action(s: GhoulState, rng: Rng, chance: float = EXCHANGE_CHANCE) -> tuple:
    """What a player of docs/ghoul.md's card-flow model does, from its own cards only.

    Every card it shows, gives or places face up is any card of its hidden hand, each equally
    likely (two shown cards: a uniform pair of cards); an interrogation ends in an exchange with
    ``chance``, the asker giving any of its cards (face-up one included) and taking any of the
    target's (face-up one included: else one of the two shown), each equally likely. Moves,
    interrogations, Cover Up and Support are uniform among the legal ones, which tell nothing about
    the cards. It never attacks nor uses the special action: the model reads nothing into a player
    not attacking, so a killer must not attack more often when it can.
    """
    legal = legal_actions(s)
    phase, seat = s.phase, ghoul_to_act(s)
    assert seat is not None
    if len(legal) == 1:
        return legal[0]
    if phase in (SETUP_FACE, REFILL, PRELIM_GIVE):
        x = _one_card(hidden_of(s, seat), rng)
        return ("give" if phase == PRELIM_GIVE else "reveal", GHOUL_SUITS[x])
    if phase in (PRELIM_SHOW, SHOW):
        h = list(hidden_of(s, seat if phase == PRELIM_SHOW else s.target))
        a = _one_card(tuple(h), rng)
        h[a] -= 1
        b = _one_card(tuple(h), rng)
        return ("show", GHOUL_SUITS[min(a, b)], GHOUL_SUITS[max(a, b)])
    if phase == EXCHANGE:
        if rng.random() >= chance:
            return ("pass",)
        me, tg = s.turn, s.target
        if s.up[me] >= 0 and rng.below(sum(s.hands[me])) == 0:
            give = (GHOUL_SUITS[s.up[me]], "board")
        else:
            give = (GHOUL_SUITS[_one_card(hidden_of(s, me), rng)], "hand")
        if s.up[tg] >= 0 and rng.below(sum(s.hands[tg])) == 0:
            take = (GHOUL_SUITS[s.up[tg]], "board")
        else:
            take = (GHOUL_SUITS[rng.choice(list(s.shown))], "hand")
        return ("exchange", give[0], take[0], give[1], take[1])
    if phase == GHOUL_MOVE:
        return rng.choice([a for a in legal if a[0] == "move"])
    if phase == ATTACK:
        return ("pass",)
    return rng.choice(legal)


def ghoul_game(game_no: int, rel: Reliability, cuts: int = 3, chance: float = EXCHANGE_CHANCE) -> None:
    """One seeded 4-8 player Tokyo Ghoul game of model players; one seat's notes at ``cuts`` points.

    The predictions are every other player's chance of holding at least one and at least two cards
    of each suit, of being each character, and (Support variant) of holding the Transformed Kaneki
    token. The solver is told ``chance`` (the bots always exchange with EXCHANGE_CHANCE).
    """
    players = 4 + game_no % 5
    config = GhoulConfig(players=players, mask=game_no % 3 == 1, support=game_no % 4 >= 2)
    s = ghoul_new_game(config, derive_seed(29, game_no))
    r = Rng(derive_seed(31, game_no))
    states = [s]
    while not ghoul_is_over(s):
        s = ghoul_apply(s, ghoul_model_action(s, r))
        states.append(s)
    seat = game_no % players
    inner = len(states) - 2  # neither the deal alone nor the end, where everything is revealed
    picks = sorted({1 + r.below(inner) for _ in range(cuts)}) if inner > 0 else []
    for i in picks:
        st = states[i]
        obs = GhoulLog(seat)
        obs.update(ghoul_view(st, seat)["events"])
        assert obs.config is not None
        out = ghoul_solve({**obs.config, "exchange_chance": chance}, obs.entries(), advice=False)
        assert out["status"] == "ok", out
        names = obs.config["players"]
        for q, name in enumerate(names):
            if q == seat:
                continue
            for suit, row in out["hands"][name].items():
                held = st.hands[q][GHOUL_SUITS.index(suit)]
                rel.add(row["p_at_least_one"], held >= 1)
                rel.add(row["p_at_least_two"], held >= 2)
            for char, p in out["identities"][name].items():
                rel.add(p, st.chars[q] == char)
            if out["support"] is not None:
                rel.add(out["support"][name], st.tk == q)
    rel.end_game()


def test_ghoul_is_calibrated_sample():
    """12 games of 4-8 players; 8 players with Masks (seconds a solve) are left to the soak."""
    check_calibrated(ghoul_game, range(5, 17), "Tokyo Ghoul", limit=Z_LIMIT + 1, min_n=500)


@pytest.mark.soak
def test_ghoul_is_calibrated_200_games():
    check_calibrated(ghoul_game, range(1000, 1200), "Tokyo Ghoul", limit=Z_LIMIT)


PRELIMINARY = (SETUP_FACE, PRELIM_SHOW, PRELIM_GIVE)
NEIGHBOURS = ("Tokyo Ghoul, right neighbour after the preliminary phase",
              "Tokyo Ghoul, left neighbour after the preliminary phase")


def ghoul_neighbours_game(game_no: int, right: Reliability, left: Reliability) -> None:
    """One seeded 4-6 player game of model players, stopped as the preliminary phase ends: one
    seat's chances that its right neighbour (who showed it two cards) and its left neighbour (who
    gave it one) hold at least one and at least two cards of each suit.

    Here what the seat saw weighs most: the players chose those cards as the model says an unseen
    card is chosen (any card, each equally likely), so the solver must weigh them the same way
    (issue 21, finding 6). Among the whole game's predictions the effect is too diluted to show.
    """
    players = 4 + game_no % 3
    config = GhoulConfig(players=players, mask=game_no % 3 == 1, support=game_no % 4 >= 2)
    s = ghoul_new_game(config, derive_seed(37, game_no))
    r = Rng(derive_seed(41, game_no))
    while s.phase in PRELIMINARY:
        s = ghoul_apply(s, ghoul_model_action(s, r))
    seat = game_no % players
    obs = GhoulLog(seat)
    obs.update(ghoul_view(s, seat)["events"])
    assert obs.config is not None
    out = ghoul_solve({**obs.config, "exchange_chance": EXCHANGE_CHANCE}, obs.entries(), advice=False)
    assert out["status"] == "ok", out
    names = obs.config["players"]
    for q, rel in (((seat - 1) % players, right), ((seat + 1) % players, left)):
        for suit, row in out["hands"][names[q]].items():
            held = s.hands[q][GHOUL_SUITS.index(suit)]
            rel.add(row["p_at_least_one"], held >= 1)
            rel.add(row["p_at_least_two"], held >= 2)
    right.end_game()
    left.end_game()


def test_ghoul_neighbours_are_calibrated_sample():
    check_calibrated(ghoul_neighbours_game, range(100), *NEIGHBOURS, limit=Z_LIMIT + 1, min_n=300)


@pytest.mark.soak
def test_ghoul_neighbours_are_calibrated_2000_games():
    """Failed before issue 21 finding 6 (a card shown to me only constrained; right neighbour
    z = -5.31 and +4.51); with one model for every choice the worst |z| is 2.44."""
    check_calibrated(ghoul_neighbours_game, range(1000, 3000), *NEIGHBOURS, limit=Z_LIMIT)
