"""The cache's store (cache.Store): files named after their digest."""

from __future__ import annotations

import os
from pathlib import Path

from articlesite.cache import Store


def test_a_file_stored_again_is_left_as_it_is(tmp_path: Path):
    store = Store(tmp_path)
    first = store.put("<p>page</p>")
    before = os.stat(store.path(first.blob))
    again = store.put("<p>page</p>")
    after = os.stat(store.path(again.blob))
    assert again == first
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert store.read(first.blob) == "<p>page</p>"
    assert [path.name for path in tmp_path.iterdir()] == [f"{first.blob}.html"]


def test_a_stored_file_altered_in_place_is_written_again(tmp_path: Path):
    """Same size, other bytes (edited through its hard link in site/): put restores it."""
    store = Store(tmp_path)
    stored = store.put_bytes(b"<p>page</p>")
    store.path(stored.blob).write_bytes(b"<p>pagE</p>")
    again = store.put_bytes(b"<p>page</p>")
    assert store.path(again.blob).read_bytes() == b"<p>page</p>"
    assert store.read(again.blob) == "<p>page</p>"
