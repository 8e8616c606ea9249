"""serve's watch over its builds. The server process tells the supervisor, one line on a
pipe, when a build starts (and after which saves) and when it ends (BuildReport). The
supervisor (BuildWatch) ends a build that runs longer than its limit, and starts the
server process again, on the same socket, after one that crashed (a segmentation fault
in a library, the process killed) or was ended: the new process is told what happened
(Failure), keeps serving the last good site/, shows it on every open page as a failed
build's problems are shown, and builds again on the next save, or at once when a source
was saved while the failed build ran. A page never waits on a dead process.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

# Seconds a build may run in serve before it is ended (serve --build-limit).
BUILD_LIMIT = 300.0
# MiB of memory the server process may hold while it builds (serve --build-memory): a
# build of 1000 articles holds about 1.1 GiB.
BUILD_MEMORY = 4096


class BuildReport:
    """The server process's side: a line to the supervisor as each build starts and ends
    (nothing when started without a supervisor's pipe)."""

    def __init__(self, fd: int | None):
        self.out = os.fdopen(fd, "w", buffering=1, encoding="utf-8") if fd is not None \
            else None

    def started(self, paths: list[str] | None) -> None:
        self._say({"building": paths or [], "at": time.time()})

    def ended(self) -> None:
        self._say({"building": None})

    def _say(self, message: dict) -> None:
        if self.out is not None:
            with contextlib.suppress(OSError, ValueError):   # the supervisor is gone
                self.out.write(json.dumps(message) + "\n")


class BuildWatch:
    """The supervisor's side, for one server process: a thread reads its reports; when a
    build is running, `since` is when it started (monotonic) and `paths` what it builds."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        self.since: float | None = None
        self.started_at = 0.0   # the same start, as wall-clock time (to compare with files)
        self.paths: list[str] = []
        threading.Thread(target=self._read, name="build-watch", daemon=True).start()

    def given(self) -> None:
        """The server process has its end of the pipe: this process closes its own."""
        os.close(self.write_fd)

    def _read(self) -> None:
        with os.fdopen(self.read_fd, encoding="utf-8", errors="replace") as reports:
            for line in reports:
                with contextlib.suppress(ValueError, TypeError, KeyError):
                    report = json.loads(line)
                    if report["building"] is None:
                        self.since = None
                    else:
                        self.paths = [str(path) for path in report["building"]]
                        self.started_at = float(report["at"])
                        self.since = time.monotonic()

    def overdue(self, limit: float) -> bool:
        since = self.since
        return since is not None and time.monotonic() - since > limit

    def oversized(self, pid: int, limit: int) -> bool:
        """Whether process `pid` holds more than `limit` MiB while it builds."""
        return self.since is not None and resident_mib(pid) > limit


def resident_mib(pid: int) -> int:
    """The memory a process holds (its resident set), in MiB; 0 where it cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


@dataclass(frozen=True)
class Failure:
    """What the supervisor tells a server process it starts after a build failed so."""

    message: str
    file: str                # the first source saved (or "serve" for the first build)
    started_at: float        # when the failed build started (wall-clock time)

    def argument(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def parse(cls, text: str) -> Failure:
        return cls(**json.loads(text))


def crashed(watch: BuildWatch, returncode: int) -> Failure | None:
    """How a server process that ended with `returncode` failed, if during a build or by a
    signal; None for another end (its code failed to load: the supervisor waits for a fix)."""
    if returncode == 0 or (watch.since is None and returncode > 0):
        return None
    if returncode < 0:
        number = -returncode
        name = signal.Signals(number).name if number in signal.valid_signals() else str(number)
        how = f"crashed ({(signal.strsignal(number) or name).lower()}, {name})"
    else:
        how = f"ended with exit code {returncode}"
    if watch.since is None:   # between builds
        return Failure(f"The server process {how}; serve started it again.", "serve",
                       time.time())
    return failure(watch, f"stopped the server process: it {how}")


def overdue_failure(watch: BuildWatch, limit: float) -> Failure:
    return failure(watch, f"ran for more than {limit:g} s and was stopped (serve "
                          "--build-limit SECONDS allows longer builds)")


def oversized_failure(watch: BuildWatch, limit: int) -> Failure:
    return failure(watch, f"took more than {limit} MiB of memory and was stopped (serve "
                          "--build-memory MIB allows more)")


def failure(watch: BuildWatch, what: str) -> Failure:
    paths = watch.paths
    after = (f"after {', '.join(paths[:3])}{' and more' if len(paths) > 3 else ''} changed"
             if paths else "of the whole site")
    return Failure(f"The build {after} {what}.", paths[0] if paths else "serve",
                   watch.started_at)


def saved_since(folders: list[Path], moment: float) -> bool:
    """Whether a file under these folders was saved after `moment` (wall-clock time)."""
    for folder in folders:
        for directory, _, names in os.walk(folder):
            for name in names:
                with contextlib.suppress(OSError):
                    if os.stat(os.path.join(directory, name)).st_mtime > moment:
                        return True
    return False
