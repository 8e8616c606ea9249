"""Small fixture sites for images, files and links: the project's templates, no figures,
articles written here, and the test images of tests/data/images."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO, THEME, without_search

IMAGES = REPO / "tests" / "data" / "images"
LANGUAGES = ("zh", "en", "ja")
SITE = """default_language: en
source_language: zh
languages:
  - {code: zh, name: 中文, lang: zh-CN, title: 技术文章}
  - {code: en, name: English, lang: en, title: Technical articles}
  - {code: ja, name: 日本語, lang: ja, title: 技術記事}
"""
TITLES = {"zh": "图片与文件", "en": "Images and files", "ja": "画像とファイル"}


def make_site(root: Path) -> Path:
    """An empty project: configuration, templates, an empty dictionary."""
    (root / "content").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "content" / "site.yaml").write_text(SITE, encoding="utf-8")
    (root / "figures" / "figure-texts.json").write_text("{}\n", encoding="utf-8")
    shutil.copytree(THEME, root / "templates")
    return without_search(root)


def write_article(root: Path, slug: str, bodies: dict[str, str]) -> Path:
    """content/<slug>/<language>.md for each language given; the body follows a front
    matter of four lines and a blank line, so its first line is line 6 of the file."""
    folder = root / "content" / slug
    folder.mkdir(parents=True, exist_ok=True)
    for code, body in bodies.items():
        title = f"{TITLES.get(code, slug)} ({slug})"
        (folder / f"{code}.md").write_text(
            f'---\ntitle: "{title}"\ndescription: "{slug} in {code}"\n---\n\n{body}',
            encoding="utf-8")
    return folder


def add_image(folder: Path, name: str, target: str | None = None) -> Path:
    """Copy a test image into an article's folder (as `target`, if given)."""
    path = folder / (target or name)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(IMAGES / name, path)
    return path
