"""Spreading work over the cores: this process and forked workers, which inherit
everything already loaded, take items in turn from one shared counter."""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

# Below this many items, forking costs more than it saves.
PARALLEL_FROM = 12


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def map_unordered(function: Callable[[Any], Any], items: Sequence[Any],
                  count: int) -> Iterator[Any]:
    """Yield `function(item)` for every item, in the order they complete. With `count` >=
    PARALLEL_FROM units of work and more than one core, one worker is forked per extra
    core (where the platform can fork) and works beside this process; the workers share
    the caller's loaded data instead of copying it."""
    processes = min(cores(), len(items))
    if count < PARALLEL_FROM or processes < 2 or "fork" not in \
            multiprocessing.get_all_start_methods():
        yield from map(function, items)
        return
    context = multiprocessing.get_context("fork")
    counter = context.Value("i", 0)

    def take() -> int | None:
        with counter.get_lock():
            index, counter.value = counter.value, counter.value + 1
        return index if index < len(items) else None

    def work(results) -> None:
        try:
            while (index := take()) is not None:
                results.send((True, function(items[index])))
        except BaseException as error:  # noqa: BLE001 - handed to the parent, which raises
            results.send((False, error))
        results.close()

    gc.freeze()  # keep the workers' garbage collector off the inherited objects' pages
    workers, pipes = [], []
    try:
        for _ in range(processes - 1):
            reader, writer = context.Pipe(duplex=False)
            worker = context.Process(target=work, args=(writer,), daemon=True)
            worker.start()
            writer.close()
            workers.append(worker)
            pipes.append(reader)
        while (index := take()) is not None:
            yield function(items[index])
            yield from _received(pipes, wait=False)
        yield from _received(pipes, wait=True)
        for worker in workers:
            worker.join()
            if worker.exitcode != 0:  # killed before it sent all it took
                raise RuntimeError(f"a build worker stopped (exit code {worker.exitcode})")
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
            worker.join()
        gc.unfreeze()


def _received(pipes: list, wait: bool) -> Iterator[Any]:
    """Results the workers sent: those ready, or (`wait`) all until every worker is done."""
    while pipes:
        ready = multiprocessing.connection.wait(pipes, timeout=None if wait else 0)
        if not ready:
            return
        for pipe in ready:
            try:
                ok, value = pipe.recv()
            except EOFError:  # that worker is done
                pipes.remove(pipe)
                continue
            if not ok:
                raise value
            yield value
