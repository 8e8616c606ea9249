"""Problems found in the sources: collected, never raised one at a time."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath


def command() -> str:
    """The command that runs articlesite as the user ran it, for messages that name one:
    `python build.py` in a project that has it, else `articlesite` (cli.run sets it, and
    the processes it starts inherit it)."""
    return os.environ.get("ARTICLESITE_COMMAND", "python build.py")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the sources, located as precisely as known."""

    file: str
    line: int | None
    message: str
    key: str | None = None
    language: str | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        extra = [f"key '{self.key}'"] if self.key else []
        if self.language and ", " in self.language:
            extra.append(f"languages {self.language}")
        elif self.language:
            extra.append(f"language '{self.language}'")
        suffix = f" [{', '.join(extra)}]" if extra else ""
        return f"{where}: {self.message}{suffix}"

    def sort_key(self) -> tuple:
        """File, then line (unknown lines first), then the rest: None never meets an int."""
        return (self.file, self.line or 0, self.message, self.key or "", self.language or "")


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 page`, `2 pages`: a count with its noun (`nouns`: an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def did_you_mean(name: object, choices) -> str:
    """`did you mean 'ppo-step'? ` when a choice is close to the unknown `name` (most of
    it the same, or one letter apart), else ""."""
    name = str(name)
    for near in difflib.get_close_matches(name, sorted(map(str, choices)), n=3, cutoff=0.6):
        matcher = difflib.SequenceMatcher(None, name, near)
        edits = sum(max(i2 - i1, j2 - j1) for op, i1, i2, j1, j2 in matcher.get_opcodes()
                    if op != "equal")
        if matcher.ratio() >= 0.75 or edits <= 1:
            return f"did you mean '{near}'? "
    return ""


def hint(suggestion: str) -> str:
    """A did_you_mean at the end of a message: ` (did you mean 'x'?)`, or ""."""
    return f" ({suggestion.strip()})" if suggestion else ""


class UsageError(Exception):
    """A mistake in a command (a bad argument, a folder that exists): its message is
    shown as is, without a traceback."""


_REPEATED = re.compile(r"^(?:formula \$.*|(file '[^']*' not found: no \S+)(?: \(nor \S+\))?)$",
                       re.DOTALL)


def _repeated(problem) -> tuple[str, str, str] | None:
    """What a problem that each language of an article may repeat is grouped by: its
    article's folder, its message without what differs per language, and what it is."""
    match = _REPEATED.match(problem.message)
    if not match or not problem.language:
        return None
    folder = str(PurePosixPath(problem.file).parent)
    if match.group(1):   # a missing file: each language also looked for its own variant
        return folder, match.group(1), "file"
    return folder, problem.message, "formula"


def merge_repeated(problems: list) -> list:
    """The same formula refused, or the same file missing, in several languages of an
    article: one problem, at its first file and line, naming the others and every
    language."""
    groups: dict[tuple, list] = {}
    for problem in sorted(set(problems), key=Problem.sort_key):
        key = _repeated(problem)
        if key is not None:
            groups.setdefault(key, []).append(problem)
    merged = [p for p in problems if _repeated(p) is None]
    for (_, message, what), same in groups.items():
        first = same[0]
        if len(same) > 1:
            also = ", ".join(f"{PurePosixPath(p.file).name}:{p.line}" for p in same[1:])
            first = replace(first, message=f"{message} (the same {what} in {also})",
                            language=", ".join(dict.fromkeys(p.language for p in same)))
        merged.append(first)
    return merged


class BuildError(Exception):
    """Raised once, at the end of a stage, with every problem found so far."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(merge_repeated(problems)), key=Problem.sort_key)
        super().__init__("\n".join(str(p) for p in self.problems))


class Interrupted(Exception):
    """A build given up because its `interrupt` said so (serve: a newer save waits). The
    pages it put in place stay; its search index and its cache are not kept."""


class Problems(list):
    """A list of problems with a helper to add one and to stop if any exist."""

    def __init__(self, root: Path):
        super().__init__()
        self.root = root

    def add(self, path: Path | str, line: int | None, message: str,
            key: str | None = None, language: str | None = None) -> None:
        # A key or language read from a source may be any YAML value: keep it as text.
        self.append(Problem(self.relative(path), line, message,
                            None if key is None else str(key),
                            None if language is None else str(language)))

    def relative(self, path: Path | str) -> str:
        """The path from the project's root; a symbolic link is named, not its target."""
        path = Path(path)
        try:
            return (path.parent.resolve() / path.name).relative_to(
                self.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def raise_if_any(self) -> None:
        if self:
            raise BuildError(list(self))


@dataclass(frozen=True)
class Finding(Problem):
    """A problem found by `python build.py check`: which check found it, how serious it
    is, and for figures the element and the overflow in px."""

    check: str = "build"
    warning: bool = False
    figure: str | None = None
    element: str | None = None
    overflow: float | None = None


class Findings(Problems):
    """Problems of `check`: `add` takes the check's name and the figure's details."""

    def add(self, path: Path | str, line: int | None, message: str,  # type: ignore[override]
            key: str | None = None, language: str | None = None, *, check: str = "build",
            warning: bool = False, figure: str | None = None, element: str | None = None,
            overflow: float | None = None) -> None:
        self.append(Finding(self.relative(path), line, message, key, language, check,
                            warning, figure, element, overflow))


# At most this many warnings are printed after a build's summary line.
WARNINGS_SHOWN = 10


# How a warning about a file left out of the site begins (build.publish_files).
LEFT_OUT = "not published: "


def warning_lines(warnings: list[Problem]) -> list[str]:
    """A build's warnings as printed after its summary: the files it left out of the site
    (an HTML or SVG file beside an article), then what readers will see as literal
    markup, though the build went on (`check` lists them all, under markup)."""
    left_out = [warning for warning in warnings if warning.message.startswith(LEFT_OUT)]
    lines = [f"  {warning}" for warning in left_out]
    if left_out:
        lines.insert(0, f"{len(left_out)} file{'s' if len(left_out) != 1 else ''} left out "
                        "of the site:")
    warnings = [warning for warning in warnings if warning not in left_out]
    if not warnings:
        return lines
    count = len(warnings)
    lines += [f"{count} warning{'s' if count != 1 else ''}: readers will see this as text"]
    lines += [f"  {warning}" for warning in warnings[:WARNINGS_SHOWN]]
    if count > WARNINGS_SHOWN:
        lines.append(f"  … and {count - WARNINGS_SHOWN} more: `{command()} check` "
                     "lists them all")
    return lines
