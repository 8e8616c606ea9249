"""Shared fixtures: copies of the real project built in tmp_path, and a CLI runner."""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import browser_server
import forked
import pytest
from bs4 import BeautifulSoup

from articlesite.build import build
from articlesite.cache import Cache
from articlesite.check.fit import ENDPOINT, browser_required, chromium_path, launch
from articlesite.cli import main

REPO = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("content", "figures", "templates")
# The default theme. A test project gets a copy of it as its templates/ (the overrides of
# a project that overrides every file), for the tests that edit a template.
THEME = REPO / "src" / "articlesite" / "theme"
FIXTURES = REPO / "tests" / "fixtures"
# The tools some tests need besides Python's packages, and what installs each (on Debian;
# .ci/run installs them all). A test whose tool is missing fails, naming the command, so
# that the README's test command never passes with tests left out; set
# ARTICLESITE_SKIP_MISSING_TOOLS=1 to skip those tests instead (they are listed at the
# end). ARTICLESITE_REQUIRE_BROWSER=1 (.ci/run) forbids skipping whatever is set.
INSTALL = {
    "chromium": "apt-get install chromium fonts-noto-cjk fonts-liberation fonts-lmodern",
    "playwright": "pip install -e '.[test]'",
    "java": "apt-get install default-jre-headless",
    "node_modules": "npm ci --ignore-scripts",
}
SKIP_MISSING = "ARTICLESITE_SKIP_MISSING_TOOLS"
REQUIRE_TOOLS = browser_required()
# How a test's message names a missing tool and its command (found again for the summary)
MISSING = re.compile(r"^(?:Failed: |Skipped: )?(.+?) is not installed: `([^`]+)`")


def require(available: bool, what: str, *tools: str) -> None:
    """Fail a test whose tool (`what`; installed as INSTALL[tool] says) is missing, naming
    the command that installs it; skip it instead when SKIP_MISSING is set (never in CI)."""
    if available:
        return
    commands = " && ".join(INSTALL[tool] for tool in tools)
    message = (f"{what} is not installed: `{commands}` installs it (.ci/run installs "
               f"every tool), or set {SKIP_MISSING}=1 to skip the tests that need it")
    if os.environ.get(SKIP_MISSING) == "1" and not REQUIRE_TOOLS:
        pytest.skip(message)
    pytest.fail(message + ("; ARTICLESITE_REQUIRE_BROWSER=1 forbids skipping"
                           if REQUIRE_TOOLS else ""))


def copy_project(target: Path, *, search: bool = False) -> Path:
    """A copy of the real project's sources (content, figures, templates: the theme with
    the project's overrides over it) in `target`.

    Unless `search`, the copy's site.yaml turns the search index off (`search: false`):
    Pagefind's Chinese and Japanese word segmenters cost about 2 s of CPU per build that
    changes a page, most of the suite's time otherwise. The tests of search, and the
    session's `built_site` that the browser tests and validators read, keep it on."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copytree(THEME, target / "templates")   # the project's overrides over it
    for part in PROJECT_PARTS:
        shutil.copytree(REPO / part, target / part, dirs_exist_ok=True)
    return target if search else without_search(target)


def fixture_site(name: str, target: Path, *, search: bool = False) -> Path:
    """tests/fixtures/NAME's content and figures, with a copy of the theme as templates/, in
    `target`; without the search index unless `search` (see copy_project)."""
    for part in PROJECT_PARTS:
        shutil.copytree(FIXTURES / name / part if part != "templates" else THEME,
                        target / part)
    return target if search else without_search(target)


def without_search(root: Path) -> Path:
    """The project at `root` set to build without the search index (see copy_project):
    `search: false` added to its site.yaml, before the list of languages (which a test
    may extend by appending)."""
    config = root / "content" / "site.yaml"
    text = config.read_text(encoding="utf-8")
    if re.search(r"^search:", text, re.MULTILINE):   # a key given twice is an error
        text = re.sub(r"^search:.*$", "search: false", text, count=1, flags=re.MULTILINE)
    else:
        text = (text.replace("\nlanguages:", "\nsearch: false\nlanguages:", 1)
                if "\nlanguages:" in text else text.rstrip("\n") + "\nsearch: false\n")
    config.write_text(text, encoding="utf-8")
    return root


def keep_built(root: Path) -> Path:
    """A copy kept of the folder holding the project `root`, just built, for
    restore_built: a test file that builds the same site before each test builds it once.
    The copy is put back at the same place, as the cache's keys name the project's
    folder."""
    Cache(root).store.settle()   # the cache's deletions, in a thread, ended
    return copy_linked(root.parent, root.parent.with_name(root.parent.name + "-kept"))


def built_with_search(tmp_path_factory) -> tuple[Path, Path]:
    """The fixture site "sources" with its search index, built once for a test file:
    the project and its copy kept (restore_built puts it back for each test)."""
    root = fixture_site("sources", tmp_path_factory.mktemp("search") / "test" / "project",
                        search=True).resolve()
    build(root)
    return root, keep_built(root)


def restore_built(root: Path, kept: Path) -> Path:
    """The project `root` as keep_built found it, sources, site/ and cache, in place of
    what the last test left (the tests of a file run one after another, in one worker)."""
    shutil.rmtree(root.parent)
    copy_linked(kept, root.parent)
    return root


def copy_linked(source: Path, target: Path) -> Path:
    """A copy of a folder with its files' times, whose files hard-linked to each other
    (site/'s pages and the cache's) are linked to each other in the copy too."""
    copied: dict[tuple[int, int], Path] = {}
    target.mkdir(parents=True)
    for path in sorted(source.rglob("*")):
        destination = target / path.relative_to(source)
        if path.is_dir() and not path.is_symlink():
            destination.mkdir()
            continue
        stat = path.lstat()
        if (stat.st_dev, stat.st_ino) in copied:
            os.link(copied[stat.st_dev, stat.st_ino], destination)
        else:
            shutil.copy2(path, destination, follow_symlinks=False)
            copied[stat.st_dev, stat.st_ino] = destination
    for path in sorted(source.rglob("*"), reverse=True):   # a folder's time, after its files
        if path.is_dir() and not path.is_symlink():
            shutil.copystat(path, target / path.relative_to(source))
    return target


# The commands run_build runs in a process of their own: `check` and `figure` (layout)
# measure in Chromium, and Playwright's sync API runs once per process at a time (the
# browser tests' `chromium` may be running in the test's process): forked (forked.py);
# `serve` runs on, and may start itself again: started as a user starts it.
OWN_PROCESS = ("check", "figure", "serve")
FORKED = ("check", "figure")


def run_build(root: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python build.py --root ROOT …` as a user would, and what it printed.

    A build, and every command but OWN_PROCESS's, in the test's own environment, runs the
    same command line in this process: starting Python and importing the generator would
    cost about 0.25 s, half of what building a small fixture site does. An exception it
    did not turn into a message fails the test as a traceback would. OWN_PROCESS's, and a
    command given an environment of its own, get a process of their own: forked from a
    process that imported the generator once (forked.py), but `serve`'s, and those whose
    environment changes what Python imports (PYTHONPATH), which start Python."""
    command = [sys.executable, str(REPO / "build.py"), "--root", str(root), *args]
    name = next((a for a in args if not a.startswith("-")), "build")
    if name in FORKED and "--no-browser" not in args:
        browser_server.start()   # the commands measure in the process's one Chromium
    if name in FORKED or env is not None and name != "serve" and \
            env.get("PYTHONPATH") == os.environ.get("PYTHONPATH"):
        return forked.run(["--root", str(root), *args], env=env, shown=command)
    if env is not None or name in OWN_PROCESS:
        return subprocess.run(command, capture_output=True, text=True, timeout=300,
                              check=False, env=env)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--root", str(root), *args])
        except SystemExit as stop:   # argparse's answer to a mistaken command line
            code = stop.code
    return subprocess.CompletedProcess(command, code, out.getvalue(), err.getvalue())


def save(root: Path, path: Path, text: str) -> None:
    """Save a source as careful editors do: written beside the project's watched folders,
    then renamed over the file, so that `serve` never sees it half written."""
    temporary = root / ".saving.tmp"
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def edit(root: Path, relative: str, old: str, new: str, count: int = 1) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    save(root, path, text.replace(old, new, count))


def line_of(root: Path, relative: str, needle: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


TEXTS = "figures/figure-texts.json"


def set_text(root: Path, key: str, language: str, value: str | None) -> None:
    """Set (or with None delete) one text of the project's figure-text dictionary."""
    path = root / TEXTS
    texts = json.loads(path.read_text(encoding="utf-8"))
    if value is None:
        del texts[key][language]
    else:
        texts.setdefault(key, {})[language] = value
    save(root, path, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")


def check(root: Path, capsys, *args: str) -> tuple[int, dict]:
    """Run `check --format json --no-browser` in-process; return exit code and report."""
    from articlesite.cli import main

    code = main(["--root", str(root), "check", "--format", "json", "--no-browser", *args])
    return code, json.loads(capsys.readouterr().out)


def confirm(root: Path, capsys, *args: str) -> tuple[int, str]:
    """Run `translations confirm ARGS` in-process; return exit code and what it printed."""
    from articlesite.cli import main

    code = main(["--root", str(root), "translations", "confirm", *args])
    return code, capsys.readouterr().out


def problems(report: dict, check_name: str) -> list[dict]:
    """The findings of one check that are problems, not warnings."""
    return [f for f in report["findings"] if f["check"] == check_name
            and f["severity"] == "problem"]


def failed_build(root: Path) -> str:
    """Build, expecting the documented failure; returns the problem list it printed."""
    result = run_build(root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Build failed")
    return result.stderr


def snapshot(site: Path) -> dict[str, bytes]:
    """Every file of a built site, by path."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*")
            if p.is_file()}


def assert_same_as_clean_build(root: Path, tmp_path: Path) -> None:
    """root's site/ is byte for byte what a clean build of root writes (into tmp_path)."""
    clean = tmp_path / "clean-site"
    build(root, clean, clean=True)
    assert snapshot(root / "site") == snapshot(clean)


def built_sources(tmp_path: Path) -> Path:
    """The small fixture site "sources" in tmp_path/project, built once."""
    root = fixture_site("sources", tmp_path / "project").resolve()
    assert run_build(root).returncode == 0
    return root


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def view_data(site: Path, name: str) -> dict:
    """What one of the translator's view's files beside it holds
    (`articlesiteView.add(NAME, DATA);`)."""
    text = (site / "translations" / f"{name}.js").read_text(encoding="utf-8")
    found = re.fullmatch(r'articlesiteView\.add\(("[^"]*"), (.*)\);\n', text, re.DOTALL)
    assert found and json.loads(found.group(1)) == name, text[:80]
    return json.loads(found.group(2))


def opened_view(site: Path) -> BeautifulSoup:
    """The translator's view with every article and figure opened, as its script shows
    them (translate/view.js): each article's sections, every key's row in order."""
    page = soup(site / "translations.html")
    index = json.loads(page.find(id="view-index").string)
    rows = {}
    for number in range(0, len(index["keys"]), index["per"]):
        rows.update(view_data(site, f"keys-{number // index['per']}")["rows"])
    for name in index["groups"]:
        sections = view_data(site, name)["sections"]
        if sections:
            page.find(id="sections").append(BeautifulSoup(sections, "html.parser"))
    body = page.select_one("#keys tbody")
    for key in index["keys"]:
        body.append(BeautifulSoup(rows[key], "html.parser"))
    return page


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real content, built once for the session, with the search index; returns its
    site/ folder, which no test changes. Under pytest-xdist the workers share one build:
    the first to need it builds it in their common temporary folder, the others wait."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return build_real_site(tmp_path_factory.mktemp("real") / "project")
    shared = tmp_path_factory.getbasetemp().parent   # the session's, above each worker's
    with (shared / "real-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # released when the file closes
        if not (shared / "real-site.built").exists():
            shutil.rmtree(shared / "real-site", ignore_errors=True)   # a failed attempt's
            build_real_site(shared / "real-site" / "project")
            (shared / "real-site.built").touch()
    return shared / "real-site" / "project" / "site"


def build_real_site(root: Path) -> Path:
    copy_project(root, search=True)
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


# The test files that take longest, longest first (`python -m pytest --durations=0`, summed
# by file). pytest-xdist gives each worker whole files (`--dist loadfile`) in the order
# collected (`--no-loadscope-reorder`, pyproject.toml); these are collected first so that
# no worker is left running a long file alone at the end while the others wait.
LONGEST = ("test_interrupted_build.py", "test_hostile_cache.py", "test_wheel.py",
           "test_figure_layout.py", "test_search_setting.py", "test_serve_search.py",
           "test_serve.py", "test_fit.py", "test_hostile_build.py", "test_examples.py",
           "test_fuzz_loaders.py", "test_math_build.py", "test_page_ids.py", "test_check.py",
           "test_validators.py", "test_files.py", "browser/test_axe.py", "browser/test_editor.py",
           "browser/test_images.py", "test_migrated_articles.py", "browser/test_small_screens.py",
           "test_hostile_input.py", "test_in_progress.py", "browser/test_figure_labels_editor.py",
           "browser/test_markdown_features.py", "browser/test_search.py", "test_search_input.py",
           "test_yaml_values.py", "test_rebuild.py", "browser/test_figure_layout.py",
           "test_incremental.py", "test_route.py", "browser/test_typeset.py",
           "browser/test_math_layout.py", "browser/test_page_load.py", "test_figure_labels.py",
           "test_build_errors.py", "test_front_matter.py", "test_hostile_serve.py", "test_new.py",
           "browser/test_figure_editor.py", "test_schemas.py", "test_spec_edit.py",
           "test_typeset_check.py", "test_layout_properties.py")


def pytest_collection_modifyitems(items: list) -> None:
    """LONGEST's files first, in its order; the rest as collected (a stable sort)."""
    rank = {name: place for place, name in enumerate(LONGEST)}
    tests = REPO / "tests"
    items.sort(key=lambda item: rank.get(item.path.relative_to(tests).as_posix()
                                         if item.path.is_relative_to(tests) else "",
                                         len(LONGEST)))


def need_browser() -> None:
    """Skip a test that needs Debian's Chromium and Playwright where they are missing,
    unless ARTICLESITE_REQUIRE_BROWSER=1 (as in CI) makes that a failure."""
    missing = [what for what, ok in (
        (f"Chromium at {chromium_path()}", chromium_path().exists()),
        ("Playwright for Python", importlib.util.find_spec("playwright") is not None)) if not ok]
    require(not missing, " and ".join(missing), "chromium", "playwright")


@pytest.fixture(scope="session")
def chromium():
    """Debian's headless Chromium, no downloaded one: one for the whole session (Playwright's
    sync API runs one instance at a time). Tests open their own pages or contexts."""
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, pytest.MonkeyPatch.context() as patch:
        patch.delenv(ENDPOINT, raising=False)   # its own, not the commands' (browser_server)
        browser = launch(playwright)  # the package's own: Debian's, offline flags
        patch.undo()
        yield browser
        browser.close()


def outcome_message(report) -> str:
    """What a failed or skipped test said (pytest.fail's or pytest.skip's message)."""
    longrepr = getattr(report, "longrepr", None)
    if isinstance(longrepr, tuple):   # a skip: (file, line, message)
        return longrepr[2]
    crash = getattr(longrepr, "reprcrash", None)
    return crash.message if crash is not None else ""


def pytest_configure(config) -> None:
    """`-m screenshots` asks the tests that look at pages for their screenshots too
    (browser/pages.py: screenshots_wanted)."""
    expression = config.getoption("markexpr", "") or ""
    if "screenshots" in expression and "not screenshots" not in expression:
        os.environ["ARTICLESITE_SCREENSHOTS"] = "1"


def pytest_unconfigure() -> None:
    forked.stop()
    browser_server.stop()


def pytest_terminal_summary(terminalreporter) -> None:
    """The tools found missing, once each with what installs it; the math corpus's
    measured share (tests/test_math_corpus.py)."""
    missing = {found for kind in ("failed", "skipped", "error")
               for report in terminalreporter.stats.get(kind, [])
               for found in MISSING.findall(outcome_message(report))}
    if missing:
        terminalreporter.section("missing tools")
        for what, commands in sorted(missing):
            terminalreporter.write_line(f"{what}: {commands}")
    import mathcorpus
    if mathcorpus.SUMMARY:
        terminalreporter.section("math corpus")
        for line in mathcorpus.SUMMARY:
            terminalreporter.write_line(line)
