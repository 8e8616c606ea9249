"""Fuzzing the loaders: damaged or random JSON, YAML, Markdown and figure specs either
build or stop with the documented error (exit code 1, 'Build failed: …'), never with a
traceback, and never leave a half-written site/."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest
import yaml
from conftest import fixture_site, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from articlesite.cli import main

# Reproducible in CI (CI=true), exploring new examples on a developer's machine. 20
# examples a test (240 builds in all, about 20 s of CPU): what fits the suite's 5 minutes;
# set HYPOTHESIS_PROFILE=fuzz-long for a longer search.
settings.register_profile("fuzz", max_examples=20, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz-ci", settings.get_profile("fuzz"), derandomize=True)
settings.register_profile("fuzz-long", settings.get_profile("fuzz"), max_examples=400)
FUZZ = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "fuzz-ci" if
                                           os.environ.get("CI") else "fuzz"))

ARTICLE = "content/loop"
# Characters that mean something to JSON, YAML, Markdown or this site's syntax.
SYNTAX = list('{}[]:,"\'-#\n\t \\$_^&*!|>%@`~?=<0129aeé漢\x00\r') + [
    "---\n", "## ", "{#", "```{figure} ", "```\n", "[@", "$$", "\\frac{", "\\text{", "- ",
    ": ", "&a ", "*a", "!!", "2001-13-01", "\ufeff", "\\u00"]
TEXT = st.lists(st.sampled_from(SYNTAX) | st.characters(), max_size=60).map("".join)
VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=4),
    max_leaves=8)


@st.composite
def damaged(draw, original: bytes) -> bytes:
    """The file cut short, with a piece replaced, with bytes that are not UTF-8, or noise."""
    how = draw(st.sampled_from(["truncate", "splice", "bytes", "noise"]))
    start = draw(st.integers(0, len(original)))
    if how == "truncate":
        return original[:start]
    if how == "bytes":
        return original[:start] + draw(st.binary(min_size=1, max_size=8)) + original[start:]
    if how == "noise":
        return draw(TEXT).encode("utf-8", "surrogatepass")
    end = draw(st.integers(start, min(len(original), start + 300)))
    return original[:start] + draw(TEXT).encode("utf-8", "surrogatepass") + original[end:]


@st.composite
def replaced_value(draw, data):
    """The parsed file with one value somewhere in it replaced by a random one."""
    places = []

    def walk(node, path):
        places.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, child in children:
            walk(child, (*path, key))
    walk(data, ())
    path = draw(st.sampled_from(places[1:]))
    copy = json.loads(json.dumps(data))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = draw(VALUE)
    return copy


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory) -> Path:
    """The small fixture site (tests/fixtures/sources) with a good site/ built in it: every
    kind of source file, in three languages, at a fraction of the real article's cost."""
    root = fixture_site("sources", tmp_path_factory.mktemp("fuzz") / "project")
    assert build(root)[0] == 0
    return root


def build(root: Path) -> tuple[int, str]:
    """Run the command line in this process: an uncaught exception fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--root", str(root)])
    return code, err.getvalue()


def check_build_with(root: Path, relative: str, content: bytes) -> tuple[int, str]:
    """Build with one file replaced; the build succeeds whole or fails cleanly."""
    path = root / relative
    original = path.read_bytes()
    site = root / "site"
    before = snapshot(site)
    path.write_bytes(content)
    try:
        code, errors = build(root)
    finally:
        path.write_bytes(original)
    assert code in (0, 1)
    leftovers = [p.name for p in root.iterdir() if p.name.startswith(".site.")]
    assert leftovers == []
    if code == 1:
        assert errors.startswith("Build failed: "), errors
        assert snapshot(site) == before
    else:
        pages = snapshot(site)
        assert {"index.html", "en/index.html", "zh/index.html", "ja/index.html"} <= set(pages)
        assert all(html.rstrip().endswith(b"</html>") for path, html in pages.items()
                   if path.endswith(".html") and not path.startswith("pagefind/"))
    return code, errors


DAMAGEABLE = ["figures/figure-texts.json", "figures/steps.yaml",
              "content/site.yaml", f"{ARTICLE}/references.yaml", f"{ARTICLE}/ja.md",
              "templates/strings.yaml"]


@pytest.mark.parametrize("relative", DAMAGEABLE)
def test_damaged_file(fuzz_root: Path, relative: str):
    original = (fuzz_root / relative).read_bytes()

    @FUZZ
    @given(damaged(original))
    def run(content: bytes) -> None:
        check_build_with(fuzz_root, relative, content)
    run()


@pytest.mark.parametrize("relative", ["figures/figure-texts.json", "figures/steps.yaml",
                                      "content/site.yaml",
                                      f"{ARTICLE}/references.yaml", "templates/strings.yaml"])
def test_random_value_in_a_data_file(fuzz_root: Path, relative: str):
    text = (fuzz_root / relative).read_text(encoding="utf-8")
    is_json = relative.endswith(".json")
    data = json.loads(text) if is_json else yaml.safe_load(text)

    @FUZZ
    @given(replaced_value(data))
    def run(changed) -> None:
        dumped = json.dumps(changed, ensure_ascii=False, indent=1) if is_json else \
            yaml.safe_dump(changed, allow_unicode=True)
        check_build_with(fuzz_root, relative, dumped.encode("utf-8"))
    run()


@FUZZ
@given(front=st.dictionaries(st.sampled_from(["title", "description", "extra"]), VALUE),
       body=st.lists(TEXT, max_size=6).map("\n".join))
def test_random_markdown_article(fuzz_root: Path, front: dict, body: str):
    text = f"---\n{yaml.safe_dump(front, allow_unicode=True)}---\n{body}\n"
    check_build_with(fuzz_root, f"{ARTICLE}/en.md", text.encode("utf-8", "surrogatepass"))


# What fuzzing found, each a traceback (or a failed internal assertion) before it was
# fixed, kept as fixed examples: (file, content, what the error says).
FOUND = [
    ("content/site.yaml", "", "no data: the YAML is empty or null"),
    ("figures/steps.yaml", "# nothing yet\n", "no data: the YAML is empty or null"),
    ("figures/figure-texts.json", "null", "no data: the JSON is null"),
    ("figures/figure-texts.json", "[" * 100_000, "invalid JSON: nested too deeply"),
    ("content/site.yaml", "[" * 100_000, "invalid YAML"),
    (f"{ARTICLE}/references.yaml", "- id: x\n  year: 2001-13-01\n",
     "invalid YAML: month must be in 1..12"),
    ("templates/strings.yaml", "1: {en: x}\nnull: {zh: y}\n",
     "translation missing for language"),
    ("figures/steps.yaml", "title: t\ncaption: c\nwidth: .nan\nheight: .inf\n",
     "'width' must be a positive number"),
]


@pytest.mark.parametrize(("relative", "content", "message"), FOUND,
                         ids=[f"{relative}:{content[:12]!r}" for relative, content, _ in FOUND])
def test_what_fuzzing_found(fuzz_root: Path, relative: str, content: str, message: str):
    code, errors = check_build_with(fuzz_root, relative, content.encode("utf-8"))
    assert code == 1 and message in errors, errors
