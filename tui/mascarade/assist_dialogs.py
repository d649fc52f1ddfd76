"""The entry dialog of the Mascarade assistant: one turn (or one fact) in a few taps.

One screen serves every kind of entry: a row of kinds at the top (Swap, Look, Announce,
Answers, Reveal, Coins, Spy, Princess, Fool, Puppeteer, Other), then only the button grids that
kind needs: who, with whom, which mask, who claimed, which card each revealed seat showed,
the coins. A preview sentence says what will be logged, or what is still missing. It dismisses
with the new entries (a list in the session format) or None when cancelled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from tui.assist.dialog import AssistEntryDialog
from tui.assist.widgets import Picker, Tap
from tui.mascarade import assist_model as mm

KINDS: tuple[tuple[str, str], ...] = (
    ("swap", "Swap"), ("look", "Look"), ("announce", "Announce"), ("answers", "Answers"), ("reveal", "Reveal"),
    ("coins", "Coins"), ("spy", "Spy"), ("shown", "Princess"), ("fool", "Fool"), ("puppeteer", "Puppeteer"),
    ("other", "Other"),
)
KIND_TITLES = {
    "swap": "Swap or pretend", "look": "A look at one's own card", "announce": "An announcement",
    "answers": "Answers to the announcement", "reveal": "Cards revealed face up", "coins": "Coins now",
    "spy": "The Spy looks (then swaps or pretends)", "shown": "The Princess shows a card",
    "fool": "The Fool swaps or pretends",
    "puppeteer": "The Puppeteer moves two players", "other": "Another note",
}
OTHER: tuple[tuple[str, str], ...] = (
    ("Turn starts", "turn"), ("Claim", "claim"), ("Pass", "pass"), ("Nobody contested", "uncontested"),
    ("Power used", "power"), ("Guru: named", "name"),
)
ANSWERS = (("Answers later", "later"), ("Nobody claimed", "none"), ("Some claimed", "some"))
REALLY = (("Really swapped", True), ("Only pretended", False))


class MascaradeEntryDialog(AssistEntryDialog):
    """Enter (or edit) one entry of any kind; a new announcement may bring its answers and reveal along."""

    PREFIX = BUTTONS = "mx"
    SCOPED_CSS = False
    CSS = """
    MascaradeEntryDialog .mx-dlg-label { height: 1; text-style: bold; color: $text-muted; margin: 0; }
    MascaradeEntryDialog.-ax-tall .mx-dlg-label { margin: 1 0 0 0; }
    MascaradeEntryDialog #mx-dlg-kind { margin: 0 0 1 0; }
    MascaradeEntryDialog.-ax-short #mx-dlg-kind { margin: 0; }
    MascaradeEntryDialog .mx-row { height: auto; }
    MascaradeEntryDialog .mx-row-label { width: 10; height: 1; text-style: bold; }
    MascaradeEntryDialog.-ax-tall .mx-row-label { height: 3; content-align: left middle; }
    MascaradeEntryDialog .mx-coin-value { width: 5; height: 1; content-align: center middle; text-style: bold; }
    MascaradeEntryDialog.-ax-tall .mx-coin-value { height: 3; }
    MascaradeEntryDialog .mx-coin-row Tap { width: 6; background: $surface-lighten-1; }
    MascaradeEntryDialog #mx-dlg-body { height: 1fr; }
    MascaradeEntryDialog #mx-dlg-inner { height: auto; }
    """
    BINDINGS: ClassVar = [
        Binding("tab", "app.focus_next", "Next group", id="mascarade.dialog.next"),
        Binding("ctrl+s", "save", "Save", id="mascarade.dialog.save"),
        Binding("escape", "cancel", "Cancel", id="mascarade.dialog.cancel"),
    ]

    def __init__(self, config: Mapping[str, Any], variant: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.config = config
        self.variant = dict(mm.VARIANT_DEFAULT, **(variant or {}))
        self.players = mm.players_of(config)
        self.places = mm.places_of(config)
        self.masks = mm.masks_of(config)
        self.me = str(config.get("me"))
        self.kind = "swap"
        self.prior: list[Any] = []
        self.entry: dict[str, Any] | None = None
        self.result: Mapping[str, Any] | None = None
        self.coins: dict[str, int] = {}
        self.court = 0
        self.problem = ""

    # ------------------------------------------------------------------ layout

    def _body(self) -> ComposeResult:
        n = len(self.players)
        people = [(p, p) for p in self.players]
        places = [(mm.place_title(p), p) for p in self.places]
        masks = [(mm.mask_name(m), m) for m in self.masks]
        pcols = min(6, n)
        mcols = min(6, len(self.masks))
        with Vertical(id="mx-dlg-inner"):
            yield Picker([(label, k) for k, label in KINDS], columns=6, allow_none=False, id="mx-dlg-kind")
            yield Static("", id="mx-lbl-sub", classes="mx-dlg-label")
            yield Picker([(label, v) for label, v in OTHER], columns=3, allow_none=False, id="mx-pick-sub")
            yield Static("", id="mx-lbl-by", classes="mx-dlg-label")
            yield Picker(people, columns=pcols, allow_none=False, id="mx-pick-by")
            yield Static("", id="mx-lbl-with", classes="mx-dlg-label")
            yield Picker(places, columns=min(6, len(places)), allow_none=False, id="mx-pick-with")
            yield Static("", id="mx-lbl-pair", classes="mx-dlg-label")
            yield Picker(places, multi=True, columns=min(6, len(places)), id="mx-pick-pair")
            yield Static("", id="mx-lbl-really", classes="mx-dlg-label")
            yield Picker(list(REALLY), columns=2, allow_none=False, id="mx-pick-really")
            yield Static("", id="mx-lbl-mask", classes="mx-dlg-label")
            yield Picker(masks, columns=mcols, allow_none=False, id="mx-pick-mask")
            yield Static("My card", id="mx-lbl-mine", classes="mx-dlg-label")
            yield Picker(masks, columns=mcols, allow_none=False, id="mx-pick-mine")
            yield Static("", id="mx-lbl-theirs", classes="mx-dlg-label")
            yield Picker(masks, columns=mcols, allow_none=False, id="mx-pick-theirs")
            yield Static("Answers", id="mx-lbl-answers", classes="mx-dlg-label")
            yield Picker(list(ANSWERS), columns=3, allow_none=False, id="mx-pick-answers")
            yield Static("Claimed too (“me too”); the others passed", id="mx-lbl-claims",
                         classes="mx-dlg-label")
            yield Picker(people, multi=True, columns=pcols, id="mx-pick-claims")
            yield Static("Whose card was revealed", id="mx-lbl-revealers", classes="mx-dlg-label")
            yield Picker(people, multi=True, columns=pcols, id="mx-pick-revealers")
            yield Static("Card each one showed", id="mx-lbl-reveal", classes="mx-dlg-label")
            for i, p in enumerate(self.players):
                with Horizontal(id=f"mx-rev-row-{i}", classes="mx-row"):
                    yield Static(p, classes="mx-row-label")
                    yield Picker(masks, columns=mcols, allow_none=False, id=f"mx-rev-{i}")
            yield Static("Coins of each player (tap − / +)", id="mx-lbl-coins", classes="mx-dlg-label")
            for i, p in enumerate([*self.players, "Court"]):
                with Horizontal(id=f"mx-coin-row-{i}", classes="mx-row mx-coin-row"):
                    yield Static(p, classes="mx-row-label")
                    yield Tap("−", id=f"mx-coin-less-{i}")
                    yield Static("0", id=f"mx-coin-{i}", classes="mx-coin-value")
                    yield Tap("+", id=f"mx-coin-more-{i}")

    def on_mount(self) -> None:
        self._reset()

    def prepare(self, kind: str, log: Sequence[Any], entry: Mapping[str, Any] | None = None,
                result: Mapping[str, Any] | None = None) -> MascaradeEntryDialog:
        """Reuse this dialog for another entry: building one costs far more than refilling it."""
        self.kind = kind
        self.prior = list(log)
        self.entry = dict(entry) if entry else None
        self.result = result
        if self.is_mounted:
            self._reset()
        return self

    # ------------------------------------------------------------------ state

    def _pick(self, name: str) -> Picker:
        return self.query_one(f"#mx-pick-{name}", Picker)

    def _reset(self) -> None:
        self.problem = ""
        for picker in self.query(Picker):
            picker.current = 0
            picker.set_disabled_values([])
            picker.set_value([] if picker.multi else None)
        self.query_one("#mx-dlg-kind", Picker).set_value(self.kind)
        self.query_one("#mx-dlg-kind").display = self.entry is None
        self._pick("answers").set_value("later")
        self.coins, self.court = mm.current_coins(self.result, self.config)
        self._prefill()
        self._apply_kind()
        for picker in self.query(Picker):  # the keyboard cursor starts on what is picked
            values = [v for _, v in picker.options]
            first = picker.value[0] if picker.multi and picker.value else picker.value
            picker.current = values.index(first) if first in values else 0
            picker._paint()
        self.query_one("#mx-dlg-body", VerticalScroll).scroll_home(animate=False)
        self.query_one("#mx-dlg-kind" if self.entry is None else "#mx-pick-by", Picker).focus()

    def _default_actor(self) -> str | None:
        """The player after the last one who took a turn (clockwise), the usual next actor."""
        order = mm.order_of(self.config)
        for e in reversed(self.prior):
            if isinstance(e, Mapping) and (e.get("t") in ("turn", "look", "announce")
                                           or (e.get("t") == "swap" and "with" in e)):
                by = e.get("by")
                if e.get("t") == "turn" and by in order:
                    return str(by)
                if by in order:
                    return order[(order.index(by) + 1) % len(order)]
        return None

    def _prefill(self) -> None:
        e = self.entry or {}
        kind = self.kind
        by = e.get("by")
        if kind == "other":
            self._pick("sub").set_value(e.get("t") if e.get("t") in dict((v, 1) for _, v in OTHER) else "turn")
        if by in self.players:
            self._pick("by").set_value(by)
        elif self.entry is None and kind in ("swap", "look", "announce", "other"):
            self._pick("by").set_value(self._default_actor())
        if kind == "swap":
            self._pick("with").set_value(e.get("with"))
        elif kind in ("spy", "shown"):
            self._pick("with").set_value(e.get("target"))
        elif kind in ("fool", "puppeteer"):
            self._pick("pair").set_value([x for x in (e.get("a"), e.get("b")) if x])
        if isinstance(e.get("swapped"), bool):
            self._pick("really").set_value(e["swapped"])
        mask = e.get("card") if kind in ("look", "shown") else e.get("mask")
        if mask in self.masks:
            self._pick("mask").set_value(mask)
        if kind == "spy":
            self._pick("mine").set_value(e.get("mine"))
            self._pick("theirs").set_value(e.get("theirs"))
        if kind == "reveal":
            cards = e.get("cards") or {}
            if isinstance(cards, list):
                cards = {str(c[0]): c[1] for c in cards if isinstance(c, list | tuple) and len(c) == 2}
            self._pick("revealers").set_value([p for p in self.players if p in cards])
            for i, p in enumerate(self.players):
                if p in cards:
                    self.query_one(f"#mx-rev-{i}", Picker).set_value(cards[p])
        if kind == "coins" and isinstance(e.get("coins"), Mapping):
            self.coins = {p: int(e["coins"].get(p, 0)) for p in self.players}
            self.court = int(e.get("court", self.court))
        if kind == "answers":
            pend = mm.pending_announcement(self.prior)
            if pend:
                self._pick("claims").set_value(pend[3])
                self._pick("answers").set_value("some" if pend[3] else "later")

    def _visible(self) -> dict[str, bool]:
        """Which groups the current kind (and picks) need."""
        k = self.kind
        sub = self._pick("sub").value
        by = self._pick("by").value
        mine = by == self.me
        new = self.entry is None
        answers = self._pick("answers").value
        target = self._pick("with").value
        pend = mm.pending_announcement(self.prior) if k == "answers" else None
        claims = self._claimants()
        return {
            "sub": k == "other",
            "by": k not in ("reveal", "coins", "answers"),
            "with": k in ("swap", "spy", "shown"),
            "pair": k in ("fool", "puppeteer"),
            "really": mine and k in ("swap", "fool", "spy"),
            "mask": (k == "look" and mine) or k == "announce" or (k == "shown" and target not in (None, self.me))
            or (k == "other" and sub in ("uncontested", "power", "name")),
            "mine": k == "spy" and mine,
            "theirs": k == "spy" and mine,
            "answers": k == "announce" and new,
            "claims": (k == "announce" and new) or (k == "answers" and pend is not None),
            "revealers": k == "reveal",
            "reveal": (k == "reveal" and bool(self._pick("revealers").value)) or (
                k in ("announce", "answers") and bool(claims) and (k == "answers" or (new and answers == "some"))),
            "coins": k == "coins",
        }

    def _claimants(self) -> list[str]:
        """Who shows a card if the announcement is contested: the announcer and everyone who claimed."""
        if self.kind == "answers":
            pend = mm.pending_announcement(self.prior)
            if pend is None:
                return []
            claims = list(self._pick("claims").value)
            return [pend[1], *claims] if claims else []
        claims = list(self._pick("claims").value)
        by = self._pick("by").value
        return [by, *claims] if claims and by else []

    def _apply_kind(self) -> None:
        """Show the groups this kind needs, with the words that fit, and grey out what cannot be."""
        k = self.kind
        title = KIND_TITLES[k] if self.entry is None else f"Edit: {KIND_TITLES[k].lower()}"
        self.query_one("#ax-dlg-title", Static).update(title)
        vis = self._visible()
        for name in ("sub", "by", "with", "pair", "really", "mask", "mine", "theirs", "answers", "claims",
                     "revealers"):
            shown = vis[name]
            self._pick(name).display = shown
            self.query_one(f"#mx-lbl-{name}").display = shown
        self.query_one("#mx-lbl-reveal").display = vis["reveal"]
        revealing = self._claimants() if k in ("announce", "answers") else list(self._pick("revealers").value)
        for i, p in enumerate(self.players):
            self.query_one(f"#mx-rev-row-{i}").display = vis["reveal"] and p in revealing
        self.query_one("#mx-lbl-coins").display = vis["coins"]
        for i in range(len(self.players) + 1):
            self.query_one(f"#mx-coin-row-{i}").display = vis["coins"]
        by = self._pick("by").value
        sub = str(self._pick("sub").value)
        who = {
            "swap": "Who swapped or pretended", "look": "Who looked", "announce": "Who announced",
            "spy": "The Spy", "shown": "The Princess", "fool": "The Fool", "puppeteer": "The Puppeteer",
        }
        other = {"turn": "Whose turn", "claim": "Who claimed", "pass": "Who passed",
                 "uncontested": "The announcer", "power": "Who used a power", "name": "The Guru's target"}
        self.query_one("#mx-lbl-by", Static).update(other.get(sub, "Who") if k == "other" else who.get(k, "Who"))
        self.query_one("#mx-lbl-sub", Static).update("What")
        self.query_one("#mx-lbl-with", Static).update(
            {"swap": "With", "spy": "Looked at (and may swap with)", "shown": "Whose card was shown"}.get(k, "With"))
        self.query_one("#mx-lbl-pair", Static).update(
            "The two places (tap two)" if k == "fool" else "The two players who trade places (tap two)")
        self.query_one("#mx-lbl-really", Static).update(
            "Then I…" if k == "spy" else "What I did")
        self.query_one("#mx-lbl-mask", Static).update(
            {"look": "The card I saw", "announce": "The mask announced", "shown": "The card shown"}.get(
                k, "Which mask"))
        target = self._pick("with").value
        self.query_one("#mx-lbl-theirs", Static).update(f"{mm.place_title(str(target or 'Their'))}'s card"
                                                        if target else "Their card")
        # what cannot be
        tables = [p for p in self.places if p not in self.players]
        if k == "swap":
            self._pick("with").set_disabled_values([by] if by else [])
        elif k == "spy":
            self._pick("with").set_disabled_values([by, *([] if self.variant["spy_table"] else tables)])
        elif k == "shown":
            self._pick("with").set_disabled_values([by, *tables])
        if k == "fool":
            self._pick("pair").set_disabled_values([by, *([] if self.variant["fool_table"] else tables)])
        elif k == "puppeteer":
            self._pick("pair").set_disabled_values([by, *tables])
        if k == "announce":
            self._pick("claims").set_disabled_values([by] if by else [])
        elif k == "answers":
            pend = mm.pending_announcement(self.prior)
            if pend:
                self._pick("claims").set_disabled_values([pend[1], *pend[3], *pend[4]])
                # already-logged claims stay picked (set_disabled_values dropped them)
                self._pick("claims").selected = [p for p in self.players
                                                 if p in pend[3] or p in self._pick("claims").selected]
                self._pick("claims")._paint()
        self._draw_coins()
        self._update()

    def _draw_coins(self) -> None:
        for i, p in enumerate(self.players):
            self.query_one(f"#mx-coin-{i}", Static).update(str(self.coins.get(p, 0)))
        self.query_one(f"#mx-coin-{len(self.players)}", Static).update(str(self.court))

    # ------------------------------------------------------------------ building

    def build(self) -> tuple[list[dict[str, Any]] | None, str]:
        """The entries the dialog holds now, or None and what is still missing."""
        k = self.kind
        by = self._pick("by").value
        me = self.me
        vis = self._visible()
        if vis["by"] and by is None:
            return None, "Tap who did it."
        if k == "swap":
            other = self._pick("with").value
            if other is None:
                return None, f"Tap whom {by} swapped (or pretended) with."
            e: dict[str, Any] = {"t": "swap", "by": by, "with": other}
            if by == me:
                e["swapped"] = self._pick("really").value
                if e["swapped"] is None:
                    return None, "Tap whether you really swapped or only pretended."
            return [e], ""
        if k == "fool":
            pair = list(self._pick("pair").value)
            if len(pair) != 2:
                return None, f"Tap the two places (picked {len(pair)})."
            e = {"t": "swap", "by": by, "a": pair[0], "b": pair[1]}
            if by == me:
                e["swapped"] = self._pick("really").value
                if e["swapped"] is None:
                    return None, "Tap whether you really swapped or only pretended."
            return [e], ""
        if k == "look":
            e = {"t": "look", "by": by}
            if by == me:
                card = self._pick("mask").value
                if card is None:
                    return None, "Tap the card you saw."
                e["card"] = card
            return [e], ""
        if k == "spy":
            target = self._pick("with").value
            if target is None:
                return None, "Tap whose card the Spy looked at."
            e = {"t": "spy", "by": by, "target": target}
            swap: dict[str, Any] = {"t": "swap", "by": by, "with": target}
            if by == me:
                mine, theirs = self._pick("mine").value, self._pick("theirs").value
                if mine is None or theirs is None:
                    return None, "Tap your card and theirs."
                e.update(mine=mine, theirs=theirs)
                swap["swapped"] = self._pick("really").value
                if swap["swapped"] is None:
                    return None, "Tap whether you then swapped or only pretended."
            return ([e] if self.entry is not None else [e, swap]), ""
        if k == "shown":
            target = self._pick("with").value
            if target is None:
                return None, "Tap whose card the Princess showed."
            e = {"t": "shown", "by": by, "target": target}
            if target != me:
                card = self._pick("mask").value
                if card is None:
                    return None, f"Tap the card shown ({target}'s)."
                e["card"] = card
            return [e], ""
        if k == "puppeteer":
            pair = list(self._pick("pair").value)
            if len(pair) != 2:
                return None, f"Tap the two players who trade places (picked {len(pair)})."
            return [{"t": "puppeteer", "by": by, "a": pair[0], "b": pair[1]}], ""
        if k == "coins":
            return [{"t": "coins", "coins": dict(self.coins), "court": self.court}], ""
        if k == "reveal":
            who = list(self._pick("revealers").value)
            if not who:
                return None, "Tap whose card was revealed."
            cards = self._reveal_cards(who)
            if cards is None:
                return None, "Tap the card each revealed player showed."
            return [{"t": "reveal", "cards": cards}], ""
        if k == "other":
            sub = self._pick("sub").value
            e = {"t": sub, "by": by}
            if sub in ("uncontested", "power", "name"):
                mask = self._pick("mask").value
                if mask is None:
                    return None, "Tap the mask."
                e["mask"] = mask
            return [e], ""
        if k == "announce":
            mask = self._pick("mask").value
            if mask is None:
                return None, "Tap the mask announced."
            e = {"t": "announce", "by": by, "mask": mask}
            answers = self._pick("answers").value
            if self.entry is not None or answers == "later":
                return [e], ""
            return self._with_answers([e], by, mask, [])
        if k == "answers":
            pend = mm.pending_announcement(self.prior)
            if pend is None:
                return None, "No announcement is waiting for answers: enter the announcement first."
            return self._with_answers([], pend[1], pend[2], [*pend[3], *pend[4]])
        return None, "Pick what happened."

    def _reveal_cards(self, who: Sequence[str]) -> dict[str, str] | None:
        cards: dict[str, str] = {}
        for p in who:
            card = self.query_one(f"#mx-rev-{self.players.index(p)}", Picker).value
            if card is None:
                return None
            cards[p] = card
        return cards

    def _with_answers(self, head: list[dict[str, Any]], by: str, mask: str,
                      already: Sequence[str]) -> tuple[list[dict[str, Any]] | None, str]:
        claims = [p for p in self._pick("claims").value if p not in already]
        answers = self._pick("answers").value
        if self.kind == "announce" and answers == "some" and not claims:
            return None, "Tap who claimed too."
        if claims:
            who = self._claimants()
            cards = self._reveal_cards(who)
            if cards is None:
                return None, "Tap the card each claimant revealed (" + ", ".join(who) + ")."
            return head + mm.answer_entries(self.config, by, mask, claims, cards, already), ""
        pend = mm.pending_announcement(self.prior)
        if self.kind == "answers" and pend and pend[3]:
            # claims were logged before: now the reveal of everyone who claimed
            who = [pend[1], *pend[3]]
            cards = self._reveal_cards(who)
            if cards is None:
                return None, "Tap the card each claimant revealed (" + ", ".join(who) + ")."
            passes = [{"t": "pass", "by": p} for p in mm.answer_order(self.config, by) if p not in already]
            return [*passes, {"t": "reveal", "cards": cards}, *mm.power_entries(self.config, by, mask, cards)], ""
        return head + mm.answer_entries(self.config, by, mask, [], {}, already), ""

    def _update(self) -> None:
        entries, problem = self.build()
        self._preview(None if entries is None else " · ".join(mm.describe(e, self.me) for e in entries), problem)

    @on(Picker.Changed)
    def _picked(self, event: Picker.Changed) -> None:
        event.stop()
        pid = event.picker.id or ""
        if pid == "mx-dlg-kind":
            self.kind = str(event.value)
            self._prefill_kind_switch()
        elif pid == "mx-pick-claims" and self.kind == "announce":
            self._pick("answers").set_value("some" if event.value else "none")
        elif pid == "mx-pick-answers" and event.value == "none":
            self._pick("claims").set_value([])
        self._apply_kind()

    def _prefill_kind_switch(self) -> None:
        """A new kind picked: keep who did it, reset what belongs to the old kind."""
        by = self._pick("by").value
        for name in ("with", "pair", "really", "mask", "mine", "theirs"):
            picker = self._pick(name)
            picker.set_disabled_values([])
            picker.set_value([] if picker.multi else None)
        if self.kind == "answers":
            self._prefill()
        if by is None and self.kind in ("swap", "look", "announce"):
            self._pick("by").set_value(self._default_actor())

    # ------------------------------------------------------------------ actions

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid.startswith("mx-coin-"):
            event.stop()
            what, i = bid.split("-")[2], int(bid.rsplit("-", 1)[1])
            delta = 1 if what == "more" else -1
            if i < len(self.players):
                p = self.players[i]
                self.coins[p] = max(0, self.coins.get(p, 0) + delta)
            else:
                self.court = max(0, self.court + delta)
            self._draw_coins()
            self._update()

