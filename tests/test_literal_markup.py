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
    ("x:role:`no`, `:code:`, a < b > c and Vec<T>.", []),
])
def test_each_kind_alone(paragraph: str, found: list):
    literals = find_literal_markup(markdown.parse(paragraph), 10)
    assert [(literal.line, literal.message[:len(message)], literal.stops_build)
            for literal, (_, message, _) in zip(literals, found)] == found
    assert len(literals) == len(found)
