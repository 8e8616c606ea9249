"""Bold and strikethrough next to Chinese and Japanese text render as the author means,
and a `**` that still matches nothing is reported by `check` (file, line, language)."""

from __future__ import annotations

import itertools

import pytest
from bs4 import BeautifulSoup
from conftest import check, run_build
from filesite import make_site, write_article
from markdown_it import MarkdownIt

from articlesite.render.markdown import create_parser

# Sentences of tests/fixtures/hello-algo (number-encoding), as their authors wrote them,
# and the usual Japanese and Chinese ways of putting a quoted or bracketed term in bold.
SENTENCES = {
    "ja": [
        (("したがって、**負の0の2の補数は$0000 \\; 0000$**で、正の0と同じになり、"
         "曖昧さが解決されます。"), "負の0の2の補数は"),
        ("これは**「強調」**です。", "「強調」"),
        ("**この文を強調できますか（できます）？**残念ながら、ではありません。",
         "この文を強調できますか（できます）？"),
        (("実際、**これは浮動小数点数（`float`）で使用される異なる表現方法によるもの"
         "です**。"), "これは浮動小数点数（float）で使用される異なる表現方法によるものです"),
    ],
    "zh": [
        ("也就是说，**负零的补码为 $0000 \\; 0000$ ，与正零的补码相同**。这意味着…",
         "负零的补码为  ，与正零的补码相同"),
        ("换句话说，**基本数据类型提供了数据的“内容类型”**，而数据结构提供了数据的“组织方式”。",
         "基本数据类型提供了数据的“内容类型”"),
        ("我们称之为**“补码”**的形式，并~~（不）~~删除它。", "“补码”"),
        ("我可以强调**这个`code`**吗？", "这个code"),
    ],
}


@pytest.mark.parametrize("language, sentence, bold", [
    (language, sentence, bold) for language, pairs in SENTENCES.items()
    for sentence, bold in pairs])
def test_bold_next_to_cjk_text(language, sentence, bold):
    html = BeautifulSoup(create_parser().render(sentence), "html.parser")
    strong = html.find("strong")
    assert strong is not None, html
    text = "".join(s for s in strong.find_all(string=True)
                   if not any(p.name == "math" for p in s.parents))
    assert text == bold
    assert "**" not in html.get_text() and "~~" not in html.get_text()


def test_strikethrough_next_to_cjk_punctuation():
    html = create_parser().render("并~~（不）~~删除它")
    assert "<s>（不）</s>" in html


# Text without CJK characters: exactly CommonMark's emphasis, as markdown-it parses it.
PIECES = ["a", " ", ".", "(", ")", "_", "é", "1", "$", "`"]


@pytest.mark.parametrize("marker", ["*", "**", "_", "__", "~~"])
def test_text_without_cjk_parses_as_commonmark(marker):
    stock = MarkdownIt("commonmark").enable("strikethrough")
    ours = create_parser()
    differ = []
    for before, inside, after in itertools.product(PIECES, repeat=3):
        if "$" in before + inside + after or "`" in before + inside + after:
            continue  # math and code spans are other rules
        text = f"x{before}{marker}w{inside}{marker}{after}y"
        if stock.render(text) != ours.render(text):
            differ.append(text)
    assert differ == []


def test_unmatched_bold_is_reported_by_check(tmp_path, capsys):
    root = make_site(tmp_path / "project")
    write_article(root, "notes", {
        "zh": "## 一 {#one}\n\n补码是**正确的。\n",
        "en": "## One {#one}\n\nFine **bold** text.\n\nA first line\nand **this.**Not closed.\n",
        "ja": "## 一 {#one}\n\nこれは**「強調」**です。\n",
    })
    assert run_build(root).returncode == 0
    page = BeautifulSoup((root / "site/ja/notes.html").read_text(encoding="utf-8"),
                         "html.parser")
    assert page.find("article").find("strong").get_text() == "「強調」"
    _, report = check(root, capsys)
    found = sorted((f["file"], f["line"], f["language"]) for f in report["findings"]
                   if f["check"] == "markup" and "'**' would be shown as text" in f["message"])
    assert found == [("content/notes/en.md", 11, "en"), ("content/notes/zh.md", 8, "zh")]
