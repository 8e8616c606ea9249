"""The command line takes --root and --clean before or after the command, and what it prints
reaches a pipe."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO


def test_options_after_the_command(project: Path, tmp_path: Path):
    out = tmp_path / "out"
    build = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "build", "--root", str(project), "--clean",
         "--out", str(out)], capture_output=True, text=True, timeout=300, check=False,
        env={name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"})
    assert build.returncode == 0, build.stderr
    assert (out / "ja" / "ppo-long-horizon.html").is_file()
    # What is printed to a pipe (block-buffered here) reaches it, though the process ends
    # at once (cli.run).
    assert f"into {out} in " in build.stdout
    check = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "check", "--root", str(project), "--no-browser"],
        capture_output=True, text=True, timeout=300, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "Clean: no problems" in check.stdout
