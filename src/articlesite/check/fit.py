"""Text fit, measured in headless Chromium: does every node's and label's text fit its
box, in every language and diagram style?

Chromium (Debian's `chromium`, driven by Playwright for Python, never a downloaded
browser) loads the translator's view with all network requests refused; the view's
script, `measure.js`, makes a copy of every figure in every language and measures them,
the same code the page runs for a translator.
"""

from __future__ import annotations

import os
import tempfile
from collections import defaultdict
from pathlib import Path

from ..load.figures import Figure
from ..problems import Findings, command, plural

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1400, "height": 900}
KINDS = {"edge-label": "the label of edge", "group": "the title of group"}


class BrowserUnavailable(Exception):
    """Chromium or Playwright is not installed, or Chromium would not start."""


# Debian's Chromium builds: its headless shell (package chromium-headless-shell: the same
# Blink and fonts without the browser's user interface, a third less CPU a page) where it
# is installed, else the browser itself.
CHROMIUMS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")


def chromium_path() -> Path:
    """Where Chromium is: ARTICLESITE_CHROMIUM, or Debian's (its headless shell first)."""
    if os.environ.get("ARTICLESITE_CHROMIUM"):
        return Path(os.environ["ARTICLESITE_CHROMIUM"])
    return next((Path(path) for path in CHROMIUMS if Path(path).exists()), Path(CHROMIUMS[-1]))


def browser_required() -> bool:
    return os.environ.get("ARTICLESITE_REQUIRE_BROWSER") == "1"


# A browser already running, started by Playwright's launchServer with this Chromium and
# ARGS: its WebSocket address (the test suite's, one per test process, so that each
# `check` it runs does not start a Chromium of its own).
ENDPOINT = "ARTICLESITE_BROWSER_ENDPOINT"


def launch(playwright):
    """Debian's Chromium under Playwright, with the flags of a quiet, offline browser (or
    the one running at ENDPOINT, when set)."""
    executable = chromium_path()
    if not executable.exists():
        raise BrowserUnavailable(f"Chromium not found at {executable} (install Debian's "
                                 "chromium package, or set ARTICLESITE_CHROMIUM)")
    try:
        if os.environ.get(ENDPOINT):
            return playwright.chromium.connect(os.environ[ENDPOINT])
        return playwright.chromium.launch(executable_path=str(executable), args=ARGS)
    except Exception as exc:  # Playwright reports a failed start as its own Error
        raise BrowserUnavailable(f"Chromium at {executable} did not start: {exc}") from exc


# The view opens every article and figure, copies them in every language, and measures.
MEASURE_ALL = ("window.articlesiteView.openAll()"
               ".then(() => window.articlesiteMeasure(document))")


def measure(files: dict[str, str]) -> dict:
    """Load the translator's view (its files by path: its page, the only one at the top,
    and the files it loads beside it) in Chromium from a temporary folder, open all it
    holds, and return measure.js's result."""
    page = next(path for path in files if "/" not in path)
    with tempfile.TemporaryDirectory(prefix="articlesite-view-") as folder:
        for path, text in files.items():
            target = Path(folder, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return evaluate("", MEASURE_ALL, url=Path(folder, page).as_uri())


def evaluate(html: str, script: str, arg: object = None, url: str | None = None):
    """Load `html` in Chromium, every network request refused, and return what `script`
    (an expression, or a function called with `arg`) gives; with `url`, the page of that
    file instead, which may load the files of its folder (nothing else). A missing
    Chromium is said first: Playwright is of no use without it."""
    if not chromium_path().exists():
        launch(None)  # says where Chromium was looked for
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise BrowserUnavailable("Playwright for Python is not installed (pip install "
                                 "playwright; no browser download is needed)") from exc
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            if url is None:
                page.route("**/*", lambda route: route.abort())
                page.set_content(html, wait_until="load")
            else:
                folder = url.rsplit("/", 1)[0] + "/"
                page.route("**/*", lambda route: route.continue_()
                           if route.request.url.startswith(folder) else route.abort())
                page.add_init_script("window.articlesiteMeasureLater = true")
                page.goto(url, wait_until="load")
            return page.evaluate(script, arg)
        finally:
            browser.close()


def element_line(spec: Figure, kind: str, name: str) -> int | None:
    """The spec line of a node (by id), a label (by key), an edge's label (by the edge's
    number) or a group (by id)."""
    if kind == "edge-label":
        number = int(name) if name.isdigit() else 0
        return spec.edges[number - 1].line if 0 < number <= len(spec.edges) else None
    found = (n.line for n in spec.nodes if n.id == name) if kind == "node" else (
        g.line for g in spec.groups if g.id == name) if kind == "group" else (
        lb.line for lb in spec.labels if lb.text == name)
    return next(found, None)


def check_fit(figures: dict[str, Figure], view: dict[str, str], findings: Findings,
              breaks: bool = True) -> str:
    """Add a finding per element and language that does not fit, in its worst diagram
    style, and (`breaks`) per line broken where it may not be; return what was
    measured."""
    result = measure(view)
    if breaks:
        check_breaks(figures, result["breaks"], findings)
    worst: dict[tuple, dict] = {}
    styles: dict[tuple, list[str]] = defaultdict(list)
    for found in result["findings"]:
        group = (found["figure"], found["element"], found["language"], found["covered_by"])
        styles[group].append(found["style"])
        if group not in worst or found["px"] > worst[group]["px"]:
            worst[group] = found
    for group, found in worst.items():
        figure_id, element, language, node = group
        spec, keys, px = figures[figure_id], found["keys"], found["px"]
        what = f"the {language} text" if len(keys) == 1 else (
            f"the {language} texts ({', '.join(keys)}) together")
        how = (f"is covered by node '{node}' by {px:g} px" if node
               else f"overflow{'s' if len(keys) == 1 else ''} its box by {px:g} px")
        seen_in = " and ".join(styles[group]) + (" styles" if len(styles[group]) > 1
                                                 else " style")
        kind, name = element.split(" ", 1)
        fix = "" if node or kind == "label" else (
            f"; `{command()} figure fit {figure_id}` sizes every box to its texts")
        findings.add(spec.path, element_line(spec, kind, name),
                     f"{KINDS.get(kind, kind)} '{name}': {what} {how} ({seen_in}){fix}",
                     key=keys[0], language=language, check="fit", figure=figure_id,
                     element=element, overflow=px)
    return (f"text fit measured in Chromium: {plural(result['boxes'], 'box', 'boxes')} "
            "(every node and label of every figure, language and diagram style)"
            + (", and where each line breaks" if breaks else ""))


def check_breaks(figures: dict[str, Figure], found: list[dict], findings: Findings) -> None:
    """A finding per line broken inside a word or a phrase, or against the kinsoku rules
    (measure.js's `breaks`), with the diagram styles it is seen in."""
    styles: dict[tuple, list[str]] = defaultdict(list)
    for item in found:
        styles[(item["figure"], item["element"], item["language"], item["key"], item["why"],
                item["before"], item["after"])].append(item["style"])
    for (figure_id, element, language, key, why, before, after), seen in styles.items():
        spec = figures[figure_id]
        kind, name = element.split(" ", 1)
        seen_in = " and ".join(seen) + (" styles" if len(seen) > 1 else " style")
        findings.add(spec.path, element_line(spec, kind, name),
                     f"{kind} '{name}': the {language} text {why}: “{before}” | “{after}” "
                     f"({seen_in}); widen the box or shorten the text",
                     key=key, language=language, check="fit", figure=figure_id,
                     element=element)
