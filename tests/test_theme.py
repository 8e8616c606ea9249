"""The default theme in the package, and `articlesite init`: a new project builds with
no templates/ of its own; a project's templates/ overrides the theme file by file and
its strings.yaml key by key and language by language, and the build cache follows an
override; a project without figures needs no figures/ folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, THEME, check, failed_build, run_build, soup, without_search

from articlesite.cli import main
from articlesite.starter import init_project


@pytest.fixture(scope="module")
def started(tmp_path_factory) -> Path:
    """A project written by init (zh, en, ja; translated from zh), built once."""
    root = tmp_path_factory.mktemp("theme") / "mysite"
    assert main(["init", str(root)]) == 0
    assert run_build(root).returncode == 0
    return root


def copy_of(started: Path, target: Path) -> Path:
    shutil.copytree(started, target, ignore=shutil.ignore_patterns("site"))
    return target


def test_init_writes_a_project_without_templates_that_builds(started: Path):
    assert not (started / "templates").exists()
    assert sorted(p.name for p in (started / "content" / "hello").iterdir()) == [
        "en.md", "ja.md", "sections.confirmed.json", "zh.md"]
    for code, contents, caption in (("zh", "目录", "每次保存，网站都会重新构建。"),
                                    ("en", "Contents", "Every save builds the site again."),
                                    ("ja", "目次", "保存するたびにサイトが作り直されます。")):
        page = soup(started / "site" / code / "hello.html")
        assert page.html["lang"] == {"zh": "zh-CN"}.get(code, code)
        assert page.select_one("#toc-title").get_text() == contents
        assert page.select_one("#figure-hello-flow figcaption").get_text(" ", strip=True) \
            .endswith(caption)
        assert len(page.select("#figure-hello-flow [data-node]")) == 3
        assert page.select_one("style") is not None   # the theme's styles


def test_a_new_project_checks_clean(started: Path, capsys):
    code, report = check(started, capsys)
    assert code == 0, [f for f in report["findings"] if f["severity"] == "problem"]


def test_init_refuses_a_folder_that_is_not_empty(started: Path, capsys):
    assert main(["init", str(started)]) == 2
    assert "is a folder that is not empty" in capsys.readouterr().err


def test_an_override_wins_file_by_file_and_key_by_key(started: Path, tmp_path: Path):
    root = copy_of(started, tmp_path / "project")
    assert run_build(root).returncode == 0   # the cache holds the theme's pages now
    (root / "templates").mkdir()
    article = (THEME / "article.html").read_text(encoding="utf-8")
    assert '<nav class="toc"' in article
    (root / "templates" / "article.html").write_text(
        article.replace('<nav class="toc"', '<nav data-overridden class="toc"', 1),
        encoding="utf-8")
    (root / "templates" / "strings.yaml").write_text("contents:\n  en: On this page\n",
                                                     encoding="utf-8")
    assert run_build(root).returncode == 0
    en, zh = (soup(root / "site" / code / "hello.html") for code in ("en", "zh"))
    assert en.select_one("nav[data-overridden]") is not None
    assert en.select_one("#toc-title").get_text() == "On this page"
    assert zh.select_one("#toc-title").get_text() == "目录"   # the theme's, for zh
    index = (root / "site" / "en" / "index.html").read_text(encoding="utf-8")
    assert "data-overridden" not in index   # the theme's index.html still


def test_a_string_the_override_misspells_is_reported(tmp_path: Path):
    root = tmp_path / "site"
    init_project(root, ["en", "ko"], "en")
    (root / "templates").mkdir()
    (root / "templates" / "strings.yaml").write_text("contents:\n  kr: 목차\n",
                                                     encoding="utf-8")
    problems = failed_build(root)
    assert "templates/strings.yaml:1: unknown language 'kr' (languages: en, ko)" in problems


def test_a_project_without_figures_needs_no_figures_folder(tmp_path: Path):
    root = tmp_path / "plain"
    (root / "content" / "note").mkdir(parents=True)
    (root / "content" / "site.yaml").write_text(
        "default_language: ko\nlanguages:\n  - code: ko\n    name: 한국어\n    lang: ko\n"
        "    title: 메모\n", encoding="utf-8")
    (root / "content" / "note" / "ko.md").write_text(
        "---\ntitle: 메모\ndescription: 그림 없는 글.\n---\n\n## 처음 {#first}\n\n본문.\n",
        encoding="utf-8")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    page = soup(root / "site" / "ko" / "note.html")
    assert page.select_one("#toc-title").get_text() == "목차"
    assert "body:lang(ko){" in page.select_one("style").get_text()   # words kept whole
    assert not (root / "figures").exists() and not (root / "templates").exists()


def test_the_user_guide_builds_without_a_warning(tmp_path: Path):
    """docs/ is a project of this tool (`python build.py --root docs`)."""
    root = tmp_path / "docs"
    for part in ("content", "figures", "templates"):
        shutil.copytree(REPO / "docs" / part, root / part)
    without_search(root)
    result = run_build(root)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    page = soup(root / "site" / "en" / "01-getting-started.html")
    assert page.select_one("h1").get_text() == "Getting started"
    assert len(page.select("#figure-build-stages [data-node]")) == 4
    assert not (root / "site" / "incoming").exists()
    assert soup(root / "site" / "en" / "index.html").select_one("main h2").get_text() == "Pages"
    refresh = soup(root / "site" / "index.html").select_one('meta[http-equiv="refresh"]')
    assert refresh["content"] == "0; url=en/index.html"   # one language: no chooser
