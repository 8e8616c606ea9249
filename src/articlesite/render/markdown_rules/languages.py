"""Which Pygments lexer a fence's language names.

Any name or alias Pygments knows is taken as it is. Other tools' documentation uses a few
names Pygments does not know, each with one clear meaning (VitePress' `vue-html`,
`shell-session`, `jsonc`…): those are mapped here. A name that is a file extension
(`mjs`, `kt`, `yml`) takes the lexer of files with that extension. Names that say the
code is plain text (`text`, `txt`, `plain`, `output`…) are plain, as meant. Any other
name gives plain code and a warning (markdown_rules/fences.py).

Pygments' lexers (some 4 ms to import) are imported by the first fence that names a
language: a page without code needs none.
"""

from __future__ import annotations

from functools import lru_cache

# A name other tools use -> the Pygments name it means
MEANS = {
    "vue-html": "html", "vue": "html", "svelte": "html", "astro": "html",
    "html-vue": "html", "vue-template": "html",
    "shell-session": "console", "sh-session": "console", "shellsession": "console",
    "bash-session": "console", "console-session": "console", "terminal": "console",
    "zsh-session": "console", "cmd": "batch", "ps": "powershell",
    "pwsh-session": "ps1con", "powershell-session": "ps1con",
    "jsonc": "json", "json-with-comments": "json", "jsonl": "json", "ndjson": "json",
    "mdx": "markdown", "env": "bash", "dotenv": "bash", "conf": "ini",
    "postcss": "css", "gql": "graphql", "patch": "diff", "hbs": "handlebars",
    "njk": "jinja", "nunjucks": "jinja", "ejs": "html+erb", "svg": "xml",
    "ipython3": "ipython", "py3": "python", "python3": "python",
}
# A lexer's name -> the lexer of the language that extends it, for code the first one
# finds errors in (code.py)
SUPERSETS = {"JavaScript": "jsx", "TypeScript": "tsx"}
# Names that ask for plain text: no lexer, no warning
PLAIN = frozenset({"text", "txt", "plain", "plaintext", "none", "nohighlight", "output",
                   "log", "raw", "text/plain"})


def known(language: str) -> bool:
    """Whether `language` is highlighted or asks for plain text (no warning)."""
    return language.lower() in PLAIN or lexer_name(language) is not None


@lru_cache(maxsize=256)
def lexer_name(language: str) -> str | None:
    """The Pygments name of the lexer `language` means; None for none."""
    from pygments.lexers import find_lexer_class_for_filename
    from pygments.util import ClassNotFound

    name = language.lower()
    if not name or name in PLAIN:
        return None
    for candidate in (name, MEANS.get(name)):
        if candidate and _exists(candidate):
            return candidate
    if name.isalnum():
        try:
            found = find_lexer_class_for_filename(f"code.{name}")
        except ClassNotFound:
            found = None
        if found is not None and found.aliases:
            return found.aliases[0]
    return None


def _exists(name: str) -> bool:
    from pygments.lexers import find_lexer_class_by_name
    from pygments.util import ClassNotFound

    try:
        return find_lexer_class_by_name(name) is not None
    except ClassNotFound:
        return False
