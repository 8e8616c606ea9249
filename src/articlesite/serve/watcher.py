"""serve's watcher thread: hands each save under content/, figures/ or templates/ to
the builder (through the queue of changes.py), once written (written.py)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import watchfiles

from .changes import Changes
from .written import when_written


def watched(root: Path) -> list[Path]:
    """What the server process watches (the supervisor watches the package)."""
    return [p for p in (root / "content", root / "figures", root / "templates")
            if p.is_dir()]


def watch_saves(root: Path, changes: Changes, stop: threading.Event, *,
                ready: Callable[[], None], parent: int | None = None) -> None:
    """Hand each save to `changes` (the builder takes them in this process's main thread,
    where SIGTERM interrupts a build), even while it builds, until `stop` is set or the
    supervisor (process `parent`) is gone; `ready()` once watching. A project folder
    made while serving (templates/, to override the theme) is watched from then on."""
    announced = False
    try:
        while not stop.is_set():
            folders = watched(root)
            # The watcher reports "nothing" every 200 ms when idle: the first report says
            # it is watching, and only then is the server announced (a save before that
            # is seen). A save is reported once 5 ms pass without another change (with
            # 2 ms, more saves of a large file came in two reports; see when_written).
            for found in watchfiles.watch(*folders, stop_event=stop, debounce=400,
                                          step=5, raise_interrupt=False, rust_timeout=200,
                                          yield_on_timeout=True):
                if parent is not None and os.getppid() != parent:
                    return  # the supervisor was killed: nobody would stop this process
                if not announced:
                    ready()
                    announced = True
                if found:
                    changes.add(when_written([Path(p) for _, p in found]))
                if made := [p for p in watched(root) if p not in folders]:
                    break   # a folder made while serving (templates/): watched from now
            else:
                return
            if files := [f for p in made for f in p.rglob("*") if f.is_file()]:
                changes.add(files)
    finally:
        changes.end()
