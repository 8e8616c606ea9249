"""Real articles as their authors wrote them, built as whole sites and read as a reader would.

Two openly licensed technical texts that exist in Chinese, English and Japanese live under
tests/fixtures/ (each folder's README.md says where they come from, under which licence,
and every change made to them):

- hello-algo: two sections of the data-structures book "Hello 算法" written for MkDocs
  Material: multi-line math (`aligned`), MkDocs admonitions and content tabs, code in
  twelve languages, tables with formulas, relative images, a few raw HTML tags;
- mdn-http: two guides of MDN's HTTP documentation: relative SVG images, a GitHub alert
  (`> [!NOTE]`), code blocks inside list items, `###` headings, many links, Japanese
  written one sentence per line, and a translation that lacks one section.

Each project is built with the repository's templates into tmp_path. Many expectations
wait for features of issue 9; each of those is marked `xfail(strict=True)` naming what it
needs, so that the test suite passes today and a feature that lands shows up as an XPASS
failure: then remove the marker.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup, NavigableString
from conftest import THEME, check, run_build, without_search

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LANGUAGES = ("zh", "en", "ja")


def needs(*features: str):
    """Mark an expectation that waits for features of issue 9."""
    return pytest.mark.xfail(reason=f"needs {' and '.join(features)} (issue 9)", strict=True)


@dataclass
class Built:
    root: Path
    returncode: int
    stderr: str

    @property
    def site(self) -> Path:
        return self.root / "site"

    def page(self, language: str, slug: str) -> BeautifulSoup:
        path = self.site / language / f"{slug}.html"
        assert path.is_file(), f"{path.relative_to(self.root)} was not written"
        return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")

    def source(self, language: str, slug: str) -> str:
        return (self.root / "content" / slug / f"{language}.md").read_text(encoding="utf-8")


def build_fixture(name: str, target: Path, only: tuple[str, ...] | None = None) -> Built:
    """Copy tests/fixtures/NAME (only some of its articles, if asked) with the repository's
    templates into `target` and build it as a user would."""
    source = FIXTURES / name
    shutil.copytree(source / "figures", target / "figures")
    shutil.copytree(THEME, target / "templates")
    (target / "content").mkdir()
    shutil.copy2(source / "content" / "site.yaml", target / "content" / "site.yaml")
    for folder in (source / "content").iterdir():
        if folder.is_dir() and (only is None or folder.name in only):
            shutil.copytree(folder, target / "content" / folder.name)
    result = run_build(without_search(target))
    assert "Traceback" not in result.stderr, result.stderr
    return Built(target, result.returncode, result.stderr)


@pytest.fixture(scope="module")
def hello_algo(tmp_path_factory) -> Built:
    return build_fixture("hello-algo", tmp_path_factory.mktemp("hello-algo") / "project")


@pytest.fixture(scope="module")
def data_types(tmp_path_factory) -> Built:
    """hello-algo with only its section without display math: its tabs, code and table can
    be looked at before multi-line math lands."""
    return build_fixture("hello-algo", tmp_path_factory.mktemp("data-types") / "project",
                         only=("basic-data-types",))


@pytest.fixture(scope="module")
def mdn(tmp_path_factory) -> Built:
    return build_fixture("mdn-http", tmp_path_factory.mktemp("mdn") / "project")


def built(request, name: str) -> Built:
    """The named site; an article test needs it built."""
    site = request.getfixturevalue(name)
    assert site.returncode == 0, site.stderr
    return site


# Which site each article is read from: number-encoding needs the whole hello-algo site.
ARTICLES = {"number-encoding": "hello_algo", "basic-data-types": "data_types",
            "http-overview": "mdn", "http-session": "mdn"}


def article(request, slug: str, language: str) -> tuple[Built, BeautifulSoup]:
    site = built(request, ARTICLES[slug])
    return site, site.page(language, slug)


def body(page: BeautifulSoup):
    found = page.find("article")
    assert found is not None, "the page has no <article>"
    return found


# What a reader sees: text outside code, math and scripts.
HIDDEN = {"code", "pre", "math", "script", "style", "svg", "template"}


def visible_text(element) -> list[str]:
    return [str(s) for s in element.find_all(string=True)
            if isinstance(s, NavigableString) and type(s) is NavigableString
            and not any(p.name in HIDDEN for p in s.parents)]


LITERAL_MARKDOWN = {
    "!!! (MkDocs admonition)": re.compile(r"[!?]{3}\+? ?\w"),
    "=== (content tab)": re.compile(r"={3}"),
    "::: (fenced directive)": re.compile(r":{3}"),
    "[^ (footnote)": re.compile(r"\[\^"),
    "$ (math delimiter)": re.compile(r"\$"),
    "** (bold)": re.compile(r"\*\*"),
    "``` (code fence)": re.compile(r"```|~~~"),
    "~~ (strikethrough)": re.compile(r"~~"),
    "{#id} / {: attributes}": re.compile(r"\{[#.:][\w-]"),
    "{{macro}}": re.compile(r"\{\{"),
    "[!NOTE] (GitHub alert)": re.compile(r"\[![A-Z]+\]"),
}
RAW_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?/?>")
UNDERLINED = re.compile(r"<u>[^<>`]*</u>")   # taken as HTML (markdown_rules/inline_html.py)


def literal_markup(element) -> list[str]:
    found = []
    for text in visible_text(element):
        found += [f"{what}: {text.strip()[:80]!r}" for what, pattern in LITERAL_MARKDOWN.items()
                  if pattern.search(text)]
    return found


def each_language(slug: str, marks: dict[str, list] | None = None, every: list | None = None):
    """Parameters (slug, language), with the marks that apply to every or to one language."""
    marks = marks or {}
    return [pytest.param(slug, lang, marks=marks.get(lang, every or []),
                         id=f"{slug}-{lang}") for lang in LANGUAGES]


NUMBER_ENCODING = "number-encoding"
DATA_TYPES = "basic-data-types"
HTTP = "http-overview"
SESSION = "http-session"


# --- The whole sites build, with every language -------------------------------------------

def test_hello_algo_builds(hello_algo):
    assert hello_algo.returncode == 0, hello_algo.stderr


def test_mdn_builds(mdn):
    assert mdn.returncode == 0, mdn.stderr


@pytest.mark.parametrize("name, slugs", [
    pytest.param("hello_algo", (NUMBER_ENCODING, DATA_TYPES), id="hello-algo"),
    pytest.param("mdn", (HTTP, SESSION), id="mdn")])
def test_every_language_has_its_page_listed(request, name, slugs):
    site = built(request, name)
    for language in LANGUAGES:
        index = BeautifulSoup((site.site / language / "index.html").read_text(encoding="utf-8"),
                              "html.parser")
        links = {a["href"] for a in index.find_all("a", href=True)}
        for slug in slugs:
            assert (site.site / language / f"{slug}.html").is_file(), (language, slug)
            assert any(href.endswith(f"{slug}.html") for href in links), (language, slug)


# --- One title, the author's -----------------------------------------------------------------

@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(DATA_TYPES), *each_language(HTTP), *each_language(SESSION)])
def test_one_h1_with_the_front_matter_title(request, slug, language):
    site, page = article(request, slug, language)
    title = re.search(r'^title: "(.*)"$', site.source(language, slug), re.MULTILINE).group(1)
    headings = page.find_all("h1")
    assert [h.get_text(strip=True) for h in headings] == [title]
    assert title in page.title.get_text()


# --- No literal Markdown reaches the reader --------------------------------------------------

@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(DATA_TYPES),
    *each_language(HTTP), *each_language(SESSION)])
def test_no_literal_markdown_in_the_text(request, slug, language):
    _, page = article(request, slug, language)
    assert literal_markup(page.body) == []


def test_bold_closing_before_kana_after_math():
    """`**…$0000 \\; 0000$**で` (ja, number-encoding) is bold in the author's tool: the
    closing `**` follows `$` and precedes a kana, which CommonMark's flanking rules refuse.
    Checked on its own so that the literal-markdown failures above have a named cause."""
    from articlesite.render.markdown import create_parser

    html = create_parser().render("したがって、**負の0の2の補数は$0$**で、正の0と同じ")
    assert "<strong>" in html and "**" not in html


@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(DATA_TYPES),
    *each_language(HTTP), *each_language(SESSION)])
def test_raw_html_never_shown_in_silence(request, slug, language, capsys):
    """hello-algo writes `<u>…</u>` and `<p align="center"> 表 <id> … </p>`. Either the tags
    take effect (`<u>`: the text is underlined), or `check` reports each line where one is
    shown as text (the paragraph with attributes)."""
    site, page = article(request, slug, language)
    if UNDERLINED.search(site.source(language, slug)):
        assert page.body.find("u"), "<u>…</u> did not take effect"
    shown = [t for t in visible_text(page.body) if RAW_TAG.search(t)]
    if not shown:
        return
    _, report = check(site.root, capsys)
    source = f"content/{slug}/{language}.md"
    lines = {f["line"] for f in report["findings"] if f["file"] == source}
    assert prose_lines_with_tags(site.source(language, slug)) <= lines, \
        f"raw HTML shown as text, not reported by check: {shown[:3]}"


def prose_lines_with_tags(source: str) -> set[int]:
    """Lines of a source, outside code fences and code spans, holding a tag (`List<int>` in
    a Dart tab is code, not HTML)."""
    found, fence = set(), None
    for number, line in enumerate(source.splitlines(), start=1):
        marker = re.match(r"\s*(`{3,}|~{3,})", line)
        if marker and (fence is None or marker.group(1).startswith(fence)):
            fence = None if fence else marker.group(1)
            continue
        if fence is None and RAW_TAG.search(UNDERLINED.sub("", re.sub(r"`[^`]*`", "", line))):
            found.add(number)
    return found


@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(DATA_TYPES), *each_language(HTTP), *each_language(SESSION)])
def test_every_bold_span_is_bold(request, slug, language):
    site, page = article(request, slug, language)
    source = re.sub(r"```.*?```", "", site.source(language, slug), flags=re.DOTALL)
    assert len(body(page).find_all("strong")) == source.count("**") // 2


# --- Math ------------------------------------------------------------------------------------

def formulas(source: str) -> tuple[list[str], list[str]]:
    """Display and inline formulas of a Markdown source (these fixtures have no `$` in code)."""
    text = re.sub(r"```.*?```", "", source, flags=re.DOTALL)
    display = re.findall(r"^\$\$\n(.*?)\n\$\$$", text, flags=re.DOTALL | re.MULTILINE)
    rest = re.sub(r"^\$\$\n.*?\n\$\$$", "", text, flags=re.DOTALL | re.MULTILINE)
    inline = re.findall(r"\$([^$\n]+?)\$", rest)
    return display, inline


@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING), *each_language(DATA_TYPES)])
def test_every_formula_is_mathml(request, slug, language):
    site, page = article(request, slug, language)
    display, inline = formulas(site.source(language, slug))
    maths = body(page).find_all("math")
    assert len([m for m in maths if m.get("display") == "block"]) == len(display)
    assert len([m for m in maths if m.get("display") != "block"]) == len(inline)
    assert not body(page).find_all("merror")


@pytest.mark.parametrize("language, label", [("zh", "原码"), ("en", "Sign-magnitude"),
                                             ("ja", "符号絶対値")])
def test_aligned_derivations_keep_their_rows_and_texts(request, language, label):
    """The second display formula: six rows, `\\text{(…)}` in the page's language."""
    _, page = article(request, NUMBER_ENCODING, language)
    blocks = [m for m in body(page).find_all("math") if m.get("display") == "block"]
    first, second = blocks[0], blocks[1]
    assert len(first.find_all("mtr")) == 4
    assert len(second.find_all("mtr")) == 6
    assert any(label in t.get_text() for t in second.find_all("mtext"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_mathrm_letters_are_upright(request, language):
    """IEEE 754's fields are written `\\mathrm{S}`, `\\mathrm{E}`, `\\mathrm{N}` (and the
    article uses no italic S, E or N): a one-letter <mi> is italic unless told otherwise."""
    _, page = article(request, NUMBER_ENCODING, language)
    letters = [mi for mi in body(page).find_all("mi") if mi.get_text() in ("S", "E", "N")]
    assert letters
    assert all(mi.get("mathvariant") == "normal" for mi in letters)


def binary_minus_after_bracket(page) -> list[str]:
    """`(-2)`, `[-128, 127]`: TeX sets this minus as a sign; a MathML <mo> in the middle of
    a row is an infix operator, drawn with spaces on both sides ("( − 2)"), unless it says
    form="prefix" or has no space on either side."""
    found = []
    for mo in body(page).find_all("mo"):
        zero = {"0", "0em", "0px", "0pt"}
        if mo.get_text() != "\u2212" or mo.get("form") == "prefix" or (
                mo.get("lspace") in zero and mo.get("rspace") in zero):
            continue
        before = mo.find_previous_sibling()
        if before is not None and before.name == "mo" and before.get_text() in "([":
            found.append(str(mo.parent)[:120])
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_minus_after_a_bracket_is_a_sign(request, language):
    _, page = article(request, NUMBER_ENCODING, language)
    assert binary_minus_after_bracket(page) == []


def test_table_cells_hold_formulas(request):
    for language in LANGUAGES:
        site, page = article(request, DATA_TYPES, language)
        table = body(page).find("table")
        assert len(table.find_all("tr")) == 9, language  # the header and eight types
        rows = [line for line in site.source(language, DATA_TYPES).splitlines()
                if line.startswith("|")]
        in_cells = sum(len(re.findall(r"\$[^$]+\$", row)) for row in rows)
        assert len(table.find_all("math")) == in_cells, language


# --- Images ----------------------------------------------------------------------------------

def images_resolve(site: Built, language: str, slug: str, page: BeautifulSoup) -> None:
    images = body(page).find_all("img")
    assert images
    folder = site.site / language
    for img in images:
        src = img["src"]
        assert not urlsplit(src).scheme, f"{src} is not a published file"
        target = (folder / unquote(urlsplit(src).path)).resolve()
        assert target.is_file() and site.site.resolve() in target.parents, f"{src} is missing"
        assert img.get("alt"), src
        assert img.get("width") and img.get("height"), f"{src} has no width/height"
        assert img.get("loading") == "lazy", src


@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(HTTP)])
def test_every_image_is_published(request, slug, language):
    site, page = article(request, slug, language)
    images_resolve(site, language, slug, page)


def test_check_never_calls_a_broken_image_clean(mdn, capsys):
    """Five images on each overview page: each one the reader cannot see is a finding of
    `check` that names the page's source and the image."""
    broken = [(lang, img["src"]) for lang in LANGUAGES
              for img in body(mdn.page(lang, HTTP)).find_all("img")
              if not (mdn.site / lang / unquote(img["src"])).is_file()]
    code, report = check(mdn.root, capsys)
    for lang, src in broken:
        assert code == 1
        assert any(f["file"] == f"content/{HTTP}/{lang}.md" and src in f["message"]
                   for f in report["findings"]), (lang, src)


# --- Headings, code, admonitions, tabs -------------------------------------------------------

@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(HTTP),
    *each_language(SESSION)])
def test_every_heading_has_an_id(request, slug, language):
    _, page = article(request, slug, language)
    headings = body(page).find_all(["h2", "h3", "h4"])
    ids = [h.get("id") for h in headings]
    assert all(ids), [h.get_text(strip=True) for h in headings if not h.get("id")]
    assert len(set(ids)) == len(ids)


def highlighted(pre) -> bool:
    """Pygments wraps tokens in spans with short class names (k, nt, s2, …)."""
    return any(span.get("class") for span in pre.find_all("span"))


# (slug, language, code blocks, blocks with a language and a body: these must be highlighted)
CODE_BLOCKS = {DATA_TYPES: {"zh": (12, 11), "en": (13, 12), "ja": (13, 12)},
               HTTP: {"zh": (2, 2), "en": (2, 2), "ja": (2, 2)},
               SESSION: {"zh": (5, 5), "en": (5, 5), "ja": (5, 0)}}


@pytest.mark.parametrize("slug, language, blocks, with_language", [
    pytest.param(slug, lang, *counts[lang], id=f"{slug}-{lang}")
    for slug, counts in CODE_BLOCKS.items() for lang in LANGUAGES
    if counts[lang][1]])  # ja's session guide names no language: nothing to expect
def test_code_blocks_are_highlighted(request, slug, language, blocks, with_language):
    _, page = article(request, slug, language)
    pres = body(page).find_all("pre")
    assert len(pres) == blocks
    assert len([pre for pre in pres if highlighted(pre)]) >= with_language
    assert not any("```" in pre.get_text() for pre in pres)


TAB_LABELS = ["Python", "C++", "Java", "C#", "Go", "Swift", "JS", "TS", "Dart", "Rust", "C"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_content_tabs_are_tabs(request, language):
    """Twelve or thirteen `=== "Language"` tabs: one group whose labels are the languages
    and whose panels each hold one code block, readable without JavaScript."""
    _, page = article(request, DATA_TYPES, language)
    text = " ".join(visible_text(body(page)))
    assert "===" not in text
    labels = [s.strip() for s in visible_text(body(page)) if s.strip() in TAB_LABELS]
    assert labels[:len(TAB_LABELS)] == TAB_LABELS
    for pre in body(page).find_all("pre"):
        assert pre.parent.name != "article" and pre.find_parent("article") is not None


# The first words of each admonition's body.
ADMONITIONS_AT = {
    NUMBER_ENCODING: {"zh": "在本书中，标题带有 * 符号的是选读章节",
                      "en": "In this book, chapters marked with an asterisk",
                      "ja": "本書では、アスタリスク「*」が付いた章は任意読書です"},
    SESSION: {"zh": "客户端——服务器模型不允许服务器",
              "en": "The client-server model does not allow the server",
              "ja": "クライアントサーバーモデルでは、明示的な要求なく"},
}


@pytest.mark.parametrize("slug, language", [
    *each_language(NUMBER_ENCODING),
    *each_language(SESSION)])
def test_admonition_is_a_titled_box(request, slug, language):
    """`!!! note` / `!!! tip` (hello-algo) and `> [!NOTE]` (MDN), none with a title of its
    own: a box with a default title in the page's language around the author's text."""
    _, page = article(request, slug, language)
    start = ADMONITIONS_AT[slug][language]
    paragraph = body(page).find(string=re.compile(re.escape(start)))
    assert paragraph is not None
    box = paragraph.find_parent(["aside", "div", "section", "details", "blockquote"])
    assert box is not None and box.find_parent("article") is not None
    title = box.get_text(" ", strip=True).split(start)[0].strip()
    assert title and not re.search(r"!!!|\[!", title), title


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_article_without_sections_shows_no_empty_contents(request, language):
    _, page = article(request, DATA_TYPES, language)
    for toc in body(page).find_all("nav"):
        assert toc.find("a"), f"an empty table of contents: {toc.get_text(' ', strip=True)!r}"


WIDE = re.compile(r"[\u2e80-\u303f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff01-\uff60]")


def breaks_between_wide_characters(page) -> list[str]:
    """A line break inside a paragraph is shown by Chromium as a space, which CJK text never
    has (CSS Text 3 would drop it between two wide characters; browsers do not)."""
    found = []
    for text in visible_text(body(page)):
        for match in re.finditer(r"(.)\n(.)", text):
            if WIDE.match(match.group(1)) and WIDE.match(match.group(2)):
                found.append(match.group(0).replace("\n", "⏎"))
    return found


@pytest.mark.parametrize("language", [
    pytest.param("zh", id="zh"), pytest.param("en", id="en"),
    pytest.param("ja", id="ja")])
def test_line_breaks_add_no_space_inside_cjk_text(request, language):
    """MDN's Japanese translation puts each sentence on its own line: `…です。⏎これは…`."""
    _, page = article(request, HTTP, language)
    assert breaks_between_wide_characters(page) == []


# --- Links and translations --------------------------------------------------------------------

@pytest.mark.parametrize("slug, language", [
    *each_language(DATA_TYPES), *each_language(HTTP), *each_language(SESSION)])
def test_links_lead_somewhere(request, slug, language):
    site, page = article(request, slug, language)
    for a in body(page).find_all("a", href=True):
        href = a["href"]
        parts = urlsplit(href)
        if parts.scheme in ("http", "https") or href.startswith("#"):
            continue
        target = site.site / language / unquote(parts.path)
        assert target.is_file(), f"{href} leads nowhere"


def test_check_finds_the_section_the_chinese_translation_lacks(mdn, capsys):
    """MDN's zh-CN page has no "See also": a real gap that check reports, once."""
    code, report = check(mdn.root, capsys)
    parity = [f for f in report["findings"] if f["check"] == "parity"]
    assert code == 1
    assert [(f["language"], f["key"]) for f in parity] == [("zh", "see-also")]
