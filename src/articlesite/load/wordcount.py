"""Word counts and reading times that are right for Chinese and Japanese.

Chinese and Japanese are not written with spaces between words: each CJK character (Han,
kana, Hangul) counts as one, and a run of other letters or digits counts as one word, so
a Chinese page with "PPO" in it counts its characters plus one. Code blocks, math, link
targets and markup are not prose and are not counted.

Reading speeds are the means measured for the IReST texts (Trauzettel-Klosinski and
Dietz, 2012, "Standardized assessment of reading performance"): English 228 words a
minute, Chinese 255 characters, Japanese 357 characters.
"""

from __future__ import annotations

import math
import re

_CJK = ("\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u3131-\u318f\u31a0-\u31ff"
        "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
        "\U00020000-\U0003134f")
# One pass counts both: a word (letters other than CJK joined by apostrophes or hyphens,
# or digits joined by points or commas) or a run of CJK characters, the group, whose
# length is their number. The letters' class names CJK first: most characters of a
# Chinese or Japanese text are told apart there, before their Unicode category is asked.
_LETTERS = rf"[^{_CJK}\W\d_]+"
_COUNTED = re.compile(rf"{_LETTERS}(?:['’\-]{_LETTERS})*|\d+(?:[.,]\d+)*|([{_CJK}]+)")

_NOT_PROSE = [
    re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL),  # code, figures
    re.compile(r"\$\$.*?\$\$", re.DOTALL),                                   # display math
    # inline math: a $ not after \ or $ (looked behind once a $ is found: searched fast)
    re.compile(r"\$(?<![\\$]\$)(?!\s)[^$\n]+?(?<![\s\\])\$"),
    re.compile(r"<!--.*?-->", re.DOTALL),                                    # comments
    re.compile(r"`[^`\n]+`"),                                                # inline code
    re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"),                          # link targets
    re.compile(r"\{#[^}]*\}"),                                               # heading ids
    re.compile(r"\[@[^\]]*\]"),                                              # citations
    re.compile(r"</?[a-zA-Z][^>\n]*>"),                                      # tags
    re.compile(r"https?://\S+"),                                             # bare URLs
]

# Characters (CJK) and words (anything else) a minute, by language code.
CHARACTERS_A_MINUTE = {"zh": 255, "ja": 357}
DEFAULT_CHARACTERS_A_MINUTE = 255
WORDS_A_MINUTE = 228


def prose(markdown: str) -> str:
    for pattern in _NOT_PROSE:
        markdown = pattern.sub(" ", markdown)
    return markdown


def counts(markdown: str) -> tuple[int, int]:
    """(CJK characters, other words) of a Markdown body's prose."""
    found = _COUNTED.findall(prose(markdown))   # CJK runs, and "" for each word
    return len("".join(found)), found.count("")


def word_count(markdown: str) -> int:
    """What the pages show as the count: CJK characters plus other words."""
    return sum(counts(markdown))


def reading_minutes(characters: int, words: int, language: str) -> int:
    """Whole minutes, at least one."""
    rate = CHARACTERS_A_MINUTE.get(language.split("-")[0], DEFAULT_CHARACTERS_A_MINUTE)
    return max(1, math.ceil(characters / rate + words / WORDS_A_MINUTE))
