"""A build killed at any moment (SIGKILL: no cleanup runs) leaves site/ whole: the
previous site or the new one, never a mix, never missing."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, copy_project, run_build

COPIES = 6   # articles: 3 languages each, about 30 pages per build (forked workers)
KILLS = 12


def fingerprint(site: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        digest.update(path.relative_to(site).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def start_build(root: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(REPO / "build.py"), "--root", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until_writing(root: Path, build: subprocess.Popen) -> None:
    """Until the build has started writing its fresh folder beside site/ (or has ended)."""
    while build.poll() is None and not any(root.glob(f".site.new-{build.pid}-*")):
        time.sleep(0.001)


def test_killed_builds_leave_the_old_or_the_new_site(tmp_path: Path):
    root = copy_project(tmp_path / "project")
    for n in range(COPIES):
        shutil.copytree(root / "content/ppo-long-horizon", root / f"content/copy-{n}")
    texts = root / "figures/figure-texts.json"
    versions = [texts.read_text(encoding="utf-8")]
    changed = json.loads(versions[0])
    changed["sft"]["en"] = "Supervised fine-tuning, changed"
    versions.append(json.dumps(changed, ensure_ascii=False, indent=2))

    sites = []
    for version in versions:
        texts.write_text(version, encoding="utf-8")
        assert run_build(root).returncode == 0
        sites.append(fingerprint(root / "site"))
    assert sites[0] != sites[1]

    # How long a build runs, and how long its writing and swapping take.
    build, started = start_build(root), time.monotonic()
    wait_until_writing(root, build)
    writing = time.monotonic()
    build.wait()
    whole, write = time.monotonic() - started, time.monotonic() - writing

    chance = random.Random(4)
    current = 0  # the calibration build wrote versions[0] again
    for kill in range(KILLS):
        texts.write_text(versions[1 - current], encoding="utf-8")  # build the other site
        build = start_build(root)
        if kill % 2:  # every other kill while pages are written and swapped in
            wait_until_writing(root, build)
            time.sleep(chance.uniform(0, 1.2 * write))
        else:
            time.sleep(chance.uniform(0, whole))
        build.send_signal(signal.SIGKILL)
        build.wait()
        found = fingerprint(root / "site")
        assert found in sites, "site/ is neither the old nor the new site"
        current = sites.index(found)

    # The next build completes and clears what the killed ones left beside site/.
    assert run_build(root).returncode == 0
    assert [p.name for p in root.iterdir() if p.name.startswith(".site.")] == []


def test_the_workers_of_a_killed_build_end(tmp_path: Path):
    """A build killed outright while its forked workers render: they end too (they were
    left waiting for work forever)."""
    if not Path("/proc").is_dir():
        pytest.skip("reads the process table from /proc (Linux)")
    root = copy_project(tmp_path / "project")
    for n in range(COPIES):
        shutil.copytree(root / "content/ppo-long-horizon", root / f"content/copy-{n}")
    build = start_build(root)
    workers: list[int] = []
    while build.poll() is None and not workers:
        workers = children(build.pid)
    assert workers, "the build ended before its workers were seen"
    build.send_signal(signal.SIGKILL)
    build.wait()
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


def children(pid: int) -> list[int]:
    """A process's children (Linux: /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:   # the process or the thread ended meanwhile
            continue
    return found
