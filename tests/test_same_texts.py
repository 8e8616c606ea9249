"""Texts that are the same in every language on purpose (`"*"` in the dictionary), and
`translations confirm --all` (figure texts, listed) beside `--sections` (articles)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import (
    TEXTS,
    check,
    confirm,
    edit,
    fixture_site,
    opened_view,
    run_build,
    save,
    soup,
)

from articlesite.cli import main


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


def same_in_every_language(root: Path, key: str, text: str) -> None:
    path = root / TEXTS
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts[key] = {"*": text}
    save(root, path, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")


def translation_findings(report: dict) -> list[tuple]:
    return [(f["key"], f["language"]) for f in report["findings"]
            if f["check"] == "translations"]


def test_a_text_the_same_in_every_language_is_neither_untranslated_nor_unconfirmed(
        root, capsys):
    same_in_every_language(root, "act", "ppo\\_trainer.step()")   # "\\_": no subscript
    code, report = check(root, capsys)
    assert code == 0 and translation_findings(report) == [], report["findings"]
    assert run_build(root).returncode == 0
    for language in ("en", "zh", "ja"):
        assert "ppo_trainer.step()" in soup(root / "site" / language / "loop.html").get_text()
    view = opened_view(root / "site")
    cells = view.select('[data-text^="act|"]')
    assert len(cells) == 3
    assert [cell.find_next_sibling("span").get_text() for cell in cells] == \
        ["same in every language"] * 3


def test_the_same_text_written_in_each_language_is_still_untranslated(root, capsys):
    path = root / TEXTS
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["act"] = {"en": "ppo_trainer.step()", "zh": "ppo_trainer.step()",
                    "ja": "ppo_trainer.step()"}
    save(root, path, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")
    code, report = check(root, capsys)
    assert code == 1 and translation_findings(report) == [("act", "ja"), ("act", "zh")]
    code, out = confirm(root, capsys, "--all")
    assert 'write it once under "*"' in out and "act:zh" in out


def test_a_language_may_still_have_its_own_text(root, capsys):
    path = root / TEXTS
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["act"] = {"*": "Act", "ja": "行動"}
    save(root, path, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")
    code, report = check(root, capsys)
    assert code == 0 and translation_findings(report) == []
    assert run_build(root).returncode == 0
    figure_text = {language: soup(root / "site" / language / "loop.html").select_one(
        "figure").get_text(" ") for language in ("en", "zh", "ja")}
    assert "Act" in figure_text["zh"] and "行動" in figure_text["ja"]
    assert "Act" not in figure_text["ja"]


def test_confirm_all_lists_the_texts_and_leaves_the_sections(root, capsys):
    edit(root, "content/loop/en.md", "## Learn {#learn}\n", "## Learn {#learn}\n\nNew.\n")
    edit(root, TEXTS, '"Act"', '"Act now"')
    sections = (root / "content/loop/sections.confirmed.json").read_bytes()
    code, out = confirm(root, capsys, "--all")
    assert code == 0
    assert "Confirmed 2 translations in figure-texts.confirmed.json." in out
    assert "act (zh, ja)" in out or "act (ja, zh)" in out
    assert "Articles' sections were not confirmed" in out and "--sections" in out
    assert (root / "content/loop/sections.confirmed.json").read_bytes() == sections
    code, report = check(root, capsys)
    assert {f["file"] for f in report["findings"] if f["check"] == "translations"} == {
        "content/loop/ja.md", "content/loop/zh.md"}
    code, out = confirm(root, capsys, "--sections")
    assert code == 0 and "Confirmed 2 sections of loop" in out
    assert check(root, capsys)[0] == 0


def test_confirm_without_anything_names_both_flags(root, capsys):
    assert main(["--root", str(root), "translations", "confirm"]) == 2
    assert "or give --all or --sections" in capsys.readouterr().err
