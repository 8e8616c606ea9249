"""Where a Japanese or Chinese figure text may break: between its phrases, never against
the line-breaking rules (kinsoku shori: JIS X 4051, W3C JLREQ and CLREQ).

The phrases are BudouX's (its Japanese and Chinese models ship in the wheel; the same
method as Chromium's `word-break: auto-phrase`), with one correction for the short texts
of figures: a phrase of a single ideograph or kana joins its neighbour (the next, or the
previous when it is the last or a Chinese particle such as 的), since a one-character
phrase in a short label is most often half a word the model cut ("偏 / 好").

A break is allowed at a phrase boundary only where neither side is a space (a space is a
break opportunity already), one side at least is a CJK character (a Latin word is never
cut), the next character may start a line and the previous may end one. The figure's
CSS (`word-break: keep-all; line-break: strict`) lets the browser break nowhere else but
at spaces; rich_text marks each allowed boundary with a zero-width space. measure.js holds the
same two sets of characters, to find a break against them (a test keeps them equal).
"""

from __future__ import annotations

import unicodedata
from functools import cache

# May not start a line: closing brackets and quotes, stops and commas, small kana, the
# prolonged sound mark, iteration marks, middle dots, ellipses, the wave dash.
NO_START = frozenset(
    ")]}）〕］｝〉》」』】〙〗〟’”｠»、。，．,.:;!?：；！？‼⁇⁈⁉・‥…〜～ー゠ゝゞヽヾ々〻"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
# May not end a line: opening brackets and quotes.
NO_END = frozenset("([{（〔［｛〈《「『【〘〖〝‘“｟«")
# Chinese particles that belong to the phrase before them.
_PARTICLES = frozenset("的地得了着过们")


def is_cjk(char: str) -> bool:
    """A wide character: ideographs, kana, hangul, full-width forms and punctuation."""
    return unicodedata.east_asian_width(char) in "WF"


def model_of(lang: str | None) -> str | None:
    """BudouX's model for an HTML language tag, or None (no phrase segmentation)."""
    tag = (lang or "").lower()
    if tag == "ja" or tag.startswith("ja-"):
        return "ja"
    if tag == "zh" or tag.startswith("zh-"):
        traditional = any(part in tag.split("-") for part in ("hant", "tw", "hk", "mo"))
        return "zh-hant" if traditional else "zh-hans"
    return None


@cache
def _parser(model: str):
    import budoux  # loaded when a Japanese or Chinese text is first set

    return {"ja": budoux.load_default_japanese_parser,
            "zh-hans": budoux.load_default_simplified_chinese_parser,
            "zh-hant": budoux.load_default_traditional_chinese_parser}[model]()


def phrases(text: str, lang: str | None) -> list[str]:
    """`text` in its phrases (the whole text as one when its language has no model)."""
    model = model_of(lang)
    if model is None or not text:
        return [text] if text else []
    found = _parser(model).parse(text)
    return _joined(found, model.startswith("zh"))


def _single(phrase: str) -> bool:
    core = phrase.strip()
    return len(core) == 1 and is_cjk(core) and core not in NO_START | NO_END


def _joined(found: list[str], chinese: bool) -> list[str]:
    out: list[str] = []
    pending = ""   # a single character waiting for the phrase after it
    for number, phrase in enumerate(found):
        last = number == len(found) - 1
        phrase, pending = pending + phrase, ""
        backward = chinese and phrase.strip() in _PARTICLES
        if _single(phrase) and out and (backward or last):
            out[-1] += phrase
        elif _single(phrase) and not last:
            pending = phrase
        else:
            out.append(phrase)
    return out


def may_break(before: str, after: str) -> bool:
    """May a line break between these two characters, at a phrase boundary?"""
    if before.isspace() or after.isspace():
        return False   # a space is a break opportunity of its own
    if not (is_cjk(before) or is_cjk(after)):
        return False   # inside a Latin word or number
    return after not in NO_START and before not in NO_END


def breaks(text: str, lang: str | None) -> list[int]:
    """The offsets in `text` where a line may break between two of its phrases."""
    out, position = [], 0
    for phrase in phrases(text, lang)[:-1]:
        position += len(phrase)
        if may_break(text[position - 1], text[position]):
            out.append(position)
    return out
