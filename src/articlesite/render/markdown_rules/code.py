"""Code blocks, highlighted at build time by Pygments (no JavaScript in the page).

    ```python title="train.py" linenums="1" hl_lines="2 4-5"
    ...
    ```

The info string, as MkDocs Material authors write it: the language (any name or alias
Pygments knows, or one of the names languages.py maps; an unknown one gives plain code and
a warning, none gives plain code), then
options: `title="…"` (shown above the code), `linenums="N"` (line numbers from N, not
copied with the code), `hl_lines="2 4-5"` (lines marked, counted from the first line of
the block). An unknown option, or a marked line the block does not have, is a problem.

Tokens get one of a few roles (keyword, string, comment, number, function, builtin,
deleted, prompt), coloured by CSS variables in templates/style.css, with a light and a
dark palette. Other tools' spellings of the info string (Pandoc's `{.python .input}`, a
file name after the language) are rewritten into this one when parsed: fences.py.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import escape
from pygments.token import (
    Comment,
    Error,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    String,
    _TokenType,
)

from ...problems import plural
from .common import line_of, report
from .languages import SUPERSETS, lexer_name

if TYPE_CHECKING:
    from pygments.lexer import Lexer

OPTION = re.compile(r'([A-Za-z_][\w-]*)=(?:"([^"]*)"|\'([^\']*)\'|(\S+))')
OPTIONS = ("title", "linenums", "hl_lines")
LINES = re.compile(r"^\s*(\d+)(?:\s*-\s*(\d+))?\s*$")
# Pygments token type -> the role our style sheet colours (the nearest ancestor counts)
ROLES = {
    Keyword: "k", Operator.Word: "k", Name.Tag: "k", Generic.Heading: "k",
    Generic.Subheading: "k", Keyword.Constant: "m",
    String: "s", Generic.Inserted: "s", Name.Attribute: "f",
    Comment: "c", Generic.Output: "c", Comment.Preproc: "k",
    Number: "m", Name.Constant: "m", String.Escape: "m", String.Regex: "m",
    Name.Function: "f", Name.Class: "f", Name.Decorator: "f", Name.Exception: "f",
    Name.Builtin: "b", Name.Variable: "b", Name.Namespace: "b", Name.Entity: "b",
    Name.Label: "b", Generic.Deleted: "d", Error: "d", Generic.Error: "d",
    Generic.Traceback: "d", Generic.Prompt: "p", Generic.Emph: "e", Generic.Strong: "g",
}


@lru_cache(maxsize=256)
def role(token_type: _TokenType) -> str | None:
    while token_type is not None:
        if token_type in ROLES:
            return ROLES[token_type]
        token_type = token_type.parent
    return None


@lru_cache(maxsize=128)
def lexer(language: str) -> Lexer | None:
    """The lexer of a fence's language (languages.py: names other tools use too)."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    name = lexer_name(language)
    if name is None:
        return None
    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def parse_info(info: str) -> tuple[str, dict[str, str], list[str]]:
    """The language, the options and the words that are neither."""
    words = info.strip()
    language = ""
    if words and "=" not in words.split(None, 1)[0]:
        language, _, words = words.partition(" ")
        language = language.removeprefix("{.").removeprefix(".").rstrip("}")
    options, rest = {}, []
    position = 0
    for match in OPTION.finditer(words):
        rest.extend(words[position:match.start()].split())
        options[match.group(1)] = next(g for g in match.groups()[1:] if g is not None)
        position = match.end()
    rest.extend(words[position:].split())
    return language, options, rest


def marked_lines(spec: str, count: int) -> tuple[set[int], int | None] | None:
    """The lines `hl_lines` marks among a block's `count` (None: not line numbers), and
    the first it names beyond them: a range is cut to the block before it is counted."""
    lines: set[int] = set()
    outside = None
    for part in spec.replace(",", " ").split():
        match = LINES.match(part)
        if not match:
            return None
        # A number of more digits than any block has lines is not read as a number (int()
        # refuses over 4300 digits); "1-99999999999" is cut to the block's lines.
        first, last = (int(n) if len(n) < 10 else 10**9 for n in
                       (match.group(1), match.group(2) or match.group(1)))
        lines.update(range(max(first, 1), min(last, count) + 1))
        beyond = [n for n in (first, last) if not 1 <= n <= count]
        if beyond and outside is None:
            outside = beyond[0]
    return lines, outside


def tokens_of(code: str, found: Lexer) -> list[tuple[_TokenType, str]]:
    """The lexer's tokens of the code, with its line end (a session lexer, console,
    keeps a last line without one back). JavaScript or TypeScript that the lexer finds
    errors in is lexed again as JSX or TSX, which it may be (react.dev writes `js`)."""
    tokens = list(found.get_tokens(code + "\n"))
    wider = SUPERSETS.get(found.name)
    if wider and any(token_type in Error for token_type, _ in tokens):
        tokens = list(lexer(wider).get_tokens(code + "\n"))
    return tokens


def highlight(code: str, language: str) -> list[str]:
    """The code as lines of HTML, tokens wrapped in spans of their role (neighbours of
    one role in one span); no line ends."""
    found = lexer(language.lower()) if language else None
    if found is None:
        return [str(escape(line)) for line in code.split("\n")]
    lines: list[list[list]] = [[]]   # per line: [role, text] pieces
    for token_type, value in tokens_of(code, found):
        css = role(token_type)
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if not piece:
                continue
            pieces = lines[-1]
            if pieces and pieces[-1][0] == css:
                pieces[-1][1] += piece
            else:
                pieces.append([css, piece])
    if len(lines) > code.count("\n") + 1 and not lines[-1]:
        lines.pop()
    return ["".join(f'<span class="{css}">{escape(text)}</span>' if css else str(escape(text))
                    for css, text in pieces) for pieces in lines]


MYST_OPTION = re.compile(r"^:([\w-]+):[ \t]*(.*)$")
# MyST's ```{code-block} options, as this module's
MYST_OPTIONS = {"linenos": "linenums", "lineno-start": "linenums",
                "emphasize-lines": "hl_lines", "caption": "title"}


def render_myst_code(self, tokens, idx, options, env, argument: str) -> str:
    """```` ```{code-block} python ```` with MyST's options (`:linenos:`,
    `:lineno-start: 5`, `:emphasize-lines: 2,3`, `:caption: x.py`) on its first lines."""
    token = tokens[idx]
    lines = token.content.split("\n")
    info = [argument.strip()]
    while lines and (match := MYST_OPTION.match(lines[0])):
        key, value = match.group(1), match.group(2).strip()
        lines.pop(0)
        if key not in MYST_OPTIONS:
            report(env, line_of(tokens, idx, env), f"unknown option ':{key}:' of "
                   f"{{code-block}} (options: {', '.join(MYST_OPTIONS)})")
            continue
        ours = MYST_OPTIONS[key]
        value = "1" if key == "linenos" and not value else value
        info.append(f'{ours}="{value.replace(chr(34), chr(39))}"')
    if lines and not lines[0].strip():
        lines.pop(0)
    copy = token.copy()
    copy.info, copy.content = " ".join(info), "\n".join(lines)
    return render_code(self, [*tokens[:idx], copy], idx, options, env)


def render_indented(self, tokens, idx, options, env) -> str:
    """A code block written by indenting: plain, as a block of unknown language."""
    body = escape(tokens[idx].content.removesuffix("\n"))
    return f'<pre class="highlight" tabindex="0"><code>{body}\n</code></pre>\n'


def render_code(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    line = line_of(tokens, idx, env)
    language, opts, rest = parse_info(token.info)
    for key in opts:
        if key not in OPTIONS:
            report(env, line, f"unknown code block option '{key}' (options: "
                   f"{', '.join(OPTIONS)})")
    if rest:
        report(env, line, f"code block info '{token.info.strip()}': after the language only "
               f"options key=\"value\" are understood ({', '.join(OPTIONS)}), not "
               f"'{' '.join(rest)}'")
    code = token.content.removesuffix("\n")
    lines = highlight(code, language)
    start = 1
    if "linenums" in opts:
        if re.fullmatch(r"[0-9]{1,9}", opts["linenums"]):   # not "²", which int() refuses
            start = int(opts["linenums"])
        else:
            report(env, line, f"linenums=\"{opts['linenums']}\" must be a line number")
    marked: set[int] = set()
    if "hl_lines" in opts:
        numbers = marked_lines(opts["hl_lines"], len(lines))
        if numbers is None:
            report(env, line, f"hl_lines=\"{opts['hl_lines']}\" must be line numbers or "
                   "ranges, e.g. \"2 4-6\"")
        else:
            marked, outside = numbers
            if outside is not None:
                shown = f"{outside:,}" if outside < 10**9 else "a number that large"
                report(env, line, f"hl_lines marks line {shown}, but the block has "
                       f"{plural(len(lines), 'line')}")
    classes = ["highlight"]
    style = ""
    if "linenums" in opts:
        classes.append("linenums")
        if start != 1:
            style = f' style="counter-reset:line {start - 1}"'
    if "linenums" in opts or marked:
        body = "".join(f'<span class="line{" hl" if n in marked else ""}">{text}\n</span>'
                       for n, text in enumerate(lines, start=1))
    else:
        body = "\n".join(lines) + "\n"
    lang = f' class="language-{escape(language)}"' if language else ""
    # tabindex: a block wider than the screen scrolls, and must scroll from the keyboard
    pre = (f'<pre class="{" ".join(classes)}"{style} tabindex="0"><code{lang}>{body}'
           "</code></pre>\n")
    if "title" not in opts:
        return pre
    return (f'<div class="code-block"><div class="code-title">{escape(opts["title"])}</div>\n'
            f'{pre}</div>\n')
