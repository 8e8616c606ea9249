"""Emphasis (`**…**`, `*…*`) and `~~strikethrough~~` next to Chinese and Japanese text.

CommonMark decides whether a `**` may open or close by the characters around it: a `**`
that follows punctuation closes only if a space or punctuation comes after it. Chinese
and Japanese put no space between words, so `**「強調」**です` or `**补码是$0$**，` stays
literal text in CommonMark. The rules here are those of the "CJK-friendly amendments"
proposed for CommonMark (github.com/tats-u/markdown-cjk-friendly, specification.md),
written for markdown-it-py: punctuation that is itself Chinese, Japanese or Korean (`」`,
`。`, `，`) counts as a letter, and a CJK character on the outside of a `**` counts as the
space CommonMark asks for. Text without CJK characters parses exactly as in CommonMark.

The library's own emphasis and strikethrough rules are used, with this flanking test in
place of `StateInline.scanDelims`. A `**` or `~~` that still matches nothing is kept as
an `unmatched_markup` entry in the meta of its paragraph's inline token (with its line
in the paragraph), so that literal.py reports it: it would reach the reader as text.
"""

from __future__ import annotations

import functools
import unicodedata

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import emphasis, strikethrough
from markdown_it.rules_inline.state_inline import Scanned, StateInline

TEXT_SELECTORS = range(0xFE00, 0xFE0F)        # variation selectors, not the emoji one
IDEOGRAPHIC_SELECTORS = range(0xE0100, 0xE01F0)
HANGUL = (range(0x1100, 0x1200), range(0x3130, 0x3190), range(0xA960, 0xA980),
          range(0xAC00, 0xD7B0), range(0xD7B0, 0xD800), range(0xFFA0, 0xFFDD))


@functools.lru_cache(maxsize=4096)
def is_cjk(char: str) -> bool:
    """A Chinese, Japanese or Korean character, punctuation included: East Asian Width
    wide, full-width or half-width (not an emoji shown as a picture), or Hangul. Emoji
    are told by being symbols (`So`) outside the CJK blocks, which holds for every wide
    emoji of Unicode 15."""
    code = ord(char)
    if any(code in block for block in HANGUL):
        return True
    if unicodedata.east_asian_width(char) not in ("W", "F", "H"):
        return False
    return not (unicodedata.category(char) == "So" and (code < 0x2E80 or code >= 0x1F000))


def is_punctuation(char: str) -> bool:
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)


def scan_delimiters(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """StateInline.scanDelims with the CJK-friendly flanking rules."""
    src, end = state.src, state.posMax
    marker = src[start]
    pos = start
    while pos < end and src[pos] == marker:
        pos += 1
    before = src[start - 1] if start > 0 else " "
    after = src[pos] if pos < end else " "
    # A variation selector belongs to the character before it: `X︀**` is read as `X**`.
    base = before
    if ord(before) in TEXT_SELECTORS and start > 1:
        base = src[start - 2]
    ideographic_selector = ord(before) in IDEOGRAPHIC_SELECTORS

    before_space = isWhiteSpace(ord(before))
    after_space = isWhiteSpace(ord(after))
    before_punct = is_punctuation(base)
    after_punct = is_punctuation(after)
    # Punctuation written full-width by a variation selector (`“` + U+FE01) is CJK.
    fullwidth_form = base != before and ord(before) == 0xFE01 \
        and unicodedata.east_asian_width(base) == "A"
    before_cjk = is_cjk(base) or fullwidth_form
    after_cjk = is_cjk(after)
    before_other_punct = before_punct and not before_cjk
    after_other_punct = after_punct and not after_cjk

    left_flanking = not after_space and (
        not after_other_punct
        or before_space or before_other_punct or before_cjk or ideographic_selector)
    right_flanking = not before_space and (
        not before_other_punct or after_space or after_other_punct or after_cjk)

    can_open = left_flanking and (can_split_word or not right_flanking or before_punct)
    can_close = right_flanking and (can_split_word or not left_flanking or after_punct)
    return Scanned(can_open, can_close, pos - start)


def _with_cjk_flanking(tokenize):
    """The library's tokenizer, asking this module whether a delimiter run opens or
    closes (the state is the one of this inline parse only)."""
    def rule(state: StateInline, silent: bool) -> bool:
        if silent:
            return False
        if "scanDelims" not in vars(state):
            state.scanDelims = functools.partial(scan_delimiters, state)  # type: ignore
        return tokenize(state, silent)
    return rule


def _delimiter_lists(state: StateInline):
    yield state.delimiters
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            yield meta["delimiters"]


def mark_unmatched(state: StateInline) -> None:
    """After emphasis and strikethrough have paired their delimiters: a `**` or `~~` left
    over becomes a `text_special` token (the core rule `text_join` joins it back to its
    text) that remembers its line in the paragraph, for `note_unmatched`."""
    tokens = state.tokens
    left = sorted({delimiter.token for delimiters in _delimiter_lists(state)
                   for delimiter in delimiters
                   if tokens[delimiter.token].type == "text"
                   and tokens[delimiter.token].content[:1] in ("*", "~")})
    for index in _runs_of_two(left, tokens):
        token = tokens[index]
        line = sum(t.type in ("softbreak", "hardbreak") for t in tokens[:index])
        token.type = "text_special"
        token.meta = {"unmatched_markup": line}


def _runs_of_two(indexes: list[int], tokens) -> list[int]:
    """The first token of each run of unmatched delimiter tokens that shows two or more
    marker characters (a lone `*` is often meant as text: "Chapter 3 *")."""
    firsts, run, shown = [], [], 0
    for index in indexes + [None]:
        if run and (index is None or index != run[-1] + 1
                    or tokens[index].content[0] != tokens[run[0]].content[0]):
            if shown >= 2:
                firsts.append(run[0])
            run, shown = [], 0
        if index is not None:
            run.append(index)
            shown += len(tokens[index].content)
    return firsts


def note_unmatched(state) -> None:
    """Core rule, before `text_join`: each paragraph's inline token lists the lines (in
    the paragraph) and markers of its unmatched `**` and `~~`."""
    for token in state.tokens:
        if token.type != "inline":
            continue
        for child in _with_alt_text(token.children or []):
            if child.type == "text_special" and child.meta \
                    and "unmatched_markup" in child.meta:
                token.meta.setdefault("unmatched_markup", []).append(
                    (child.meta["unmatched_markup"], child.content[0] * 2))


def _with_alt_text(children):
    for child in children:
        yield child
        if child.children:
            yield from child.children


def use_cjk_emphasis(md: MarkdownIt) -> None:
    md.inline.ruler.at("emphasis", _with_cjk_flanking(emphasis.tokenize))
    md.inline.ruler.at("strikethrough", _with_cjk_flanking(strikethrough.tokenize))
    md.inline.ruler2.before("fragments_join", "unmatched_markup", mark_unmatched)
    md.core.ruler.before("text_join", "unmatched_markup", note_unmatched)
