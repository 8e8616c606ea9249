"""`python build.py new SLUG`: start an article that builds at once.

It writes `content/SLUG/<code>.md` for every configured language: front matter with a
title and description to replace, and a first section whose id is the same in every
language. The texts are English placeholders: the author rewrites each language.
"""

from __future__ import annotations

from pathlib import Path

from .load.config import load_site
from .load.content import SLUG, reserved_slugs
from .problems import Problems, UsageError

SOURCE = """---
title: "{title}"
description: "{title}: replace this with one sentence for search engines and the index."
---

## Introduction {{#introduction}}

Write the article here ({name}). Every `##` section needs an id, the same in every
language.
"""


# What `new` writes for the author to replace: `check` reports any line still holding it.
PLACEHOLDERS = (": replace this with one sentence for search engines and the index.",
                "Write the article here (")


def placeholder_lines(text: str) -> list[int]:
    """The lines (1-based) of a source that still hold the placeholder text of `new`."""
    return [number for number, line in enumerate(text.split("\n"), start=1)
            if any(placeholder in line for placeholder in PLACEHOLDERS)]


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
    if slug in reserved_slugs(site.codes):
        raise UsageError(f"'{slug}' is the name of one of the site's own pages or languages "
                         f"({', '.join(sorted(reserved_slugs(site.codes)))}): choose "
                         "another slug")
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
