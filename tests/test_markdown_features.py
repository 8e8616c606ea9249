"""The Markdown features a real article uses, built end to end from the fixture site
tests/fixtures/markdown (one article in zh, en and ja with every feature), and what
happens when they are written wrongly: the build stops or `check` reports it, with the
file and line, never a page showing literal markup in silence."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import THEME, check, failed_build, fixture_site, problems, run_build, soup

STRINGS = yaml.safe_load((THEME / "strings.yaml").read_text(encoding="utf-8"))
LANGUAGES = ("zh", "en", "ja")


def markdown_site(target: Path) -> Path:
    """A copy of the fixture site, with the project's templates."""
    return fixture_site("markdown", target)


def built_fixture_site(target: Path) -> Path:
    """The fixture site copied to `target` and built; its site/ folder."""
    root = markdown_site(target)
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    # Nothing a reader would see as markup; the one warning in each language: the mermaid
    # block (no lexer) is shown as plain code.
    warnings = [line for line in result.stderr.splitlines() if line.startswith("  ")]
    assert "3 warnings" in result.stderr and len(warnings) == 3, result.stderr
    assert all(":81: code block language 'mermaid'" in line for line in warnings)
    return root / "site"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return built_fixture_site(tmp_path_factory.mktemp("markdown") / "project")


def write(root: Path, language: str, lines: list[str]) -> Path:
    """Replace the article's body in one language; its first line is line 6."""
    path = root / "content/features" / f"{language}.md"
    front = '---\ntitle: "T"\ndescription: "D"\n---\n\n'
    path.write_text(front + "\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("language", LANGUAGES)
def test_footnotes_are_numbered_with_back_links_in_the_page_language(built, language):
    page = soup(built / f"{language}/features.html")
    refs = [a.get_text() for a in page.select("sup.footnote-ref a")]
    assert refs == ["1", "1", "2"]
    notes = page.select_one("section.footnotes")
    assert notes.h2.get_text() == STRINGS["footnotes"][language]
    first, second = notes.select("ol > li")
    assert first["id"] == "fn-1" and second["id"] == "fn-2"
    assert [a["href"] for a in first.select("a.backref")] == ["#fnref-1", "#fnref-1-2"]
    assert all(page.find(id=a["href"][1:]) for a in notes.select("a.backref"))
    assert first.select_one("math") is not None   # math inside a note is converted


@pytest.mark.parametrize("language", LANGUAGES)
def test_admonitions_in_three_spellings_with_titles_in_the_page_language(built, language):
    page = soup(built / f"{language}/features.html")
    boxes = page.select(".admonition")
    kinds = [next(c for c in box["class"] if c.startswith("admonition-")) for box in boxes]
    assert kinds == ["admonition-note", "admonition-tip", "admonition-warning",
                     "admonition-example", "admonition-important", "admonition-caution",
                     "admonition-tip"]
    titles = [box.select_one(".admonition-title").get_text() for box in boxes]
    for index, kind in ((0, "note"), (3, "example"), (4, "important"), (6, "tip")):
        assert titles[index] == STRINGS[f"admonition-{kind}"][language]
    assert boxes[1].select_one(".admonition-title em") is not None  # a title in Markdown
    assert [box.name for box in boxes] == ["div", "div", "details", "details", "div",
                                           "details", "div"]
    assert [box.has_attr("open") for box in boxes if box.name == "details"] == [
        False, True, False]
    assert boxes[1].select("li")  # nested content renders


@pytest.mark.parametrize("language", LANGUAGES)
def test_tabs_are_radio_buttons_with_labels_and_panels(built, language):
    page = soup(built / f"{language}/features.html")
    groups = page.select("div.tabs")
    assert len(groups) == 2
    names = []
    for group in groups:
        inputs = group.select(":scope > input.tab-input")
        assert [i["type"] for i in inputs] == ["radio"] * len(inputs)
        assert inputs[0].has_attr("checked") and not any(i.has_attr("checked")
                                                           for i in inputs[1:])
        names.append({i["name"] for i in inputs})
        for radio in inputs:
            label = group.find("label", attrs={"for": radio["id"]})
            assert label is not None and label.get_text()
            assert label.find_next_sibling().get("class") == ["tab-panel"]
    assert len(names[0]) == len(names[1]) == 1 and names[0] != names[1]
    first = groups[0].select(":scope > .tab-panel")
    assert first[0].select_one("pre.highlight .line.hl") is not None
    assert first[2].select("li")


@pytest.mark.parametrize("language", LANGUAGES)
def test_code_is_highlighted_at_build_time(built, language):
    page = soup(built / f"{language}/features.html")
    block = page.select_one(".code-block")
    assert block.select_one(".code-title").get_text() == "search.py"
    code = block.select_one("pre.highlight.linenums code.language-python")
    assert [s.get_text() for s in code.select(".k")][:3] == ["def", "while", "return"]
    assert len(code.select(".line")) == 5 and len(code.select(".line.hl")) == 1
    assert "while" in code.select_one(".line.hl").get_text()
    assert code.get_text().startswith("def search(items, target):\n")
    cpp = page.select_one("code.language-cpp")
    assert cpp.select_one(".k").get_text() == "int"
    unknown = page.select_one("code.language-mermaid")   # no lexer: plain, a warning
    assert unknown.get_text() == "graph LR; A --> B\n" and not unknown.select("span")


@pytest.mark.parametrize(("language", "heading_id"), [
    ("zh", "多种语言的代码"), ("en", "code-in-several-languages"),
    ("ja", "複数の言語のコード")])
def test_subsection_ids_are_made_from_the_text_in_any_script(built, language, heading_id):
    page = soup(built / f"{language}/features.html")
    heading = page.find("h3", id=heading_id)
    assert heading is not None
    assert heading.select_one("a.heading-anchor")["href"] == f"#{heading_id}"
    assert page.select_one("h4[id] a.heading-anchor") is not None
    ids = [tag["id"] for tag in page.find_all(id=True)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("language", LANGUAGES)
def test_lists_and_strikethrough(built, language):
    page = soup(built / f"{language}/features.html")
    boxes = page.select("li.task-list-item label input[type=checkbox][disabled]")
    assert [box.has_attr("checked") for box in boxes] == [True, False]
    assert page.select_one("dl dt") and page.select_one("dl dd code")
    assert page.select_one("p s") is not None


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_literal_markup_reaches_the_reader(built, language):
    text = soup(built / f"{language}/features.html").select_one("main").get_text()
    for markup in ("!!!", "???", "===", ":::", "[^", "[!", "```", "{#", "~~", "[x]"):
        assert markup not in text


def test_the_fixture_is_clean_for_check(tmp_path, capsys):
    root = markdown_site(tmp_path / "project")
    code, report = check(root, capsys)
    # Its mermaid block is shown as plain code, in each language (no lexer); the rest are
    # warnings: its translations were never confirmed section by section.
    found = [f for f in report["findings"] if f["severity"] != "warning"]
    assert [(f["check"], f["line"], f["message"][:30]) for f in found] == [
        ("markup", 81, "code block language 'mermaid' ")] * 3 and code == 1
    assert {f["message"].split(";")[0].split(" were ")[1] for f in report["findings"]
            if f not in found} == {"never confirmed against the zh text section by section"}


def test_mistakes_stop_the_build_all_at_once_with_file_and_line(tmp_path: Path):
    root = markdown_site(tmp_path / "project")
    write(root, "ja", [
        "## S {#s}",                      # 6
        "",
        "A note that is not there.[^gone]",  # 8
        "",
        "[^unused]: Nobody refers to this.",  # 10
        "",
        "!!! notice",                      # 12
        "    Unknown kind.",
        "",
        ":::{sidebar}",                    # 15
        "Unknown directive.",
        ":::",
        "",
        "> [!DANGER]",                     # 19
        "> Not a GitHub alert.",
        "",
        '```python hl_line="2"',           # 22
        "x = 1",
        "```",
        "",
        "# A second title",                # 26
        "",
        "### Bad id {#Bad_Id}",            # 28
        "",
        "```{seealso}",                    # 30 (fine: an admonition kind)
        "Fine.",
        "```",
        "",
        '```python hl_lines="7"',          # 34
        "x = 1",
        "```",
        "",
        '=== "Empty"',                     # 38
        "",
        "Not indented.",
    ])
    message = failed_build(root)
    where = "content/features/ja.md"
    for line, text in [
        (8, "footnote [^gone] is not defined"),
        (10, "footnote [^unused] is defined but no text refers to it"),
        (15, "unknown directive '{sidebar}'"),
        (19, "'[!DANGER]' is not a GitHub alert"),
        (22, "unknown code block option 'hl_line'"),
        (26, "a '#' heading in the body would be a second title"),
        (28, "heading id '{#Bad_Id}' must be lower-case"),
        (34, "hl_lines marks line 7, but the block has 1 line"),
        (38, "the tab 'Empty' is empty"),
    ]:
        assert f"{where}:{line}: {text}" in message, (line, message)
    assert f"{where}:30" not in message
    # `!!! notice`, an unknown kind, is shown as an admonition of its own (a warning)
    assert f"{where}:12" not in message
    assert message.count(where) == 9
    assert "[language 'ja']" in message


def test_check_reports_what_a_reader_would_see_as_markup(tmp_path: Path, capsys):
    root = markdown_site(tmp_path / "project")
    write(root, "en", [
        "## S {#s}",                               # 6
        "",
        "Press <span>Ctrl</span> and see `<div>` and Vec<T>.",  # 8
        "!!!",                                     # 9
        "",
        '=== Tab without quotes',                  # 11
        "",
        "::: note",                                # 13: rendered (markdown-it-container)
        "Docusaurus spelling.",
        ":::",                                     # 15
        "",
        "!!! note",                                # 17
        "Not indented.",
    ])
    # It may be meant as text: the build goes on, but names each of them, and so does a
    # build with nothing changed since.
    for built in (run_build(root), run_build(root)):
        assert built.returncode == 0, built.stderr
        # and zh, ja: their mermaid blocks
        assert "6 warnings: readers will see this as text" in built.stderr
        assert ("content/features/en.md:8: the HTML tags '<span>', '</span>' are not "
                "rendered: the reader sees them as text") in built.stderr
        assert "content/features/en.md:17: the admonition is empty" in built.stderr
        assert built.stderr.count("[language 'en']") == 4
    page = soup(root / "site/en/features.html")
    assert "Docusaurus spelling." in page.select_one(".admonition-note").get_text()
    code, report = check(root, capsys)
    assert code == 1
    markup = [f for f in problems(report, "markup") if f["file"].endswith("en.md")]
    found = sorted((f["line"], f["message"][:40]) for f in markup)
    assert all(f["language"] == "en" for f in markup)
    lines = [line for line, _ in found]
    assert lines == [8, 9, 11, 17], found
    messages = [f["message"] for f in problems(report, "markup")]
    assert any(m.startswith("the HTML tags '<span>', '</span>' are not rendered")
               for m in messages)
    assert not any("<div>" in m or "<T>" in m for m in messages)


def test_a_few_inline_html_tags_take_effect_and_the_rest_shows_as_written(tmp_path: Path,
                                                                        capsys):
    root = markdown_site(tmp_path / "project")
    write(root, "en", [
        "## S {#s}",                                                   # 6
        "",
        "H<sub>2</sub>O, <u>**bold** under</u>, <KBD>Ctrl</KBD>+C,<br/>next.",   # 8
        "",
        "An <u>open tag, a <b onclick=\"x\">b</b> and **<sup>crossed**</sup>.",   # 10
    ])
    assert run_build(root).returncode == 0
    page = soup(root / "site/en/features.html").select_one("main")
    first, second = page.select("h2 ~ p")[:2]
    assert [(e.name, e.get_text()) for e in first.find_all(True)] == [
        ("sub", "2"), ("u", "bold under"), ("strong", "bold"), ("kbd", "Ctrl"), ("br", "")]
    assert first.find_all(True)[1].attrs == {}
    assert second.find_all(True) == [second.strong]   # the rest is text
    assert second.get_text() == ('An <u>open tag, a <b onclick="x">b</b> and '
                                 '<sup>crossed</sup>.')
    _, report = check(root, capsys)
    assert {f["line"] for f in problems(report, "markup")
            if f["file"].endswith("en.md")} == {10}


def test_front_matter_and_body_problems_of_a_file_are_reported_together(tmp_path: Path):
    root = markdown_site(tmp_path / "project")
    path = root / "content/features/zh.md"
    path.write_text('---\ntitle: "T"\ndescription: "D"\nlayout: post\n---\n\n## S {#s}\n\n'
                    "A note that is not there.[^gone]\n\n:::{sidebar}\nX\n:::\n",
                    encoding="utf-8")
    message = failed_build(root)
    assert "content/features/zh.md:4: unknown field 'layout'" in message
    assert "content/features/zh.md:9: footnote [^gone] is not defined" in message
    assert "content/features/zh.md:11: unknown directive '{sidebar}'" in message
