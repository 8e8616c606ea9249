"""parallel.map_unordered: every item done once, errors and dead workers never silent."""

from __future__ import annotations

import os
import time

import pytest

from articlesite import parallel

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel work needs fork()")


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "cores", lambda: 2)


def slow_square(number: int) -> tuple[int, int]:
    time.sleep(0.002)
    return number, os.getpid()


def test_every_item_is_done_once_by_both_processes():
    results = list(parallel.map_unordered(slow_square, list(range(100)), 100))
    assert sorted(number for number, _ in results) == list(range(100))
    assert len({pid for _, pid in results}) == 2


def test_an_error_in_a_worker_is_raised_here():
    parent = os.getpid()

    def fail_in_worker(number: int) -> int:
        time.sleep(0.002)
        if os.getpid() != parent:
            raise ValueError(f"item {number}")
        return number

    with pytest.raises(ValueError, match="item"):
        list(parallel.map_unordered(fail_in_worker, list(range(100)), 100))


def test_a_worker_that_dies_is_reported():
    parent = os.getpid()

    def die_in_worker(number: int) -> int:
        time.sleep(0.002)
        if os.getpid() != parent:
            os._exit(3)
        return number

    with pytest.raises(RuntimeError, match="exit code 3"):
        list(parallel.map_unordered(die_in_worker, list(range(100)), 100))
