"""Resamplers for ISMCTS: worlds drawn for a seat fit everything it saw, with the exact posterior's
frequencies (chi-square on small cases, seeded). No OpenSpiel needed: the draws work on engine states.
"""

from __future__ import annotations

import pytest

from engine.core import Rng
from engine.registry import get_game
from solvers.bots import make_bot


def _chi2_p(counts: dict, probs: dict) -> float:
    """p-value of Pearson's chi-square for observed ``counts`` against ``probs``; cells expecting fewer
    than 5 draws are pooled into one (the test's usual condition)."""
    chi2 = pytest.importorskip("scipy.stats").chi2
    n = sum(counts.values())
    assert set(counts) <= {k for k, p in probs.items() if p > 0}, "a draw outside the posterior's support"
    cells = [(counts.get(k, 0), n * p) for k, p in probs.items() if n * p >= 5]
    small = [(counts.get(k, 0), n * p) for k, p in probs.items() if 0 < n * p < 5]
    if small:
        cells.append((sum(o for o, _ in small), sum(e for _, e in small)))
    assert len(cells) >= 2, "nothing to test: one cell"
    stat = sum((o - e) ** 2 / e for o, e in cells)
    return float(chi2.sf(stat, len(cells) - 1))


def _played(game: str, players: int, seed: int, steps: int, bot: str = "strong"):
    """A seeded game played ``steps`` decisions by our bots: (spec, state)."""
    spec = get_game(game)
    st = spec.new_game(spec.config_from_json({"players": players}), seed)
    bots = [make_bot(game, bot, seat=i, seed=i) for i in range(players)]
    for _ in range(steps):
        s = spec.to_act(st)
        st = spec.apply(st, tuple(bots[s].choose(spec.view(st, s))))
    return spec, st


# ---------------------------------------------------------------------------- Clue


def _clue_deals(config: dict, entries: list[dict]) -> list[frozenset]:
    """Every deal that fits the log, by branching the solver on the first open card (small cases only)."""
    from solvers.clue.solver import solve

    out: list[frozenset] = []

    def rec(extra: list[dict]) -> None:
        sol = solve(config, entries + extra)
        if sol.status != "ok":
            return
        open_cards = [c for c in sol.holders if c not in sol.certain]
        if not open_cards:
            out.append(frozenset(sol.certain.items()))
            return
        c = open_cards[0]
        for h, p in sorted(sol.holders[c].items()):
            if p > 0:
                rec([*extra, {"type": "reveal", "player": h, "cards": [c]}])

    rec([])
    return out


def _clue_deal_of(st) -> frozenset:
    from solvers.clue.model import ENVELOPE, FACE_UP

    names = st.config.seat_names()
    cells = [(c, names[i]) for i, h in enumerate(st.hands) for c in h]
    cells += [(c, ENVELOPE) for c in st.envelope] + [(c, FACE_UP) for c in st.face_up]
    cells += [(c, "centre") for c in st.centre] + [(c, "aside") for c in st.aside]
    return frozenset(cells)


@pytest.mark.parametrize(("players", "seed", "steps", "n_deals"), [(3, 4, 57, 8)])
def test_clue_worlds_follow_the_exact_posterior(players, seed, steps, n_deals):
    """Late in a seeded game few deals fit the seat's log: every one is enumerated, each world drawn is
    one of them, the seat's view is unchanged, and the deals come up uniformly (the solver's posterior)."""
    from solvers.clue.observations import ObservationLog
    from solvers.openspiel import resample_clue

    spec, st = _played("clue", players, seed, steps)
    seat = spec.to_act(st)
    v = spec.view(st, seat)
    obs = ObservationLog.from_view(v)
    deals = _clue_deals(obs.config, obs.entries())
    assert len(deals) == n_deals and _clue_deal_of(st) in deals
    k = resample_clue.Knowledge(v, "exact")
    rng = Rng(7)
    counts: dict = {}
    for _ in range(30 * n_deals):
        w = resample_clue.draw(k, st, seat, rng)
        assert spec.view(w, seat) == v
        d = _clue_deal_of(w)
        counts[d] = counts.get(d, 0) + 1
    assert set(counts) == set(deals)
    assert _chi2_p(counts, dict.fromkeys(deals, 1 / len(deals))) > 0.001


# ---------------------------------------------------------------------------- Tokyo Ghoul


def test_ghoul_worlds_follow_the_exact_posterior():
    """Mid-game (4 players, after exchanges) every other seat's holding and character come up with the
    exact card-flow posterior's marginals; the seat's view and legal actions are unchanged."""
    from solvers.ghoul.model import build_problem
    from solvers.ghoul.observations import ObservationLog
    from solvers.ghoul.solver import solve_problem
    from solvers.openspiel import resample_ghoul

    spec, st = _played("ghoul", 4, 0, 10)
    seat = spec.to_act(st)
    v = spec.view(st, seat)
    obs = ObservationLog.from_view(v)
    exact = solve_problem(build_problem(obs.config, obs.entries()))
    assert exact.method == "flow"
    sol, is_exact = resample_ghoul.knowledge(v, "exact")
    assert is_exact
    rng = Rng(5)
    hands: list[dict] = [{} for _ in range(4)]
    chars: list[dict] = [{} for _ in range(4)]
    n = 1500
    for _ in range(n):
        w = resample_ghoul.draw(sol, st, seat, rng)
        assert spec.view(w, seat) == v
        for q in range(4):
            hands[q][w.hands[q]] = hands[q].get(w.hands[q], 0) + 1
            chars[q][w.chars[q]] = chars[q].get(w.chars[q], 0) + 1
    tested = 0
    for q in range(4):
        if q == seat:
            continue
        for got, want in ((hands[q], exact.hand_probs[q]), (chars[q], exact.identity[q])):
            if sum(p > 0 for p in want.values()) > 1:
                assert _chi2_p(got, want) > 0.001, (q, got, want)
                tested += 1
    assert tested >= 4


# ---------------------------------------------------------------------------- Masque of the Red Death


def _masque_cards(st) -> list[int]:
    """Every Rumor card in the game: hands, deck and the Evidence discard."""
    return [c for h in st.rumors for c in h] + list(st.deck) + list(st.evidence)


def test_masque_worlds_follow_the_exact_posterior():
    """After the seat learnt safe and deadly rooms, each slot's Red Death set comes up uniformly among
    the sets its certain facts allow (the solver's posterior), looked-at cards keep their index, the
    Gossip cards are exactly the other rooms' (so the world is a game), and the seat's view is unchanged."""
    from itertools import combinations

    from engine.masque import NR, NS
    from solvers.openspiel import resample_masque

    spec, st = _played("masque", 5, 2, 50)
    seat = spec.to_act(st)
    v = spec.view(st, seat)
    k = resample_masque.knowledge(v)
    r = st.config.red_death
    allowed = []
    for slot in range(NS):
        sets = [frozenset(c) for c in combinations(range(NR), r)
                if set(k.deadly[slot]) <= set(c) and not set(k.safe[slot]) & set(c)]
        assert frozenset(st.red[slot]) in sets
        allowed.append(sets)
    learnt = [slot for slot in range(NS) if len(allowed[slot]) < len(list(combinations(range(NR), r)))]
    assert learnt, "the seat has learnt nothing yet: a later position is needed"
    rng = Rng(9)
    counts: list[dict] = [{} for _ in range(NS)]
    for i in range(500):
        w = resample_masque.draw(k, st, seat, rng)
        if i < 20:
            assert spec.view(w, seat) == v
        for (slot, i), (room, _e) in k.looks.items():
            assert w.red[slot][i] == room
        gossip = sorted(c for c in _masque_cards(w) if c < NS * NR)
        assert gossip == sorted(slot * NR + x for slot in range(NS) for x in range(NR) if x not in w.red[slot])
        for slot in range(NS):
            key = frozenset(w.red[slot])
            counts[slot][key] = counts[slot].get(key, 0) + 1
    for slot in learnt[:3]:
        assert _chi2_p(counts[slot], dict.fromkeys(allowed[slot], 1 / len(allowed[slot]))) > 0.001


# ---------------------------------------------------------------------------- every game, through OpenSpiel


@pytest.mark.parametrize("mode", ["exact", "uniform"])
@pytest.mark.parametrize("game", ["clue", "ghoul", "masque"])
def test_resampled_worlds_keep_the_seats_information_state(game, mode):
    """OpenSpiel's ResampleInfostateTest for our resamplers: each world drawn for the seat to act keeps
    its information-state and observation strings and its legal actions, and is not always the truth."""
    pytest.importorskip("pyspiel")
    from solvers.openspiel.games import load
    from solvers.openspiel.resample import Resampler

    state = load(game).new_initial_state()
    rs = Resampler(mode, seed=1)
    r = Rng(3)
    checked = moved = 0
    while not state.is_terminal() and checked < 25:
        if state.is_chance_node():
            state.apply_action(r.below(len(state.chance_outcomes())))
            continue
        p = state.current_player()
        for _ in range(2):
            other = rs(state, p)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.legal_actions() == state.legal_actions()
            moved += str(other) != str(state)
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[r.below(len(legal))])
    assert checked > 10 and moved > checked
