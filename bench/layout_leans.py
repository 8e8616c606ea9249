"""Whether `figure layout`'s second look at a fold pays: a drawing folded into rows whose
edges still cross once their sides are chosen is laid out again with its layers leaning
toward the rows the other way (geometry/layout.py `lean`), its sides chosen again, and
the layout that crosses less kept; figures/place.py does so only where the first leaves
more than FEW crossings. Over bench/layout_breadth.py's layouts and 200 more random
graphs folded rightwards or leftwards at 1240 and 700 px, for the folds left crossing
(and whose other lean gives other boxes), by how many crossings the first left (FEW or
fewer, more): how many there are, in how many the other lean crossed fewer, by how many
crossings in all, and the CPU time it took.

    python bench/layout_leans.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layout_breadth import cases, laid_out, measured, random_graph

from articlesite.figures.place import FEW


def folds():
    """`measured`'s arguments for each layout to look at."""
    for _, args in cases():
        yield args
    for seed in range(40, 240):
        nodes, sizes, edges, _, feedback, groups, labels = random_graph(seed)
        direction = random.Random(seed).choice(["right", "left"])
        for width in (1240.0, 700.0):
            yield nodes, sizes, edges, direction, feedback, groups, width, labels


def main() -> None:
    table = {"few": [0, 0, 0, 0.0], "more": [0, 0, 0, 0.0]}
    for args in folds():
        if args[3] not in ("right", "left"):
            continue
        first = laid_out(*args)
        crossed = measured(*args, lean=first.lean)[0]
        if not crossed or dict(laid_out(*args, lean=3 - first.lean)) == dict(first):
            continue
        other, ms, *_ = measured(*args, lean=3 - first.lean)
        row = table["few" if crossed <= FEW else "more"]
        row[0] += 1
        row[1] += other < crossed
        row[2] += max(crossed - other, 0)
        row[3] += ms
    print("first lean left  folds  other crossed fewer  crossings saved  its CPU")
    for key, words in (("few", f"{FEW} or fewer"), ("more", f"more than {FEW}")):
        folds_, fewer, saved, ms = table[key]
        print(f"{words:<16} {folds_:<6} {fewer:<20} {saved:<16} {ms / 1000:.1f} s")


if __name__ == "__main__":
    main()
