"""Article parity: every language of an article has the same structure as the source.

Compared with the source language's version (or the first language the article exists
in): the section ids in order; and in each section the figures in order, the number of
display formulas and the set of citations.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ..load.content import Article
from ..problems import Findings, plural
from ..render.markdown import Outline


def _by_section(items: list[tuple]) -> dict[str | None, list[str]]:
    """Group (value, line, section) or (line, section) tuples by section."""
    grouped: dict[str | None, list[str]] = defaultdict(list)
    for item in items:
        grouped[item[-1]].append(item[0])
    return grouped


def _names(values) -> str:
    return ", ".join(f"'{v}'" for v in values) or "none"


def check_parity(article: Article, outlines: dict[str, Outline], source_language: str,
                 findings: Findings) -> None:
    base = source_language if source_language in outlines else next(iter(outlines))
    for language, found in outlines.items():
        if language != base:
            _compare(article.sources[language].path, language, found, base, outlines[base],
                     findings)


def _compare(path: Path, language: str, found: Outline, base: str, expected: Outline,
             findings: Findings) -> None:
    def add(line: int | None, message: str, key: str | None = None) -> None:
        findings.add(path, line, message, key=key, language=language, check="parity")

    expected_ids = [h.id for h in expected.sections]
    ids = [h.id for h in found.sections]
    lines = {h.id: h.line for h in found.sections}
    if ids != expected_ids:
        missing = [i for i in expected_ids if i not in ids]
        extra = [i for i in ids if i not in expected_ids]
        position = next((i for i, (a, b) in enumerate(zip(ids, expected_ids)) if a != b),
                        min(len(ids), len(expected_ids)))
        at = ids[min(position, len(ids) - 1)] if ids else None
        if missing or extra:
            message = (f"sections differ from {base}: missing {_names(missing)}, "
                       f"extra {_names(extra)}")
        else:
            message = f"sections are not in the order of {base}: {_names(expected_ids)}"
        add(lines.get(at), message, (missing + extra or [at])[0])
    figures, formulas = _by_section(found.figures), _by_section(found.display_math)
    expected_figures = _by_section(expected.figures)
    expected_formulas = _by_section(expected.display_math)
    cited, expected_cited = _by_section(found.citations), _by_section(expected.citations)
    for section in [i for i in expected_ids if i in ids] + [None]:
        line = lines.get(section)
        where = f"section '{section}'" if section else "the text before the first section"
        if figures[section] != expected_figures[section]:
            add(line, f"{where} shows figures {_names(figures[section])}, in {base} "
                f"{_names(expected_figures[section])}", section)
        if len(formulas[section]) != len(expected_formulas[section]):
            add(line, f"{where} has {plural(len(formulas[section]), 'display formula')}, in {base} "
                f"{len(expected_formulas[section])}", section)
        missing = sorted(set(expected_cited[section]) - set(cited[section]))
        extra = sorted(set(cited[section]) - set(expected_cited[section]))
        if missing or extra:
            add(line, f"{where} cites differently from {base}: missing "
                f"{_names('@' + m for m in missing)}, extra {_names('@' + e for e in extra)}",
                section)
