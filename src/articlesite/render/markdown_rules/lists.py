"""Task lists (GitHub) and definition lists (PHP Markdown Extra, Pandoc, MkDocs):

    - [x] done                     Term
    - [ ] to do                    : Definition, which may hold
                                     several paragraphs.

A task's box is a disabled checkbox wrapped with the item's text in a <label>, so that
a screen reader says "checkbox, checked" and reads its text.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.tasklists import tasklists_plugin


def use_lists(md: MarkdownIt) -> None:
    md.use(tasklists_plugin, enabled=False, label=True)
    md.use(deflist_plugin)
