"""The real site built once and served on 127.0.0.1, and pages opened in Debian's
Chromium (the `chromium` fixture) that fail their test on a console error or an outside
request."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def server(built_site: Path):
    """The built site over HTTP on 127.0.0.1; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def visit(chromium, server, built_site: Path):
    """Open a page of the site: `visit("en/x.html", width=390, javascript=False)`.

    Every request leaves only for the site itself (over HTTP, or from disk with
    `from_disk=True`), and is for the page or the search bundle; anything else is aborted
    and, like a console error or an uncaught exception, fails the test when it ends.
    """
    contexts, troubles = [], []
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
        # site's own search bundle (site/pagefind/).
        if request.url.startswith(tuple(f"{site}pagefind/" for site in own)):
            return
        if request.resource_type != "document" or not request.url.startswith(own):
            troubles.append(f"{request.resource_type} request to {request.url}")

    def open_page(path: str, *, width: int = 1280, height: int = 900,
                  color_scheme: str = "light", javascript: bool = True,
                  from_disk: bool = False):
        context = chromium.new_context(viewport={"width": width, "height": height},
                                      color_scheme=color_scheme, reduced_motion="reduce",
                                      java_script_enabled=javascript)
        contexts.append(context)
        context.route("**/*", guard)
        page = context.new_page()
        page.on("request", watch)
        page.on("console", lambda m: m.type == "error" and troubles.append(
            f"console error on {page.url}: {m.text}"))
        page.on("pageerror", lambda e: troubles.append(f"exception on {page.url}: {e}"))
        page.goto((built_site.as_uri() + "/" if from_disk else server) + path)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert troubles == []
