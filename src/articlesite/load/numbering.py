"""Section numbers: whether an article's `##` headings get the number the page adds
(on the heading and in the table of contents).

    numbering: false     in site.yaml: no numbers on any article; in an article's front
                         matter: none on that source (`numbering: true` there turns them
                         on again where site.yaml turned them off)

Unless its front matter says, a source whose every `##` heading starts with a number of
its own ("1. Data", "2.1 Loss", "一、数据", "第一章", "IV. Results") gets none added: the
build says so once per article, as a note.
"""

from __future__ import annotations

import re
from html import unescape

TAG = re.compile(r"<[^>]*>")
# The number an author starts a heading with: digits with dots ("2.1"), full-width digits,
# Chinese numerals and Roman numerals, each followed by its punctuation; or "第…章" and
# the like (Chinese, Japanese), "제1장" (Korean).
_DIGITS = r"[0-9０-９]+(?:[.．][0-9０-９]+)*"
_CJK = r"[一二三四五六七八九十百零〇两]+"
OWN_NUMBER = re.compile(
    rf"^\s*(?:"
    rf"{_DIGITS}[.．、:：)）]"                     # 1. / 1、/ 1) / 2.1.
    rf"|[0-9]+(?:\.[0-9]+)+\s"                    # 2.1 Title (not "2024 in review")
    rf"|[(（](?:{_DIGITS}|{_CJK})[)）]"            # (1) （一）
    rf"|{_CJK}\s*[、.．:：]"                       # 一、
    rf"|第\s*(?:{_DIGITS}|{_CJK})\s*[章节節部篇回讲講课課条條步]"   # 第一章 第2节
    rf"|제\s*{_DIGITS}\s*[장절부]"                  # 제1장
    rf"|[IVXLC]+[.)]\s"                            # IV. Results
    rf")")


def own_numbers(titles: list[str]) -> bool:
    """Whether every one of these `##` headings (their text, as a reader sees it) starts
    with a number of its own."""
    return bool(titles) and all(OWN_NUMBER.match(title) for title in titles)


def numbered(site_setting: bool | None, page_setting: bool | None,
             titles: list[str]) -> bool:
    """Whether a source's sections get the page's numbers: its front matter's
    `numbering` if it says, else none when its headings carry their own, else
    site.yaml's (default true)."""
    if page_setting is not None:
        return page_setting
    if site_setting is False:
        return False
    return not own_numbers(titles)


def heading_text(html: str) -> str:
    """A heading's rendered inline HTML as the text a reader sees."""
    return unescape(TAG.sub("", html))


def source_numbered(site_setting: bool, page_setting: bool | None,
                    headings: list[tuple]) -> bool:
    """`numbered` for a source, from its outline's headings as Outline.plain gives them
    (level, id, html, line)."""
    return numbered(site_setting, page_setting,
                    [heading_text(html) for level, _, html, _ in headings if level == 2])
