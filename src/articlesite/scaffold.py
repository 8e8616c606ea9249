"""`python build.py new SLUG`: start an article that builds at once.

It writes `content/SLUG/<code>.md` for every configured language: front matter with a
title and description to replace, and a first section whose id is the same in every
language. The texts are English placeholders: the author rewrites each language.
"""

from __future__ import annotations

from pathlib import Path

from .load.config import load_site
from .load.content import SLUG
from .problems import Problems, UsageError

SOURCE = """---
title: "{title}"
description: "{title}: replace this with one sentence for search engines and the index."
---

## Introduction {{#introduction}}

Write the article here ({name}). Every `##` section needs an id, the same in every
language.
"""


def new_article(root: Path, slug: str) -> list[Path]:
    """Create content/SLUG/ with one source per language; return the files written."""
    if not SLUG.match(slug):
        raise UsageError(f"'{slug}' is not a valid slug: use lower-case letters, digits and "
                         "hyphens, starting with a letter or digit (it becomes the URL)")
    problems = Problems(root)
    site = load_site(root, problems)
    if site is None or problems:
        raise UsageError("content/site.yaml has problems; fix them first:\n  "
                         + "\n  ".join(str(p) for p in problems))
    folder = root / "content" / slug
    if folder.exists():
        raise UsageError(f"{folder.relative_to(root)} already exists: choose another slug "
                         "or edit that article")
    folder.mkdir(parents=True)
    title = slug.replace("-", " ").capitalize()
    written = []
    for language in site.languages:
        path = folder / f"{language.code}.md"
        path.write_text(SOURCE.format(title=title, name=language.name), encoding="utf-8")
        written.append(path)
    return written
