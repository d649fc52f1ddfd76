"""View models for the Mascarade play screen: plain data and sentences from a seat's view (no textual)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import words

# The action bar: (kind, key, label, what it does in full).
ACTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("swap", "s", "Swap…", "Swap or pretend to swap your card with another player or a table card"),
    ("look", "l", "Look", "Look at your own card"),
    ("announce", "a", "Announce…", "Announce a mask and use its power"),
    ("claim", "c", "Claim", "Claim the announced mask too (me too!)"),
    ("pass", "p", "Pass", "Let the announcement go"),
    ("choose", "w", "Choose…", "Make the choice the power asks for"),
)
CHOICE_KINDS = {"power": "choose", "spy_swap": "choose", "name": "choose"}
REASONS = {"coins": "reached 13 coins", "bankrupt": "a player ran out of coins: the richest win",
           "cheater": "the Cheater won with 10 coins or more", "turn-limit": "the turn limit: the richest win"}


def mask_name(view: dict, mask: str | None) -> str:
    if mask is None:
        return "?"
    return view["mask_names"].get(mask, mask.title())


def place_name(view: dict, place: int) -> str:
    return view["places"][place]


def place_label(view: dict, place: int) -> str:
    """The place's name, marked when it is your seat (unless your name already says so)."""
    name = place_name(view, place)
    return name if place != view["seat"] or name == "You" else f"{name} (you)"


def legal_kinds(view: dict) -> set[str]:
    """The action-bar kinds the seat may use now."""
    if view["to_act"] != view["seat"]:
        return set()
    return {CHOICE_KINDS.get(a[0], a[0]) for a in view["legal"]}


@dataclass(frozen=True)
class PlaceRow:
    place: int
    name: str
    coins: int | None  # None for a table card
    turn: bool
    to_act: bool
    me: bool
    belief: str  # the top mask and its chance, e.g. "King 62%"
    sure: bool


def top_belief(view: dict, probs: list | None, place: int) -> tuple[str, float] | None:
    """The most likely mask at ``place`` (from the solver's probabilities, else the view's known card).

    Once the game is over every card is face up (``final_cards``): that card, surely.
    """
    final = view.get("final_cards")
    if final:
        return mask_name(view, final[place]), 1.0
    if probs and place < len(probs) and probs[place]:
        dist = probs[place]
        best = max(dist, key=lambda m: (dist[m], -list(dist).index(m)))
        return mask_name(view, best), dist[best]
    known = view["known"][place]
    if known is not None:
        return mask_name(view, known), 1.0
    return None


TIE = 0.005
"""Chances closer than this are a tie: a display never picks one of them as "the" likeliest (issue 23)."""


def tied_top(view: dict, probs: list | None, place: int) -> list[str]:
    """Every mask that shares the top chance at ``place`` (one name when there is no tie; [] when unknown)."""
    if view.get("final_cards") or not probs or place >= len(probs) or not probs[place]:
        top = top_belief(view, None, place)
        return [top[0]] if top else []
    dist = probs[place]
    best = max(dist.values())
    return [mask_name(view, m) for m in dist if dist[m] > 0.005 and best - dist[m] < TIE]


def belief_text(view: dict, probs: list | None, place: int, width: int | None = None) -> str:
    """The likeliest mask and its chance, or a tie as a tie: "King 62%", "King or Queen 50%",
    "3 masks tie, 33% each". With ``width`` the text fits in that many columns (a table row that
    wraps breaks the table): "Judge/Trickster 50%", "Sorcer…/Trick… 50%", "3-way tie, 33% each"."""
    top = top_belief(view, probs, place)
    if not top:
        return "?"
    tied = tied_top(view, probs, place)
    pct = f"{round(top[1] * 100)}%"
    if len(tied) <= 1:
        text = f"{top[0]} {pct}"
        return text if width is None or len(text) <= width else f"{_cut(top[0], width - len(pct) - 1)} {pct}"
    if len(tied) == 2:
        text = f"{tied[0]} or {tied[1]} {pct}"
        if width is None or len(text) <= width:
            return text
        if len(f"{tied[0]}/{tied[1]} {pct}") <= width:
            return f"{tied[0]}/{tied[1]} {pct}"
        room = max(2, (width - len(pct) - 2) // 2)
        return f"{_cut(tied[0], room)}/{_cut(tied[1], room)} {pct}"
    text = f"{len(tied)} masks tie, {pct} each"
    return text if width is None or len(text) <= width else f"{len(tied)}-way tie, {pct} each"


def _cut(name: str, room: int) -> str:
    """``name`` in at most ``room`` columns, an ellipsis marking a cut."""
    room = max(2, room)
    return name if len(name) <= room else name[: room - 1] + "…"


def top_beliefs(view: dict, probs: list | None, place: int, k: int) -> str:
    """The ``k`` most likely masks at ``place`` with their chances, e.g. "King 62% · Judge 38%"; masks tied
    for the top are all named, however many ("tie: King, Queen, Judge 33% each")."""
    if view.get("final_cards") or not probs or place >= len(probs) or not probs[place]:
        return belief_text(view, None, place)
    dist = probs[place]
    tied = tied_top(view, probs, place)
    if len(tied) > 1:
        return f"tie: {', '.join(tied)} {round(max(dist.values()) * 100)}% each"
    best = sorted((m for m in dist if dist[m] > 0.005), key=lambda m: (-dist[m], list(dist).index(m)))[:k]
    return " · ".join(f"{mask_name(view, m)} {round(dist[m] * 100)}%" for m in best) or "?"


def place_rows(view: dict, probs: list | None) -> list[PlaceRow]:
    """Players in table order (clockwise, starting with you), then the table cards."""
    n = len(view["players"])
    order = view["order"]
    me = view["seat"]
    start = order.index(me)
    seats = [order[(start + k) % n] for k in range(n)]
    rows = []
    for p in [*seats, *range(n, n + view["table"])]:
        top = top_belief(view, probs, p)
        belief = belief_text(view, probs, p)
        rows.append(PlaceRow(p, place_name(view, p), view["coins"][p] if p < n else None,
                             p == view["turn"] and not view["over"], p == view["to_act"], p == me, belief,
                             bool(top and top[1] >= 0.999)))
    return rows


def status_line(view: dict) -> str:
    if view["over"]:
        return f"Mascarade · game over after {words.count(view['result']['turns'], 'turn')}"
    opening = view["opening_turns"]
    extra = f" (swap-or-pretend only until turn {opening + 1})" if view["turn_no"] <= opening else ""
    return (f"Mascarade · turn {view['turn_no']}: {place_name(view, view['turn'])}{extra} · "
            f"courthouse {view['court']}")


def prompt(view: dict) -> str:
    """One line: what is asked now, and of whom."""
    if view["over"]:
        res = view["result"]
        return f"Game over: {winners_text(view, res['winners'])} — {REASONS.get(res['reason'], res['reason'])}."
    me = view["seat"]
    pend = view["pending"] or {}
    who = view["to_act"]
    ann = view["announcement"]
    if who != me:
        name = place_name(view, who)
        if pend.get("kind") == "claim":
            return f"{place_name(view, pend['announcer'])} announced the {mask_name(view, pend['mask'])}: " \
                   f"{name} is deciding…"
        return f"Waiting for {name}…"
    kind = pend.get("kind")
    if kind == "turn":
        blocked = pend.get("announce_blocked")
        base = "Your turn: swap-or-pretend (s), look (l) or announce (a)."
        if blocked:
            return "Your turn: swap-or-pretend (s)" + ("." if view["turn_no"] <= view["opening_turns"]
                                                        else " or look (l). ") + \
                ("" if view["turn_no"] <= view["opening_turns"] else blocked)
        return base
    if kind == "claim" and ann:
        return (f"{place_name(view, ann['seat'])} announces the {mask_name(view, ann['mask'])}. "
                "Claim it too (c) or pass (p)?")
    if kind == "power":
        return f"Your {mask_name(view, pend['mask'])} power: choose (w)."
    if kind == "spy":
        return "You saw both cards: swap or not (w)."
    if kind == "guru":
        return f"{place_name(view, pend['by'])} (Guru) asks you to name your mask (w)."
    return ""


def winners_text(view: dict, winners: list[int]) -> str:
    names = ["you" if w == view["seat"] else place_name(view, w) for w in winners]
    if not names:
        return "nobody wins"
    verb = "win" if len(names) > 1 or names[0] == "you" else "wins"
    return (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]) + f" {verb}"


def _who(view: dict, seat: int | None) -> str:
    if seat is None:
        return "?"
    return "You" if seat == view["seat"] else place_name(view, seat)


def coins_text(k: int) -> str:
    return f"{k} coin" + ("" if k == 1 else "s")


def describe(ev: dict, view: dict) -> str | None:
    """One sentence for an event, from the seat's point of view (None: nothing to say)."""
    t = ev["t"]
    me = view["seat"]
    who = _who(view, ev.get("seat"))
    mk = mask_name(view, ev.get("mask"))

    def v(base: str) -> str:
        if ev.get("seat") == me:
            return base
        return base + ("es" if base.endswith(("s", "sh")) else "s")
    if t == "setup":
        return (f"{len(ev['players'])} players, {ev['table']} table card{'' if ev['table'] == 1 else 's'}; "
                f"everyone starts with {ev['coins'][0]} coins.")
    if t == "opening":
        return "Cards shown face up: " + ", ".join(
            f"{place_name(view, p)} {mask_name(view, c)}" for p, c in enumerate(ev["cards"])) + "."
    if t == "turn":
        return f"— Turn {ev['turn']}: {_who(view, ev['seat'])} —"
    if t == "swap":
        a, b = place_name(view, ev["a"]), place_name(view, ev["b"])
        secret = ev.get("swapped")
        how = "" if secret is None else (" (really swapped)" if secret else " (only pretended)")
        if ev["by"] == "turn":
            other = b if ev["a"] == ev["seat"] else a
            return f"{who} {v('swap')} or {v('pretend')} with {other}{how}."
        if ev["by"] == "spy":
            other = b if ev["a"] == ev["seat"] else a
            return f"{who} (Spy) {v('swap')} or {v('pretend')} with {other}{how}."
        return f"{who} (Fool) {v('swap')} or {v('pretend')} with the cards of {a} and {b}{how}."
    if t == "look":
        card = ev.get("card")
        return f"{who} look at your card: {mask_name(view, card)}." if card else f"{who} looks at their card."
    if t == "announce":
        return f"{who} {v('announce')}: “I am the {mk}!”"
    if t == "claim":
        return f"{who} {v('claim')} the {mk} too."
    if t == "pass":
        return f"{who} {v('pass')}."
    if t == "uncontested":
        return f"Nobody contests: {who} {v('use')} the {mk}'s power, card unseen."
    if t == "reveal":
        cards = ", ".join(f"{_who(view, s)} {mask_name(view, c)}" for s, c in ev["cards"])
        why = "Guru" if ev["why"] == "guru" else "challenge"
        return f"Revealed ({why}): {cards}."
    if t == "choose":
        return f"{who} must make the {mk}'s choice."
    if t == "power":
        return _power_sentence(ev, view, who + " " + v("use"), mk)
    if t == "spy_look":
        if ev.get("mine") is not None:
            return (f"You spy {place_name(view, ev['target'])}: yours is the {mask_name(view, ev['mine'])}, "
                    f"theirs the {mask_name(view, ev['theirs'])}.")
        return f"{who} (Spy) {v('look')} at their card and {place_name(view, ev['target'])}'s."
    if t == "shown":
        if ev["target"] == me:
            return f"{who} (Princess) {v('show')} your card to everyone else."
        target = place_name(view, ev["target"])
        return f"{who} (Princess) {v('show')} {target}'s card: the {mask_name(view, ev['card'])}."
    if t == "name":
        return f"{who} {v('name')} the {mk}."
    if t == "verdict":
        target = _who(view, ev["target"])
        if ev["right"]:
            return f"{target} named their mask right."
        pays = "pay" if ev["target"] == me else "pays"
        return f"{target} named it wrong and {pays} {coins_text(ev['paid'])} to {who}."
    if t == "fine":
        return f"{who} {v('pay')} a fine of {coins_text(ev['amount'])} to the courthouse."
    if t == "end":
        return f"Game over: {winners_text(view, ev['winners'])} ({REASONS.get(ev['reason'], ev['reason'])})."
    return None


def _power_sentence(ev: dict, view: dict, who: str, mk: str) -> str:
    bits = []
    if ev.get("gain") is not None:
        bits.append(f"gain {coins_text(ev['gain'])}")
    if ev.get("targets") is not None and ev.get("paid") is not None and ev.get("a") is None:
        bits.append("take " + ", ".join(f"{k} from {_who(view, s)}" for s, k in zip(ev["targets"], ev["paid"],
                                                                                    strict=False)))
    elif ev.get("targets") is not None:
        bits.append("get 1 coin from " + (", ".join(_who(view, s) for s in ev["targets"]) or "nobody"))
    if ev.get("a") is not None and ev.get("order") is not None:
        bits.append(f"make {_who(view, ev['a'])} and {_who(view, ev['b'])} trade places")
    elif ev.get("a") is not None:
        bits.append(f"take the cards of {place_name(view, ev['a'])} and {place_name(view, ev['b'])}")
    elif ev.get("target") is not None:
        bits.append(f"target {place_name(view, ev['target'])}")
    if ev.get("win") is not None:
        bits.append("win!" if ev["win"] else "but are short of 10 coins")
    text = f"{who} the {mk}" + (": " + ", ".join(bits) if bits else "") + "."
    return text
