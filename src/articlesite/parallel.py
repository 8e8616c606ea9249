"""Spreading work over the cores: the standard process pool, its workers forked, so that
they inherit everything already loaded (the function and its items are never pickled:
only an item's index goes to a worker, and its result comes back).

(It replaced a pool of its own, in which this process worked beside one forked worker
per extra core: on the synthetic N=200 site that one used some 6% less CPU, a margin
within the noise of this shared machine.)

The process pool's modules (multiprocessing, concurrent.futures: some 13 ms) are imported
only when a pool is used: a small build does its work in this process."""

from __future__ import annotations

import gc
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

# Below this many items, forking costs more than it saves.
PARALLEL_FROM = 12
# The most items one message to a worker holds, and how many runs each worker has left
# at least while runs shorten (parallel.runs).
MOST_IN_RUN = 8
RUNS_LEFT = 4
# Seconds between a worker's checks that its build is still there.
PARENT_CHECK = 0.5
PR_SET_PDEATHSIG = 1   # prctl(2): the signal a process gets when its parent ends

# The work of each running map_unordered, by number: set before the workers are forked,
# so that they find it here.
_work: dict[int, tuple[Callable[[Any], Any], Sequence[Any]]] = {}
_numbers = itertools.count()
# True in a worker: its own work is done in it (a worker does not start a pool).
_in_worker = False


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def in_process(count: int, items: int) -> bool:
    """Whether map_unordered does `count` units of work on `items` items in this process."""
    if count < PARALLEL_FROM or min(cores(), items) < 2 or _in_worker:
        return True
    import multiprocessing

    return "fork" not in multiprocessing.get_all_start_methods()


def map_unordered(function: Callable[[Any], Any], items: Sequence[Any],
                  count: int, meanwhile: Callable[[], None] | None = None) -> Iterator[Any]:
    """Yield `function(item)` for every item, in the order they complete. With `count` >=
    PARALLEL_FROM units of work and more than one core, a pool of one worker per core
    does them (where the platform can fork); the workers share the caller's loaded data
    instead of copying it. An error in a worker is raised here. `meanwhile()`, if given,
    is the caller's own work, done in this process once the workers have theirs (before
    the items, when they are done here): what it loads, the workers do not inherit."""
    if in_process(count, len(items)):
        if meanwhile is not None:
            meanwhile()
        yield from map(function, items)
    else:
        yield from _over_pool(function, items, min(cores(), len(items)), meanwhile)


def _over_pool(function: Callable[[Any], Any], items: Sequence[Any],
               processes: int, meanwhile: Callable[[], None] | None = None
               ) -> Iterator[Any]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    number = next(_numbers)
    _work[number] = (function, items)
    gc.freeze()  # keep the workers' garbage collector off the inherited objects' pages
    pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                               initializer=_watch_parent, initargs=(os.getpid(),))
    try:
        futures = [pool.submit(_do_run, number, start, end)
                   for start, end in runs(len(items), processes)]
        if meanwhile is not None:
            meanwhile()
        for future in as_completed(futures):
            yield from future.result()
    except BrokenProcessPool as error:  # a worker was killed before it answered
        raise RuntimeError("a build worker stopped before it finished its work (killed, "
                           "or out of memory?)") from error
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        del _work[number]
        gc.unfreeze()


def end_with_parent(parent: int) -> None:
    """Have the kernel kill this process when `parent`, the process that started it, is
    gone (on Linux; elsewhere the callers' own checks of os.getppid() are all there is).
    A check in Python never runs while the process is stuck in C code holding the
    interpreter (a template's `range(10**10)|sum`): such a process, orphaned, would
    run on for ever, heeding no signal but SIGKILL."""
    import ctypes  # only here: some 3 ms, and a build with no workers needs none

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):   # no prctl: not Linux
        return
    if os.getppid() != parent:   # gone before the kernel was told
        os._exit(1)


def _watch_parent(parent: int) -> None:
    """In a worker, first: note that it is one, and end when the build that forked it
    is gone. A build killed outright (SIGKILL, no cleanup) would otherwise leave its
    workers waiting for work forever: each holds the pool's pipes open for the others."""
    global _in_worker
    _in_worker = True
    end_with_parent(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(1)
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def runs(count: int, processes: int) -> list[tuple[int, int]]:
    """The items' indices in runs, [start, end), one message to a worker and one back
    each: the first ones longer (up to MOST_IN_RUN items), the last ones a single item,
    so that the workers finish together. (One message per item cost the build's own
    process some 1 ms of CPU an item at N=200, in the pool's threads.)"""
    found, start = [], 0
    while start < count:
        size = max(1, min(MOST_IN_RUN, (count - start) // (processes * RUNS_LEFT)))
        found.append((start, start + size))
        start += size
    return found


def _do_run(number: int, start: int, end: int) -> list[Any]:
    """In a worker: a run of items of the work it inherited. The garbage collector
    looks for cycles once after each item, when what the item made is garbage or kept,
    not while it works (every 20,000 new objects: an article's tokens and pages, all
    alive, scanned again and again)."""
    function, items = _work[number]
    done = []
    gc.disable()
    try:
        for index in range(start, end):
            done.append(function(items[index]))
            gc.collect(1)
    finally:
        gc.enable()
    return done
