"""Literal markup found on the parsed tokens, one kind to a paragraph: each kind is
looked for only in a paragraph holding the character it needs, so each is found alone."""

from __future__ import annotations

import pytest

from articlesite.render import markdown
from articlesite.render.markdown_rules.literal import find_literal_markup


@pytest.mark.parametrize("paragraph, found", [
    ("Text {/* a JSX comment */} here.", [(10, "a JSX comment '{/* … */}' is not", False)]),
    ("A <!-- comment --> here.", [(10, "an HTML comment is not rendered", False)]),
    ("a\nb <my-widget> c", [(11, "the tag '<my-widget>' is not rendered", False)]),
    ("See :numref:`fig` and {term}`x`.", [(10, "the role ':numref:`…`' is not", False),
                                          (10, "the role '{term}`…`' is not", False)]),
    ("The [**shown**] mark.", [(10, "'[**shown**]' is shown with its brackets", False)]),
    ("Not a note: &#91;^x] here.", [(10, "footnote [^x] is not defined", True)]),
    ("Text\n:end_tab:\nmore", [(11, "the role ':end_tab:' is not rendered", False)]),
    ("x:role:`no`, `:code:`, a < b > c and Vec<T>.", []),
    ("Ratio 3:4: about :end_tab: here, `:end_tab:`", []),
])
def test_each_kind_alone(paragraph: str, found: list):
    literals = find_literal_markup(markdown.parse(paragraph), 10)
    assert [(literal.line, literal.message[:len(message)], literal.stops_build)
            for literal, (_, message, _) in zip(literals, found)] == found
    assert len(literals) == len(found)


@pytest.mark.parametrize("source", [
    "#### !!! 3. 注意 KL 的系数",          # a heading: the author's emphasis
    "!!! 3. 注意：这一步最重要",              # more than a kind and a title: text in MkDocs
    "| a |\n|---|\n| !!! b |",               # a table cell
    "A sentence with !!! inside.",
    "\\!!! note",                            # escaped
])
def test_bang_lines_mkdocs_would_not_take_are_text(source: str):
    tokens = markdown.parse(source)
    assert "admonition_open" not in [token.type for token in tokens]
    assert find_literal_markup(tokens, 1) == []
    assert "!!!" in markdown.render(tokens, 1, None)


def test_an_admonition_is_taken_where_mkdocs_takes_it():
    tokens = markdown.parse("Text.\n\n!!! warning \"Careful\"\n    Content.\n")
    assert [token.type for token in tokens].count("admonition_open") == 1


@pytest.mark.parametrize("source", [
    "!!!\n", "Text\n!!! \"Title\"\n", "Text\n:::\n", "!!! nokind\n    x",
    "!!! note\n\nnot indented", "See :numref:`fig`.", "The [**shown**] mark.",
    "a **b c", "A <my-widget> tag.", "Text\n:end_tab:\n",
])
def test_every_markup_warning_says_how_to_keep_the_text(source: str):
    literals = [found for found in find_literal_markup(markdown.parse(source), 1)
                if not found.stops_build]
    assert literals, source
    for found in literals:
        assert any(hint in found.message for hint in (
            "to show it as text", "to show it as it is", "if it is meant as text")), \
            found.message
