"""A file that an article's languages all reference and that does not exist: one problem,
at the first file and line, naming the other files and every language."""

from __future__ import annotations

from conftest import failed_build
from filesite import make_site, write_article


def test_a_missing_file_is_reported_once_for_all_languages(tmp_path):
    root = make_site(tmp_path / "project")
    write_article(root, "notes", {
        "zh": "## 一 {#one}\n\n![图](figs/chart.png)\n",
        "en": "## One {#one}\n\nText.\n\n![Chart](figs/chart.png)\n",
        "ja": "## 一 {#one}\n\n![図](figs/chart.png)\n\n![別](figs/other.png)\n",
    })
    lines = [line for line in failed_build(root).splitlines() if "not found" in line]
    assert lines == [
        ("  content/notes/en.md:10: file 'figs/chart.png' not found: no "
        "content/notes/figs/chart.png (the same file in ja.md:8, zh.md:8) "
        "[languages en, ja, zh]"),
        ("  content/notes/ja.md:10: file 'figs/other.png' not found: no "
        "content/notes/figs/other.png (nor content/notes/figs/other.ja.png) [language 'ja']"),
    ]
