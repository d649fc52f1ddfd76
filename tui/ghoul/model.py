"""View models for the Tokyo Ghoul play screen: plain data and sentences from one seat's view.

Nothing here imports Textual, and nothing reads the game state: every function takes the
dict that ``table.view(seat)`` returns, so the screen can only show what the seat may know.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import words

SUIT_NAME = {"coffee": "Coffee", "food": "Food", "transformation": "Transformation", "dove": "Dove", "mask": "Mask"}
SUIT_ABBR = {"coffee": "Cof", "food": "Foo", "transformation": "Tra", "dove": "Dov", "mask": "Msk"}
SUIT_STYLE = {
    "coffee": "bold green",
    "food": "bold red",
    "transformation": "bold yellow",
    "dove": "bold dodger_blue1",
    "mask": "bold magenta",
}
FACTION_STYLE = {"human": "green", "ghoul": "red", "inspector": "dodger_blue1", "human+ghoul": "magenta"}
RULE_TEXT = {
    "coffee": "two Coffee",
    "food": "two Food",
    "dove": "two Dove",
    "pair": "any pair",
    "transformation": "a Transformation",
}
RULE_SHORT = {"coffee": "2 Cof", "food": "2 Foo", "dove": "2 Dov", "pair": "pair", "transformation": "1 Tra"}
REASONS = {
    "instant": "an instant victory",
    "attack": "an attack",
    "special": "the Inspectors' special action",
    "defence": "the Transformed Kaneki's defence",
    "pool": "the Pool of Suspicion markers ran out",
    "round-limit": "the round limit",
}
PHASE_TITLE = {
    "setup_face": "Your face-up card",
    "prelim_show": "Preliminary: show two cards",
    "prelim_give": "Preliminary: give a card",
    "move": "Move the Action token",
    "interrogate": "Interrogation",
    "show": "You are interrogated",
    "exchange": "Exchange a card",
    "refill": "A new face-up card",
    "cover_remove": "Cover Up Tracks: remove",
    "cover_add": "Cover Up Tracks: give",
    "attack": "Attack",
    "support": "Support token",
}


def suit(card: str | None) -> str:
    return SUIT_NAME.get(card or "", "?")


def cards_text(cards: list[str] | None, short: bool = False) -> str:
    """"Coffee, Food" (or "Cof Foo"); a dash for none."""
    if not cards:
        return "—"
    names = SUIT_ABBR if short else SUIT_NAME
    return (" " if short else ", ").join(names.get(c, "?") for c in cards)


def name(view: dict, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return "You" if seat == view["seat"] else view["players"][seat]


def obj(view: dict, seat: int | None) -> str:
    """A seat as the object of a sentence ("shows you")."""
    return "you" if seat == view["seat"] else name(view, seat)


def poss(view: dict, seat: int | None, start: bool = False) -> str:
    """"Aiko's", or "your" ("Your" at the start of a sentence)."""
    if seat == view["seat"]:
        return "Your" if start else "your"
    return name(view, seat) + "'s"


def markers(n: int) -> str:
    return f"{n} marker{'' if n == 1 else 's'}"


def verb(view: dict, seat: int | None, plain: str, third: str | None = None) -> str:
    """``plain`` for you, the third person otherwise ("look"/"looks")."""
    return plain if seat == view["seat"] else (third or plain + "s")


def char_short(cid: str | None) -> str:
    """"Touka", "Kaneki (half)": the names players use for the characters."""
    if not cid:
        return "?"
    if cid == "kaneki-half":
        return "Kaneki (half)"
    return cid.title()


def cast_by_id(view: dict) -> dict[str, dict]:
    return {c["id"]: c for c in view["cast"]}


def char_label(view: dict, cid: str | None) -> str:
    """"Touka (ghoul)" for a character in play."""
    c = cast_by_id(view).get(cid or "")
    if not c:
        return char_short(cid)
    return f"{char_short(cid)} ({c['faction']})"


def place_label(view: dict, place: int) -> str:
    """Places are 0–7 in the engine and 1–8 on screen."""
    cell = view["ring"][place]
    return f"{place + 1} {cell['name'] or 'face-down tile'}"


RULE_MEDIUM = {"coffee": "2 Coffee", "food": "2 Food", "dove": "2 Dove", "pair": "any pair",
               "transformation": "1+ Transf"}
MEDIUM = {("interrogation", None): "Interrogation", ("cover", None): "Cover Up",
          ("attack", "most"): "Attack: most", ("attack", "three"): "Attack: 3+"}


def action_text(act: dict, short: bool = False, medium: bool = False) -> str:
    """A location action as text: short fits 9 cells (80 columns), medium 14 (a tablet), else in full."""
    kind, rule = act["kind"], act.get("rule")
    if medium and not short:
        if kind == "suspicion":
            return f"Sus: {RULE_MEDIUM.get(rule or '', rule)}"
        return MEDIUM.get((kind, rule), kind)
    if kind == "interrogation":
        return "Interrog." if short else "Interrogation"
    if kind == "suspicion":
        return f"Sus {RULE_SHORT.get(rule or '', rule)}" if short else f"Suspicion: {RULE_TEXT.get(rule or '', rule)}"
    if kind == "cover":
        return "Cover up" if short else "Cover Up Tracks"
    if kind == "attack":
        if rule == "three":
            return "Atk 3+" if short else "Attack: 3+ markers"
        return "Atk most" if short else "Attack: most suspicious"
    return kind


# ----------------------------------------------------------------------------- the ring


@dataclass(frozen=True)
class RingCell:
    """One location as the screen draws it."""

    place: int
    title: str
    known: bool  # the tile was ever seen
    face_up: bool
    red: bool
    token: bool
    reachable: bool  # a click moves the token there now
    lines: list[str] = field(default_factory=list)  # its actions
    current: int | None = None  # the action being resolved (index into lines)


def ring_cells(view: dict, short: bool = False, medium: bool = False) -> list[RingCell]:
    reach = set(move_targets(view))
    out = []
    for cell in view["ring"]:
        p = cell["place"]
        acts = cell["actions"] or []
        current = view["action_index"] if cell["token"] and view["action_index"] is not None else None
        title = cell["name"] or ("red-edged tile" if cell["red"] else "unknown tile")
        out.append(
            RingCell(
                place=p,
                title=title,
                known=cell["tile"] is not None,
                face_up=cell["face_up"],
                red=cell["red"],
                token=cell["token"],
                reachable=p in reach,
                lines=[action_text(a, short, medium) for a in acts],
                current=current,
            )
        )
    return out


RING_ORDER = (0, 1, 2, 3, 7, 6, 5, 4)  # grid order: the top row left to right, the bottom row back


def move_targets(view: dict) -> list[int]:
    """Places a click on the ring moves the token to now (empty unless it is your move)."""
    if view["to_act"] != view["seat"] or view["phase"] != "move":
        return []
    return [a[1] for a in view["legal"] if a[0] == "move"]


# ----------------------------------------------------------------------------- players


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    me: bool
    turn: bool
    to_act: bool
    markers: int
    face_up: str | None
    hand: str  # your cards, or how many cards a player holds
    character: str | None  # known: yours, or revealed
    dead: bool


def known_characters(view: dict) -> dict[int, str]:
    """Seat -> character id, for what this seat knows: its own, and every public reveal."""
    out = {view["seat"]: view["character"]["id"]}
    for ev in view["events"]:
        t = ev["t"]
        if t == "instant":
            out[ev["seat"]] = ev["character"]
        elif t in ("attack",):
            out[ev["seat"]] = ev["character"]
            out[ev["target"]] = ev["target_character"]
        elif t == "special":
            out[ev["seat"]] = ev["character"]
    res = view.get("result")
    if res:
        for s, c in enumerate(res["characters"]):
            out[s] = c
    return out


def player_rows(view: dict) -> list[PlayerRow]:
    """Every seat in table order (clockwise from seat 0)."""
    chars = known_characters(view)
    rows = []
    for s, nm in enumerate(view["players"]):
        me = s == view["seat"]
        hand = cards_text(view["hand"], short=True) if me else words.count(view['hand_sizes'][s], 'card')
        rows.append(
            PlayerRow(
                seat=s,
                name="You" if me else nm,
                me=me,
                turn=s == view["turn"] and view["phase"] not in ("setup_face", "prelim_show", "prelim_give"),
                to_act=s == view["to_act"],
                markers=view["markers"][s],
                face_up=view["face_up"][s],
                hand=hand,
                character=chars.get(s),
                dead=view["dead"] == s,
            )
        )
    return rows


def markers_text(n: int) -> str:
    """Suspicion markers as dots (5 at most, then a number)."""
    return "●" * n if n <= 5 else f"●×{n}"


# ----------------------------------------------------------------------------- status and prompt


def status_line(view: dict, width: int | None = None) -> str:
    """The header: phase or round, whose turn, the Pool, who you are; the longest form within ``width``.

    Narrower forms drop words whose full text shows elsewhere on the screen: the Pool (its own line
    under the players), your faction (the You tab), then the end of a long name (the players' list
    and the log)."""
    v = view
    pool = f"Pool {v['pool']}/{v['pool_total']}"
    if v["over"]:
        return f"Game over · {pool}"
    setup = v["phase"] in ("setup_face", "prelim_show", "prelim_give")
    cid = v["character"]["id"]
    if setup:
        heads = ["Setup" if v["phase"] == "setup_face" else "Preliminary phase"] * 2
    else:
        whose = poss(v, v["turn"], start=True)
        heads = [f"Round {v['round']} · {whose} turn", f"R{v['round']} · {whose} turn"]
    forms = [
        f"{heads[0]} · {pool} · you are {char_label(v, cid)}",
        f"{heads[1]} · {pool} · you: {char_label(v, cid)}",
        f"{heads[1]} · you: {char_label(v, cid)}",
        f"{heads[1]} · you: {char_short(cid)}",
    ]
    for form in forms:
        if width is None or len(form) <= width:
            return form
    if not setup and v["turn"] != v["seat"]:
        tail = f"'s turn · you: {char_short(cid)}"
        room = max(4, width - len(f"R{v['round']} · ") - len(tail))
        who = name(v, v["turn"])
        return f"R{v['round']} · {who[: room - 1]}…{tail}" if len(who) > room else forms[-1]
    return forms[-1]


def prompt(view: dict) -> str:
    v = view
    if v["over"]:
        return "The game is over: press f (or Results) for who won and why."
    actor = v["to_act"]
    if actor is None:
        return ""
    if actor != v["seat"]:
        return f"{v['players'][actor]} is deciding… ({PHASE_TITLE.get(v['phase'], v['phase']).lower()})"
    phase = v["phase"]
    pend = v["pending"] or {}
    if phase == "move":
        extra = " Or use your special action (a)." if any(a[0] == "special" for a in v["legal"]) else ""
        return f"Your turn: tap a green location to move the Action token (or press a).{extra}"
    if phase == "show":
        return f"{name(v, pend.get('by'))} interrogates you: choose two cards to show (a)."
    if phase == "exchange":
        shown = (v["interrogation"] or {}).get("shown")
        return f"You were shown {cards_text(shown)}: exchange a card, or not (a)."
    return (pend.get("text") or "Your decision").rstrip(".") + " (a)."


def decision_kind(view: dict) -> str | None:
    """Which dialog the current decision needs (None when it is not your decision)."""
    if view["to_act"] != view["seat"] or view["over"]:
        return None
    return view["phase"]


# ----------------------------------------------------------------------------- actions and options


def action_label(view: dict, action: list | tuple) -> str:
    """A button label for one legal action."""
    v = view
    kind = action[0]
    if kind == "pass":
        return {
            "interrogate": "Interrogate nobody",
            "exchange": "No exchange",
            "cover_remove": "Remove none",
            "cover_add": "Give none",
            "attack": "Do not attack",
            "support": "Do nothing",
        }.get(v["phase"], "Pass")
    if kind == "move":
        return f"Move to {place_label(v, action[1])}"
    if kind == "special":
        return f"Kill {name(v, action[1])} ({markers(v['markers'][action[1]])}): special"
    if kind == "interrogate":
        t = action[1]
        n = 3 if v["markers"][t] >= 3 else 2
        return f"{name(v, t)} ({markers(v['markers'][t])}, shows {n})"
    if kind == "show":
        return f"{suit(action[1])} + {suit(action[2])}"
    if kind in ("give", "reveal"):
        return suit(action[1])
    if kind == "exchange":
        gf = " (face up)" if action[3] == "board" else ""
        tf = " (face up)" if action[4] == "board" else ""
        return f"Give {suit(action[1])}{gf}, take {suit(action[2])}{tf}"
    if kind == "remove":
        return f"Remove one from {obj(v, action[1])} ({v['markers'][action[1]]})"
    if kind == "add":
        return f"Give one to {obj(v, action[1])} ({v['markers'][action[1]]})"
    if kind == "attack":
        return f"Attack {name(v, action[1])} ({markers(v['markers'][action[1]])})"
    if kind == "look":
        return f"Look at {poss(v, action[1])} token"
    if kind == "swap":
        return f"Swap tokens with {name(v, action[1])}"
    return " ".join(str(x) for x in action)


def options(view: dict, kinds: tuple[str, ...] | None = None) -> list[tuple[str, list]]:
    """(label, action) for the legal actions (of ``kinds``), passing last."""
    legal = [a for a in view["legal"] if kinds is None or a[0] in kinds]
    legal.sort(key=lambda a: a[0] == "pass")
    return [(action_label(view, a), a) for a in legal]


def is_final(action: list | tuple) -> bool:
    """Actions that end the game at once: the screen asks before submitting them."""
    return action[0] in ("attack", "special")


def final_question(view: dict, action: list | tuple) -> str:
    t = action[1]
    if action[0] == "special":
        return (f"Use the special action on {name(view, t)}? You reveal yourself and {name(view, t)} dies: "
                "the game ends now, and the Inspectors win only if the victim is a Ghoul.")
    want = view["character"].get("kill") or "?"
    return (f"Attack {name(view, t)}? The game ends now; the kill meets your objective only if "
            f"{name(view, t)} is {'an' if want[0] in 'aeiou' else 'a'} {want.title()}.")


def dialog_text(view: dict) -> str:
    """The sentence above a decision's options: what you know that matters for it."""
    v = view
    phase = v["phase"]
    n = len(v["players"])
    me = v["seat"]
    if phase == "setup_face":
        return f"Your cards: {cards_text(v['hand'])}. Everyone sees this card; it counts as held."
    if phase == "prelim_show":
        left = (me + 1) % n
        return f"Your cards: {cards_text(v['hand'])}. {name(v, left)} (on your left) will see the two you pick."
    if phase == "prelim_give":
        right = (me - 1) % n
        pre = v["prelim"] or {}
        seen = pre.get("shown_to_me")
        extra = f" {name(v, right)} showed you {cards_text(seen)}." if seen else ""
        return f"Your cards: {cards_text(v['hand'])}. Give one to {name(v, right)} (on your right).{extra}"
    if phase == "move":  # each reachable location's actions in full: at 80 columns the ring says "Sus 2 Foo"
        lines = [f"{place_label(v, p)} — " + (", then ".join(action_text(a) for a in v["ring"][p]["actions"] or [])
                                            or "no action") for p in move_targets(v)]
        return "\n".join(["Move the token 1 or 2 face-up locations clockwise; the location's actions then happen "
                          "in order.", *lines])
    if phase == "interrogate":
        return ("The player shows you 2 cards of their hand (3 with 3+ markers); you may then exchange one. "
                f"Your cards: {cards_text(v['hand'])}.")
    if phase == "show":
        inter = v["interrogation"] or {}
        return (f"{name(v, inter.get('by'))} sees the two cards you pick and may take one of them. "
                f"Your cards: {cards_text(v['hand'])}.")
    if phase == "exchange":
        inter = v["interrogation"] or {}
        return (f"{name(v, inter.get('target'))} showed you {cards_text(inter.get('shown'))}. "
                f"Your cards: {cards_text(v['hand'])}"
                + (f" (face up: {suit(v['face_up'][me])})" if v["face_up"][me] else "") + ".")
    if phase == "refill":
        return f"Your face-up card left your board: place a new one. Your cards: {cards_text(v['hand'])}."
    if phase == "cover_remove":
        return "First you may remove one Suspicion marker from any board (yours too)."
    if phase == "cover_add":
        return f"Then you may give one marker from the Pool ({v['pool']} left) to any player (you too)."
    if phase == "attack":
        if not v["character"].get("kill"):
            # Every player on a location with a target is asked (issue 20), killer or not.
            return ("This location allows an attack, but you have no killing objective: you can only pass. "
                    "Everyone here is asked, so a pass tells nobody anything.")
        return (f"You may attack (killing objective: {v['character'].get('kill') or '?'}). "
                "The game ends at once; a pass tells nobody anything.")
    if phase == "support":
        sup = v["support"] or {}
        return f"Your Support token: {token_name(sup.get('token'))}. Look at a token, swap yours, or do nothing."
    return ""


def token_name(token: str | None) -> str:
    return {"kaneki": "Transformed Kaneki", "neutral": "Neutral"}.get(token or "", "unknown")


# ----------------------------------------------------------------------------- your character


def me_lines(view: dict) -> list[tuple[str, str]]:
    """(text, style) lines about you: character, objectives, cards, preliminary, Support."""
    v = view
    c = v["character"]
    lines = [(f"{c['name']} — {c['faction']}", "bold " + FACTION_STYLE.get(c["faction"], ""))]
    lines += [(f"• {o}", "") for o in c["objectives"]]
    lines.append((f"Hand: {cards_text(v['hand'])}", "bold"))
    if v["variants"]["mask"]:
        lines.append((f"Face up: {suit(v['face_up'][v['seat']]) if v['face_up'][v['seat']] else '—'}", ""))
    lines.append((f"Suspicion markers: {v['markers'][v['seat']]}", ""))
    pre = v["prelim"]
    if pre:
        if pre.get("my_show"):
            lines.append((f"You showed {cards_text(pre['my_show'])} to your left.", "dim"))
        if pre.get("shown_to_me"):
            lines.append((f"Your right neighbour showed you {cards_text(pre['shown_to_me'])}.", "dim"))
        if pre.get("gave"):
            lines.append((f"You gave {suit(pre['gave'])}; received {suit(pre.get('received'))}.", "dim"))
    if v["support"]:
        lines.append((f"Support token: {token_name(v['support']['token'])}", ""))
        known = [f"{name(v, s)}: {token_name(t)}" for s, t in enumerate(v["support"]["known"])
                 if t and s != v["seat"]]
        if known:
            lines.append(("Tokens you saw: " + ", ".join(known), "dim"))
    return lines


def cast_lines(view: dict) -> list[tuple[str, str]]:
    """Every character in play (public) with its objectives."""
    out = []
    for c in view["cast"]:
        mine = c["id"] == view["character"]["id"]
        out.append((f"{c['name']} — {c['faction']}" + ("  (you)" if mine else ""),
                    "bold " + FACTION_STYLE.get(c["faction"], "")))
        out += [(f"• {o}", "") for o in c["objectives"]]
    return out


# ----------------------------------------------------------------------------- the log


def describe(ev: dict, view: dict) -> str:
    """One log line for an event (empty when it is not worth a line)."""
    v = view
    t = ev["t"]

    def nm(seat: int | None) -> str:
        return name(v, seat)

    def ob(seat: int | None) -> str:
        return obj(v, seat)

    s = ev.get("seat")
    if t == "setup":
        cast = ", ".join(char_short(c) for c in ev["cast"])
        return f"{len(ev['players'])} players; in play: {cast}. {ev['pool']} markers in the Pool."
    if t == "identity" and ev.get("character"):
        return f"You are {cast_by_id(v).get(ev['character'], {}).get('name', ev['character'])}."
    if t == "hand" and ev.get("cards") is not None and s == v["seat"]:
        up = f" (face up: {suit(ev['face_up'])})" if ev.get("face_up") else ""
        return f"Your hand: {cards_text(ev['cards'])}{up}."
    if t == "support_token" and ev.get("token"):
        return f"Your Support token: {token_name(ev['token'])}."
    if t == "face_up":
        if ev["card"] is None:
            return f"{poss(v, s, start=True)} face-up card leaves the board."
        return f"{nm(s)} {verb(v, s, 'place')} {suit(ev['card'])} face up."
    if t == "prelim_shown" and ev.get("cards"):
        return f"{nm(s)} {verb(v, s, 'show')} {ob(ev['to'])} {cards_text(ev['cards'])}."
    if t == "prelim_given" and ev.get("card"):
        return f"{nm(s)} {verb(v, s, 'give')} {ob(ev['to'])} {suit(ev['card'])}."
    if t == "preliminary_done":
        return "The preliminary phase is over."
    if t == "turn":
        return f"— Round {ev['round']}: {poss(v, s, start=True)} turn."
    if t == "instant":
        return (f"{nm(s)} {verb(v, s, 'reveal')} {char_short(ev['character'])} with {cards_text(ev['cards'])}: "
                "instant victory!")
    if t == "move":
        shown = "".join(f" Revealed: {x['place'] + 1} {tile_name(v, x['tile'])}." for x in ev["revealed"])
        hid = f" Place {ev['hidden'] + 1} turns face down." if ev.get("hidden") is not None else ""
        return f"{nm(s)} {verb(v, s, 'move')} the token to {ev['to'] + 1} {tile_name(v, ev['tile'])}.{shown}{hid}"
    if t == "interrogate":
        if ev["target"] is None:
            return f"{nm(s)} {verb(v, s, 'interrogate')} nobody."
        return f"{nm(s)} {verb(v, s, 'interrogate')} {ob(ev['target'])} ({words.count(ev['count'], 'card')})."
    if t == "shown" and ev.get("cards"):
        return f"{nm(s)} {verb(v, s, 'show')} {ob(ev['to'])} {cards_text(ev['cards'])}."
    if t == "exchange":
        if ev.get("done") is None:
            return ""  # you were not part of it: nobody can tell whether cards changed hands
        if not ev["done"]:
            return f"{nm(s)} {verb(v, s, 'exchange')} nothing with {ob(ev['target'])}."
        return (f"{nm(s)} {verb(v, s, 'give')} {ob(ev['target'])} {suit(ev['gave'])} and "
                f"{verb(v, s, 'take')} {suit(ev['took'])}.")
    if t == "suspicion":
        who = ", ".join(nm(x) for x in ev["matched"]) or "nobody"
        took = "" if ev["took"] == ev["matched"] else f" (markers to {', '.join(nm(x) for x in ev['took']) or 'none'})"
        return f"Suspicion ({RULE_TEXT.get(ev['rule'], ev['rule'])}): {who}{took}. Pool {ev['pool']}."
    if t == "cover_remove":
        if ev["target"] is None:
            return f"{nm(s)} {verb(v, s, 'remove')} no marker."
        if ev["target"] == s:
            return f"{nm(s)} {verb(v, s, 'remove')} a marker from {'your' if s == v['seat'] else 'their'} own board."
        return f"{nm(s)} {verb(v, s, 'remove')} a marker from {ob(ev['target'])}."
    if t == "cover_add":
        if ev["target"] is None:
            return f"{nm(s)} {verb(v, s, 'give')} no marker."
        if ev["target"] == s:
            return f"{nm(s)} {verb(v, s, 'take')} a marker from the Pool. Pool {ev['pool']}."
        return f"{nm(s)} {verb(v, s, 'give')} {ob(ev['target'])} a marker. Pool {ev['pool']}."
    if t == "special":
        return (f"{nm(s)} {verb(v, s, 'reveal')} {char_short(ev['character'])} with {ev['doves']} Doves "
                f"and {verb(v, s, 'strike')} {ob(ev['target'])}!")
    if t == "attack":
        return (f"{nm(s)} ({char_short(ev['character'])}) {verb(v, s, 'attack')} {ob(ev['target'])} "
                f"({char_short(ev['target_character'])}): {nm(ev['victim'])} "
                f"{'die' if ev['victim'] == v['seat'] else 'dies'}.")
    if t == "support_look":
        if ev.get("token"):
            return f"You look at {poss(v, ev['target'])} Support token: {token_name(ev['token'])}."
        return f"{nm(s)} {verb(v, s, 'look')} at {poss(v, ev['target'])} Support token."
    if t == "support_swap":
        return f"{nm(s)} {verb(v, s, 'swap')} Support tokens with {ob(ev['target'])}."
    if t == "end":
        w = ev["winners"]
        return f"The end ({REASONS.get(ev['reason'], ev['reason'])}): " + (
            ", ".join(nm(x) for x in w) + (" win." if len(w) != 1 or w[0] == v["seat"] else " wins.")
            if w else "nobody wins.")
    return ""


def tile_name(view: dict, tile: str | None) -> str:
    for cell in view["ring"]:
        if cell["tile"] == tile and cell["name"]:
            return cell["name"]
    return (tile or "?").replace("-", " ").title()


# ----------------------------------------------------------------------------- the end


@dataclass(frozen=True)
class EndRow:
    seat: int
    name: str
    character: str  # full name
    faction: str
    cards: str
    markers: int
    won: bool
    why: list[str]


def _holds(cards: list[str], needs: dict) -> bool:
    return all(cards.count(s) >= k for s, k in needs.items())


def loss_reasons(view: dict, seat: int) -> list[str]:
    """Why ``seat`` did not win, read from its objectives and the result."""
    res = view["result"] or {}
    chars = res.get("characters") or []
    cast = cast_by_id(view)
    c = cast.get(chars[seat] if seat < len(chars) else "", {})
    reason = res.get("reason")
    if reason == "instant":
        w = res.get("winners") or [None]
        return [f"{name(view, w[0])} won instantly"]
    out = []
    victim, killer = res.get("victim"), res.get("killer")
    if seat == victim:
        out.append("was killed")
    if c.get("kill"):
        if c["faction"] == "inspector":
            out.append("the Inspectors killed no Ghoul")
        elif killer == seat:
            out.append(f"the victim was not {words.a(c['kill'].title())}")
        else:
            out.append(f"killed no {c['kill'].title()}")
    needs = c.get("alive_with") or {}
    if needs and seat != victim:
        held = (res.get("holdings") or [[]] * (seat + 1))[seat]
        if not _holds(held, needs):
            want = ", ".join(f"{k} {suit(s)}" for s, k in needs.items())
            out.append(f"did not hold {want}")
    partner = c.get("partner")
    if partner:
        if partner not in chars:
            out.append(f"{char_short(partner)} is not in play")
        elif chars.index(partner) == victim:
            out.append(f"{char_short(partner)} died")
    return out or ["no objective met"]


def end_rows(view: dict) -> list[EndRow]:
    res = view["result"] or {}
    chars = res.get("characters") or []
    holdings = res.get("holdings") or []
    markers = res.get("markers") or view["markers"]
    cast = cast_by_id(view)
    winners = set(res.get("winners") or [])
    why = res.get("why") or {}
    rows = []
    for s in range(len(view["players"])):
        cid = chars[s] if s < len(chars) else None
        c = cast.get(cid or "", {})
        won = s in winners
        rows.append(
            EndRow(
                seat=s,
                name=name(view, s),
                character=c.get("name", char_short(cid)),
                faction=c.get("faction", "?"),
                cards=cards_text(holdings[s] if s < len(holdings) else None),
                markers=markers[s],
                won=won,
                why=list(why.get(str(s), [])) if won else loss_reasons(view, s),
            )
        )
    return rows


def headline(view: dict) -> str:
    res = view["result"] or {}
    if view["seat"] in (res.get("winners") or []):
        return "You won!"
    return "You lost" if res.get("winners") else "Nobody won"


def end_reason(view: dict) -> str:
    """One sentence: how the game ended."""
    res = view["result"] or {}
    reason = res.get("reason")
    victim, killer = res.get("victim"), res.get("killer")
    chars = res.get("characters") or []

    def who(s: int) -> str:
        return f"{name(view, s)} ({char_short(chars[s] if s < len(chars) else None)})"

    if reason == "instant":
        w = (res.get("winners") or [None])[0]
        return f"{who(w)} claimed an instant victory." if w is not None else "An instant victory."
    if reason in ("attack", "special") and victim is not None and killer is not None:
        how = "used the special action on" if reason == "special" else "attacked"
        return f"{who(killer)} {how} {who(victim)}, who died."
    if reason == "defence" and victim is not None and killer is not None:
        return f"{who(victim)} attacked {who(killer)}, holder of the Transformed Kaneki token, and died."
    return f"The game ended: {REASONS.get(reason or '', reason or '')}."
