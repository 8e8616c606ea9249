"""What `check` and `translations confirm` do with article sections (see sections.py): report
the stale ones, and record confirmations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..load.sections import STALE, write_record
from ..problems import Findings, UsageError, command, did_you_mean, hint, plural

if TYPE_CHECKING:
    from ..load.sources import Sources


def check_sections(sources: Sources, findings: Findings) -> None:
    """Stale translated sections (problems) and translations never confirmed section by
    section (a warning per article and language)."""
    states = sources.sections
    for slug, article in states.articles.items():
        base = states.source_language(slug)
        for code, source in article.sources.items():
            if code == base:
                continue
            confirm = f"{command()} translations confirm {slug}:{code}"
            if code not in sources.section_records.get(slug, {}):
                count = len(states.sections(slug, code))
                if not count:   # no '##' heading: no section to confirm
                    continue
                findings.add(source.path, None, f"the {plural(count, 'section')} of this "
                             f"translation were never confirmed against the {base} text section by "
                             f"section; once checked: {confirm}", language=code,
                             check="translations", warning=True)
                continue
            for section in states.sections(slug, code):
                if states.state(slug, code, section.id) == STALE:
                    findings.add(source.path, section.line, f"stale: section "
                                 f"'{section.id}' changed in {base} after this {code} "
                                 "translation was confirmed; update it, then: "
                                 f"{command()} translations confirm {slug}#{section.id}:{code}",
                                 key=section.id, language=code, check="translations")


def is_article_target(sources: Sources, target: str) -> bool:
    name = target.partition(":")[0]
    slug = name.partition("#")[0]
    return "#" in name or (slug in sources.sections.articles
                           and name not in sources.dictionary.texts)


def confirm_sections(sources: Sources, targets: list[str], everything: bool) -> list[str]:
    """Record the named translated sections (`SLUG`, `SLUG#SECTION`, either with `:LANG`)
    as confirmed against the current source sections; `everything`: every translated
    section of every article. Return what was done."""
    states = sources.sections
    chosen: dict[str, dict[str, set[str]]] = {}   # slug -> language -> section ids
    for target in targets:
        name, _, language = target.partition(":")
        slug, _, section_id = name.partition("#")
        article = states.articles.get(slug)
        if article is None:
            raise UsageError(f"cannot confirm {target}: '{slug}' is not an article "
                             f"({did_you_mean(slug, states.articles)}articles: "
                             f"{', '.join(states.articles)})")
        base = states.source_language(slug)
        others = [code for code in article.sources if code != base]
        if language and language not in others:
            raise UsageError(f"cannot confirm {target}: '{language}' is not a translation of "
                             f"{slug} ({did_you_mean(language, others)}source language "
                             f"{base}; translations: "
                             f"{', '.join(others) or 'none'})")
        for code in [language] if language else others:
            ids = {s.id for s in states.sections(slug, code)}
            if section_id and section_id not in ids:
                raise UsageError(f"cannot confirm {target}: the {code} version of {slug} has no "
                                 f"section '{section_id}'{hint(did_you_mean(section_id, ids))}")
            chosen.setdefault(slug, {}).setdefault(code, set()).update(
                [section_id] if section_id else ids)
    if everything:
        for slug, article in states.articles.items():
            base = states.source_language(slug)
            for code in article.sources:
                if code != base:
                    chosen.setdefault(slug, {}).setdefault(code, set()).update(
                        s.id for s in states.sections(slug, code))
    done = []
    for slug, languages in chosen.items():
        article = states.articles[slug]
        current = {s.id: s.digest for s in states.sections(slug, states.source_language(slug))}
        record = {code: dict(entry) for code, entry in
                  sources.section_records.get(slug, {}).items()}
        count = 0
        for code, ids in languages.items():
            entry = record.setdefault(code, {})
            for section in states.sections(slug, code):   # the article's order
                if section.id in ids and section.id in current:
                    if entry.get(section.id) != current[section.id]:
                        count += 1
                    entry[section.id] = current[section.id]
            record[code] = {s.id: entry[s.id] for s in states.sections(slug, code)
                            if s.id in entry}
        path = write_record(article, record, sources.site.codes)
        done.append(f"Confirmed {count} section{'s' if count != 1 else ''} of {slug} in "
                    f"{path.parent.name}/{path.name}.")
    return done
