"""Symbolic links among the sources: one that leads out of the project is refused.

Everything the build reads is under content/, figures/ and templates/. A link (to a file
or a folder) whose target lies inside the project is followed as usual; one whose target
lies outside it would publish, or build from, files the project does not hold, so the
build stops and names the link.
"""

from __future__ import annotations

import os
from pathlib import Path

from .problems import Problems

FOLDERS = ("content", "figures", "templates")


def check_symlinks(root: Path, problems: Problems) -> None:
    """Add a problem for every symbolic link under the source folders (or being one of
    them) that leads out of `root`, or nowhere it can be followed to."""
    root = root.resolve()
    seen: set[str] = set()
    for name in FOLDERS:
        top = root / name
        if top.is_symlink() and not _inside(top, root, problems):
            continue
        if top.is_dir():
            _walk(top, root, problems, seen)


def _walk(folder: Path, root: Path, problems: Problems, seen: set[str]) -> None:
    real = os.path.realpath(folder)
    if real in seen:  # a folder reached again through a link: once is enough
        return
    seen.add(real)
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return  # unreadable: the loaders report what they need
    for entry in entries:
        path = Path(entry.path)
        if entry.is_symlink() and not _inside(path, root, problems):
            continue
        if entry.is_dir():  # follows a link that stays inside the project
            _walk(path, root, problems, seen)


def _inside(link: Path, root: Path, problems: Problems) -> bool:
    """Whether the link's target is inside the project; if not, say so."""
    target = os.readlink(link)
    try:
        resolved = link.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop
        problems.add(link, None, f"symbolic link to '{target}', which cannot be followed "
                     "(it leads nowhere, or in a loop)")
        return False
    if not resolved.is_relative_to(root):
        problems.add(link, None, f"symbolic link to '{target}', outside the project "
                     f"({root}): the build reads only files inside it; copy the file or "
                     "folder into the project instead")
        return False
    return True
