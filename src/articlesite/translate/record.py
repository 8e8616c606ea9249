"""The state of every translation: missing, untranslated, stale or ok.

Beside the dictionary, `figures/figure-texts.confirmed.json` records, for each key and
each language other than the source language, the source-language text a translation was
last confirmed against and the translation confirmed:
`{key: {language: {"source": …, "text": …}}}`. A translation is stale when the source
text has changed since; a translation identical to the source text is untranslated
unless exactly that text was confirmed. `python build.py translations confirm KEY[:LANG]`
and `--all` write the record (and the translator's view's editor in serve); nothing else
does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..load.confirmed import Confirmation, Record, load_record, record_path
from ..load.texts import Dictionary
from ..problems import Findings, UsageError, command, did_you_mean, hint

if TYPE_CHECKING:
    from ..load.figures import Figure
    from ..load.sources import Sources

__all__ = ["Confirmation", "Record", "load_record", "record_path"]  # kept here for callers


OK, MISSING, UNTRANSLATED, STALE = "ok", "missing", "untranslated", "stale"
# The same in every language on purpose: the dictionary's `"*"` text (load/texts.py)
SAME = "same"
SETTLED = (OK, SAME)   # nothing for a translator to do


def write_record(path: Path, record: Record, dictionary: Dictionary, codes: list[str]) -> None:
    """Write the record in the dictionary's key order, one confirmation a line, for
    small, readable diffs."""
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    entries = []
    for key in (k for k in dictionary.texts if record.get(k)):
        lines = [f"    {dump(code)}: {dump(record[key][code]._asdict())}"
                 for code in codes if code in record[key]]
        entries.append(f"  {dump(key)}: {{\n" + ",\n".join(lines) + "\n  }")
    path.write_text("{\n" + ",\n".join(entries) + "\n}\n", encoding="utf-8")


@dataclass(frozen=True)
class Status:
    state: str                    # OK, SAME, MISSING, UNTRANSLATED or STALE
    confirmed: str | None = None  # for STALE: the source text last confirmed against


def status(sources: Sources, key: str, language: str) -> Status:
    texts = sources.dictionary.texts.get(key, {})
    text, source = texts.get(language), texts.get(sources.site.source_language)
    if not text or not text.strip() or (key, language) in sources.dictionary.fallbacks:
        return Status(MISSING)
    if (key, language) in sources.dictionary.same:
        return Status(SAME)
    if language == sources.site.source_language or not source or not source.strip():
        return Status(OK)
    confirmed = sources.confirmed.get(key, {}).get(language)
    if text.strip() == source.strip():
        return Status(OK if confirmed == (source, text) else UNTRANSLATED)
    if confirmed is None or confirmed.source != source:
        return Status(STALE, confirmed.source if confirmed else None)
    return Status(OK)


def check_translations(sources: Sources, figures: dict[str, Figure],
                       findings: Findings) -> None:
    """Untranslated, stale and unused keys (`figures`: every spec that loads). Missing
    texts and keys are load problems."""
    dictionary, source = sources.dictionary, sources.site.source_language
    used = {key for figure in figures.values() for key, _, _ in figure.used_keys()}
    for key in dictionary.texts:
        line = dictionary.lines.get(key)
        if key not in used:
            findings.add(dictionary.path, line, "no figure uses this key", key=key,
                         check="translations")
        for language in sources.site.codes:
            found = status(sources, key, language)
            confirm = f"{command()} translations confirm {key}:{language}"
            if found.state == UNTRANSLATED:
                message = (f"the {language} text is the same as the {source} text: not "
                           f"translated yet? If it is meant to be the same: {confirm} (or, "
                           f"the same in every language, write it once: \"{key}\": "
                           "{\"*\": …})")
            elif found.state == STALE and found.confirmed is None:
                message = (f"the {language} translation was never confirmed against the "
                           f"{source} text; check it, then: {confirm}")
            elif found.state == STALE:
                message = (f"stale: the {source} text changed after the {language} "
                           f"translation was confirmed (it was {found.confirmed!r}); "
                           f"update the translation, then: {confirm}")
            else:
                continue
            findings.add(dictionary.path, line, message, key=key, language=language,
                         check="translations")


def confirm(sources: Sources, targets: list[str], everything: bool) -> list[str]:
    """Record the named translations as right for the current source text; return what
    was done.

    `KEY` confirms every language of a key, `KEY:LANG` one; both confirm a text identical
    to the source's, as a deliberate choice. `everything` confirms every translation
    except those identical to the source text, which must be named (a text the same in
    every language on purpose, the dictionary's `"*"`, needs no confirmation).
    """
    dictionary, codes = sources.dictionary, sources.site.codes
    source = sources.site.source_language
    others = [code for code in codes if code != source]
    chosen: list[tuple[str, str]] = []
    slugs = [article.slug for article in sources.articles]
    for target in targets:
        key, _, language = target.partition(":")
        if key not in dictionary.texts:
            raise UsageError(f"cannot confirm {target}: '{key}' is not a key of "
                             f"{dictionary.path.name} nor an article"
                             f"{hint(did_you_mean(key, [*dictionary.texts, *slugs]))}")
        if language and language not in others:
            raise UsageError(f"cannot confirm {target}: '{language}' is not a language to "
                             f"confirm ({did_you_mean(language, others)}the source language "
                             f"is {source}; others: "
                             f"{', '.join(others)})")
        for code in [language] if language else others:
            if status(sources, key, code).state == MISSING:
                raise UsageError(f"cannot confirm {target}: the {code} translation is missing "
                                 "or empty; write it first")
            chosen.append((key, code))
    skipped = []
    if everything:
        for key in dictionary.texts:
            for code in others:
                state = status(sources, key, code).state
                if state == STALE:
                    chosen.append((key, code))
                elif state == UNTRANSLATED and (key, code) not in chosen:
                    skipped.append(f"{key}:{code}")
    record = {key: dict(entry) for key, entry in sources.confirmed.items()
              if key in dictionary.texts}
    for key, code in chosen:
        record.setdefault(key, {})[code] = Confirmation(dictionary.texts[key][source],
                                                        dictionary.texts[key][code])
    path = record_path(dictionary)
    write_record(path, record, dictionary, codes)
    count = len(set(chosen))
    done = [f"Confirmed {count} translation{'s' if count != 1 else ''} in {path.name}."]
    if chosen and everything:
        done.append(f"  {listed(chosen)}")
    if skipped:
        done.append(f"Not confirmed, identical to the {source} text (name each one if it "
                    "is meant to be the same, or write it once under \"*\" in the "
                    f"dictionary: the same in every language): {', '.join(skipped)}")
    return done


def listed(chosen: list[tuple[str, str]]) -> str:
    """`act (ja, zh), step (ja)`: the keys confirmed, each with its languages."""
    languages: dict[str, list[str]] = {}
    for key, code in chosen:
        if code not in languages.setdefault(key, []):
            languages[key].append(code)
    return ", ".join(f"{key} ({', '.join(codes)})" for key, codes in languages.items())
