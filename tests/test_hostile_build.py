"""Hostile input to the build: a wrong --out, formulas and YAML made to exhaust the
process, names of the site's own pages, unsafe URLs, values that used to end in a
traceback, and text made to be slow. Each build runs as a user runs it, in a process of
its own bounded in memory (RLIMIT_AS) and time, and must end with a clear message (file,
line) or a good site; a failed build leaves site/ byte-identical and nothing outside
site/ (but the build cache) changes. The project is the one `articlesite init` makes, in
English and Chinese, without the search index."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import forked
import pytest
from conftest import REPO, run_build, without_search

from articlesite.starter import init_project

MEMORY = 3 * 1024 ** 3   # bytes of address space a build may have
SECONDS = 60
EN = "content/hello/en.md"
SPEC = "figures/hello-flow.yaml"
TEXTS = "figures/figure-texts.json"
CACHE = ".articlesite-cache"


def build(root: Path, *args: str) -> subprocess.CompletedProcess:
    """`python build.py --root ROOT ARGS`, in a process bounded in memory and time (forked
    from one that imported the generator: forked.py)."""
    return forked.run(["--root", str(root), *args], cwd=root, timeout=SECONDS, memory=MEMORY,
                      shown=[sys.executable, str(REPO / "build.py"), "--root", str(root),
                             *args])


def files(folder: Path, *leave_out: str) -> dict[str, bytes]:
    """Every file under `folder` (links by their target's name), but those under the
    folders `leave_out`."""
    found = {}
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if any(relative == out or relative.startswith(out + "/") for out in leave_out):
            continue
        if path.is_symlink():
            found[relative] = os.readlink(path).encode()
        elif path.is_file():
            found[relative] = path.read_bytes()
    return found


@pytest.fixture(scope="session")
def built_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile-build") / "project"
    init_project(root, ["en", "zh"], "en")
    without_search(root)
    assert run_build(root).returncode == 0
    return root


@pytest.fixture
def root(built_project: Path, tmp_path: Path) -> Path:
    """A copy of the built project: its sources, site/ and cache."""
    return Path(shutil.copytree(built_project, tmp_path / "project", symlinks=True))


def refused(root: Path, *args: str) -> str:
    """Build; expect the documented failure with site/ and every source as they were.
    Returns what the build printed."""
    before = files(root, CACHE)
    result = build(root, *args)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    assert result.stderr.startswith("Build failed"), output
    assert files(root, CACHE) == before
    return result.stderr


def builds(root: Path, *args: str) -> str:
    result = build(root, *args)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def append(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def replace(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, (old, relative)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(root: Path, relative: str, needle: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").split("\n")
    return next(n for n, line in enumerate(lines, start=1) if needle in line)


# --out --------------------------------------------------------------------------------

@pytest.mark.parametrize(("out", "why"), [
    ("content", "is inside the project's content/"),
    ("content/hello", "is inside the project's content/"),
    ("figures/new", "is inside the project's figures/"),
    ("templates", "is inside the project's templates/"),
    (CACHE, f"is inside the project's {CACHE}/"),
    (".", "holds the project"),
    ("..", "holds the project"),
])
def test_out_never_replaces_the_project_or_its_sources(root: Path, out: str, why: str):
    outside = files(root.parent, "project")
    message = refused(root, "build", "--out", out)
    assert f"--out {out}: the output folder {why}" in message
    assert "build --out DIR" in message   # what to do
    assert files(root.parent, "project") == outside


def test_out_never_replaces_a_folder_of_someone_elses_files(root: Path, tmp_path: Path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "thesis.tex").write_text("years of work", encoding="utf-8")
    message = refused(root, "build", "--out", str(theirs))
    assert "holds files that no build wrote" in message
    assert (theirs / "thesis.tex").read_text(encoding="utf-8") == "years of work"
    (tmp_path / "a-file").write_text("mine", encoding="utf-8")
    assert "is a file, not a folder" in refused(root, "build", "--out", str(tmp_path / "a-file"))
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "mine"


def test_out_takes_an_absent_or_empty_folder_and_then_its_own(root: Path, tmp_path: Path):
    for out in (tmp_path / "absent" / "site", tmp_path / "empty"):
        (tmp_path / "empty").mkdir(exist_ok=True)
        builds(root, "build", "--out", str(out))
        assert (out / ".articlesite-output").is_file() and (out / "en/hello.html").is_file()
        (out / "left-by-hand.txt").write_text("x", encoding="utf-8")
        builds(root, "build", "--out", str(out))   # a folder a build wrote is the build's
        assert not (out / "left-by-hand.txt").exists()


def test_the_default_site_of_a_build_before_the_marker_still_builds(root: Path):
    marker = root / "site" / ".articlesite-output"
    assert marker.is_file()
    marker.unlink()   # as a build before the marker existed left site/
    builds(root)
    assert marker.is_file()


def test_site_being_a_file_is_a_clear_error(root: Path):
    shutil.rmtree(root / "site")
    (root / "site").write_text("not a folder", encoding="utf-8")
    assert "site: the output folder is a file" in refused(root)


# Formulas nested deep ------------------------------------------------------------------

@pytest.mark.parametrize(("tex", "depth"), [
    ("\\sqrt{" * 4000 + "1" + "}" * 4000, "4,000"),
    ("\\frac{" * 4000 + "1" + "}{2}" * 4000, "4,000"),
    ("{" * 20000 + "x" + "}" * 20000, "20,000"),
    ("\\left(" * 3000 + "x" + "\\right)" * 3000, "3,000"),
], ids=["sqrt", "frac", "braces", "left-right"])
def test_a_formula_nested_too_deep_is_a_formula_error(root: Path, tex: str, depth: str):
    append(root, EN, f"\nDeep: ${tex}$\n")
    line = line_of(root, EN, "Deep: ")
    message = refused(root)
    assert f"{EN}:{line}: formula $" in message
    assert f"nested {depth} levels deep" in message
    assert len(message) < 1000   # the formula is shown by its start


def test_a_long_chain_of_commands_converts_without_a_crash(root: Path):
    append(root, EN, "\nHats: $" + "\\hat " * 8000 + "x$ and $" + "\\color{red}" * 4000
           + "1$\n")
    builds(root)
    assert (root / "site/en/hello.html").read_text(encoding="utf-8").count("<math") >= 2


# YAML aliases and duplicate keys -------------------------------------------------------

BOMB = "".join(f"  {a}: &{a} [{', '.join([f'*{b}'] * 9)}]\n"
               for b, a in zip("abcdefgh", "bcdefghi"))
BOMB = "extra:\n  a: &a [x, x, x, x, x, x, x, x, x]\n" + BOMB


def front_matter(root: Path, relative: str, extra: str) -> None:
    replace(root, relative, "\ndate:", f"\n{extra.rstrip()}\ndate:")


def test_an_alias_bomb_in_front_matter_is_refused_at_once(root: Path):
    front_matter(root, EN, BOMB)
    message = refused(root)
    assert "aliases expand to more than 100,000 values" in message
    assert f"{EN}:{line_of(root, EN, '  f: &f')}:" in message


def test_an_alias_inside_its_own_anchor_is_refused(root: Path):
    front_matter(root, EN, "extra:\n  loop: &loop\n    again: *loop")
    front_matter(root, "content/hello/zh.md", "extra: &list [1, *list]")
    message = refused(root)
    assert f"{EN}:{line_of(root, EN, 'loop: &loop')}: invalid YAML: an alias inside the " \
           "node its anchor names" in message
    assert "content/hello/zh.md:" in message


@pytest.mark.parametrize("relative", [SPEC, "content/site.yaml"])
def test_an_alias_bomb_in_a_figure_spec_or_site_yaml_is_refused(root: Path, relative: str):
    append(root, relative, BOMB.replace("extra:", "bomb:", 1))
    message = refused(root)
    assert f"{relative}:{line_of(root, relative, '  f: &f')}: invalid YAML: its aliases " \
           "expand to more than 100,000 values" in message


def test_merges_and_small_aliases_still_work(root: Path):
    front_matter(root, EN, "extra:\n  base: &b {x: 1, y: 2}\n  merged:\n    <<: *b\n"
                           "    y: 3\n  list: [*b, *b]")
    builds(root)


@pytest.mark.parametrize("relative", [EN, "content/site.yaml", SPEC])
def test_a_key_given_twice_is_an_error_naming_both_lines(root: Path, relative: str):
    key = {EN: "title", "content/site.yaml": "default_language", SPEC: "width"}[relative]
    first = line_of(root, relative, f"{key}:")
    value = {"title": '"Again"', "default_language": "zh", "width": "600"}[key]
    if relative == EN:
        replace(root, EN, "\ndate:", f"\n{key}: {value}\ndate:")
    else:
        append(root, relative, f"{key}: {value}\n")
    again = line_of(root, relative, f"{key}: {value}")
    message = refused(root)
    assert f"{relative}:{again}: invalid YAML: duplicate key '{key}': given at line " \
           f"{first} and again here" in message


# Names and URLs --------------------------------------------------------------------------

@pytest.mark.parametrize("slug", ["index", "feed", "zh"])
def test_an_article_named_after_a_page_of_the_site_is_refused(root: Path, slug: str):
    shutil.copytree(root / "content/hello", root / "content" / slug)
    message = refused(root)
    assert f"content/{slug}: article folder '{slug}' has the name of one of the site's own " \
           "pages or languages" in message


def test_new_refuses_a_slug_of_the_sites_own_pages(root: Path):
    before = files(root)
    result = build(root, "new", "translations")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "'translations' is the name of one of the site's own pages" in result.stderr
    assert files(root) == before


def test_a_name_ending_in_a_newline_is_no_name(root: Path):
    replace(root, "content/site.yaml", "  - code: zh\n", '  - code: "zh\\n"\n')
    assert "language code 'zh\n' must be lower-case letters" in refused(root)


@pytest.mark.parametrize(("config", "expected"), [
    ("base_url: 'javascript:alert(1)//'\n", "'base_url' must be the site's address"),
    ("base_url: \"https://example.org/\\n\"\n", "'base_url' must be the site's address"),
    ("link_base:\n  en: 'javascript:alert(1)'\n", "link_base.en must be a URL starting with"),
], ids=["base_url-javascript", "base_url-newline", "link_base-javascript"])
def test_urls_in_site_yaml_must_be_http(root: Path, config: str, expected: str):
    append(root, "content/site.yaml", config)
    assert expected in refused(root)


def test_urls_in_front_matter_and_references_must_be_http(root: Path):
    front_matter(root, EN, "image: 'javascript:alert(1)'")
    (root / "content/hello/references.yaml").write_text(
        "- id: a\n  title: A\n  url: \"https://example.org/\\n<b>\"\n", encoding="utf-8")
    message = refused(root)
    assert "'image' must be a path inside the article's folder" in message
    assert "content/hello/references.yaml:" in message and "'url' must start with" in message


# What used to be a traceback -------------------------------------------------------------

def test_a_lone_surrogate_is_an_error_at_its_line(root: Path):
    replace(root, EN, 'title: "Hello, world"', 'title: "Hello \\ud800"')
    replace(root, TEXTS, '"en": "Write"', '"en": "Wr\\udc00ite"')
    message = refused(root)
    half = "an escape writes half of a character"
    assert f"{EN}:2: {half}" in message
    assert f"{TEXTS}:{line_of(root, TEXTS, 'udc00')}: {half}" in message


def test_a_lone_surrogate_in_a_spec_is_an_error_at_its_line(root: Path):
    replace(root, SPEC, "    text: build", '    text: "build\\ud83d"')
    message = refused(root)
    assert f"{SPEC}:{line_of(root, SPEC, 'ud83d')}: an escape writes half" in message


def test_hl_lines_beyond_the_block_allocate_nothing(root: Path):
    append(root, EN, '\n```python hl_lines="1-99999999999 2-50000000"\nx = 1\n```\n\n'
                     '```python linenums="²"\ny = 2\n```\n')
    message = refused(root)
    assert f"{EN}:{line_of(root, EN, 'hl_lines')}: hl_lines marks line" in message
    assert "but the block has 1 line" in message
    assert 'linenums="²" must be a line number' in message


@pytest.mark.parametrize("number", ["1" + "0" * 308, "9" * 400, "1e308"],
                         ids=["309-digits", "400-digits", "1e308"])
def test_a_huge_number_in_a_spec_is_a_clear_error(root: Path, number: str):
    replace(root, SPEC, "box: [20, 30, 140, 60]", f"box: [20, 30, {number}, 60]")
    assert f"{SPEC}:{line_of(root, SPEC, 'box: [20, 30, ')}: 'box' must be" in refused(root)


def test_a_symbolic_link_loop_in_an_article_folder_is_named(root: Path):
    (root / "content/hello/loop").symlink_to("loop")
    (root / "content/hello/a.md").symlink_to("b.md")
    (root / "content/hello/b.md").symlink_to("a.md")
    message = refused(root)
    assert "content/hello/loop: symbolic link to 'loop', which cannot be followed" in message
    assert "content/hello/a.md: symbolic link to 'b.md'" in message


def test_files_where_the_cache_has_folders_are_replaced(root: Path):
    shutil.rmtree(root / CACHE)
    (root / CACHE).mkdir()
    for name in ("pages", "templates"):
        (root / CACHE / name).write_text("x", encoding="utf-8")
    (root / CACHE / "index").mkdir()
    builds(root)
    builds(root)   # and the cache it saved is read
    shutil.rmtree(root / CACHE)
    (root / CACHE).write_text("x", encoding="utf-8")
    assert f"{CACHE}: the build cache's folder is a file" in refused(root)


# Text made to be slow --------------------------------------------------------------------

def test_text_made_to_backtrack_builds_in_bounded_time(root: Path):
    """Each line was quadratic in the word count's patterns (40,000 backticks: 38 s)."""
    lines = ["`" * 40_000, "```x\n" * 2_000, "<!--" * 10_000, "{#" * 10_000,
             "[@" * 10_000, "<a" * 10_000, "~" * 20_000 + "\n~~~"]
    append(root, EN, "\n\n" + "\n\n".join(lines) + "\n")
    result = build(root)   # within SECONDS (a markup warning or two is fine)
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr


def test_a_key_given_twice_in_the_dictionary_is_an_error(root: Path):
    replace(root, TEXTS, '"en": "Write",', '"en": "Write", "en": "Again",')
    message = refused(root)
    line = line_of(root, TEXTS, '"write": {')
    assert f"{TEXTS}:{line}: invalid JSON: the key 'en' is " \
           "given twice in the entry 'write'" in message


def test_unclosed_markup_of_other_tools_is_looked_for_in_bounded_time(root: Path):
    """`[**` and `{/*` unclosed, 10,000 times in a paragraph: 5 s each when every start
    scanned to the end of the text, as each tag's line was counted from its start."""
    append(root, EN, "\n" + "[**" * 10_000 + "\n\n" + "{/*" * 10_000 + "\n\n"
           + "<x-y>z</x-y> " * 3_000 + "\n")
    result = build(root)   # within SECONDS
    assert result.returncode == 0, result.stderr
    assert "the tags '<x-y>' are not rendered" in result.stderr   # still found, named once
    assert len(result.stderr) < 1000


def test_the_projects_own_site_given_with_out_still_builds(root: Path):
    (root / "site" / ".articlesite-output").unlink()   # as a build before the marker left it
    builds(root, "build", "--out", "site")
    assert (root / "site" / ".articlesite-output").is_file()
