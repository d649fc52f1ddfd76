"""A warm fork server for the served app: ``python -m tui.serve.forkserver``.

Starting an app process costs ~1-1.5 s of CPU, most of it importing Textual and our screens,
parsing the stylesheets and building the first screens. Twenty players connecting at once on
two cores would wait ~15 s. So the SSH server starts one helper process that does that work
once: it imports the app, runs it once headless (stylesheets parsed, caches filled, lazy
imports done) and then waits. For each session the server sends it the pty's slave side
(``SCM_RIGHTS``) and the session's environment; it forks, and the child makes the pty its
stdin/stdout/stderr and controlling terminal (a web app's socket only its stdin/stdout), takes
the environment and runs the app (:func:`tui.serve.child.main`). Memory pages are shared copy-on-write.

The helper answers with the child's pid and a pidfd (Linux ``pidfd_open``), which the server
waits on to see the child end (the helper reaps it; the exit status is not passed back). The
child is a session leader, so the server still ends it with ``killpg`` as before. If the
helper is not ready yet, or fails, the server starts ``python -m tui.serve.child`` as before.

Protocol on the socketpair (``SOCK_SEQPACKET``, one message per request): server → helper
``{"env": {...}, "argv": [...], "pooled": false}`` with one fd (the pty's slave side), or with
``"pooled": true`` and two fds (the slave side and a control socket: an app for the warm pool,
:mod:`tui.serve.pool`); helper → server ``{"pid": n}`` with one fd (or ``{"error": "..."}``).
First the helper sends ``{"ready": true}`` once warm.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import signal
import socket
import sys
import tempfile
import traceback
from typing import Any

READY_TIMEOUT = 60.0
MAX_REQUEST = 64 * 1024  # bytes of one request (an environment is a few KB); more is refused, not sent


class ForkServerError(Exception):
    """The fork server could not start a session (the caller falls back to a fresh process)."""


# --------------------------------------------------------------------------- the server's side


class ForkedChild:
    """A forked app process seen from the SSH server: ``pid``, ``returncode``, ``await wait()``."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._pidfd = pidfd
        self._done = asyncio.Event()
        asyncio.get_running_loop().add_reader(pidfd, self._exited)

    def _exited(self) -> None:
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(self._pidfd)
        with contextlib.suppress(OSError):
            os.close(self._pidfd)
        self.returncode = 0  # the fork server reaps it; the status stays there
        self._done.set()

    async def wait(self) -> int:
        await self._done.wait()
        return 0


class ForkServer:
    """The SSH server's handle on the warm helper process."""

    def __init__(self, env: dict[str, str], pass_fds: tuple[int, ...] = ()) -> None:
        self.env = dict(env)
        self.pass_fds = pass_fds  # besides its socket: the server's lifeline (tui.serve.child.watch_lifeline)
        self.ready = False
        self.proc: asyncio.subprocess.Process | None = None
        self._sock: socket.socket | None = None
        self._lock = asyncio.Lock()
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Start the helper in the background: sessions start the plain way until it is warm."""
        self._task = asyncio.get_running_loop().create_task(self._start())

    async def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.serve.forkserver", str(theirs.fileno()),
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=None, pass_fds=(theirs.fileno(), *self.pass_fds), env=self.env, start_new_session=True)
        except OSError:
            ours.close()
            return
        finally:
            theirs.close()
        self._sock = ours
        loop = asyncio.get_running_loop()
        try:
            msg = await asyncio.wait_for(loop.run_in_executor(None, ours.recv, 4096), READY_TIMEOUT)
            self.ready = json.loads(msg or b"{}").get("ready") is True
        except (OSError, ValueError, TimeoutError):
            self.ready = False

    async def launch(self, slave: int, env: dict[str, str], argv: list[str] | None = None,
                     control: int | None = None) -> ForkedChild:
        """Fork an app on the pty whose slave side is ``slave`` (the caller still closes it).

        With ``control`` (one end of a socketpair) the app is a *pooled* one: it starts with no
        user and waits on that socket to be given one (:mod:`tui.serve.pool`).
        """
        if not self.ready or self._sock is None:
            raise ForkServerError("the fork server is not ready")
        sock = self._sock
        request = json.dumps({"env": env, "argv": argv or [], "pooled": control is not None}).encode()
        if len(request) > MAX_REQUEST:  # one session's values: refused, the helper stays ready for the others
            raise ForkServerError(f"the request is too large ({len(request)} bytes)")
        sent = [slave] if control is None else [slave, control]

        def exchange() -> tuple[bytes, list[int]]:
            socket.send_fds(sock, [request], sent)
            msg, fds, _flags, _addr = socket.recv_fds(sock, 4096, 1)
            return msg, fds

        async with self._lock:
            try:
                msg, fds = await asyncio.get_running_loop().run_in_executor(None, exchange)
            except OSError as e:
                if e.errno in (errno.EMSGSIZE, errno.ENOBUFS, errno.ENOMEM):  # nothing was sent: still ready
                    raise ForkServerError(f"the request could not be sent ({e.strerror})") from None
                self.ready = False
                raise ForkServerError(f"the fork server is gone ({e.__class__.__name__})") from None
        try:
            answer = json.loads(msg or b"{}")
        except ValueError:
            answer = {}
        if not msg:
            self.ready = False
        if "pid" not in answer or not fds:
            for fd in fds:
                os.close(fd)
            raise ForkServerError(str(answer.get("error", "no answer from the fork server")))
        return ForkedChild(int(answer["pid"]), fds[0])

    async def close(self) -> None:
        self.ready = False
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._sock is not None:
            self._sock.close()  # the helper reads EOF and exits (its children live on until ended)
            self._sock = None
        if self.proc is not None and self.proc.returncode is None:
            try:
                await asyncio.wait_for(self.proc.wait(), 5)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.kill()
                await self.proc.wait()


# --------------------------------------------------------------------------- the helper's side


def warm_up() -> None:
    """Import the app and run it once headless, so forked children start from a warm process."""
    import tui.serve.child as child
    import tui.serve.lobby
    import tui.serve.remote  # noqa: F401

    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="unmask-warm-") as tmp:
        os.environ["UNMASK_DATA_DIR"] = tmp  # whatever the app writes at start lands here, then goes
        os.environ["UNMASK_USER"] = "warmup"
        os.environ.pop("UNMASK_TABLES_SOCKET", None)

        async def run() -> None:
            app = child.ServedApp()
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                try:
                    from tui.serve.lobby import LobbyScreen

                    app.push_screen(LobbyScreen(os.path.join(tmp, "none.sock"), "warmup"))
                    await pilot.pause()
                    await pilot.pause()
                except Exception:  # warming is an optimisation: never fail for it
                    pass

        try:
            asyncio.run(run())
        except Exception:
            traceback.print_exc()
        finally:
            os.environ.clear()
            os.environ.update(saved)


def _reap(*_: Any) -> None:
    with contextlib.suppress(ChildProcessError):
        while True:
            pid, _status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                return


def _child(sock: socket.socket, slave: int, env: dict[str, str], argv: list[str], control: int | None = None) -> None:
    """In the forked child: become the session on the pty, then run the app. Never returns.

    With ``control`` the app is pooled: it draws the lobby for nobody and waits on that socket
    for its one user (:func:`tui.serve.child.main`)."""
    code = 1
    try:
        sock.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()
        # a pty (SSH) is the user's terminal: stdin, stdout and stderr; a socket (the web) carries
        # the web driver's framed packets, which a line on stderr would break: there stderr stays
        # the helper's, the host's own (a traceback is the host's to read, never the player's)
        for fd in (0, 1, 2) if os.isatty(slave) else (0, 1):
            os.dup2(slave, fd)
        if slave > 2:
            os.close(slave)
        os.environ.clear()
        os.environ.update(env)
        from tui.serve import child

        code = child.main(argv, control=control)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve(fd: int) -> int:
    """The helper's loop: warm up, say ready, fork one app per request until the socket closes."""
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server ends us by closing the socket
    warm_up()
    import threading

    if threading.active_count() > 1:  # forking a process with threads is not safe: stay cold
        return 1
    signal.signal(signal.SIGCHLD, _reap)
    sock.send(json.dumps({"ready": True}).encode())
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 1 << 20, 2)
        except OSError:
            return 0
        if not msg:
            return 0
        try:
            request = json.loads(msg)
            env = {str(k): str(v) for k, v in request["env"].items()}
            argv = [str(a) for a in request.get("argv", [])]
            pooled = request.get("pooled") is True
            if len(fds) != (2 if pooled else 1):
                raise ValueError("one pty (and for a pooled app one control socket) expected")
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            for f in fds:
                os.close(f)
            sock.send(json.dumps({"error": f"bad request ({e.__class__.__name__})"}).encode())
            continue
        slave = fds[0]
        control = fds[1] if pooled else None
        # Until the pidfd is open the child must not be reaped (its pid could be reused).
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
        try:
            try:
                pid = os.fork()
            except OSError as e:
                for f in fds:
                    os.close(f)
                sock.send(json.dumps({"error": f"cannot fork ({e.strerror})"}).encode())
                continue
            if pid == 0:
                _child(sock, slave, env, argv, control)
            for f in fds:
                os.close(f)
            try:
                pidfd = os.pidfd_open(pid)
            except OSError as e:
                sock.send(json.dumps({"error": f"cannot watch the app ({e.strerror})"}).encode())
                continue
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        try:
            socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], [pidfd])
        except OSError:
            return 0
        finally:
            os.close(pidfd)


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1])))
