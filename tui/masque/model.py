"""View models for the Masque screens: sentences and tables built from one seat's view.

Nothing here imports Textual: the widgets draw what these functions return and hold no rules.
"""

from __future__ import annotations

from engine import words
from engine.masque import ROOMS, SLOTS, load_actions

ROOM_STYLE = {
    "black": "white on grey15",
    "blue": "white on dark_blue",
    "purple": "white on purple4",
    "green": "white on dark_green",
    "orange": "black on dark_orange",
    "white": "black on grey85",
    "violet": "black on violet",
}
ROOM_ABBR = {"black": "Bk", "blue": "Bu", "purple": "Pu", "green": "Gr", "orange": "Or", "white": "Wh", "violet": "Vi"}
DIR_LABEL = {"cw": "↻ cw", "ccw": "↺ ccw", "stay": "· stay"}
STEP = {"cw": 1, "ccw": -1, "stay": 0}
REASONS = {"most-popular-survivor": "the most popular survivor wins", "all-dead": "the Red Death took everyone"}


def card_name(card_id: str) -> str:
    return load_actions()[card_id].name


def card_text(card_id: str) -> str:
    return load_actions()[card_id].text


def name(view: dict, seat: int) -> str:
    return "You" if seat == view["seat"] else view["players"][seat]


def plan_rooms(start: str | None, plan: list[str]) -> list[str]:
    """The rooms a plan visits, slot by slot, from ``start``."""
    if start is None:
        return []
    i = ROOMS.index(start)
    out = []
    for d in plan:
        i = (i + STEP[d]) % len(ROOMS)
        out.append(ROOMS[i])
    return out


def plan_survival(start: str | None, plan: list[str], deadly: dict | None) -> float | None:
    """The chance a plan survives under the solver's per-slot death table (None without one)."""
    if start is None or not deadly:
        return None
    p = 1.0
    for slot, room in zip(SLOTS, plan_rooms(start, plan), strict=True):
        p *= 1.0 - deadly[slot][room]
    return p


def status_line(v: dict) -> str:
    me = v["seat"]
    if v["over"]:
        head = "Midnight has struck: the game is over"
    elif v["round"] == 0:
        head = "Setup: place the nobles"
    elif v["round"] > v["rounds"]:
        head = "Before midnight: final plans"
    else:
        head = f"Round {v['round']}/{v['rounds']} · {v['clock']}"
    pop = v["popularity"][me]
    rank = v["order"][::-1].index(me) + 1
    where = (v["positions"][me] or "").title() or "not placed" if v["alive"][me] else "dead"
    return f"{head} · you: {where}, {pop} (#{rank})"


def prompt(v: dict) -> str:
    if v["over"]:
        return "The game is over: press f (or Results) for the end screen."
    me = v["seat"]
    if v["to_act"] != me:
        if v["to_act"] is None:
            return ""
        return f"{v['players'][v['to_act']]} is deciding…"
    phase = v["phase"]
    res = v.get("resolving") or {}
    card = card_name(res["card"]) if res.get("card") else ""
    return {
        "place": "Place your noble: click a room (or press a for the list).",
        "choose": "Choose your Action card (a). You may edit your midnight plan now (p).",
        "target": f"{card}: choose the nearby noble (a).",
        "ask": f"{card}: choose whom to ask and name a time slot (a).",
        "give": f"{card}: choose which Rumor card to give (a).",
        "look": f"Evidence {SLOTS[res.get('slot') or 0]}: choose which Red Death card to look at (a).",
        "peek": f"{card}: choose a Red Death card to look at (a).",
        "waltz": f"{card}: move to any room: click it (or a).",
        "return": f"{card}: take back a discarded card, or stop (a).",
        "move": "Move to an adjacent room or stay: click a room (or a).",
        "plan": "Final plans: edit your plan (p), then press Ready (y).",
    }.get(phase, "Your turn (a).")


def action_label(v: dict, action: list) -> str:
    kind = action[0]
    if kind == "place":
        return f"Place in {action[1].title()}"
    if kind == "play":
        return f"{card_name(action[1])}: {card_text(action[1])}"
    if kind == "target":
        return f"Target {name(v, action[1])}"
    if kind == "ask":
        return f"Ask {name(v, action[1])} for {SLOTS[action[2]]}"
    if kind == "give":
        return f"Give {action[2]} to {name(v, action[1])}"
    if kind == "look":
        return f"Look at Red Death card {action[1] + 1}"
    if kind == "peek":
        return f"Look at {SLOTS[action[1]]} Red Death card {action[2] + 1}"
    if kind == "waltz":
        return f"Waltz to {action[1].title()}"
    if kind == "return":
        return f"Take back {card_name(action[1])}"
    if kind == "done":
        return "Done"
    if kind == "move":
        here = v["positions"][v["seat"]]
        return f"Stay in {action[1].title()}" if action[1] == here else f"Move to {action[1].title()}"
    if kind == "ready":
        return "Ready: my plan is final"
    return " ".join(str(x) for x in action)


def choice_actions(v: dict) -> list[list]:
    """The legal actions offered in the action list (plan tiles have their own editor)."""
    return [a for a in v["legal"] if a[0] != "tile"]


def room_actions(v: dict) -> dict[str, list]:
    """Room -> the legal action a click on that room does now."""
    return {a[1]: a for a in v["legal"] if a[0] in ("place", "move", "waltz")}


def describe(ev: dict, v: dict) -> str:
    """One log line for an event (empty when it is not worth a line)."""
    t = ev["t"]

    def nm(seat: int) -> str:
        return name(v, seat)

    def vb(seat: int, base: str) -> str:  # "You take", "Ann takes"
        return base if seat == v["seat"] else base + ("es" if base.endswith(("s", "sh")) else "s")

    if t == "setup":
        return f"The masque begins: {len(ev['players'])} nobles, {ev['red_death']} Red Death cards per slot."
    if t == "deal" and ev.get("card"):
        return f"Your Personality card: {card_name(ev['card'])}."
    if t == "place":
        return f"{nm(ev['seat'])} enter{'' if ev['seat'] == v['seat'] else 's'} the {ev['room'].title()} room."
    if t == "round":
        return f"— Round {ev['round']} ({ev['clock']}), the Prince is in {ev['prince'].title()}."
    if t == "pop":
        sign = "+" if ev["change"] >= 0 else ""
        why = card_name(ev["why"]) if ev["why"] in load_actions() else ev["why"]
        if ev.get("wanted") is not None and ev["change"] == 0:
            return f"{nm(ev['seat'])}: no popularity lost, already at the bottom of the track ({why})."
        short = f"; {-ev['wanted']} asked, the bottom of the track stops it" if ev.get("wanted") is not None else ""
        return f"{nm(ev['seat'])}: {sign}{ev['change']} popularity → {ev['to']} ({why}{short})."
    if t == "reveal":
        cards = ", ".join(f"{nm(i)} {card_name(c)}" for i, c in enumerate(ev["cards"]) if c)
        return f"Revealed: {cards}."
    if t == "draw":
        return f"{nm(ev['seat'])} draw{'' if ev['seat'] == v['seat'] else 's'} {ev['card'] or 'a Rumor card'}."
    if t == "look":
        room = f": {ev['room'].title()}" if ev.get("room") else ""
        verb = "look" if ev["seat"] == v["seat"] else "looks"
        return f"{nm(ev['seat'])} {verb} at {SLOTS[ev['slot']]} Red Death card {ev['index'] + 1}{room}."
    if t == "target":
        return f"{nm(ev['seat'])} {vb(ev['seat'], 'target')} {nm(ev['target'])} ({card_name(ev['card'])})."
    if t == "ask":
        got = f": {ev['card']}" if ev.get("card") else ""
        at = "at " if ev["how"] == "look" else ""
        if ev.get("matched") is False:  # no card of the named slot: one from the whole hand
            return (
                f"{nm(ev['seat'])} {vb(ev['seat'], 'ask')} {nm(ev['target'])} for {SLOTS[ev['slot']]}: none,"
                f" so {'you' if ev['seat'] == v['seat'] else nm(ev['seat'])} {vb(ev['seat'], ev['how'])} {at}"
                f"any card ({ev['offered']} offered){got}."
            )
        return (
            f"{nm(ev['seat'])} {vb(ev['seat'], ev['how'])} {at}"
            f"{words.a(SLOTS[ev['slot']])} card of {nm(ev['target'])}"
            f" ({ev['offered']} offered){got}."
        )
    if t == "give":
        got = f" {ev['card']}" if ev.get("card") else " a card"
        return f"{nm(ev['seat'])} {vb(ev['seat'], 'give')}{got} to {nm(ev['target'])}."
    if t == "move":
        if ev["from"] == ev["to"]:
            return f"{nm(ev['seat'])} {vb(ev['seat'], 'stay')} in {ev['to'].title()}."
        return f"{nm(ev['seat'])}: {ev['from'].title()} → {ev['to'].title()}."
    if t == "return":
        return f"{nm(ev['seat'])} {vb(ev['seat'], 'take')} back {card_name(ev['card'])}."
    if t == "fizzle":
        whose = "Your" if ev["seat"] == v["seat"] else f"{nm(ev['seat'])}'s"
        return f"{whose} {card_name(ev['card'])}: {ev['effect']} has no effect."
    if t == "prince":
        return f"The Prince moves to {ev['room'].title()} ({ev['clock']})."
    if t == "plan":
        return "Round 12 is over: final midnight plans."
    if t == "midnight":
        return "MIDNIGHT: the plans are revealed."
    if t == "slot":
        plans = v.get("plans") or []
        parts = []
        for s, room in enumerate(ev["positions"]):
            if room is None:
                continue
            d = plans[s][ev["slot"]] if plans else None
            you = s == v["seat"]
            if d == "stay":
                parts.append(f"{nm(s)} stay{'' if you else 's'} in {room.title()}")
            else:
                parts.append(f"{nm(s)} go{'' if you else 'es'} {ARROW.get(d or '', '')} to {room.title()}")
        return f"{SLOTS[ev['slot']]}: " + "; ".join(parts) + "." if parts else ""
    if t == "red_death":
        if not ev["killed"]:
            return f"{SLOTS[ev['slot']]}: the Red Death in {ev['room'].title()} finds nobody."
        return f"{SLOTS[ev['slot']]}: the Red Death in {ev['room'].title()} takes {names_and(v, ev['killed'])}."
    if t == "end":
        w = ev["winners"]
        return f"The end: {nm(w[0]) + ' win' + ('' if w[0] == v['seat'] else 's') if w else 'nobody wins'}."
    return ""


def risk_rows(result: dict | None) -> list[tuple[str, list[tuple[str, str]]]]:
    """Rows of the safe-room grid: (slot, [(cell text, style) per room])."""
    rows = []
    for slot in SLOTS:
        cells = []
        for room in ROOMS:
            if not result or result.get("status") != "ok":
                cells.append(("  ?", "dim"))
                continue
            p = result["deadly"][slot][room]
            if p <= 0.0:
                cells.append(("  ✓", "bold green"))
            elif p >= 1.0:
                cells.append(("  ✗", "bold red"))
            else:
                cells.append((f"{round(p * 100):3d}", "yellow" if p > 0.3 else ""))
        rows.append((slot, cells))
    return rows


def deaths(v: dict) -> dict[int, tuple[str, str]]:
    """Seat -> (slot, room) where the Red Death took it."""
    out = {}
    for ev in v["events"]:
        if ev["t"] == "red_death":
            for s in ev["killed"]:
                out[s] = (SLOTS[ev["slot"]], ev["room"])
    return out


# --------------------------------------------------------------------------- midnight, step by step

ARROW = {"cw": "↻", "ccw": "↺", "stay": "·"}


def names_and(v: dict, seats: list[int]) -> str:
    """"Ann", "Ann and you", "Ann, Bob and you": you come last and in lower case."""
    names = [v["players"][s] for s in seats if s != v["seat"]] + (["you"] if v["seat"] in seats else [])
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def midnight_steps(v: dict) -> list[dict]:
    """The midnight play-out in the order a table plays it: the plans are revealed, then for each
    time slot the nobles move and the Red Death's cards of that slot are turned up.

    Each step says where every noble stands (the dead where they fell), who is dead, which rooms
    the Red Death holds, and ``upto``: the last event the log may show at this step, so the log
    does not tell the end before the board does. Empty before midnight.
    """
    events = v["events"]
    start = next((e for e in events if e["t"] == "midnight"), None)
    if start is None or not v["midnight"]:
        return []
    plans = start["plans"]
    slot_n = {e["slot"]: e["n"] for e in events if e["t"] == "slot"}
    strike_n: dict[int, int] = {}
    for e in events:
        if e["t"] == "red_death":
            strike_n[e["slot"]] = e["n"]
    pos: list[str | None] = list(start["positions"])
    dead: list[int] = []
    steps = [{"kind": "reveal", "slot": None, "positions": list(pos), "dead": [], "red": [], "killed": [],
              "moves": [], "upto": start["n"]}]
    for row in v["midnight"]:
        k = row["slot"]
        moves = []
        for s, room in enumerate(row["positions"]):
            if room is not None and s not in dead:
                moves.append((s, plans[s][k], pos[s], room))
                pos[s] = room
        steps.append({"kind": "move", "slot": k, "positions": list(pos), "dead": list(dead), "red": [],
                      "killed": [], "moves": moves, "upto": slot_n.get(k, start["n"])})
        killed = [s for group in row["killed"] for s in group]
        dead = dead + [s for s in killed if s not in dead]
        steps.append({"kind": "strike", "slot": k, "positions": list(pos), "dead": list(dead),
                      "red": list(row["red_death"]), "killed": killed, "moves": moves,
                      "upto": strike_n.get(k, slot_n.get(k, start["n"]))})
    steps[-1]["upto"] = events[-1]["n"]
    return steps


def midnight_status(v: dict, step: dict) -> str:
    """The header line during the play-out: the slot, and where you stand (or that you died)."""
    me = v["seat"]
    head = "Midnight · the plans are revealed" if step["slot"] is None else (
        f"Midnight · {SLOTS[step['slot']]} ({step['slot'] + 1}/{len(SLOTS)})")
    where = "dead" if me in step["dead"] else (step["positions"][me] or "").title()
    return f"{head} · you: {where}, {v['popularity'][me]}"


def midnight_sentence(v: dict, step: dict) -> str:
    """What happens at this step, in one sentence."""
    me = v["seat"]
    if step["kind"] == "reveal":
        return "Midnight strikes: every plan is revealed (Night tab). Now the nobles move, slot by slot."
    slot = SLOTS[step["slot"]]
    if step["kind"] == "move":
        mine = next((mv for mv in step["moves"] if mv[0] == me), None)
        if mine is None:
            return f"{slot}: the nobles move."
        _s, d, frm, to = mine
        if d == "stay":
            return f"{slot}: the nobles move; you stay in {to.title()}."
        way = "clockwise" if d == "cw" else "counterclockwise"
        return f"{slot}: the nobles move; you go {ARROW[d]} {way} from {(frm or '').title()} to {to.title()}."
    rooms = [r.title() for r in step["red"]]
    where = rooms[0] if len(rooms) == 1 else ", ".join(rooms[:-1]) + " and " + rooms[-1]
    if not step["killed"]:
        return f"{slot}: the Red Death appears in {where} and finds nobody."
    return f"{slot}: the Red Death appears in {where} and takes {names_and(v, step['killed'])}."


def midnight_moves_line(v: dict, moves: list) -> str:
    """Every noble's move of one slot: "You ↻ Purple, Ann · Blue"."""
    return ", ".join(f"{name(v, s)} {ARROW[d]} {to.title()}" for s, d, _frm, to in moves)
