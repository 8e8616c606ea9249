"""Line breaks inside a Chinese or Japanese paragraph.

A paragraph wrapped over several source lines is one paragraph; between two words of a
Latin script the line break reads as a space, but Chinese and Japanese put no space
between words, and a browser shows the break as one ("对数级的， 每本"). A soft line break
between two characters that are both East Asian wide (CJK ideographs, kana, hangul,
full-width punctuation) is therefore left out, as Pandoc's east_asian_line_breaks does.
"""

from __future__ import annotations

import unicodedata

from .punctuation import first_char, last_char


def wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def render_softbreak(self, tokens, idx, options, env) -> str:
    before = last_char(tokens[idx - 1]) if idx > 0 else ""
    after = first_char(tokens[idx + 1]) if idx + 1 < len(tokens) else ""
    if before and after and wide(before) and wide(after):
        return ""
    return "\n"
