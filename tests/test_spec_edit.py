"""The spec writer (figures/spec_edit.py): only what changed changes, and the new text
reads back as the data intended."""

import difflib
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from articlesite.figures.spec_edit import (
    Append,
    Delete,
    FileChanged,
    Set,
    SpecEditError,
    Unset,
    apply_edits,
    edit_file,
    intended,
)

FIGURES = sorted((Path(__file__).resolve().parent.parent / "figures").glob("*.yaml"))
FLOW = """\
# a hand-written draft
title: t
caption: 'c'

nodes:
  - {id: a, text: a}   # the first
  - {id: b, text: "b", sub: s}

edges: [{from: a, to: b}]
"""
TEXTS = [path.read_text(encoding="utf-8") for path in FIGURES] + [FLOW]


def changed_lines(old: str, new: str) -> list[str]:
    return [line for line in difflib.unified_diff(old.splitlines(), new.splitlines(),
                                                   lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("path", FIGURES, ids=lambda p: p.stem)
def test_moving_one_box_changes_exactly_its_line(path):
    text = path.read_text(encoding="utf-8")
    node = yaml.safe_load(text)["nodes"][-1]
    x, y, w, h = node["box"]
    new = apply_edits(text, [Set("box", [x + 5, y + 10, w, h], "nodes", node["id"])])
    assert changed_lines(text, new) == [f"-    box: [{x}, {y}, {w}, {h}]",
                                        f"+    box: [{x + 5}, {y + 10}, {w}, {h}]"]


def test_each_kind_of_edit_keeps_comments_quotes_and_style():
    new = apply_edits(FLOW, [Set("box", [10, 20, 100, 40], "nodes", "a"),
                             Set("text", "b two", "nodes", "b"), Unset("sub", "nodes", "b"),
                             Append("edges", {"from": "b", "to": "a", "class": "feedback"}),
                             Append("labels", {"text": "l", "box": [1, 2, 3]}),
                             Set("width", 300.0), Set("height", 2.5)])
    assert new == """\
# a hand-written draft
title: t
caption: 'c'
width: 300
height: 2.5

nodes:
  - {id: a, box: [10, 20, 100, 40], text: a}   # the first
  - {id: b, text: "b two"}

edges: [{from: a, to: b}, {from: b, to: a, class: feedback}]
labels:
  - {text: l, box: [1, 2, 3]}
"""


def test_block_items_are_appended_and_deleted_as_lines():
    text = FIGURES[0].read_text(encoding="utf-8")
    new = apply_edits(text, [Delete("nodes", "rm"), Append("nodes", {"id": "n", "text": "t"})])
    assert changed_lines(text, new) == [
        "-  - id: rm", "-    box: [405, 40, 230, 82]", "-    text: rm", "-    sub: fixed",
        "+  - id: n", "+    text: t"]
    emptied = apply_edits(FLOW, [Delete("nodes", 0), Delete("nodes", "b")])
    assert yaml.safe_load(emptied)["nodes"] == [] and "nodes: []" in emptied


def test_an_element_whose_every_field_changes_is_written_anew_in_its_place():
    # An edge given by its points that now names its ends: `points` removed, `from` and
    # `to` set, in any order of the edits, its fields in their usual order (an edge that
    # keeps a field is edited field by field); an empty mapping given fields likewise.
    text = """\
a: 1
edges:
  - {points: [[1, 2], [3, 4]]}   # flow
  - points: [[1, 2], [3, 4]]     # block
  -
    points:
      - [1, 2]
      - [3, 4]
  - {points: [[1, 2], [3, 4]], class: cache}
  - {}
labels: [{text: x}]
"""
    edits = [edit for i in range(4) for edit in (
        Set("to", f"b{i}", "edges", i), Unset("points", "edges", i),
        Set("from", f"a{i}", "edges", i))]
    edits += [Set("to", "b4", "edges", 4), Set("from", "a4", "edges", 4)]
    new = apply_edits(text, edits)
    assert new == """\
a: 1
edges:
  - {from: a0, to: b0}   # flow
  - from: a1
    to: b1     # block
  -
    from: a2
    to: b2
  - {from: a3, to: b3, class: cache}
  - {from: a4, to: b4}
labels: [{text: x}]
"""
    assert apply_edits(text, [Unset("class", "edges", 3), Unset("points", "edges", 3),
                              Set("from", "a", "edges", 3), Set("to", "b", "edges", 3)]
                       ).splitlines()[-3] == "  - {from: a, to: b}"
    for emptied in ([Unset("text", "labels", 0)],
                    [Unset("points", "edges", 3), Unset("class", "edges", 3)],
                    [Set("from", "a", "edges", 0), Unset("points", "edges", 0),
                     Unset("from", "edges", 0)]):
        with pytest.raises(SpecEditError, match="would leave the element empty"):
            apply_edits(text, emptied)


def test_what_cannot_be_done_is_refused():
    for edits in ([Set("box", [1, 2, 3, 4], "nodes", "nobody")], [Delete("edges", 7)],
                  [Set("text", "x", "nodes", "a"), Delete("nodes", "a")],
                  [Set("width", float("nan"))], [Unset("text", "labels", 0)]):
        with pytest.raises(SpecEditError):
            apply_edits(FLOW if edits[0].section != "labels" else "a: 1\nlabels: [{text: x}]",
                        edits)


def test_the_file_is_written_only_if_unchanged_since_read(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text(FLOW, encoding="utf-8")
    with pytest.raises(FileChanged):
        edit_file(path, [Set("width", 5)], expected=FLOW + "\n")
    assert path.read_text(encoding="utf-8") == FLOW
    edit_file(path, [Set("width", 5)], expected=FLOW)
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["width"] == 5


words = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
numbers = st.integers(0, 2000) | st.floats(0.5, 2000, allow_nan=False).map(lambda v: round(v, 2))


@st.composite
def edits_of(draw, text):
    data = yaml.safe_load(text)
    nodes, edges = data.get("nodes") or [], data.get("edges") or []
    ids = [node["id"] for node in nodes]
    choices = [st.builds(Set, st.just("width"), numbers),
               st.builds(Append, st.sampled_from(["edges", "lifelines"]),
                         st.fixed_dictionaries({"from": words, "to": words}))]
    if ids:
        element = st.sampled_from(ids)
        choices += [st.builds(Set, st.just("box"), st.lists(numbers, min_size=4, max_size=4),
                              st.just("nodes"), element),
                    st.builds(Set, st.just("text"), words, st.just("nodes"), element),
                    st.builds(Set, st.just("class"), words, st.just("nodes"), element)]
    labels = data.get("labels") or []
    if labels:
        index = st.integers(0, len(labels) - 1)
        choices += [st.builds(Set, st.just("box"), st.lists(numbers, min_size=3, max_size=3),
                              st.just("labels"), index),
                    st.builds(Delete, st.just("labels"), index)]
    choices.append(st.builds(Append, st.just("nodes"),
                             st.fixed_dictionaries({"id": words, "text": words})))
    if edges:
        index = st.integers(0, len(edges) - 1)
        choices += [st.builds(Delete, st.just("edges"), index),
                    st.builds(Set, st.just("arrow"), st.booleans(), st.just("edges"), index)]
    edits = draw(st.lists(st.one_of(choices), max_size=6))
    doomed = {(edit.section, edit.element) for edit in edits if isinstance(edit, Delete)}
    seen, kept = set(), []
    for edit in edits:   # one edit per element's field, and none of a deleted element
        if isinstance(edit, Append):
            kept.append(edit)
        elif isinstance(edit, Delete) or edit.section is None or edit.section == "nodes" \
                or (edit.section, edit.element) not in doomed:
            target = (type(edit) is Delete, edit.section, edit.element,
                      getattr(edit, "field", None))
            if target not in seen:
                kept.append(edit)
                seen.add(target)
    return kept


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_edits_read_back_as_intended(data):
    text = data.draw(st.sampled_from(TEXTS))
    edits = data.draw(edits_of(text))
    new = apply_edits(text, edits)
    assert yaml.safe_load(new) == intended(yaml.safe_load(text), edits)
    if not edits:
        assert new == text
