"""`python build.py new SLUG`: an article in every language that builds at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_build, soup


def test_new_article_builds_at_once_in_every_language(project: Path):
    result = run_build(project, "new", "reward-hacking")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Created content/reward-hacking/{code}.md" for code in ("zh", "en", "ja")]
    front = (project / "content/reward-hacking/ja.md").read_text(encoding="utf-8")
    assert front.startswith('---\ntitle: "Reward hacking"\ndescription: ')
    assert run_build(project).returncode == 0
    for code in ("zh", "en", "ja"):
        page = soup(project / f"site/{code}/reward-hacking.html")
        assert page.find("h2", id="introduction") is not None
    # It builds, but `check` says the placeholder text is still to be replaced.
    check = run_build(project, "check", "--no-browser")
    assert check.returncode == 1, check.stdout
    for code in ("zh", "en", "ja"):
        for line in (3, 8):
            assert (f"content/reward-hacking/{code}.md:{line}: the placeholder text of "
                    "`python build.py new` is still there") in check.stdout
    assert check.stdout.count("placeholder text") == 6


@pytest.mark.parametrize("slug, message", [
    ("Reward Hacking", "'Reward Hacking' is not a valid slug"),
    ("../outside", "'../outside' is not a valid slug"),
    ("ppo-long-horizon", "content/ppo-long-horizon already exists"),
])
def test_bad_slug_or_existing_folder_is_refused(project: Path, slug: str, message: str):
    before = sorted(p.name for p in (project / "content").iterdir())
    result = run_build(project, "new", slug)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in (project / "content").iterdir()) == before
