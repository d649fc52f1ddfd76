"""The ``unmask`` command line. Heavy libraries (textual, ortools) load only in the commands that use them."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from engine.registry import GAMES

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    invoke_without_command=True,
    help="unmask: play hidden-information board games against bots, or keep the notes of a real table.",
    context_settings={"help_option_names": ["-h", "--help"]},
)

PLAYABLE = ("clue",)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("unmask")
    except PackageNotFoundError:  # running from a source tree
        return "0.1.0"


def _fail(message: str, code: int = 2) -> None:
    typer.echo(f"unmask: {message}", err=True)
    raise typer.Exit(code)


def _check_game(game: str) -> None:
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}.")
    if game not in PLAYABLE:
        _fail(f"{GAMES[game]} is not playable yet.")


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


def _clue_config(board: str, players: int, centre_pile: bool):
    from engine.clue import ClueConfig

    try:
        return ClueConfig(board=board, players=players, centre_pile=centre_pile)
    except ValueError as e:
        _fail(str(e))


def _bot_list(game: str, spec: str | None, count: int, default: str) -> list[str]:
    from solvers.bots import bot_names

    names = [b.strip() for b in spec.split(",") if b.strip()] if spec else []
    known = bot_names(game)
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
    game: Annotated[str, typer.Argument(help="Which game: clue.")] = "clue",
    board: Annotated[str, typer.Option(help="Board: red-keep or meereen.")] = "red-keep",
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-6).")] = 4,
    bots: Annotated[str | None, typer.Option(help="Bots for the other seats, comma-separated (random, notes).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the bots; same seed, same game.")] = None,
    centre_pile: Annotated[bool, typer.Option("--centre-pile", help="Leftover cards face down in the centre.")] = False,
    instant: Annotated[bool, typer.Option("--instant", help="Bots play instantly, not at a readable pace.")] = False,
) -> None:
    """Play a game against bots (you sit in the first seat)."""
    _check_game(game)
    config = _clue_config(board, players, centre_pile)
    seats = ["human", *_bot_list(game, bots, players - 1, "notes")]
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    from solvers.table import Table
    from tui.app import run_app

    run_app(table=Table(game, config, seed, seats), bot_delay=0.0 if instant else None)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Which game: clue.")] = "clue",
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    players: Annotated[int, typer.Option(help="Seats at each table (2-6).")] = 4,
    bots: Annotated[str | None, typer.Option(help="The bot of each seat, comma-separated; seats rotate.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 1,
    board: Annotated[str, typer.Option(help="Board: red-keep or meereen.")] = "red-keep",
    centre_pile: Annotated[bool, typer.Option("--centre-pile", help="Leftover cards face down in the centre.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")] = False,
) -> None:
    """Play bots against each other and report each bot's win rate with a 95% confidence interval."""
    _check_game(game)
    if games < 1:
        _fail("--games must be at least 1.")
    config = _clue_config(board, players, centre_pile)
    seats = _bot_list(game, bots, players, "notes")
    from solvers.simulate import simulate as run
    from solvers.simulate import wilson

    if as_json:
        res = run(game, config, seats, games, seed)
        typer.echo(json.dumps(res.to_json(), indent=1))
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table as RichTable

    err = Console(stderr=True)
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("games", total=games)
        res = run(game, config, seats, games, seed, progress=lambda k: bar.update(task, completed=k))
    out = Console()
    t = RichTable(title=f"{GAMES[game]}: {games} games, {players} players, seed {seed}")
    for col in ("bot", "seat-games", "wins", "win rate", "95% CI"):
        t.add_column(col, justify="right" if col != "bot" else "left")
    for s in res.stats.values():
        lo, hi = wilson(s.wins, s.seats)
        t.add_row(s.bot, str(s.seats), str(s.wins), f"{s.rate:.1%}", f"{lo:.1%} - {hi:.1%}")
    out.print(t)
    endings = ", ".join(f"{k}: {v}" for k, v in sorted(res.reasons.items()))
    out.print(f"Endings: {endings}")
    out.print(f"{res.steps} steps in {res.seconds:.1f} s ({res.steps / max(res.seconds, 1e-9):,.0f} steps/s)")


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Which game: clue.")] = "clue") -> None:
    """Print the rules and the assumptions unmask makes where the rulebook is silent."""
    _check_game(game)
    from importlib import resources

    from engine.clue import load_rules

    typer.echo(resources.files("tui").joinpath("rules", f"{game}.txt").read_text("utf-8"))
    typer.echo("\nAssumptions (edit engine/clue/data/*.toml to match your box):")
    for _id, text in load_rules().assumptions:
        typer.echo(f"  - {text}")


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
            status = i.error or f"{i.game} {i.mode}, {i.moves} moves"
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
        if s.mode != "play":
            _fail("that session is not a game against bots.")
        from solvers.table import Table

        table = Table.from_session(s)
    except SessionError as e:
        _fail(str(e))
        return
    human = table.humans[0] if table.humans else 0
    run_app(table=table, session_id=sid, human_seat=human)


SOLVABLE = ("clue",)


@app.command()
def solve(
    game: Annotated[str, typer.Argument(help="Which game: clue.")],
    file: Annotated[str, typer.Argument(help="An assist session file (JSON, see docs/formats.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    advice: Annotated[bool, typer.Option(help="Also compute the advice (the best rumor per location).")] = True,
    refuter_model: Annotated[
        bool, typer.Option("--refuter-model", help="Weight each shown card by 1/(matching cards held).")
    ] = False,
) -> None:
    """Solve a table session: certain facts, exact probabilities, contradictions, advice."""
    if game not in GAMES:
        _fail(f"unknown game {game!r}; choose one of: {', '.join(GAMES)}.")
    if game not in SOLVABLE:
        _fail(f"there is no solver for {GAMES[game]} yet.")
    from engine.session import SessionError
    from solvers.clue.solver import SolverInputError
    from solvers.clue.solver import solve as run_solver
    from tui.storage import read_session_file

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
        sol = run_solver(session.config, session.log, advice=advice, refuter_model=refuter_model)
    except SolverInputError as e:
        _fail(str(e))
        return
    out = sol.to_json()
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
    else:
        _print_clue_solution(out)
    if out["status"] != "ok":
        raise typer.Exit(2)


def _print_clue_solution(out: dict) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    con = Console()
    if out["status"] != "ok":
        con.print(f"[bold red]Contradiction[/]: {out['message']}")
        con.print(f"Conflicting log entries: {', '.join(str(i) for i in out['conflict'])}")
        return
    con.print(f"{out['deals']:,} consistent deals (exact).")
    holders = list(next(iter(out["holders"].values())).keys()) if out["holders"] else []
    t = RichTable(title="Who holds each card")
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
    for loc, r in (adv.get("rumors") or {}).items():
        con.print(f"  in {loc}: ask {r['suspect']} with the {r['weapon']} ({r['bits']:.2f} bits)")


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
