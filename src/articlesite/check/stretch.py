"""`python build.py check --stretch 1.3`: would the figures still fit if every text were
30 % longer? The pseudo-translation localization teams test a layout with before the
translations exist: each line of every figure text, in every language, is lengthened by
repeating its own characters (so that its script, and so its width per character, stays
the same), then every figure is measured in Chromium as `check` measures text fit
(check/fit.py, the translator's view's measure.js). The boxes that would overflow are
listed with their languages; exit 1 when there is one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from ..load.sources import load_sources
from ..load.texts import Dictionary
from ..problems import BuildError, Findings
from ..render.templates import renderer_for
from .fit import KINDS, BrowserUnavailable, check_fit
from .report import translator_view

MARKUP = set("_^{}\\`")   # repeated, these would start a subscript, code or an escape


def stretched(text: str, ratio: float) -> str:
    """Each line of `text` lengthened to `ratio` times its length, by repeating its own
    characters (markup left out of what is repeated)."""
    def longer(line: str) -> str:
        filler = "".join(c for c in line if c not in MARKUP) or "x"
        extra = math.ceil(len(line) * (ratio - 1)) if line else 0
        return line + (filler * (extra // len(filler) + 1))[:extra]
    return "\n".join(longer(line) for line in text.split("\n"))


def stretched_dictionary(dictionary: Dictionary, ratio: float) -> Dictionary:
    return replace(dictionary, texts={
        key: {code: stretched(text, ratio) for code, text in texts.items()}
        for key, texts in dictionary.texts.items()})


@dataclass(frozen=True)
class Overflow:
    """A box that would overflow, in the languages named, by at most `px`."""

    where: str        # file:line
    figure: str
    element: str
    languages: tuple[str, ...]
    px: float

    def __str__(self) -> str:
        kind, _, name = self.element.partition(" ")
        return (f"{self.where}: figure '{self.figure}', {KINDS.get(kind, kind)} '{name}': "
                f"would overflow by "
                f"up to {self.px:g} px in {', '.join(self.languages)}")


def stretch_check(root: Path, ratio: float) -> tuple[list[Overflow], str]:
    """The boxes that would overflow with every text `ratio` times as long, and what was
    measured. Raises BuildError (the sources have problems) or BrowserUnavailable."""
    problems = Findings(root)
    sources = load_sources(root, problems, drafts=True)
    renderer = renderer_for(sources, problems, keep=len(sources.figures))
    figures = renderer.figures.every()
    of_figures = [p for p in problems if p.file.startswith("figures/")]
    if of_figures:   # the rest (articles, templates) does not change what is measured
        raise BuildError(of_figures)
    longer = replace(sources, dictionary=stretched_dictionary(sources.dictionary, ratio))
    found = Findings(root)
    measured = check_fit(figures, translator_view(renderer, longer, {}), found,
                         breaks=False)
    boxes: dict[tuple, list] = {}
    for finding in found:
        where = finding.file if finding.line is None else f"{finding.file}:{finding.line}"
        boxes.setdefault((where, finding.figure, finding.element), []).append(finding)
    overflows = [Overflow(where, figure, element,
                          tuple(dict.fromkeys(f.language for f in same)),
                          max(f.overflow or 0.0 for f in same))
                 for (where, figure, element), same in boxes.items()]
    return sorted(overflows, key=lambda o: (o.figure, o.where)), measured


def run_stretch(root: Path, ratio: float) -> int:
    if not 1 <= ratio <= 3:
        print("error: --stretch takes a ratio from 1 to 3 (1.3: every text 30 % longer)")
        return 2
    try:
        overflows, measured = stretch_check(root, ratio)   # BuildError: cli.py prints it
    except BrowserUnavailable as exc:
        print(f"error: --stretch measures in Chromium, which is not available: {exc}")
        return 2
    longer = f"every figure text {round((ratio - 1) * 100):g} % longer"
    print(f"Checked with {longer}: {measured}.")
    for overflow in overflows:
        print(f"  {overflow}")
    if overflows:
        count = len(overflows)
        print(f"\n{count} box{'es' * (count > 1)} would overflow with {longer}.")
        return 1
    print(f"\nEvery box would still fit with {longer}.")
    return 0
