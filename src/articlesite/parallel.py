"""Spreading work over the cores: forked workers that inherit everything already loaded."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

# Below this many items, forking costs more than it saves.
PARALLEL_FROM = 12

_function: Callable[[Any], Any] | None = None


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_unordered(function: Callable[[Any], Any], items: Iterable[Any],
                  count: int) -> Iterator[Any]:
    """Yield `function(item)` for every item as each completes: in one forked worker per
    core when there are `count` >= PARALLEL_FROM items and the platform can fork (the
    workers share the caller's loaded data without copying it), else in this process."""
    workers = min(cores(), count)
    if count < PARALLEL_FROM or workers < 2 or "fork" not in \
            multiprocessing.get_all_start_methods():
        yield from map(function, items)
        return
    global _function
    _function = function
    gc.freeze()  # keep the workers' garbage collector off the inherited objects' pages
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap_unordered(_call, items)
    finally:
        gc.unfreeze()
        _function = None


def _call(item: Any) -> Any:
    assert _function is not None
    return _function(item)
