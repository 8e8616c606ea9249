"""Renaming a node's dictionary keys for the figure editor (figures/rename.py): one line
changes per key, and a key another figure uses, or a name already taken, is refused."""

from __future__ import annotations

import json

from articlesite.figures.rename import problems_of, rename_keys, used_elsewhere

TEXTS = """{
  "steps-title": {"en": "Steps", "ja": "手順"},
  "steps-node-1": {
    "en": "Reward \\u2192 value",
    "ja": "報酬"
  },
  "shared": {"en": "Shared", "ja": "共有"}
}
"""


def test_a_renamed_key_changes_its_own_line_only():
    new = rename_keys(TEXTS, {"steps-node-1": "steps-reward"})
    changed = [(a, b) for a, b in zip(TEXTS.splitlines(), new.splitlines()) if a != b]
    assert changed == [('  "steps-node-1": {', '  "steps-reward": {')]
    assert json.loads(new)["steps-reward"] == json.loads(TEXTS)["steps-node-1"]
    assert rename_keys(TEXTS, {"absent": "other"}) == TEXTS


def test_a_key_of_another_figure_or_a_taken_name_is_refused(tmp_path):
    figures = tmp_path / "figures"
    figures.mkdir()
    (figures / "steps.yaml").write_text("title: steps-title\nnodes:\n"
                                        "  - {id: node-1, text: steps-node-1, sub: shared}\n",
                                        encoding="utf-8")
    (figures / "other.yaml").write_text("title: t\ncaption: c\nlabels:\n"
                                        "  - {text: shared, box: [1, 2, 3]}\n",
                                        encoding="utf-8")
    elsewhere = used_elsewhere(tmp_path, "steps")
    assert elsewhere == {"t", "c", "shared"}
    entries, mine = set(json.loads(TEXTS)), {"steps-title", "steps-node-1", "shared"}
    assert problems_of({"steps-node-1": "steps-reward"}, entries, mine, elsewhere) == []
    assert problems_of({"shared": "steps-shared"}, entries, mine, elsewhere) == [
        "the key 'shared' is used by another figure: it keeps its name"]
    assert problems_of({"steps-node-1": "steps-title"}, entries, mine, elsewhere) == [
        "the key 'steps-title' is taken in the dictionary"]
    assert problems_of({"t": "x"}, entries, mine, elsewhere) == [
        "'t' is not a key of this figure in the dictionary"]
    assert problems_of(["steps-node-1"], entries, mine, elsewhere) != []
    assert problems_of({"steps-node-1": "Bad Key"}, entries, mine, elsewhere) == [
        "'Bad Key': a key is lower-case letters, digits and hyphens"]
