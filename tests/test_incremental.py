"""Incremental builds: after any edit, the cached build's site/ is byte for byte what a full
build (--clean, into another folder) writes, and only the pages the edit touches are
rendered again.

On the small fixture site tests/fixtures/sources (one article, one figure), with a second
article made here by copying the first; what is expected is derived from that fixture."""

from __future__ import annotations

import json
import marshal
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from conftest import FIXTURES, fixture_site, keep_built, restore_built

from articlesite import parallel
from articlesite.build import build
from articlesite.load.sourcefiles import digest
from articlesite.problems import BuildError
from articlesite.render.templates import Renderer

ARTICLE = "loop"
COPY = "second-loop"   # a copy of the fixture's article, placing the same figure; sorts after
FIGURE = "steps"       # the fixture's figure, placed once in every language of ARTICLE
VIEW = "translations.html"  # the translator's view: every key, spec and confirmation
LANGUAGES = [language["code"] for language in yaml.safe_load(
    (FIXTURES / "sources" / "content" / "site.yaml").read_text(encoding="utf-8"))["languages"]]


def site_pages(articles: int) -> int:
    """Root, 404, each language's index and feed, each article in every language, view."""
    return 1 + 1 + 2 * len(LANGUAGES) + articles * len(LANGUAGES) + 1


PAGES = site_pages(2)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture site with a second article, built once for this file's tests."""
    root = fixture_site("sources", tmp_path_factory.mktemp("incremental") / "test" / "project")
    shutil.copytree(root / "content" / ARTICLE, root / "content" / COPY)
    build(root)
    return root, keep_built(root)


@pytest.fixture
def project(built: tuple[Path, Path]) -> Path:
    """The site as `built` left it, sources, site/ and cache, in a folder of the test's
    own (conftest.restore_built)."""
    return restore_built(*built)


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
    return sorted(f"{code}/{slug}.html" for code in LANGUAGES)


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def note_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str, log: Path,
               note: Callable[..., str]) -> None:
    """Have every call of module.name write a line, note(*its arguments), to `log`: a file,
    that the build's forked workers (a full build of the site's pages forks them) share."""
    function = getattr(module, name)

    def noted(*args):
        with log.open("a", encoding="utf-8") as notes:
            notes.write(note(*args) + "\n")
        return function(*args)
    monkeypatch.setattr(module, name, noted)


def test_nothing_changed_renders_nothing_and_leaves_site_be(project: Path, tmp_path: Path):
    site, page = project / "site", project / "site" / "en" / f"{ARTICLE}.html"
    before = site.stat().st_ino, page.stat().st_ino
    built = build(project)
    assert built.rendered == []
    assert built.pages == PAGES
    assert (site.stat().st_ino, page.stat().st_ino) == before  # not even swapped in anew
    assert_same_as_clean_build(project, tmp_path)


def test_one_article_body_in_one_language_renders_only_that_page(project: Path,
                                                                   tmp_path: Path):
    source = project / "content" / COPY / "ja.md"
    # The same characters in another order: the word count the index shows holds.
    edit(source, "アドバンテージは価値の推定から得られる", "価値の推定からアドバンテージが得られる")
    assert build(project).rendered == [f"ja/{COPY}.html"]
    assert "価値の推定からアドバンテージが得られる" in (
        project / "site" / "ja" / f"{COPY}.html").read_text()
    # A change of length: the index showing it too.
    edit(source, "## 学習 {#learn}", "## 学習（改訂） {#learn}")
    assert build(project).rendered == sorted([f"ja/{COPY}.html", "ja/index.html"])
    assert "学習（改訂）" in (project / "site" / "ja" / f"{COPY}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


def test_a_title_renders_the_pages_that_show_it(project: Path, tmp_path: Path):
    edit(project / "content" / COPY / "en.md", "title: The training loop",
         "title: The learning loop")
    # The article in every language (its switcher and hreflang links list the languages
    # by listing), the indexes, the root page and the feeds.
    assert build(project).rendered == sorted(
        ["index.html", *(f"{code}/{name}" for code in LANGUAGES
                         for name in ("index.html", "feed.xml")), *article_pages(COPY)])
    assert_same_as_clean_build(project, tmp_path)


def test_one_dictionary_value_renders_only_pages_showing_it(project: Path, tmp_path: Path):
    path = project / "figures" / "figure-texts.json"
    texts = read_json(path)
    texts["act"]["ja"] = "行動を選ぶ"
    write_json(path, texts)
    assert build(project).rendered == [f"ja/{ARTICLE}.html", f"ja/{COPY}.html", VIEW]
    assert "行動を選ぶ" in (project / "site" / "ja" / f"{ARTICLE}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


def add_unused_key(project: Path) -> None:
    path = project / "figures" / "figure-texts.json"
    texts = read_json(path)
    texts["spare"] = {"zh": "备用", "en": "spare", "ja": "予備"}
    write_json(path, texts)


def test_a_dictionary_key_no_figure_uses_renders_only_the_view(project: Path,
                                                               tmp_path: Path):
    add_unused_key(project)
    assert build(project).rendered == [VIEW]
    assert_same_as_clean_build(project, tmp_path)


def test_a_figure_spec_renders_the_pages_placing_it(project: Path, tmp_path: Path):
    edit(project / "figures" / f"{FIGURE}.yaml", "box: [20, 30, 140, 60]",
         "box: [20, 32, 140, 60]")
    assert build(project).rendered == sorted(article_pages(ARTICLE) + article_pages(COPY)
                                             + [VIEW])
    assert_same_as_clean_build(project, tmp_path)


def test_the_view_follows_the_confirmations_and_where_figures_are(project: Path,
                                                                    tmp_path: Path):
    record = project / "figures" / "figure-texts.confirmed.json"
    confirmed = read_json(record)
    del confirmed["act"]["ja"]   # the ja text of act becomes stale
    write_json(record, confirmed)
    assert build(project).rendered == [VIEW]
    assert_same_as_clean_build(project, tmp_path)
    # The view links each figure to the first article showing it in each language: once
    # the first article no longer shows the figure in ja, the link moves to the second.
    site = project / "site"

    def view() -> str:   # the page and the files it loads (the keys' rows link)
        return "".join(path.read_text() for path in [site / VIEW, *sorted(
            (site / "translations").iterdir())])
    assert f"ja/{ARTICLE}.html#figure-{FIGURE}" in view()
    edit(project / "content" / ARTICLE / "ja.md", f"```{{figure}} {FIGURE}\n```\n", "")
    assert build(project).rendered == [f"ja/{ARTICLE}.html", VIEW]
    assert f"ja/{COPY}.html#figure-{FIGURE}" in view()
    assert f"ja/{ARTICLE}.html#figure-{FIGURE}" not in view()
    assert_same_as_clean_build(project, tmp_path)


@pytest.mark.parametrize("change", ["template", "figure template", "strings", "site",
                                    "references"])
def test_shared_sources_render_what_depends_on_them(project: Path, tmp_path: Path,
                                                    change: str):
    if change == "template":
        edit(project / "templates" / "style.css", "body{margin:0;", "body{margin:0 ;")
        expected = PAGES - len(LANGUAGES)   # not the feeds: they read no stylesheet
    elif change == "figure template":  # the translator's view's copies are remembered
        edit(project / "templates" / "figure.html", 'class="canvas"', 'class="canvas "')
        expected = PAGES
    elif change == "strings":
        edit(project / "templates" / "strings.yaml", "en: Contents", "en: Table of contents")
        expected = PAGES
    elif change == "site":
        edit(project / "content" / "site.yaml", "title: Notes", "title: Field notes")
        expected = PAGES
    else:  # the copied article's bibliography: its pages, in every language
        edit(project / "content" / COPY / "references.yaml", "venue: MIT Press",
             "venue: MIT Press, 2nd edition")
        expected = len(LANGUAGES)
    assert len(build(project).rendered) == expected
    assert_same_as_clean_build(project, tmp_path)


def test_removed_and_added_pages(project: Path, tmp_path: Path):
    (project / "content" / COPY / "zh.md").unlink()
    shutil.copytree(project / "content" / ARTICLE, project / "content" / "third")
    built = build(project)
    assert f"zh/{COPY}.html" not in files(project / "site")
    assert set(article_pages("third")) <= set(built.rendered)
    assert_same_as_clean_build(project, tmp_path)


def test_figure_copies_are_kept_in_the_index_and_the_view_made_of_them_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The view's figure copies are kept in the cache's index, not in files of the store
    (creating a file cost more than rendering the copy): after a dictionary edit the
    view is rendered again from them, no figure spec loaded."""
    from articlesite.load import figures

    site_files = {os.stat(path).st_ino for path in (project / "site").rglob("*")}
    store = project / ".articlesite-cache" / "pages"
    assert [path.name for path in store.iterdir() if os.stat(path).st_ino not in site_files] \
        == []
    log = project.parent / "loaded.log"
    note_calls(monkeypatch, figures, "load_figure", log,
               lambda file, problems: f"{file.id} loaded")
    add_unused_key(project)
    assert build(project).rendered == [VIEW]
    assert not log.exists()
    monkeypatch.undo()
    assert_same_as_clean_build(project, tmp_path)


def test_a_page_template_change_renders_the_pages_around_the_bodies_kept(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """After a change to the page template, every article page is rendered again, but
    its body (Markdown and figures: what that template cannot change) comes from the
    cache: no source is parsed, no figure spec loaded."""
    from articlesite.load import figures
    from articlesite.render import markdown

    log = project.parent / "parsed.log"
    note_calls(monkeypatch, markdown, "parse", log, lambda text: "a source parsed")
    note_calls(monkeypatch, figures, "load_figure", log,
               lambda file, problems: f"{file.id} loaded")
    edit(project / "templates" / "article.html", '<nav class="toc"',
         '<nav data-edited class="toc"')
    built = build(project)
    # The article pages only: the indexes, feeds and translator's view do not read it.
    assert set(built.rendered) == set(article_pages(ARTICLE) + article_pages(COPY))
    assert not log.exists()
    assert "<nav data-edited" in (project / "site" / "ja" / f"{COPY}.html").read_text()
    monkeypatch.undo()
    assert_same_as_clean_build(project, tmp_path)


def test_a_template_change_renders_the_pages_that_read_it(project: Path, tmp_path: Path):
    # The dateline is imported by the article and index pages, not by the others.
    edit(project / "templates" / "dateline.html", "{% macro dateline",
         "{# edited #}{% macro dateline")
    assert set(build(project).rendered) == set(
        article_pages(ARTICLE) + article_pages(COPY)
        + [f"{code}/index.html" for code in ("en", "ja", "zh")])
    # base.html is read by every page.
    edit(project / "templates" / "base.html", "<body>", "<body data-edited>")
    assert "translations.html" in build(project).rendered
    assert_same_as_clean_build(project, tmp_path)


def test_a_figure_template_change_renders_the_bodies_again(project: Path, tmp_path: Path):
    edit(project / "templates" / "figure.html", '<figcaption', '<figcaption data-edited')
    built = build(project)
    assert set(article_pages(ARTICLE) + article_pages(COPY)) <= set(built.rendered)
    assert "<figcaption data-edited" in (project / "site" / "en" / f"{ARTICLE}.html").read_text()
    assert_same_as_clean_build(project, tmp_path)


@pytest.mark.parametrize("spread", [False, True], ids=["rendered here", "parse stage"])
def test_bodies_are_kept_in_their_pages_and_a_damaged_one_is_rendered_again(
        project: Path, tmp_path: Path, monkeypatch, spread: bool):
    """The store keeps no body of its own: after an edit to the page template each is
    read back out of its page's stored file, and where that file was damaged, rendered
    again. `spread`: the site built first as a large full build is, each page rendered
    by the parse stage over the cores, its body with it (build.parse)."""
    if spread:
        monkeypatch.setattr(parallel, "PARALLEL_FROM", 2)
        build(project, clean=True)
        monkeypatch.setattr(parallel, "PARALLEL_FROM", 10**6)   # the rebuild: counted here
    site_files = {os.stat(path).st_ino for path in (project / "site").rglob("*")}
    store = project / ".articlesite-cache" / "pages"
    assert [path for path in store.glob("*.html") if os.stat(path).st_ino not in site_files
            and 'id="copy-figure-' not in path.read_text(encoding="utf-8")] == []
    for code in LANGUAGES:   # ARTICLE's pages damaged, not COPY's
        page = (project / "site" / code / f"{ARTICLE}.html").read_bytes()
        stored = store / f"{digest(page)}.html"
        text = stored.read_text(encoding="utf-8")
        assert 'class="secno"' in text
        os.unlink(stored)   # (not through the site's hard link)
        stored.write_text(text.replace('class="secno"', 'class="secn0"'), encoding="utf-8")
    edit(project / "templates" / "article.html", '<nav class="toc"',
         '<nav data-edited class="toc"')
    bodies = []
    render_body = Renderer.render_body
    monkeypatch.setattr(Renderer, "render_body", lambda self, article, language, *args,
                        **kwargs: bodies.append((article.slug, language)) or
                        render_body(self, article, language, *args, **kwargs))
    build(project)
    assert sorted(bodies) == [(ARTICLE, code) for code in sorted(LANGUAGES)]
    assert_same_as_clean_build(project, tmp_path)


def test_bodies_of_articles_with_the_same_sources_are_not_mixed_up(project: Path,
                                                                   tmp_path: Path):
    """A body links to its own article (a stale section's notice links to the section in
    the source language): the copied article, whose sources are the same bytes, keeps
    its own bodies when the page template changes."""
    for slug in (ARTICLE, COPY):
        edit(project / "content" / slug / "en.md", "## Collect {#collect}\n",
             "## Collect {#collect}\n\nA sentence added after the translations.\n")
    build(project)
    assert f'href="../en/{COPY}.html#collect"' in \
        (project / "site" / "ja" / f"{COPY}.html").read_text(encoding="utf-8")
    edit(project / "templates" / "article.html", '<nav class="toc"',
         '<nav data-edited class="toc"')
    assert len(build(project).rendered) == 2 * len(LANGUAGES)
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
    source = project / "content" / COPY / "en.md"
    edit(source, f"```{{figure}} {FIGURE}\n", f"```{{figure}} {FIGURE}-missing\n")
    with pytest.raises(BuildError, match=f"unknown figure '{FIGURE}-missing'"):
        build(project)
    assert files(project / "site") == before
    edit(source, f"```{{figure}} {FIGURE}-missing\n", f"```{{figure}} {FIGURE}\n")
    assert build(project).rendered == []
    assert_same_as_clean_build(project, tmp_path)


# Where a file's content is read after its digest: a source's by rendering (after the
# plan), a spec's by the check stage (its node links, check/marks.py) or rendering.
@pytest.mark.parametrize("changed, stage", [(f"content/{COPY}/en.md", "plan_pages"),
                                            (f"figures/{FIGURE}.yaml", "check")])
def test_a_source_edited_during_the_build_fails_it(project: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   changed: str, stage: str):
    from articlesite import build as stages

    edit(project / changed, "title", "title ")   # so that the build must render it
    then = getattr(stages, stage)

    def edit_then(*args):
        edit(project / changed, "title", "title ")  # read (its digest), content not yet
        return then(*args)

    monkeypatch.setattr(stages, stage, edit_then)
    before = files(project / "site")
    with pytest.raises(BuildError, match="changed while the site was being built"):
        build(project)
    assert files(project / "site") == before
    monkeypatch.undo()
    build(project)
    assert_same_as_clean_build(project, tmp_path)


def test_a_broken_spec_is_reported_even_when_no_page_is_rendered(project: Path):
    spec = project / "figures" / f"{FIGURE}.yaml"
    width = next(line for line in spec.read_text(encoding="utf-8").splitlines()
                 if line.startswith("width: "))
    edit(spec, width, "width: wide")
    with pytest.raises(BuildError, match="'width' must be a positive number"):
        build(project)
    (project / "figures" / "unused.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    edit(spec, "width: wide", width)
    with pytest.raises(BuildError, match="unused.yaml:2: invalid YAML"):
        build(project)


def test_a_missing_dictionary_key_is_reported_for_cached_pages(project: Path):
    path = project / "figures" / "figure-texts.json"
    texts = read_json(path)
    del texts["act"]
    write_json(path, texts)
    with pytest.raises(BuildError) as error:
        build(project)
    assert any(p.key == "act" and p.file == f"figures/{FIGURE}.yaml"
               for p in error.value.problems)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="parallel builds need fork()")
def test_many_articles_built_in_parallel_match_a_serial_build(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch):
    from articlesite import parallel

    root = fixture_site("sources", tmp_path / "many")
    for number in range(1, 6):
        shutil.copytree(root / "content" / ARTICLE, root / "content" / f"copy-{number}")
        edit(root / "content" / f"copy-{number}" / "en.md", "\n## Learn {#learn}",
             f"\n## Learn, take {number} {{#learn}}")
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    assert len(build(root).rendered) == site_pages(6)
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    serial = tmp_path / "serial"
    build(root, serial, clean=True)
    assert files(root / "site") == files(serial)


def test_a_spec_is_parsed_once_per_build(project: Path, monkeypatch: pytest.MonkeyPatch):
    from articlesite.load import figures

    # The two articles may render in two forked workers, each parsing the specs its
    # pages place: every parse is noted, with its process.
    log = project.parent / "parsed.log"
    note_calls(monkeypatch, figures, "load_figure", log,
               lambda file, problems: f"{os.getpid()} {file.id}")
    build(project, clean=True)
    parsed = log.read_text(encoding="utf-8").splitlines()
    assert len(parsed) == len(set(parsed))   # never twice in one process
    assert {line.split()[1] for line in parsed} == {
        path.stem for path in (project / "figures").glob("*.yaml")}


def test_clean_ignores_the_cache(project: Path):
    assert len(build(project, clean=True).rendered) == PAGES


def test_a_new_process_reads_the_compiled_templates_kept_by_clean(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Jinja keeps the templates it compiled in the cache folder, which --clean keeps: a
    new process (no environment in memory) compiles only the template whose text
    changed, and the site is what it would be without them."""
    from jinja2 import Environment

    from articlesite.render import templates

    compiled = []
    compile_template = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda env, source, name=None, *args:
                        compiled.append(name) or compile_template(env, source, name, *args))
    monkeypatch.setattr(templates, "_environments", type(templates._environments)())
    build(project, clean=True)
    assert compiled == []
    edit(project / "templates" / "base.html", "<body>", "<body data-edited>")
    monkeypatch.setattr(templates, "_environments", type(templates._environments)())
    build(project, clean=True)
    assert compiled == ["base.html"]
    assert "<body data-edited>" in (project / "site" / "en" / "index.html").read_text()
    shutil.rmtree(project / ".articlesite-cache" / "templates")
    build(project, tmp_path / "compiled-afresh", clean=True)
    assert files(tmp_path / "compiled-afresh") == files(project / "site")


def test_compiled_templates_that_cannot_be_kept_do_not_fail_the_build(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from articlesite.render import templates

    environment = templates.environment

    def folder_deleted(folder, texts, compiled=None):   # e.g. by hand, meanwhile
        env = environment(folder, texts, compiled)
        shutil.rmtree(compiled)
        return env
    monkeypatch.setattr(templates, "environment", folder_deleted)
    monkeypatch.setattr(templates, "_environments", type(templates._environments)())
    assert len(build(project, clean=True).rendered) == PAGES


def test_command_line_summary(project: Path, capsys: pytest.CaptureFixture):
    from articlesite.cli import main

    assert main(["--root", str(project)]) == 0
    assert f"{PAGES} pages in {len(LANGUAGES)} languages" in capsys.readouterr().out
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


def test_a_quick_rebuild_checks_the_edited_article(project: Path):
    """serve's quick rebuild (on top of the previous build) checks only the articles it
    edited: a section id that the page gives its figure is still found, with its line."""
    from articlesite.cache import Cache

    cache = Cache(project)
    last = build(project, cache=cache)
    path = project / "content" / COPY / "ja.md"
    edit(path, "## 学習 {#learn}", "## 学習 {#figure-steps}")
    with pytest.raises(BuildError) as raised:
        build(project, cache=Cache(project, after=cache), previous=last, changed=[path])
    assert [(problem.file, problem.line) for problem in raised.value.problems
            if "section id 'figure-steps' is already an id of the page" in problem.message] \
        == [(f"content/{COPY}/ja.md", 14)]


def test_the_pages_a_build_superseded_are_deleted_by_the_next(project: Path, tmp_path: Path):
    """A stored page no build uses any more is deleted in a thread, at the latest by the
    next build: the store does not grow with every edit, and a page rendered back into
    bytes stored before is kept."""
    store = project / ".articlesite-cache" / "pages"
    template = project / "templates" / "article.html"
    first = template.read_text(encoding="utf-8")
    before = set(os.listdir(store))
    edit(template, '<nav class="toc"', '<nav data-edited class="toc"')
    build(project)
    edited = set(os.listdir(store)) | before
    template.write_text(first, encoding="utf-8")   # back to the first build's pages
    assert set(build(project).rendered) == set(article_pages(ARTICLE) + article_pages(COPY))
    now = set(os.listdir(store))
    assert before <= now   # the first build's pages, written again, are kept
    edit(template, '<nav class="toc"', '<nav data-edited-again class="toc"')
    build(project)
    assert build(project).rendered == []
    gone = edited - before
    assert gone and not gone & set(os.listdir(store))   # the edited build's pages
    assert len(os.listdir(store)) <= len(edited) + len(article_pages(ARTICLE)) * 2
    assert_same_as_clean_build(project, tmp_path)


def test_a_build_deletes_what_the_last_one_left_unused(project: Path):
    """The build command ends as soon as its site is written, before the thread deleting
    the stored files it no longer uses is done: the next build deletes those the cache
    names."""
    bundle = project / ".articlesite-cache" / "bundle"   # (it names them: Cache.save)
    stray = project / ".articlesite-cache" / "pages" / "0123456789abcdef.html"
    stray.write_text("a page the last build superseded", encoding="utf-8")
    data = marshal.loads(bundle.read_bytes())
    data["superseded"] = [*data.get("superseded", []), stray.name]
    bundle.write_bytes(marshal.dumps(data))
    assert build(project).rendered == []
    assert not stray.exists()
