"""The ``unmask`` command line. Heavy libraries (textual, ortools) load only in the commands that use them."""

from __future__ import annotations

import inspect
import json
import sys
from typing import Annotated

import typer

from engine import words
from engine.registry import GAMES

EXPLAIN_BUDGET = 6.0
"""Seconds from the start of ``unmask solve --explain`` after which no further certain fact is explained
(issue 21: a person waits; every run ends within 10 s). The answer says how many were left out."""

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    invoke_without_command=True,
    help="unmask: play hidden-information board games against bots, or keep the notes of a real table.",
    context_settings={"help_option_names": ["-h", "--help"]},
)



def _has(module: str) -> bool:
    """Whether a part of unmask is built (a feature that is not built is never offered)."""
    from importlib.util import find_spec

    try:
        return find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def playable(game: str) -> bool:
    return _has(f"tui.{game}.play")


def simulable(game: str) -> bool:
    return _has(f"engine.{game}") and _has(f"solvers.{game}.bots")


def solvable(game: str) -> bool:
    return _has(f"solvers.{game}.solver")


def assistable(game: str) -> bool:
    return _has(f"tui.{game}.assist")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("unmask")
    except PackageNotFoundError:  # running from a source tree
        return "0.1.0"


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"unmask: {message}", err=True)
    raise typer.Exit(code)


def _check_game(game: str, ready: bool = True, what: str = "playable") -> None:
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}.")
    if not ready:
        _fail(f"{GAMES[game]} is not {what} yet.")


def _options(pairs: list[str] | None) -> dict:
    out: dict = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            _fail(f"options are KEY=VALUE, not {pair!r}.")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def _config(game: str, board: str, players: int, centre_pile: bool, options: list[str] | None = None):
    """The game's Config from the command line; a bad option is one line, never a traceback."""
    from engine.registry import get_game

    data: dict = {"players": players, **_options(options)}
    if game == "clue":
        data.setdefault("board", board)
        data.setdefault("centre_pile", centre_pile)
    try:
        return get_game(game).config_from_json(data)
    except (TypeError, ValueError) as e:
        _fail(f"bad {game} options: {e}")


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    """Start the app (the home screen) when no command is given."""
    if version:
        typer.echo(f"unmask {_version()}")
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        from tui.app import run_app

        run_app()


def _default_bot(game: str) -> str:
    from solvers.bots import bot_names

    names = bot_names(game)
    for preferred in ("notes", "honest", "heuristic"):
        if preferred in names:
            return preferred
    return names[0]


def _bot_list(game: str, spec: str | None, count: int, default: str, extra: tuple[str, ...] = ()) -> list[str]:
    from solvers.bots import bot_names

    names = [b.strip() for b in spec.split(",") if b.strip()] if spec else []
    known = bot_names(game) + list(extra)
    for b in names:
        if b not in known:
            _fail(f"unknown bot {b!r}; {game} has: {', '.join(known)}.")
    if len(names) > count:
        _fail(f"{len(names)} bots given for {count} bot seats.")
    if not names:
        names = [default]
    while len(names) < count:
        names.append(names[-1])
    return names


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Which game: clue, mascarade, masque or ghoul.")] = "clue",
    board: Annotated[str, typer.Option(help="Clue board: red-keep or meereen.")] = "red-keep",
    players: Annotated[int, typer.Option(
        help="Players at the table, you included (clue 2-6, mascarade 4-12, masque 4-7, ghoul 4-8).")] = 4,
    bots: Annotated[str | None, typer.Option(
        help="Bots for the other seats, comma-separated. clue: random, notes, strong; mascarade: random, honest, "
             "strong; masque and ghoul: random, heuristic, strong.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the bots; same seed, same game.")] = None,
    centre_pile: Annotated[bool, typer.Option(
        "--centre-pile", help="Clue: leftover cards face down in the centre.")] = False,
    instant: Annotated[bool, typer.Option("--instant", help="Bots play instantly, not at a readable pace.")] = False,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option KEY=VALUE, e.g. -o mask=true -o support=true for ghoul, -o harder=true "
                               "for masque, -o opening=false for mascarade.")] = None,
) -> None:
    """Play a game against bots (you sit in the first seat)."""
    _check_game(game, playable(game))
    config = _config(game, board, players, centre_pile, option)
    seats = ["human", *_bot_list(game, bots, players - 1, _default_bot(game))]
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    from solvers.table import Table
    from tui.app import run_app

    run_app(table=Table(game, config, seed, seats), bot_delay=0.0 if instant else None)


@app.command()
def assist(
    game: Annotated[str, typer.Argument(help="Which game: clue, mascarade, masque or ghoul.")] = "clue",
    session: Annotated[str | None, typer.Argument(help="Reopen this saved assist session.")] = None,
) -> None:
    """Keep the notes of a real table: type what you see, the solver does the deduction."""
    _check_game(game, assistable(game), "supported by the assistant")
    from engine.session import SessionError
    from tui import storage

    loaded = None
    if session is not None:
        try:
            loaded = storage.load_session(session)
        except SessionError as e:
            _fail(str(e))
        if loaded.mode != "assist" or loaded.game != game:
            _fail(f"{session} is not a {game} assist session.")
    from tui.app import run_app

    run_app(start=f"assist:{game}", session_id=session)


ISMCTS_BOTS = ("ismcts", "ismcts-uniform")  # OpenSpiel's ISMCTS (solvers/openspiel/arena.py)
WORKERS_HELP = "Local processes playing games at once (default: every local core); the same result for any."
RAY_HELP = ("Play on a Ray cluster: HOST:PORT, ray://HOST:PORT, 'auto', or 'local' to start one here with this "
            "machine's cores (the [ray] extra). The same result as on processes.")
# OpenSpiel's ISMCTSBot spends its first simulation expanding the root and fails an assertion when
# that is all it has: 2 is its least budget (solvers.openspiel.arena.MIN_SIMS, which imports pyspiel).
ISMCTS_MIN_SIMS = 2


def _check_openspiel(game: str, sims: int) -> None:
    """One line if the ismcts bots cannot play: OpenSpiel missing, no resampler for the game, or bad --ismcts-sims."""
    if sims < ISMCTS_MIN_SIMS:
        _fail(f"--ismcts-sims must be at least {ISMCTS_MIN_SIMS} (ISMCTS's first simulation only expands the root).")
    try:
        from solvers.openspiel.arena import check_game
    except ModuleNotFoundError as e:
        _fail(f"The ismcts bots need OpenSpiel ({e.name} is missing): pip install -e '.[openspiel]'.")
    try:
        check_game(game)
    except ValueError as e:
        _fail(str(e))


def _runner(workers: int | None, ray: str | None, most: int | None = None):
    """The runner of ``--workers`` (default every core, no more than ``most`` units) or ``--ray``; one line if bad."""
    from solvers.runners import RunnerError, default_workers, make_runner

    n = default_workers() if workers is None else workers
    if most is not None and workers is None:
        n = max(1, min(n, most))  # a short run does not start processes it cannot use
    try:
        return make_runner(n, ray)
    except RunnerError as e:
        _fail(str(e))


def _progress_bar(as_json: bool, counted: bool = True):
    """A Rich progress bar on stderr, or ``None``: quiet under --json (stdout is for the script) and when
    stderr is not a terminal (a log file would fill with redraws). ``counted``: the bar counts games."""
    if as_json or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = [TextColumn("{task.description}"), BarColumn(), *([MofNCompleteColumn()] if counted else []),
               TextColumn("{task.fields[info]}"), TimeElapsedColumn()]
    return Progress(*columns, console=Console(stderr=True), transient=True)


def _rate_and_left(done: int, total: int, elapsed: float | None, bound: bool = False) -> str:
    """"12.3 games/s, 0:41 left" from ``done`` of ``total`` games after ``elapsed`` seconds (``bound``:
    the total is a cap the run may stop before, so the time is at most that)."""
    if not done or not elapsed:
        return ""
    rate = done / elapsed
    left = int(max(total - done, 0) / rate)
    return f"{rate:.1f} games/s, {'at most ' if bound else ''}{left // 60}:{left % 60:02d} left"


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Which game: clue, mascarade, masque or ghoul.")] = "clue",
    games: Annotated[int, typer.Option(help="How many games (with --paired: rounded up to whole deals).")] = 100,
    players: Annotated[int, typer.Option(
        help="Seats at each table (clue 2-6, mascarade 4-12, masque 4-7, ghoul 4-8).")] = 4,
    bots: Annotated[str | None, typer.Option(help="The bot of each seat, comma-separated; seats rotate.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    board: Annotated[str, typer.Option(help="Board: red-keep or meereen.")] = "red-keep",
    centre_pile: Annotated[bool, typer.Option("--centre-pile", help="Leftover cards face down in the centre.")] = False,
    paired: Annotated[bool, typer.Option(
        "--paired", help="Play every deal once per seat rotation; report each pair of bots' difference.")] = False,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP, show_default=False)] = None,
    ray: Annotated[str | None, typer.Option(help=RAY_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")] = False,
    timing: Annotated[bool, typer.Option(
        "--timing", help="Add the wall seconds and CPU per move to --json (they change from run to run).")] = False,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="A game option KEY=VALUE.")] = None,
    ismcts_sims: Annotated[int, typer.Option(
        help="Simulations per move of the ismcts bots (OpenSpiel's ISMCTS; the [openspiel] extra).")] = 100,
) -> None:
    """Play bots against each other and report each bot's win rate with a 95% confidence interval.

    Besides the game's own bots, 'ismcts' (worlds from the seat's solver posterior) and
    'ismcts-uniform' (uniform worlds) are OpenSpiel's ISMCTS (the [openspiel] extra). Games run on
    every local core, or on a Ray cluster; the same seed gives the same --json whatever --workers or --ray.
    With --paired every deal is played once per seat rotation and the report adds, for each pair of
    bots, the mean difference of their win rates deal by deal with its 95% interval."""
    _check_game(game, simulable(game), "simulable")
    if games < 1:
        _fail("--games must be at least 1.")
    config = _config(game, board, players, centre_pile, option)
    seats = _bot_list(game, bots, players, _default_bot(game), extra=ISMCTS_BOTS)
    if any(b in ISMCTS_BOTS for b in seats):
        _check_openspiel(game, ismcts_sims)
    from solvers.simulate import simulate as run
    from solvers.simulate import wilson

    runner = _runner(workers, ray, most=games)
    bar = _progress_bar(as_json)
    try:
        if bar is None:
            res = run(game, config, seats, games, seed, paired=paired, sims=ismcts_sims, runner=runner)
        else:
            total = -(-games // players) * players if paired else games
            with bar:
                task = bar.add_task("simulating", total=total, info="")

                def show(k: int) -> None:
                    bar.update(task, completed=k, info=_rate_and_left(k, total, bar.tasks[0].elapsed))

                res = run(game, config, seats, games, seed, show, paired=paired, sims=ismcts_sims, runner=runner)
    except KeyboardInterrupt:
        _fail("interrupted.", 130)
    finally:
        runner.close()
    if as_json:
        typer.echo(json.dumps(res.to_json(timing=timing), indent=1))
        return
    from rich.console import Console
    from rich.table import Table as RichTable

    out = Console()
    played = (f"{words.count(res.deals, 'deal')} x {players} rotations = " if paired else "") + \
        words.count(res.games, "game")
    t = RichTable(title=f"{GAMES[game]}: {played}, {players} players, seed {seed}")
    survival = any(s.survived is not None for s in res.stats.values())
    cols = ["bot", "seats", "wins", "win rate", "95% CI"] + (["survived", "survival CI"] if survival else [])
    for col in cols:
        t.add_column(col, justify="right" if col != "bot" else "left")
    for s in res.stats.values():
        lo, hi = wilson(s.wins, s.seats)
        row = [s.bot, str(s.seats), str(s.wins), f"{s.rate:.1%}", f"{lo * 100:.1f}-{hi:.1%}"]
        if survival:
            k = s.survived or 0
            slo, shi = wilson(k, s.seats)
            row += [f"{k / max(s.seats, 1):.1%}", f"{slo * 100:.1f}-{shi:.1%}"]
        t.add_row(*row)
    out.print(t)
    for d in res.paired_differences():
        a, b = d["bots"]
        ci = (f"95% {d['ci95'][0] * 100:+.1f} to {d['ci95'][1] * 100:+.1f}" if d["ci95"]
              else "no interval from one deal")
        out.print(f"Paired over {words.count(res.deals, 'deal')}: {a}'s win rate minus {b}'s "
                  f"{d['mean'] * 100:+.1f} points ({ci})", highlight=False)
    endings = ", ".join(f"{k}: {v}" for k, v in sorted(res.reasons.items()))
    out.print(f"Endings: {endings}")
    out.print(f"{res.steps} steps in {res.seconds:.2f} s ({res.steps / max(res.seconds, 1e-9):,.0f} steps/s, "
              f"{res.games / max(res.seconds, 1e-9):,.1f} games/s on {_where(runner, ray)})")
    if res.move_seconds:
        out.print("CPU per move: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in res.move_seconds.items()))


def _where(runner, ray: str | None) -> str:
    """Where the games ran, for the report's last line."""
    if ray is not None:
        return f"Ray {ray} ({words.count(runner.width, 'CPU')})"
    return words.count(runner.width, "process") if runner.width > 1 else "1 process"


@app.command()
def duel(
    bot_a: Annotated[str, typer.Argument(help="The bot under test (A).")],
    bot_b: Annotated[str, typer.Argument(help="The bot it is measured against (B).")],
    game: Annotated[str, typer.Option(help="Which game: clue, mascarade, masque or ghoul.")] = "mascarade",
    players: Annotated[int, typer.Option(
        help="Seats at each table, shared alternately by A and B (clue 2-6, mascarade 4-12, masque 4-7, "
             "ghoul 4-8).")] = 4,
    elo0: Annotated[float, typer.Option(help="H0: A is this many Elo stronger than B (or less).")] = 0.0,
    elo1: Annotated[float, typer.Option(help="H1: A is this many Elo stronger (score 1/(1+10^(-elo/400))).")] = 100.0,
    alpha: Annotated[float, typer.Option(help="The chance of saying 'stronger' when H0 holds.")] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of saying 'not stronger' when H1 holds.")] = 0.05,
    paired: Annotated[bool, typer.Option("--paired", help="Play each deal twice, the bots' seats swapped.")] = False,
    max_games: Annotated[int, typer.Option(help="Stop 'undecided' after this many games.")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    workers: Annotated[int | None, typer.Option(help=WORKERS_HELP, show_default=False)] = None,
    ray: Annotated[str | None, typer.Option(help=RAY_HELP)] = None,
    ismcts_sims: Annotated[int, typer.Option(
        help="Simulations per move of the ismcts bots (OpenSpiel's ISMCTS; the [openspiel] extra).")] = 100,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="A game option KEY=VALUE.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")] = False,
) -> None:
    """Play A against B until a sequential probability ratio test decides whether A is stronger.

    A game scores 1 for A when only A's seats win, 0 when only B's do, 1/2 otherwise. The test
    stops at log(beta/(1-alpha)) ("not stronger") or log((1-beta)/alpha) ("stronger"), or at
    --max-games ("undecided"). Games run on every local core, or on a Ray cluster; the same seed
    gives the same --json whatever --workers or --ray."""
    _check_game(game, simulable(game), "simulable")
    if max_games < 1:
        _fail("--max-games must be at least 1.")
    config = _config(game, "red-keep", players, False, option)
    a, b = _bot_list(game, f"{bot_a},{bot_b}", 2, "", extra=ISMCTS_BOTS)
    if a in ISMCTS_BOTS or b in ISMCTS_BOTS:
        _check_openspiel(game, ismcts_sims)
    elif ismcts_sims < 1:
        _fail("--ismcts-sims must be at least 1.")
    from solvers.duel import Sprt
    from solvers.duel import duel as run

    try:
        sprt = Sprt(elo0, elo1, alpha, beta)
    except ValueError as e:
        _fail(str(e))
    runner = _runner(workers, ray)
    bar = _progress_bar(as_json, counted=False)
    try:
        if bar is None:
            res = run(game, config, a, b, seed, sprt, paired=paired, max_games=max_games, sims=ismcts_sims,
                      runner=runner)
        else:
            with bar:
                task = bar.add_task("duel", total=sprt.upper - sprt.lower, info="")

                def show(r) -> None:
                    llr = r.llr_trace[-1]
                    left = _rate_and_left(r.games, max_games, bar.tasks[0].elapsed, bound=True)
                    bar.update(task, completed=min(max(llr - sprt.lower, 0), sprt.upper - sprt.lower),
                               info=f"{r.games} games, LLR {llr:+.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}], {left}")

                res = run(game, config, a, b, seed, sprt, paired=paired, max_games=max_games, sims=ismcts_sims,
                          runner=runner, progress=show)
    except KeyboardInterrupt:
        _fail("interrupted.", 130)
    finally:
        runner.close()
    if as_json:
        typer.echo(json.dumps(res.to_json(), indent=1))
        return
    m, lo, hi = res.interval()
    played = (f"{words.count(res.units, 'pair')}, " if paired else "") + words.count(res.games, "game")
    typer.echo(f"{GAMES[game]}, {players} players: {a} (A) against {b} (B), H0 {elo0:g} Elo, H1 {elo1:g} Elo, "
               f"alpha {alpha:g}, beta {beta:g}")
    typer.echo(f"{played}: A won {res.a_wins}, B won {res.b_wins}, {res.draws} shared or nobody")
    typer.echo(f"A's score {m:.3f} (95% {lo:.3f}-{hi:.3f}); LLR {res.llr_trace[-1] if res.llr_trace else 0:+.3f} "
               f"in [{sprt.lower:.3f}, {sprt.upper:.3f}]")
    typer.echo(f"Decision: {a} is {res.decision}" if res.decision != "undecided" else
               f"Decision: undecided after {words.count(res.games, 'game')} (--max-games)")


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Which game: clue, mascarade, masque or ghoul.")] = "clue") -> None:
    """Print the rules and the assumptions unmask makes where the rulebook is silent."""
    _check_game(game, _has(f"engine.{game}"), "built")
    from pathlib import Path

    typer.echo((Path(__file__).parent / "rules" / f"{game}.txt").read_text("utf-8"))
    from engine.registry import assumptions

    typer.echo(f"\nAssumptions (edit engine/{game}/data/*.toml to match your box):")
    for section, items in assumptions(game):
        typer.echo(f"\n{section}")
        for aid, text in items:
            typer.echo(f"  - {text} [{aid}]")


@app.command()
def resume(
    session: Annotated[str | None, typer.Argument(help="A session name from --list, or a session file.")] = None,
    list_: Annotated[bool, typer.Option("--list", help="List saved sessions and exit.")] = False,
) -> None:
    """List saved sessions, or reopen one (without a name: the Resume screen)."""
    from engine.session import SessionError
    from tui import storage

    if list_:
        infos = storage.list_sessions()
        if not infos:
            typer.echo(f"No saved sessions in {storage.sessions_dir()}.")
        for i in infos:
            status = i.error or f"{i.game} {i.mode}, {words.count(i.moves, 'move')}"
            typer.echo(f"{i.id}\t{i.when}\t{status}")
        return
    from tui.app import run_app

    if session is None:
        run_app(start="resume")
        return
    from pathlib import Path

    try:
        if Path(session).suffix == ".json" or "/" in session:
            s = storage.read_session_file(session)
            sid = Path(session).stem
        else:
            s = storage.load_session(session)
            sid = session
        if s.mode == "assist":
            if not assistable(s.game):
                _fail(f"the {s.game} table assistant is not built yet.")
            run_app(start=f"assist:{s.game}", session_id=sid, session=s)
            return
        if s.mode != "play":
            _fail(f"that session's mode {s.mode!r} is neither a game against bots nor table notes.")
        from solvers.table import Table

        table = Table.from_session(s)
    except SessionError as e:
        _fail(str(e))
        return
    human = table.humans[0] if table.humans else 0
    run_app(table=table, session_id=sid, human_seat=human)


@app.command()
def replay(
    file: Annotated[str, typer.Argument(help="A finished game: a saved session name or a session file (JSON).")],
    seat: Annotated[int | None, typer.Option(help="Whose eyes to watch through (0 is the first seat).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print every seat's belief at every step (or --seat's).")]
    = False,
) -> None:
    """Replay a finished game step by step, every hidden card face up, with each seat's beliefs."""
    from pathlib import Path

    from engine.replay import replay_steps
    from engine.session import SessionError
    from tui import storage

    try:
        if Path(file).suffix == ".json" or "/" in file:
            session = storage.read_session_file(file)
            path = Path(file)
        else:
            session = storage.load_session(file)
            path = storage.session_path(file)
        game = replay_steps(session)
    except SessionError as e:
        _fail(str(e))
        return
    if seat is not None and not 0 <= seat < game.players:
        _fail(f"--seat must be 0 to {game.players - 1} for this {game.players}-player game, not {seat}.")
    if as_json:
        from solvers.beliefs import cached_series, series_json

        seats = list(range(game.players)) if seat is None else [seat]
        try:
            out = series_json(game, seats, cached=lambda s: cached_series(session, s))
        except Exception as e:  # a solver bug: one line, never a traceback
            _fail(f"the beliefs could not be worked out ({e.__class__.__name__}); please report this bug.", 1)
            return
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    if seat is None:
        seat = session.seats.index("human") if "human" in session.seats else 0
    from tui.app import run_app

    run_app(replay=game, replay_seat=seat, replay_path=path)


@app.command()
def solve(
    game: Annotated[str, typer.Argument(help="Which game: clue, mascarade, masque or ghoul.")],
    file: Annotated[str, typer.Argument(help="An assist session file (JSON, see docs/formats.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    advice: Annotated[bool, typer.Option(help="Clue: also compute the advice (the best rumor per location).")] = True,
    refuter_model: Annotated[
        bool, typer.Option("--refuter-model", help="Clue: weight each shown card by 1/(matching cards held).")
    ] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Also give, per certain fact, a minimal set of notes that proves it.")
    ] = False,
) -> None:
    """Solve a table session: certain facts, exact probabilities, contradictions, advice."""
    import time

    started = time.monotonic()
    _check_game(game, solvable(game), "solvable")
    import importlib

    from engine.session import SessionError
    from tui.storage import read_session_file

    solver = importlib.import_module(f"solvers.{game}.solver")
    validator = importlib.import_module(f"solvers.{game}.validate")
    bad_input = (solver.SolverInputError, validator.SolverInputError)

    try:
        session = read_session_file(file)
    except SessionError as e:
        _fail(str(e))
        return
    if session.game != game:
        _fail(f"{file} is a {session.game} session, not {game}.")
    if session.mode != "assist":
        _fail(f"{file} is a {session.mode} session; solve reads assist sessions (what one seat saw).")
    try:
        validator.validate(session.config, session.log)  # the schema first: the solver sees well-typed input
        if game == "clue":
            out = solver.solve(session.config, session.log, advice=advice, refuter_model=refuter_model).to_json()
        else:
            out = solver.solve(session.config, session.log)
            out = out.to_json() if hasattr(out, "to_json") else out
    except bad_input as e:
        _fail(str(e).splitlines()[0] if str(e) else "the session cannot be read.")
        return
    except RecursionError:
        _fail(f"{file} nests its values too deeply to be a session.")
        return
    except Exception as e:  # a solver bug: one line, never a traceback (exit 1, not a verdict on the file)
        _fail(f"the {game} solver failed on {file} ({e.__class__.__name__}); please report this bug.", 1)
        return
    reasons: list[str] = []
    left_out = 0
    if explain and out.get("status") == "ok":
        from solvers.why import why_json

        try:
            out["why"], reasons, left_out = why_json(game, session.config, session.log,
                                                     deadline=started + EXPLAIN_BUDGET)
        except bad_input as e:
            _fail(str(e).splitlines()[0] if str(e) else "the session cannot be read.")
            return
        except RecursionError:
            _fail(f"{file} nests its values too deeply to be a session.")
            return
        except Exception as e:  # an explainer bug: one line, never a traceback
            _fail(f"the {game} explainer failed on {file} ({e.__class__.__name__}); please report this bug.", 1)
            return
        out["why_left_out"] = left_out
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        from tui.solve_report import print_reasons, print_solution

        print_solution(game, out)
        if explain and out.get("status") == "ok":
            print_reasons(reasons, left_out, EXPLAIN_BUDGET)
    if out.get("status") != "ok":
        raise typer.Exit(2)



serve_app = typer.Typer(help="Host unmask for others: over SSH, or in a browser (see docs/serving.md).",
                        no_args_is_help=True)
app.add_typer(serve_app, name="serve")


def _set_table_caps(per_user: int, idle_hours: float) -> None:
    """The table service reads these when it starts (whichever server starts it)."""
    import os

    os.environ["UNMASK_MAX_TABLES_PER_USER"] = str(per_user)
    os.environ["UNMASK_IDLE_TABLE_AFTER"] = str(idle_hours * 3600)


def _check_limits(counts: dict[str, float | None], times: dict[str, float | None],
                  timeouts: dict[str, float | None] | None = None) -> None:
    """One sentence naming the first serving option out of range: counts >= 1, times >= 0, timeouts > 0."""
    for kinds, ok, rule in ((counts, lambda v: v >= 1, "at least 1"), (times, lambda v: v >= 0, "at least 0"),
                             (timeouts or {}, lambda v: v > 0, "more than 0")):
        for name, value in kinds.items():
            if value is not None and not ok(value):
                _fail(f"--{name} must be {rule} (not {value:g}).")


def _set_archive_after(hours: float) -> None:
    """The table service reads ``UNMASK_ARCHIVE_AFTER`` (seconds) when it starts."""
    import os

    if hours < 0:
        _fail("--archive-after is a number of hours, 0 or more.")
    os.environ["UNMASK_ARCHIVE_AFTER"] = str(hours * 3600)


@serve_app.command("ssh")
def serve_ssh_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 2222,
    authorized_keys: Annotated[
        str | None, typer.Option(help="An authorized_keys file, or a folder with one key file per user.")
    ] = None,
    passwords_file: Annotated[str | None, typer.Option(help="Password file written by 'unmask serve passwd'.")] = None,
    max_sessions: Annotated[int, typer.Option(help="Most logged-in connections at once (a session or not).")] = 20,
    idle_timeout: Annotated[float, typer.Option(
        help="Seconds without input before a connection closes, with a session or without (0: never).")] = 1800.0,
    shared_tables: Annotated[bool, typer.Option(help="Open on the lobby of shared tables.")] = True,
    archive_after: Annotated[float, typer.Option(
        help="Hours a finished table stays in the lobby before it is archived (kept on disk).")] = 24.0,
    login_grace_time: Annotated[float, typer.Option(help="Seconds a connection has to log in.")] = 60.0,
    max_startups: Annotated[str, typer.Option(
        help="Connections logging in at once, as OpenSSH's MaxStartups start:rate:full: from START on, "
             "new ones are dropped at random (RATE %, rising to 100 % at FULL); N alone is a hard cap.")] = "50:30:150",
    per_source_max_startups: Annotated[int, typer.Option(
        help="Connections logging in at once from one address.")] = 20,
    banner_grace_time: Annotated[float, typer.Option(
        help="Seconds a connection has to send its SSH version line (0: the login grace time only).")] = 10.0,
    max_per_user: Annotated[int, typer.Option(help="Most places one user name takes.")] = 4,
    max_auth_tries: Annotated[int, typer.Option(help="Password tries per connection.")] = 4,
    fail_delay: Annotated[float, typer.Option(
        help="Seconds before the next try after a failed password, doubling per failure.")] = 2.0,
    max_fail_delay: Annotated[float, typer.Option(help="The longest such delay (s).")] = 15.0,
    lockout_failures: Annotated[int, typer.Option(
        help="Failed passwords from one address (or for one name) that lock it out.")] = 10,
    lockout_time: Annotated[float, typer.Option(help="Seconds a lockout lasts.")] = 600.0,
    warm: Annotated[bool, typer.Option(help="Fork apps from a warm process (faster start).")] = True,
    pool: Annotated[int | None, typer.Option(
        help="Apps kept ready on the lobby, each for one user (default: --max-sessions; 0: none).")] = None,
    max_tables_per_user: Annotated[int, typer.Option(
        help="Most unfinished tables one user may have made.")] = 5,
    idle_table_hours: Annotated[float, typer.Option(
        help="Hours an unfinished table may go without a move before it is archived.")] = 72.0,
) -> None:
    """Serve the app over SSH: each connection gets its own app; players can share tables."""
    from tui.serve.auth import AuthLimits
    from tui.serve.ssh import ServeError, Startups, serve_ssh

    _set_archive_after(archive_after)
    _check_limits({"max-auth-tries": max_auth_tries, "lockout-failures": lockout_failures, "max-sessions": max_sessions,
                   "per-source-max-startups": per_source_max_startups, "max-per-user": max_per_user,
                   "max-tables-per-user": max_tables_per_user},
                  {"fail-delay": fail_delay, "max-fail-delay": max_fail_delay, "lockout-time": lockout_time,
                   "login-grace-time": login_grace_time, "banner-grace-time": banner_grace_time, "pool": pool,
                   "idle-timeout": idle_timeout, "idle-table-hours": idle_table_hours})
    _set_table_caps(max_tables_per_user, idle_table_hours)
    try:
        Startups.parse(max_startups)
    except ValueError as e:
        _fail(f"{e}.")
    limits = AuthLimits(max_auth_tries=max_auth_tries, fail_delay=fail_delay, max_fail_delay=max_fail_delay,
                        lockout_failures=lockout_failures, lockout_time=lockout_time)
    try:
        serve_ssh(host=host, port=port, authorized_keys=authorized_keys, passwords_file=passwords_file,
                  max_sessions=max_sessions, idle_timeout=idle_timeout or None, tables=shared_tables,
                  limits=limits, login_grace_time=login_grace_time, max_startups=max_startups,
                  per_source_max_startups=per_source_max_startups, banner_grace_time=banner_grace_time,
                  max_per_user=max_per_user, warm=warm, pool=pool, announce=typer.echo)
    except ServeError as e:
        _fail(str(e))


@serve_app.command("web")
def serve_web_cmd(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    passwords_file: Annotated[str | None, typer.Option(help="Password file written by 'unmask serve passwd'.")] = None,
    public_url: Annotated[str | None, typer.Option(help="The URL browsers use, when behind a proxy.")] = None,
    shared_tables: Annotated[bool, typer.Option(help="Open on the lobby of shared tables (with serve ssh).")] = True,
    max_sessions: Annotated[int, typer.Option(help="Most app sessions at once (each is a process).")] = 20,
    max_per_user: Annotated[int, typer.Option(help="Most app sessions at once for one login.")] = 4,
    archive_after: Annotated[float, typer.Option(
        help="Hours a finished table stays in the lobby before it is archived (kept on disk).")] = 24.0,
    fail_delay: Annotated[float, typer.Option(
        help="Seconds before the next try after a failed password, doubling per failure.")] = 2.0,
    max_fail_delay: Annotated[float, typer.Option(help="The longest such delay (s).")] = 15.0,
    lockout_failures: Annotated[int, typer.Option(
        help="Failed passwords from one address (or for one name) that lock it out.")] = 10,
    lockout_time: Annotated[float, typer.Option(help="Seconds a lockout lasts.")] = 600.0,
    trusted_proxy: Annotated[list[str] | None, typer.Option(metavar="ADDR",
        help="Address of a reverse proxy whose X-Forwarded-For names the client (repeatable; "
             "without it the header is ignored).")] = None,
    header_timeout: Annotated[float, typer.Option(
        help="Seconds a connection has to send a request's headers (and may idle between requests).")] = 10.0,
    body_timeout: Annotated[float, typer.Option(help="Seconds a login form's body may take to arrive.")] = 10.0,
    max_connections: Annotated[int, typer.Option(help="Most TCP connections at once.")] = 512,
    max_unfinished: Annotated[int, typer.Option(
        help="Most connections without a complete request yet (the oldest is closed to make room).")] = 128,
    max_unfinished_per_address: Annotated[int, typer.Option(
        help="The same, per client address.")] = 16,
    max_tables_per_user: Annotated[int, typer.Option(
        help="Most unfinished tables one user may have made.")] = 5,
    idle_table_hours: Annotated[float, typer.Option(
        help="Hours an unfinished table may go without a move before it is archived.")] = 72.0,
    pool: Annotated[int | None, typer.Option(
        help="Apps kept ready on the lobby, each for one user (default: --max-sessions; 0: none).")] = None,
) -> None:
    """Serve the app to browsers (a tablet is enough), behind a password login."""
    from tui.serve.auth import AuthLimits
    from tui.serve.ssh import ServeError
    from tui.serve.web import serve_web

    _set_archive_after(archive_after)
    _check_limits({"lockout-failures": lockout_failures, "max-sessions": max_sessions, "max-per-user": max_per_user,
                   "max-connections": max_connections, "max-unfinished": max_unfinished,
                   "max-unfinished-per-address": max_unfinished_per_address,
                   "max-tables-per-user": max_tables_per_user},
                  {"fail-delay": fail_delay, "max-fail-delay": max_fail_delay, "lockout-time": lockout_time,
                   "idle-table-hours": idle_table_hours, "pool": pool},
                  {"header-timeout": header_timeout, "body-timeout": body_timeout})
    _set_table_caps(max_tables_per_user, idle_table_hours)
    limits = AuthLimits(fail_delay=fail_delay, max_fail_delay=max_fail_delay, lockout_failures=lockout_failures,
                        lockout_time=lockout_time)
    try:
        serve_web(host=host, port=port, passwords_file=passwords_file, public_url=public_url, tables=shared_tables,
                  max_sessions=max_sessions, max_per_user=max_per_user, limits=limits,
                  trusted_proxies=trusted_proxy, announce=typer.echo, header_timeout=header_timeout,
                  body_timeout=body_timeout, max_connections=max_connections, max_unfinished=max_unfinished,
                  max_unfinished_per_address=max_unfinished_per_address, pool=pool)
    except ServeError as e:
        _fail(str(e))


@serve_app.command("passwd")
def serve_passwd(
    user: Annotated[str, typer.Argument(help="The user name to set a password for.")],
    passwords_file: Annotated[str | None, typer.Option(help="Which password file (default: in the data dir).")] = None,
) -> None:
    """Set a user's password (stored as a salted scrypt hash) for 'serve ssh' and 'serve web'.

    A user name is 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or a digit.
    """
    from tui.serve.auth import user_name_problem
    from tui.serve.ssh import ServeError, add_password

    problem = user_name_problem(user)
    if problem:  # before asking for a password that could not be saved
        _fail(problem)
        return
    password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        path = add_password(user, password, passwords_file)
    except ServeError as e:
        _fail(str(e))
        return
    typer.echo(f"Password for {user} saved in {path}.")


@serve_app.command("unlock")
def serve_unlock(
    who: Annotated[str, typer.Argument(help="A user name, or an IP address, to let log in again.")],
) -> None:
    """Clear a user's (or an address's) failed logins and lockout, for 'serve ssh' and 'serve web' at once.

    Running servers on this data dir see it before their next login check; no restart needed.
    """
    from tui.serve.auth import ServeError, unlock

    try:
        cleared = unlock(who)
    except ServeError as e:
        _fail(str(e))
        return
    if cleared:
        typer.echo(f"Unlocked {', '.join(cleared)}: the failed logins are forgotten.")
    else:
        typer.echo(f"{who} had no failed logins to forget; nothing was locked.")


def _plain_help(text: str | None) -> str | None:
    """Help as written, for Rich: a paragraph's line breaks joined (Rich keeps them, and they make ragged
    lines in a wider or narrower terminal) and square brackets literal ('[ray]' is not Rich markup)."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    joined = "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)
    return joined.replace("[", "\\[")


def _plain_help_everywhere(*apps: typer.Typer) -> None:
    """Every command's and every parameter's help through :func:`_plain_help`, once, as the module loads."""
    for a in apps:
        infos = list(a.registered_commands) + ([a.registered_callback] if a.registered_callback else [])
        for holder in [a.info, *infos]:
            if isinstance(holder.help, str):  # else Typer's placeholder: the group's help comes from elsewhere
                holder.help = _plain_help(holder.help)
        for info in infos:
            if info in a.registered_commands and info.help is None:
                info.help = _plain_help(inspect.getdoc(info.callback))
            # The annotations are strings (``from __future__ import annotations``), evaluated anew on every
            # read: evaluate them once, edit their help, and keep them so that Typer reads these.
            for name, param in inspect.signature(info.callback, eval_str=True).parameters.items():
                for meta in getattr(param.annotation, "__metadata__", ()):
                    if isinstance(meta, typer.models.ParameterInfo):
                        meta.help = _plain_help(meta.help)
                info.callback.__annotations__[name] = param.annotation


_plain_help_everywhere(app, serve_app)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
