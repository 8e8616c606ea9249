"""The few raw HTML tags an article may use inline, the way articles written for MkDocs or
GitHub do (`<u>…</u>`, `H<sub>2</sub>O`, `<kbd>Ctrl</kbd>`, a `<br>`): only text-level
tags without attributes, each opened and closed in the same paragraph around whole
Markdown spans. Anything else stays text, escaped, as it was written (and `check`
reports it, see literal.py): block HTML, attributes, other elements, comments, a tag left
open or crossing an emphasis."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

ALLOWED = frozenset({"b", "i", "em", "strong", "u", "s", "del", "ins", "mark", "small",
                     "sub", "sup", "kbd", "samp", "var", "q", "cite", "dfn", "abbr", "br",
                     "wbr"})
VOID = frozenset({"br", "wbr"})
# A start or end tag without attributes; a void element may be written `<br/>`.
TAG = re.compile(r"<(/?)([a-z]+)\s*(/?)>\Z", re.IGNORECASE)


def use_inline_html(md: MarkdownIt) -> None:
    """Let markdown-it find inline tags (`html`), never HTML blocks, and keep only ours."""
    md.options["html"] = True
    md.disable("html_block")
    md.core.ruler.after("inline", "inline_html", keep_allowed_tags)


def keep_allowed_tags(state: StateCore) -> None:
    for token in state.tokens:
        if token.type == "inline" and token.children:
            _keep_in(token.children)


def _keep_in(children: list) -> None:
    kept: dict[int, str] = {}   # index of each tag kept: the tag, in lower case
    # Open Markdown spans (None) and allowed tags (name, index), innermost last.
    open_: list[tuple[str, int] | None] = []
    for index, child in enumerate(children):
        if child.type != "html_inline":
            if child.nesting == 1:
                open_.append(None)
            elif child.nesting == -1:   # a tag opened inside the span ends unclosed
                while open_ and open_.pop() is not None:
                    pass
            continue
        match = TAG.match(child.content)
        if not match or match.group(2).lower() not in ALLOWED:
            continue
        closing, name, slash = match.group(1), match.group(2).lower(), match.group(3)
        if name in VOID:
            if not closing:
                kept[index] = f"<{name}>"
        elif slash:
            continue
        elif not closing:
            open_.append((name, index))
        elif open_ and open_[-1] is not None and open_[-1][0] == name:
            kept[open_.pop()[1]] = f"<{name}>"
            kept[index] = f"</{name}>"
    for index, child in enumerate(children):
        if child.type == "html_inline":
            if index in kept:
                child.content = kept[index]
            else:
                child.type = "text"   # shown as written, escaped
