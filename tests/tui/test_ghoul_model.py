"""The Tokyo Ghoul view models: pure functions of one seat's view (no Textual)."""

from __future__ import annotations

import json

from engine.ghoul import GhoulConfig
from solvers.bots import make_bot
from solvers.table import Table
from tui.ghoul import model as m
from tui.ghoul.dialogs import PICKS


def table(seed: int = 1, players: int = 6, **kw) -> Table:
    bots = (["heuristic", "random"] * 4)[: players - 1]
    return Table("ghoul", GhoulConfig(players=players, **kw), seed, ["human", *bots])


def play_to(t: Table, want, limit: int = 3000) -> dict:
    me = make_bot("ghoul", "heuristic", 0, 99)
    for _ in range(limit):
        v = t.view(0)
        if want(v):
            return v
        assert not t.is_over(), "the game ended first"
        if t.to_act() == 0:
            t.submit(0, tuple(me.choose(v)))
        else:
            t.step_bot()
    raise AssertionError("position not reached")


def test_ring_cells_follow_the_view():
    v = table().view(0)
    cells = m.ring_cells(v)
    assert [c.place for c in cells] == list(range(8))
    assert sorted(m.RING_ORDER) == list(range(8))
    token = [c for c in cells if c.token]
    assert len(token) == 1 and token[0].place == v["token"]
    for c, cell in zip(cells, v["ring"], strict=True):
        assert c.red == cell["red"] and c.face_up == cell["face_up"]
        assert c.known == (cell["tile"] is not None)
        assert len(c.lines) == len(cell["actions"] or [])
    assert not any(c.reachable for c in cells), "nothing is reachable while it is not our move"


def test_reachable_only_on_our_move():
    t = table()
    v = play_to(t, lambda v: v["to_act"] == 0 and v["phase"] == "move")
    reach = {c.place for c in m.ring_cells(v) if c.reachable}
    assert reach == {a[1] for a in v["legal"] if a[0] == "move"} == set(m.move_targets(v))
    assert "tap a green location" in m.prompt(v)


def test_short_action_texts_fit_a_narrow_cell():
    for rule in ("coffee", "food", "dove", "pair", "transformation"):
        assert len(m.action_text({"kind": "suspicion", "rule": rule}, short=True)) <= 10
    for kind, rule in (("interrogation", None), ("cover", None), ("attack", "most"), ("attack", "three")):
        assert len(m.action_text({"kind": kind, "rule": rule}, short=True)) <= 10
    for rule in ("coffee", "food", "dove", "pair", "transformation"):
        assert len(m.action_text({"kind": "suspicion", "rule": rule}, medium=True)) <= 14
    for kind, rule in (("interrogation", None), ("cover", None), ("attack", "most"), ("attack", "three")):
        assert len(m.action_text({"kind": kind, "rule": rule}, medium=True)) <= 14
    assert m.action_text({"kind": "suspicion", "rule": "pair"}) == "Suspicion: any pair"


def test_player_rows_show_my_hand_and_only_known_characters():
    v = table().view(0)
    rows = m.player_rows(v)
    assert len(rows) == 6 and rows[0].me and rows[0].name == "You"
    assert rows[0].character == v["character"]["id"]
    assert all(r.character is None for r in rows[1:]), "other identities are secret"
    assert rows[0].hand == m.cards_text(v["hand"], short=True)
    assert rows[1].hand == "3 cards"
    assert m.markers_text(3) == "●●●" and m.markers_text(7) == "●×7"


def test_every_decision_has_labelled_options():
    """Each phase the human can face maps to a dialog whose options are the legal actions."""
    seen = set()
    for seed in range(1, 25):
        t = table(seed, support=seed % 2 == 0, mask=seed % 3 == 0)
        me = make_bot("ghoul", "heuristic", 0, seed)
        while not t.is_over():
            if t.to_act() != 0:
                t.step_bot()
                continue
            v = t.view(0)
            kind = m.decision_kind(v)
            assert kind == v["phase"]
            seen.add(kind)
            if kind != "exchange":
                _cols, kinds = PICKS[kind]
                opts = m.options(v, kinds)
                assert sorted(map(tuple, (a for _l, a in opts))) == sorted(map(tuple, v["legal"]))
                assert all(label and "[" not in label for label, _a in opts)
                assert opts[-1][1] == ["pass"] or ["pass"] not in v["legal"], "passing comes last"
            assert m.dialog_text(v)
            assert m.prompt(v).endswith("(a).") or kind == "move"
            t.submit(0, tuple(me.choose(v)))
    assert {"prelim_show", "prelim_give", "move", "interrogate", "exchange"} <= seen


def test_log_lines_never_leak_and_speak_of_you():
    t = table(3)
    play_to(t, lambda v: v["over"])
    v = t.view(0)
    lines = [m.describe(ev, v) for ev in v["events"]]
    assert any(line.startswith("— Round 1") for line in lines)
    assert not any(bad in line for line in lines for bad in ("You's", "shows You", "gives You", "with You"))
    assert lines[-1].startswith("The end")
    hidden = t.view(1)
    for ev in hidden["events"]:
        if ev["t"] == "hand" and ev["seat"] == 0:
            assert m.describe(ev, hidden) == "", "another seat's hand is never described"


def test_end_rows_explain_every_player():
    t = table(3)
    v = play_to(t, lambda v: v["over"])
    rows = m.end_rows(v)
    res = v["result"]
    assert [r.won for r in rows] == [s in res["winners"] for s in range(6)]
    assert all(r.why for r in rows), "every player gets a reason"
    assert {r.character for r in rows} == {c["name"] for c in v["cast"]}
    assert m.headline(v) in ("You won!", "You lost", "Nobody won")
    assert m.end_reason(v)


def test_loss_reasons_read_the_objectives():
    v = table().view(0)
    cast = {c["id"]: c for c in v["cast"]}
    ids = [c["id"] for c in v["cast"]]
    human = next(i for i in ids if cast[i]["faction"] == "human" and cast[i]["alive_with"])
    v = json.loads(json.dumps(v))
    v["result"] = {"winners": [], "reason": "pool", "why": {}, "characters": ids,
                   "holdings": [["food", "dove", "dove"]] * 6, "victim": None, "killer": None,
                   "markers": [0] * 6}
    seat = ids.index(human)
    assert any("did not hold 2 Coffee" in r for r in m.loss_reasons(v, seat))
    v["result"].update(reason="attack", victim=seat, killer=(seat + 1) % 6)
    assert "was killed" in m.loss_reasons(v, seat)
    v["result"].update(reason="instant", winners=[2])
    assert m.loss_reasons(v, 0) == [f"{v['players'][2]} won instantly"]


def test_final_actions_ask_first():
    v = table().view(0)
    assert m.is_final(("attack", 1)) and m.is_final(("special", 2))
    assert not m.is_final(("interrogate", 1)) and not m.is_final(("pass",))
    assert "game ends" in m.final_question(v, ("attack", 1))
