"""The dated fixture site (tests/fixtures/readers) copied into a test's folder, with the
project's own templates: what the front-matter, feed, sitemap and head tests build."""

from __future__ import annotations

from pathlib import Path

import yaml
from conftest import fixture_site


def readers_site(target: Path, *, search: bool = False) -> Path:
    """The fixture site, without the search index unless `search` (conftest.copy_project
    says why)."""
    return fixture_site("readers", target, search=search)


def front_matter(root: Path, slug: str, language: str) -> dict:
    """An article source's front matter, as the author wrote it."""
    text = (root / "content" / slug / f"{language}.md").read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1])
