"""serve's HTTP handler: files inside site/ only (a missing one gets the site's
404.html with status 404, as static hosts do), with what inject.py adds to HTML; the
build events (Server-Sent Events at EVENTS) and status; POSTs to the routes of
extensions.py."""

from __future__ import annotations

import json
import mimetypes
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..render.assets import is_published_file
from ..search_shards import BUNDLE
from ..write import retired_file
from .extensions import Extensions
from .inject import EVENTS, inject, status_page
from .outcome import BuildState, Outcome

STATUS = "/__articlesite/status"
DISCARD_AT_MOST = 16 << 20  # bytes of an oversized body read before answering 413
DISCARD_WAIT = 2.0          # s without a byte of it, after which the 413 is sent anyway
BODY_WAIT = 10.0            # s without a byte of a body, after which it is given up (408)
# A request nobody can want: a path of more parts, or a longer name, than a site has.
PATH_PARTS_AT_MOST = 64
SANDBOX = {"Content-Security-Policy": "sandbox"}   # (see send_file)
TEXT_TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript",
              ".json": "application/json", ".svg": "image/svg+xml", ".txt": "text/plain",
              ".xml": "application/xml"}


class Handler(BaseHTTPRequestHandler):
    """Serves files inside site/ only, with the live-reload script added to HTML."""

    server_version = "articlesite"
    # Seconds a connection may stay silent (a request line never sent, a page that stopped
    # reading its event stream, which is written to every 15 s): then it is closed.
    timeout = 120
    site: Path
    retired: Path | None = None   # the search bundle's files kept a while (write.retire)
    state: BuildState
    extensions: Extensions   # the POST routes and page snippets (extensions.py)
    answered = False   # whether the answer to the request has begun (answer)

    def log_message(self, format: str, *args) -> None:
        pass  # quiet: the terminal shows builds, not requests

    def do_HEAD(self) -> None:
        self.answer(self.get, True)

    def do_GET(self) -> None:
        self.answer(self.get, False)

    def do_POST(self) -> None:
        self.answer(self.post)

    def send_response(self, code: int, message: str | None = None) -> None:
        self.answered = True
        super().send_response(code, message)

    def answer(self, method, *args) -> None:
        """Answer a request with `method`; should it fail (a bug, a file of the package
        missing), the client gets a 500 page (JSON for a POST) and the console one line,
        never a dropped connection or a traceback."""
        self.answered = False
        try:
            method(*args)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True   # the client went away: nobody to answer
        except Exception as exc:  # noqa: BLE001 - any failure is answered, and serving goes on
            print(f"{self.command} {self.path} failed: {type(exc).__name__}: {exc}",
                  flush=True)
            self.close_connection = True
            if self.answered:
                return   # part of the answer is sent already: the connection is closed
            message = f"500 Internal Server Error: {type(exc).__name__}: {exc}"
            if self.command == "POST":
                body = json.dumps({"ok": False, "message": message}, ensure_ascii=False)
                self.respond(HTTPStatus.INTERNAL_SERVER_ERROR, ".json", body.encode(), False)
            else:
                self.respond(HTTPStatus.INTERNAL_SERVER_ERROR, ".html",
                             status_page(message, self.state.outcome), self.command == "HEAD")

    def get(self, head: bool) -> None:
        path = urlsplit(self.path).path
        if path == EVENTS:
            self.stream_events()
        elif path == STATUS:
            self.respond(HTTPStatus.OK, ".json", json.dumps(
                self.state.outcome.as_json(), ensure_ascii=False).encode(), head)
        else:
            self.serve_file(path, head)

    def serve_file(self, path: str, head: bool) -> None:
        # The build's outcome is read before the file: a page read just before a swap
        # then carries the older version and reloads, never the reverse.
        outcome = self.state.outcome
        try:
            target = self.resolve(path)
            kind = target and ("dir" if target.is_dir() else "file" if target.is_file() else "")
        except (OSError, ValueError):   # a name too long for the disk, a loop of links
            target, kind = self.site, ""
        if target is None:
            self.respond(HTTPStatus.FORBIDDEN, ".html", status_page(
                "403 Forbidden: only files inside site/ are served", outcome), head)
        elif kind == "dir" and not path.endswith("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif kind == "dir" and (target / "index.html").is_file():
            self.send_file(target / "index.html", outcome, head)
        elif kind == "file":
            self.send_file(target, outcome, head)
        elif (kept := self.retired_file(target)) is not None:
            self.send_retired(kept, head)
        else:
            self.not_found(outcome, head)

    def retired_file(self, target: Path) -> Path | None:
        """A file of the search bundle that a build took out of site/ a short while ago
        (write.retire), which a page that loaded the bundle before may still ask for
        (`target`: where it was in site/, as resolve found it)."""
        site = self.site.resolve()
        if self.retired is None or not target.is_relative_to(site):
            return None
        name = target.relative_to(site).as_posix()
        if not name.startswith(f"{BUNDLE}/"):
            return None
        return retired_file(self.retired, name)

    def send_retired(self, kept: Path, head: bool) -> None:
        try:
            body = kept.read_bytes()
        except OSError:   # deleted meanwhile
            self.not_found(self.state.outcome, head)
            return
        self.respond(HTTPStatus.OK, kept.suffix, body, head)

    def not_found(self, outcome: Outcome, head: bool) -> None:
        """The site's own 404.html, with status 404 (a short page while there is none)."""
        try:
            body = inject((self.site / "404.html").read_bytes(), outcome)
        except OSError:
            body = status_page("404 Not Found", outcome)
        self.respond(HTTPStatus.NOT_FOUND, ".html", body, head)

    def resolve(self, path: str) -> Path | None:
        """The file a URL path names inside site/, or None if it would leave site/."""
        parts = [part for part in unquote(path).split("/") if part]
        if any(part in (".", "..") or "\\" in part or "\0" in part for part in parts):
            return None
        site = self.site.resolve()
        if len(parts) > PATH_PARTS_AT_MOST:
            raise ValueError("a path deeper than any site's")
        target = site.joinpath(*parts).resolve()
        return target if target == site or target.is_relative_to(site) else None

    def send_file(self, target: Path, outcome: Outcome, head: bool) -> None:
        try:
            body = target.read_bytes()
        except OSError:
            self.not_found(outcome, head)
            return
        page = target.relative_to(self.site.resolve()).as_posix()
        if is_published_file(page):
            # A file copied from an article's folder, not written by the build: it gets
            # nothing of serve's (no editor token) and, as a document, runs in a sandbox of
            # its own origin, so that a script in it can neither read serve's pages nor
            # post to the editors.
            self.respond(HTTPStatus.OK, target.suffix, body, head, SANDBOX)
            return
        if target.suffix == ".html":
            body = inject(body, outcome, self.extensions.page_snippet(page, self.headers))
        self.respond(HTTPStatus.OK, target.suffix, body, head)
        if target.suffix == ".html":
            self.state.fetched(page)

    def post(self) -> None:
        """A POST is answered by the route of its prefix (extensions.py), with a JSON body
        of at most the route's size."""
        path = urlsplit(self.path).path
        length = self.headers.get("Content-Length", "")
        route = self.extensions.route(path)
        wanted = self.close_connection   # whether the client asked to close (HTTP/1.0, …)
        self.close_connection = True   # unless the body is read
        if route is None:
            status, answer = HTTPStatus.NOT_FOUND, {"ok": False, "message": "not found"}
        elif not (length.isascii() and length.isdigit()):   # not "²", "١", "-1", "1e3"
            status, answer = HTTPStatus.LENGTH_REQUIRED, {"ok": False,
                                                          "message": "Content-Length needed"}
        elif int(length) > route.max_body:
            # Read what was sent (up to a bound) before answering: closing on an unread body
            # resets the connection, and the client would see a broken pipe, not this answer.
            self.discard(min(int(length), DISCARD_AT_MOST))
            status, answer = HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {
                "ok": False, "message": f"the body is larger than {route.max_body} bytes"}
        elif (body := self.body(int(length))) is None:
            status, answer = HTTPStatus.REQUEST_TIMEOUT, {
                "ok": False, "message": f"the body did not come within {BODY_WAIT:g} s"}
        else:
            self.close_connection = wanted
            status, answer = route.handle(path, self.headers, body)
        self.respond(status, ".json", json.dumps(answer, ensure_ascii=False).encode(), False)

    def body(self, length: int) -> bytes | None:
        """The request's body, None when the client stops sending it before its end."""
        self.connection.settimeout(BODY_WAIT)
        try:
            data = self.rfile.read(length)
        except OSError:   # (TimeoutError included)
            return None
        self.connection.settimeout(self.timeout)
        return data if len(data) == length else None

    def discard(self, length: int) -> None:
        """Read and drop up to `length` bytes of the body, or what the client sends before it
        stops sending for a moment (it may have declared more than it sends)."""
        self.connection.settimeout(DISCARD_WAIT)
        try:
            while length > 0:
                chunk = self.rfile.read1(min(length, 1 << 16))
                if not chunk:
                    return
                length -= len(chunk)
        except OSError:   # (TimeoutError included) the answer is sent all the same
            return

    def respond(self, status: HTTPStatus, suffix: str, body: bytes, head: bool,
                headers: dict[str, str] | None = None) -> None:
        kind = TEXT_TYPES.get(suffix)
        kind = f"{kind}; charset=utf-8" if kind else (
            mimetypes.guess_type(f"x{suffix}")[0] or "application/octet-stream")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def stream_events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = None
        page = parse_qs(urlsplit(self.path).query).get("page", [""])[0]
        if page:
            self.state.opened(id(self), page)
        try:
            self.wfile.write(b"retry: 500\n\n")
            while not self.state.stopping:
                outcome = self.state.wait(seen, timeout=15)
                if outcome is None:
                    self.wfile.write(b": still here\n\n")
                else:
                    data = json.dumps(outcome.as_json(), ensure_ascii=False)
                    self.wfile.write(f"data: {data}\n\n".encode())
                    seen = outcome.version
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page was closed or reloaded
        finally:
            self.state.closed(id(self))

