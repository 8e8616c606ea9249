"""The server process of `python build.py serve`, from start to stop: build, serve
site/ over HTTP, rebuild on every save.

It is started (and started again after a change to the package's code) by the
supervisor (supervisor.py), which holds the listening socket: this process serves on it.
The builder (builder.py, the main thread) rebuilds the site when the watcher thread
(watcher.py) reports a file under content/, figures/ or templates/ changed, rendering
again only the pages whose inputs changed (the build cache); a build still making its
search index when another save comes is given up and done again with it. Request threads
(handler.py) serve files from site/ only, with live.js added to HTML pages (inject.py):
open pages reload after a good build and show an overlay of the problems after a failed
one; a build whose pages are in place lets the open pages it changed fetch them before
it goes on (outcome.py). The tools that answer POSTs and add to pages are listed in
extensions.py.
"""

from __future__ import annotations

import faulthandler
import logging
import signal
import socket
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

from ..cache import FOLDER
from ..problems import Problem
from ..write import RETIRED
from .builder import Builder
from .changes import Changes
from .extensions import Extensions, serve_extensions
from .handler import Handler
from .messages import address, announce
from .outcome import BuildState
from .supervisor import STUCK_AFTER
from .watchdog import BuildReport, Failure, saved_since
from .watcher import watch_saves, watched


def serve_site(listener: socket.socket, root: Path, host: str, *, clean: bool = False,
               drafts: bool = True, token: str | None = None, restarted: bool = False,
               parent: int | None = None, report: BuildReport | None = None,
               failed: Failure | None = None) -> int:
    """Build, then serve site/ on `listener` (bound by the supervisor) and rebuild on every
    save until SIGTERM (which interrupts a build, as Ctrl-C would), or until the
    supervisor (process `parent`) is gone. `token` is the editor's secret, kept by the
    supervisor across restarts; `report` tells the supervisor when each build starts and
    ends. After a build that `failed` (crashed, or ran too long: watchdog.py), the last
    good site/ is served with the failure shown, and the next save is built."""
    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # Ctrl-C is not a warning
    site, state, port = root / "site", BuildState(), listener.getsockname()[1]
    server = http_server(listener, site, state, serve_extensions(root, host, port, token))
    builder = Builder(root, state, clean, drafts, report or BuildReport(None))
    # While a build renders (an index of a thousand articles takes some 200 ms of Python),
    # a thread serving a page gets its turn within 0.1 ms rather than 5 ms: it waits for a
    # turn again after each read and write, and the reload of an edited article came
    # 15-30 ms after the build's event with 1 ms (N=1000), 6-9 ms with 0.1 ms.
    sys.setswitchinterval(0.0001)
    stop, changes = threading.Event(), Changes()

    def ready() -> None:
        if failed is not None:
            print(f"Serving again at {address(host, port)}", flush=True)
        elif restarted:
            print(f"Serving again, with the package's new code, at {address(host, port)}",
                  flush=True)
        else:
            announce(site, host, port, watched(root))

    previous = signal.signal(signal.SIGTERM, stopper(stop, builder))
    try:
        if failed is None:
            builder.run()
        else:
            builder.fail([Problem(failed.file, None, failed.message)], quiet=True)
        threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
        threading.Thread(target=watch_saves, args=(root, changes, stop), name="watch",
                         kwargs={"ready": ready, "parent": parent}, daemon=True).start()
        if failed is not None and saved_since(watched(root), failed.started_at):
            builder.run()   # saved while the failed build ran: build what is there now
        # Every save waiting is built at once; a build still making its search index when
        # another save comes is given up, and built again with it.
        while (paths := changes.take()) is not None:
            builder.run(paths, interrupt=changes.pending)
    except KeyboardInterrupt:
        pass  # stopped while building: as cleanly as while watching
    finally:
        stop.set()  # the watcher thread ends too
        builder.close()
        signal.signal(signal.SIGTERM, previous)
        state.stop()
        server.shutdown()
        server.server_close()  # this process's handle: the supervisor keeps the socket
    return 0


def http_server(listener: socket.socket, site: Path, state: BuildState,
                extensions: Extensions) -> ThreadingHTTPServer:
    """The HTTP server on the supervisor's socket `listener`."""
    handler = type("SiteHandler", (Handler,), {"site": site, "state": state,
                                               "extensions": extensions,
                                               "retired": site.parent / FOLDER / RETIRED})
    server = ThreadingHTTPServer(listener.getsockname()[:2], handler,
                                 bind_and_activate=False)
    server.socket.close()
    server.socket, server.server_address = listener, listener.getsockname()
    server.server_port = server.server_address[1]
    return server


def stopper(stop: threading.Event, builder: Builder):
    """SIGTERM's handler: stop watching and serving; a build under way is interrupted."""
    def stop_now(*_) -> None:
        if not stop.is_set():
            stop.set()
            # Stopping takes well under a second. Should it not end, the log says where
            # it is stuck, and the process ends anyway.
            faulthandler.dump_traceback_later(STUCK_AFTER, exit=True)
            if builder.building:
                raise KeyboardInterrupt  # caught in serve_site: the last good site/ stays
    return stop_now
