"""Word counts and reading times: Chinese and Japanese counted in characters, not in
space-separated words; shown on the article and in its language's index."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_build, soup
from readers_site import readers_site


def write(root: Path, slug: str, language: str, body: str) -> None:
    folder = root / "content" / slug
    folder.mkdir(exist_ok=True)
    (folder / f"{language}.md").write_text(
        f"---\ntitle: T {slug}\ndescription: D\n---\n\n## S {{#s}}\n\n{body}\n",
        encoding="utf-8")


@pytest.mark.parametrize("language, body, shown", [
    # 10 characters, "PPO" one word, "S" the heading's word: code and math are not prose.
    ("zh", "一二三四五六七八九十 PPO。\n\n```python\nprint('not counted')\n```\n\n$x^2 + y$",
     ("12 字", "阅读约 1 分钟")),
    # 2400 characters at 357 a minute (and the word "S"): 6.7 minutes
    ("ja", "ひらがなとカタカナと漢字。" * 200, ("2,401 文字", "約 7 分で読めます")),
    # 2295 characters at 255 a minute, and one word: just over 9 minutes
    ("zh", "中文的句子没有空格。" * 255, ("2,296 字", "阅读约 10 分钟")),
    # 2281 words at 228 a minute: just over 10
    ("en", "Words are separated by spaces. " * 456, ("2,281 words", "11 min read")),
    # the heading's word alone: one word, in the singular
    ("en", "", ("1 word", "1 min read")),
], ids=["zh-short", "ja", "zh", "en", "en-one"])
def test_counts_and_reading_times(tmp_path: Path, language: str, body: str, shown):
    root = readers_site(tmp_path / "project")
    write(root, "counted", language, body)
    assert run_build(root).returncode == 0
    page = soup(root / "site" / language / "counted.html")
    assert (page.select_one(".dateline .words").get_text(),
            page.select_one(".dateline .reading-time").get_text()) == shown
    index = soup(root / "site" / language / "index.html")
    item = next(li for li in index.select(".articles > li")
                if li.select_one("a[href='counted.html']"))
    assert item.select_one(".words").get_text() == shown[0]
    assert item.select_one(".reading-time").get_text() == shown[1]
