"""The queue of saves between serve's watcher thread and its builder."""

from __future__ import annotations

import threading
from pathlib import Path


class Changes:
    """The paths saved since the builder last took them: the watcher thread adds them, the
    builder (the main thread) takes them all at once."""

    def __init__(self) -> None:
        self._paths: set[Path] = set()
        self._added = threading.Condition()
        self._ended = False

    def add(self, paths: list[Path]) -> None:
        with self._added:
            self._paths.update(paths)
            self._added.notify()

    def end(self) -> None:
        """Watching has ended: the builder stops too."""
        with self._added:
            self._ended = True
            self._added.notify()

    def pending(self) -> bool:
        """Whether a save waits (the build running is then given up: see Builder.run)."""
        return bool(self._paths)

    def take(self) -> list[Path] | None:
        """Every path saved since the last call, once there is one; None once watching ended."""
        with self._added:
            self._added.wait_for(lambda: self._paths or self._ended)
            if self._ended:
                return None
            paths, self._paths = sorted(self._paths), set()
            return paths

