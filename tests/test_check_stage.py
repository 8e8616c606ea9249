"""`check` works on the parsed sources: each article body is rendered once per language
(its figures, citations, links and images checked there), the `#id` of a link is checked
against the outlines, and the templates are compiled and each page template rendered
once; no site page is rendered for each article, and nothing is written."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path

from conftest import check, failed_build, fixture_site, line_of, problems

from articlesite.check.report import run_checks
from articlesite.render.templates import Renderer, renderer_for

LOOP = "content/loop/en.md"
OTHER = "content/other/ja.md"

MISTAKES = """
See [the other article](../other/#learn), [a part it lacks](../other/#nowhere),
[a part this page lacks](#missing) and [its own](#collect).

![](https://example.com/chart.png)

```{figure} nothing
```
"""


def site_with_two_articles(root: Path) -> Path:
    """The small fixture site with a second article, `other` (a copy of `loop`), and a
    mistake of each kind that only a body's rendering or the outlines find."""
    fixture_site("sources", root)
    shutil.copytree(root / "content" / "loop", root / "content" / "other")
    with (root / LOOP).open("a", encoding="utf-8") as file:
        file.write(MISTAKES)
    path = root / OTHER
    path.write_text(path.read_text(encoding="utf-8").replace("[@gae]", "[@nobody]"),
                    encoding="utf-8")
    return root


def test_check_renders_each_body_once_and_no_page_for_each_article(tmp_path: Path,
                                                                   monkeypatch):
    root = site_with_two_articles(tmp_path / "project")
    bodies: Counter = Counter()
    pages: Counter = Counter()
    render_body, page_html, page_chunks = (Renderer.render_body, Renderer.page_html,
                                           Renderer.page_chunks)

    def counted_body(self, article, language, *args, **kwargs):
        bodies[article.slug, language] += 1
        return render_body(self, article, language, *args, **kwargs)

    def counted_page(self, path, template, language, **values):
        pages[template] += 1
        return page_html(self, path, template, language, **values)

    def counted_chunks(self, path, template, language, **values):
        pages[template] += 1
        return page_chunks(self, path, template, language, **values)

    monkeypatch.setattr(Renderer, "render_body", counted_body)
    monkeypatch.setattr(Renderer, "page_html", counted_page)
    monkeypatch.setattr(Renderer, "page_chunks", counted_chunks)
    report = run_checks(root, browser=False)

    # Six article pages (two articles, three languages): each body once, one page.
    assert bodies == {(slug, code): 1 for slug in ("loop", "other")
                      for code in ("en", "zh", "ja")}
    assert pages == {template: 1 for template in ("root.html", "404.html", "index.html",
                                                  "feed.xml", "article.html",
                                                  "translations.html")}
    assert "each page template rendered on one page only" in report.checked
    assert not (root / "site").exists()

    found = {(f.check, f.file, f.line, f.language, f.key, f.message) for f in report.findings
             if f.check in ("build", "links")}
    links = line_of(root, LOOP, "[a part it lacks]")
    own = line_of(root, LOOP, "[a part this page lacks]")
    image = line_of(root, LOOP, "chart.png")
    assert found == {
        ("links", LOOP, links, "en", None,
         "link to '../other/#nowhere': the article's page in 'en' has no such id"),
        ("links", LOOP, own, "en", None,
         "link to '#missing': this page has no such id (section ids are written {#id})"),
        ("links", LOOP, image, "en", None,
         ("image 'https://example.com/chart.png' has no alt text: describe it for readers "
          "who cannot see it, ![what it shows](…)")),
        ("links", LOOP, image, "en", None,
         ("image 'https://example.com/chart.png' is on another site: the page shows a link "
          "to it instead, as the site makes no outside request; save it in the article's "
          "folder")),
        ("build", LOOP, line_of(root, LOOP, "{figure} nothing"), "en", "nothing",
         "unknown figure 'nothing' (figures: steps)"),
        ("build", OTHER, line_of(root, OTHER, "[@nobody]"), "ja", None,
         "citation '@nobody' has no entry in the bibliography (references.yaml)"),
    }


def test_a_template_mistake_is_reported_with_its_file_and_line(tmp_path: Path, capsys):
    """A mistake that shows when a page is rendered, one in a template only a stale
    section would show (compiled, never rendered here), and one in the translator's
    view: each with its template's file and line, as the build reports them."""
    root = fixture_site("sources", tmp_path / "project")
    templates = root / "templates"
    for name, anchor, mistake in (
            ("article.html", "{% block main %}", "{{ article_path() }}"),
            ("notice.html", "{% endmacro %}", "{% if %}"),
            ("translations.html", "{% block main %}", "{{ (groups | length) / 0 }}")):
        path = templates / name
        text = path.read_text(encoding="utf-8")
        assert anchor in text
        path.write_text(text.replace(anchor, f"{anchor}\n{mistake}", 1), encoding="utf-8")
    code, report = check(root, capsys)
    assert code == 1
    found = {(f["file"], f["line"]): f["message"] for f in problems(report, "build")}
    assert set(found) == {
        ("templates/article.html", line_of(root, "templates/article.html", "article_path()")),
        ("templates/notice.html", line_of(root, "templates/notice.html", "{% if %}")),
        ("templates/translations.html",
         line_of(root, "templates/translations.html", "/ 0 }}"))}
    assert found["templates/article.html", line_of(root, "templates/article.html",
                                                   "article_path()")].startswith(
        "template error: TypeError:")
    assert "template error: Expected an expression" in \
        found["templates/notice.html", line_of(root, "templates/notice.html", "{% if %}")]
    assert "ZeroDivisionError: division by zero" in \
        found["templates/translations.html",
              line_of(root, "templates/translations.html", "/ 0 }}")]


def test_a_mistake_in_the_figure_macro_stops_the_build_at_its_line(tmp_path: Path, capsys):
    """figure.html's macro is called from Python (render/figure_form.py): its mistake is
    still a problem at the template's own line, in the build and in check, not a
    traceback."""
    root = fixture_site("sources", tmp_path / "project")
    path = root / "templates" / "figure.html"
    text = path.read_text(encoding="utf-8")
    anchor = "{% macro figure("
    assert anchor in text
    start = text.index("\n", text.index(anchor)) + 1
    path.write_text(text[:start] + "{{ spec.no_such_field.x }}\n" + text[start:],
                    encoding="utf-8")
    where = f"templates/figure.html:{line_of(root, 'templates/figure.html', 'no_such_field')}"
    message = failed_build(root)
    assert f"{where}: template error:" in message and "no_such_field" in message
    assert "Traceback" not in message
    code, report = check(root, capsys)
    assert code == 1
    assert [f"templates/figure.html:{f['line']}" for f in problems(report, "build")] == [where]


def test_a_clean_build_and_check_parse_each_source_once(tmp_path: Path, monkeypatch):
    """The check stage's parse of each source serves its outline, its sections (the
    stale notices need them before any page is rendered) and its page: one parse per
    source, in a build and in `check` (a site this small is parsed in this process)."""
    from articlesite.build import build
    from articlesite.render import markdown

    root = fixture_site("sources", tmp_path / "project")   # with sections confirmed
    assert (root / "content" / "loop" / "sections.confirmed.json").is_file()
    parsed: Counter = Counter()
    parse = markdown.parse

    def counted(text: str) -> list:
        parsed[text] += 1
        return parse(text)

    monkeypatch.setattr(markdown, "parse", counted)
    built = build(root, clean=True)
    sources = [source for article in built.sources.articles
               for source in article.sources.values()]
    assert len(sources) == 3 and sorted(parsed.values()) == [1, 1, 1]
    parsed.clear()
    run_checks(root, browser=False)
    assert sorted(parsed.values()) == [1, 1, 1]


def test_a_build_over_the_cores_parses_each_source_once_in_every_process(tmp_path: Path,
                                                                         monkeypatch):
    """Enough sources to parse them over the cores: each worker makes a source's
    outline, sections and body from one parse (parse.py), and rendering puts the body in
    its page without parsing it again. The site is the one a build in this process
    makes."""
    from articlesite import parallel
    from articlesite.build import build
    from articlesite.render import markdown

    root = fixture_site("sources", tmp_path / "project")   # with sections confirmed
    for n in range(2, 6):
        copy = shutil.copytree(root / "content" / "loop", root / "content" / f"loop-{n}")
        for source in copy.glob("*.md"):   # each source its own text
            source.write_text(source.read_text(encoding="utf-8") + f"\nCopy {n}.\n",
                              encoding="utf-8")
    log, parse = tmp_path / "parses.log", markdown.parse

    def counted(text: str) -> list:
        with log.open("a", encoding="utf-8") as out:   # from every process
            out.write(f"{os.getpid()} {hash(text)}\n")
        return parse(text)

    monkeypatch.setattr(markdown, "parse", counted)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    build(root, tmp_path / "spread", clean=True)
    parses = [line.split() for line in log.read_text().splitlines()]
    assert len(parses) == 15 and len({text for _, text in parses}) == 15
    assert os.getpid() not in {int(pid) for pid, _ in parses}   # all in the workers
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10**6)
    build(root, tmp_path / "here", clean=True)
    assert site_files(tmp_path / "spread") == site_files(tmp_path / "here")


def site_files(site: Path) -> dict[str, bytes]:
    return {str(path.relative_to(site)): path.read_bytes()
            for path in sorted(site.rglob("*")) if path.is_file()}


PARSE_MISTAKES = """
## No id here

# A second title

### Bad {#Bad_Id}

```{figure}
```

```{figure} nothing-like-it
```

```{sidebar}
text
```

$$
a \\label{eq:x}
$$

$$
b \\label{eq:x}
$$

A note[^missing] and [@nobody].
"""


NOWHERE = ("node 'learn' links to '#nowhere', which is not a section of {}.md (sections: "
           "collect, learn)")
BAD_ID = ("heading id '{#Bad_Id}' must be lower-case letters, digits and hyphens, starting "
          "with a letter or digit")
NO_ID = "a section heading needs an id that is the same in every language"


def test_the_check_stage_finds_without_rendering_what_the_parse_shows(tmp_path: Path,
                                                                      monkeypatch):
    """A `#` heading, a heading id written wrongly, a section heading without an id, a
    figure directive without an id, an unknown figure and
    directive, a label used twice, an undefined footnote, a citation of no entry, a
    figure's node linking to no section: the check stage finds them on the outlines
    (and the spec), with their file, line and language; no body is rendered, and
    rendering the body reports none of them again."""
    from articlesite.check.stage import check_sources
    from articlesite.load.figures import FigureLibrary
    from articlesite.load.sources import load_sources
    from articlesite.problems import Problems

    root = fixture_site("sources", tmp_path / "project")
    spec = root / "figures" / "steps.yaml"
    spec.write_text(spec.read_text().replace("link: learn", "link: nowhere"))
    with (root / "content" / "loop" / "en.md").open("a", encoding="utf-8") as file:
        file.write(PARSE_MISTAKES)
    first = (root / "content" / "loop" / "en.md").read_text().splitlines() \
        .index("## No id here") + 1   # the line of the first mistake
    sources = load_sources(root, Problems(root))
    monkeypatch.setattr(Renderer, "render_body", None)   # not called
    found, parsed = Problems(root), {}
    figures = FigureLibrary(sources.figures, sources.dictionary, found)
    check_sources(sources.site, figures, sources.articles, sources.memo, found,
                  lambda *args, **kwargs: None, parsed)
    nodes = [(p.file, p.line, p.message, p.language) for p in found
             if p.file == "figures/steps.yaml"]
    assert sorted(nodes, key=lambda node: node[3]) == [
        ("figures/steps.yaml", 10, NOWHERE.format(code), code) for code in ("en", "ja", "zh")]
    assert [(p.file, p.line - first, p.message.split(":")[0].split(" (")[0], p.language)
            for p in sorted(found, key=lambda p: (p.line, p.message))
            if p.file != "figures/steps.yaml"] == [
        ("content/loop/en.md", 0, NO_ID, "en"),
        ("content/loop/en.md", 2, "a '#' heading in the body would be a second title", "en"),
        ("content/loop/en.md", 4, BAD_ID, "en"),
        ("content/loop/en.md", 6, "a figure directive needs a figure id", "en"),
        ("content/loop/en.md", 9, "unknown figure 'nothing-like-it'", "en"),
        ("content/loop/en.md", 12, "unknown directive '{sidebar}'", "en"),
        ("content/loop/en.md", 20, "\\label{eq", "en"),
        ("content/loop/en.md", 24, "citation '@nobody' has no entry in the bibliography",
         "en"),
        ("content/loop/en.md", 24, "footnote [^missing] is not defined", "en")]
    monkeypatch.undo()
    renderer = renderer_for(sources, rendered := Problems(root), parsed=parsed,
                            library=figures)
    renderer.render_body(sources.articles[0], "en")
    assert list(rendered) == []
