"""`python build.py serve`: listen on the port, run the server process (process.py) and
start it again, on the same socket, when the package's own code changes.

A fresh process is the only clean way to run new code: modules hold state, and
deleting them from sys.modules leaves the old ones referenced. The listening socket
stays open here across a restart, so the port does not change and a request made
meanwhile (an open page's event stream reconnecting) waits in the queue until the new
process serves it; the new process's build events have a new version, so open pages
reload. Templates are content, not code: the server process rebuilds after those.
"""

from __future__ import annotations

import errno
import faulthandler
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..problems import UsageError
from .messages import PACKAGE, changed_names
from .standin import StandIn
from .watchdog import (
    BUILD_LIMIT,
    BUILD_MEMORY,
    BuildWatch,
    Failure,
    crashed,
    overdue_failure,
    oversized_failure,
)

# Seconds after SIGTERM: a server process's stop that takes longer is reported and ended
# by the process itself (process.py).
STUCK_AFTER = 10.0
# How long the server process may take to stop: it reports where it is stuck and ends
# itself after STUCK_AFTER; after this it is killed.
STOP_WITHIN = STUCK_AFTER + 5
# The editor's secret, handed to each server process, not on its command line.
TOKEN_VARIABLE = "ARTICLESITE_EDITOR_TOKEN"


def serve(root: Path, host: str, port: int, clean: bool = False, drafts: bool = True,
          build_limit: float = BUILD_LIMIT, build_memory: int = BUILD_MEMORY) -> int:
    import watchfiles

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # Ctrl-C is not a warning
    listener = listen(host, port)
    token = secrets.token_urlsafe(32)
    stop = threading.Event()
    # Ctrl-C's handler is set here, not left to Python: a process started in the
    # background by a script (`serve &`) inherits SIGINT ignored, and would never stop.
    def interrupted(*_) -> None:
        terminated()
        raise KeyboardInterrupt

    def terminated(*_) -> None:
        # Should stopping hang, the log says where, and this process ends anyway.
        faulthandler.dump_traceback_later(STOP_WITHIN + STUCK_AFTER, exit=True)
        stop.set()

    previous = signal.signal(signal.SIGTERM, terminated)
    previous_interrupt = signal.signal(signal.SIGINT, interrupted)
    server = start(listener, root, host, token, clean=clean, drafts=drafts)
    stand_in: StandIn | None = None   # answers while no server process runs
    restarts = Restarts()
    try:
        for changes in watchfiles.watch(PACKAGE, stop_event=stop, debounce=400, step=5,
                                        raise_interrupt=False, rust_timeout=200,
                                        yield_on_timeout=True):
            failed = build_failure(server, build_limit, build_memory)
            if failed is not None and restarts.allowed():
                # A build crashed or ran too long: serving goes on, with what it says.
                print(f"{failed.message} Serving the last good site/; save a fix to build "
                      "again.", flush=True)
                halt(server, stand_in)
                server, stand_in = start(listener, root, host, token, drafts=drafts,
                                         failure=failed), None
                continue
            if server.poll() not in (None, 0) and stand_in is None:
                message = (f"The server process stopped (exit code {server.returncode}): fix "
                           "the package's code and save to start it again.")
                print(message, flush=True)
                stand_in = StandIn(listener, message)
            if not changes:
                continue
            paths = sorted({Path(p) for _, p in changes})
            print(f"{changed_names(paths, root)} changed: restarting with the new code.",
                  flush=True)
            halt(server, stand_in)
            server, stand_in = start(listener, root, host, token, drafts=drafts,
                                     restarted=True), None
    except KeyboardInterrupt:
        pass  # Ctrl-C while restarting
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, previous_interrupt)
        halt(server, stand_in)
        listener.close()
        print("Stopped.", flush=True)
    return 0


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, or a clear error."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(64)  # requests made during a restart wait here
    except OSError as exc:
        listener.close()
        hint = ("; choose another port with --port (0 picks a free one)"
                if exc.errno == errno.EADDRINUSE else "")
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}{hint}") from None
    return listener


class ServerProcess(subprocess.Popen):
    """A server process, and the supervisor's watch over its builds (watchdog.py)."""

    watch: BuildWatch


def start(listener: socket.socket, root: Path, host: str, token: str, *, clean: bool = False,
          drafts: bool = True, restarted: bool = False,
          failure: Failure | None = None) -> ServerProcess:
    """A server process running this package's code as it is now on disk; after `failure`,
    one that shows it and waits for a save to build."""
    watch = BuildWatch()
    command = [sys.executable, "-m", "articlesite.serve", "--fd", str(listener.fileno()),
               "--root", str(root), "--host", host, "--parent", str(os.getpid()),
               "--report-fd", str(watch.write_fd)]
    command += ["--clean"] * clean + ["--no-drafts"] * (not drafts)
    command += ["--restarted"] * restarted
    command += ["--failed", failure.argument()] if failure else []
    environment = dict(os.environ, **{TOKEN_VARIABLE: token})
    # The package this process watches is the one the server process imports.
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(PACKAGE.parent), *filter(None, [os.environ.get("PYTHONPATH")])])
    try:
        server = ServerProcess(command, pass_fds=(listener.fileno(), watch.write_fd),
                               env=environment)
    finally:
        watch.given()
    server.watch = watch
    return server


def build_failure(server: ServerProcess, limit: float, memory: int) -> Failure | None:
    """How the server process's build failed, if it crashed, ran longer than `limit` s or
    took more than `memory` MiB (then it is ended here: a build stuck in a library's code
    may not heed SIGTERM)."""
    if server.poll() is None:
        ended = overdue_failure(server.watch, limit) if server.watch.overdue(limit) else \
            oversized_failure(server.watch, memory) \
            if server.watch.oversized(server.pid, memory) else None
        if ended is not None:
            server.kill()
            server.wait()
            return ended
    code = server.poll()
    return None if code is None else crashed(server.watch, code)


class Restarts:
    """At most a few restarts after failures a minute: a server process that crashes as
    it starts is left stopped, and said so, rather than started again and again."""

    def __init__(self, most: int = 5, within: float = 60.0):
        self.most, self.within, self.times = most, within, []

    def allowed(self) -> bool:
        now = time.monotonic()
        self.times = [moment for moment in self.times if now - moment < self.within]
        if len(self.times) >= self.most:
            return False
        self.times.append(now)
        return True


def halt(server: subprocess.Popen, stand_in: StandIn | None = None) -> None:
    """Stop the server process (a build it is running is interrupted), and wait for it;
    and the stand-in answering in its place, if one is."""
    if stand_in is not None:
        stand_in.stop()
    if server.poll() is None:
        server.terminate()
    try:
        server.wait(timeout=STOP_WITHIN)
    except subprocess.TimeoutExpired:
        print(f"The server process did not stop within {STOP_WITHIN:.0f} s: killed.",
              flush=True)
        server.kill()
        server.wait()
