"""Ids on a page are unique (the Nu Html Checker's rule, and what anchors rely on): a
section id may not take an id the page uses itself, and a figure is placed once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_build

ARTICLE = "content/ppo-long-horizon/en.md"


def failed(root: Path) -> str:
    result = run_build(root)
    assert result.returncode == 1 and result.stderr.startswith("Build failed"), result.stderr
    return result.stderr


def edit(root: Path, old: str, new: str) -> int:
    """Replace `old` with `new` in the English article; the line where it was."""
    path = root / ARTICLE
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


@pytest.mark.parametrize("taken", ["references", "toc-title", "main", "figure-ppo-update",
                                   "ref-gae", "cite-gae-1", "theme-toggle"])
def test_a_section_id_the_page_already_uses(project: Path, taken: str):
    line = edit(project, "{#grpo-dpo}", f"{{#{taken}}}")
    assert (f"{ARTICLE}:{line}: section id '{taken}' is already an id of the page"
            in failed(project))


def test_a_figure_placed_twice(project: Path):
    line = edit(project, "\n## What GRPO", "\n```{figure} ppo-update\n```\n\n## What GRPO") + 1
    assert f"{ARTICLE}:{line}: figure 'ppo-update' is placed twice" in failed(project)
