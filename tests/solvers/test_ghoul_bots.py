"""The Tokyo Ghoul bots: they see only their seat's view, play legally, and play better in order.

"Solvers and bots consume observations only. A bot never receives State; it cannot cheat,
and a test proves it." (DESIGN.md)

The strength targets: heuristic clearly beats random here; strong against heuristic over
1,000 seeded 6-player games (seats rotated, the same deals for both) is ``benchmarks/ghoul.py
--strength`` and the soak test at the bottom.
"""

from __future__ import annotations

import ast
import inspect
import json

import pytest
from bot_helpers import Spy, assert_blind_to, assert_plain

import solvers.ghoul.bots as bots_module
import solvers.ghoul.strong as strong_module
from engine.core import derive_seed
from engine.ghoul.data import load_data
from engine.ghoul.game import (
    EXCHANGE,
    MOVE,
    PRELIM_GIVE,
    PRELIM_SHOW,
    GhoulConfig,
    GhoulState,
    apply,
    legal_actions,
    new_game,
    view,
)
from solvers.bots import BOT_HELP, bot_names, make_bot
from solvers.ghoul.bots import HeuristicBot, RandomBot, StrongBot
from solvers.table import Table

CHARS = load_data().characters


def _config(game_no: int) -> GhoulConfig:
    return GhoulConfig(players=4 + game_no % 5, mask=game_no % 3 == 1, support=game_no % 4 >= 2)


def _table(game_no: int, seats: list[str] | None = None) -> Table:
    config = _config(game_no)
    seats = seats or [("heuristic", "random")[(i + game_no) % 2] for i in range(config.players)]
    return Table("ghoul", config, 100 + game_no, seats)


def test_registered_bots():
    assert bot_names("ghoul") == ["random", "heuristic", "strong"]
    assert isinstance(make_bot("ghoul", "heuristic", seat=1, seed=2), HeuristicBot)
    assert isinstance(make_bot("ghoul", "strong", seat=1, seed=2), StrongBot)
    assert set(BOT_HELP["ghoul"]) == {"random", "heuristic", "strong"}
    with pytest.raises(ValueError, match="Unknown ghoul bot"):
        make_bot("ghoul", "oracle", seat=0, seed=0)


@pytest.mark.parametrize("game_no", range(4))
def test_a_bot_receives_only_a_plain_view(game_no):
    """What a bot is handed is a plain, JSON-serialisable dict: no state, no RNG, nothing that
    leads back to the game."""
    t = _table(game_no, seats=(["strong"] + ["heuristic", "random"] * 4)[: _config(game_no).players])
    spies = {seat: Spy(bot) for seat, bot in t.bots.items()}
    t.bots = spies
    t.run_bots()
    assert t.is_over()
    for spy in spies.values():
        for v in spy.seen:
            assert type(v) is dict
            assert_plain(v)
            assert json.loads(json.dumps(v)) == v


def test_bot_modules_never_import_the_table_or_read_a_state():
    """The bots import nothing that holds the real game; the strong bot's search builds its own
    hypothetical worlds from the view (``engine.ghoul.game.hypothetical``)."""
    for module in (bots_module, strong_module):
        tree = ast.parse(inspect.getsource(module))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert "engine.ghoul.game" not in imported and "engine.ghoul" not in imported, module.__name__
        assert "solvers.table" not in imported and "engine.session" not in imported


def _swap_secrets(s: GhoulState, seat: int) -> GhoulState:
    """The same position, except two other players swapped characters: invisible from ``seat``."""
    others = [q for q in range(s.config.players) if q != seat]
    a, b = others[0], others[1]
    c = s.copy()
    chars = list(c.chars)
    chars[a], chars[b] = chars[b], chars[a]
    c.chars = tuple(chars)
    return c


@pytest.mark.parametrize("game_no", range(4))
def test_a_bot_cannot_tell_who_is_who(game_no):
    """Mid-game, swapping two other players' characters changes nothing in a seat's view, so no bot
    can act on it (instant-victory and end positions excepted: those reveal characters)."""
    t = _table(game_no, seats=(["strong", "heuristic", "random"] * 3)[: _config(game_no).players])
    checked = 0
    while not t.is_over():
        s = t.state
        seat = t.to_act()
        if s.phase in (MOVE, EXCHANGE):
            other = _swap_secrets(s, seat)
            assert_blind_to(t, s, other, view)
            checked += 1
        t.step_bot()
    assert checked


@pytest.mark.parametrize("game_no", range(30))
def test_bots_only_choose_legal_actions(game_no):
    kinds = ("random", "heuristic", "strong") if game_no % 5 == 0 else ("random", "heuristic")
    t = _table(game_no, seats=[kinds[(i + game_no) % len(kinds)] for i in range(_config(game_no).players)])
    while not t.is_over():
        legal = legal_actions(t.state)
        assert t.step_bot()
        assert tuple(t.log[-1][1]) in legal


def test_same_seed_same_game():
    seats = ["strong", "heuristic", "random", "heuristic", "strong", "random"]
    a = _table(7, seats=seats)
    b = _table(7, seats=seats)
    a.run_bots()
    b.run_bots()
    assert a.log == b.log and a.result() == b.result()


def test_a_bot_chooses_the_same_from_the_same_view():
    """A bot's randomness comes from its seed and the point in the game, not from call order."""
    t = _table(3, seats=["heuristic"] * _config(3).players)
    while t.state.phase != MOVE:
        t.step_bot()
    seat = t.to_act()
    v = view(t.state, seat)
    for kind in ("random", "heuristic", "strong"):
        picks = {make_bot("ghoul", kind, seat=seat, seed=9).choose(json.loads(json.dumps(v))) for _ in range(3)}
        assert len(picks) == 1, kind


def test_a_bot_with_no_legal_action_says_so():
    t = _table(2)
    seat = (t.to_act() + 1) % t.config.players
    v = view(t.state, seat)
    assert v["legal"] == []
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(seat=seat, seed=1).choose(v)


# ============================================================================ heuristic card logic


def _position(chars, hands, **fields) -> GhoulState:
    s = new_game(GhoulConfig(players=6, characters=tuple(chars)), 3)
    s = s.copy()
    s.chars = tuple(chars)
    s.hands = tuple(hands)
    for k, v in fields.items():
        setattr(s, k, v)
    from engine.ghoul import game as g

    s.legal = g._compute_legal(s)
    return s


SIX = ("kaneki", "kimi", "hide", "mado", "nishiki", "rize")


def test_heuristic_takes_the_card_it_needs():
    """Kaneki (stay alive with 2 Coffee) is shown a Coffee: he takes it and gives a card he does not need."""
    hands = [(1, 1, 1, 0, 0), (2, 0, 0, 1, 0), (0, 2, 1, 0, 0), (0, 1, 0, 2, 0), (1, 1, 1, 0, 0), (1, 0, 1, 1, 0)]
    s = _position(SIX, hands, phase=EXCHANGE, turn=0, target=1, shown=(0, 3), step=1, token=1, moved=True)
    a = HeuristicBot(0, 1).choose(view(s, 0))
    assert a[0] == "exchange" and a[2] == "coffee" and a[1] in ("food", "transformation")


def test_heuristic_does_not_feed_a_shown_pair():
    """The rulebook's advice: "If a player showed you two identical cards, do not give him a card of
    the same color.\""""
    s = new_game(GhoulConfig(players=6, characters=SIX), 4)
    while s.phase == PRELIM_SHOW:
        seat = s.first + s.order_pi
        a = legal_actions(s)[0]
        s = apply(s, a)
    assert s.phase == PRELIM_GIVE
    seat = (s.first + s.order_pi) % 6
    shown = s.prelim_show[(seat - 1) % 6]
    v = view(s, seat)
    choice = HeuristicBot(seat, 2).choose(v)
    if shown[0] == shown[1] and len(legal_actions(s)) > 1:
        assert choice[1] != v["prelim"]["shown_to_me"][0]


def test_heuristic_and_strong_play_every_variant():
    for mask in (False, True):
        for support in (False, True):
            t = Table(
                "ghoul",
                GhoulConfig(players=5, mask=mask, support=support),
                42,
                ["strong", "heuristic", "random", "heuristic", "strong"],
            )
            t.run_bots()
            assert t.is_over()


def _win_rates(games: int, a: str, b: str) -> tuple[float, float]:
    wins = {a: 0, b: 0}
    seat_games = {a: 0, b: 0}
    for g in range(games):
        for flip in (0, 1):
            seats = [(a, b)[(i + flip) % 2] for i in range(6)]
            t = Table("ghoul", GhoulConfig(players=6), derive_seed(5, "deal", g), seats)
            t.run_bots()
            for i, kind in enumerate(seats):
                seat_games[kind] += 1
                wins[kind] += i in t.result()["winners"]
    return wins[a] / seat_games[a], wins[b] / seat_games[b]


def test_heuristic_beats_random():
    """Heuristic against random over 300 games (150 deals, seats swapped): measured 0.39 against
    0.20; with 900 seat-games each the standard error is about 0.016, so a margin of 0.1 cannot
    fail by chance."""
    h, r = _win_rates(150, "heuristic", "random")
    assert h > r + 0.1, (h, r)


def strength(games: int, seed: int = 1, players: int = 6) -> dict:
    """Strong against heuristic: game g is played twice on the same deal, all heuristic and with a
    strong bot in seat g mod players; the strong seat's win rate against the heuristic one in that
    seat, overall and by the faction the seat was dealt."""
    rows: dict[str, list[int]] = {}
    for g in range(games):
        seat = g % players
        deal = derive_seed(seed, "game", g)
        config = GhoulConfig(players=players)
        base = Table("ghoul", config, deal, ["heuristic"] * players)
        base.run_bots()
        seats = ["heuristic"] * players
        seats[seat] = "strong"
        t = Table("ghoul", config, deal, seats)
        t.run_bots()
        faction = CHARS[t.result()["characters"][seat]].faction
        for key in ("all", faction):
            row = rows.setdefault(key, [0, 0, 0])
            row[0] += 1
            row[1] += seat in base.result()["winners"]
            row[2] += seat in t.result()["winners"]
    return {
        k: {"games": n, "heuristic": h / n, "strong": s / n, "ratio": (s / h) if h else float("inf")}
        for k, (n, h, s) in rows.items()
    }


def test_strong_is_not_worse_on_a_small_sample():
    """A quick check on 24 games (the real measure is the soak test below)."""
    res = strength(24, seed=77)
    assert res["all"]["strong"] >= res["all"]["heuristic"] - 0.1, res


@pytest.mark.soak
def test_strong_wins_135_times_as_often_as_heuristic():
    """Over 1,000 seeded 6-player games with the strong seat rotated, the strong bot wins at least
    1.35 times as often as the heuristic bot in the same seat on the same deal."""
    res = strength(1000)
    assert res["all"]["ratio"] >= 1.35, res


@pytest.mark.parametrize("game_no", range(5))
def test_sampled_worlds_look_like_the_view(game_no):
    """The strong bot's search plays in worlds built from its own view and sampled secrets: from its
    seat, every such world looks exactly like the real game (same hand, board, markers, choices)."""
    from engine.core import Rng
    from solvers.ghoul.search import build_world
    from solvers.ghoul.solver import sample_worlds

    t = _table(game_no, seats=["strong"] * _config(game_no).players)
    seen = 0
    while not t.is_over():
        seat = t.to_act()
        if t.state.phase in (MOVE, EXCHANGE) and t.state.turn == seat:
            bot = t.bots[seat]
            v = view(t.state, seat)
            bot._consume(v)
            sol = bot.beliefs()
            for world in sample_worlds(sol, 4, Rng(game_no)):
                w = build_world(v, world, Rng(1))
                wv = view(w, seat)
                for key in (
                    "hand",
                    "holding",
                    "face_up",
                    "markers",
                    "pool",
                    "token",
                    "reachable",
                    "phase",
                    "turn",
                    "legal",
                    "character",
                    "cast",
                    "interrogation",
                    "round",
                ):
                    assert wv[key] == v[key], key
                assert [r["face_up"] for r in wv["ring"]] == [r["face_up"] for r in v["ring"]]
                seen += 1
        t.step_bot()
    assert seen
