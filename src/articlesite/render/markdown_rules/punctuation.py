"""Punctuation kept on the line of the inline formula it touches.

A browser may break a line on either side of an inline `<math>` (an atomic inline), even
before a full stop or a closing bracket: a Chinese or Japanese line could start with
"。" or "）", and "(" could end a line with its formula on the next. The punctuation
written right after a formula (`$x$。`, `$x$),`) and the opening brackets right before it
(`（$x$`) are therefore taken into the formula's token, and rendered with it in one
unbreakable span (markdown.py)."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

CLOSING = "、。，．：；？！）］｝〕〉》」』】〙〗〟’”｠…‥・,.;:!?)]}%"
OPENING = "（［｛〔〈《「『【〘〖〝‘“｟([{"
_AFTER = re.compile(f"^[{re.escape(CLOSING)}]+")
_BEFORE = re.compile(f"[{re.escape(OPENING)}]+$")


def use_punctuation(md: MarkdownIt) -> None:
    md.core.ruler.push("formula_punctuation", keep_with_formulas)


def keep_with_formulas(state: StateCore) -> None:
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        for index, child in enumerate(children):
            if child.type != "math_inline":
                continue
            if index + 1 < len(children) and children[index + 1].type == "text":
                following = children[index + 1]
                match = _AFTER.match(following.content)
                if match:
                    child.meta["after"] = match.group(0)
                    following.content = following.content[match.end():]
            if index > 0 and children[index - 1].type == "text":
                preceding = children[index - 1]
                match = _BEFORE.search(preceding.content)
                if match:
                    child.meta["before"] = match.group(0)
                    preceding.content = preceding.content[:match.start()]
        # A text left empty goes: the softbreak rule looks at the formula's neighbours.
        token.children = [child for child in children
                          if child.type != "text" or child.content]


def last_char(token) -> str:
    """The last character a token shows, for the rules that look at its neighbours."""
    if token.type == "math_inline":
        return token.meta.get("after", "")[-1:]
    return token.content[-1:] if token.type == "text" else ""


def first_char(token) -> str:
    if token.type == "math_inline":
        return token.meta.get("before", "")[:1]
    return token.content[:1] if token.type == "text" else ""
