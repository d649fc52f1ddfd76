"""The Tokyo Ghoul: Bloody Masquerade table assistant: what you see at a real table, in taps.

One assist session (game ``ghoul``, mode ``assist``) holds the solver's ``config`` and ``log``
exactly in the ``unmask solve ghoul`` format (``docs/ghoul.md``), plus an undo stack. After
every change the session is saved atomically and solved again in a thread worker, so the
screen never waits. A log no deal fits is kept whole: the status line names the conflicting
entries (the solver's minimal conflict), they are marked in the log, the last good notes stay
on screen marked stale, and Edit, Delete or Undo fix it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from engine import words
from engine.session import Session, SessionError
from solvers.ghoul.flow import DEFAULT_EXCHANGE_CHANCE
from solvers.ghoul.model import EXCHANGE_CHANCES, usable_exchange_chance
from tui.assist.base import UNDO_KEPT, AssistScreenBase, session_exists, solve_and_before
from tui.assist.widgets import KeyBar, Tap
from tui.ghoul import assist_model as g
from tui.ghoul.assist_dialogs import GhoulEntryDialog, GhoulSetup, MoreDialog

__all__ = ["UNDO_KEPT", "AssistScreen", "GhoulAssistScreen", "advice_text", "grid_text", "identities_text",
           "solve_log"]

VIEWS = ("notes", "log", "advice")


def solve_log(config: Mapping[str, Any], log: list[Any]) -> dict[str, Any]:
    """The solver's answer, never an exception: bad input and solver failures become a status."""
    from solvers.ghoul.solver import SolverInputError, solve

    try:
        return solve_and_before(lambda entries, _whole: solve(config, entries), log)
    except SolverInputError as e:
        return {"status": "error", "message": str(e).splitlines()[0], "conflict": []}
    except Exception as e:  # a solver bug must not take the notes down
        return {"status": "error", "message": f"The solver failed ({e.__class__.__name__}).", "conflict": []}


# ---------------------------------------------------------------------------- rendering


def grid_text(result: Mapping[str, Any], config: Mapping[str, Any]) -> Text:
    """Players x suits: ✓n certain, ✗ certainly none, else the chance of holding at least one."""
    suits = g.suits_in_play(config)
    names = list(config["players"])
    width = max(8, min(11, max(len(x) for x in names) + 1))
    t = Text()
    t.append(f"{'Player':<{width}}Sus", style="bold")
    for s in suits:
        t.append(f"{g.SUIT_SHORT[s]:>5}", style="bold")
    t.append("  Faction %\n", style="bold")
    for name in names:
        me = name == config.get("me")
        t.append(f"{name[: width - 1]:<{width}}", style="bold reverse" if me else "bold")
        t.append(f"{result['markers'].get(name, 0):>3}", style="bold red" if result["markers"].get(name) else "dim")
        for s in suits:
            text, mark = g.cell(result, name, s)
            style = {"yes": "bold green", "exact": "bold green", "no": "dim"}.get(mark, "")
            if mark == "p":
                p = result["hands"][name][s]["p_at_least_one"]
                style = "bold yellow" if p >= 0.67 else ("" if p >= 0.34 else "dim")
            t.append(f"{text:>5}", style=style)
        t.append("  ")
        t.append(identity_short(result, name), style="bold green" if result["certain"][name]["character"] else "")
        t.append("\n")
    t.rstrip()
    return t


def identity_short(result: Mapping[str, Any], name: str) -> str:
    """A player's character when certain, else the chance of each faction (H 25 G 50 I 25)."""
    ident = result["identities"].get(name, {})
    if len(ident) == 1:
        return g.char_label(next(iter(ident)))
    fac = result["factions"].get(name, {})
    return " ".join(f"{k[0].upper()}{round(v * 100)}" for k, v in fac.items())


def identities_text(result: Mapping[str, Any], config: Mapping[str, Any]) -> Text:
    """Every player's possible characters and factions, and which objectives are still reachable."""
    t = Text()
    t.append("Identities\n", style="bold underline")
    for name in config["players"]:
        ident = result["identities"].get(name, {})
        fac = result["factions"].get(name, {})
        t.append(f"{name}: ", style="bold")
        t.append(" · ".join(f"{g.char_label(c)} {g.fmt_p(p)}" for c, p in ident.items()))
        facs = " ".join(f"{k[0].upper()}{g.fmt_p(v)}" for k, v in fac.items() if v > 0)
        t.append(f"  ({facs})\n", style="dim")
    t.append("Reachable objectives\n", style="bold underline")
    for name in config["players"]:
        objs = result.get("objectives", {}).get(name, {})
        for c, d in list(objs.items())[:3]:
            parts = []
            if "instant" in d:
                parts.append("instant " + ("✓" if d["instant"]["reachable"] else "✗"))
            if "alive_with" in d:
                a = d["alive_with"]
                parts.append(f"cards {'✓' if a['reachable'] else '✗'} ({g.fmt_p(a['p_met_now'])} met now)")
            if "kill" in d:
                parts.append(f"kill {words.a(d['kill']['target'])} " + ("✓" if d["kill"]["reachable"] else "✗"))
            if "partner" in d:
                pr = d["partner"]
                parts.append(
                    f"{g.char_label(pr['partner'])} alive {g.fmt_p(pr['p_alive'])}"
                    if pr["in_play"]
                    else f"{g.char_label(pr['partner'])} not in play"
                )
            t.append(f"{name} as {g.char_label(c)} ({g.fmt_p(d['p'])}): ", style="bold")
            t.append(", ".join(parts) + "\n")
    t.rstrip()
    return t


def advice_text(result: Mapping[str, Any], config: Mapping[str, Any]) -> Text:
    """The solver's advice: whom to interrogate, where to move, whom to attack."""
    adv = result.get("advice") or {}
    t = Text()
    if not adv:
        t.append("No advice.", style="dim")
        return t
    t.append(adv.get("summary", "") + "\n", style="bold")
    needs = ", ".join(f"{k} {g.SUIT_LABEL[s]}" for s, k in (adv.get("needs") or {}).items())
    if needs:
        lacking = ", ".join(g.SUIT_LABEL[s] for s in adv.get("lacking") or []) or "nothing"
        t.append(f"I need {needs}; still lacking {lacking}.\n")
    inter = adv.get("interrogate") or []
    if inter and (adv.get("lacking") or any("p_target" in r for r in inter)):
        t.append("Interrogate\n", style="bold underline")
        for i, r in enumerate(inter):
            tgt = f"  my target {g.fmt_p(r['p_target'])}" if "p_target" in r else ""
            lack = f" holds what I lack {g.fmt_p(r['p_useful'])}" if adv.get("lacking") else ""
            t.append(f"{'★' if i == 0 else ' '} {r['player']:<10}{lack}{tgt}\n")
    moves = adv.get("move") or []
    if moves:
        t.append("Move the token\n", style="bold underline")
        for i, mv in enumerate(moves):
            acts = []
            for a in mv.get("actions", []):
                if a["kind"] == "suspicion":
                    acts.append(
                        f"suspicion {g.RULE_LABEL.get(a['rule'], a['rule'])}"
                        + (" (I draw!)" if a.get("i_draw") else "")
                        + f" others {a.get('expected_others', 0):.1f}"
                    )
                elif a["kind"] == "attack":
                    acts.append("attack " + (", ".join(a.get("targets") or []) or "nobody eligible"))
                else:
                    acts.append(a["kind"])
            label = g.place_label(config, mv["place"])
            t.append(
                f"{'★' if i == 0 else ' '} {label}: {'; '.join(acts) or 'unknown tile'} (score {mv['score']:+.2f})\n"
            )
    att = adv.get("attack")
    if att:
        t.append("Attack\n", style="bold underline")
        rec = att.get("recommend")
        t.append(
            f"Attack {rec} when you can.\n" if rec else "No attack recommended yet.\n", style="bold red" if rec else ""
        )
        for r in att.get("targets", []):
            ok = "eligible" if r["eligible_most"] or r["eligible_three"] else "not eligible"
            t.append(
                f"  {r['player']:<10} is {words.a(att['kill'])} {g.fmt_p(r['p_success'])} · "
                f"{words.count(r['markers'], 'marker')} · {ok}\n"
            )
    sp = adv.get("special")
    if sp:
        t.append("Special action\n", style="bold underline")
        t.append(("Available" if sp["available"] else "Needs two Dove cards") + f" (X={sp['x']}).\n")
        for r in sp.get("targets", []):
            t.append(f"  {r['player']:<10} is a Ghoul {g.fmt_p(r['p_ghoul'])}\n")
    return t


# ---------------------------------------------------------------------------- the screen


class GhoulAssistScreen(AssistScreenBase):
    """Notes for a real Tokyo Ghoul table: setup, then a log of what I saw, and the solver's notes."""

    HELP_TITLE = "Tokyo Ghoul assistant"
    GAME = "ghoul"
    GAME_TITLE = "Tokyo Ghoul"
    ASSIST_NAME = "a Tokyo Ghoul assistant"
    PANEL = "gx"
    VIEWS = VIEWS
    GATED = ("entry", "more", "undo", "edit", "delete", "view", "page", "exchange_chance")
    SETUP_FORM = GhoulSetup
    CSS = """
    #gx-toolbar { layout: grid; grid-size: 8; grid-gutter: 0 1; height: auto; padding: 0 1; }
    #gx-toolbar Tap { width: 1fr; margin: 0; }
    .-ax-short #gx-toolbar Tap { height: 1; }
    #gx-notes-panel { width: 1fr; }
    .-ax-wide #ax-side { width: 1fr; }
    #gx-notes-scroll, #gx-advice-scroll { height: 1fr; background: $surface; scrollbar-size-vertical: 1; }
    #gx-notes-scroll.-stale { opacity: 60%; }
    #gx-grid, #gx-ident, #gx-advice { width: 1fr; height: auto; padding: 0 1; }
    #gx-ident { margin: 1 0 0 0; }
    .-ax-wide #gx-log-panel { height: 1fr; }
    .-ax-wide #gx-advice-panel { height: 1fr; }
    #ax-setup .gs-names { height: auto; }
    #ax-setup .gs-name { width: 1fr; margin: 0 1 0 0; }
    .-ax-short #ax-setup .gs-name { height: 1; border: none; padding: 0 1; }
    """
    BINDINGS: ClassVar = [
        *[Binding(key, f"entry('{kind}')", short, id=f"ghoul.{kind}") for kind, _label, short, key in g.MAIN_KINDS],
        Binding("plus", "more", "More", id="ghoul.more"),
        *[
            Binding(key, f"entry('{kind}')", short, show=False, id=f"ghoul.{kind}")
            for kind, _label, short, key in g.MORE_KINDS
        ],
        Binding("u,ctrl+z", "undo", "Undo", id="ghoul.undo"),
        Binding("e", "edit", "Edit", id="ghoul.edit"),
        Binding("x,delete", "delete", "Delete", id="ghoul.delete"),
        Binding("g", "view('notes')", "Notes", id="ghoul.view.notes"),
        Binding("o", "view('log')", "Log", id="ghoul.view.log"),
        Binding("d", "view('advice')", "Advice", id="ghoul.view.advice"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="ghoul.page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="ghoul.page_up"),
        Binding("escape", "close", "Close", id="ghoul.close"),
        Binding("k", "exchange_chance", "Exchange chance", show=False, id="ghoul.exchange_chance"),
    ]
    EXCHANGE_CHANCES: ClassVar = EXCHANGE_CHANCES  # never 0 or 1: docs/ghoul.md, the card-flow model

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__(session_id, session)
        # A named session that is not on disk yet is a new table under that name.
        named = session_id is not None and session_exists(session_id)
        self.mode = "main" if session is not None or named else "setup"
        self.result: dict[str, Any] | None = None  # the last answer
        self.solution: dict[str, Any] | None = None  # the last good answer
        self.conflict: list[int] = []
        self._notes_width: int | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield from self._compose_top()
        with Vertical(id="ax-main"):
            yield Static("", id="ax-status")
            with Vertical(id="gx-toolbar"):
                for kind, _label, short, _key in g.MAIN_KINDS:
                    yield Tap(short, id=f"gx-do-{kind}", variant="primary" if kind == "interrogation" else "default")
                yield Tap("More…", id="gx-do-more")
                yield Tap("Edit", id="gx-do-edit")
                yield Tap("Delete", id="gx-do-delete")
                yield Tap("Undo", id="gx-do-undo")
                yield Tap("Notes", id="ax-tab-notes", classes="ax-tab")
                yield Tap("Log", id="ax-tab-log", classes="ax-tab")
                yield Tap("Advice", id="ax-tab-advice", classes="ax-tab")
                yield Tap("✕ Close", id="gx-do-close")
            with Horizontal(id="ax-body"):
                yield from self._compose_text_panel("notes", "Detective notes", "grid", "ident")
                yield from self._compose_side(log_buttons=False)
        yield KeyBar(id="ax-keys")

    @classmethod
    def _check_setup(cls, session: Session) -> None:
        from solvers.ghoul.validate import SolverInputError, validate

        try:
            validate(session.config, session.log)
        except SolverInputError as e:
            raise SessionError(f"This session cannot be used: {e}") from None
        problem = g.config_problem(session.config)
        if problem:
            raise SessionError(f"The session's setup is not usable: {problem}")

    def _new_setup_form(self) -> Widget:
        return GhoulSetup(wide=not self.narrow, id="ax-setup")

    def _head_text(self) -> str:
        c = self.config
        variants = [v for v in ("mask", "support") if c.get(v)]
        extra = f" · {'+'.join(variants)}" if variants else ""
        text = f"{len(c['players'])} players{extra} · me: {c['me']} ({g.char_label(c['character'])})"
        # 80 columns hold the rest only without the session name (it is in Resume and the help)
        return f"Tokyo Ghoul · {text}" if self.narrow else f"Tokyo Ghoul assistant · {text} · session {self.session_id}"

    def on_click(self, event: events.Click) -> None:
        """A tap on a player's row of the grid: why their certain facts are certain."""
        if event.widget is None or event.widget.id != "gx-grid" or not self.config.get("players"):
            return
        names = list(self.config["players"])
        row = event.y - 1
        if 0 <= row < len(names):
            name = names[row]
            self.open_why(f"Why? {name}", wanted=lambda f: f[1] == name)

    def on_resize(self, _event: events.Resize) -> None:
        if self.mode == "main":
            self.query_one("#ax-head", Static).update(Content(self._head_text()))
            self._apply_view()
            if self.narrow != (self._notes_width is None):
                self._draw_notes()

    def _entry_enabled(self, kind: str) -> bool | None:
        if kind == "face_up" and not self.config.get("mask"):
            return None
        if kind.startswith("support") and not self.config.get("support"):
            return None
        return True

    # ------------------------------------------------------------------ changes to the log

    def action_entry(self, kind: str) -> None:
        """Open the dialog for a new entry of ``kind``."""
        if self.mode != "main" or self.check_action("entry", (kind,)) is not True:
            return
        self._open_dialog(kind, None)

    def action_exchange_chance(self) -> None:
        """Step the chance that an interrogation I could not see ended in an exchange (the solver's
        ``exchange_chance``, saved in the session config) and solve again."""
        if self.mode != "main":
            return
        self.config["exchange_chance"] = self._next_exchange_chance()
        self._after_change(None)

    def _now_exchange_chance(self) -> float:
        """The setting the solver uses (an older file's 0 or 1 reads as the nearest usable value)."""
        now = self.config.get("exchange_chance", DEFAULT_EXCHANGE_CHANCE)
        if isinstance(now, bool) or not isinstance(now, int | float):
            return DEFAULT_EXCHANGE_CHANCE
        return usable_exchange_chance(now)

    def _next_exchange_chance(self) -> float:
        now = self._now_exchange_chance()
        later = [c for c in self.EXCHANGE_CHANCES if c > now]
        return later[0] if later else self.EXCHANGE_CHANCES[0]

    def action_more(self) -> None:
        if self.mode != "main":
            return

        def chosen(kind: str | None) -> None:
            if kind == "exchange_chance":
                self.action_exchange_chance()
            elif kind:
                self._open_dialog(kind, None)

        now = self._now_exchange_chance()
        step = f"{round(100 * now)}% → {round(100 * self._next_exchange_chance())}%"
        self.app.push_screen(MoreDialog(self.config, step), chosen)

    def _entry_dialog(self, kind: str, before: list[Any], entry: Any) -> GhoulEntryDialog:
        return GhoulEntryDialog(kind, self.config, before, entry)

    def _edit_kind(self, entry: Any) -> str | None:
        t = entry.get("type") if isinstance(entry, dict) else None
        kind = g.DIALOG_KIND.get(t, t)
        return kind if kind in g.TITLES else None

    def _page_default(self) -> Widget:
        return self.query_one(
            "#gx-notes-scroll"
            if self.current_view == "notes" or not self.narrow
            else ("#ax-log" if self.current_view == "log" else "#gx-advice-scroll")
        )

    def _button_actions(self) -> dict[str, Any]:
        return {**super()._button_actions(), "more": self.action_more}

    # ------------------------------------------------------------------ solving

    _solve_log = staticmethod(solve_log)

    def _show_result(self, r: dict[str, Any]) -> None:
        self.result = r
        if r.get("status") == "ok":
            self.state = "ok"
            self.solution = r
            self.conflict = []
        else:
            self.state = "contradiction" if r.get("status") == "contradiction" else "error"
            self.conflict = [int(i) for i in r.get("conflict", []) if isinstance(i, int)]
            if isinstance(r.get("before"), dict):
                self.solution = r["before"]
            if self.narrow and self.conflict:
                self.action_view("log")
        self._refresh_log()
        self._update_status()
        self._draw_notes()

    # ------------------------------------------------------------------ drawing

    def _log_sentences(self) -> list[str]:
        return [g.describe(e, g.with_reveals(self.config, self.entries[:i])) for i, e in enumerate(self.entries)]

    def _update_log_head(self, head: Static) -> None:
        if self.state in ("contradiction", "error"):
            head.update("Log · ⚠ the marked entries cannot all be true")
            head.add_class("-problem")
        else:
            head.update(
                f"Log · {words.count(len(self.entries), 'entry')} · tap one to edit or delete"
                if self.entries
                else "Log · empty"
            )
            head.remove_class("-problem")

    def contradiction_text(self) -> str:
        """The conflicting entries, by number and sentence, and what to do."""
        r = self.result or {}
        if self.state == "error":
            return f"⚠ {r.get('message', 'The log cannot be read.')} Edit, Delete or Undo."
        parts = [
            f"#{i + 1} “{g.describe(self.entries[i], g.with_reveals(self.config, self.entries[:i]))}”"
            for i in self.conflict
            if 0 <= i < len(self.entries)
        ]
        if len(parts) == 1:
            what = f"{parts[0]} cannot be true with this setup"
        elif len(parts) == 2:
            what = f"{parts[0]} and {parts[1]} contradict each other"
        else:
            what = "No deal fits " + ", ".join(parts[:-1]) + f" and {parts[-1]} together"
        return f"⚠ Contradiction: {what}. Nothing was removed: Edit, Delete or Undo."

    def _update_status(self) -> None:
        status = self.query_one("#ax-status", Static)
        problem = self.state in ("contradiction", "error")
        if problem:
            text = self.contradiction_text()
        elif self.state == "solving" and self.solution is None:
            text = "Solving…"
        elif self.solution is None:
            text = ""
        else:
            sol = self.solution
            chance = sol.get("exchange_chance", DEFAULT_EXCHANGE_CHANCE)
            parts = [
                f"Pool {sol['pool']}",
                "exact" if sol["exact"] else (
                    f"sampled ±{sol['error_95']:.2f}" if sol.get("method") == "sample" else "bound"
                ),
                f"exch. {round(100 * chance)}%",
            ]
            if g.last_index(self.entries, "hand") is None:
                parts.append("start with your Hand (h)")
            elif g.hand_changed(self.config, self.entries):
                parts.append("your cards changed: enter your new Hand (h)")
            else:
                summary = (sol.get("advice") or {}).get("summary")
                if summary:
                    parts.append(summary)
            if self.state == "solving":  # the numbers are the last answer's until the new one comes (issue 23)
                parts.insert(0, "updating the notes…")
            text = " · ".join(parts)
        status.update(Content(text))
        status.set_class(problem, "-problem")
        if self.state == "solving" and self.solution is not None:
            self.query_one("#gx-notes-head", Static).update("Notes · updating… (these are from before the last change)")

    def _draw_notes(self) -> None:
        head = self.query_one("#gx-notes-head", Static)
        scroll = self.query_one("#gx-notes-scroll")
        stale = self.state in ("contradiction", "error")
        scroll.set_class(stale, "-stale")
        head.set_class(stale, "-problem")
        sol = self.solution
        if sol is None:
            head.update("Detective notes · none yet: the log has a problem" if stale else "Detective notes")
            self.query_one("#gx-grid", Static).update("")
            self.query_one("#gx-ident", Static).update("")
            self.query_one("#gx-advice", Static).update("")
            return
        head.update(
            "Detective notes · STALE (from before the problem)"
            if stale
            else "Notes · ✓ surely, ✗ none, % chance of ≥ 1 card"
        )
        grid = grid_text(sol, self.config)
        self.query_one("#gx-grid", Static).update(grid)
        # Wide: the notes panel is as wide as the grid (up to 62% of the screen), the rest is the log's.
        width = max(cell_len(line) for line in grid.plain.splitlines()) + 12
        wanted = None if self.narrow else min(width, int(self.app.size.width * 0.62))
        if wanted != self._notes_width:  # a new width means a new layout pass: only when it changes
            self._notes_width = wanted
            self.query_one("#gx-notes-panel").styles.width = wanted
        self.query_one("#gx-ident", Static).update(identities_text(sol, self.config))
        advice = self.query_one("#gx-advice", Static)
        if stale:
            advice.update(Text("Advice appears when the log is consistent again.", style="dim"))
        else:
            advice.update(advice_text(sol, self.config))

    def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            self.workers.cancel_group(self, "solve")


AssistScreen = GhoulAssistScreen  # the name tui.app looks up for every game
