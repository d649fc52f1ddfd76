"""The Mascarade table assistant: your notes of a real table, and what they say about every card.

You type what happened, one short line at a time (``Bob swap T1``, ``Cy announce king``,
``Dee claim``, ``reveal Bob=king Cy=judge``…); each line becomes an entry of the session log
(``docs/mascarade.md``), ``solvers.mascarade.solve`` runs in a thread worker, and the screen
shows the chances per place, the certain facts and the advice. A line the solver refuses (or
that contradicts the notes) is not kept: a notification says why.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Static

from engine.session import Session
from tui.widgets.choices import Btn
from tui.widgets.logview import LogView

SYNTAX = ("Set up: players A B C D [me=B] · opening A=MASK … T1=MASK. "
          "Lines: NAME swap PLACE [yes|no] · NAME look [MASK] · NAME announce MASK · NAME claim · "
          "NAME pass · reveal NAME=MASK … · NAME spy TARGET [MINE THEIRS] · NAME fool A B · "
          "NAME shown TARGET [MASK] · NAME puppeteer A B · coins NAME=N … [court=N]")
DEFAULT_CONFIG = {"players": ["Ann", "Bob", "Cy", "Dee"], "me": "Ann", "opening": None}


def parse_line(line: str) -> dict:
    """One typed line -> one session log entry (raises ValueError with a sentence)."""
    words = line.split()
    if not words:
        raise ValueError("Type what happened, e.g. “Bob swap T1”.")
    head = words[0].lower()
    if head == "reveal":
        pairs = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if not pairs:
            raise ValueError("reveal NAME=MASK …: which cards were shown?")
        return {"t": "reveal", "cards": {k: v.lower() for k, v in pairs.items()}}
    if head == "coins":
        coins = {}
        court = None
        for w in words[1:]:
            k, _, v = w.partition("=")
            if not v.isdigit():
                raise ValueError("coins NAME=N … [court=N]: numbers please.")
            if k.lower() == "court":
                court = int(v)
            else:
                coins[k] = int(v)
        entry: dict[str, Any] = {"t": "coins", "coins": coins}
        if court is not None:
            entry["court"] = court
        return entry
    if len(words) < 2:
        raise ValueError(f"What did {words[0]} do? {SYNTAX}")
    by, verb, rest = words[0], words[1].lower(), words[2:]
    if verb == "swap" and rest:
        e: dict[str, Any] = {"t": "swap", "by": by, "with": rest[0]}
        if len(rest) > 1:
            e["swapped"] = rest[1].lower() in ("yes", "y", "true", "1")
        return e
    if verb == "look":
        return {"t": "look", "by": by, **({"card": rest[0].lower()} if rest else {})}
    if verb == "announce" and rest:
        return {"t": "announce", "by": by, "mask": rest[0].lower()}
    if verb in ("claim", "pass"):
        return {"t": verb, "by": by}
    if verb == "spy" and rest:
        e = {"t": "spy", "by": by, "target": rest[0]}
        if len(rest) >= 3:
            e.update(mine=rest[1].lower(), theirs=rest[2].lower())
        return e
    if verb == "fool" and len(rest) >= 2:
        return {"t": "swap", "by": by, "a": rest[0], "b": rest[1]}
    if verb == "shown" and rest:
        return {"t": "shown", "by": by, "target": rest[0], **({"card": rest[1].lower()} if len(rest) > 1 else {})}
    if verb == "puppeteer" and len(rest) >= 2:
        return {"t": "puppeteer", "by": by, "a": rest[0], "b": rest[1]}
    raise ValueError(f"Not understood: “{line}”. {SYNTAX}")


def describe_entry(e: dict) -> str:
    """A short sentence for a log entry (the notes panel)."""
    t = e.get("t")
    by = e.get("by", "")
    if t == "swap":
        if "with" in e:
            how = "" if "swapped" not in e else (" (really)" if e["swapped"] else " (pretended)")
            return f"{by} swaps or pretends with {e['with']}{how}"
        return f"{by} swaps or pretends the cards of {e['a']} and {e['b']}"
    if t == "look":
        return f"{by} looks at their card" + (f": {e['card']}" if e.get("card") else "")
    if t == "announce":
        return f"{by} announces the {e['mask']}"
    if t in ("claim", "pass"):
        return f"{by} {'claims too' if t == 'claim' else 'passes'}"
    if t == "reveal":
        return "revealed: " + ", ".join(f"{k} {v}" for k, v in e["cards"].items())
    if t == "spy":
        return f"{by} spies {e['target']}" + (f" ({e['mine']} / {e['theirs']})" if e.get("mine") else "")
    if t == "shown":
        return f"{by} shows {e['target']}'s card" + (f": {e['card']}" if e.get("card") else "")
    if t == "puppeteer":
        return f"{by}: {e['a']} and {e['b']} trade places"
    if t == "coins":
        return "coins: " + ", ".join(f"{k} {v}" for k, v in e["coins"].items())
    return str(e)


class AssistScreen(Screen):
    """Notes on the left, the beliefs on the right, one input line for what happened."""

    HELP_TITLE = "Mascarade: table assistant"
    AUTO_FOCUS = "#mqa-input"
    SCOPED_CSS = False
    DEFAULT_CSS = """
    #mqa-main { height: 1fr; }
    #mqa-beliefs { width: 1fr; height: 100%; padding: 0 1; }
    #mqa-notes { width: 34; height: 100%; border-left: tall $panel; }
    Screen.-wide #mqa-notes { width: 48; }
    #mqa-status { height: 1; padding: 0 1; background: $panel; }
    #mqa-advice { height: auto; padding: 0 1; background: $primary 20%; }
    #mqa-bar { height: 3; }
    #mqa-input { width: 1fr; }
    #mqa-bar Button { min-width: 8; width: auto; margin: 0 0 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+z", "undo", "Undo last", id="mqa-undo"),
        Binding("escape", "app.home", "Home", id="mqa-home"),
    ]

    def __init__(self, session_id: str | None = None, session: Session | None = None) -> None:
        super().__init__()
        from tui.storage import new_session_id

        self.session = session or Session(game="mascarade", mode="assist", config=dict(DEFAULT_CONFIG), log=[])
        self.session_id = session_id or new_session_id("mascarade", "assist")
        self.result: dict | None = None
        self._asked = 0

    def compose(self) -> ComposeResult:
        yield Static(id="mqa-status")
        with Horizontal(id="mqa-main"):
            yield Static(id="mqa-beliefs")
            with Vertical(id="mqa-notes"):
                yield LogView(id="mqa-log")
        yield Static(id="mqa-advice")
        with Horizontal(id="mqa-bar"):
            box = Input(placeholder="e.g. Bob swap T1 · Cy announce king · Dee pass", id="mqa-input")
            box.cursor_blink = False
            yield box
            yield Btn("Add (⏎)", id="mqa-add", variant="primary")
            yield Btn("Undo (^z)", id="mqa-undo-btn")
        yield Footer()

    def on_mount(self) -> None:
        self._status()
        self.query_one("#mqa-log", LogView).extend(
            [Text(f"{i + 1}. {describe_entry(e)}") for i, e in enumerate(self.session.log)])
        self._solve(list(self.session.log), None)

    # ----------------------------------------------------------------- solving

    @work(thread=True, exclusive=True, exit_on_error=False, group="mqa-solve")
    def _solve(self, log: list, new: dict | None) -> None:
        from solvers.mascarade import SolverInputError, solve

        try:
            res = solve(self.session.config, log, advice=True)
        except (SolverInputError, ValueError) as e:
            self.app.call_from_thread(self._refused, str(e))
            return
        self.app.call_from_thread(self._solved, log, new, res)

    def _refused(self, message: str) -> None:
        self.notify(message.splitlines()[0] if message else "Not accepted.", title="Not kept", severity="warning")

    def _solved(self, log: list, new: dict | None, res: dict) -> None:
        if res.get("status") != "ok":
            self._refused(res.get("message", "These notes contradict each other."))
            return
        if new is not None:
            self.session.log = log
            self.query_one("#mqa-log", LogView).extend([Text(f"{len(log)}. {describe_entry(new)}")])
            self._save()
        self.result = res
        self._draw()

    def _draw(self) -> None:
        res = self.result or {}
        probs = res.get("probabilities", {})
        wide = self.app.size.width >= 110
        k = 3 if wide else 2
        t = Text()
        t.append("Place  What is there (chance)\n", style="bold")
        for place, dist in probs.items():
            best = sorted((m for m in dist if dist[m] > 0.005), key=lambda m: -dist[m])[:k]
            sure = len(best) == 1
            t.append(f"{place[:6]:<7}", style="bold")
            t.append(" · ".join(f"{m.title()} {round(dist[m] * 100)}%" for m in best) + "\n",
                     style="bold green" if sure else "yellow")
        exact = "exact" if res.get("exact") else f"approximate (±{res.get('error_bound', 0):.2f})"
        t.append(f"\n{res.get('layouts', 0)} layouts, {exact}.\n", style="dim")
        if wide:
            t.append("\nWhat to type\n", style="bold underline")
            t.append(SYNTAX.replace(" · ", "\n").replace("Lines: ", "\n") + "\n", style="dim")
        self.query_one("#mqa-beliefs", Static).update(t)
        adv = (res.get("advice") or {})
        best = adv.get("best") or {}
        line = "Advice: " + (f"{best.get('action')}" + (f" the {best['mask']}" if best.get("mask") else "")
                             + (f" with {best['with']}" if best.get("with") else "")) if best else ""
        pend = adv.get("pending")
        if pend:
            line = (f"{pend['by']} announced the {pend['mask']}: "
                    f"{'claim' if pend['claim'] else 'pass'} is advised.")
        self.query_one("#mqa-advice", Static).update(
            line or "Type what happens at the table (start with: players A B C D, opening A=mask …).")

    # ----------------------------------------------------------------- input

    def _setup_line(self, line: str) -> bool:
        """``players A B C D [me=B]`` or ``opening A=mask … T1=mask``, before the first note."""
        words = line.split()
        if not words or words[0].lower() not in ("players", "opening"):
            return False
        if self.session.log:
            self.notify("Change the players or the opening before the first note (undo the notes first).",
                        title="Not now", severity="warning")
            return True
        cfg = dict(self.session.config)
        if words[0].lower() == "players":
            names = [w for w in words[1:] if "=" not in w]
            me = next((w.split("=", 1)[1] for w in words[1:] if w.lower().startswith("me=")), names[0] if names else "")
            cfg.update(players=names, me=me, opening=None)
        else:
            cfg["opening"] = {k: v.lower() for k, v in (w.split("=", 1) for w in words[1:] if "=" in w)} or None
        try:
            from solvers.mascarade import parse_config

            parse_config(cfg)
        except Exception as e:
            self.notify(str(e).splitlines()[0], title="Not kept", severity="warning")
            return True
        self.session.config = cfg
        self.query_one("#mqa-input", Input).value = ""
        self._status()
        self._save()
        self._solve(list(self.session.log), None)
        return True

    def _status(self) -> None:
        cfg = self.session.config
        seen = "opening seen" if cfg.get("opening") else "no opening"
        self.query_one("#mqa-status", Static).update(
            f"Mascarade assistant · {', '.join(cfg.get('players', []))} · notes of {cfg.get('me')} · {seen}")

    def add_line(self, line: str) -> None:
        if self._setup_line(line):
            return
        try:
            entry = parse_line(line)
        except ValueError as e:
            self.notify(str(e), title="Not understood", severity="warning")
            return
        self.query_one("#mqa-input", Input).value = ""
        self._solve([*self.session.log, entry], entry)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.add_line(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "mqa-add":
            self.add_line(self.query_one("#mqa-input", Input).value)
        elif event.button.id == "mqa-undo-btn":
            self.action_undo()

    def action_undo(self) -> None:
        if not self.session.log:
            self.notify("No notes to undo.", title="Undo")
            return
        self.session.log = self.session.log[:-1]
        log = self.query_one("#mqa-log", LogView)
        log.reset()
        log.extend([Text(f"{i + 1}. {describe_entry(e)}") for i, e in enumerate(self.session.log)])
        self._save()
        self._solve(list(self.session.log), None)

    def _save(self) -> None:
        from tui.storage import save_session

        try:
            save_session(self.session, self.session_id)
        except Exception as e:
            self.notify(f"Could not save: {e.__class__.__name__}: {e}".splitlines()[0], severity="error")
