"""`python build.py check`: everything a build would stop on, and what it would not:
images and links, literal markup a reader would see, translations, article parity,
bibliography, figure geometry and text fit.

Findings are problems (exit 1) or warnings (reported, exit 0). Warnings are what is not
certainly a mistake: bibliography entries marked unconfirmed (published, marked as
awaiting the author, until the author confirms them), translations never confirmed, a
figure text that could be read two ways (check/readings.py).
"""

from __future__ import annotations

import contextlib
import functools
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..load.content import Source
from ..load.sourcefiles import text_of
from ..load.sources import Sources, load_sources
from ..pages import Body
from ..problems import BuildError, Finding, Findings, command, merge_repeated, plural
from ..render.templates import renderer_for
from ..scaffold import placeholder_lines
from ..translate.progress import check_fallbacks
from ..translate.record import check_translations
from ..translate.section_checks import check_sections
from ..translate.view import figure_links, view_copies
from ..translate.view import translator_view as view_files
from .bibliography import check_bibliography
from .bodies import check_bodies
from .fit import BrowserUnavailable, browser_required, check_fit, chromium_path
from .geometry import check_crossings, check_geometry
from .parity import check_parity
from .readings import check_readings
from .stage import check_sources, numbering_notes
from .templates import check_templates

if TYPE_CHECKING:
    from ..render.templates import Renderer

SHOWN = 20  # findings of one check listed in the human report
CHECKS = ("build", "links", "markup", "translations", "parity", "bibliography", "geometry",
          "fit")


@dataclass
class Report:
    findings: list[Finding]
    checked: str = ""                               # what was checked, one line
    notes: list[str] = field(default_factory=list)  # what was not checked, and why
    crossings: int = 0                              # edges crossing, in every figure

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if not f.warning]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.warning]


def run_checks(root: Path, browser: bool = True) -> Report:
    root = root.resolve()
    findings = Findings(root)
    try:
        sources = load_sources(root, findings, drafts=True)
    except BuildError:
        note = ("Nothing else was checked: the site configuration, the dictionary or the "
                "interface strings cannot be used.")
        return Report(ordered(findings), notes=[note])
    # The check stage of a build, then each body rendered once and the templates, for the
    # problems that stop a build; no page is written, nor each rendered.
    parsed: dict[str, list] = {}
    renderer = renderer_for(sources, findings, keep=len(sources.figures), parsed=parsed)
    outlines = check_sources(sources.site, renderer.figures, sources.articles, sources.memo,
                             findings, functools.partial(findings.add, check="markup"),
                             parsed)
    numbering = numbering_notes(sources.site, sources.articles, outlines, findings)
    for article in sources.articles:
        for source in article.sources.values():
            if source.digest in outlines:   # read as it was when loaded
                check_placeholder(source, findings)
    bodies = check_bodies(renderer, sources, outlines, findings)
    templates = check_templates(renderer, sources, bodies)
    figures = renderer.figures.every()
    check_translations(sources, figures, findings)
    check_readings(sources.dictionary, findings)
    check_sections(sources, findings)
    check_fallbacks(sources, findings)
    for article in sources.articles:
        if not all(source.digest in outlines for source in article.sources.values()):
            continue   # a source changed since it was read: reported
        of_article = {code: outlines[source.digest] for code, source in
                      article.sources.items()}
        check_parity(article, of_article, sources.site.source_language, findings)
        check_bibliography(article, of_article, findings)
    crossed = 0
    for figure in figures.values():
        check_geometry(figure, findings)
        crossed += check_crossings(figure, findings)
    report = Report([], f"{plural(len(sources.articles), 'article')} in "
                        f"{plural(len(sources.site.codes), 'language')}, "
                        f"{plural(len(sources.figures), 'figure')}, "
                        f"{plural(len(sources.dictionary.texts), 'dictionary key')}; "
                        f"{templates}")
    report.crossings = crossed
    if not browser:
        report.notes.append("Text fit was not measured (--no-browser).")
    else:
        try:
            view = translator_view(renderer, sources, bodies)
            report.checked += "; " + check_fit(figures, view, findings)
        except BrowserUnavailable as exc:
            if browser_required():
                findings.add(chromium_path(), None, f"text fit cannot be measured: {exc}; "
                             "ARTICLESITE_REQUIRE_BROWSER=1 makes that an error",
                             check="fit")
            else:
                report.notes.append(f"Text fit was not measured: {exc}.")
    report.notes += numbering
    report.findings = ordered(findings)
    return report


def translator_view(renderer: Renderer, sources: Sources,
                    bodies: dict[tuple[str, str], Body]) -> dict[str, str]:
    """The translator's view's files by path (text fit measures its figures, all of them
    opened), linking to the figures the article bodies place."""
    links = figure_links(sources.articles, {f"{language}/{slug}.html": body.figures
                                            for (slug, language), body in bodies.items()})
    copies = view_copies(renderer, list(sources.figures), {})
    return {path: "".join(chunks)
            for path, chunks in view_files(renderer, sources, links, copies).items()}


def check_placeholder(source: Source, findings: Findings) -> None:
    """The placeholder text of `new` still in a source (the rest a reader would see as
    literal markup: outlines.literal_markup; what stops the build: the build check)."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in placeholder_lines(text_of(source.path.read_bytes())):
            findings.add(source.path, line, f"the placeholder text of `{command()} new` "
                         "is still there: replace it with the article's own",
                         language=source.language, check="markup")


def ordered(findings: Findings) -> list[Finding]:
    """Each finding once, by check, then file and line."""
    return sorted(set(merge_repeated(list(findings))),
                  key=lambda f: (CHECKS.index(f.check), f.sort_key()))


def format_text(report: Report) -> str:
    lines = [f"Checked {report.checked}." if report.checked else "Check stopped early."]
    lines += report.notes
    for check in CHECKS:
        found = [f for f in report.problems if f.check == check]
        if found:
            what = " (the build stops on these)" if check == "build" else ""
            lines.append(f"\n{check}: {plural(len(found), 'problem')}{what}")
            lines += [f"  {f}" for f in found[:SHOWN]]
            if len(found) > SHOWN:
                lines.append(f"  … and {len(found) - SHOWN} more: `check --format json` "
                             "lists them all, site/translations.html shows translations")
    if report.warnings:
        lines.append("\nwarnings (they do not fail the check):")
        lines += [f"  {f}" for f in report.warnings]
    tail = f", {plural(len(report.warnings), 'warning')}" if report.warnings else ""
    lines.append(f"\n{plural(len(report.problems), 'problem')}{tail}." if report.problems
                 else f"\nClean: no problems{tail}.")
    return "\n".join(lines)


def format_json(report: Report) -> str:
    findings = []
    for finding in report.findings:
        entry = asdict(finding)
        entry["severity"] = "warning" if entry.pop("warning") else "problem"
        entry["overflow_px"] = entry.pop("overflow")
        findings.append(entry)
    return json.dumps({"ok": not report.problems, "problems": len(report.problems),
                       "warnings": len(report.warnings), "crossings": report.crossings,
                       "checked": report.checked,
                       "notes": report.notes, "findings": findings},
                      ensure_ascii=False, indent=2)
