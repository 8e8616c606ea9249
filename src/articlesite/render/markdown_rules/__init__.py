"""The Markdown syntax beyond CommonMark, one module per rule, configured once by
`use_rules` (markdown.py holds the site's own: section ids, math, figures, citations).
Headings are rendered by markdown.py, which registers heading_open and heading_close
once, each calling headings.py's part (its checks, its anchor link) and then the site's.

- headings: `{#id}` on any heading, generated ids for `###` and deeper, anchor links;
- footnotes: `[^1]`, `^[inline]`;
- admonitions: `!!! note`, `??? note`, `> [!NOTE]` (and directives.py: `:::{note}`);
- directives: MyST `:::{name}` fences of colons;
- containers: VitePress' `::: tip`, `:::warning Title`, `::: details`;
- tabs: `=== "Label"` (and MyST `tab-set`);
- lists: task lists, definition lists; and `~~strikethrough~~`;
- cjk: no space where a Chinese or Japanese paragraph is wrapped;
- punctuation: kept on the line of the inline formula it touches;
- emphasis: `**…**` and `~~…~~` next to Chinese and Japanese text;
- code: Pygments highlighting, titles, line numbers, marked lines (fences: other tools'
  info strings; languages: other tools' language names);
- inline_html: the few raw HTML tags kept (`<u>`, `<sub>`, `<kbd>`, `<br>`…);
- literal: what would reach the reader as literal markup.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from .admonitions import use_admonitions
from .cjk import render_softbreak
from .code import render_indented
from .containers import use_containers
from .directives import use_directives
from .emphasis import use_cjk_emphasis
from .fences import use_fences
from .footnotes import use_footnotes
from .headings import explicit_ids, heading_ids
from .inline_html import use_inline_html
from .lists import use_lists
from .punctuation import use_punctuation
from .tabs import use_tabs


def use_rules(md: MarkdownIt) -> None:
    md.enable("strikethrough")
    use_cjk_emphasis(md)
    md.core.ruler.before("inline", "explicit_ids", explicit_ids)
    md.core.ruler.after("inline", "heading_ids", heading_ids)
    md.add_render_rule("softbreak", render_softbreak)
    md.add_render_rule("code_block", render_indented)  # fences: markdown.py's, then code.py
    use_footnotes(md)
    use_admonitions(md)
    use_directives(md)
    use_containers(md)
    use_fences(md)
    use_tabs(md)
    use_lists(md)
    use_punctuation(md)
    md.add_render_rule("markup_problem", lambda self, tokens, idx, options, env: "")
    use_inline_html(md)   # last: its rule runs first after "inline", before the rules
                          # above add tags of their own (task lists' checkboxes)
