"""The benchmark's generators (bench/), run as the benchmark runs them, at a small size:
the synthetic project builds, every article and figure of it is its own, and the Hugo
site carries our figures' HTML. No timing is measured here (that is bench/run.py's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO, run_build


def generate(script: str, *args: object) -> None:
    result = subprocess.run([sys.executable, str(REPO / "bench" / script), *map(str, args)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_synthetic_project_builds_and_its_hugo_twin_holds_our_figures(tmp_path: Path):
    project, hugo = tmp_path / "project", tmp_path / "hugo"
    generate("make_synthetic.py", 2, project)
    result = run_build(project, "--clean")
    assert result.returncode == 0, result.stderr
    pages = {p.relative_to(project / "site").as_posix() for p in (project / "site").rglob("*.html")}
    articles = {page for page in pages if page.count("/") == 1 and not page.endswith("index.html")}
    assert len(articles) == 2 * 3
    first, second = (project / "site" / "en" / name for name in sorted(
        page.split("/")[1] for page in articles if page.startswith("en/")))
    assert first.read_text(encoding="utf-8") != second.read_text(encoding="utf-8")

    generate("make_hugo.py", project, hugo)
    markdown = sorted((hugo / "content").rglob("*.md"))
    assert markdown
    bodies = "".join(path.read_text(encoding="utf-8") for path in markdown)
    assert 'class="figure"' in bodies and "```{figure}" not in bodies
