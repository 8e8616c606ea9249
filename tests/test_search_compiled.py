"""The route search's loop and step costs compiled (geometry/_search.c) find the same
routes as their Python loops in geometry/grid.py, point for point: on random figures (shared sides,
feedback edges, labels in the way, bounds that leave no room) and through the side
choice, which searches against a limit and in growing windows."""

from __future__ import annotations

import random

import pytest

from articlesite.geometry import grid
from articlesite.geometry.layout import extent_of, layout
from articlesite.geometry.route import Ends, forget, route_edges
from articlesite.geometry.untangle import untangle

SIDES = (None, None, "top", "right", "bottom", "left")


def test_the_package_was_installed_with_its_compiled_search():
    assert grid._compiled is not None and grid._recompiled is not None, (
        "articlesite.geometry._search was not built: install the package where a C "
        "compiler and Python's headers are (pip install -e .)")


def _figure(seed: int):
    """Boxes in the cells of a 6 × 5 grid, some cells empty, some labels between them,
    edges between random boxes with random sides, some of them feedback edges."""
    rng = random.Random(seed)
    cells = rng.sample([(i, j) for i in range(6) for j in range(5)], rng.randint(4, 16))
    nodes = {}
    for k, (i, j) in enumerate(cells):
        w, h = rng.randint(40, 150), rng.randint(30, 90)
        nodes[f"n{k}"] = (i * 200 + rng.randint(0, 150 - w + 40), j * 160 + rng.randint(0, 60),
                          w, h)
    names = list(nodes)
    edges = [Ends(*rng.sample(names, 2), rng.choice(SIDES), rng.choice(SIDES),
                  rng.random() < 0.2) for _ in range(rng.randint(3, 2 * len(names)))]
    labels = [(i * 200 + 160, j * 160 + 100, 30, 20) for i, j in
              rng.sample([(i, j) for i in range(6) for j in range(5)], 4)]
    bounds = None if seed % 3 else (0, 0, *extent_of(list(nodes.values())))
    return nodes, edges, labels, bounds


def _both(monkeypatch, work):
    """What `work()` gives with the compiled loop and with the Python one."""
    forget()
    compiled = work()
    monkeypatch.setattr(grid, "_compiled", None)
    monkeypatch.setattr(grid, "_recompiled", None)
    forget()
    python = work()
    monkeypatch.undo()
    return compiled, python


@pytest.mark.parametrize("seed", range(40))
def test_random_figures_route_alike(monkeypatch, seed):
    nodes, edges, labels, bounds = _figure(seed)
    compiled, python = _both(monkeypatch, lambda: route_edges(nodes, edges, labels,
                                                              bounds=bounds))
    assert compiled == python
    assert any(route.ok and len(route.points) > 2 for route in compiled)


@pytest.mark.parametrize("seed", range(6))
def test_the_side_choice_chooses_alike(monkeypatch, seed):
    rng = random.Random(seed)
    names = [f"n{k}" for k in range(14)]
    pairs = [(a, b) for a in names for b in names if a < b]
    edges = rng.sample(pairs, 18) + [(names[9], names[1])]
    sizes = {n: (rng.randint(60, 200), rng.randint(40, 80)) for n in names}
    laid = layout(names, sizes, edges, "right", {edges[-1]}, {})
    ends = [Ends(a, b, around=k == len(edges) - 1) for k, (a, b) in enumerate(edges)]
    bounds = (0, 0, *extent_of(list(dict(laid).values())))

    def chosen():
        sides = untangle(dict(laid), ends, bounds=bounds,
                         outside_ok=frozenset({len(edges) - 1}))
        named = [Ends(e.source, e.target, *sides.get(k, (None, None)), e.around)
                 for k, e in enumerate(ends)]
        return sides, route_edges(dict(laid), named, bounds=bounds)

    compiled, python = _both(monkeypatch, chosen)
    assert compiled == python
