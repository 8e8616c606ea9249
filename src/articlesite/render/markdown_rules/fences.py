"""Fence info strings as other tools write them, rewritten when parsed into the one
code.py reads (`language title="…" linenums="…" hl_lines="…"`):

    ```{.python .input}            Pandoc attributes: the first class is the language,
    ```{.python #id .numberLines}  `.numberLines` (and `startFrom="5"`) numbers the lines;
                                   other classes and the id have no effect here
    ```js src/App.js               a file name after the language (react.dev, Docusaurus,
    ```js:src/App.js               VitePress), or a label in brackets: the block's title
    ```js [src/App.js]
    ```js{1,3-4}  ```js {1,3-4}    VitePress' and react.dev's marked lines

What is still not understood is named by a warning, and the code is shown all the same: a
language Pygments does not know even under another tool's name (languages.py: the code is
shown plain) and words after the language that are neither an option nor a file name
(they are ignored).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from .code import OPTION
from .common import problem_token
from .languages import known

DIRECTIVE = re.compile(r"^\{[A-Za-z][\w-]*\}")   # MyST: ```{code-block}, ```{figure}
PANDOC = re.compile(r"^\{([^{}]*)\}$")
MARKED = re.compile(r"^\{([\d\s,-]+)\}")
BRACKETS = re.compile(r"^\[([^\]]+)\]")
ALIASES = {"filename": "title"}   # other tools' names of code.py's options


def use_fences(md: MarkdownIt) -> None:
    md.core.ruler.before("inline", "fence_info", normalize)


def normalize(state) -> None:
    """Core rule: each code fence's info string in code.py's spelling; a warning for what
    it does not use."""
    warnings = []
    for token in state.tokens:
        info = token.info.strip() if token.type == "fence" else ""
        if not info or DIRECTIVE.match(info):
            continue
        language, options, ignored = read_info(info)
        token.info = " ".join([language, *(f"{key}={_quoted(value)}"
                                           for key, value in options.items())]).strip()
        line = token.map[0] if token.map else 0
        if language and not known(language):
            warnings.append(problem_token(
                f"code block language '{language}' is not one the highlighter knows: the "
                "code is shown plain (name a language Pygments knows, e.g. python, js, "
                "html, console; or 'text' for plain text)", line, stops_build=False))
        if ignored:
            warnings.append(problem_token(
                f"code block info '{info}': '{' '.join(ignored)}' is ignored (after the "
                "language: a file name, [a title], {marked lines} or options key=\"value\": "
                "title, linenums, hl_lines)", line, stops_build=False))
    state.tokens.extend(warnings)


def read_info(info: str) -> tuple[str, dict[str, str], list[str]]:
    """The language, the options (code.py's names) and the words ignored."""
    pandoc = PANDOC.match(info)
    if pandoc:
        return _pandoc(pandoc.group(1))
    first, _, rest = info.partition(" ")
    if "=" in first:
        first, rest = "", info
    options: dict[str, str] = {}
    if "{" in first and not first.startswith("{"):
        first, brace = first.split("{", 1)
        rest = f"{{{brace} {rest}"
    if ":" in first and not first.startswith(":"):
        first, options["title"] = first.split(":", 1)
    ignored = []
    rest = rest.strip()
    while rest:
        if marked := MARKED.match(rest):
            options.setdefault("hl_lines", " ".join(marked.group(1).replace(",", " ").split()))
        elif bracket := BRACKETS.match(rest):
            options.setdefault("title", bracket.group(1).strip())
        elif option := OPTION.match(rest):
            key = ALIASES.get(option.group(1), option.group(1))
            options[key] = next(g for g in option.groups()[1:] if g is not None)
        else:
            word = rest.split(None, 1)[0]
            if ("/" in word or "." in word) and "title" not in options:
                options["title"] = word
            else:
                ignored.append(word)
            rest = rest[len(word):].strip()
            continue
        rest = rest[(marked or bracket or option).end():].strip()
    return first, options, ignored


def _pandoc(attributes: str) -> tuple[str, dict[str, str], list[str]]:
    classes, options = [], {}
    for word in OPTION.sub(" ", attributes).split():
        if word.startswith("."):
            classes.append(word[1:])
    values = {m.group(1): next(g for g in m.groups()[1:] if g is not None)
              for m in OPTION.finditer(attributes)}
    if {"numberLines", "number-lines", "numberlines"} & set(classes):
        options["linenums"] = values.get("startFrom", "1")
    language = next((name for name in classes if name not in (
        "numberLines", "number-lines", "numberlines")), "")
    return language, options, []


def _quoted(value: str) -> str:
    return f'"{value}"' if '"' not in value else "'" + value.replace("'", "’") + "'"
