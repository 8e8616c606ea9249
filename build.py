"""Build the site: `python build.py` (see README.md for the other commands)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "src"))

from articlesite.cli import run

if __name__ == "__main__":
    run(default_root=HERE)
