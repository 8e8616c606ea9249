"""Incremental builds: after any edit, the cached build's site/ is byte for byte what a full
build (--clean, into another folder) writes, and only the pages the edit touches are
rendered again."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import copy_project

from articlesite.build import build
from articlesite.problems import BuildError

ARTICLE = "ppo-long-horizon"
COPY = "second-article"     # a copy of the real article, placing the same figures
VIEW = "translations.html"  # the translator's view: every key, spec and confirmation
# root, 404, language indexes and feeds, two articles in 3 languages, view
PAGES = 1 + 1 + 3 + 3 + 2 * 3 + 1


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The real project with a second article; built once."""
    root = copy_project(tmp_path / "project")
    shutil.copytree(root / "content" / ARTICLE, root / "content" / COPY)
    build(root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def assert_same_as_clean_build(root: Path, tmp_path: Path) -> None:
    clean = tmp_path / "clean-site"
    build(root, clean, clean=True)
    incremental, full = files(root / "site"), files(clean)
    assert sorted(incremental) == sorted(full)
    for path in full:
        assert incremental[path] == full[path], f"{path} differs from a clean build"


def article_pages(slug: str) -> list[str]:
    return [f"{code}/{slug}.html" for code in ("en", "ja", "zh")]


def test_nothing_changed_renders_nothing_and_leaves_site_be(project: Path, tmp_path: Path):
    page = project / "site" / "en" / f"{ARTICLE}.html"
    before = page.stat().st_ino
    built = build(project)
    assert built.rendered == []
    assert built.pages == PAGES
    assert page.stat().st_ino == before
    assert_same_as_clean_build(project, tmp_path)


def test_one_article_body_in_one_language_renders_only_that_page(project: Path,
                                                                   tmp_path: Path):
    edit(project / "content" / COPY / "ja.md", "## GRPO と DPO", "## DPO と GRPO")
    assert build(project).rendered == [f"ja/{COPY}.html"]
    assert "DPO と GRPO" in (project / "site" / "ja" / f"{COPY}.html").read_text()
    # A change of length: the index showing it too.
    edit(project / "content" / COPY / "ja.md", "## DPO と GRPO", "## GRPO と DPO（改訂）")
    assert build(project).rendered == sorted([f"ja/{COPY}.html", "ja/index.html"])
    assert "GRPO と DPO（改訂）" in (project / "site" / "ja" / f"{COPY}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


def test_a_title_renders_the_pages_that_show_it(project: Path, tmp_path: Path):
    edit(project / "content" / COPY / "en.md", 'title: "How PPO', 'title: "Why PPO')
    # The article in every language (its switcher and hreflang links list the languages
    # by listing), the indexes, the root page and the feeds.
    assert build(project).rendered == sorted(
        ["index.html", "en/index.html", "ja/index.html", "zh/index.html", "en/feed.xml",
         "ja/feed.xml", "zh/feed.xml", *article_pages(COPY)])
    assert_same_as_clean_build(project, tmp_path)


def test_one_dictionary_value_renders_only_pages_showing_it(project: Path, tmp_path: Path):
    path = project / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["sft"]["ja"] = "教師ありファインチューニング"
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    assert build(project).rendered == [f"ja/{ARTICLE}.html", f"ja/{COPY}.html", VIEW]
    assert "教師ありファインチューニング" in (project / "site" / "ja" / f"{ARTICLE}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


def add_unused_key(project: Path) -> None:
    path = project / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["spare"] = {"zh": "备用", "en": "spare", "ja": "予備"}
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")


def test_a_dictionary_key_no_figure_uses_renders_only_the_view(project: Path,
                                                               tmp_path: Path):
    add_unused_key(project)
    assert build(project).rendered == [VIEW]
    assert_same_as_clean_build(project, tmp_path)


def test_a_figure_spec_renders_the_pages_placing_it(project: Path, tmp_path: Path):
    edit(project / "figures" / "ppo-update.yaml", "box: [25, 60, 270, 90]",
         "box: [25, 62, 270, 90]")
    assert build(project).rendered == sorted(article_pages(ARTICLE) + article_pages(COPY)
                                             + [VIEW])
    assert_same_as_clean_build(project, tmp_path)


def test_the_view_follows_the_confirmations_and_where_figures_are(project: Path,
                                                                    tmp_path: Path):
    record = project / "figures" / "figure-texts.confirmed.json"
    confirmed = json.loads(record.read_text(encoding="utf-8"))
    del confirmed["sft"]["ja"]   # the ja text of sft becomes stale
    record.write_text(json.dumps(confirmed, ensure_ascii=False, indent=2), encoding="utf-8")
    assert build(project).rendered == [VIEW]
    assert_same_as_clean_build(project, tmp_path)
    # The view links each figure to the first article showing it in each language: once
    # the first article no longer shows ppo-update in ja, the link moves to the second.
    edit(project / "content" / ARTICLE / "ja.md", "```{figure} ppo-update\n```\n", "")
    assert build(project).rendered == [f"ja/{ARTICLE}.html", VIEW]
    assert f"ja/{COPY}.html#figure-ppo-update" in (project / "site" / VIEW).read_text()
    assert_same_as_clean_build(project, tmp_path)


@pytest.mark.parametrize("change", ["template", "figure template", "strings", "site",
                                    "references"])
def test_shared_sources_render_what_depends_on_them(project: Path, tmp_path: Path,
                                                    change: str):
    if change == "template":
        edit(project / "templates" / "style.css", "body{margin:0;", "body{margin:0 ;")
        expected = PAGES
    elif change == "figure template":  # the translator's view's copies are remembered
        edit(project / "templates" / "figure.html", 'class="canvas"', 'class="canvas "')
        expected = PAGES
    elif change == "strings":
        edit(project / "templates" / "strings.yaml", "en: Contents", "en: Table of contents")
        expected = PAGES
    elif change == "site":
        edit(project / "content" / "site.yaml", "title: Technical articles",
             "title: Articles")
        expected = PAGES
    else:
        edit(project / "content" / COPY / "references.yaml", "venue: NeurIPS",
             "venue: NeurIPS 2022")
        expected = 3
    assert len(build(project).rendered) == expected
    assert_same_as_clean_build(project, tmp_path)


def test_removed_and_added_pages(project: Path, tmp_path: Path):
    (project / "content" / COPY / "zh.md").unlink()
    shutil.copytree(project / "content" / ARTICLE, project / "content" / "third")
    built = build(project)
    assert f"zh/{COPY}.html" not in files(project / "site")
    assert set(article_pages("third")) <= set(built.rendered)
    assert_same_as_clean_build(project, tmp_path)


def test_damaged_figure_copies_in_the_cache_are_made_again(project: Path, tmp_path: Path):
    """The view's figure copies live in the cache's store, read back when the view is
    rendered again: one that is not exactly what was stored is never used."""
    site_files = {os.stat(path).st_ino for path in (project / "site").rglob("*")}
    store = project / ".articlesite-cache" / "pages"
    copies = [path for path in store.glob("*.html") if os.stat(path).st_ino not in site_files
              and 'id="copy-figure-' in path.read_text(encoding="utf-8")]  # not a body
    assert len(copies) == 5  # one per figure
    for path in copies:
        path.write_text(path.read_text(encoding="utf-8").replace("node", "nod"),
                        encoding="utf-8")
    add_unused_key(project)
    assert build(project).rendered == [VIEW]
    assert_same_as_clean_build(project, tmp_path)


def test_a_page_template_change_renders_the_pages_around_the_bodies_kept(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """After a change to the page template, every article page is rendered again, but
    its body (Markdown and figures: what that template cannot change) comes from the
    cache: no source is parsed, no figure spec loaded."""
    from articlesite.load import figures
    from articlesite.render import markdown

    parsed = []
    parse, load_figure = markdown.parse, figures.load_figure
    monkeypatch.setattr(markdown, "parse", lambda text: parsed.append(text) or parse(text))
    monkeypatch.setattr(figures, "load_figure",
                        lambda file, problems: parsed.append(file.id) or load_figure(file,
                                                                                   problems))
    edit(project / "templates" / "article.html", '<nav class="toc"',
         '<nav data-edited class="toc"')
    built = build(project)
    assert set(article_pages(ARTICLE) + article_pages(COPY)) <= set(built.rendered)
    assert parsed == []
    assert "<nav data-edited" in (project / "site" / "ja" / f"{COPY}.html").read_text()
    monkeypatch.undo()
    assert_same_as_clean_build(project, tmp_path)


def test_a_figure_template_change_renders_the_bodies_again(project: Path, tmp_path: Path):
    edit(project / "templates" / "figure.html", '<figcaption', '<figcaption data-edited')
    built = build(project)
    assert set(article_pages(ARTICLE) + article_pages(COPY)) <= set(built.rendered)
    assert "<figcaption data-edited" in (project / "site" / "en" / f"{ARTICLE}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


def test_damaged_bodies_in_the_cache_are_rendered_again(project: Path, tmp_path: Path):
    site_files = {os.stat(path).st_ino for path in (project / "site").rglob("*")}
    store = project / ".articlesite-cache" / "pages"
    bodies = [path for path in store.glob("*.html") if os.stat(path).st_ino not in site_files
              and 'id="copy-figure-' not in path.read_text(encoding="utf-8")]
    assert len(bodies) == 3  # one per language: the copied article's are the same bytes
    for path in bodies:
        path.write_text(path.read_text(encoding="utf-8").replace("PPO", "PP0"),
                        encoding="utf-8")
    edit(project / "templates" / "article.html", '<nav class="toc"',
         '<nav data-edited class="toc"')
    build(project)
    assert_same_as_clean_build(project, tmp_path)


def test_a_page_edited_inside_site_is_not_reused(project: Path, tmp_path: Path):
    page = project / "site" / "en" / f"{ARTICLE}.html"
    with page.open("a", encoding="utf-8") as handle:   # in place: the cache's copy too
        handle.write("<!-- edited by hand -->")
    assert build(project).rendered == [f"en/{ARTICLE}.html"]
    assert_same_as_clean_build(project, tmp_path)


def test_files_added_to_site_by_hand_are_removed(project: Path, tmp_path: Path):
    (project / "site" / "stray.html").write_text("stray", encoding="utf-8")
    (project / "site" / "empty-folder").mkdir()
    assert build(project).rendered == []
    assert not (project / "site" / "stray.html").exists()
    assert not (project / "site" / "empty-folder").exists()
    assert_same_as_clean_build(project, tmp_path)


def test_a_failed_build_keeps_site_and_cache_sound(project: Path, tmp_path: Path):
    before = files(project / "site")
    edit(project / "content" / COPY / "en.md", "```{figure} ppo-update",
         "```{figure} ppo-updat")
    with pytest.raises(BuildError, match="unknown figure 'ppo-updat'"):
        build(project)
    assert files(project / "site") == before
    edit(project / "content" / COPY / "en.md", "```{figure} ppo-updat", "```{figure} ppo-update")
    assert build(project).rendered == []
    assert_same_as_clean_build(project, tmp_path)


@pytest.mark.parametrize("changed", ["content/second-article/en.md",
                                     "figures/ppo-update.yaml"])
def test_a_source_edited_during_the_build_fails_it(project: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   changed: str):
    from articlesite import build as stages

    edit(project / changed, "title", "title ")   # so that the build must render it
    plan_pages = stages.plan_pages

    def plan_then_edit(*args):
        plan = plan_pages(*args)
        edit(project / changed, "title", "title ")  # read, and not yet rendered
        return plan

    monkeypatch.setattr(stages, "plan_pages", plan_then_edit)
    before = files(project / "site")
    with pytest.raises(BuildError, match="changed while the site was being built"):
        build(project)
    assert files(project / "site") == before
    monkeypatch.undo()
    build(project)
    assert_same_as_clean_build(project, tmp_path)


def test_a_broken_spec_is_reported_even_when_no_page_is_rendered(project: Path):
    edit(project / "figures" / "ppo-update.yaml", "width: 1250", "width: wide")
    with pytest.raises(BuildError, match="'width' must be a positive number"):
        build(project)
    (project / "figures" / "unused.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    edit(project / "figures" / "ppo-update.yaml", "width: wide", "width: 1250")
    with pytest.raises(BuildError, match="unused.yaml:2: invalid YAML"):
        build(project)


def test_a_missing_dictionary_key_is_reported_for_cached_pages(project: Path):
    path = project / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    del texts["sft"]
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    with pytest.raises(BuildError) as error:
        build(project)
    assert any(p.key == "sft" and p.file == "figures/training-overview.yaml"
               for p in error.value.problems)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel builds need fork()")
def test_many_articles_built_in_parallel_match_a_serial_build(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch):
    from articlesite import parallel

    root = copy_project(tmp_path / "many")
    for number in range(1, 6):
        shutil.copytree(root / "content" / ARTICLE, root / "content" / f"copy-{number}")
        edit(root / "content" / f"copy-{number}" / "en.md", "## The complete training loop",
             f"## The complete training loop, take {number}")
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert len(build(root).rendered) == 1 + 1 + 3 + 3 + 6 * 3 + 1
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    serial = tmp_path / "serial"
    build(root, serial, clean=True)
    assert files(root / "site") == files(serial)


def test_a_spec_is_parsed_once_per_build(project: Path, monkeypatch: pytest.MonkeyPatch):
    from articlesite.load import figures

    # The two articles may render in two forked workers, each parsing the specs its
    # pages place: every parse is noted, with its process, in a file they share.
    log = project.parent / "parsed.log"
    load_figure = figures.load_figure

    def noted(file, problems):
        with log.open("a", encoding="utf-8") as notes:
            notes.write(f"{os.getpid()} {file.id}\n")
        return load_figure(file, problems)
    monkeypatch.setattr(figures, "load_figure", noted)
    build(project, clean=True)
    parsed = log.read_text(encoding="utf-8").splitlines()
    assert len(parsed) == len(set(parsed))   # never twice in one process
    assert {line.split()[1] for line in parsed} == {
        path.stem for path in (project / "figures").glob("*.yaml")}


def test_clean_ignores_the_cache(project: Path):
    assert len(build(project, clean=True).rendered) == PAGES


def test_command_line_summary(project: Path, capsys: pytest.CaptureFixture):
    from articlesite.cli import main

    assert main(["--root", str(project)]) == 0
    assert f"{PAGES} pages in 3 languages" in capsys.readouterr().out
    assert main(["--root", str(project), "--clean"]) == 0
    assert f"({PAGES} rendered, 0 unchanged)" in capsys.readouterr().out


def test_the_check_stage_parses_only_the_sources_that_changed(project: Path,
                                                             monkeypatch: pytest.MonkeyPatch):
    """The outlines the check stage works on are kept by the cache, by source digest."""
    from articlesite.render import markdown

    build(project)
    parsed = []
    parse = markdown.parse
    monkeypatch.setattr(markdown, "parse", lambda text: parsed.append(text) or parse(text))
    assert build(project).rendered == []
    assert parsed == []
    path = next((project / "content").glob("*/en.md"))
    edit(path, "\n## ", "\nA new paragraph.\n\n## ")
    build(project)
    assert parsed and all("A new paragraph." in text for text in parsed)
