"""YAML sources are read into the same values PyYAML's safe_load gives, with the line of
every key kept, and every YAML mistake reported as before."""

from __future__ import annotations

import datetime as dt
import math
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from articlesite.load.sourcefiles import parse_yaml
from articlesite.problems import Problems

TRICKY = [
    "a: 0x1f\nb: 017\nc: 1:30\nd: 1_000\ne: -0\nf: +12\n",
    "a: .inf\nb: -.Inf\nc: .nan\nd: 1.5e3\ne: 1:30.5\nf: 6.8523015e+5\n",
    "a: yes\nb: No\nc: on\nd: OFF\ne: ~\nf: null\ng: ''\nh: 'yes'\n",
    "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2024-05-01 10:00:00\n",
    "base: &b {x: 1, y: 2}\nmerged:\n  <<: *b\n  y: 3\nlist: [*b, *b]\n",
    "a: &l [1, 2]\nb: *l\nmany:\n  <<: [{p: 1}, {q: 2}]\n",
    "? [1, 2]\n",
    "a: !!binary aGVsbG8=\nb: !!set {x, y}\nc: !!omap [{k: v}]\nd: !!str 12\n",
    "a: !!python/object:os.system x\n",
    "- 1\n- [2, {3: 4, true: false}]\n",
    "x: '\\u00e9'\ny: \"\\u00e9\\t\"\nz: |\n  block\n  text\n",
    "a: 2001-13-01\n",
    "a: [1, 2\n",
    "--- 1\n--- 2\n",
]


def old_load(text: str):
    """What the loaders read before: PyYAML's own constructor."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def ours(text: str):
    problems = Problems(Path("."))
    return parse_yaml(text, Path("x.yaml"), problems), [p.message for p in problems]


@pytest.mark.parametrize("text", TRICKY)
def test_values_and_errors_are_pyyaml_safe_loads(text: str):
    value, messages = ours(text)
    try:
        expected = old_load(text)
    except (yaml.YAMLError, ValueError):
        assert value is None and messages and messages[0].startswith("invalid YAML")
        return
    assert not messages and same(value, expected), (value, expected)


@settings(max_examples=60, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
    | st.dates() | st.datetimes(timezones=st.just(dt.UTC)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=6) | st.integers(), inner, max_size=4), max_leaves=12))
def test_random_documents_read_as_pyyaml_reads_them(data):
    text = yaml.safe_dump({"root": data}, allow_unicode=True)
    value, messages = ours(text)
    assert not messages and same(value, old_load(text))


@pytest.mark.parametrize("path", sorted((REPO / "figures").glob("*.yaml")) + [
    REPO / "content/site.yaml", REPO / "content/ppo-long-horizon/references.yaml"],
    ids=lambda p: p.name)
def test_real_sources_read_the_same(path: Path):
    text = path.read_text(encoding="utf-8")
    assert same(ours(text)[0], old_load(text))


def test_every_key_keeps_its_line():
    value, _ = ours("a: 1\nnodes:\n  - id: x\n    box: [1, 2]\n\n  - id: y\n")
    assert value.key_lines == {"a": 1, "nodes": 2}
    assert [(n.line, n.key_lines) for n in value["nodes"]] == [
        (3, {"id": 3, "box": 4}), (6, {"id": 6})]


@pytest.mark.parametrize("text", ["[" * 40_000, "- " * 40_000 + "x\n",
                                  "a:\n" + "  - " * 40_000 + "x\n", "{a: " * 40_000],
                         ids=["flow sequences", "block sequences", "under a key", "flow maps"])
def test_nesting_too_deep_for_libyaml_is_reported_not_a_crash(tmp_path: Path, text: str):
    # libyaml's recursion crashes the process at some 30 000 levels: in a child process,
    # a crash shows as a negative exit code instead of taking the test run down.
    source = tmp_path / "deep.yaml"
    source.write_text(text, "utf-8")
    script = ("import sys; from pathlib import Path; "
              "from articlesite.load.sourcefiles import parse_yaml; "
              "from articlesite.problems import Problems; "
              "path = Path(sys.argv[1]); problems = Problems(path.parent); "
              "parse_yaml(path.read_text('utf-8'), path, problems); "
              "print([problem.message for problem in problems])")
    done = subprocess.run([sys.executable, "-c", script, str(source)], check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "invalid YAML" in done.stdout
