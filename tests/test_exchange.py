"""`python build.py translations export|import`: the dictionary goes out to translation
tools as PO or XLIFF 2 and comes back changing exactly the values translated, or, when
anything in the files is wrong, nothing at all."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from xml.etree import ElementTree

import polib
import pytest
from conftest import REPO, TEXTS, check, line_of, run_build, set_text

from articlesite.translate.dictionary_file import edit_text

RECORD = "figures/figure-texts.confirmed.json"
XLIFF = "{urn:oasis:names:tc:xliff:document:2.0}"


def sources_bytes(root: Path) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in (TEXTS, RECORD)}


def export(root: Path, *args: str) -> Path:
    result = run_build(root, "translations", "export", *args)
    assert result.returncode == 0, result.stderr
    return root / "translations"


def imported(root: Path, *files: Path):
    return run_build(root, "translations", "import", *map(str, files))


def changed_lines(before: bytes, after: bytes) -> list[str]:
    diff = difflib.unified_diff(before.decode().splitlines(), after.decode().splitlines(),
                                n=0, lineterm="")
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


# The writer, on the real dictionary ---------------------------------------------------

def test_writer_keeps_the_real_dictionary_byte_for_byte():
    text = (REPO / TEXTS).read_text(encoding="utf-8")
    data = json.loads(text)
    every = {(key, code): value for key, entry in data.items() for code, value in entry.items()}
    assert edit_text(text, every) == text
    edited = edit_text(text, {("sft", "ja"): "教師あり \"微調整\""})
    assert changed_lines(text.encode(), edited.encode()) == [
        '-    "ja": "教師あり学習 SFT"', '+    "ja": "教師あり \\"微調整\\""']
    assert edit_text(edited, {("sft", "ja"): data["sft"]["ja"]}) == text


# Round trips --------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["po", "xliff"])
def test_export_then_import_changes_no_byte(project, fmt):
    set_text(project, "sft", "zh", "监督微调（SFT）")   # one stale translation in each language
    before = sources_bytes(project)
    folder = export(project, "--format", fmt)
    suffix = ".po" if fmt == "po" else ".xlf"
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"figure-texts.en{suffix}", f"figure-texts.ja{suffix}"]
    result = imported(project, *files)
    assert result.returncode == 0, result.stderr
    assert "Imported 0 changed translations" in result.stdout
    assert sources_bytes(project) == before
    again = export(project, "--format", fmt)
    assert {f.name: f.read_bytes() for f in again.iterdir()} == {
        f.name: f.read_bytes() for f in files}


def test_po_holds_key_source_translation_use_box_and_state(project):
    set_text(project, "sft", "zh", "监督微调（SFT）")
    po = polib.pofile(str(export(project, "--language", "ja") / "figure-texts.ja.po"))
    assert po.metadata["Language"] == "ja"
    entry = next(e for e in po if e.msgctxt == "sft")
    assert (entry.msgid, entry.msgstr) == ("监督微调（SFT）", "教師あり学習 SFT")
    assert entry.flags == ["fuzzy"] and entry.previous_msgid == "监督微调 SFT"
    assert entry.occurrences == [("figures/training-overview.yaml",
                                  str(line_of(project, "figures/training-overview.yaml",
                                              "- id: sft")))]
    assert "node sft in training-overview: box 170 × 62 px" in entry.comment
    ok = next(e for e in po if e.msgctxt == "demos")
    assert ok.flags == [] and ok.msgstr == "操作の実演"


def test_xliff_is_xliff_2_with_states(project):
    set_text(project, "sft", "zh", "监督微调（SFT）")
    tree = ElementTree.parse(export(project, "--format", "xliff", "--language", "ja")
                             / "figure-texts.ja.xlf")
    root = tree.getroot()
    assert root.tag == f"{XLIFF}xliff" and root.get("version") == "2.0"
    assert (root.get("srcLang"), root.get("trgLang")) == ("zh-CN", "ja")
    units = {unit.get("id"): unit for unit in root.iter(f"{XLIFF}unit")}
    segment = units["sft"].find(f"{XLIFF}segment")
    assert segment.get("state") == "translated"
    assert segment.findtext(f"{XLIFF}target") == "教師あり学習 SFT"
    assert units["demos"].find(f"{XLIFF}segment").get("state") == "final"
    box = units["sft"].find(f"{XLIFF}notes/{XLIFF}note[@category='box']").text
    assert "170 × 62 px" in box


# Edited in a real PO library, then imported --------------------------------------------

def test_po_edited_with_polib_imports_only_that_value(project, capsys):
    path = export(project, "--language", "ja") / "figure-texts.ja.po"
    po = polib.pofile(str(path))
    next(e for e in po if e.msgctxt == "prefs").msgstr = "好みの対\n（二行目）"
    po.save()
    before = sources_bytes(project)
    result = imported(project, path)
    assert result.returncode == 0, result.stderr
    assert "Imported 1 changed translation into figure-texts.json (ja: 1)" in result.stdout
    after = sources_bytes(project)
    assert changed_lines(before[TEXTS], after[TEXTS]) == [
        '-    "ja": "選好ペア"', '+    "ja": "好みの対\\n（二行目）"']
    assert json.loads(after[RECORD])["prefs"]["ja"] == {"source": "成对偏好",
                                                        "text": "好みの対\n（二行目）"}
    code, report = check(project, capsys)
    assert code == 0, report["findings"]


def test_xliff_edited_imports(project):
    path = export(project, "--format", "xliff", "--language", "en") / "figure-texts.en.xlf"
    tree = ElementTree.parse(path)
    unit = next(u for u in tree.getroot().iter(f"{XLIFF}unit") if u.get("id") == "demos")
    unit.find(f"{XLIFF}segment/{XLIFF}target").text = "Demonstrations"
    tree.write(path, encoding="utf-8", xml_declaration=True)
    result = imported(project, path)
    assert result.returncode == 0, result.stderr
    assert json.loads((project / TEXTS).read_text())["demos"]["en"] == "Demonstrations"


# Bad imports change nothing ------------------------------------------------------------

def edit_po(path: Path, change) -> None:
    po = polib.pofile(str(path))
    change(po)
    po.save()


def entry_line(path: Path, key: str) -> int:
    po = polib.pofile(str(path))
    return next(e.linenum for e in po if e.msgctxt == key)


def test_bad_po_reports_every_problem_and_writes_nothing(project):
    path = export(project, "--language", "ja") / "figure-texts.ja.po"
    good = path.parent / "good.po"

    def spoil(po):
        next(e for e in po if e.msgctxt == "demos").msgstr = "新しい実演"   # a good change
        next(e for e in po if e.msgctxt == "sft").msgctxt = "sft-typo"
        next(e for e in po if e.msgctxt == "prefs").msgid = "旧的原文"
        next(e for e in po if e.msgctxt == "copies-sub").msgstr = "   "
    edit_po(path, spoil)
    good.write_text(path.read_text())
    before = sources_bytes(project)
    result = imported(project, path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("3 problems; figure-texts.json was left as it was.")
    where = "translations/figure-texts.ja.po"
    assert (f"{where}:{entry_line(path, 'sft-typo')}: unknown key 'sft-typo'"
            in result.stderr)
    assert (f"{where}:{entry_line(path, 'prefs')}: the source text differs from the "
            "current zh text '成对偏好'" in result.stderr)
    assert (f"{where}:{entry_line(path, 'copies-sub')}: translation empty for language 'ja' "
            "[key 'copies-sub', language 'ja']" in result.stderr)
    assert sources_bytes(project) == before


def test_malformed_files_are_reported_with_their_line(project):
    broken = project / "broken.po"
    broken.write_text('msgid ""\nmsgstr ""\n"Language: ja\\n"\n\nmsgctxt "sft"\n'
                      'msgid "监督微调 SFT"\nmsgstr "a " b"\n', encoding="utf-8")
    xlf = project / "broken.xlf"
    xlf.write_text('<?xml version="1.0"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:'
                   '2.0" version="2.0" srcLang="zh-CN" trgLang="ja">\n<file id="f">\n'
                   '<unit id="sft"><segment><source>x</source></segment>\n</file>\n</xliff>\n',
                   encoding="utf-8")
    before = sources_bytes(project)
    result = imported(project, broken, xlf)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "broken.po:7: not a PO file polib can read" in result.stderr
    assert "broken.xlf:5: not well-formed XML" in result.stderr
    assert sources_bytes(project) == before


def test_in_source_language_or_unknown_language_refused(project):
    path = export(project, "--language", "ja") / "figure-texts.ja.po"
    edit_po(path, lambda po: po.metadata.update({"Language": "zh_CN"}))
    result = imported(project, path)
    assert result.returncode == 1
    assert "the file is in the source language (zh)" in result.stderr
    result = run_build(project, "translations", "export", "--language", "zh")
    assert result.returncode == 2 and "not a language to translate into" in result.stderr
