"""The `figure` command: `figure new ID` starts a spec, `figure layout ID` places its
draft nodes (see figures/new.py and figures/place.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..geometry import PAGE_WIDTH
from ..problems import command, plural


def add_parser(subcommand) -> None:
    """The `figure` command, added with cli.py's `command(name, **kwargs)`."""
    parser = subcommand("figure", help="start a figure, or place its draft nodes")
    actions = parser.add_subparsers(dest="action", required=True)
    new = actions.add_parser("new", help="write figures/ID.yaml, a spec to start from, and "
                                         "its texts into the dictionary")
    new.add_argument("id", help="lower-case letters, digits and hyphens")
    placed = actions.add_parser("layout", help="place the nodes of figures/ID.yaml that have "
                                               "no box, and write their boxes into it")
    placed.add_argument("id")
    placed.add_argument("--again", action="store_true",
                        help="lay out every node anew (the boxes dropped, the canvas size "
                             "recomputed), for a figure whose graph changed too much")
    placed.add_argument("--direction", choices=("right", "down", "left", "up"),
                        help="set the spec's direction and lay every node out anew along "
                             "it (as --again; the sides the edges' ends name are dropped)")
    placed.add_argument("--no-browser", action="store_true",
                        help="estimate the texts' sizes instead of measuring them in Chromium")
    fit = actions.add_parser("fit", help="size every placed box of figures/ID.yaml to its "
                                         "longest text (taller where it wraps within its "
                                         "width, wider where a word does not fit), moving "
                                         "what lies beyond it, and moving boxes to give an "
                                         "edge label with no free place room")
    fit.add_argument("id")
    fit.add_argument("--no-browser", action="store_true",
                     help="estimate the texts' sizes instead of measuring them in Chromium")


def run(root: Path, args: argparse.Namespace) -> int:
    if args.action == "new":
        from .new import new_figure
        for path in new_figure(root, args.id):
            print(f"Wrote {path.relative_to(root)}")
        print(f"Next: replace the placeholder texts of '{args.id}-…' in "
              "figures/figure-texts.json (source language), add or remove nodes and edges "
              f"in figures/{args.id}.yaml, then `{command()} figure layout {args.id}` "
              "places the nodes. An article shows it with these two lines:\n\n"
              f"    ```{{figure}} {args.id}\n    ```")
        return 0
    if args.action == "fit":
        from .fitting import fit_figure, report_fit
        return report_fit(root, fit_figure(root, args.id, browser=not args.no_browser))
    from .place import place_drafts
    return report(root, place_drafts(root, args.id, browser=not args.no_browser,
                                     again=args.again or args.direction is not None,
                                     direction=args.direction))


def report(root: Path, placed) -> int:
    where = placed.path.relative_to(root)
    for narrow in placed.narrow:   # a word or a phrase is never cut: it overflows
        print(f"{where}: {narrow}")
    if placed.sized:
        print(f"Sized {placed.sized} edge label{'s' * (placed.sized > 1)} and group "
              f"title{'s' * (placed.sized > 1)} in {where} to their texts.")
    if placed.keyed:
        print(f"Gave draft nodes their text keys: {', '.join(placed.keyed)}" + (
              f"; added {', '.join(placed.added)} to figures/figure-texts.json, each node's "
              "id as its text in every language: write its texts there"
              if placed.added else "") + ".")
    if placed.turned is not None:
        print(f"Set `direction: {placed.direction}` in {where}"
              + (f" and dropped the sides named on {plural(placed.turned, 'edge end')} "
                 "(they were chosen for the old direction)" if placed.turned > 0 else "")
              + ".")
    if placed.rules:
        print(f"Placed {', '.join(placed.rules)} in {where} where there was room: drag "
              f"{'them' if len(placed.rules) > 1 else 'it'} where "
              f"{'they belong' if len(placed.rules) > 1 else 'it belongs'} in the figure "
              "editor.")
    if not placed.boxes:
        if not placed.rules:
            print(f"{where}: every node has a box already; nothing to place.")
        return 0
    size = (f"; canvas set to {placed.canvas[0]:g} × {placed.canvas[1]:g}"
            if placed.canvas else "")
    print(f"Placed {len(placed.boxes)} node{'s' * (len(placed.boxes) > 1)} in {where} "
          f"(texts {placed.measured}){size}.")
    if placed.outside:
        print(f"The boxes reach {placed.outside[0]:g} × {placed.outside[1]:g}, beyond the "
              "spec's width and height: enlarge them, or remove them to let `figure layout` "
              "set them.")
    if placed.pointed:
        one = len(placed.pointed) == 1
        print(f"{'Edge' if one else 'Edges'} {', '.join(map(str, placed.pointed))} of {where} "
              f"{'gives its' if one else 'give their'} points, which stay where they were: "
              "`from: NODE` and `to: NODE` in their place have the build route them to the "
              "boxes.")
    crossed = placed.crossings
    print("No edge crosses another." if not crossed else
          f"{plural(crossed, 'edge crossing')} left (`{command()} check` lists "
          "them): moving a box in the figure editor may remove them.")
    if placed.crowded:
        one = len(placed.crowded) == 1
        print(f"{'The label of edge' if one else 'The labels of edges'} "
              f"{', '.join(map(str, placed.crowded))} found no free place beside "
              f"{'its route' if one else 'their routes'} (`{command()} check` says what "
              f"{'it lies' if one else 'each lies'} on): move the boxes apart in the figure "
              "editor, or slide a label along its edge (label_at).")
    if placed.sideways:
        other, fewer, canvas = placed.sideways
        print(f"Laid out {'rightwards' if other == 'right' else 'down the page'}, "
              + ("no edge would cross" if not fewer else
                 f"{plural(fewer, 'edge crossing')} would be left")
              + f" (canvas about {canvas[0]:g} × {canvas[1]:g}): `{command()} figure layout "
              f"{placed.path.stem} --direction {other}` lays it out so.")
    width = placed.canvas[0] if placed.canvas else 0
    if width > PAGE_WIDTH:
        remedy = (f"`{command()} figure layout {placed.path.stem} --direction down` lays it "
                  "out top to bottom." if placed.direction in ("right", "left")
                  else "Shorter texts or edge labels let "
                  f"`{command()} figure layout {placed.path.stem} --again` fit it to the page.")
        from .place import too_wide
        print(f"{too_wide(width)} {remedy}")
    print(f"Next: `{command()} serve` to look at it and move boxes in the figure editor; "
          f"`{command()} check` measures that every text fits.")
    return 0
