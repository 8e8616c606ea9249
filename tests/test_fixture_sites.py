"""The small fixture sites, built as a user would: tests/fixtures/sources builds and checks
clean; tests/fixtures/sources-invalid (the same site with one mistake in each kind of
source file) fails with every problem listed at once, each with its file, line, key and
language, and leaves the last good site/ as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, failed_build, fixture_site, run_build, snapshot, soup


@pytest.fixture(scope="module")
def valid(tmp_path_factory) -> Path:
    root = fixture_site("sources", tmp_path_factory.mktemp("valid") / "project")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root


def test_the_valid_site_builds_every_language(valid: Path):
    site = valid / "site"
    for code, lang, heading, texts in (("en", "en", "Collect", ("Act", "Learn")),
                                       ("zh", "zh-CN", "收集", ("行动", "学习")),
                                       ("ja", "ja", "収集", ("行動", "学習"))):
        page = soup(site / code / "loop.html")
        assert page.html["lang"] == lang
        assert page.select_one("h2#collect").get_text(" ", strip=True).endswith(heading)
        figure = page.select_one("figure#figure-steps")
        assert [node.get_text(" ", strip=True) for node in figure.select(".node")] == list(texts)
        assert len(page.select(".references li")) == 2


def test_the_valid_site_checks_clean(valid: Path):
    result = run_build(valid, "check", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Clean: no problems." in result.stdout


def test_the_invalid_site_lists_every_problem_and_keeps_the_last_good_site(tmp_path: Path):
    root = fixture_site("sources", tmp_path / "project")
    assert run_build(root).returncode == 0
    before = snapshot(root / "site")
    # The invalid site's sources over the valid ones, as an author's bad edits would be.
    for part in ("content", "figures"):
        shutil.rmtree(root / part)
        shutil.copytree(FIXTURES / "sources-invalid" / part, root / part)
    reported = [line.strip() for line in failed_build(root).splitlines()[1:]]
    expected = (FIXTURES / "sources-invalid" / "expected-problems.txt").read_text(encoding="utf-8")
    assert reported == expected.splitlines()
    assert snapshot(root / "site") == before
