"""`python build.py` when nothing changed since the last good build: it says so from that
build's record (unchanged.py) without building, and site/ is left untouched; any file
the build reads that changed, even to the same size with its modification time put
back (`touch -r`), and any file of site/ deleted, replaced or added by hand, and the
build does its full work, which puts site/ right. On the small fixture site."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import fixture_site, run_build, snapshot

import articlesite.build
from articlesite import unchanged
from articlesite.load import content, figures

ARTICLE = "content/loop/ja.md"


@pytest.fixture
def built(tmp_path: Path, monkeypatch) -> Path:
    """The fixture project, built once by the command line. Files count as changed long
    ago (RACY 0): each is trusted by its size, times and inode, not by its digest."""
    monkeypatch.setattr(unchanged, "RACY", 0.0)
    root = fixture_site("sources", tmp_path / "project").resolve()
    assert run_build(root).returncode == 0
    return root


def not_built(monkeypatch) -> None:
    """Any build from now on fails the test: the command line must answer alone."""
    def refuse(*args, **options):
        raise AssertionError("the build ran")
    monkeypatch.setattr(articlesite.build, "build", refuse)


def inodes(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("*")}


def rebuilt(root: Path) -> str:
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_nothing_changed_answers_from_the_record_and_leaves_site_alone(built, monkeypatch):
    first = run_build(built)
    before = inodes(built / "site")
    not_built(monkeypatch)
    again = run_build(built)
    assert again.returncode == 0
    # The same summary (but the seconds) and the same warnings and notes.
    seconds = re.compile(r"in [0-9.]+ s")
    assert seconds.sub("", again.stdout) == seconds.sub("", first.stdout)
    assert "(0 rendered" in again.stdout
    assert again.stderr == first.stderr
    assert inodes(built / "site") == before


def test_an_edit_of_the_same_size_with_its_time_put_back_is_seen(built, tmp_path):
    path = built / ARTICLE
    text = path.read_text("utf-8")
    assert "学習" in text
    stat = path.stat()
    with path.open("r+b") as file:   # in place: the same inode, the same size
        file.write(text.replace("学習", "学修", 1).encode("utf-8"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))   # as `touch -r` does
    assert (path.stat().st_size, path.stat().st_mtime_ns, path.stat().st_ino) == \
        (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    assert "(0 rendered" not in rebuilt(built)
    assert "学修" in (built / "site/ja/loop.html").read_text("utf-8")
    clean = tmp_path / "clean"
    articlesite.build.build(built, clean, clean=True)
    assert snapshot(built / "site") == snapshot(clean)


def test_a_file_trusted_by_its_digest_is_hashed_again(built, monkeypatch):
    """A file changed just before the scan (within RACY seconds) is recorded by its
    digest: the next build hashes it (a second edit in the same clock tick keeps its
    size and times)."""
    monkeypatch.setattr(unchanged, "RACY", 1e9)   # every file changed "just now"
    rebuilt(built)   # records digests
    record = unchanged.unchanged(built, built / "site", False)
    assert record is not None and record["inputs"]["content/loop/ja.md"][0] == "digest"
    monkeypatch.setattr(unchanged, "RACY", 0.0)   # long after: hashed, and the same
    assert unchanged.unchanged(built, built / "site", False) is not None
    path = built / ARTICLE
    path.write_text(path.read_text("utf-8").replace("学習", "学修", 1), "utf-8")
    assert unchanged.unchanged(built, built / "site", False) is None
    rebuilt(built)
    assert "学修" in (built / "site/ja/loop.html").read_text("utf-8")


@pytest.mark.parametrize("damage", ["deleted", "replaced", "added", "edited"])
def test_site_files_changed_by_hand_are_put_back(built, damage):
    site = built / "site"
    expected = snapshot(site)
    page = site / "ja" / "loop.html"
    if damage == "deleted":
        page.unlink()
    elif damage == "replaced":   # another file of the same size and time
        stat = page.stat()
        data = page.read_bytes()
        page.unlink()
        page.write_bytes(data[:-1] + b"!")
        os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    elif damage == "added":
        (site / "ja" / "stray.html").write_text("not built", "utf-8")
    else:   # through the hard link (the store's file too), same size
        with page.open("r+b") as file:
            file.write(b"X")
    rebuilt(built)
    assert snapshot(site) == expected


def test_a_new_file_a_deleted_file_or_another_setting_builds(built, monkeypatch):
    assert unchanged.unchanged(built, built / "site", False) is not None
    assert unchanged.unchanged(built, built / "site", True) is None   # --drafts
    assert unchanged.unchanged(built, built / "elsewhere", False) is None   # --out
    monkeypatch.setenv("ARTICLESITE_SEARCH_SHARD_PAGES", "3")
    assert unchanged.unchanged(built, built / "site", False) is None
    monkeypatch.delenv("ARTICLESITE_SEARCH_SHARD_PAGES")
    (built / "content" / "loop" / "notes.txt").write_text("a new file", "utf-8")
    assert unchanged.unchanged(built, built / "site", False) is None
    rebuilt(built)
    assert unchanged.unchanged(built, built / "site", False) is not None
    (built / "content" / "loop" / "notes.txt").unlink()
    assert unchanged.unchanged(built, built / "site", False) is None


def test_sources_unchanged_are_not_read_again_an_edited_one_is(built, monkeypatch):
    """A build that has work to do trusts each source unchanged by the same rule, with
    the digest the last build took of it (the memo has what it parsed): not read."""
    read = []
    for module in (content, figures):
        original = {"read_bytes": content.read_bytes, "read_source": figures.read_source}
        name = "read_bytes" if module is content else "read_source"
        monkeypatch.setattr(module, name, lambda path, problems, _f=original[name]:
                            read.append(path.name) or _f(path, problems))
    path = built / ARTICLE
    stat = path.stat()
    with path.open("r+b") as file:   # same size, mtime put back: only ctime tells
        file.write(path.read_bytes().replace("学習".encode(), "学修".encode(), 1))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    rebuilt(built)
    assert read == ["ja.md"]
    assert "学修" in (built / "site/ja/loop.html").read_text("utf-8")
