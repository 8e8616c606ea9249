"""Containers as markdown-it-container and VitePress write them, parsed as Markdown inside:

    ::: tip                     :::warning Security Warning        ::: details Click me
    Content.                    Content.                           Hidden content.
    :::                         :::                                :::

The name is an admonition kind (admonitions.py: an unknown one is shown as an admonition
of its own kind, with a warning), the rest of the line its title; `details` is a
collapsible block, closed, titled "Details" in the page's language unless the line
gives a title. One the page ends in, never closed, holds the rest of the page, and a
warning says so. MyST's `:::{name}` is directives.py's; a `:::` line no rule takes is
named by literal.py.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from mdit_py_plugins.container import container_plugin

from .common import closing_token, problem_token
from .directives import title_tokens

CONTAINER = re.compile(r"^\s*([A-Za-z][\w-]*)(?:\s+(.*?))?\s*$")


def use_containers(md: MarkdownIt) -> None:
    """After use_directives (its `{name}` is tried first) and use_admonitions."""
    container_plugin(md, "colon", marker=":",
                     validate=lambda params, markup: CONTAINER.match(params) is not None)
    md.core.ruler.before("admonitions", "containers", normalize)


def normalize(state) -> None:
    """Core rule, before admonitions.normalize: each container becomes an admonition."""
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "container_colon_open":
            close = closing_token(tokens, i)
            match = CONTAINER.match(token.info)
            name, title = match.group(1).lower(), (match.group(2) or "").strip()
            token.type, tokens[close].type = "admonition_open", "admonition_close"
            token.tag = tokens[close].tag = "div"
            token.meta = {"kind": name, "explicit_title": bool(title), "collapsible": None,
                          "colons": True}
            if name == "details":
                token.meta.update(kind="note", collapsible="closed",
                                  default_title="admonition-details")
            if not tokens[close].markup and token.map:   # the page ended first
                tokens.append(problem_token(
                    f"'{token.markup} {token.info.strip()}' is never closed by a line "
                    f"'{token.markup}': the container holds the rest of the page",
                    token.map[0], stops_build=False))
            if title:
                tokens[i + 1:i + 1] = title_tokens(tokens, token, title)
        i += 1
