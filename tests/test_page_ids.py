"""Ids on a page are unique (the Nu Html Checker's rule, and what anchors rely on): a
section id may not take an id the page uses itself, and a figure is placed once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import edit, failed_build, line_of

ARTICLE = "content/ppo-long-horizon/en.md"


@pytest.mark.parametrize("taken", ["references", "toc-title", "main", "figure-ppo-update",
                                   "ref-gae", "cite-gae-1", "theme-toggle"])
def test_a_section_id_the_page_already_uses(project: Path, taken: str):
    line = line_of(project, ARTICLE, "{#grpo-dpo}")
    edit(project, ARTICLE, "{#grpo-dpo}", f"{{#{taken}}}")
    assert (f"{ARTICLE}:{line}: section id '{taken}' is already an id of the page"
            in failed_build(project))


def test_a_figure_placed_twice(project: Path):
    line = line_of(project, ARTICLE, "## What GRPO")
    edit(project, ARTICLE, "\n## What GRPO", "\n```{figure} ppo-update\n```\n\n## What GRPO")
    assert f"{ARTICLE}:{line}: figure 'ppo-update' is placed twice" in failed_build(project)
