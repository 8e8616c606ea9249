"""MyST directives written with colons, parsed as Markdown inside:

    :::{note} Optional title          ::::{tab-set}
    :class: dropdown                  :::{tab-item} Python
    Content.                          Content.
    :::                               :::
                                      ::::

An admonition kind (admonitions.KINDS, and `admonition` with a title) becomes an
admonition; `tab-set` and `tab-item` become content tabs (tabs.py). A longer fence of
colons holds shorter ones. Options are `:name: value` lines at the top: `:class:
dropdown` (collapsible, closed), `:open:` (collapsible, open), `:selected:` (the tab
shown first); other classes and `:name:` are accepted and have no effect. Any other
directive name or option is a problem: it would otherwise reach the reader as text.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from mdit_py_plugins.container import container_plugin

from .admonitions import KINDS, known_kinds
from .common import closing_token, problem_token

DIRECTIVE = re.compile(r"^\s*\{([A-Za-z][\w-]*)\}\s*(.*?)\s*$")
OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*)$")
OPTIONS = ("class", "open", "name", "selected")
DIRECTIVES = ("admonition", "tab-set", "tab-item", *KINDS)


def use_directives(md: MarkdownIt) -> None:
    container_plugin(md, "directive", marker=":",
                     validate=lambda params, markup: DIRECTIVE.match(params) is not None)
    # before admonitions.normalize, which reads what these rules make
    md.core.ruler.before("admonitions", "directives", normalize)
    md.core.ruler.before("directives", "fenced_directives", unfence)


def unfence(state) -> None:
    """Core rule: an admonition written in backticks (```` ```{note} ````) is parsed as if
    written with colons, its content as Markdown, into the page's own tokens (so its
    footnotes and problems are the page's). Other directives in backticks are left to
    markdown.py (figure, code-block; any other is unknown there)."""
    tokens, out = state.tokens, []
    for token in tokens:
        match = DIRECTIVE.match(token.info) if token.type == "fence" else None
        if match is None or (match.group(1).lower() not in KINDS
                             and match.group(1) != "admonition"):
            out.append(token)
            continue
        source = f":::{{{match.group(1)}}} {match.group(2)}\n{token.content}:::\n"
        inner: list = []
        state.md.block.parse(source, state.md, state.env, inner)
        for child in inner:
            if child.map:
                child.map = [child.map[0] + token.map[0], child.map[1] + token.map[0]]
            child.level += token.level
        out.extend(inner)
    state.tokens[:] = out


def normalize(state) -> None:
    """Core rule, before inline parsing: colon directives become admonitions or tabs."""
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "container_directive_open":
            i += _directive(tokens, i)
        i += 1


def _directive(tokens, i) -> int:
    """Rewrite the directive opened at `i`; the number of tokens inserted before `i + 1`."""
    token = tokens[i]
    close = closing_token(tokens, i)
    match = DIRECTIVE.match(token.info)
    name, argument = match.group(1), match.group(2)
    options = _take_options(tokens, i)
    problems = [(token.map[0], (f"unknown option ':{key}:' of directive '{{{name}}}' "
                                f"(options: {', '.join(OPTIONS)})"))
                for key in options if key not in OPTIONS]
    if name == "tab-set" or name == "tab-item":
        token.type, tokens[close].type = ("tabs_open", "tabs_close") if name == "tab-set" \
            else ("tab_open", "tab_close")
        token.meta = {"label": argument, "selected": "selected" in options,
                      "problems": problems}
        return 0
    kind = name.lower()
    if kind not in KINDS and kind != "admonition":
        tokens[i:close + 1] = [problem_token(
            f"unknown directive '{{{name}}}' (directives: {', '.join(DIRECTIVES[:3])} and "
            f"the admonition kinds {known_kinds()})", token.map[0])]
        return 0
    if kind == "admonition":
        kind = "note"
        if not argument:
            problems.append((token.map[0], "the directive '{admonition}' needs a title"))
    classes = options.get("class", "").split()
    collapsible = ("open" if "open" in options else "closed") if "dropdown" in classes \
        else None
    token.type, tokens[close].type = "admonition_open", "admonition_close"
    token.meta = {"kind": kind, "explicit_title": bool(argument), "collapsible": collapsible,
                  "problems": problems}
    if not argument:
        return 0
    title = title_tokens(tokens, token, argument)
    tokens[i + 1:i + 1] = title
    return len(title)


def title_tokens(tokens, opening, text):
    from markdown_it.token import Token

    open_, inline, close = (Token("admonition_title_open", "p", 1), Token("inline", "", 0),
                            Token("admonition_title_close", "p", -1))
    inline.content, inline.map, inline.children = text, list(opening.map), []
    return [open_, inline, close]


def _take_options(tokens, i) -> dict[str, str]:
    """Remove the `:key: value` lines at the top of the directive's first paragraph."""
    if i + 2 >= len(tokens) or tokens[i + 1].type != "paragraph_open":
        return {}
    inline = tokens[i + 2]
    lines = inline.content.split("\n")
    options = {}
    while lines and (match := OPTION.match(lines[0])):
        options[match.group(1)] = match.group(2)
        lines.pop(0)
    if options:
        inline.content = "\n".join(lines)
        if inline.map:
            inline.map = [inline.map[0] + len(options), inline.map[1]]
        if not inline.content.strip():
            del tokens[i + 1:i + 4]
    return options
