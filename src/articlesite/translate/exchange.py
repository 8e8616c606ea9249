"""Exchange with translation tools: the dictionary as gettext PO or XLIFF 2.0 files, one
per language, and those files merged back.

Each dictionary key is one entry: the key as its context (PO `msgctxt`, XLIFF unit
`id`), the source language's text, the current translation, where the key is used
(figure spec and line, as PO references / an XLIFF note) and the box its text must fit,
as a comment for the translator (PO `#.`, XLIFF `<note category="box">`). A stale
translation is `fuzzy` in PO (with the source text it was confirmed against as the
previous msgid) and `state="translated"` in XLIFF; a confirmed one has no flag /
`state="final"`; an untranslated or missing one is exported empty (`state="initial"`).

PO goes through polib. XLIFF 2.0 is read with the standard library's SAX parser (for
line numbers) and written with ElementTree: translate-toolkit, the other library for
these formats, reads and writes XLIFF 1.2 only.
"""

from __future__ import annotations

import re
import xml.sax
import xml.sax.handler
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree import ElementTree

import polib

from ..load.figures import FigureLibrary
from ..load.texts import value_problem
from ..problems import Problems, UsageError, command, did_you_mean
from .dictionary_file import edit_text, write_atomically
from .record import MISSING, OK, SAME, STALE, Confirmation, record_path, status, write_record

if TYPE_CHECKING:
    from ..load.figures import Figure
    from ..load.sources import Sources

FORMATS = {"po": ".po", "xliff": ".xlf"}
XLIFF = "urn:oasis:names:tc:xliff:document:2.0"


@dataclass
class Use:
    file: str           # the figure spec, relative to the project
    line: int | None
    element: str        # "node actor", "label prep", "title"
    box: str            # "140 × 62 px", or what fits instead


@dataclass
class Unit:
    """One key in one language, as exported."""

    key: str
    source: str
    text: str                  # "" when untranslated or missing
    state: str                 # translations.OK, STALE, UNTRANSLATED or MISSING
    confirmed: str | None      # for STALE: the source text last confirmed against
    uses: list[Use] = field(default_factory=list)

    def comment(self) -> str:
        if not self.uses:
            return "No figure uses this key."
        return "\n".join(f"{use.element} in {Path(use.file).stem}: {use.box}"
                         for use in self.uses)


@dataclass
class Incoming:
    """One entry of an imported file."""

    file: Path
    line: int | None
    language: str
    key: str
    source: str
    text: str
    reviewed: bool   # not fuzzy (PO) / state reviewed or final (XLIFF)


def _boxes(figure: Figure) -> dict[tuple[str, str], str]:
    boxes = {(figure.title, "title"): "the figure's heading, wraps at the page's width",
             (figure.caption, "caption"): "the figure's caption, wraps at the page's width"}
    for node in figure.nodes:
        size = f"box {node.w:g} × {node.h:g} px"
        boxes[(node.text, f"node {node.id}")] = size
        if node.sub:
            boxes[(node.sub, f"node {node.id} subtitle")] = f"{size}, under the node's text"
    for label in figure.labels:
        boxes[(label.text, f"label {label.text}")] = f"one line, {label.w:g} px wide"
    return boxes


def units(sources: Sources, language: str, problems: Problems) -> list[Unit]:
    """Every dictionary key for `language`, in the dictionary's order."""
    library = FigureLibrary(sources.figures, sources.dictionary, problems, keep=0)
    uses: dict[str, list[Use]] = {}
    for figure in library.every().values():
        boxes = _boxes(figure)
        for key, element, line in figure.used_keys():
            uses.setdefault(key, []).append(Use(
                problems.relative(figure.path), line, element,
                boxes.get((key, element), "")))
    source_code = sources.site.source_language
    found = []
    for key, texts in sources.dictionary.texts.items():
        state = status(sources, key, language).state
        confirmed = sources.confirmed.get(key, {}).get(language)
        found.append(Unit(key, texts.get(source_code, ""),
                          texts.get(language, "") if state in (OK, SAME, STALE) else "", state,
                          confirmed.source if confirmed else None, uses.get(key, [])))
    return found


def target_languages(sources: Sources, wanted: str | None) -> list[str]:
    source = sources.site.source_language
    others = [code for code in sources.site.codes if code != source]
    if wanted is None:
        return others
    if wanted not in others:
        raise UsageError(f"--language {wanted}: not a language to translate into "
                         f"({did_you_mean(wanted, others)}the source language is {source}; "
                         f"others: {', '.join(others)})")
    return [wanted]


def export(sources: Sources, fmt: str, languages: list[str], out: Path,
           problems: Problems) -> list[Path]:
    """Write one file per language into `out`; their paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    stem = sources.dictionary.path.stem
    for code in languages:
        path = out / f"{stem}.{code}{FORMATS[fmt]}"
        found = units(sources, code, problems)
        text = (po_text(sources, code, found) if fmt == "po"
                else xliff_text(sources, code, found))
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


# PO ------------------------------------------------------------------------------------

def po_text(sources: Sources, code: str, found: list[Unit]) -> str:
    site = sources.site
    po = polib.POFile(wrapwidth=0)   # no wrapping: a CJK text has no spaces to wrap at
    po.metadata = {
        "Project-Id-Version": sources.dictionary.path.stem,
        "Language": code,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": site.source_language,
    }
    po.header = (f"The figure texts of {sources.dictionary.path.name} in {code}, from "
                 f"{site.source_language}. Merge back: {command()} translations import "
                 "FILE")
    for unit in found:
        entry = polib.POEntry(msgctxt=unit.key, msgid=unit.source, msgstr=unit.text,
                              comment=unit.comment(),
                              occurrences=[(use.file, str(use.line or ""))
                                           for use in unit.uses])
        if unit.state == STALE:
            entry.flags.append("fuzzy")
            if unit.confirmed is not None:
                entry.previous_msgid = unit.confirmed
        po.append(entry)
    return str(po) + "\n"


def read_po(path: Path, sources: Sources, problems: Problems) -> list[Incoming]:
    try:
        po = polib.pofile(str(path), encoding="utf-8")
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        line = re.search(r"line (\d+)", str(exc))
        problems.add(path, int(line.group(1)) if line else None,
                     f"not a PO file polib can read: {exc}")
        return []
    language = _language(sources, po.metadata.get("Language", ""), path, 1, problems)
    if language is None:
        return []
    found = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgctxt is None:
            problems.add(path, entry.linenum, "the entry has no msgctxt: it must be the "
                         "dictionary key", language=language)
            continue
        if entry.msgid_plural:
            problems.add(path, entry.linenum, "plural forms are not used by the "
                         "dictionary", key=entry.msgctxt, language=language)
            continue
        found.append(Incoming(path, entry.linenum, language, entry.msgctxt, entry.msgid,
                              entry.msgstr, "fuzzy" not in entry.flags))
    return found


def _language(sources: Sources, name: str, path: Path, line: int | None,
              problems: Problems) -> str | None:
    """The language code a file names (a code, or an HTML lang such as zh-CN / zh_CN)."""
    wanted = name.strip().replace("_", "-").lower()
    for language in sources.site.languages:
        if wanted in (language.code, language.lang.lower()):
            if language.code == sources.site.source_language:
                problems.add(path, line, f"the file is in the source language "
                             f"({language.code}): only translations are imported",
                             language=language.code)
                return None
            return language.code
    problems.add(path, line, f"the file's language {name!r} is none of the site's "
                 f"({', '.join(sources.site.codes)})")
    return None


# XLIFF 2.0 -----------------------------------------------------------------------------

XLIFF_STATES = {OK: "final", SAME: "final", STALE: "translated"}


def xliff_text(sources: Sources, code: str, found: list[Unit]) -> str:
    site = sources.site
    ElementTree.register_namespace("", XLIFF)

    def element(parent, tag: str, text: str | None = None, **attributes):
        child = ElementTree.SubElement(parent, f"{{{XLIFF}}}{tag}", attributes)
        child.text = text
        return child

    root = ElementTree.Element(f"{{{XLIFF}}}xliff", {
        "version": "2.0", "srcLang": site.language(site.source_language).lang,
        "trgLang": site.language(code).lang})
    file = element(root, "file", id=sources.dictionary.path.stem)
    for unit in found:
        node = element(file, "unit", id=unit.key)
        notes = element(node, "notes")
        for use in unit.uses:
            element(notes, "note", f"{use.file}:{use.line or ''} ({use.element})",
                    category="location")
        element(notes, "note", unit.comment(), category="box")
        if unit.state == STALE and unit.confirmed is not None:
            element(notes, "note", unit.confirmed, category="confirmed-source")
        segment = element(node, "segment", state=XLIFF_STATES.get(unit.state, "initial"))
        element(segment, "source", unit.source)
        if unit.text:
            element(segment, "target", unit.text)
    ElementTree.indent(root, space="  ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(root, encoding="unicode") + "\n")


class _XliffReader(xml.sax.handler.ContentHandler):
    """Collects units: id, line, source, target and state, concatenated over segments."""

    def __init__(self, path: Path, problems: Problems):
        super().__init__()
        self.path, self.problems = path, problems
        self.locator = None
        self.target_language = None
        self.version = None
        self.units: list[dict] = []
        self.text: list[str] | None = None
        self.stack: list[str] = []

    def setDocumentLocator(self, locator) -> None:
        self.locator = locator

    def line(self) -> int | None:
        return self.locator.getLineNumber() if self.locator else None

    def startElementNS(self, name, qname, attributes) -> None:
        namespace, tag = name
        values = {local: value for (_, local), value in attributes.items()}
        if not self.stack:
            if (namespace, tag) != (XLIFF, "xliff"):
                self.problems.add(self.path, self.line(), "not an XLIFF 2.0 file (the root "
                                  f"element must be <xliff xmlns=\"{XLIFF}\">)")
                raise _Stop
            self.version = values.get("version")
            self.target_language = values.get("trgLang")
        elif self.text is not None:
            self.problems.add(self.path, self.line(), f"inline element <{tag}> in a text: "
                              "dictionary texts are plain text",
                              key=self.units[-1]["id"] if self.units else None)
        elif tag == "unit":
            self.units.append({"id": values.get("id"), "line": self.line(), "source": [],
                               "target": [], "states": [], "has_target": False})
        elif tag == "segment" and self.units:
            self.units[-1]["states"].append(values.get("state", "initial"))
        elif tag in ("source", "target") and self.units and self.stack[-1] in (
                "segment", "ignorable"):
            self.text = []
            self.units[-1]["has_target"] |= tag == "target"
        self.stack.append(tag)

    def characters(self, content: str) -> None:
        if self.text is not None:
            self.text.append(content)

    def endElementNS(self, name, qname) -> None:
        tag = self.stack.pop()
        if tag in ("source", "target") and self.text is not None and self.units:
            self.units[-1][tag].append("".join(self.text))
            self.text = None


class _Stop(Exception):
    pass


def read_xliff(path: Path, sources: Sources, problems: Problems) -> list[Incoming]:
    parser = xml.sax.make_parser()
    parser.setFeature(xml.sax.handler.feature_namespaces, True)
    parser.setFeature(xml.sax.handler.feature_external_ges, False)
    reader = _XliffReader(path, problems)
    parser.setContentHandler(reader)
    try:
        parser.parse(str(path))
    except xml.sax.SAXParseException as exc:
        problems.add(path, exc.getLineNumber(), f"not well-formed XML: {exc.getMessage()}")
        return []
    except _Stop:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(path, None, f"cannot read the file: {exc}")
        return []
    if not (reader.version or "").startswith("2."):
        problems.add(path, 1, f"XLIFF version {reader.version!r}: only XLIFF 2 is read")
        return []
    language = _language(sources, reader.target_language or "", path, 1, problems)
    if language is None:
        return []
    found = []
    for unit in reader.units:
        if not unit["id"]:
            problems.add(path, unit["line"], "a unit without an id: it must be the "
                         "dictionary key", language=language)
            continue
        reviewed = bool(unit["states"]) and all(state in ("reviewed", "final")
                                               for state in unit["states"])
        found.append(Incoming(path, unit["line"], language, unit["id"],
                              "".join(unit["source"]), "".join(unit["target"]), reviewed))
    return found


# Import --------------------------------------------------------------------------------

@dataclass
class Merge:
    changes: dict[tuple[str, str], str]
    confirmations: dict[tuple[str, str], Confirmation]
    unchanged: int


def plan_import(sources: Sources, files: list[Path], problems: Problems) -> Merge:
    """What importing `files` changes. Problems (with file and line) go to `problems`:
    the caller writes nothing if there are any."""
    incoming: list[Incoming] = []
    for path in files:
        if not path.is_file():
            problems.add(path, None, "file not found")
        elif path.suffix.lower() == ".po":
            incoming += read_po(path, sources, problems)
        elif path.suffix.lower() in (".xlf", ".xliff"):
            incoming += read_xliff(path, sources, problems)
        else:
            problems.add(path, None, "unknown format: a PO file ends in .po, an XLIFF 2 "
                         "file in .xlf or .xliff")
    texts, source_code = sources.dictionary.texts, sources.site.source_language
    merge = Merge({}, {}, 0)
    seen: dict[tuple[str, str], Incoming] = {}
    for item in incoming:
        where = (item.file, item.line)
        if item.key not in texts:
            problems.add(*where, f"unknown key '{item.key}': {sources.dictionary.path.name} "
                         f"has no such key ({did_you_mean(item.key, texts)}export again to get "
                         "the current keys)",
                         key=item.key, language=item.language)
            continue
        source = texts[item.key].get(source_code, "")
        if item.source != source:
            problems.add(*where, f"the source text differs from the current {source_code} "
                         f"text {source!r}: the file was exported before it changed; "
                         "export again and carry the translation over",
                         key=item.key, language=item.language)
            continue
        if not item.text:
            continue   # untranslated in the file: the dictionary keeps what it has
        message = value_problem(item.text, item.language)
        if message:
            problems.add(*where, message, key=item.key, language=item.language)
            continue
        earlier = seen.setdefault((item.key, item.language), item)
        if earlier is not item and earlier.text != item.text:
            problems.add(*where, f"a second, different translation of this key (the first "
                         f"is in {problems.relative(earlier.file)}:{earlier.line})",
                         key=item.key, language=item.language)
            continue
        current = texts[item.key].get(item.language)
        if item.text != current:
            merge.changes[(item.key, item.language)] = item.text
        else:
            merge.unchanged += 1
        confirmation = Confirmation(source, item.text)
        recorded = sources.confirmed.get(item.key, {}).get(item.language)
        if item.reviewed and recorded != confirmation and (
                item.text != current or status(sources, item.key, item.language).state
                not in (OK, SAME, MISSING)):
            merge.confirmations[(item.key, item.language)] = confirmation
    return merge


def apply_import(sources: Sources, merge: Merge, aside: Path) -> None:
    """Write the merge: the changed values into the dictionary's text (nothing else in
    it changes), then the confirmations into the record."""
    dictionary = sources.dictionary
    if merge.changes:
        write_atomically(dictionary.path, edit_text(dictionary.source, merge.changes), aside)
    if merge.confirmations:
        record = {key: dict(entry) for key, entry in sources.confirmed.items()
                  if key in dictionary.texts}
        for (key, language), confirmation in merge.confirmations.items():
            record.setdefault(key, {})[language] = confirmation
        write_record(record_path(dictionary), record, dictionary, sources.site.codes)
