"""A drawing leftwards (upwards) is the one rightwards (downwards) reflected: each box
where it was across the direction, the order along it reversed, the rows the same
(leftwards, a fold ran from its bottom row up; upwards, laid out by itself, the drafts of
bench/layout_breadth.py crossed more, bent more). Upwards a frame's title band stays at
its top, so the gaps along may differ."""

from __future__ import annotations

import sys
from itertools import combinations

import pytest
from conftest import REPO

from articlesite.geometry.frames import margins
from articlesite.geometry.layout import layout

sys.path.insert(0, str(REPO / "bench"))
from layout_quality import draft, title_size


@pytest.mark.parametrize(("name", "forward", "back"), [
    ("rlhf-loop", "right", "left"), ("code-review", "right", "left"),
    ("web-services", "down", "up"), ("transformer-block", "down", "up")])
def test_a_drawing_backwards_is_the_one_forwards_reflected(name, forward, back):
    _, nodes, sizes, edges, feedback, groups = draft(name)
    laid = {d: layout(nodes, sizes, edges, d, feedback,
                      {g: (m, margins(title_size(g), (), d)) for g, m in groups.items()})
            for d in (forward, back)}
    axis = 0 if forward == "right" else 1
    ahead, behind = laid[forward], laid[back]
    # across the direction: the same place; along it: the order reversed (and, but for
    # the frames' title bands, which stay at the top, the same gaps)
    assert all(behind[n][1 - axis] == box[1 - axis] for n, box in ahead.items())
    assert behind.row == ahead.row
    for a, b in combinations(ahead, 2):
        if behind.row[a] == behind.row[b] and ahead[a][axis] + ahead[a][axis + 2] <= ahead[b][axis]:
            assert behind[b][axis] + behind[b][axis + 2] <= behind[a][axis]
    if axis == 0:
        assert len({behind[n][0] + box[2] + box[0] for n, box in ahead.items()}) == 1
