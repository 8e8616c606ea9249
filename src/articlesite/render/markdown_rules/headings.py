"""Heading ids and anchors.

- `{#id}` (or react.dev's `{/*id*/}`) at the end of any heading sets its id (lower-case
  letters, digits, hyphens);
  `##` sections must have one (markdown.py checks that), being the same in every language.
- `###` and deeper headings without one get an id made from their text: lower-cased,
  letters and digits of any script kept (Chinese and Japanese included), every other run
  of characters a hyphen; made unique on the page by `-2`, `-3`…; ids the page itself
  uses (references, footnotes…) are avoided. The same text always gives the same id.
- Those headings end with a visible `#` link to themselves.
- A `#` (level 1) heading in the body is a problem: the page's title comes from the front
  matter and is the page's only `<h1>`.
"""

from __future__ import annotations

import re
import unicodedata

from markupsafe import escape

from ...check.reserved import ID_FAMILIES, PAGE_IDS
from .common import ui

# {#id}, or as react.dev writes it, {/*id*/}
EXPLICIT_ID = re.compile(r"\s*\{(?:#([a-z0-9][a-z0-9-]*)|/\*([a-z0-9][a-z0-9-]*)\*/)\}\s*$")
MALFORMED_ID = re.compile(r"\s*\{#([^{}]*)\}\s*$")
# Ids the page templates and the other rules use, and prefixes of theirs (as declared in
# check/ids.py).
RESERVED = set(PAGE_IDS) | {family for family in ID_FAMILIES if "{" not in family}
RESERVED_PREFIXES = tuple(sorted({family.split("{")[0] for family in ID_FAMILIES
                                  if "{" in family}))


def explicit_ids(state) -> None:
    """Core rule, before the inline parse: take a trailing `{#id}` (or `{/*id*/}`) off a
    heading and make it the heading's id, so that its text is never read as Markdown
    (`{/*id*/}` would otherwise be `*id*`, emphasis)."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[i + 1]
            match = EXPLICIT_ID.search(inline.content)
            if match:
                token.attrSet("id", match.group(1) or match.group(2))
                token.meta["explicit_id"] = True
                inline.content = inline.content[:match.start()]


def heading_ids(state) -> None:
    """Core rule, after the inline parse: give the `###`-and-deeper headings without an
    explicit id one made from their text; note a malformed `{#…}`."""
    tokens = state.tokens
    taken = {token.attrGet("id") for token in tokens if token.meta.get("explicit_id")}
    generate = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.meta.get("explicit_id"):
            continue
        inline = tokens[i + 1]
        if MALFORMED_ID.search(inline.content):
            token.meta["bad_id"] = MALFORMED_ID.search(inline.content).group(1)
        elif int(token.tag[1]) >= 3:
            generate.append((token, inline))
    for token, inline in generate:
        base = slug(plain_text(inline.children or []))
        if base in RESERVED or base.startswith(RESERVED_PREFIXES):
            base = f"h-{base}"
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate)
        token.attrSet("id", candidate)
        token.meta["generated_id"] = True


def plain_text(children) -> str:
    """The text a reader sees of inline tokens (formulas as their source)."""
    out = []
    for child in children:
        if child.type in ("text", "code_inline", "text_special", "math_inline"):
            out.append(child.content)
        elif child.children:
            out.append(plain_text(child.children))
    return "".join(out)


def slug(text: str) -> str:
    """`Hello, World` -> `hello-world`; `使用 Python 的方法` -> `使用-python-的方法`."""
    text = unicodedata.normalize("NFKC", text).lower()
    parts, word = [], []
    for char in text:
        if char.isalnum() or char == "_":
            word.append(char)
        elif word:
            parts.append("".join(word))
            word = []
    if word:
        parts.append("".join(word))
    return "-".join(parts) or "section"


def heading_problems(token) -> list[str]:
    """The problems of a parsed heading (its heading_open token): the check stage
    reports them (markdown.parse_problems)."""
    found = []
    if token.tag == "h1":
        found.append("a '#' heading in the body would be a second title: the page's title "
                     "is the front matter's 'title'; start sections at '##' (and subsections "
                     "at '###')")
    if "bad_id" in token.meta:
        found.append(f"heading id '{{#{token.meta['bad_id']}}}' must be lower-case letters, "
                     "digits and hyphens, starting with a letter or digit (it would be shown "
                     "as text)")
    return found


def render_heading_close(self, tokens, idx, options, env) -> str:
    """`###` and deeper: a visible link to the heading before its closing tag."""
    opening = tokens[idx - 2]  # heading_open, inline, heading_close
    heading_id = opening.attrGet("id")
    if int(opening.tag[1]) < 3 or not heading_id:
        return self.renderToken(tokens, idx, options, env)
    label = escape(ui(env, "link-to-heading"))
    return (f' <a class="heading-anchor" href="#{escape(heading_id)}" aria-label="{label}">'
            f'#</a></{opening.tag}>\n')
