"""The outcome of serve's last build, published to every open page: each page's event
stream (handler.py) waits for the next outcome; a good build waits, once its pages are
in place, for the open pages it told to reload to fetch them (BuildState.settle)."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, replace

from .overlay import overlay


@dataclass(frozen=True)
class Outcome:
    """One build's result, as the pages see it: with `changed`, the only pages of site/
    that differ from the `previous` version (None: any may)."""

    version: str
    ok: bool
    problems: tuple[dict, ...] = ()
    changed: tuple[str, ...] | None = None
    previous: str = ""

    def as_json(self) -> dict:
        return {"version": self.version, "ok": self.ok, "problems": list(self.problems),
                "overlay": "" if self.ok else overlay(self.problems),
                "changed": None if self.changed is None else list(self.changed),
                "previous": self.previous}


class BuildState:
    """The last build's outcome, shared by the watcher and every request thread, and the
    recent ones: a page that missed some (two published while it was told of one) is
    told what changed since the version it has, not only since the one before last."""

    KEPT = 64

    def __init__(self) -> None:
        self._token = f"{os.getpid()}-{time.time_ns()}"  # differs after a restart
        self._count = 0
        self._changed = threading.Condition()
        self.outcome = Outcome(f"{self._token}-0", False)
        self._recent: list[Outcome] = [self.outcome]
        self.stopping = False
        self._open: dict[int, str] = {}   # each open page's event stream: the page's path
        self._due: set[str] = set()       # open pages a good build told to reload

    def publish(self, ok: bool, problems: list[dict],
                changed: list[str] | None = None) -> None:
        with self._changed:
            self._count += 1
            self.outcome = Outcome(f"{self._token}-{self._count}", ok, tuple(problems),
                                   None if changed is None else tuple(changed),
                                   self.outcome.version)
            self._recent = [*self._recent[-self.KEPT:], self.outcome]
            if ok:
                self._due = {page for page in self._open.values()
                             if changed is None or page in changed}
            self._changed.notify_all()

    # An open page told to reload fetches itself again at once; a build going on in this
    # process (the indexes after an edited article) would slow that request down several
    # times over, so the builder lets those reloads be served first (settle).
    def opened(self, stream: int, page: str) -> None:
        with self._changed:
            self._open[stream] = page

    def closed(self, stream: int) -> None:
        with self._changed:
            page = self._open.pop(stream, None)
            if page in self._due and page not in self._open.values():
                self._due.discard(page)   # closed, or reloaded without being fetched
                self._changed.notify_all()

    def fetched(self, page: str) -> None:
        with self._changed:
            if page in self._due:
                self._due.discard(page)
                self._changed.notify_all()

    def settle(self, timeout: float) -> bool:
        """Wait until every open page told to reload by the last good build has been
        fetched again, for at most `timeout` s (a page may hold its reload: the editor);
        whether they all were."""
        with self._changed:
            return self._changed.wait_for(lambda: self.stopping or not self._due, timeout)

    def wait(self, seen: str | None, timeout: float) -> Outcome | None:
        """The outcome once it differs from version `seen`, with every page changed since
        `seen` when the versions between are known; None after `timeout` s."""
        with self._changed:
            self._changed.wait_for(lambda: self.stopping or self.outcome.version != seen,
                                   timeout)
            if self.stopping or self.outcome.version == seen:
                return None
            versions = [outcome.version for outcome in self._recent]
            if seen not in versions:
                return self.outcome
            since = self._recent[versions.index(seen) + 1:]
            changed = None if any(o.changed is None for o in since) else tuple(
                sorted({path for outcome in since for path in outcome.changed or ()}))
            return replace(self.outcome, changed=changed, previous=seen)

    def stop(self) -> None:
        with self._changed:
            self.stopping = True
            self._changed.notify_all()


def problem_entries(problems) -> list[dict]:
    return [{"where": p.file if p.line is None else f"{p.file}:{p.line}", "file": p.file,
             "line": p.line, "message": p.message, "key": p.key, "language": p.language}
            for p in problems]

