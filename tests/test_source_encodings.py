"""Every source file may be saved with a UTF-8 byte order mark and with CRLF (or CR) line
endings, as Windows editors do: the site is the same as from plain UTF-8 with LF, and
problems are reported at the same lines."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import copy_project, failed_build, run_build, snapshot

SOURCES = ("content/**/*.md", "content/**/*.yaml", "figures/*.yaml", "figures/*.json",
           "templates/strings.yaml")


def resave(root: Path, bom: bool, newline: str) -> list[Path]:
    """Save every source again with a BOM and/or other line endings; the files changed."""
    changed = []
    for pattern in SOURCES:
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8").replace("\n", newline)
            path.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))
            changed.append(path)
    return changed


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory) -> dict[str, bytes]:
    root = copy_project(tmp_path_factory.mktemp("plain") / "project")
    assert run_build(root).returncode == 0
    return snapshot(root / "site")


@pytest.mark.parametrize(("bom", "newline"), [(True, "\n"), (False, "\r\n"), (True, "\r\n"),
                                              (False, "\r")])
def test_bom_and_line_endings_give_the_same_site(tmp_path: Path, plain_site, bom, newline):
    root = copy_project(tmp_path / "project")
    changed = resave(root, bom, newline)
    assert {p.name for p in changed} >= {"zh.md", "site.yaml", "references.yaml",
                                         "figure-texts.json", "strings.yaml"}
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    assert snapshot(root / "site") == plain_site


def test_a_problem_in_a_crlf_file_is_reported_at_its_line(tmp_path: Path):
    root = copy_project(tmp_path / "project")
    resave(root, True, "\r\n")
    path = root / "content/ppo-long-horizon/en.md"
    lines = path.read_bytes().split(b"\r\n")
    number = next(i for i, line in enumerate(lines, start=1) if b"{figure}" in line)
    lines[number - 1] = lines[number - 1].replace(b"{figure} ", b"{figure} no-such-")
    path.write_bytes(b"\r\n".join(lines))
    assert f"content/ppo-long-horizon/en.md:{number}: unknown figure" in failed_build(root)
