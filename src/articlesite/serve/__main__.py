"""The server process that `python build.py serve` runs (supervisor.py starts it):

    python -m articlesite.serve --fd FD --root ROOT --host HOST [--clean] ...
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from pathlib import Path


def main() -> int:
    # Ctrl-C reaches the supervisor too, which stops this process (SIGTERM) once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parser = argparse.ArgumentParser(prog="python -m articlesite.serve")
    parser.add_argument("--fd", type=int, required=True, help="the listening socket")
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--parent", type=int, help="the supervisor: stop when it is gone")
    parser.add_argument("--clean", action="store_true")
    parser.add_argument("--no-drafts", action="store_true")
    parser.add_argument("--restarted", action="store_true")
    parser.add_argument("--report-fd", type=int, help="where to report each build's start "
                        "and end (the supervisor's watch over builds)")
    parser.add_argument("--failed", help="the failure of the build before (JSON)")
    args = parser.parse_args()
    if args.parent is not None:
        # A build stuck in C code heeds no check of its own: killed with the supervisor.
        from ..parallel import end_with_parent
        end_with_parent(args.parent)
    from .process import serve_site
    from .supervisor import TOKEN_VARIABLE
    from .watchdog import BuildReport, Failure

    return serve_site(socket.socket(fileno=args.fd), args.root, args.host,
                      clean=args.clean, drafts=not args.no_drafts,
                      token=os.environ.get(TOKEN_VARIABLE),
                      restarted=args.restarted, parent=args.parent,
                      report=BuildReport(args.report_fd),
                      failed=Failure.parse(args.failed) if args.failed else None)


if __name__ == "__main__":
    sys.exit(main())
