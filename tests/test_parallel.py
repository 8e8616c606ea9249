"""parallel.map_unordered: every item done once, errors and dead workers never silent.

Nothing here depends on scheduling: where both workers must do some item, each one's
first item waits (at a barrier the forked workers inherit) until the other has started
one."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from articlesite import parallel

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel work needs fork()")


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)


def in_both_workers(then):
    """A function of one item that runs `then(item)` in a worker once both workers have
    started an item (so that each surely takes one)."""
    both = multiprocessing.get_context("fork").Barrier(2)
    started = set()  # each worker has its own copy

    def function(number: int):
        if os.getpid() not in started:
            started.add(os.getpid())
            both.wait(120)
        return then(number)
    return function


def test_every_item_is_done_once_by_both_workers():
    results = list(parallel.map_unordered(
        in_both_workers(lambda number: (number, os.getpid())), list(range(100)), 100))
    assert sorted(number for number, _ in results) == list(range(100))
    workers = {pid for _, pid in results}
    assert len(workers) == 2 and os.getpid() not in workers


def test_an_error_in_a_worker_is_raised_here():
    def fail(number: int):
        raise ValueError(f"item {number}")

    with pytest.raises(ValueError, match="item"):
        list(parallel.map_unordered(in_both_workers(fail), list(range(100)), 100))


def test_a_worker_that_dies_is_reported():
    with pytest.raises(RuntimeError, match="a build worker stopped"):
        list(parallel.map_unordered(in_both_workers(lambda number: os._exit(3)),
                                    list(range(100)), 100))


def test_few_items_are_done_here():
    results = list(parallel.map_unordered(lambda number: (number, os.getpid()),
                                          list(range(5)), 5))
    assert results == [(number, os.getpid()) for number in range(5)]


STUCK_IN_C = """
import os, sys, time
from articlesite import parallel
parallel.cores = lambda: 2
def stuck(number):
    os.write(1, f"{os.getpid()}\\n".encode())   # one write: two workers' lines never mix
    return sum(range(10**13))   # C code: no Python check runs until it ends
list(parallel.map_unordered(stuck, list(range(20)), 20))
"""


def test_workers_stuck_in_c_code_end_with_their_build(tmp_path):
    """A build killed outright (as serve's watchdog kills one that hangs) takes its
    workers with it, even those stuck in C code, where no check of their own runs."""
    import signal
    import subprocess
    import sys
    import time

    build = subprocess.Popen([sys.executable, "-c", STUCK_IN_C], stdout=subprocess.PIPE,
                             text=True)
    workers = {int(build.stdout.readline()) for _ in range(2)}
    try:
        build.send_signal(signal.SIGKILL)
        build.wait()
        deadline = time.monotonic() + 10
        while workers & running(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(workers), "orphaned workers still running"
    finally:
        for pid in running(workers):
            os.kill(pid, signal.SIGKILL)


def running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (not ended, nor ended and left unreaped)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive
