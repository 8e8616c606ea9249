"""Markup that would reach a reader as literal text, found on the parsed tokens.

What can only be a mistake stops the build (`stops_build`): a reference to a footnote
that is not defined, a footnote nothing refers to, an unknown directive or alert (these
come as `markup_problem` tokens from the rules that found them). What may be meant as
text is reported by `python build.py check` (and the build's warnings) only: a tag of any
name, a comment, a role or a mark of another tool (shown_markup.py), a line starting
with `!!!`, `???`, `===` or `:::` that no rule took (an admonition, tab or directive
written wrongly, e.g. without its blank line or indent), an admonition with no content
(its content not indented), an admonition kind nobody knows (it is shown all the same),
a code block language the highlighter does not know (fences.py), and a `**` or `~~` that
matches no other (emphasis.py keeps them; in CommonMark `2**10` is text, so it is not
a build error).
Text in code spans and code blocks is never reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it.token import Token

from .shown_markup import shown_markup

FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\]")
# A paragraph's line that looks like an admonition, a tab or a directive no rule took (a
# `!!!` line with more than a kind and a title is text, as in MkDocs: `!!! 3. Note`).
LINE_MARKER = re.compile(r'^[ \t]*(?:(!!!|\?\?\?\+?)[ \t]*(?:"[^"]*")?[ \t]*$|(===|:::))')
_ELEMENTS = """
a abbr address area article aside audio b bdi bdo blockquote body br button canvas caption
center cite code col colgroup data datalist dd del details dfn dialog div dl dt em embed
fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hr html i iframe
img input ins kbd label legend li link main map mark math menu meta meter nav noscript object
ol optgroup option output p param picture pre progress q rp rt ruby s samp script section
select small source span strong style sub summary sup svg table tbody td template textarea
tfoot th thead time title tr track u ul var video wbr"""
HTML_ELEMENTS = frozenset(_ELEMENTS.split())


@dataclass(frozen=True)
class Literal:
    line: int          # in the file, 1-based
    message: str
    stops_build: bool
    kind: str = ""     # an admonition kind not known here (site.yaml may declare it)


def find_literal_markup(tokens: list[Token], first_line: int) -> list[Literal]:
    found: list[Literal] = []
    for i, token in enumerate(tokens):
        line = first_line + token.map[0] if token.map else first_line
        if token.type == "markup_problem":
            found.append(Literal(line, token.meta["message"], token.meta["build"],
                                 token.meta.get("kind", "")))
        elif token.type == "admonition_open" and tokens[i + 1].type == "admonition_close":
            found.append(Literal(line, "the admonition is empty: its content must be "
                                 "indented by four spaces under the `!!!` line (or write "
                                 r"`\!!!` at the line's start to show it as text)", False))
        elif token.type == "inline":
            found.extend(_in_inline(token, line, tokens[i - 1].type == "paragraph_open"))
    return found


def shown_as_text(literals: list[Literal]) -> list[tuple]:
    """Of what find_literal_markup found (on the tokens as parsed, before rendering),
    what would reach a reader as literal markup without stopping the build: line,
    message, and for an unknown admonition kind the kind."""
    return [(found.line, found.message, found.kind) if found.kind else
            (found.line, found.message)
            for found in literals if not found.stops_build]


def _in_inline(token: Token, line: int, paragraph: bool) -> list[Literal]:
    """What an inline token shows as markup; a heading's or a table cell's text has no
    line markers (`#### !!! 3. Note` is text, as in MkDocs)."""
    found = []
    for offset, text in enumerate(token.content.split("\n") if paragraph else ()):
        marker = LINE_MARKER.match(text)
        if marker:
            what = marker.group(1) or marker.group(2)
            found.append(Literal(line + offset, f"'{what}' would be shown as text: "
                                 f"{_MARKERS[what[:3]]}; or write '\\{what}' to show it as "
                                 "text and silence this", False))
    for offset, marker in token.meta.get("unmatched_markup", []):
        found.append(Literal(line + offset, f"'{marker}' would be shown as text: no "
                             f"'{marker}' of this paragraph pairs with it (in English text "
                             f"a closing '{marker}' after punctuation needs a space or "
                             f"punctuation after it: '{marker}Note:{marker} text'); write "
                             f"'{chr(92)}{marker[0]}{chr(92)}{marker[0]}' if it is meant "
                             "as text", False))
    found.extend(Literal(at, message, False)
                 for at, message in shown_markup(token, line, HTML_ELEMENTS))
    for child in token.children or []:
        if child.type in ("softbreak", "hardbreak"):
            line += 1
        if child.type != "text" or "[^" not in child.content:
            continue
        for match in FOOTNOTE_REF.finditer(child.content):
            found.append(Literal(line, f"footnote [^{match.group(1)}] is not defined: add "
                                 f"'[^{match.group(1)}]: the note' (or write it in backticks "
                                 "if it is meant as text)", True))
    return found


_MARKERS = {
    "!!!": 'an admonition is written `!!! kind "Title"` on its own line, its content '
           "indented by four spaces",
    "???": 'a collapsible admonition is written `??? kind "Title"` on its own line, its '
           "content indented by four spaces",
    "===": 'a tab is written `=== "Label"` on its own line after a blank line, its content '
           "indented by four spaces",
    ":::": "a directive is written `:::{name}` on its own line and closed by `:::`",
}
