"""Advice from a solution: whom to interrogate, where to move the token, whether to attack.

Everything here is read off the solver's exact marginals (no search; the strong bot adds a
search over sampled worlds on top). The scores are documented in ``docs/ghoul.md``:

* ``interrogate``: for each other player, the chance that they hold at least one card of a
  suit I still need (``p_useful``), and, for a killer, the chance that they are my target.
* ``move``: for each place the token can reach, what the location does, whether I would
  draw suspicion there, how many markers the others are expected to draw, and a score.
* ``attack`` (killers) and ``special`` (Inspectors): who can be attacked now, and the chance
  that killing each player meets my killing objective.
"""

from __future__ import annotations

from typing import Any

from engine.ghoul.data import DOVE, SUITS, load_data
from solvers.ghoul.hands import matches

_DATA = load_data()
_CHARS = _DATA.characters


def _needs(cid: str) -> list[int]:
    c = _CHARS[cid]
    need = [0] * 5
    for s, k in c.alive_with:
        need[s] = max(need[s], k)
    if c.instant:
        need[c.instant[0]] = max(need[c.instant[0]], c.instant[1])
    if c.inspector_x:
        need[DOVE] = max(need[DOVE], 2)
    return need


def _destinations(token: int, face: list[bool]) -> list[int]:
    out = []
    p = token
    for _ in range(7):
        p = (p + 1) % 8
        if face[p]:
            out.append(p)
            if len(out) == 2:
                break
    return out


def kind_probability(sol: Any, q: int, kind: str) -> float:
    """The chance that player ``q`` counts as ``kind`` (human, ghoul, inspector)."""
    return sum(v for c, v in sol.identity[q].items() if kind in _CHARS[c].kinds)


def p_match(sol: Any, q: int, rule: str) -> float:
    """The chance that player ``q`` draws suspicion under ``rule``."""
    return sum(v for h, v in sol.hand_probs[q].items() if matches(h, rule))


def compute_advice(sol: Any) -> dict[str, Any]:
    f = sol.filtered
    p = f.problem
    me = p.me
    names = p.names
    char = _CHARS[p.character]
    need = _needs(p.character)
    hold = max(sol.hand_probs[me].items(), key=lambda kv: kv[1])[0]
    lacking = [s for s in range(5) if need[s] > hold[s]]
    others = [q for q in range(p.n) if q != me and q != f.victim]
    # Interrogation.
    inter = []
    for q in others:
        useful = sum(v for h, v in sol.hand_probs[q].items() if any(h[s] >= 1 for s in lacking)) if lacking else 0.0
        row: dict[str, Any] = {"player": names[q], "p_useful": round(float(useful), 4)}
        if char.kill:
            row["p_target"] = round(kind_probability(sol, q, char.kill), 4)
        inter.append(row)
    inter.sort(key=lambda r: (-r["p_useful"], -r.get("p_target", 0.0), r["player"]))
    # Attack / special.
    attack = None
    if char.kill and not f.over:
        top = max((f.markers[q] for q in others), default=0)
        targets = []
        for q in others:
            targets.append(
                {
                    "player": names[q],
                    "p_success": round(kind_probability(sol, q, char.kill), 4),
                    "markers": f.markers[q],
                    "eligible_most": top >= 1 and f.markers[q] == top,
                    "eligible_three": f.markers[q] >= 3,
                    "p_kaneki_token": round(f.support[q], 4) if f.support is not None else 0.0,
                }
            )
        targets.sort(key=lambda r: -r["p_success"])
        # Attack now when a likely victim is eligible, or take the best chance left when the Pool
        # is about to run out (a killer who never attacks cannot win).
        late = f.pool <= p.n
        eligible = [t for t in targets if t["eligible_most"] or t["eligible_three"]]
        best = eligible[0] if eligible else None
        recommend = None
        if best is not None and (best["p_success"] >= 0.5 or (late and best["p_success"] > 0)):
            recommend = best["player"]
        attack = {"kill": char.kill, "targets": targets, "recommend": recommend, "pool_nearly_empty": late}
    special = None
    if char.inspector_x and not f.over:
        x = char.inspector_x
        special = {
            "available": hold[DOVE] >= 2,
            "x": x,
            "targets": [
                {"player": names[q], "p_ghoul": round(kind_probability(sol, q, "ghoul"), 4)}
                for q in others
                if f.markers[q] >= x
            ],
        }
    # Moves.
    moves = None
    if f.ring is not None and not f.over:
        moves = []
        best_useful = inter[0]["p_useful"] if inter else 0.0
        for place in _destinations(f.token, f.face):
            tid = f.ring[place]
            tile = _DATA.tiles.get(tid) if tid else None
            row = {"place": place, "tile": tid, "actions": [], "score": 0.0}
            if tile is None:
                moves.append(row)
                continue
            score = 0.0
            for act in tile.actions:
                a: dict[str, Any] = {"kind": act.kind, "rule": act.rule}
                if act.kind == "suspicion":
                    mine = matches(hold, act.rule)
                    exp = sum(p_match(sol, q, act.rule) for q in others)
                    a["i_draw"] = mine
                    a["expected_others"] = round(exp, 3)
                    score += -(1.0 + f.markers[me]) * mine + 0.2 * exp
                elif act.kind == "interrogation":
                    score += best_useful
                elif act.kind == "cover":
                    score += 0.5 if f.markers[me] else 0.1
                elif act.kind == "attack" and attack:
                    top = max((f.markers[q] for q in others), default=0)
                    ok = [
                        t
                        for t in attack["targets"]
                        if (t["eligible_most"] if act.rule == "most" else t["eligible_three"])
                    ]
                    a["targets"] = [t["player"] for t in ok]
                    if ok and top >= 1:
                        score += max(t["p_success"] for t in ok)
                row["actions"].append(a)
            row["score"] = round(score, 4)
            moves.append(row)
        moves.sort(key=lambda r: -r["score"])
    out = {
        "needs": {SUITS[s]: need[s] for s in range(5) if need[s]},
        "lacking": [SUITS[s] for s in lacking],
        "interrogate": inter,
        "move": moves,
        "attack": attack,
        "special": special,
    }
    out["summary"] = _summary(out, names)
    return out


def _summary(a: dict[str, Any], names: list[str]) -> str:
    """One sentence a person can act on."""
    parts = []
    if a["special"] and a["special"]["available"] and a["special"]["targets"]:
        best = max(a["special"]["targets"], key=lambda t: t["p_ghoul"])
        parts.append(f"special action on {best['player']} kills a Ghoul with p={best['p_ghoul']:.2f}")
    if a["attack"] and a["attack"]["recommend"]:
        parts.append(f"attack {a['attack']['recommend']} when you can")
    elif a["attack"] and a["attack"]["targets"]:
        best = a["attack"]["targets"][0]
        parts.append(f"best attack target {best['player']} (p={best['p_success']:.2f})")
    if a["lacking"] and a["interrogate"]:
        best = a["interrogate"][0]
        parts.append(f"interrogate {best['player']} for {', '.join(a['lacking'])} (p={best['p_useful']:.2f})")
    if a["move"]:
        m = a["move"][0]
        where = _DATA.tiles[m["tile"]].name if m["tile"] else "a face-down tile"
        parts.append(f"move the token to {where} (place {m['place'] + 1})")  # places 1-8, as on the table
    if not parts:
        return "Nothing to advise."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."
