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

import bisect
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

# What is not prose, each pattern linear in the text's length: where a match may fail at
# its end (an unclosed tag, a `{#` without `}`), what it spans stops at the next place
# another match could start, so that no text is scanned again from each start.
_NOT_PROSE = [
    re.compile(r"\$\$.*?\$\$", re.DOTALL),                                   # display math
    # inline math: a $ not after \ or $ (looked behind once a $ is found: searched fast)
    re.compile(r"\$(?<![\\$]\$)(?!\s)[^$\n]+?(?<![\s\\])\$"),
    re.compile(r"`[^`\n]+`"),                                                # inline code
    re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"),                          # link targets
    re.compile(r"\{#[^{}\n]*\}"),                                            # heading ids
    re.compile(r"\[@[^\][]*\]"),                                             # citations
    re.compile(r"</?[a-zA-Z][^<>\n]*>"),                                     # tags
    re.compile(r"https?://\S+"),                                             # bare URLs
]
_FENCE = re.compile(r"^(`{3,}|~{3,})", re.MULTILINE)
_CLOSING = re.compile(r"^(`{3,}|~{3,})[ \t]*$", re.MULTILINE)


def _without_fences(markdown: str) -> str:
    """The text without its fenced blocks (code, figures): from a line starting with
    three or more backticks or tildes to the next line of as many of them alone; an
    opening run longer than every closing line after it closes at a shorter one, as a
    backtracking pattern would find it, but each line is looked at once."""
    closings: dict[str, list[tuple[int, int]]] = {}   # run -> (start, end) of its lines
    for match in _CLOSING.finditer(markdown):
        closings.setdefault(match.group(1), []).append((match.start(), match.end()))
    if not closings:
        return markdown
    parts, position = [], 0
    for match in _FENCE.finditer(markdown):
        if match.start() < position:
            continue   # inside a block removed already
        end = _closing_end(match, closings)
        if end is not None:
            parts.append(markdown[position:match.start()])
            parts.append(" ")
            position = end
    parts.append(markdown[position:])
    return "".join(parts)


def _closing_end(opening: re.Match, closings: dict[str, list[tuple[int, int]]]) -> int | None:
    run = opening.group(1)
    for length in range(len(run), 2, -1):
        lines = closings.get(run[:length])
        if lines:
            at = bisect.bisect_left(lines, (opening.start() + length + 1, 0))
            if at < len(lines):
                return lines[at][1]
    return None


def _without_comments(markdown: str) -> str:
    """The text without `<!-- … -->`: an unclosed one stays, as it is."""
    parts, position = [], 0
    while (start := markdown.find("<!--", position)) >= 0:
        end = markdown.find("-->", start + 4)
        if end < 0:
            break
        parts.append(markdown[position:start] + " ")
        position = end + 3
    parts.append(markdown[position:])
    return "".join(parts)

# Characters (CJK) and words (anything else) a minute, by language code.
CHARACTERS_A_MINUTE = {"zh": 255, "ja": 357}
DEFAULT_CHARACTERS_A_MINUTE = 255
WORDS_A_MINUTE = 228


def prose(markdown: str) -> str:
    markdown = _without_fences(markdown)
    for pattern in _NOT_PROSE[:2]:   # math, then comments as before: `$` may be in either
        markdown = pattern.sub(" ", markdown)
    markdown = _without_comments(markdown)
    for pattern in _NOT_PROSE[2:]:
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
