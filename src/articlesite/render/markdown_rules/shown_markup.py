"""Markup of other tools that a paragraph shows as text, found on its parsed inline tokens
(literal.py names each finding at its line):

- tags of any name: HTML elements, custom elements (`<my-widget>`), MDX/JSX components
  with `{…}` attributes (`<Diagram height={193}>`), fragments `<>`; one that carries an
  image (`src="…"`, react.dev's `<Diagram name="…">`) names the image;
- HTML comments `<!-- … -->` and JSX comments `{/* … */}`;
- roles, `:name:` or `{name}` right before a code span (d2lbook's :label:`x`, MyST's
  {term}`x`);
- d2lbook's `[**…**]` marks around what its notebooks show.

Code spans, formulas and the few tags inline_html.py keeps are not looked at. A `<` right
after a letter or digit is a type parameter (`Vec<T>`), not a tag, unless it names an HTML
element.
"""

from __future__ import annotations

import re

from markdown_it.token import Token

ATTRIBUTES = r"""(?:"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\}|[^<>"'{}])*"""
# A JSX comment `{/* … */}`, and d2lbook's `[**…**]`: what they hold never holds their own
# start, so an unclosed one is not scanned to the end of the text from each start.
TAG = re.compile(rf"<(/?)([A-Za-z][\w.:-]*)?(?=[\s/>])({ATTRIBUTES})>|<!--"
                 r"|\{/\*(?:(?!\{/\*).)*?\*/\}", re.DOTALL)
# A role right before a code span: `:name:` (its first colon not after a word character,
# a colon or a backtick, looked behind once the colon is found: the search skips from
# colon to colon) or `{name}`.
ROLE = re.compile(r":(?<![\w:`]:)([A-Za-z][\w.+-]*):(?=`)|\{([A-Za-z][\w:.-]*)\}(?=`)")
# A role alone on its line, without the backticks of its content: d2lbook's `:end_tab:`
BARE_ROLE = re.compile(r"^[ \t]*:([A-Za-z][\w.+-]*):[ \t]*$", re.MULTILINE)
MARK = re.compile(r"\[\*\*((?:(?!\[\*\*).)+?)\*\*\]", re.DOTALL)
SRC = re.compile(r"""\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*["']([^"']*)["']\s*\})""")
NAME = re.compile(r"""\bname\s*=\s*(?:"([^"]*)"|'([^']*)')""")
ALT = re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# react.dev: <Diagram name="x"> shows /images/docs/diagrams/x.png
DIAGRAMS = "images/docs/diagrams/{}.png"


def visible(token: Token) -> str:
    """The paragraph's text as the reader sees it, with line breaks where the source has
    them: emphasis markers kept, code spans and formulas as placeholders."""
    out = []
    for child in token.children or []:
        if child.type == "text":
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif child.type == "code_inline":
            out.append("`c`")
        elif child.type.startswith(("strong_", "em_")):
            out.append(child.markup)
        elif child.type.startswith("math"):
            out.append("m")
    return "".join(out)


def shown_markup(token: Token, line: int, elements: frozenset[str]) -> list[tuple[int, str]]:
    """(line, message) for the markup of other tools a paragraph shows as text. Each kind
    is looked for only in a text with the character it needs (most paragraphs have none)."""
    text = visible(token)
    results = _tags(text, line, elements) if "<" in text or "{/*" in text else []
    if "`" in text:
        where = Lines(text, line)
        for match in ROLE.finditer(text):
            message = (f"the role '{match.group(0)}`…`' is not rendered: the reader sees it "
                       "as text (roles are another tool's markup: write what it should show, "
                       "or put the role in a code span, ``:name:`…` ``, to show it as it is)")
            results.append((where(match.start()), message))
    if ":" in text:
        where = Lines(text, line)
        for match in BARE_ROLE.finditer(text):
            message = (f"the role '{match.group(0).strip()}' is not rendered: the reader sees "
                       "it as text (another tool's markup, such as d2lbook's end of a tab: "
                       "remove the line, or put it in a code span to show it as it is)")
            results.append((where(match.start()), message))
    if "[**" in text:
        where = Lines(text, line)
        for match in MARK.finditer(text):
            shown = " ".join(match.group(1).split())[:30]
            message = (f"'[**{shown}**]' is shown with its brackets (d2lbook's mark for its "
                       "slides: write **…** without them, or put it in a code span to show it "
                       "as it is)")
            results.append((where(match.start()), message))
    return sorted(results)


class Lines:
    """The line of a position in a text, for positions asked in increasing order: each
    part of the text is counted once (counting from its start for each of 20,000 tags
    took seconds)."""

    def __init__(self, text: str, first: int):
        self.text, self.line, self.position = text, first, 0

    def __call__(self, position: int) -> int:
        self.line += self.text.count("\n", self.position, position)
        self.position = position
        return self.line


def _tags(text: str, line: int, elements: frozenset[str]) -> list[tuple[int, str]]:
    """(line, message) for the tags and comments of a paragraph's visible text, one
    message a line."""
    found: dict[int, list[str]] = {}
    images: dict[int, list[str]] = {}
    line_at = Lines(text, line)
    for match in TAG.finditer(text):
        where = line_at(match.start())
        name = match.group(2) or ""
        if match.group(0).startswith("<") and match.group(0) != "<!--" and not name and \
                match.group(3).strip():
            continue   # `a < b > c`
        before = text[match.start() - 1] if match.start() else " "
        if name and (before.isalnum() or before == "_") and name.lower() not in elements:
            continue   # Vec<T>
        found.setdefault(where, []).append(_shown(match.group(0)))
        image = _image(name, match.group(3) or "")
        if image:
            images.setdefault(where, []).append(image)
    return [(where, tags_message(tags, elements) + "".join(images.get(where, ())))
            for where, tags in found.items()]


def _shown(tag: str) -> str:
    tag = " ".join(tag.split())
    return tag if len(tag) <= 40 else tag[:37] + "…" + (">" if tag.endswith(">") else "")


# At most this many different tags are named in a message.
TAGS_SHOWN = 10


def tags_message(tags: list[str], elements: frozenset[str]) -> str:
    comments = [t for t in tags if t.startswith(("<!--", "{/*"))]
    named = [t for t in tags if t not in comments]
    names = {re.match(r"</?([\w.:-]*)", t).group(1) for t in named}
    what = "HTML tag" if names <= elements | {n.upper() for n in elements} else (
        "component" if all(n[:1].isupper() for n in names if n) else "tag")
    parts = []
    if named:
        distinct = list(dict.fromkeys(named))   # each once: a line may repeat one 3000 times
        quoted = ", ".join(f"'{t}'" for t in distinct[:TAGS_SHOWN]) + (
            f" and {len(distinct) - TAGS_SHOWN} more" if len(distinct) > TAGS_SHOWN else "")
        plural = "s" if len(named) > 1 else ""
        parts.append(f"the {what}{plural} {quoted}")
    if any(t.startswith("<!--") for t in comments):
        parts.append("an HTML comment")
    if any(t.startswith("{/*") for t in comments):
        parts.append("a JSX comment '{/* … */}'")
    many = len(named) + len(comments) > 1
    return (f"{' and '.join(parts)} {'are' if many else 'is'} not rendered: the reader sees "
            f"{'them' if many else 'it'} as text (raw HTML and components are not allowed; "
            "use Markdown, or write it in backticks if it is meant as text)")


def _image(name: str, attributes: str) -> str:
    """What a tag's image would have been, as a sentence to add to its message."""
    src = SRC.search(attributes)
    path = next((g for g in src.groups() if g), None) if src else None
    if path is None and name == "Diagram" and (named := NAME.search(attributes)):
        path = DIAGRAMS.format(next(g for g in named.groups() if g is not None))
    if not path:
        return ""
    alt = ALT.search(attributes)
    alt_text = next((g for g in alt.groups() if g is not None), "") if alt else ""
    shown = alt_text[:30] + ("…" if len(alt_text) > 30 else "") or "what it shows"
    return (f"; it would have shown the image '{path.lstrip('/')}': write "
            f"![{shown}]({path.lstrip('/')}) with the file in the article's folder")
