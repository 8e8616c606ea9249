"""`python build.py translations export|import|confirm`: the command line of exchange.py
(export, import) and confirming.py (confirm)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..problems import BuildError, Problems


def add_parser(command) -> None:
    """The `translations` command, added with cli.py's `command(name, **kwargs)`."""
    parser = command("translations", help="exchange the figure texts with translation tools "
                                          "(gettext PO, XLIFF 2); confirm translations")
    actions = parser.add_subparsers(dest="action", required=True)
    export = actions.add_parser("export", help="write one PO or XLIFF file per language")
    export.add_argument("--format", choices=("po", "xliff"), default="po")
    export.add_argument("--language", help="only this language (default: every language "
                                           "but the source language)")
    export.add_argument("--out", type=Path, help="folder to write into (default: "
                                                  "ROOT/translations)")
    imported = actions.add_parser("import", help="merge translated PO or XLIFF files into "
                                                 "the dictionary")
    imported.add_argument("files", nargs="+", type=Path, metavar="FILE")
    confirmed = actions.add_parser(
        "confirm", help="record that translations are right for the current source text")
    confirmed.add_argument("targets", nargs="*", metavar="TARGET",
                           help="KEY confirms every language of a figure text, KEY:LANG "
                                "one; SLUG[#SECTION][:LANG] does so for an article's "
                                "translated sections")
    confirmed.add_argument("--all", action="store_true",
                           help="confirm every figure text except those identical to the "
                                "source text (listing what it confirmed)")
    confirmed.add_argument("--sections", action="store_true",
                           help="confirm every translated section of every article")


def run(root: Path, args: argparse.Namespace) -> int:
    from ..load.sources import load_sources
    from .confirming import confirm_targets
    from .exchange import apply_import, export, plan_import, target_languages

    problems = Problems(root)
    try:
        sources = load_sources(root, problems)
    except BuildError as error:
        return report(error.problems, {"export": "nothing was exported",
                                       "import": "nothing was imported",
                                       "confirm": "nothing was confirmed"}[args.action])
    if args.action == "confirm":
        for line in confirm_targets(sources, args.targets, args.all, args.sections):
            print(line)
        return 0
    if args.action == "export":
        out = args.out if args.out is not None else root / "translations"
        found = Problems(root)
        for path in export(sources, args.format, target_languages(sources, args.language),
                           out.resolve(), found):
            print(f"Wrote {path}")
        return 0
    found = Problems(root)
    merge = plan_import(sources, [path.resolve() for path in args.files], found)
    if found:
        return report(found, f"{sources.dictionary.path.name} was left as it was")
    apply_import(sources, merge, root)
    name = sources.dictionary.path.name
    changed = len(merge.changes)
    by_language: dict[str, int] = {}
    for _, language in merge.changes:
        by_language[language] = by_language.get(language, 0) + 1
    counts = ", ".join(f"{language}: {count}" for language, count in by_language.items())
    print(f"Imported {changed} changed translation{'s' if changed != 1 else ''} into "
          f"{name}" + (f" ({counts})" if counts else "") + f"; {merge.unchanged} unchanged.")
    if merge.confirmations:
        count = len(merge.confirmations)
        print(f"Confirmed {count} reviewed translation{'s' if count != 1 else ''} "
              "(not fuzzy, or state reviewed/final).")
    return 0


def report(problems, what: str) -> int:
    count = len(problems)
    print(f"{count} problem{'s' if count != 1 else ''}; {what}.", file=sys.stderr)
    for problem in sorted(set(problems), key=lambda p: p.sort_key()):
        print(f"  {problem}", file=sys.stderr)
    return 1
