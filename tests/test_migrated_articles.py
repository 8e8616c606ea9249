"""Articles brought from other tools (tests/fixtures/migrated: d2lbook, VitePress and
react.dev MDX, each in zh, en and ja; see its README.md), built as a site and read as a
reader would: what another tool's spelling means is rendered, and every line whose markup
a reader still sees as text is named by `check`. The files as their authors wrote them
(upstream/) build, or each of their problems is named once."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup, NavigableString
from conftest import REPO, fixture_site, run_build
from filesite import make_site, write_article

FIXTURE = REPO / "tests" / "fixtures" / "migrated"
LANGUAGES = ("zh", "en", "ja")
D2L, VUE, REACT = ("d2l-self-attention-positional-encoding", "vue-template-syntax",
                   "react-ui-as-a-tree")
ARTICLES = (D2L, VUE, REACT)
PAGES = [pytest.param(slug, lang, id=f"{slug.split('-')[0]}-{lang}")
         for slug in ARTICLES for lang in LANGUAGES]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = fixture_site("migrated", tmp_path_factory.mktemp("migrated") / "project")
    result = run_build(root)
    assert "Traceback" not in result.stderr, result.stderr
    return root, result


@pytest.fixture(scope="module")
def report(site):
    """`check --format json --no-browser` of the built site."""
    from articlesite.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["--root", str(site[0]), "check", "--format", "json", "--no-browser"])
    return json.loads(out.getvalue())


def page(site, slug: str, language: str) -> BeautifulSoup:
    path = site[0] / "site" / language / f"{slug}.html"
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").find("article")


def source(slug: str, language: str) -> str:
    return (FIXTURE / "content" / slug / f"{language}.md").read_text(encoding="utf-8")


HIDDEN = {"code", "pre", "math", "script", "style", "svg", "template"}


def visible_text(element) -> str:
    return "".join(str(s) for s in element.find_all(string=True)
                   if type(s) is NavigableString and not any(p.name in HIDDEN
                                                             for p in s.parents))


def test_the_migrated_articles_build(site):
    _, result = site
    assert result.returncode == 0, result.stderr
    assert "warnings: readers will see this as text" in result.stderr


# What a reader would see as another tool's markup, line by line (outside code).
SHOWN = re.compile(r"(?<![\w`])</?[A-Za-z][\w.:-]*(?=[\s/>])|<!--|\{/\*"
                   r"|(?<![\w:]):[A-Za-z][\w.+-]*:`|\{[A-Za-z][\w:.-]*\}`|\[\*\*")


def markup_lines(text: str) -> set[int]:
    """The lines of a source, outside its front matter, code fences and code spans, that
    hold markup of another tool."""
    found, fence = set(), None
    lines = text.splitlines()
    start = lines.index("---", 1) + 1
    for number, line in enumerate(lines[start:], start=start + 1):
        marker = re.match(r"\s*(`{3,}|~{3,})", line)
        if marker and (fence is None or marker.group(1).startswith(fence)):
            fence = None if fence else marker.group(1)
            continue
        if fence is None and SHOWN.search(re.sub(r"`[^`]+`", "`c`", line)):
            found.add(number)
    return found


@pytest.mark.parametrize("slug, language", PAGES)
def test_every_line_shown_as_markup_is_named_by_check(site, report, slug, language):
    named = {f["line"] for f in report["findings"]
             if f["check"] == "markup" and f["file"] == f"content/{slug}/{language}.md"}
    expected = markup_lines(source(slug, language))
    assert expected, "the oracle finds nothing: it is broken"
    assert sorted(expected - named) == []


@pytest.mark.parametrize("slug, language", PAGES)
def test_what_has_one_meaning_is_rendered(site, slug, language):
    text = visible_text(page(site, slug, language))
    for markup in (":::", "{.python", "```", "{#", "{/*"):
        assert markup not in text


@pytest.mark.parametrize("slug, language", PAGES)
def test_every_code_block_is_highlighted(site, slug, language):
    fences = len(re.findall(r"^```\S", source(slug, language), flags=re.MULTILINE))
    blocks = page(site, slug, language).find_all("pre")
    assert len(blocks) == fences
    plain = [pre.get_text()[:40] for pre in blocks if not pre.find("span", class_=True)]
    assert plain == []


def test_a_file_name_after_the_language_is_the_title(site):
    for language in LANGUAGES:
        titles = [t.get_text() for t in page(site, REACT, language).select(".code-title")]
        assert titles[:4] == ["src/App.js", "src/FancyText.js", "src/InspirationGenerator.js",
                              "src/Copyright.js"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_have_no_error_and_no_empty_row(site, language):
    article = page(site, D2L, language)
    formulas = article.find_all("math")
    assert len(formulas) > 50
    assert not article.find_all("merror")
    empty = [str(row)[:80] for row in article.find_all("mtr") if not row.get_text(strip=True)]
    assert empty == []
    # the rotation: a 2x2 matrix times a column of two rows, then two more columns
    bmatrices = [t for t in article.find_all("mtable") if len(t.find_all("mtr")) == 2]
    assert len(bmatrices) >= 5


@pytest.mark.parametrize("slug, language", PAGES)
def test_no_image_is_broken(site, slug, language):
    root = site[0]
    for img in page(site, slug, language).find_all("img"):
        target = (root / "site" / language / unquote(urlsplit(img["src"]).path)).resolve()
        assert target.is_file(), img["src"]
        assert img.get("alt") and img.get("width")


def test_an_image_variant_of_the_language_is_shown(site):
    assert page(site, VUE, "ja").find("img")["src"].endswith("directive.ja.png")
    assert page(site, VUE, "en").find("img")["src"].endswith("directive.png")


@pytest.mark.parametrize("language, origin", [("zh", "https://zh-hans.react.dev"),
                                              ("en", "https://react.dev"),
                                              ("ja", "https://ja.react.dev")])
def test_site_absolute_links_go_to_the_original_site(site, language, origin):
    hrefs = [a["href"] for a in page(site, REACT, language).find_all("a", href=True)]
    assert f"{origin}/learn/your-first-component#nesting-and-organizing-components" in hrefs
    assert not [h for h in hrefs if h.startswith("/")]
    vue = [a["href"] for a in page(site, VUE, language).find_all("a", href=True)]
    host = {"zh": "cn.vuejs.org", "en": "vuejs.org", "ja": "ja.vuejs.org"}[language]
    # `./forms#modifiers`, relative to the guide's page
    assert f"https://{host}/guide/essentials/forms#modifiers" in vue
    assert f"https://{host}/api/built-in-directives#v-html" in vue


@pytest.mark.parametrize("language, title, tip", [("zh", "安全警告", "提示"),
                                                  ("en", "Security Warning", "Tip"),
                                                  ("ja", "セキュリティーに関する警告", "ヒント")],
                         ids=LANGUAGES)
def test_vitepress_containers_are_admonitions(site, language, title, tip):
    article = page(site, VUE, language)
    warning = article.select_one(".admonition-warning .admonition-title")
    assert warning is not None and warning.get_text() == title
    assert article.select_one(".admonition-tip .admonition-title").get_text() == tip


def test_a_diagram_names_the_image_it_would_have_shown(report):
    messages = [f["message"] for f in report["findings"]
                if f["file"] == f"content/{REACT}/zh.md" and f["line"] == 28]
    assert any("'images/docs/diagrams/preserving_state_dom_tree.png'" in m for m in messages)


def test_the_upstream_files_name_each_problem_once(tmp_path):
    root = fixture_site("migrated", tmp_path / "project")
    for slug in ARTICLES:
        for language in LANGUAGES:
            shutil.copyfile(FIXTURE / "upstream" / slug / f"{language}.md",
                            root / "content" / slug / f"{language}.md")
    result = run_build(root)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    problems = [line.strip() for line in result.stderr.splitlines()[1:]
                if line.startswith("  ")]
    places = [p.split(": ", 1)[0] for p in problems]
    assert len(places) == len(set(places)), "a line named twice"
    assert not [p for p in problems if REACT in p], "react.dev's files need no change"
    assert sum(f"{VUE}/" in p for p in problems) == 3   # each file's '# Title'
    for problem in problems:
        assert re.search(r"a '#' heading in the body|a section heading needs an id|"
                         r"image '\.\./img/[\w-]+\.svg' is outside", problem), problem


def test_a_react_heading_id_is_taken_off_before_its_text_is_read(tmp_path):
    """`{/*id*/}` (react.dev) is an id, not `*id*` emphasis left in the heading."""
    root = make_site(tmp_path / "site")
    body = "## Your UI as a tree {/*your-ui-as-a-tree*/}\n\nText.\n"
    write_article(root, "tree", {"zh": body, "en": body, "ja": body})
    result = run_build(root)
    assert result.returncode == 0 and "JSX comment" not in result.stderr, result.stderr
    page = BeautifulSoup((root / "site/en/tree.html").read_text(encoding="utf-8"),
                         "html.parser")
    heading = page.select_one("h2#your-ui-as-a-tree")
    assert heading.get_text(" ", strip=True) == "1 Your UI as a tree"
    assert page.select_one('nav a[href="#your-ui-as-a-tree"]').get_text(strip=True) \
        .endswith("Your UI as a tree")


# --- Admonition kinds, declared and not ------------------------------------------------------

def kind_site(root: Path, declare: bool) -> Path:
    make_site(root)
    if declare:
        with (root / "content" / "site.yaml").open("a", encoding="utf-8") as config:
            config.write("admonitions:\n  pythontutor:\n    like: example\n    title:\n"
                         "      zh: 可视化运行\n      en: Visualized Execution\n")
    body = ('## S {#s}\n\n??? pythontutor\n    Code and its run.\n\n!!! nite\n    Typo.\n\n'
            '::: tip\nNever closed.\n')
    write_article(root, "kinds", {"zh": body, "en": body, "ja": body})
    return root


def test_an_unknown_kind_is_shown_and_warned_and_a_declared_one_is_silent(tmp_path):
    undeclared = run_build(kind_site(tmp_path / "undeclared", declare=False))
    assert undeclared.returncode == 0, undeclared.stderr
    assert "content/kinds/en.md:8: unknown admonition kind 'pythontutor'" in undeclared.stderr
    assert "unknown admonition kind 'nite': shown as an admonition titled 'Nite' unless it " \
           "gives a title (did you mean note?" in undeclared.stderr
    assert "content/kinds/en.md:14: '::: tip' is never closed by a line ':::'" in \
        undeclared.stderr
    box = BeautifulSoup((tmp_path / "undeclared/site/en/kinds.html").read_text(
        encoding="utf-8"), "html.parser").select_one("details.admonition-pythontutor")
    assert box.summary.get_text() == "Pythontutor"
    declared = run_build(kind_site(tmp_path / "declared", declare=True))
    assert declared.returncode == 0, declared.stderr
    assert "pythontutor" not in declared.stderr and "'nite'" in declared.stderr
    for language, title in (("zh", "可视化运行"), ("en", "Visualized Execution"),
                            ("ja", "Pythontutor")):
        html = (tmp_path / f"declared/site/{language}/kinds.html").read_text(encoding="utf-8")
        box = BeautifulSoup(html, "html.parser").select_one("details.admonition-pythontutor")
        assert box["class"] == ["admonition", "admonition-example", "admonition-pythontutor"]
        assert box.summary.get_text() == title


def test_a_wrong_declaration_is_named(tmp_path):
    root = make_site(tmp_path / "project")
    with (root / "content" / "site.yaml").open("a", encoding="utf-8") as config:
        config.write("admonitions:\n  note:\n    like: tip\n  box:\n    like: nothing\n"
                     "link_base:\n  fr: https://example.org\n  en: not-a-url\n")
    write_article(root, "a", {"en": "## S {#s}\n\nText.\n"})
    result = run_build(root)
    assert result.returncode == 1
    for text in ("admonition kind 'note': a known kind cannot be declared again",
                 "admonition kind 'box': like 'nothing' is not a known kind",
                 "link_base.fr: 'fr' is not one of the languages",
                 "link_base.en must be a URL starting with https://"):
        assert text in result.stderr, result.stderr
