"""Where the units of a bot run are played: in this process, on local processes, or as Ray tasks.

``unmask simulate`` and ``unmask duel`` hand a runner a top-level function and a list of jobs;
the runner yields the function's results **in job order**, whatever finished first, so a caller
that folds them in that order gets the same answer from any runner. Jobs travel in small chunks
(one process call or Ray task per chunk), so short games do not pay a round trip each, and only
a window of chunks is in flight at once, so a long run neither floods the pool nor waits for its
last game before the first result comes back.

:func:`make_runner` checks ``--workers`` and ``--ray`` and says what is wrong in one line
(:class:`RunnerError`).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

J = TypeVar("J")
R = TypeVar("R")

WORKERS_PER_CORE = 8
"""``--workers`` above this many per local core is refused: every process holds a copy of the
engines and solvers, and past a few per core they only compete for the same CPUs."""

CHUNK = 8
"""Most jobs sent in one call; fewer when the run is short, so every worker gets some."""

WINDOW = 4
"""Chunks in flight per worker: enough to keep each busy while results are read in order."""

PROBE_SECONDS = 5.0
"""How long ``--ray HOST:PORT`` waits for a TCP connection before saying it cannot reach the cluster
(Ray itself retries for minutes)."""


class RunnerError(ValueError):
    """A bad ``--workers`` or ``--ray``: the message is one line for the command line."""


class Runner(Protocol):
    width: int
    """Jobs that run at once (processes, or the cluster's CPUs): callers size their batches by it."""

    def map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]: ...

    def close(self) -> None: ...


def _chunks(jobs: Sequence[J], width: int) -> list[list[J]]:
    size = max(1, min(CHUNK, len(jobs) // (width * WINDOW)))
    return [list(jobs[i:i + size]) for i in range(0, len(jobs), size)]


def run_chunk(fn: Callable[[J], R], chunk: list[J]) -> list[R]:
    """One call's work in a worker: ``fn`` on each job of the chunk (top-level, so it pickles)."""
    return [fn(job) for job in chunk]


def _in_order(submit: Callable[[list], Any], get: Callable[[Any], list], chunks: Iterable[list],
              window: int) -> Iterator[Any]:
    """Results chunk by chunk in submission order, with at most ``window`` chunks in flight."""
    it = iter(chunks)
    pending: deque = deque()
    for chunk in it:
        pending.append(submit(chunk))
        if len(pending) >= window:
            break
    while pending:
        out = get(pending.popleft())
        nxt = next(it, None)
        if nxt is not None:
            pending.append(submit(nxt))
        yield from out


class SerialRunner:
    """Every job in this process, one after the other."""

    width = 1

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        return map(fn, jobs)

    def close(self) -> None:
        pass


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle: a worker that got it too would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_method() -> str | None:
    """How worker processes start. On Linux, a fork of this process when it runs no other thread: the
    workers inherit its imports and warm caches. With other threads (a test runner, a server) a fork
    could copy a lock another thread holds, so a fork server (a clean process forked for each worker)
    is used instead. Elsewhere, the platform's default."""
    if not sys.platform.startswith("linux"):
        return None
    return "fork" if threading.active_count() == 1 else "forkserver"


class ProcessRunner:
    """Jobs on ``workers`` local processes."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.width = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker,
                                        mp_context=multiprocessing.get_context(_start_method()))

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        return _in_order(lambda c: self.pool.submit(run_chunk, fn, c), lambda f: f.result(),
                         _chunks(jobs, self.width), self.width * WINDOW)

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)


def _host_port(address: str) -> tuple[str, int]:
    """HOST and PORT of a ``--ray`` address, or a one-line refusal (checked before Ray is imported,
    so a mistyped address is named as such even where Ray is not installed)."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RunnerError(f"--ray takes 'local', 'auto', HOST:PORT or ray://HOST:PORT, not {address!r}.")
    return host, int(port)


def _probe(address: str) -> None:
    """Refuse an address that nothing answers on (Ray itself would wait for minutes)."""
    host, port = _host_port(address)
    try:
        socket.create_connection((host.strip("[]"), port), timeout=PROBE_SECONDS).close()
    except (OSError, ValueError) as e:
        reason = getattr(e, "strerror", None) or str(e) or type(e).__name__
        raise RunnerError(f"cannot reach the Ray cluster at {address}: {reason}.") from None


class RayRunner:
    """Jobs as Ray tasks. ``address`` "local" starts a cluster here with ``cpus`` CPUs (default: every
    local core); "auto" joins the one this machine runs; else HOST:PORT or ray://HOST:PORT."""

    def __init__(self, address: str, cpus: int | None = None) -> None:
        import ray

        self.ray = ray
        self.started = False
        if not ray.is_initialized():
            if address == "local":
                ray.init(num_cpus=cpus or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
            else:
                if address != "auto":
                    _probe(address)
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            self.started = True
        self.width = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.task: Any = ray.remote(run_chunk)

    def map(self, fn: Callable[[J], R], jobs: Sequence[J]) -> Iterator[R]:
        return _in_order(lambda c: self.task.remote(fn, c), self.ray.get, _chunks(jobs, self.width),
                         self.width * WINDOW)

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def default_workers() -> int:
    """Every local core: the default of ``--workers``."""
    return os.cpu_count() or 1


def make_runner(workers: int, ray: str | None = None) -> Runner:
    """The runner for ``--workers`` and ``--ray``; :class:`RunnerError` says in one line what is wrong."""
    cores = os.cpu_count() or 1
    if workers < 1:
        raise RunnerError(f"--workers must be at least 1 (this machine has {cores} cores), not {workers}.")
    if workers > WORKERS_PER_CORE * cores:
        raise RunnerError(f"--workers {workers} is more than {WORKERS_PER_CORE} per core "
                          f"(this machine has {cores}); at most {WORKERS_PER_CORE * cores}.")
    if ray is not None:
        if ray not in ("local", "auto"):
            _host_port(ray)
        try:
            return RayRunner(ray)
        except ModuleNotFoundError:
            raise RunnerError("--ray needs Ray: pip install -e '.[ray]'.") from None
        except RunnerError:
            raise
        except Exception as e:  # Ray's own refusal (no cluster at 'auto', a version mismatch): one line
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise RunnerError(f"cannot start or join the Ray cluster {ray!r}: {first}") from None
    return SerialRunner() if workers == 1 else ProcessRunner(workers)
