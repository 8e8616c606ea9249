"""Footnotes, as GitHub and Pandoc write them (mdit-py-plugins' footnote plugin).

    Text with a note.[^1] Inline notes too.^[Like this one.]

    [^1]: The note; it may hold several paragraphs, indented by four spaces.

Notes are numbered per page in the order they are first referred to, listed at the end
of the article under a heading in the page's language ("Notes", "注释", "脚注"), each
with links back to every place that refers to it. A reference to a note that is not
defined, and a note no text refers to, are problems.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markupsafe import escape
from mdit_py_plugins.footnote import footnote_plugin

from .common import problem_token, ui


def use_footnotes(md: MarkdownIt) -> None:
    md.use(footnote_plugin)
    md.core.ruler.before("footnote_tail", "footnote_definitions", _remember_definitions)
    md.core.ruler.after("footnote_tail", "unused_footnotes", _unused_definitions)
    for name, rule in (("footnote_ref", render_ref), ("footnote_block_open", render_block_open),
                       ("footnote_block_close", render_block_close),
                       ("footnote_open", render_open), ("footnote_close", render_close),
                       ("footnote_anchor", render_anchor)):
        md.add_render_rule(name, rule)


def _remember_definitions(state) -> None:
    state.env["footnote_lines"] = {
        token.meta["label"]: token.map[0] for token in state.tokens
        if token.type == "footnote_reference_open" and token.map}


def _unused_definitions(state) -> None:
    used = {note.get("label") for note in state.env.get("footnotes", {}).get("list", {}).values()}
    for label, line in state.env.get("footnote_lines", {}).items():
        if label not in used:
            state.tokens.append(problem_token(
                f"footnote [^{label}] is defined but no text refers to it: it would not be "
                f"shown (refer to it with [^{label}])", line))


def _number(token) -> int:
    return token.meta["id"] + 1


def render_ref(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    n, sub = _number(token), token.meta.get("subId", 0)
    ref_id = f"fnref-{n}" + (f"-{sub + 1}" if sub else "")
    return (f'<sup class="footnote-ref"><a href="#fn-{n}" id="{ref_id}" '
            f'role="doc-noteref">{n}</a></sup>')


def render_block_open(self, tokens, idx, options, env) -> str:
    title = escape(ui(env, "footnotes"))
    return (f'<section class="footnotes" role="doc-endnotes" aria-labelledby="footnotes">\n'
            f'<h2 id="footnotes">{title}</h2>\n<ol>\n')


def render_block_close(self, tokens, idx, options, env) -> str:
    return "</ol>\n</section>\n"


def render_open(self, tokens, idx, options, env) -> str:
    return f'<li id="fn-{_number(tokens[idx])}">'


def render_close(self, tokens, idx, options, env) -> str:
    return "</li>\n"


def _anchor_counts(tokens, env: dict) -> dict[int, int]:
    """How many links back each note has (the references to it), counted once per token
    list: counting them at each link scanned every token, 31 s for 4000 notes."""
    kept = env.get("footnote_anchor_counts")
    if kept is None or kept[0] is not tokens:
        counts: dict[int, int] = {}
        for t in tokens:
            if t.type == "footnote_anchor":
                counts[t.meta["id"]] = counts.get(t.meta["id"], 0) + 1
        kept = env["footnote_anchor_counts"] = (tokens, counts)
    return kept[1]


def render_anchor(self, tokens, idx, options, env) -> str:
    """One link back per reference: ↩, or ↩¹ ↩² when the note is referred to twice."""
    token = tokens[idx]
    n, sub = _number(token), token.meta.get("subId", 0)
    count = _anchor_counts(tokens, env)[token.meta["id"]]
    ref_id = f"fnref-{n}" + (f"-{sub + 1}" if sub else "")
    label = escape(f"{ui(env, 'back-to-text')} {sub + 1}" if count > 1
                   else ui(env, "back-to-text"))
    mark = f"↩<sup>{sub + 1}</sup>" if count > 1 else "↩"
    return (f' <a class="backref" href="#{ref_id}" role="doc-backlink" aria-label="{label}">'
            f"{mark}</a>")
