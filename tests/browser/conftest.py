"""The real site built once and served on 127.0.0.1, and pages opened in Debian's
Chromium (the `chromium` fixture) that fail their test on a console error or an outside
request."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path

import pytest


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        pass  # e.g. the browser closed the connection before a 404 was sent: not a failure


@contextlib.contextmanager
def serving(site: Path):
    """A built site over HTTP on 127.0.0.1; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def server(built_site: Path):
    """The built site over HTTP on 127.0.0.1; yields the base URL."""
    with serving(built_site) as url:
        yield url


# Pages kept for the whole session, by browser and JavaScript setting, each in a context
# of its own: a new context and page cost about 0.2 s, and a page's first load about twice
# what a load in a warm page costs. A test's first visit takes the first free one, its
# second visit the next (a test may hold several pages at once, each with its own storage).
_PAGES: dict[tuple[int, bool], list] = {}


def _page_for(chromium, javascript: bool, index: int):
    pages = _PAGES.setdefault((id(chromium), javascript), [])
    if index < len(pages) and not pages[index].is_closed():
        return pages[index]
    context = chromium.new_context(java_script_enabled=javascript)
    page = context.new_page()
    pages[index:index + 1] = [page]
    return page


def _clean(page, origins: set[str]) -> None:
    """Leave a used page as a new one: no storage kept for any origin the test loaded
    (the theme a test chose), nothing running, no route or cookie."""
    if page.is_closed():
        return
    for origin in sorted(origins):
        if not page.url.startswith(origin):
            page.goto(origin + "404.html")
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    page.goto("about:blank")
    page.context.clear_cookies()


@contextlib.contextmanager
def visitor(chromium, server: str, built_site: Path):
    """What `visit` yields, for any site served at `server` from `built_site`.

    Every request leaves only for the site itself (over HTTP, or from disk with
    `from_disk=True`), and is for the page or the search bundle; anything else is aborted
    and, like a console error or an uncaught exception, fails the test when it ends.
    """
    used, troubles = [], []   # (page, its listeners, the origins it loaded)
    taken = {True: 0, False: 0}   # pages taken from the session's, by JavaScript setting
    own = (server, built_site.as_uri() + "/")

    def guard(route) -> None:
        url = route.request.url
        if url.startswith(own):
            route.continue_()
        else:
            troubles.append(f"request to {url}")
            route.abort()

    def watch(request) -> None:
        # A page loads nothing but itself; only the search box, once used, loads the
        # site's own search bundle (site/pagefind/), and the translator's view the files
        # beside it of what is opened (site/translations/).
        if request.url.startswith(tuple(f"{site}{folder}/" for site in own
                                        for folder in ("pagefind", "translations"))):
            return
        if request.resource_type != "document" or not request.url.startswith(own):
            troubles.append(f"{request.resource_type} request to {request.url}")

    def open_page(path: str, *, width: int = 1280, height: int = 900,
                  color_scheme: str = "light", javascript: bool = True,
                  from_disk: bool = False):
        page = _page_for(chromium, javascript, taken[javascript])
        taken[javascript] += 1
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(media="screen", color_scheme=color_scheme, reduced_motion="reduce")
        listeners = {
            "request": watch,
            "console": lambda m: m.type == "error" and troubles.append(
                f"console error on {page.url}: {m.text}"),
            "pageerror": lambda e: troubles.append(f"exception on {page.url}: {e}")}
        page.context.route("**/*", guard)
        for event, listener in listeners.items():
            page.on(event, listener)
        origin = own[1] if from_disk else server
        used.append((page, listeners, {origin} if javascript else set()))
        page.goto(origin + path)
        return page

    try:
        yield open_page
    finally:
        for page, listeners, origins in used:
            if page.is_closed():
                continue
            for event, listener in listeners.items():
                page.remove_listener(event, listener)
            page.context.unroute("**/*", guard)
            try:
                _clean(page, origins)
            except Exception:   # noqa: BLE001 - whatever it is, the next visit gets a new page
                page.context.close()
    assert troubles == []


@pytest.fixture
def visit(chromium, server, built_site: Path):
    """Open a page of the site: `visit("en/x.html", width=390, javascript=False)`.

    Every request leaves only for the site itself (over HTTP, or from disk with
    `from_disk=True`); anything else is aborted and, like a console error or an uncaught
    exception, fails the test when it ends.
    """
    with visitor(chromium, server, built_site) as open_page:
        yield open_page
