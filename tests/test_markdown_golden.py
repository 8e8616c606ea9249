"""Golden files: each tests/golden/markdown/NAME.md rendered (as an English page body)
must give NAME.html exactly, without a problem.

After a deliberate change of the output, regenerate the expected files, then review
every difference before committing it:

    ARTICLESITE_UPDATE_GOLDEN=1 python -m pytest tests/test_markdown_golden.py
    git diff tests/golden/
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from conftest import THEME

from articlesite.render import markdown

GOLDEN = Path(__file__).parent / "golden" / "markdown"
CASES = sorted(path.stem for path in GOLDEN.glob("*.md"))
STRINGS = yaml.safe_load((THEME / "strings.yaml").read_text(encoding="utf-8"))


def render(source: str) -> tuple[str, list]:
    problems: list = []
    context = markdown.RenderContext(
        figure=lambda figure_id, line: f"<figure>{figure_id}</figure>",
        citation_number=lambda ref: None,
        problem=lambda line, message: problems.append((line, message)),
        ui=lambda key: STRINGS[key]["en"])
    return markdown.render(markdown.parse(source), 1, context), problems


def test_there_are_golden_files():
    assert len(CASES) >= 8


@pytest.mark.parametrize("name", CASES)
def test_golden_html(name: str):
    html, problems = render((GOLDEN / f"{name}.md").read_text(encoding="utf-8"))
    assert problems == []
    expected = GOLDEN / f"{name}.html"
    if os.environ.get("ARTICLESITE_UPDATE_GOLDEN"):
        expected.write_text(html, encoding="utf-8")
    assert html == expected.read_text(encoding="utf-8")
