"""Admonitions (call-outs), in the three spellings authors know, rendered alike:

    !!! note "Optional title"          MkDocs / Python-Markdown: the content indented
        Content.                       by four spaces; `!!! note ""` has no title

    ??? tip "Click to open"            MkDocs Material: collapsible, closed (`???+`: open)
        Content.

    :::{warning} Optional title        MyST (also ```` ```{warning} ````): `:class: dropdown`
    Content.                           makes it collapsible, `:open:` opens it
    :::

    > [!IMPORTANT]                     GitHub
    > Content.

The kinds are those of the three tools (see KINDS): each has a default title in the
page's language (templates/strings.yaml, `admonition-<kind>`), aliases share their
kind's title and colour. A kind site.yaml declares (`admonitions:`) has its title per
language and the look of a known kind. Any other kind is shown as MkDocs shows it: an
admonition with its name as a class and, capitalized, as the default title; a warning
names the known kinds and the nearest one.
"""

from __future__ import annotations

import difflib
import re

from markdown_it import MarkdownIt
from markupsafe import escape
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.admon.index import admonition as admonition_block

from .common import closing_token, problem_token, report, ui

# kind -> the kind whose title and colour it shares
KINDS = {
    "note": "note", "abstract": "abstract", "summary": "abstract", "tldr": "abstract",
    "info": "info", "todo": "info", "seealso": "info",
    "tip": "tip", "hint": "tip", "important": "important",
    "success": "success", "check": "success", "done": "success",
    "question": "question", "help": "question", "faq": "question",
    "warning": "warning", "attention": "warning", "caution": "caution",
    "failure": "failure", "fail": "failure", "missing": "failure",
    "danger": "danger", "error": "danger", "bug": "bug",
    "example": "example", "quote": "quote", "cite": "quote",
}
GITHUB = ("note", "tip", "important", "warning", "caution")
ALERT = re.compile(r"^\[!([A-Za-z]+)\][ \t]*(?:\n|$)")
MKDOCS_PARAMS = re.compile(r'^\s*(\S+)((?:\s+[^"\s]+)*)\s*(?:"(.*)")?\s*$')
# The line MkDocs (Python-Markdown's admonition, pymdownx.details) takes for one: a kind of
# word characters and hyphens (more words are classes), then an optional "title", nothing
# else. `!!! 3. Note this` is text there, and here.
MKDOCS_LINE = re.compile(r'^(?:!!!|\?\?\?\+?) ?[\w-]+(?: +[\w-]+)*(?: +"[^"\n]*")? *$')
LITERALLY = r"write `\!!!` at the line's start to show it as text"


def known_kinds() -> str:
    return ", ".join(sorted(KINDS))


def unknown_kind(kind: str) -> str:
    """The warning for an admonition kind neither known nor declared."""
    near = difflib.get_close_matches(kind, sorted(KINDS), n=1, cutoff=0.6)
    hint = f"did you mean {near[0]}? " if near else ""
    return (f"unknown admonition kind '{kind}': shown as an admonition titled "
            f"'{kind.capitalize()}' unless it gives a title ({hint}kinds: {known_kinds()}; "
            "site.yaml's `admonitions` can declare it, with a title per language and the "
            f"look of a kind; or {LITERALLY})")


def use_admonitions(md: MarkdownIt) -> None:
    admon_plugin(md)
    md.block.ruler.at("admonition", mkdocs_admonition,
                      {"alt": ["paragraph", "reference", "blockquote", "list"]})
    md.core.ruler.after("block", "admonitions", normalize)
    md.core.ruler.after("inline", "admonition_titles", collect_titles)
    md.add_render_rule("admonition_open", render_open)
    md.add_render_rule("admonition_close", render_close)


def mkdocs_admonition(state, start_line: int, end_line: int, silent: bool) -> bool:
    """Block rule: the plugin's, for the lines MkDocs takes as an admonition only."""
    start = state.bMarks[start_line] + state.tShift[start_line]
    if not MKDOCS_LINE.match(state.src[start:state.eMarks[start_line]]):
        return False
    return admonition_block(state, start_line, end_line, silent)


def normalize(state) -> None:
    """Core rule, before inline parsing: every spelling becomes `admonition_open` with
    meta kind, collapsible (None, "open" or "closed") and whether a title was written."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "admonition_open" and "kind" not in token.meta:
            _mkdocs(token, tokens, i)
        elif token.type == "blockquote_open":
            _github(token, tokens, i)
    for token in list(tokens):
        kind = token.meta.get("kind") if token.type == "admonition_open" else None
        if kind is not None and kind not in KINDS and token.map:
            warning = problem_token(unknown_kind(kind), token.map[0], stops_build=False)
            warning.meta["kind"] = kind    # site.yaml may declare it: outlines.py
            tokens.append(warning)


def _mkdocs(token, tokens, i) -> None:
    match = MKDOCS_PARAMS.match(token.info)
    kind = (match.group(1) if match else token.info.split()[0]).lower()
    explicit = match is not None and match.group(3) is not None
    token.meta.update(kind=kind, explicit_title=explicit, collapsible={
        "???": "closed", "???+": "open"}.get(token.markup))
    if not explicit and tokens[i + 1].type == "admonition_title_open":
        del tokens[i + 1:i + 4]  # the plugin's English default title: ours is per language


def _github(token, tokens, i) -> None:
    if tokens[i + 1].type != "paragraph_open":
        return
    inline = tokens[i + 2]
    match = ALERT.match(inline.content)
    if not match:
        return
    kind = match.group(1).lower()
    if kind not in GITHUB:
        tokens.append(problem_token(f"'[!{match.group(1)}]' is not a GitHub alert: it "
                                       f"would be shown as text (alerts: "
                                       f"{', '.join(k.upper() for k in GITHUB)})",
                                       token.map[0]))
        return
    close = closing_token(tokens, i)
    token.type, token.tag, token.meta = "admonition_open", "div", {
        "kind": kind, "explicit_title": False, "collapsible": None}
    tokens[close].type, tokens[close].tag = "admonition_close", "div"
    inline.content = inline.content[match.end():]
    if not inline.content.strip():
        del tokens[i + 1:i + 4]



def collect_titles(state) -> None:
    """Core rule, after inline parsing: a written title's inline tokens go into the
    opening token's meta, so that rendering puts the title where the spelling needs it."""
    tokens = state.tokens
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "admonition_open" and i + 1 < len(tokens) \
                and tokens[i + 1].type == "admonition_title_open":
            token.meta["title"] = tokens[i + 2].children or []
            del tokens[i + 1:i + 4]
        i += 1


def render_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    kind = token.meta.get("kind", "note")
    for line, message in token.meta.get("problems", ()):
        report(env, env["first_line"] + line, message)
    classes, default = look(kind, env, token.meta.get("default_title"))
    title = token.meta.get("title")
    if title is not None:
        title_html = self.renderInline(title, options, env)
    elif token.meta.get("explicit_title"):
        title_html = ""  # `!!! note ""`: no title
    else:
        title_html = default
    collapsible = token.meta.get("collapsible")
    if collapsible:
        opened = " open" if collapsible == "open" else ""
        summary = title_html or default
        return (f'<details class="{classes}"{opened}>\n'
                f'<summary class="admonition-title">{summary}</summary>\n')
    head = f'<p class="admonition-title">{title_html}</p>\n' if title_html else ""
    return f'<div class="{classes}" role="note">\n{head}'


def look(kind: str, env: dict, default_key: str | None = None) -> tuple[str, str]:
    """The classes of an admonition of `kind` and its default title (HTML)."""
    shared = KINDS.get(kind)
    if shared is not None:
        return (f"admonition admonition-{shared}",
                str(escape(ui(env, default_key or f"admonition-{shared}"))))
    context = env.get("context")
    declared = getattr(context, "admonitions", {}).get(kind)
    name = escape(kind)
    if declared is not None:   # site.yaml: (the kind whose look it has, title)
        like = f" admonition-{declared[0]}" if declared[0] else ""
        return f"admonition{like} admonition-{name}", str(escape(declared[1]))
    return f"admonition admonition-{name}", str(escape(kind.capitalize()))


def render_close(self, tokens, idx, options, env) -> str:
    opening = tokens[_opening(tokens, idx)]
    return "</details>\n" if opening.meta.get("collapsible") else "</div>\n"


def _opening(tokens, idx) -> int:
    depth = 0
    for j in range(idx, -1, -1):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return 0
