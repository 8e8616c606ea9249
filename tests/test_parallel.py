"""parallel.map_unordered: every item done once, errors and dead workers never silent.

Nothing here depends on scheduling: where a worker must do some item, this process waits
(on an event the forked workers inherit) until one has started."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from articlesite import parallel

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel work needs fork()")


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)


def in_worker_first(then):
    """A function of one item that runs `then(item)` in a worker, and in this process
    only once a worker has started an item (so that a worker surely takes one)."""
    parent = os.getpid()
    started = multiprocessing.get_context("fork").Event()

    def function(number: int):
        if os.getpid() == parent:
            assert started.wait(120), "no worker started"
            return number, parent
        started.set()
        return then(number)
    return function


def test_every_item_is_done_once_by_both_processes():
    results = list(parallel.map_unordered(
        in_worker_first(lambda number: (number, os.getpid())), list(range(100)), 100))
    assert sorted(number for number, _ in results) == list(range(100))
    assert len({pid for _, pid in results}) == 2


def test_an_error_in_a_worker_is_raised_here():
    def fail(number: int):
        raise ValueError(f"item {number}")

    with pytest.raises(ValueError, match="item"):
        list(parallel.map_unordered(in_worker_first(fail), list(range(100)), 100))


def test_a_worker_that_dies_is_reported():
    with pytest.raises(RuntimeError, match="exit code 3"):
        list(parallel.map_unordered(in_worker_first(lambda number: os._exit(3)),
                                    list(range(100)), 100))


def test_few_items_are_done_here():
    results = list(parallel.map_unordered(lambda number: (number, os.getpid()),
                                          list(range(5)), 5))
    assert results == [(number, os.getpid()) for number in range(5)]
