"""The dated fixture site (tests/fixtures/readers) copied into a test's folder, with the
project's own templates: what the front-matter, feed, sitemap and head tests build."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "readers"


def readers_site(target: Path) -> Path:
    shutil.copytree(FIXTURE / "content", target / "content")
    shutil.copytree(FIXTURE / "figures", target / "figures")
    shutil.copytree(REPO / "templates", target / "templates")
    return target


def front_matter(root: Path, slug: str, language: str) -> dict:
    """An article source's front matter, as the author wrote it."""
    text = (root / "content" / slug / f"{language}.md").read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])
