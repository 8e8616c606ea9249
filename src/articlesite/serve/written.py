"""Waiting for a saved file to be written in full before the build reads it."""

from __future__ import annotations

import time
from pathlib import Path

# A save the watcher reports may still be under way: it reports once 5 ms pass without a
# new event, but keeps one event per file, so a file written in place over a longer time
# (the 4.6 MB dictionary of a thousand articles; the text being encoded between the
# truncation and the write) can be reported half written, and the quick rebuild then
# reads it so. A file as large as this, or empty, is reported once its size and time have
# stayed the same for SETTLED s (at most WRITE_AT_MOST s after the report).
LARGE_FILE = 256 << 10
SETTLED = 0.002
WRITE_AT_MOST = 0.2


def when_written(paths: list[Path]) -> list[Path]:
    """`paths`, once the large or empty files among them have stopped changing."""
    def state() -> list[tuple[int, int] | None]:
        found = []
        for path in paths:
            try:
                stat = path.stat()
                found.append((stat.st_size, stat.st_mtime_ns))
            except OSError:
                found.append(None)   # deleted, or renamed away
        return found

    seen, deadline = state(), time.monotonic() + WRITE_AT_MOST
    while any(s is not None and (s[0] == 0 or s[0] >= LARGE_FILE) for s in seen) and \
            time.monotonic() < deadline:
        time.sleep(SETTLED)
        now = state()
        if now == seen and all(s is None or s[0] > 0 for s in now):
            break
        seen = now
    return paths

