"""The command line: `python build.py [build|serve|check|new|init|translations]`, the
`articlesite` script and `python -m articlesite`."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import NoReturn

from .problems import BuildError, Problem, Problems, UsageError, plural, warning_lines
from .problems import command as command_name
from .search_service import EarlyService
from .serve.watchdog import BUILD_LIMIT, BUILD_MEMORY
from .unchanged import since_last, summary_line

# A build that runs longer than this shows a progress line (on a terminal).
PROGRESS_AFTER = 1.0


def run(default_root: Path | None = None) -> NoReturn:
    """The command line's entry point (`build.py`, the `articlesite` script): `main`, then
    the process ends at once. By then every file is closed and every worker has ended;
    the interpreter's own exit would only free the build's objects one by one, which
    takes 0.4 s after a build of 3000 pages."""
    if default_root is None:   # the `articlesite` script or `python -m articlesite`
        module = Path(sys.argv[0]).name == "__main__.py"
        os.environ.setdefault("ARTICLESITE_COMMAND",
                              "python -m articlesite" if module else "articlesite")
    # A build makes millions of objects that live on (tokens, pages, entries) and few
    # cycles: with the collector's default (a collection every 700 new objects) it spent
    # some 4 s of CPU collecting at N=1000, nothing found; now some 1.2 s.
    gc.set_threshold(20_000, 20, 20)
    code = main(default_root=default_root)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str] | None = None, default_root: Path | None = None) -> int:
    from .figures import commands as figure_commands
    from .translate import commands as translation_commands

    args = make_parser().parse_args(argv)
    root = getattr(args, "root", default_root or Path.cwd()).resolve()
    args.clean = getattr(args, "clean", False)
    try:
        if args.command == "serve":
            from .serve.supervisor import serve
            return serve(root, args.host, args.port, clean=args.clean,
                         drafts=not args.no_drafts, build_limit=args.build_limit,
                         build_memory=args.build_memory)
        if args.command == "check":
            return run_check(root, args)
        if args.command == "translations":
            return translation_commands.run(root, args)
        if args.command == "figure":
            return figure_commands.run(root, args)   # BuildError: the spec's problems
        if args.command == "init":
            return run_init(args.folder, args.languages, args.source)
        if args.command == "new":
            from .scaffold import new_article
            for path in new_article(root, args.slug):
                print(f"Created {path.relative_to(root)}")
            return 0
        return run_build(root, getattr(args, "out", None), clean=args.clean,
                         drafts=getattr(args, "drafts", False))
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BuildError as error:   # raised by `figure` and `check --stretch` only
        print_problems(error, " ".join(filter(None, (args.command,
                                                     getattr(args, "action", None)))))
        return 1


def make_parser() -> argparse.ArgumentParser:
    """The command line's parser: every command with its options."""
    # --root and --clean are accepted before or after the command (SUPPRESS: a value
    # given in one place is not overwritten by the other's default).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=argparse.SUPPRESS,
                        help="the project folder (content/, figures/, templates/); "
                             "default: the folder of build.py, or the current folder")
    common.add_argument("--clean", action="store_true", default=argparse.SUPPRESS,
                        help="ignore the build cache (ROOT/.articlesite-cache): a full "
                             "build (the compiled templates are kept: Jinja compiles a "
                             "template again when its text changed)")
    parser = argparse.ArgumentParser(prog=command_name(), parents=[common],
                                     description="Build the multilingual article site.")
    from . import __version__
    parser.add_argument("--version", action="version", version=f"articlesite {__version__}")
    commands = parser.add_subparsers(dest="command")

    def command(name: str, **kwargs) -> argparse.ArgumentParser:
        return commands.add_parser(name, parents=[common], **kwargs)

    build_parser = command("build", help="build site/ (the default)")
    build_parser.add_argument("--out", type=Path, help="output folder (default: ROOT/site)")
    for parent in (parser, build_parser):  # `build.py --drafts` and `build.py build --drafts`
        parent.add_argument("--drafts", action="store_true", default=argparse.SUPPRESS,
                            help="include the sources whose front matter says draft: true "
                                 "(marked as drafts)")
    add_serve_and_check(command)
    new_parser = command("new", help="start an article: content/SLUG/ with one "
                                                 "source per language")
    new_parser.add_argument("slug", help="lower-case letters, digits and hyphens")
    init_parser = command("init", help="start a new project in DIR: site.yaml, an example "
                                       "article in every language with a figure")
    init_parser.add_argument("folder", metavar="DIR", type=Path,
                             help="a new or empty folder")
    init_parser.add_argument("--languages", default="zh,en,ja", metavar="CODES",
                             help="the languages' codes, separated by commas "
                                  "(default: zh,en,ja)")
    init_parser.add_argument("--source", metavar="CODE",
                             help="the language translations are made from "
                                  "(default: the first of --languages)")
    from .translate import commands as translation_commands
    translation_commands.add_parser(command)
    from .figures import commands as figure_commands
    figure_commands.add_parser(command)
    return parser


def add_serve_and_check(command) -> None:
    """The `serve` and `check` commands, added with make_parser's `command(name, ...)`."""
    serve_parser = command(
        "serve", help="build, serve site/ and rebuild on every save; open pages reload")
    serve_parser.add_argument("--port", type=port_number, default=8000,
                              help="port (default 8000; 0 picks a free one)")
    serve_parser.add_argument("--host", default="127.0.0.1",
                              help="address to listen on (default 127.0.0.1, this machine "
                                   "only; 0.0.0.0 serves every interface)")
    serve_parser.add_argument("--no-drafts", action="store_true",
                              help="leave drafts out, as build does (serve shows them, "
                                   "marked as drafts)")
    serve_parser.add_argument("--build-limit", type=seconds, default=BUILD_LIMIT,
                              metavar="SECONDS",
                              help=f"end a build that runs longer (default {BUILD_LIMIT:g}; "
                                   "the last good site stays served)")
    serve_parser.add_argument("--build-memory", type=mebibytes, default=BUILD_MEMORY,
                              metavar="MIB",
                              help=f"end a build that takes more memory (default "
                                   f"{BUILD_MEMORY} MiB)")
    check_parser = command(
        "check", help="check translations, articles, bibliography, figure geometry and "
                      "text fit; exit 1 if a problem is found")
    check_parser.add_argument("--format", choices=("text", "json"), default="text")
    check_parser.add_argument("--confirm", action="append", default=[], metavar="TARGET",
                              help="an alias of `translations confirm TARGET`, then the check")
    check_parser.add_argument("--confirm-all", action="store_true",
                              help="an alias of `translations confirm --all`, then the check")
    check_parser.add_argument("--no-browser", action="store_true",
                              help="do not measure text fit in Chromium")
    check_parser.add_argument("--stretch", type=float, metavar="RATIO",
                              help="only measure the figures with every text RATIO times as "
                                   "long (1.3: 30 %% longer) and list the boxes that would "
                                   "overflow; exit 1 if one would")


def run_init(folder: Path, languages: str, source: str | None) -> int:
    from .starter import init_project, parse_languages

    codes, source = parse_languages(languages, source)
    written = init_project(folder, codes, source)
    for path in written:
        print(f"Created {path}")
    print(f"\nA new site in {', '.join(codes)} (translated from {source}). Preview it, "
          f"rebuilt on every save:\n  cd {folder}\n  articlesite serve")
    return 0


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds above 0")
    return value


def mebibytes(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) == 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of MiB above 0")
    return int(text)


def port_number(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port: give 0 to 65535")
    return int(text)


def print_problems(error: BuildError, command: str = "") -> None:
    """The problems that stopped a build (or, named, another command: it wrote nothing)."""
    count = len(error.problems)
    problems = plural(count, "problem")
    print(f"`{command}` failed: {problems}; nothing was written." if command and command
          != "build" else f"Build failed: {problems}; site/ was left as it was.",
          file=sys.stderr)
    for problem in error.problems:
        print(f"  {problem}", file=sys.stderr)


def run_build(root: Path, out: Path | None, *, clean: bool = False,
              drafts: bool = False) -> int:
    started = time.perf_counter()
    where = f" into {out or root / 'site'}"
    # Pagefind's service, started before the build is even imported when the last build
    # indexed the languages of the article sources edited since: it loads their word
    # segmenters (a second for Japanese) and reads the edited pages' shard meanwhile;
    # started once the scan has been through content/ (EarlyService).
    early = EarlyService()
    try:
        since = None if clean else since_last(
            root.resolve(), (out or root / "site").resolve(), drafts, early.content)
        if since is not None and since.nothing:   # nothing to do: from the last record
            early.close()
            held = since.record
            pages, languages, files = held["summary"]
            print(summary_line(pages, 0, files, languages, where,
                               time.perf_counter() - started) + ".")
            warnings = [Problem(*fields) for fields in held["warnings"]]
            for line in warning_lines(warnings) + held["notes"]:
                print(line, file=sys.stderr)
            return 0
        service = early.settle(since.record.get("search"), since.changed) \
            if since is not None and since.record is not None else early.close()
        from .build import build

        built = build(root, out, clean=clean, progress=ProgressLine(), drafts=drafts,
                      remember=True, since=since, started=service)
    except BuildError as error:
        print_problems(error)
        return 1
    finally:
        early.close()
    print(built.summary(where) + ".")
    for line in warning_lines(built.warnings) + built.notes:
        print(line, file=sys.stderr)
    return 0


class ProgressLine:
    """`Rendering pages: 1200/3003` on stderr, rewritten in place at most ten times a
    second once a build has run for PROGRESS_AFTER seconds; only on a terminal."""

    def __init__(self):
        self.started = time.perf_counter()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if (not sys.stderr.isatty() or now - self.started < PROGRESS_AFTER
                or (now - self.shown < 0.1 and done < total)):
            return
        self.shown = now
        print(f"\rRendering pages: {done}/{total}", end="\n" if done == total else "",
              file=sys.stderr, flush=True)


def run_check(root: Path, args: argparse.Namespace) -> int:
    from .check.report import format_json, format_text, run_checks
    from .load.sources import load_sources
    from .translate.confirming import confirm_targets

    if args.stretch is not None:
        from .check.stretch import run_stretch
        return run_stretch(root, args.stretch)
    if args.confirm or args.confirm_all:
        # The check itself changes nothing: confirming is `translations confirm`'s.
        given = "--confirm" if args.confirm else "--confirm-all"
        print(f"note: `check {given}` is an alias of `{command_name()} translations confirm"
              f"{' --all' if args.confirm_all else ''}`, then the check", file=sys.stderr)
        try:
            sources = load_sources(root, Problems(root))
        except BuildError as error:
            print_problems(error, "check")
            return 1
        for line in confirm_targets(sources, args.confirm, args.confirm_all):
            print(line, file=sys.stderr if args.format == "json" else sys.stdout)
    report = run_checks(root, browser=not args.no_browser)
    print(format_json(report) if args.format == "json" else format_text(report))
    return 1 if report.problems else 0
