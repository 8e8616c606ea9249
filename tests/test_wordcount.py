"""Word counts of Markdown bodies: CJK characters one by one, other words by runs; code,
math, link targets and markup left out. The known counts below are those the pages have
shown since counting began (an article's count is its characters plus its words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from articlesite.load.content import FRONT_MATTER
from articlesite.load.wordcount import counts

ROOT = Path(__file__).resolve().parent.parent
MIGRATED = "tests/fixtures/migrated/content"


@pytest.mark.parametrize("path, known", [
    ("content/ppo-long-horizon/en.md", (0, 1491)),
    ("content/ppo-long-horizon/ja.md", (3282, 136)),
    ("content/ppo-long-horizon/zh.md", (2132, 125)),
    (f"{MIGRATED}/d2l-self-attention-positional-encoding/en.md", (0, 994)),
    (f"{MIGRATED}/d2l-self-attention-positional-encoding/ja.md", (2362, 61)),
    (f"{MIGRATED}/d2l-self-attention-positional-encoding/zh.md", (1733, 40)),
    (f"{MIGRATED}/react-ui-as-a-tree/en.md", (0, 1102)),
    (f"{MIGRATED}/react-ui-as-a-tree/ja.md", (3183, 74)),
    (f"{MIGRATED}/react-ui-as-a-tree/zh.md", (1777, 92)),
    (f"{MIGRATED}/vue-template-syntax/en.md", (0, 1374)),
    (f"{MIGRATED}/vue-template-syntax/ja.md", (3838, 80)),
    (f"{MIGRATED}/vue-template-syntax/zh.md", (2102, 107)),
])
def test_articles(path: str, known: tuple[int, int]):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert counts(text[FRONT_MATTER.match(text).end():]) == known


@pytest.mark.parametrize("markdown, known", [
    ("PPO算法的GAE", (3, 2)),                      # CJK characters split the words
    ("PPO-算法", (2, 1)),                          # a hyphen before CJK joins nothing
    ("it's a well-known X-ray’s", (0, 4)),         # apostrophes and hyphens join
    ("a--b 'c'", (0, 3)),
    ("3.14 and 1,000,000 and 2.", (0, 5)),         # numbers with points and commas
    ("snake_case a1b2", (0, 6)),                   # underscores and digits split
    ("ひらがなカタカナ・ー漢字한국어", (15, 0)),     # kana marks and Hangul are counted
    ("ｱｲｳ abc 𠀀𠀁", (5, 1)),                        # half-width kana, ideographs past BMP
    ("²½ x", (0, 2)),
    ("cost $5, $x$ or $$y$$ and \\$z$ or $ a$", (0, 7)),   # math is not prose
    ("a $$x$ b", (0, 3)),                          # no math opens with $$ unclosed
    ("`code` [text](http://x \"t\") {#id} [@cite] <b>bold</b> https://a.b/c <!-- c -->",
     (0, 2)),
    ("```\nfenced code\n```\nafter", (0, 1)),
    ("~~~~\nnot\n~~~\nstill\n~~~~\nout", (0, 1)),  # a fence closes with its own length
])
def test_snippets(markdown: str, known: tuple[int, int]):
    assert counts(markdown) == known
