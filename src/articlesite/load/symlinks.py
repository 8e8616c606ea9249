"""Symbolic links among the sources: one that leads out of the project is refused.

Everything the build reads is under content/, figures/ and templates/. A link (to a file
or a folder) whose target lies inside the project is followed as usual; one whose target
lies outside it would publish, or build from, files the project does not hold, so the
build stops and names the link.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..problems import Problems

FOLDERS = ("content", "figures", "templates")


def check_symlinks(root: Path, problems: Problems) -> None:
    """Add a problem for every symbolic link under the source folders (or being one of
    them) that leads out of `root`, or nowhere it can be followed to."""
    root = root.resolve()
    followed: set[str] = set()
    for name in FOLDERS:
        top = root / name
        if top.is_symlink() and not _inside(str(top), root, problems, followed):
            continue
        if top.is_dir():
            _walk(str(top), root, problems, followed)


def _walk(folder: str, root: Path, problems: Problems, followed: set[str]) -> None:
    """Plain strings and scandir's cached types: a thousand articles take milliseconds."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return  # unreadable: the loaders report what they need
    for entry in entries:
        if entry.is_symlink():
            if _inside(entry.path, root, problems, followed) and entry.is_dir():
                _walk(entry.path, root, problems, followed)
        elif entry.is_dir(follow_symlinks=False):
            _walk(entry.path, root, problems, followed)


def _inside(link: str, root: Path, problems: Problems, followed: set[str]) -> bool:
    """Whether the link's target is inside the project and not yet followed (a folder
    reached again through a link is walked once: no loop); if outside, say so."""
    target = os.readlink(link)
    try:
        resolved = Path(link).resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop
        problems.add(link, None, f"symbolic link to '{target}', which cannot be followed "
                     "(it leads nowhere, or in a loop)")
        return False
    if not resolved.is_relative_to(root):
        problems.add(link, None, f"symbolic link to '{target}', outside the project "
                     f"({root}): the build reads only files inside it; copy the file or "
                     "folder into the project instead")
        return False
    if str(resolved) in followed:
        return False
    followed.add(str(resolved))
    return True
