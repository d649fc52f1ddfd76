"""A table runs one game: each seat is a human or a bot.

Screens (and, later, remote players) act only through the table: they submit actions for
their seat and read their seat's view; nobody outside the table touches the state. Bots
take their turns inside the table and see only their own views.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import IllegalAction, derive_seed
from engine.registry import get_game
from engine.session import Session
from solvers.bots import make_bot

HUMAN = "human"


class Table:
    """One game in progress, seats filled by humans and bots, with a replayable log."""

    def __init__(self, game: str, config: Any, seed: int, seats: list[str], log: list | None = None) -> None:
        self.spec = get_game(game)
        self.game = game
        if isinstance(config, dict):
            config = self.spec.config_from_json(config)
        self.config = config
        self.seed = seed
        if len(seats) != self._players():
            raise ValueError(f"This game has {self._players()} seats; {len(seats)} were given.")
        self.seats = list(seats)
        self.log: list[list] = []
        self._listeners: list[Callable[[], None]] = []
        self._reset()
        for entry in log or []:
            seat, raw = entry
            self._apply(seat, self.spec.action_from_json(raw))

    def _players(self) -> int:
        return self.config.players

    def _reset(self) -> None:
        self._generation = getattr(self, "_generation", 0) + 1
        self.state = self.spec.new_game(self.config, self.seed)
        self.log = []
        self._ends: list[int] = []  # the state log's length after each action of ``log``
        self._start = len(self.state.log)
        self._floors: dict[int, tuple[int, int]] = {}  # seat -> (len(log), floor) cache
        self.bots = {
            i: make_bot(self.game, kind, seat=i, seed=derive_seed(self.seed, "bot", i, kind))
            for i, kind in enumerate(self.seats)
            if kind != HUMAN
        }

    # ----------------------------------------------------------------- reading

    @property
    def humans(self) -> list[int]:
        return [i for i, k in enumerate(self.seats) if k == HUMAN]

    def to_act(self) -> int | None:
        return self.spec.to_act(self.state)

    def is_over(self) -> bool:
        return self.spec.is_over(self.state)

    def result(self) -> dict | None:
        return self.spec.result(self.state)

    def view(self, seat: int, since: int = 0) -> dict:
        return self.spec.view(self.state, seat, since)

    def waiting_for_bot(self) -> bool:
        s = self.to_act()
        return s is not None and s in self.bots

    # ----------------------------------------------------------------- acting

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Called after every change, so every screen at the table can refresh."""
        self._listeners.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _notify(self) -> None:
        for cb in list(self._listeners):
            cb()

    def _apply(self, seat: int, action: tuple) -> None:
        if self.spec.to_act(self.state) != seat:
            raise IllegalAction("It is not your turn to act.")
        self.state = self.spec.apply(self.state, action)
        self.log.append([seat, self.spec.action_to_json(action)])
        self._ends.append(len(self.state.log))

    def submit(self, seat: int, action: tuple) -> None:
        """A human's action; IllegalAction (with the reason) leaves everything as it was."""
        self._apply(seat, tuple(action))
        self._notify()

    def step_bot(self) -> bool:
        """Let the bot to act (if any) take one action. Returns whether one acted."""
        choice = self.bot_choice()
        return choice is not None and self.play_bot_choice(choice)

    def position(self) -> tuple[int, int]:
        """Which position the table is at: changes with every action, undo and rename."""
        return (self._generation, len(self.log))

    def bot_choice(self) -> tuple[tuple[int, int], int, tuple] | None:
        """The bot to act's choice, thought out but not played: ``(position, seat, action)``.

        Screens think as soon as a bot must act and play the choice when its pace allows, so the
        time a move takes to appear does not depend on how long the bot thought (issue 20).
        None when no bot is to act.
        """
        pos = self.position()
        seat = self.to_act()
        if seat is None or seat not in self.bots:
            return None
        bot = self.bots[seat]
        action = tuple(bot.choose(self.view(seat, getattr(bot, "since", 0))))
        return (pos, seat, action)

    def play_bot_choice(self, choice: tuple[tuple[int, int], int, tuple]) -> bool:
        """Play a choice from :meth:`bot_choice`; False (nothing changes) if the table has moved on since."""
        pos, seat, action = choice
        if pos != self.position() or self.to_act() != seat:
            return False
        self._apply(seat, action)
        self._notify()
        return True

    def run_bots(self, limit: int = 100_000) -> int:
        n = 0
        while n < limit and self.step_bot():
            n += 1
        return n

    def undo_floor(self, seat: int) -> int:
        """The first action an undo may take back: the one after the last action whose events showed
        ``seat`` something hidden (a card shown to it, a look, an interrogation, a card turned up).

        Undo is for slips, not for seeing the answer and asking again, so it never goes back past
        the last moment the seat saw something hidden.
        """
        cached = self._floors.get(seat)
        if cached is not None and cached[0] == len(self.log):
            return cached[1]
        entries = self.state.log.entries(self._start)
        shows = self.spec.shows_hidden
        floor, prev = 0, self._start
        for i, end in enumerate(self._ends):
            if any(shows(ev, seats, seat) for ev, seats in entries[prev - self._start : end - self._start]):
                floor = i + 1
            prev = end
        self._floors[seat] = (len(self.log), floor)
        return floor

    def undo_target(self, seat: int) -> int | None:
        """The index in ``log`` of the action an undo would take back, or None if there is none."""
        idx = max((i for i, (s, _a) in enumerate(self.log) if s == seat), default=None)
        if idx is None or idx < self.undo_floor(seat):
            return None
        return idx

    def why_no_undo(self, seat: int) -> str:
        """Why ``undo(seat)`` would refuse now, in one sentence."""
        if not any(s == seat for s, _a in self.log):
            return "Nothing of yours to undo yet."
        return ("Undo goes back only to the last moment you saw something hidden (a card shown to you, "
                "a look, an interrogation): nothing of yours comes after it.")

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last action and everything after it; replay the rest.

        Refused (False) when there is none, or when it lies before the last moment the seat saw
        something hidden (:meth:`undo_floor`).
        """
        idx = self.undo_target(seat)
        if idx is None:
            return False
        keep = self.log[:idx]
        self._reset()
        for s, raw in keep:
            self._apply(s, self.spec.action_from_json(raw))
        self._notify()
        return True

    def rename_seats(self, names: list[str]) -> None:
        """Give the seats new names: the same deal and the same moves, replayed (names never change play).

        A shared table names a seat after whoever sits there. ValueError (the engine's sentence)
        for names the game refuses; the table is unchanged then.
        """
        config = self.spec.config_from_json({**self.config.to_json(), "names": list(names)})
        log = [list(e) for e in self.log]
        old = self.config, self.state, self.log, self.bots
        self.config = config
        try:
            self._reset()
            for seat, raw in log:
                self._apply(seat, self.spec.action_from_json(raw))
        except Exception:
            self.config, self.state, self.log, self.bots = old
            raise
        self._notify()

    # ----------------------------------------------------------------- sessions

    def to_session(self) -> Session:
        return Session(game=self.game, mode="play", config=self.config.to_json(), seed=self.seed,
                       log=[list(e) for e in self.log], seats=list(self.seats))

    def replay_session(self) -> Session:
        """The session a replay opens (issue 25): only once the game is over, since it shows every hidden card.

        SessionError (one line) before the end.
        """
        from engine.session import SessionError

        if not self.is_over():
            raise SessionError("This game is not over yet: a replay opens only once a game has ended.")
        return self.to_session()

    @classmethod
    def from_session(cls, session: Session) -> Table:
        """Rebuild a table; SessionError (one line) if the session does not describe one."""
        from engine.session import SessionError

        state = session.replay()  # validates every entry with a clear message before we build bots
        players = state.config.players
        if len(session.seats) != players:
            raise SessionError(f"The session lists {len(session.seats)} seats for a {players}-player game.")
        try:
            return cls(session.game, session.config, session.seed, session.seats, session.log)
        except ValueError as e:
            raise SessionError(f"The session cannot be seated: {e}") from None
