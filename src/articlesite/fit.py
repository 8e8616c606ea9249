"""Text fit, measured in headless Chromium: does every node's and label's text fit its
box, in every language and diagram style?

The translator's view holds a copy of every figure in every language; Chromium (Debian's
`chromium`, driven by Playwright for Python, never a downloaded browser) loads it with
all network requests refused and runs `measure.js` on it, the same code the page runs
for a translator.
"""

from __future__ import annotations

import os
from pathlib import Path

from .figures import Figure
from .problems import Findings

CHROMIUM = Path(os.environ.get("ARTICLESITE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1400, "height": 900}


class BrowserUnavailable(Exception):
    """Chromium or Playwright is not installed, or Chromium would not start."""


def browser_required() -> bool:
    return os.environ.get("ARTICLESITE_REQUIRE_BROWSER") == "1"


def launch(playwright):
    """Debian's Chromium under Playwright, with the flags of a quiet, offline browser."""
    if not CHROMIUM.exists():
        raise BrowserUnavailable(f"Chromium not found at {CHROMIUM} (install Debian's "
                                 "chromium package, or set ARTICLESITE_CHROMIUM)")
    try:
        return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    except Exception as exc:  # Playwright reports a failed start as its own Error
        raise BrowserUnavailable(f"Chromium at {CHROMIUM} did not start: {exc}") from exc


def measure(html: str) -> dict:
    """Load the translator's view in Chromium and return measure.js's result."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise BrowserUnavailable("Playwright for Python is not installed (pip install "
                                 "playwright; no browser download is needed)") from exc
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.route("**/*", lambda route: route.abort())
            page.set_content(html, wait_until="load")
            return page.evaluate("window.articlesiteMeasure(document)")
        finally:
            browser.close()


def check_fit(figures: dict[str, Figure], view_html: str, findings: Findings) -> str:
    """Add a finding per element and language that does not fit; return a summary line."""
    result = measure(view_html)
    worst: dict[tuple, dict] = {}
    for found in result["findings"]:
        group = (found["figure"], found["element"], found["key"], found["language"],
                 found.get("covered_by"))
        styles = worst.get(group, {}).get("styles", []) + [found["style"]]
        if group not in worst or found["px"] > worst[group]["px"]:
            worst[group] = dict(found)
        worst[group]["styles"] = styles
    for (figure_id, element, key, language, node), found in worst.items():
        spec = figures[figure_id]
        kind, name = element.split(" ", 1)
        line = next((n.line for n in spec.nodes if n.id == name), None) if kind == "node" else \
            next((lb.line for lb in spec.labels if lb.text == name), None)
        how = (f"is covered by node '{node}' by {found['px']:g} px" if node
               else f"overflows its box by {found['px']:g} px")
        styles = " and ".join(found["styles"])
        findings.add(spec.path, line, f"{kind} '{name}': the {language} text {how} "
                     f"({styles} style{'s' if len(found['styles']) > 1 else ''})",
                     key=key, language=language, check="fit", figure=figure_id,
                     element=element, overflow=found["px"])
    return (f"text fit measured in Chromium: {result['boxes']} boxes (every node and label "
            "of every figure, language and diagram style)")
