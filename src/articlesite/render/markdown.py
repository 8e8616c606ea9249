"""Markdown: one configured markdown-it parser and the renderer rules of this site.

Syntax beyond CommonMark (documented in README.md):
- `## Heading {#id}`: an explicit, language-independent section id;
- `$…$` and `$$…$$`: math, converted to MathML at build time;
- ```` ```{figure} figure-id ```` with an empty body: a figure from `figures/`;
- `[@ref-id]` or `[@a; @b]`: citations of the article's bibliography;
- GFM tables;
- and the rules of markdown_rules/ (footnotes, admonitions, tabs, code highlighting…).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import escape
from mdit_py_plugins.dollarmath import dollarmath_plugin

from . import equations
from .markdown_rules import use_rules
from .markdown_rules.code import render_code, render_myst_code
from .markdown_rules.headings import heading_problems, render_heading_close
from .markdown_rules.literal import Literal, find_literal_markup

CITATION = re.compile(r"\[(@[a-z0-9][a-z0-9-]*(?:\s*;\s*@[a-z0-9][a-z0-9-]*)*)\]")
FIGURE_INFO = re.compile(r"^\{figure\}\s*(\S*)\s*$")
DIRECTIVE_INFO = re.compile(r"^\{([A-Za-z][\w-]*)\}\s*(.*)$")


@dataclass
class Heading:
    level: int
    id: str | None
    html: str          # the heading's inline content, rendered
    line: int


@dataclass
class Outline:
    """What a page's body contains, found before rendering it."""

    headings: list[Heading] = field(default_factory=list)
    figures: list[tuple[str, int, str | None]] = field(default_factory=list)  # id, line, section
    citations: list[tuple[str, int, str | None]] = field(default_factory=list)
    display_math: list[tuple[int, str | None]] = field(default_factory=list)  # line, section
    # The ids the body's own markup gives besides its headings' (footnotes, tabs, labelled
    # formulas) and its citations': see check/ids.py.
    ids: list[str] = field(default_factory=list)
    # What a reader will see as literal markup, though the build goes on (a raw HTML tag,
    # a `!!!` line no rule took…): line, message (and an unknown admonition kind's name,
    # which site.yaml may declare). Found once per source, when its outline is first made
    # (load/outlines.py: literal.shown_as_text).
    shown_as_text: list[tuple] = field(default_factory=list)
    # What stops the build that the parse alone shows (parse_problems): line, message.
    problems: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def sections(self) -> list[Heading]:
        return [h for h in self.headings if h.level == 2]

    def plain(self) -> tuple:
        """The outline in plain values, as the cache's memo keeps them."""
        return ([(h.level, h.id, h.html, h.line) for h in self.headings], self.figures,
                self.citations, self.display_math, self.ids, self.shown_as_text,
                self.problems)

    @classmethod
    def from_plain(cls, plain: tuple) -> Outline:
        headings, figures, citations, display_math, ids, shown_as_text, problems = plain
        return cls([Heading(*h) for h in headings], [tuple(f) for f in figures],
                   [tuple(c) for c in citations], [tuple(d) for d in display_math], list(ids),
                   [tuple(s) for s in shown_as_text], [tuple(p) for p in problems])


@dataclass
class RenderContext:
    """What rendering needs from the rest of the build, per page."""

    figure: Callable[[str, int], str]             # figure id, line -> HTML
    citation_number: Callable[[str], int | None]  # reference id -> number
    problem: Callable[[int | None, str], None]    # line, message
    references: Any = None                        # links.PageReferences: images, links
    ui: Callable[[str], str] = str                # interface string in the page's language
    cite_count: dict[str, int] = field(default_factory=dict)
    section_number: int = 0
    section_numbers: bool = True   # whether `##` headings get one (load/numbering.py)
    equation_reference: Callable[[str], str] | None = None   # "(3)" -> "Eq. (3)"
    notice: Callable[[str], str] | None = None   # section id -> HTML after its heading
    admonitions: dict[str, tuple[str | None, str]] = field(default_factory=dict)  # site.yaml


def _citation(state: StateInline, silent: bool) -> bool:
    """Inline rule: `[@id]` or `[@a; @b]`."""
    if not state.src.startswith("[@", state.pos):
        return False
    match = CITATION.match(state.src, state.pos)
    if not match:
        return False
    if not silent:
        token = state.push("citation", "", 0)
        token.meta = {"ids": [part.strip()[1:] for part in match.group(1).split(";")]}
    state.pos = match.end()
    return True


def outline(tokens: list[Token], first_line: int) -> Outline:
    """Headings, figures, citations and display formulas, with their source lines."""
    found = Outline()
    section: str | None = None
    for i, token in enumerate(tokens):
        line = first_line + token.map[0] if token.map else 0
        if token.type == "inline":
            if "[@" in token.content:   # where a citation starts (_citation); most have none
                found.citations.extend((ref, line, section) for child in token.children or []
                                       if child.type == "citation" for ref in child.meta["ids"])
        elif token.type == "heading_open":
            level = int(token.tag[1])
            heading_id = token.attrGet("id")
            md = parser()
            html = md.renderer.renderInline(tokens[i + 1].children or [], md.options,
                                            {"outline": True})
            found.headings.append(Heading(level, heading_id, html, line))
            if level == 2:
                section = heading_id
        elif token.type == "fence" and (figure := FIGURE_INFO.match(token.info.strip())):
            found.figures.append((figure.group(1), line, section))
        elif token.type == "math_block":
            found.display_math.append((line, section))
    found.ids = markup_ids(tokens)
    return found


def markup_ids(tokens: list[Token]) -> list[str]:
    """The ids the rules give the footnotes, the tabs and the labelled display formulas
    of a body (markdown_rules/footnotes.py, tabs.py; equations.py), in page order."""
    ids: list[str] = []
    groups, stack = 0, []
    for token in tokens:
        if token.type == "footnote_block_open":
            ids.append("footnotes")
        elif token.type == "footnote_open":
            ids.append(f"fn-{token.meta['id'] + 1}")
        elif token.type == "tabs_open":
            groups += 1
            stack.append([groups, 0])
        elif token.type == "tabs_close" and stack:
            stack.pop()
        elif token.type == "tab_open" and stack:
            stack[-1][1] += 1
            ids.append(f"tabs-{stack[-1][0]}-{stack[-1][1]}")
        elif token.type == "math_block":
            label = equations.label_of(token.content.strip())
            if label is not None:
                ids.append(equations.anchor(label))
        elif token.type == "inline" and "^" in token.content:   # [^note] or ^[note]
            for child in token.children or []:
                if child.type == "footnote_ref":
                    sub = child.meta.get("subId", 0)
                    ids.append(f"fnref-{child.meta['id'] + 1}" + (f"-{sub + 1}" if sub else ""))
    return ids


# What parse_problems finds (rendering shows nothing in their place).
NO_SECTION_ID = ("a section heading needs an id that is the same in every language: end it "
                 "with {#some-id}")
NO_FIGURE_ID = "a figure directive needs a figure id: ```{figure} figure-id"
FIGURE_CONTENT = ("a figure directive takes no content: its caption and texts come from the "
                  "figure-text dictionary")
CODE_DIRECTIVES = ("code-block", "code", "sourcecode")


def unknown_directive(name: str) -> str:
    return (f"unknown directive '{{{name}}}' (in backticks: figure, code-block and the "
            "admonition kinds; the user guide's 'Writing articles' lists them)")


def parse_problems(tokens: list[Token], first_line: int,
                   literals: list[Literal] | None = None) -> list[tuple[int | None, str]]:
    """What can only be a mistake in a parsed body, found without rendering it (the check
    stage reports it, from the outline): a `#` heading, a heading id written wrongly, a
    `##` heading without an id, a figure directive
    without an id or with content, a directive no rule knows, a label two display
    formulas use, and the literal markup that stops the build (literal.py; `literals`:
    what its find_literal_markup found, if the caller has it already)."""
    found: list[tuple[int | None, str]] = []
    inline_line = None   # a token without a line is placed at the last text's
    for token in tokens:
        line = first_line + token.map[0] if token.map else inline_line
        if token.type == "inline":
            inline_line = line
        elif token.type == "heading_open":
            found += [(line, message) for message in heading_problems(token)]
            if token.tag == "h2" and not token.attrGet("id"):
                found.append((line, NO_SECTION_ID))
        elif token.type == "fence":
            info = token.info.strip()
            figure, directive = FIGURE_INFO.match(info), DIRECTIVE_INFO.match(info)
            if figure and not figure.group(1):
                found.append((line, NO_FIGURE_ID))
            elif figure and token.content.strip():
                found.append((line, FIGURE_CONTENT))
            elif not figure and directive and directive.group(1) not in CODE_DIRECTIVES:
                found.append((line, unknown_directive(directive.group(1))))
    found += [(line, f"\\label{{{label}}} is used by another display formula of this page")
              for line, label in equations.duplicate_labels(tokens, first_line)]
    found += [(literal.line, literal.message)
              for literal in (find_literal_markup(tokens, first_line) if literals is None
                              else literals) if literal.stops_build]
    return found


def outline_of(body: str, first_line: int) -> Outline:
    """The outline of a Markdown body whose first line is `first_line` of its file."""
    return outline(parse(body), first_line)


def render(tokens: list[Token], first_line: int, context: RenderContext) -> str:
    """Render a page body; like RendererHTML.render, but inline rules learn their line."""
    renderer, options = parser().renderer, parser().options
    env: dict = {"context": context, "first_line": first_line,
                 "equations": equations.number(tokens)}
    out = []
    for i, token in enumerate(tokens):
        if token.type == "inline":
            env["inline_line"] = first_line + token.map[0] if token.map else None
            env["inline_source"] = token.content
            out.append(renderer.renderInline(token.children or [], options, env))
        elif token.type in renderer.rules:
            out.append(renderer.rules[token.type](tokens, i, options, env))
        else:
            out.append(renderer.renderToken(tokens, i, options, env))
    return "".join(out)


def _line(tokens: list[Token], idx: int, env: dict) -> int | None:
    token = tokens[idx]
    return env["first_line"] + token.map[0] if token.map else env.get("inline_line")


def _render_heading_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    html = self.renderToken(tokens, idx, options, env)
    context = env.get("context")
    if context is None or token.tag != "h2" or not context.section_numbers:
        return html
    context.section_number += 1
    return f'{html}<span class="secno">{context.section_number}</span> '


def _render_heading_close(self, tokens, idx, options, env) -> str:
    """A heading's end, the one rule for it: `###` and deeper with its anchor link
    (markdown_rules/headings.py), then what the page adds after a section's heading (a
    stale notice)."""
    html = render_heading_close(self, tokens, idx, options, env)
    context = env.get("context")
    if context is None or context.notice is None or tokens[idx].tag != "h2":
        return html
    section_id = tokens[idx - 2].attrGet("id") if idx >= 2 else None
    return html + (context.notice(str(section_id)) if section_id else "")


def _render_fence(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    match = FIGURE_INFO.match(token.info.strip())
    if not match:
        directive = DIRECTIVE_INFO.match(token.info.strip())
        if directive:
            return _render_directive_fence(self, tokens, idx, options, env, directive)
        return render_code(self, tokens, idx, options, env)
    context = env.get("context")
    if context is None or not match.group(1):   # no id: parse_problems reports it
        return ""
    return context.figure(match.group(1), _line(tokens, idx, env))


def _render_directive_fence(self, tokens, idx, options, env, directive) -> str:
    """```` ```{code-block} python ````; admonitions in backticks are parsed as Markdown
    (markdown_rules/directives.py); any other directive is unknown."""
    if directive.group(1) in CODE_DIRECTIVES:
        return render_myst_code(self, tokens, idx, options, env, directive.group(2))
    return ""   # unknown: parse_problems reports it


def _render_citation(self, tokens, idx, options, env) -> str:
    context = env.get("context")
    ids = tokens[idx].meta["ids"]
    if context is None:
        return ""
    links = []
    for ref in ids:
        number = context.citation_number(ref)
        if number is None:   # no entry: the check stage reports it (check/marks.py)
            continue
        count = context.cite_count[ref] = context.cite_count.get(ref, 0) + 1
        links.append(f'<a href="#ref-{ref}" id="cite-{ref}-{count}" role="doc-noteref">'
                     f'{number}</a>')
    return f'<span class="cite">[{", ".join(links)}]</span>'


def _render_math(self, tokens, idx, options, env) -> str:
    context = env.get("context")
    line = _line(tokens, idx, env)
    source = env.get("inline_source", "")
    if tokens[idx].type == "math_inline" and line is not None and tokens[idx].content in source:
        line += source[:source.index(tokens[idx].content)].count("\n")  # the formula's own line
    html = equations.render(tokens[idx], line, env.get("equations"),
                            context.problem if context else None,
                            context.equation_reference if context else None,
                            context.ui("formula") if context else None)
    before, after = tokens[idx].meta.get("before", ""), tokens[idx].meta.get("after", "")
    if before or after:   # the punctuation it touches stays on its line: punctuation.py
        html = f'<span class="nobreak">{escape(before)}{html}{escape(after)}</span>'
    return html


def _references(env: dict):
    context = env.get("context")
    return None if context is None else context.references


def _child_line(tokens: list[Token], idx: int, env: dict) -> int | None:
    """The line of an inline token: its paragraph's first line and the line breaks
    before it."""
    line = env.get("inline_line")
    if line is None:
        return None
    return line + sum(token.type in ("softbreak", "hardbreak") for token in tokens[:idx])


def _render_image(self, tokens, idx, options, env) -> str:
    """An image of the article's folder: see links.py."""
    references = _references(env)
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env)
    if env.get("outline"):  # a heading's copy in the table of contents: its text
        return str(escape(alt))
    if references is None:
        return self.image(tokens, idx, options, env)
    return references.image(token.attrGet("src") or "", alt, token.attrGet("title"),
                            _child_line(tokens, idx, env))


def _render_link_open(self, tokens, idx, options, env) -> str:
    """A link to a file of the article's folder or to another article: see links.py."""
    references = _references(env)
    if env.get("outline"):  # the table of contents links to the heading: no link inside
        env.setdefault("link_tags", []).append("")
        return ""
    if references is not None:
        token = tokens[idx]
        target = references.link(token.attrGet("href") or "", _child_line(tokens, idx, env))
        token.attrSet("href", target.href)
        if target.hreflang:
            token.attrSet("hreflang", target.hreflang)
        env.setdefault("link_tags", []).append(target.tag)
    return self.renderToken(tokens, idx, options, env)


def _render_link_close(self, tokens, idx, options, env) -> str:
    tags = env.get("link_tags")
    tag = str(tags.pop() if tags else "")
    return "" if env.get("outline") else tag + self.renderToken(tokens, idx, options, env)


def create_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.use(dollarmath_plugin, allow_labels=False, allow_space=True, allow_digits=False,
           double_inline=False)
    use_rules(md)
    md.inline.ruler.before("link", "citation", _citation)
    md.inline.ruler.before("escape", "eqref", equations.eqref_rule)
    md.add_render_rule("heading_open", _render_heading_open)
    md.add_render_rule("heading_close", _render_heading_close)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("citation", _render_citation)
    md.add_render_rule("image", _render_image)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    md.add_render_rule("math_inline", _render_math)
    md.add_render_rule("math_block", _render_math)
    return md


@functools.cache
def parser() -> MarkdownIt:
    """The parser, configured once, when first needed."""
    return create_parser()


def parse(text: str) -> list[Token]:
    return parser().parse(text)
