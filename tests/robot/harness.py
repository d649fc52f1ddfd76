"""The UI robot: a restless person at the keyboard and the touch screen, with a checklist after every step.

``Robot`` drives a running :class:`tui.app.UnmaskApp` through Textual's Pilot from a seeded RNG: it taps
visible buttons and options, presses the keys the footer and the bindings advertise, types bursts into
inputs (all keys sent before any is handled, as over a laggy SSH link), switches tabs, resizes, and opens
and cancels dialogs (Esc, a tap on Cancel/Later/Close, Enter on it). After every step ``check`` runs the
invariants that hold for any screen; the first broken one raises :class:`Violation` with the steps so far,
which ``shrink`` cuts down to a short reproduction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.measure import measure_renderables
from rich.segment import Segment
from textual.css.query import NoMatches
from textual.errors import NoWidget
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Tab

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))

from tui_helpers import burst, keys_handled  # the robot's tests import burst from here

SIZES = ((80, 24), (120, 40))
CANCEL_WORDS = ("cancel", "later", "close", "back", "no")


class Violation(AssertionError):
    """An invariant broke; ``steps`` is the sequence that led there."""

    def __init__(self, message: str, steps: list[tuple] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.steps = list(steps or [])

    def __str__(self) -> str:
        tail = "\n  ".join(repr(s) for s in self.steps[-25:])
        return f"{self.message}\nlast steps:\n  {tail}"


# --------------------------------------------------------------------------- small tools




def play_until(table: Any, want: Callable[[dict], bool], limit: int = 3000, to_centre: bool = False) -> bool:
    """Play a Clue table (seat 0 by a plain strategy) until ``want(view of seat 0)`` holds."""
    from tui_helpers import advance

    return advance(table, want, limit=limit, to_centre=to_centre)


def displayed(widget: Widget) -> bool:
    """Shown on its screen: it and every ancestor have ``display`` on and are visible."""
    node: Any = widget
    while node is not None and not isinstance(node, Screen):
        if not node.display or not node.visible:
            return False
        node = node.parent
    return True


def enabled(widget: Widget) -> bool:
    node: Any = widget
    while node is not None:
        if getattr(node, "disabled", False):
            return False
        node = node.parent
    return True


def region_of(widget: Widget):
    try:
        return widget.screen.find_widget(widget).region
    except (NoWidget, Exception):
        return None


def interactive(screen: Screen) -> list[Widget]:
    """The enabled, displayed things a person can tap on the screen: buttons, options, inputs, tabs."""
    out: list[Widget] = []
    for w in screen.query("Button, Input, Checkbox, Select, Tab, Option"):
        if isinstance(w, Tab) and w.disabled:
            continue
        if displayed(w) and enabled(w):
            out.append(w)
    return out


def _scrolls(widget: Widget, vertical: bool) -> bool:
    if vertical:
        return widget.allow_vertical_scroll or (widget.styles.overflow_y in ("auto", "scroll")
                                                and widget.max_scroll_y > 0)
    return widget.allow_horizontal_scroll or (widget.styles.overflow_x in ("auto", "scroll")
                                              and widget.max_scroll_x > 0)


def reach_problem(widget: Widget, size) -> str | None:
    """None if a person can reach ``widget``: mostly inside the terminal, or in containers that scroll to it.

    A widget at least half visible counts as reachable (a tap on its visible part works); otherwise
    every ancestor that cuts it off must be able to scroll it into view, and so on up to the terminal.
    """
    from textual.geometry import Region

    region = region_of(widget)
    if region is None or region.area == 0:
        return "has no room on the screen (zero size)"
    visible = region.intersection(Region(0, 0, size[0], size[1]))
    node: Any = widget.parent
    inner = region
    problem = None
    while node is not None and not isinstance(node, Screen):
        box = region_of(node)
        if box is not None and box.area:
            content = node.scrollable_content_region if node.is_scrollable else box
            visible = visible.intersection(content)
            if not content.contains_region(inner):
                vertical = inner.y < content.y or inner.bottom > content.bottom
                side = inner.x < content.x or inner.right > content.right
                if (vertical and not _scrolls(node, True)) or (side and not _scrolls(node, False)):
                    problem = problem or f"cut off by {node!r}, which cannot scroll to it"
                else:
                    inner = box  # this container scrolls to it: now the container must be reachable
        node = node.parent
    if visible.area * 2 >= region.area:
        return None
    if problem is None and not Region(0, 0, size[0], size[1]).contains_region(inner):
        problem = f"outside the {size[0]}×{size[1]} terminal at {region}"
    return problem


def unreachable(app) -> list[str]:
    screen = app.screen
    out = []
    for w in interactive(screen):
        problem = reach_problem(w, app.size)
        if problem:
            out.append(f"{w!r}: {problem}")
    return out


def log_wrap_problem(log) -> str | None:
    """None if every line of a LogView is wrapped at the pane's current width."""
    if not displayed(log) or not log.is_mounted:
        return None
    region = region_of(log)
    if region is None or region.area == 0:
        return None
    width = log.scrollable_content_region.width
    if width <= 0 or not log._size_known or log._deferred_renders:
        return None
    console: Console = log.app.console
    options = console.options
    expected = 0
    for text in log.texts:
        w = measure_renderables(console, options, [text]).maximum
        w = max(min(w, width), log.min_width)
        expected += max(1, len(list(Segment.split_lines(console.render(text, options.update_width(w))))))
    got = len(log.lines)
    widest = max((s.cell_length for s in log.lines), default=0)
    if got != expected or widest > max(width, log.min_width):
        return f"{log!r}: {got} rows wrapped for a {width}-column pane, which needs {expected} (widest row {widest})"
    return None


# --------------------------------------------------------------------------- scenarios

GAMES = ("clue", "mascarade", "masque", "ghoul")
PLAY_SEATS = {"clue": ["human", "notes", "random", "notes"],
              "mascarade": ["human", "honest", "random", "honest", "random"],
              "masque": ["human", "heuristic", "random", "heuristic"],
              "ghoul": ["human"] + ["heuristic", "random"] * 2 + ["heuristic"]}


def new_play_table(game: str, seed: int):
    from engine.registry import get_game
    from solvers.bots import bot_names
    from solvers.table import Table

    kinds = bot_names(game)
    seats = ["human"] + [k if k in kinds else kinds[0] for k in PLAY_SEATS[game][1:]]
    config = get_game(game).config_from_json({"players": len(seats)})
    return Table(game, config, seed, seats)


class ServiceThread:
    """The shared-table service on its own event loop in a thread, as in the server's process."""

    def __init__(self) -> None:
        import threading

        from tui.serve.tables import TableService

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

        async def start():
            service = TableService(bot_delay=0)
            await service.start()
            return service

        self.service = asyncio.run_coroutine_threadsafe(start(), self.loop).result(30)
        self.path = self.service.path

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.service.close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@dataclass
class Scenario:
    """Where the robot starts: ``kind`` is home, play, assist, rules, resume, settings, help, lobby or replay
    (the game's finished example game, issue 25)."""

    kind: str
    game: str = ""
    size: tuple[int, int] = (80, 24)

    @property
    def name(self) -> str:
        return f"{self.kind}{'-' + self.game if self.game else ''}-{self.size[0]}x{self.size[1]}"

    def make_app(self, seed: int):
        from tui.app import UnmaskApp

        if self.kind == "play":
            return UnmaskApp(table=new_play_table(self.game, seed), session_id=f"{self.game}-robot-{seed}",
                             bot_delay=0)
        if self.kind == "assist":
            return UnmaskApp(start=f"assist:{self.game}", bot_delay=0)
        if self.kind == "rules":
            return UnmaskApp(start=f"rules:{self.game or 'clue'}", bot_delay=0)
        if self.kind == "resume":
            _seed_saved_sessions(seed)
            return UnmaskApp(start="resume", bot_delay=0)
        if self.kind == "replay":
            from engine.replay import replay_steps
            from tui.storage import read_session_file

            finished = Path(__file__).resolve().parents[2] / "examples" / f"{self.game}-finished.json"
            return UnmaskApp(replay=replay_steps(read_session_file(finished)), bot_delay=0)
        if self.kind == "lobby":
            from tui.serve.child import ServedApp

            return ServedApp(bot_delay=0)
        return UnmaskApp(bot_delay=0)

    async def opened(self, app) -> None:
        if self.kind == "settings":
            app.action_settings()
        elif self.kind == "help":
            app.action_help()


def _seed_saved_sessions(seed: int) -> None:
    """A few saved games of each kind (and a damaged file) for the Resume screen to list."""
    from tui.storage import save_session, sessions_dir

    for i, game in enumerate(GAMES):
        t = new_play_table(game, seed + i)
        for _ in range(30):
            if t.is_over():
                break
            if t.waiting_for_bot():
                t.step_bot()
            else:
                v = t.view(0)
                from solvers.bots import make_bot

                t.submit(0, tuple(make_bot(game, "random", 0, seed).choose(v)))
        save_session(t.to_session(), f"{game}-play-robot-{seed}")
    # a finished game (Resume offers its replay), without its kept beliefs: the chart is worked out
    finished = json.loads((Path(__file__).resolve().parents[2] / "examples" / "ghoul-finished.json").read_text("utf-8"))
    finished.pop("beliefs", None)
    (sessions_dir() / "ghoul-finished-robot.json").write_text(json.dumps(finished), encoding="utf-8")
    (sessions_dir() / "damaged.json").write_text("{not json", encoding="utf-8")


def all_scenarios() -> list[Scenario]:
    out = []
    for size in SIZES:
        for game in GAMES:
            out.append(Scenario("play", game, size))
            out.append(Scenario("assist", game, size))
            out.append(Scenario("replay", game, size))
        out += [Scenario("home", "", size), Scenario("resume", "", size), Scenario("rules", "clue", size),
                Scenario("settings", "", size), Scenario("help", "", size), Scenario("lobby", "", size)]
    return out


# --------------------------------------------------------------------------- the robot

# Words of a step that may leave a game screen: its own Home, Close or Quit, the end screen's next game,
# a confirmed "leave?" question.
LEAVING_ACTIONS = ("home", "quit", "lobby", "new", "resume", "assist", "rematch", "again", "close", "leave",
                   "confirm-yes", "answer(true)")
NEVER = {"app.quit", "quit", "app.command_palette", "command_palette", "app.toggle_bot_speed", "toggle_bot_speed",
         "app.screenshot", "app.suspend_process", "suspend_process"}
GENERIC_KEYS = ("tab", "shift+tab", "enter", "space", "escape", "up", "down", "left", "right", "home", "end",
                "pageup", "pagedown", "backspace")
TEXTS = ("Ann", "Bob", "Cat", "Dan", "7", "12", "x", "Zoë", "  ", "Eve Lynn", "'; rm -rf", "0", "99")


# Visible text that reads wrong, whatever the screen (issue 23): a class name ("Keys — ClueAssist"),
# a count and a noun that disagree ("1 steps", "2 card").
CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b")
_INTERNAL_NAMES: dict[type, set[str]] = {}


def internal_names(node: Any) -> set[str]:
    """The names a player must never read: our classes of ``node`` (and those names without Screen / Dialog)."""
    cls = type(node)
    if cls not in _INTERNAL_NAMES:
        names: set[str] = set()
        for k in cls.__mro__:
            if k.__module__.startswith("tui."):
                n = k.__name__
                names |= {n, n.removesuffix("Screen"), n.removesuffix("Dialog")}
        _INTERNAL_NAMES[cls] = {n for n in names if CAMEL.fullmatch(n)}
    return _INTERNAL_NAMES[cls]


def screen_lines(app: Any) -> list[str]:
    """The text of the terminal as drawn now."""
    try:
        return [strip.text for strip in app.screen._compositor.render_strips()]
    except Exception:
        return []


def text_problem(app: Any) -> str | None:
    """A class name, or a count whose noun disagrees, in what the terminal shows."""
    from test_sentences import ONE_PLURAL, TWO_SINGULAR

    lines = screen_lines(app)
    names: set[str] = set()
    for screen in app.screen_stack:
        for node in (screen, *screen.walk_children()):
            names |= internal_names(node)
    for line in lines:
        for word in CAMEL.findall(line):
            if word in names:
                return f"an internal name {word!r} is shown: {line.strip()!r}"
        bad = ONE_PLURAL.search(line) or TWO_SINGULAR.search(line)
        if bad:
            return f"a count and its noun disagree ({bad.group(0)!r}): {line.strip()!r}"
    return None


def focus_problem(app: Any) -> str | None:
    """A screen that can take the focus but shows nothing focused: Enter and the arrows do nothing until
    Tab (Home had its scrolling box focused). Screens whose keys are all their own (``AUTO_FOCUS = None``,
    the play screens) are exempt."""
    from textual.containers import ScrollableContainer

    screen = app.screen
    if type(screen).AUTO_FOCUS is None or not screen.focus_chain:
        return None
    focused = app.focused
    if focused is None:
        return f"nothing is focused on {type(screen).__name__}"
    idle_box = (isinstance(focused, ScrollableContainer) and type(focused).__module__.startswith("textual.")
                and focused.max_scroll_x == 0 and focused.max_scroll_y == 0)
    if idle_box and any(w is not focused for w in screen.focus_chain):
        return f"on {type(screen).__name__} only a box with nothing to scroll is focused ({_selector(focused)})"
    return None


def tie_problem(screen: Any) -> str | None:
    """A belief that is a tie drawn as one name (the Mascarade table: "Chloe ▮ Empress 50%" at 50/50)."""
    if type(screen).__module__ != "tui.mascarade.play" or getattr(screen, "_probs_at", None) is None:
        return None
    from tui.mascarade import model as m

    probs, view = screen.probs, screen.view
    if not probs:
        return None
    drawn = [line for line in str(screen.query_one("#mq-table").render()).splitlines() if "▮" in line]
    for row, line in zip(m.place_rows(view, probs), drawn, strict=False):
        dist = probs[row.place] if row.place < len(probs) else None
        if not dist:
            continue
        best = max(dist.values())
        tied = [k for k, v in dist.items() if v > 0.005 and best - v < 0.005]
        shown = line.split("▮", 1)[1]
        if len(tied) > 1 and not (" or " in shown or "tie" in shown or "/" in shown):  # "Judge/Sorceress 50%"
            return f"a {len(tied)}-way tie drawn as one name: {line.strip()!r}"
    return None


def _is_game_screen(screen) -> bool:
    mod = type(screen).__module__
    return mod.endswith(".play") or mod.endswith(".assist") or type(screen).__name__ == "RemotePlayScreen"


def _label(widget) -> str:
    try:
        return str(getattr(widget, "label", "") or "")
    except Exception:
        return ""


def _selector(widget) -> str:
    return f"#{widget.id}" if widget.id else type(widget).__name__


@dataclass
class Robot:
    """A seeded restless user of one scenario; ``steps`` records what it did, as replayable tuples."""

    scenario: Scenario
    seed: int
    checks: bool = True
    steps: list[tuple] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    render_share: float = 0.25

    def __post_init__(self) -> None:
        self.render = True
        self.draw_rng = random.Random(self.seed)  # apart from the steps' RNG: a replay draws the same way
        self.timing: dict[str, float] = {}
        self.rng = random.Random(f"{self.scenario.name}/{self.seed}")

    # ............................................................ running

    async def run(self, n_steps: int, script: list[tuple] | None = None) -> int:
        """Take ``n_steps`` random steps (or replay ``script``); raise Violation on the first broken invariant."""
        random.seed(self.seed)
        service = ServiceThread() if self.scenario.kind == "lobby" else None
        env_old = {}
        if service is not None:
            import os

            for k, v in (("UNMASK_TABLES_SOCKET", str(service.path)), ("UNMASK_USER", "robot"),
                         ("UNMASK_SERVE_PLAIN", "1")):
                env_old[k] = os.environ.get(k)
                os.environ[k] = v
        handler = _ErrorLog(self.errors)
        logging.getLogger().addHandler(handler)
        app = self.scenario.make_app(self.seed)
        notes = _record_notes(app)
        original_refresh = Screen._compositor_refresh
        robot = self

        def refresh(screen: Screen) -> None:
            # Drawing the terminal is most of a step's cost; the robot draws on a quarter of its steps
            # (and always before reading the screen), which still runs every widget's render.
            if robot.render:
                original_refresh(screen)

        Screen._compositor_refresh = refresh  # type: ignore[method-assign]
        done = 0
        try:
            async with app.run_test(size=self.scenario.size, notifications=True) as pilot:
                await self._settle(pilot)
                await self.scenario.opened(app)
                await self._settle(pilot)
                self.start_stack = list(app.screen_stack)
                await self.check(pilot, None, notes)
                todo = script if script is not None else [None] * n_steps
                for planned in todo:
                    step = planned or self.choose(pilot)
                    if step is None:
                        continue
                    before = list(app.screen_stack)
                    self._action = self._action_of(step, app.screen)
                    footer = step[0] == "key" and step[2] == "footer"
                    self.render = footer or self.draw_rng.random() < self.render_share
                    t0 = time.perf_counter()
                    did = await self.do(pilot, step)
                    if not did:
                        continue
                    self.steps.append(step)
                    await self._settle(pilot)
                    t1 = time.perf_counter()
                    await self.check(pilot, (step, before), notes)
                    t2 = time.perf_counter()
                    self.timing[step[0]] = self.timing.get(step[0], 0.0) + t1 - t0
                    self.timing["check"] = self.timing.get("check", 0.0) + t2 - t1
                    done += 1
                    if app._exit_renderables or not app.is_running:
                        break
        except Violation:
            raise
        except Exception as e:  # the app crashed: run_test re-raises its exception on the way out
            raise Violation(f"exception: {e!r}", self.steps) from e
        finally:
            Screen._compositor_refresh = original_refresh  # type: ignore[method-assign]
            logging.getLogger().removeHandler(handler)
            if service is not None:
                import os

                service.close()
                for k, v in env_old.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
        if app._exception is not None:
            raise Violation(f"exception: {app._exception!r}", self.steps)
        return done

    async def _settle(self, pilot: Pilot) -> None:
        """Wait until the step's messages, workers and the redraw they cause are done."""
        app = pilot.app
        await pilot.pause()
        await keys_handled(pilot)
        for _ in range(50):
            if not any(w.is_running for w in app.workers):
                break
            await app.workers.wait_for_complete()
            await pilot.pause()
        if app.bot_delay:
            app.set_bot_delay(0.0)  # a robot that turned bots readable: keep them instant (and repeatable)
            await pilot.pause()

    # ............................................................ choosing

    def _targets(self, screen) -> list[Widget]:
        out = []
        for w in interactive(screen):
            if isinstance(w, Button) and any(word in _label(w).lower() for word in ("quit",)):
                continue
            out.append(w)
        return out

    def _keys(self, screen) -> list[tuple[str, str, bool]]:
        """(key, action, shown in its footer) of the bindings active on the top screen."""
        from textual.widgets import Footer

        has_footer = any(displayed(f) for f in screen.query(Footer))
        out = []
        for key, active in screen.active_bindings.items():
            b = active.binding
            if b.action in NEVER or not active.enabled:
                continue
            out.append((key, b.action, bool(b.show) and has_footer))
        return out

    def choose(self, pilot: Pilot) -> tuple | None:
        """A random step; in a game's scenario the robot mostly stays in the game (it may still leave)."""
        for _ in range(8):
            step = self._choose(pilot)
            if step is None or self.scenario.kind not in ("play", "assist") or not _is_game_screen(pilot.app.screen):
                return step
            action = self._action_of(step, pilot.app.screen)
            if not any(w in action for w in ("home", "close", "cancel", "back", "pop_screen", "quit", "lobby")):
                return step
            if self.rng.random() < 0.1:
                return step
        return step

    def _choose(self, pilot: Pilot) -> tuple | None:
        app = pilot.app
        screen = app.screen
        rng = self.rng
        modal = isinstance(screen, ModalScreen)
        r = rng.random()
        if modal and r < 0.18:
            cancel = [w for w in self._targets(screen) if isinstance(w, Button)
                      and any(_label(w).lower().startswith(c) for c in CANCEL_WORDS)]
            how = rng.choice(("escape", "tap", "enter"))
            if how != "escape" and cancel:
                return ("cancel", how, _selector(rng.choice(cancel)))
            return ("cancel", "escape", "")
        if r < 0.55:
            targets = self._targets(screen)
            if targets:
                w = rng.choice(targets)
                return ("tap", _selector(w), targets.index(w) if not w.id else 0, type(w).__name__)
        if r < 0.80:
            keys = self._keys(screen)
            shown = [k for k in keys if k[2]]
            if shown and rng.random() < 0.6:
                return ("key", rng.choice(shown)[0], "footer")
            if keys and rng.random() < 0.5:
                return ("key", rng.choice(keys)[0], "binding")
            return ("key", rng.choice(GENERIC_KEYS), "generic")
        if r < 0.92:
            inputs = [w for w in self._targets(screen) if isinstance(w, Input)]
            if inputs:
                w = rng.choice(inputs)
                keys: list[str] = []
                for _ in range(rng.randint(1, 3)):
                    keys += list(rng.choice(TEXTS)) + rng.choice([["tab"], ["tab", "tab"], [], ["backspace"]])
                return ("type", _selector(w), tuple(keys))
            tabs = [w for w in self._targets(screen) if isinstance(w, Tab)]
            if tabs:
                return ("tap", _selector(rng.choice(tabs)), 0, "Tab")
        if r < 0.97:
            return ("resize", *rng.choice([*SIZES, (100, 30)]))
        return ("key", rng.choice(GENERIC_KEYS), "generic")

    # ............................................................ doing

    def _find(self, screen, step: tuple) -> Widget | None:
        sel = step[1]
        if sel.startswith("#"):
            try:
                w = screen.query_one(sel)
            except NoMatches:
                return None
            return w if displayed(w) and enabled(w) else None
        targets = [w for w in self._targets(screen) if type(w).__name__ == sel]
        if not targets:
            return None
        return targets[step[2] % len(targets)] if len(step) > 2 and isinstance(step[2], int) else targets[0]

    async def _tap(self, pilot: Pilot, w: Widget) -> bool:
        w.scroll_visible(animate=False, immediate=True)
        await pilot.pause()
        region = region_of(w)
        if region is None or region.area == 0:
            return False
        from textual.geometry import Region

        visible = region.intersection(Region(0, 0, *pilot.app.size))
        for node in w.ancestors_with_self:
            if isinstance(node, Screen):
                break
            if node is not w and node.is_scrollable:
                visible = visible.intersection(node.scrollable_content_region)
        if visible.area == 0:
            return False
        x = visible.x + visible.width // 2
        y = visible.y + visible.height // 2
        await pilot.click(offset=(x, y))
        return True

    async def do(self, pilot: Pilot, step: tuple) -> bool:
        app = pilot.app
        screen = app.screen
        kind = step[0]
        self._footer_before = None
        if kind == "tap":
            w = self._find(screen, step)
            self._last_label = _label(w) if w is not None else ""
            return w is not None and await self._tap(pilot, w)
        if kind == "key":
            if step[2] == "footer" and any(k == step[1] and shown for k, _a, shown in self._keys(screen)):
                self._footer_before = self._fingerprint(app)  # (a replayed key may no longer be offered)
            await pilot.press(step[1])
            return True
        if kind == "type":
            w = self._find(screen, step)
            if w is None:
                return False
            if app.focused is not w:
                if not await self._tap(pilot, w):
                    w.focus()
                await pilot.pause()
            await burst(pilot, step[2])
            return True
        if kind == "resize":
            await pilot.resize_terminal(step[1], step[2])
            await pilot.pause()
            return True
        if kind == "cancel":
            if not isinstance(screen, ModalScreen):
                return False
            if step[1] == "escape":
                await pilot.press("escape")
                return True
            w = self._find(screen, ("tap", step[2]))
            if w is None:
                return False
            if step[1] == "tap":
                return await self._tap(pilot, w)
            w.focus()
            await pilot.pause()
            await pilot.press("enter")
            return True
        return False

    @staticmethod
    def _fingerprint(app) -> tuple:
        screen = app.screen
        try:
            lines = tuple(strip.text for strip in screen._compositor.render_strips())  # type: ignore[attr-defined]
        except Exception:
            lines = ()
        # Notifications posted so far (not those on screen: one expiring as another comes would hide it).
        posted = len(getattr(app, "_robot_notes", app._notifications))
        return (tuple(app.screen_stack), app.focused, posted, lines, app.size)

    # ............................................................ checking

    def fail(self, message: str) -> None:
        raise Violation(f"[{self.scenario.name} seed {self.seed}] {message}", self.steps)

    async def check(self, pilot: Pilot, last: tuple | None, notes: list) -> None:
        app = pilot.app
        if app._exception is not None:
            self.fail(f"exception: {app._exception!r}")
        from textual.worker import WorkerState

        for w in app.workers:
            if w.state == WorkerState.ERROR:
                self.fail(f"worker failed: {w!r}: {w.error!r}")
        if self.errors:
            self.fail(f"logged at error level: {self.errors[0]}")
        bad_notes = [n for n in notes if n[1] == "error"]
        if bad_notes:
            self.fail(f"an error reached the user: {bad_notes[0][0]!r}")
        if not self.checks:
            return
        stack = list(app.screen_stack)
        if last is not None:
            step, before = last
            self._check_navigation(step, before, stack)
            if step[0] == "key" and step[2] == "footer" and self._footer_before is not None \
                    and self._fingerprint(app) == self._footer_before:
                self.fail(f"the footer shows {step[1]!r} on {type(before[-1]).__name__}, and it does nothing")
        screen = app.screen
        bad = unreachable(app)
        if bad:
            self.fail(f"out of reach on {type(screen).__name__} at {app.size.width}×{app.size.height}: {bad[:3]}")
        from tui.widgets.logview import LogView

        for log in screen.query(LogView):
            problem = log_wrap_problem(log)
            for _ in range(3):  # a log that has just shown re-wraps after the next refresh: let it
                if problem is None:
                    break
                await pilot.pause()
                problem = log_wrap_problem(log)
            if problem:
                self.fail(f"log wrapped narrower than its pane: {problem}")
        self._check_forms(screen)
        self._check_saved(stack)
        for problem in (focus_problem(app), tie_problem(screen), text_problem(app) if self.render else None):
            if problem:
                self.fail(problem)

    def _check_navigation(self, step: tuple, before: list, after: list) -> None:
        top = before[-1]
        if step[0] == "cancel" and isinstance(top, ModalScreen):
            opener = before[-2]
            if opener not in after or (after.index(opener) != len(before) - 2):
                self.fail(f"{step[1]} on {type(top).__name__}'s cancel went past {type(opener).__name__}: "
                          f"now {[type(s).__name__ for s in after]}")
        for s in before:
            if _is_game_screen(s) and s not in after:
                action = self._action
                own = ("cancel", "back", "pop_screen", "dismiss") if s is before[-1] else ()  # its own way out
                if not any(word in action for word in (*LEAVING_ACTIONS, *own)):
                    self.fail(f"{type(s).__name__} was left by {step!r} ({action or 'no leaving action'}); "
                              f"before {[type(x).__name__ for x in before]}, now {[type(x).__name__ for x in after]}")

    def _action_of(self, step: tuple, top) -> str:
        """What the step asks for, in words: a binding's action, or a tapped button's id and label."""
        if step[0] == "key":
            b = top.active_bindings.get(step[1])
            if b is None:
                return ""
            action = f"{b.binding.action} {b.binding.description}".lower()
            if _is_game_screen(top) and any(w in action for w in ("pop_screen", "dismiss", "back")):
                action += " close"  # the game screen's own way out
            return action
        if step[0] == "tap":
            w = self._find(top, step)
            return f"{step[1]} {_label(w)}".lower() if w is not None else ""
        return ""

    def _check_forms(self, screen) -> None:
        """What a form will save is what it shows: every visible setup field equals the form's data."""
        for form in screen.query("SetupForm"):
            data = getattr(form, "data", None)
            players = getattr(data, "players", None)
            if not isinstance(players, list):
                continue
            for i, name in enumerate(players):
                try:
                    shown = form.query_one(f"#ax-name-{i}", Input).value
                except NoMatches:
                    continue
                if shown != name:
                    self.fail(f"{type(form).__module__} row {i + 1} shows {shown!r} but would save {name!r}")

    def _check_saved(self, stack: list) -> None:
        """The session on disk loads, replays to the same state, and equals the screen's."""
        from solvers.table import Table
        from tui.storage import _path_for, load_session

        for s in stack:
            sid = getattr(s, "session_id", None)
            table = getattr(s, "table", None)
            if not sid or table is None or not isinstance(table, Table):
                continue
            if not _path_for(sid).exists():
                continue
            saved = load_session(sid)
            mine = table.to_session()
            if saved.to_json().get("log") != mine.to_json().get("log"):
                self.fail(f"{sid}: the saved log differs from the game's ({len(saved.log)} vs {len(mine.log)})")
            replay = Table.from_session(saved)
            if replay.view(s.seat) != table.view(s.seat):
                self.fail(f"{sid}: the saved session replays to another state")


class _ErrorLog(logging.Handler):
    """Records every log record at error level or above."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(f"{record.name}: {record.getMessage()}")


def _record_notes(app) -> list[tuple[str, str]]:
    notes: list[tuple[str, str]] = []
    original = app.notify

    def notify(message, *args, **kwargs):
        notes.append((str(message), kwargs.get("severity", "information")))
        return original(message, *args, **kwargs)

    app.notify = notify
    app._robot_notes = notes
    return notes


# --------------------------------------------------------------------------- running and shrinking


def run_robot(scenario: Scenario, seed: int, steps: int, script: list[tuple] | None = None,
              timeout: float = 600, stats: dict | None = None) -> int:
    robot = Robot(scenario, seed)
    try:
        return asyncio.run(asyncio.wait_for(robot.run(steps, script), timeout))
    finally:
        if stats is not None:
            for k, v in robot.timing.items():
                stats[k] = stats.get(k, 0.0) + v


def replay(scenario: Scenario, seed: int, script: list[tuple]) -> None:
    """Replay a recorded sequence (a regression test); raises Violation if an invariant breaks."""
    run_robot(scenario, seed, 0, script)


def shrink(scenario: Scenario, seed: int, steps: list[tuple], message: str, budget: int = 40) -> list[tuple]:
    """Delta debugging: a shorter sequence that still breaks the same invariant (first words of ``message``)."""
    key = message.split(":")[0]

    def fails(seq: list[tuple]) -> bool:
        try:
            replay(scenario, seed, seq)
        except Violation as v:
            return v.message.split(":")[0] == key
        except Exception:
            return False
        return False

    seq = list(steps)
    n = 2
    tries = 0
    while len(seq) >= 2 and tries < budget:
        chunk = max(1, len(seq) // n)
        reduced = False
        for i in range(0, len(seq), chunk):
            cand = seq[:i] + seq[i + chunk:]
            tries += 1
            if cand and fails(cand):
                seq = cand
                n = max(n - 1, 2)
                reduced = True
                break
            if tries >= budget:
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(seq), n * 2)
    return seq
