"""Readable tables for `unmask solve GAME FILE` (without --json): people read grids, not JSON.

Each printer takes the solver's JSON answer (the same object `--json` prints) so the two
outputs can never disagree.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table


def _escaped(value: Any) -> Any:
    """Every name in the answer as plain text: a player called "[/]" must not be read as markup."""
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, dict):
        return {_escaped(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_escaped(v) for v in value]
    return value


def _pct(p: float) -> str:
    if p <= 0:
        return "[dim]-[/]"
    if p >= 1:
        return "[bold green]100%[/]"
    return f"{p:.0%}" if p >= 0.005 else "<1%"


def print_clue(out: dict[str, Any], con: Console | None = None) -> None:
    """Holders grid: one row per card, one column per holder; certain holders in green."""
    con = con or Console()
    con.print(f"{out['deals']:,} consistent deals (exact).")
    holders = list(next(iter(out["holders"].values())).keys()) if out["holders"] else []
    t = Table(title="Who holds each card")
    t.add_column("card")
    for h in holders:
        t.add_column(h, justify="right")
    for card, row in out["holders"].items():
        cells = []
        for h in holders:
            p = row[h]
            if out["certain"].get(card) == h:
                cells.append("[bold green]yes[/]")
            elif p == 0:
                cells.append("[dim]-[/]")
            else:
                cells.append(f"{p:.0%}")
        t.add_row(card, *cells)
    con.print(t)
    adv = out.get("advice") or {}
    best = adv.get("best_envelope")
    if best:
        con.print(f"Most likely envelope: {', '.join(best['cards'])} ({best['p']:.1%}).")
    rumors = adv.get("rumors") or {}
    if rumors:
        r = Table(title="The most informative rumor in each location (exact)")
        for col in ("location", "suspect", "weapon"):
            r.add_column(col)
        for col in ("bits", "deal bits", "deals left"):
            r.add_column(col, justify="right")
        for loc, rec in rumors.items():
            left = f"{rec['deals_left']:,.0f}" if "deals_left" in rec else ""
            deal_bits = f"{rec['deal_bits']:.2f}" if "deal_bits" in rec else ""
            r.add_row(loc, rec["suspect"], rec["weapon"], f"{rec['bits']:.2f}", deal_bits, left)
        con.print(r)
        top = max(rumors.items(), key=lambda kv: kv[1]["bits"])
        con.print(f"Best rumor: {top[1]['suspect']}, {top[1]['weapon']} in {top[0]} ({top[1]['bits']:.2f} bits).")


def print_mascarade(out: dict[str, Any], con: Console | None = None) -> None:
    """Places x masks with probabilities; the advice's best move and the announce values."""
    con = con or Console()
    probs: dict[str, dict[str, float]] = out["probabilities"]
    how = "exact" if out.get("exact") else f"particles, error bound {out.get('error_bound', 0):.3f}"
    con.print(f"{out.get('layouts', 0):,} layouts fit ({how}).")
    masks = list(next(iter(probs.values())).keys()) if probs else []
    at = out.get("certain", {}).get("at", {})
    t = Table(title="Where each mask sits")
    t.add_column("place")
    for m in masks:
        t.add_column(m, justify="right")
    for place, row in probs.items():
        cells = ["[bold green]yes[/]" if at.get(place) == m else _pct(row[m]) for m in masks]
        t.add_row(place, *cells)
    con.print(t)
    adv = out.get("advice") or {}
    ann = adv.get("announce") or {}
    if ann:
        a = Table(title="Announcing each mask", caption=f"value: {adv.get('units', '')}")
        a.add_column("mask")
        a.add_column("I hold it", justify="right")
        a.add_column("value", justify="right")
        for m, v in sorted(ann.items(), key=lambda kv: -kv[1]["ev"]):
            a.add_row(m, _pct(v["p_hold"]), f"{v['ev']:+.3f}")
        con.print(a)
    best = adv.get("best")
    if best:
        what = best.get("action", "")
        con.print(f"Advice: {what}" + (f" {best['mask']}" if best.get("mask") else "") + ".")
    pending = adv.get("pending")
    if pending:
        verdict = "claim it" if pending.get("claim") else "pass"
        con.print(f"{pending['by']} announced {pending['mask']}: {verdict}.")


def print_masque(out: dict[str, Any], con: Console | None = None) -> None:
    """Slots x rooms: the chance the Red Death strikes there; the best plan and its survival."""
    con = con or Console()
    deadly: dict[str, dict[str, float]] = out["deadly"]
    rooms = list(next(iter(deadly.values())).keys()) if deadly else []
    t = Table(title=f"Chance a room is deadly ({out.get('red_death', 2)} Red Death cards per slot)")
    t.add_column("slot")
    for r in rooms:
        t.add_column(r, justify="right")
    for slot, row in deadly.items():
        cells = []
        for r in rooms:
            p = row[r]
            cells.append("[bold green]safe[/]" if p <= 0 else "[bold red]DEADLY[/]" if p >= 1 else f"{p:.0%}")
        t.add_row(slot, *cells)
    con.print(t)
    plan = out.get("best_plan")
    if plan:
        route = " → ".join(plan["rooms"])
        con.print(f"Best plan from {plan['start']}: {route} (survives {plan['survival']:.1%}).")
    ask = out.get("ask_slot")
    if ask:
        con.print(f"Best slot to ask about: {ask['slot']} (+{ask['gain']:.1%} survival).")
    table = out.get("table")
    if table:
        tt = Table(title="Who can hold a card of each slot (chance of at least one)")
        tt.add_column("player")
        tt.add_column("cards", justify="right")
        slots = list(deadly.keys())
        for slot in slots:
            tt.add_column(slot, justify="right")
        tt.add_column("ask for")
        for row in table["players"]:
            holds = row.get("holds")
            cells = ["?" if holds is None else "[bold green]surely[/]" if holds[s] > 1 - 1e-9
                     else "no" if holds[s] < 1e-9 else f"{holds[s]:.0%}" for s in slots]
            ask_for = row.get("ask")
            tt.add_row(row["name"], str(row["cards"]), *cells,
                       f"{ask_for['slot']} (+{ask_for['gain']:.1%})" if ask_for and ask_for["gain"] > 1e-12 else "")
        con.print(tt)
        if not table.get("exact"):
            con.print(table.get("message", ""))


def print_ghoul(out: dict[str, Any], con: Console | None = None) -> None:
    """Players x suits (expected count, certain in green), identities, and the advice sentence."""
    con = con or Console()
    if out.get("exact"):
        note = "exact"
    elif out.get("method") == "flow":
        note = "approximate: " + "; ".join(out.get("approximate") or [])
    elif out.get("method") == "sample":
        note = (
            f"sampled: probabilities from {out.get('samples', 0):,} sampled deals, each within "
            f"{out.get('error_95', 0):.3f} (95%); certain facts complete (CP-SAT)"
        )
    elif "undecided" in out:
        note = "bound: probabilities from the per-player bound; certain facts complete (CP-SAT)"
    else:
        note = "bound: the table is too large to count exactly; certain facts are true but may be incomplete"
    if out.get("undecided"):
        note += f" except {len(out['undecided'])} undecided, listed below and not marked certain"
    chance = out.get("exchange_chance")
    extra = ""
    if chance is not None:
        extra = f"; an interrogation I could not see ended in an exchange with chance {chance:.0%}"
    con.print(f"Weight of the worlds that fit: {out.get('worlds', 0):,.3g} ({note}{extra}).")
    hands: dict[str, dict[str, dict[str, float]]] = out["hands"]
    certain = out.get("certain", {})
    suits = list(next(iter(hands.values())).keys()) if hands else []
    t = Table(title="Cards each player holds (expected count; 'has N' is certain)")
    t.add_column("player")
    for s in suits:
        t.add_column(s, justify="right")
    t.add_column("markers", justify="right")
    for player, row in hands.items():
        has = certain.get(player, {}).get("has", {})
        lacks = set(certain.get(player, {}).get("lacks", []))
        cells = []
        for s in suits:
            if s in lacks:
                cells.append("[dim]none[/]")
            elif has.get(s):
                cells.append(f"[bold green]has {has[s]}[/] ({row[s]['expected']:.1f})")
            else:
                cells.append(f"{row[s]['expected']:.1f}")
        t.add_row(player, *cells, str(out.get("markers", {}).get(player, "")))
    con.print(t)
    ids = out.get("identities") or {}
    if ids:
        i = Table(title="Who each player can be")
        i.add_column("player")
        i.add_column("characters")
        for player, dist in ids.items():
            ranked = sorted(dist.items(), key=lambda kv: -kv[1])
            i.add_row(player, ", ".join(f"{c} {p:.0%}" for c, p in ranked if p > 0))
        con.print(i)
    for u in out.get("undecided") or []:
        if u["fact"] == "not_character":
            claim = f"is not {u['character']}"
        elif u["fact"] == "has":
            claim = f"has at least {u['count']} {u['suit']}" if "count" in u else f"holds some {u['suit']}"
        else:
            claim = f"has at most {u['count']} {u['suit']}" if "count" in u else f"holds few {u['suit']}"
        con.print(f"Undecided (CP-SAT ran out of time; maybe certain, not marked): {u['player']} {claim}.")
    con.print(f"Pool: {out.get('pool')} Suspicion markers left.")
    summary = (out.get("advice") or {}).get("summary")
    if summary:
        con.print(f"Advice: {summary}")


PRINTERS = {"clue": print_clue, "mascarade": print_mascarade, "masque": print_masque, "ghoul": print_ghoul}


def print_solution(game: str, out: dict[str, Any]) -> None:
    """The readable answer, or the contradiction with the entries that cannot all hold."""
    con = Console()
    out = _escaped(out)
    if out.get("status") != "ok":
        con.print(f"[bold red]Contradiction[/]: {out.get('message')}")
        con.print(f"Conflicting log entries: {', '.join(f'#{i + 1}' for i in out.get('conflict', []))}")
        return
    PRINTERS[game](out, con)


def print_reasons(reasons: list[str], left_out: int = 0, budget: float = 0.0) -> None:
    """The ``--explain`` part: why each certain fact is certain, one line each, and how many facts
    the time budget left unexplained."""
    con = Console()
    con.print("[bold]Why[/] (the fewest notes that prove each certain fact, in log order):")
    if not reasons and not left_out:
        con.print("  nothing is certain yet.")
    for line in reasons:
        con.print(f"  {line}", markup=False, highlight=False)
    if left_out:
        con.print(f"  … and {left_out} more certain fact{'s' if left_out != 1 else ''} not explained: the "
                  f"{budget:g} s time budget ran out (the facts themselves are all above).")
