"""Shared fixtures: copies of the real project built in tmp_path, and a CLI runner."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

REPO = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("content", "figures", "templates")


def copy_project(target: Path) -> Path:
    """A copy of the real project's sources (content, figures, templates) in `target`."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        shutil.copytree(REPO / part, target / part)
    return target


def run_build(root: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `python build.py --root ROOT …` as a user would."""
    return subprocess.run([sys.executable, str(REPO / "build.py"), "--root", str(root), *args],
                          capture_output=True, text=True, timeout=300, check=False)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real content, built once for the session; returns its site/ folder."""
    root = copy_project(tmp_path_factory.mktemp("real") / "project")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"
