"""`python build.py` after an edit to article sources only: the build is made on top of
the last good build, as serve's quick rebuild is on top of its previous one. From that
build's record (unchanged.py: the digest of each source it read) and the cache's memo
(what it parsed of them), the build knows what changed (plan.delta_since): it checks
the edited articles only and plans only the pages that show them. Its site is byte for
byte a clean build's, and it names the same warnings and notes as a full build would.
Any other change (a file added or removed, a template, the dictionary, a listing, a
bibliography, a draft) and it checks and plans everything. On the small fixture site
(tests/fixtures/sources) with two articles more: one a reader would see literal markup
in (a warning), one whose headings carry their own numbers (a note)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit, fixture_site, run_build, snapshot

import articlesite.build
from articlesite.build import build
from articlesite.cache import Cache, Store

WARNED = """---
title: Warned
description: A note a reader sees as text.
date: 2024-03-11
---

## Start {#start}

!!! note
Not indented.
"""

NUMBERED = """---
title: Numbered
description: Headings with their own numbers.
date: 2024-03-12
---

## 1. First {#first}

One.

## 2. Second {#second}

Two.
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The project, built once by the command line (which leaves its record)."""
    root = fixture_site("sources", tmp_path / "project").resolve()
    for slug, text in (("warned", WARNED), ("numbered", NUMBERED)):
        (root / "content" / slug).mkdir()
        (root / "content" / slug / "en.md").write_text(text, encoding="utf-8")
    first = run_build(root)
    assert first.returncode == 0, first.stderr
    assert "readers will see this as text" in first.stderr
    assert "content/numbered/en.md: every '##' heading" in first.stderr
    return root


@pytest.fixture
def checked(monkeypatch) -> list[list[str]]:
    """The slugs of the articles each build checks from now on."""
    runs = []
    real = articlesite.build.check_sources
    monkeypatch.setattr(articlesite.build, "check_sources",
                        lambda site, figures, articles, *rest: runs.append(
                            [article.slug for article in articles]) or
                        real(site, figures, articles, *rest))
    return runs


def same_as_clean(root: Path, tmp_path: Path, stderr: str) -> None:
    """site/ is a clean build's, and the build named what a clean build names."""
    clean = run_build(root, "build", "--out", str(tmp_path / "clean"), "--clean")
    assert clean.returncode == 0, clean.stderr
    assert stderr == clean.stderr
    assert snapshot(root / "site") == snapshot(tmp_path / "clean")


def test_an_edited_body_is_built_on_top_of_the_last_build(root, checked, tmp_path):
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert checked == [["loop"]]
    assert "(2 rendered," in built.stdout   # the page, and the ja index (its length)
    assert "学習（改訂）" in (root / "site/ja/loop.html").read_text("utf-8")
    same_as_clean(root, tmp_path, built.stderr)


def test_the_warnings_and_notes_of_the_edited_article_are_its_own_again(root, checked,
                                                                       tmp_path):
    edit(root, "content/warned/en.md", "Not indented.", "Not indented, still.")
    edit(root, "content/numbered/en.md", "## 2. Second {#second}", "## Second {#second}")
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert checked == [["numbered", "warned"]]
    assert "readers will see this as text" in built.stderr
    assert "every '##' heading" not in built.stderr   # no longer all numbered
    same_as_clean(root, tmp_path, built.stderr)
    # And a build with nothing to do names them as this one did.
    again = run_build(root)
    assert "(0 rendered" in again.stdout and again.stderr == built.stderr


def test_builds_on_top_of_builds_keep_the_memo_and_the_store_from_growing(root, checked,
                                                                          tmp_path):
    """Each quick build forgets what the memo held of the old versions of the sources it
    read again (as a full build keeps only what it read), and their pages' bodies: the
    store's unused files go."""
    store = Store(root / ".articlesite-cache" / "pages")

    def sizes() -> tuple[int, int]:
        store.settle()   # (the build's thread deleting the files it left unused)
        return len(Cache(root).memo.known), len(list(store.folder.iterdir()))
    for number in range(3):
        edit(root, "content/loop/ja.md", "## 学習", f"## 学習{number}")
        assert run_build(root).returncode == 0
        if number == 0:
            before = sizes()
    assert checked == [["loop"]] * 3
    assert sizes() == before


@pytest.mark.parametrize("change", [
    "a title (the listings)", "a new article", "a template", "the dictionary",
    "a bibliography", "a source made a draft", "a translation's section confirmed"])
def test_any_other_change_checks_every_article(root, checked, tmp_path, change):
    article = "content/loop/ja.md"
    if change == "a title (the listings)":
        edit(root, article, "title: ", "title: 新しい")
    elif change == "a new article":
        (root / "content" / "fresh").mkdir()
        (root / "content" / "fresh" / "en.md").write_text(
            WARNED.replace("Warned", "Fresh"), encoding="utf-8")
    elif change == "a template":
        edit(root, "templates/article.html", '<nav class="toc"', '<nav data-edit class="toc"')
    elif change == "the dictionary":
        edit(root, "figures/figure-texts.json", '"Learn"', '"Learn more"')
    elif change == "a bibliography":
        edit(root, "content/loop/references.yaml", "year: 2018", "year: 2019")
    elif change == "a source made a draft":
        edit(root, article, "title: ", "draft: true\ntitle: ")
    else:
        edit(root, "content/loop/sections.confirmed.json", '"7bc297b7f78af8f4"',
             '"0000000000000000"')
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert len(checked) == 1 and len(checked[0]) >= 3, checked   # every article
    same_as_clean(root, tmp_path, built.stderr)


def test_a_section_made_stale_by_an_edit_checks_every_article(root, checked, tmp_path):
    """The source language's section changed: its translations' sections are stale now
    (their notices, the translator's view): not a quick build."""
    edit(root, "content/loop/en.md", "Advantages come from", "Advantages now come from")
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert len(checked[0]) == 3
    same_as_clean(root, tmp_path, built.stderr)


def test_a_quick_build_needs_the_record_of_the_last(root, checked, tmp_path):
    """A build by other means since (serve's, a build into another folder) leaves the
    record behind: the next build of the command line checks everything."""
    build(root)   # (not the command line: no record kept, the cache's index the same)
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    (root / ".articlesite-cache" / "index").touch()
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert len(checked[0]) == 3
    same_as_clean(root, tmp_path, built.stderr)


@pytest.mark.parametrize("damage", ["a page edited through site/", "a stored page replaced"])
def test_a_page_damaged_since_the_last_build_checks_every_article(root, checked, tmp_path,
                                                                   damage):
    """A page of site/ edited in place (its stored file with it), or a stored page
    replaced, since the last build: a build on top of it would keep the page as it is
    now; every page is planned again, and the damaged one made again."""
    page = root / "site" / "en" / "warned.html"
    if damage == "a page edited through site/":
        with page.open("r+b") as file:
            file.write(b"X")
    else:
        blob = Cache(root).pages["en/warned.html"].blob
        stored = root / ".articlesite-cache" / "pages" / f"{blob}.html"
        data = stored.read_bytes()
        stored.unlink()
        stored.write_bytes(data.replace(b"Warned", b"Damaged"))
    edit(root, "content/loop/ja.md", "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    built = run_build(root)
    assert built.returncode == 0, built.stderr
    assert len(checked[0]) == 3
    same_as_clean(root, tmp_path, built.stderr)
