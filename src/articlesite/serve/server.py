"""The server process of `python build.py serve`: build, serve site/ over HTTP, rebuild
on every save.

It is started (and started again after a change to the package's code) by the
supervisor (supervisor.py), which holds the listening socket: this process serves on it.
The builder (the main thread) rebuilds the site when the watcher thread reports a
file under content/, figures/ or templates/ changed, rendering again only the pages
whose inputs changed (the build cache); a build still making its search index when
another save comes is given up and done again with it. Request threads serve files
from site/ only; a missing one gets the site's 404.html with status 404, as static hosts
do. HTML responses get live.js, which follows the build events (Server-Sent Events at
EVENTS): open pages reload after a good build and show an overlay of the problems after
a failed one; a build whose pages are in place lets the open pages it changed fetch them
before it goes on (an edited article's page, before the indexes that list it). Nothing of
this is ever written into site/.
"""

from __future__ import annotations

import faulthandler
import gc
import json
import logging
import mimetypes
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, unquote, urlsplit

from ..problems import Problem, warning_lines

if TYPE_CHECKING:
    from ..translate.editor import Editor

EVENTS = "/__articlesite/events"
STATUS = "/__articlesite/status"
# Seconds a build waits, once its pages are in place, for the open pages it told to reload
# to fetch them (BuildState.settle), before it goes on.
RELOADS_SERVED_WITHIN = 0.1
STUCK_AFTER = 10.0  # seconds after SIGTERM: a stop that takes longer is reported and ended
DISCARD_AT_MOST = 16 << 20  # bytes of an oversized body read before answering 413
PACKAGE = Path(__file__).resolve().parent.parent  # articlesite/
LIVE_JS = files("articlesite.serve") / "live.js"
TEXT_TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript",
              ".json": "application/json", ".svg": "image/svg+xml", ".txt": "text/plain",
              ".xml": "application/xml"}


@dataclass(frozen=True)
class Outcome:
    """One build's result, as the pages see it: with `changed`, the only pages of site/
    that differ from the `previous` version (None: any may)."""

    version: str
    ok: bool
    problems: tuple[dict, ...] = ()
    changed: tuple[str, ...] | None = None
    previous: str = ""

    def as_json(self) -> dict:
        return {"version": self.version, "ok": self.ok, "problems": list(self.problems),
                "overlay": "" if self.ok else overlay(self.problems),
                "changed": None if self.changed is None else list(self.changed),
                "previous": self.previous}


class BuildState:
    """The last build's outcome, shared by the watcher and every request thread, and the
    recent ones: a page that missed some (two published while it was told of one) is
    told what changed since the version it has, not only since the one before last."""

    KEPT = 64

    def __init__(self) -> None:
        self._token = f"{os.getpid()}-{time.time_ns()}"  # differs after a restart
        self._count = 0
        self._changed = threading.Condition()
        self.outcome = Outcome(f"{self._token}-0", False)
        self._recent: list[Outcome] = [self.outcome]
        self.stopping = False
        self._open: dict[int, str] = {}   # each open page's event stream: the page's path
        self._due: set[str] = set()       # open pages a good build told to reload

    def publish(self, ok: bool, problems: list[dict],
                changed: list[str] | None = None) -> None:
        with self._changed:
            self._count += 1
            self.outcome = Outcome(f"{self._token}-{self._count}", ok, tuple(problems),
                                   None if changed is None else tuple(changed),
                                   self.outcome.version)
            self._recent = [*self._recent[-self.KEPT:], self.outcome]
            if ok:
                self._due = {page for page in self._open.values()
                             if changed is None or page in changed}
            self._changed.notify_all()

    # An open page told to reload fetches itself again at once; a build going on in this
    # process (the indexes after an edited article) would slow that request down several
    # times over, so the builder lets those reloads be served first (settle).
    def opened(self, stream: int, page: str) -> None:
        with self._changed:
            self._open[stream] = page

    def closed(self, stream: int) -> None:
        with self._changed:
            page = self._open.pop(stream, None)
            if page in self._due and page not in self._open.values():
                self._due.discard(page)   # closed, or reloaded without being fetched
                self._changed.notify_all()

    def fetched(self, page: str) -> None:
        with self._changed:
            if page in self._due:
                self._due.discard(page)
                self._changed.notify_all()

    def settle(self, timeout: float) -> bool:
        """Wait until every open page told to reload by the last good build has been
        fetched again, for at most `timeout` s (a page may hold its reload: the editor);
        whether they all were."""
        with self._changed:
            return self._changed.wait_for(lambda: self.stopping or not self._due, timeout)

    def wait(self, seen: str | None, timeout: float) -> Outcome | None:
        """The outcome once it differs from version `seen`, with every page changed since
        `seen` when the versions between are known; None after `timeout` s."""
        with self._changed:
            self._changed.wait_for(lambda: self.stopping or self.outcome.version != seen,
                                   timeout)
            if self.stopping or self.outcome.version == seen:
                return None
            versions = [outcome.version for outcome in self._recent]
            if seen not in versions:
                return self.outcome
            since = self._recent[versions.index(seen) + 1:]
            changed = None if any(o.changed is None for o in since) else tuple(
                sorted({path for outcome in since for path in outcome.changed or ()}))
            return replace(self.outcome, changed=changed, previous=seen)

    def stop(self) -> None:
        with self._changed:
            self.stopping = True
            self._changed.notify_all()


def overlay(problems: tuple[dict, ...]) -> str:
    """The error overlay, as HTML with every source text escaped."""
    items = "".join(
        f'<li style="margin:0 0 10px"><b>{escape(p["where"])}</b> {escape(p["message"])}'
        + "".join(f' <span style="opacity:.75">[{name} {escape(p[name])}]</span>'
                  for name in ("key", "language") if p.get(name))
        + "</li>" for p in problems)
    count = len(problems)
    return (
        '<div id="articlesite-overlay" role="alert" style="position:fixed;inset:0;'
        "z-index:2147483647;overflow:auto;margin:0;padding:24px 28px;background:#1d1f1e;"
        'color:#f3f1ea;font:15px/1.55 ui-monospace,Menlo,Consolas,monospace;text-align:left">'
        f'<p style="margin:0 0 6px;font-size:20px;color:#ff9c85">Build failed: {count} '
        f"problem{'s' if count != 1 else ''}</p>"
        '<p style="margin:0 0 16px;opacity:.8">site/ still holds the last good build. Fix '
        "the sources and save: this page reloads by itself.</p>"
        f'<ol style="margin:0;padding-left:1.6em">{items}</ol></div>')


def problem_entries(problems) -> list[dict]:
    return [{"where": p.file if p.line is None else f"{p.file}:{p.line}", "file": p.file,
             "line": p.line, "message": p.message, "key": p.key, "language": p.language}
            for p in problems]


class Changes:
    """The paths saved since the builder last took them: the watcher thread adds them, the
    builder (the main thread) takes them all at once."""

    def __init__(self) -> None:
        self._paths: set[Path] = set()
        self._added = threading.Condition()
        self._ended = False

    def add(self, paths: list[Path]) -> None:
        with self._added:
            self._paths.update(paths)
            self._added.notify()

    def end(self) -> None:
        """Watching has ended: the builder stops too."""
        with self._added:
            self._ended = True
            self._added.notify()

    def pending(self) -> bool:
        """Whether a save waits (the build running is then given up: see Builder.run)."""
        return bool(self._paths)

    def take(self) -> list[Path] | None:
        """Every path saved since the last call, once there is one; None once watching ended."""
        with self._added:
            self._added.wait_for(lambda: self._paths or self._ended)
            if self._ended:
                return None
            paths, self._paths = sorted(self._paths), set()
            return paths


class Builder:
    """Rebuilds the site with the package's current code: only the pages whose inputs
    changed are rendered again (the build cache), the first build ignores the cache with
    `clean`."""

    def __init__(self, root: Path, state: BuildState, clean: bool = False,
                 drafts: bool = True):
        self.root, self.state, self.clean = root.resolve(), state, clean
        self.drafts = drafts  # serve shows drafts (marked as such) unless --no-drafts
        self.cache = None  # the last good build's cache and summary, kept in memory for
        self.last = None   # the next build
        self.building = False
        # What builds given up (Interrupted) left: the paths they were to build, built
        # again with the next change, and the pages they put in place (see rebuild).
        self.carried: set[Path] = set()
        self.unsettled: set[str] = set()

    def run(self, paths: list[Path] | None = None,
            interrupt: Callable[[], bool] | None = None) -> None:
        """Build again after `paths` changed (None: the first build), on top of the last
        good build: only what the change touches is read and rendered again. When
        `interrupt()` turns true while the search index is made, the build is given up
        (its pages stay in place) and its paths are built again with the next change."""
        self.building = True
        try:
            self.rebuild(paths, interrupt)
        finally:
            self.building = False

    def rebuild(self, paths: list[Path] | None,
                interrupt: Callable[[], bool] | None) -> None:
        clean, self.clean = self.clean, False
        if paths is not None:
            paths = sorted(self.carried.union(paths))
        reason = f": {changed_names(paths, self.root)} changed" if paths else ""
        placed: set[str] = set()
        try:
            # Imported here: an error in the package's code then shows in the overlay
            # (the supervisor starts this process again when the code is saved).
            from ..build import build, place_pages, warm_up
            from ..cache import Cache as cache_class
            from ..problems import BuildError as build_error
            from ..problems import Interrupted as interrupted

            def written(changed: list[str] | None = None) -> None:
                placed.update(changed or ())
                self.state.publish(True, [], changed)
                self.state.settle(RELOADS_SERVED_WITHIN)

            if self.last is None or not paths:
                gc.unfreeze()  # what earlier builds left may be collected again
            cache = cache_class(self.root, clean=clean, after=self.cache)
            try:
                built = build(self.root, clean=clean, cache=cache, written=written,
                              drafts=self.drafts, previous=self.last, changed=paths,
                              interrupt=interrupt)
            except interrupted:
                # The last good build stays the base: the next one renders these paths
                # again, from their newest sources, and makes the index.
                self.carried, self.unsettled = set(paths or ()), self.unsettled | placed
                print("Search index interrupted by a new change; building again.",
                      flush=True)
                return
            except build_error as error:
                self.last, self.carried = None, set()
                self.fail(error.problems)
                return
            self.carried = set()
            if not built.incremental:
                gc.unfreeze()  # what the previous build kept may be collected now
                gc.collect()
                warm_up(built)
            self.cache, self.last = cache, built
            # A page a given-up build put in place that this one did not render (its edit
            # was undone, say) is put back as this build has it.
            if built.incremental:
                pages = cache.saved[0]
                place_pages(built.out, {path: pages[path] for path in
                                        sorted(self.unsettled - set(built.rendered))
                                        if path in pages}, cache.store, written)
            self.unsettled = set()
            # The collector need not walk what this build keeps (at N=1000, a collection of
            # it takes some 80 ms: a quick rebuild would wait for it).
            gc.freeze()
        except Exception as exc:  # noqa: BLE001 - a bug or syntax error in the package: keep serving
            self.last = None  # the next build is a full one
            traceback.print_exc()
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            self.fail([Problem(getattr(exc, "filename", None) or frame.filename,
                               getattr(exc, "lineno", None) or frame.lineno,
                               f"{type(exc).__name__}: {exc}")])
            return
        print(f"{built.summary()}{reason}.", flush=True)
        for line in warning_lines(built.warnings):
            print(line, flush=True)

    def fail(self, problems) -> None:
        count = len(problems)
        print(f"Build failed: {count} problem{'s' if count != 1 else ''}; site/ keeps the "
              "last good build, open pages show the problems.", flush=True)
        for problem in problems:
            print(f"  {problem}", flush=True)
        self.state.publish(False, problem_entries(problems))


class Handler(BaseHTTPRequestHandler):
    """Serves files inside site/ only, with the live-reload script added to HTML."""

    server_version = "articlesite"
    site: Path
    state: BuildState
    editor: Editor   # the translator's view's (translate/editor.py)

    def log_message(self, format: str, *args) -> None:
        pass  # quiet: the terminal shows builds, not requests

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def do_GET(self, head: bool = False) -> None:
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
        target = self.resolve(path)
        if target is None:
            self.respond(HTTPStatus.FORBIDDEN, ".html", self.page(
                "403 Forbidden: only files inside site/ are served", outcome), head)
        elif target.is_dir() and not path.endswith("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif target.is_dir() and (target / "index.html").is_file():
            self.send_file(target / "index.html", outcome, head)
        elif target.is_file():
            self.send_file(target, outcome, head)
        else:
            self.not_found(outcome, head)

    def not_found(self, outcome: Outcome, head: bool) -> None:
        """The site's own 404.html, with status 404 (a short page while there is none)."""
        try:
            body = inject((self.site / "404.html").read_bytes(), outcome)
        except OSError:
            body = self.page("404 Not Found", outcome)
        self.respond(HTTPStatus.NOT_FOUND, ".html", body, head)

    def resolve(self, path: str) -> Path | None:
        """The file a URL path names inside site/, or None if it would leave site/."""
        parts = [part for part in unquote(path).split("/") if part]
        if any(part in (".", "..") or "\\" in part or "\0" in part for part in parts):
            return None
        site = self.site.resolve()
        target = site.joinpath(*parts).resolve()
        return target if target == site or target.is_relative_to(site) else None

    def send_file(self, target: Path, outcome: Outcome, head: bool) -> None:
        try:
            body = target.read_bytes()
        except OSError:
            self.not_found(outcome, head)
            return
        if target.suffix == ".html":
            body = inject(body, outcome, self.extra(target))
        self.respond(HTTPStatus.OK, target.suffix, body, head)
        if target.suffix == ".html":
            self.state.fetched(target.relative_to(self.site.resolve()).as_posix())

    def extra(self, target: Path) -> str:
        """What else a page gets in serve: the marks of a language in progress; the
        translator's view, asked for by this server's name, becomes an editor."""
        from ..translate.editor import VIEW
        from ..translate.progress import serve_snippet, summary_on_disk

        path = target.relative_to(self.site.resolve()).as_posix()
        extra = serve_snippet(summary_on_disk(self.editor.root), path)
        if path == VIEW and self.headers.get("Host", "") in self.editor.hosts():
            extra += self.editor.snippet()
        return extra + self.figures.snippet(path, self.headers.get("Host", ""))

    def do_POST(self) -> None:
        """The translator's view's editor (translate/editor.py): nothing else is posted."""
        from ..figures.editor import PREFIX as FIGURES
        from ..translate.editor import MAX_BODY, PREFIX

        path = urlsplit(self.path).path
        length = self.headers.get("Content-Length", "")
        self.close_connection = True   # unless the body is read
        if not path.startswith((PREFIX, FIGURES)):
            status, answer = HTTPStatus.NOT_FOUND, {"ok": False, "message": "not found"}
        elif not length.isdigit():
            status, answer = HTTPStatus.LENGTH_REQUIRED, {"ok": False,
                                                          "message": "Content-Length needed"}
        elif int(length) > MAX_BODY:
            # Read what was sent (up to a bound) before answering: closing on an unread body
            # resets the connection, and the client would see a broken pipe, not this answer.
            self.discard(min(int(length), DISCARD_AT_MOST))
            status, answer = HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {
                "ok": False, "message": f"the body is larger than {MAX_BODY} bytes"}
        else:
            body = self.rfile.read(int(length))
            self.close_connection = False
            status, answer = (self.figures if path.startswith(FIGURES) else
                              self.editor).handle(path, self.headers, body)
        self.respond(status, ".json", json.dumps(answer, ensure_ascii=False).encode(), False)

    def discard(self, length: int) -> None:
        while length > 0:
            chunk = self.rfile.read(min(length, 1 << 16))
            if not chunk:
                return
            length -= len(chunk)

    @staticmethod
    def page(title: str, outcome: Outcome) -> bytes:
        """A small page for an error status; it reloads when a build succeeds."""
        return inject(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>'
                      f"{escape(title)}</title></head><body><p>{escape(title)}</p></body></html>"
                      .encode(), outcome)

    def respond(self, status: HTTPStatus, suffix: str, body: bytes, head: bool) -> None:
        kind = TEXT_TYPES.get(suffix)
        kind = f"{kind}; charset=utf-8" if kind else (
            mimetypes.guess_type(f"x{suffix}")[0] or "application/octet-stream")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
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


def inject(html: bytes, outcome: Outcome, extra: str = "") -> bytes:
    """The page with the live-reload script (and the overlay after a failed build, and
    `extra`) added before </body>."""
    settings = json.dumps({"version": outcome.version, "events": EVENTS})
    snippet = (extra + ("" if outcome.ok else overlay(outcome.problems))
               + f"<script>window.articlesiteLive={settings};\n{LIVE_JS.read_text('utf-8')}"
               "</script>")
    end = html.rfind(b"</body>")
    end = len(html) if end < 0 else end
    return html[:end] + snippet.encode() + html[end:]


# A save the watcher reports may still be under way: it reports once 5 ms pass without a
# new event, but keeps one event per file, so a file written in place over a longer time
# (the 4.6 MB dictionary of a thousand articles; the text being encoded between the
# truncation and the write) can be reported half written, and the quick rebuild then
# reads it so. A file as large as this, or empty, is reported once its size and time have
# stayed the same for SETTLED s (at most WRITE_AT_MOST s after the report).
LARGE_FILE = 256 << 10
SETTLED = 0.002
WRITE_AT_MOST = 0.2


def when_written(paths: list[Path]) -> list[Path]:
    """`paths`, once the large or empty files among them have stopped changing."""
    def state() -> list[tuple[int, int] | None]:
        found = []
        for path in paths:
            try:
                stat = path.stat()
                found.append((stat.st_size, stat.st_mtime_ns))
            except OSError:
                found.append(None)   # deleted, or renamed away
        return found

    seen, deadline = state(), time.monotonic() + WRITE_AT_MOST
    while any(s is not None and (s[0] == 0 or s[0] >= LARGE_FILE) for s in seen) and \
            time.monotonic() < deadline:
        time.sleep(SETTLED)
        now = state()
        if now == seen and all(s is None or s[0] > 0 for s in now):
            break
        seen = now
    return paths


def watched(root: Path) -> list[Path]:
    """What this process watches (the supervisor watches the package)."""
    return [p for p in (root / "content", root / "figures", root / "templates")
            if p.is_dir()]


def serve_site(listener: socket.socket, root: Path, host: str, *, clean: bool = False,
               drafts: bool = True, token: str | None = None, restarted: bool = False,
               parent: int | None = None) -> int:
    """Build, then serve site/ on `listener` (bound by the supervisor) and rebuild on every
    save until SIGTERM (which interrupts a build, as Ctrl-C would), or until the
    supervisor (process `parent`) is gone. `token` is the editor's secret, kept by the
    supervisor across restarts."""
    import watchfiles

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # Ctrl-C is not a warning
    from ..figures.editor import FigureEditor
    from ..translate.editor import Editor

    site = root / "site"
    state = BuildState()
    editor = Editor(root.resolve(), host) if token is None else Editor(root.resolve(), host,
                                                                      token=token)
    handler = type("SiteHandler", (Handler,), {"site": site, "state": state,
                                               "editor": editor,
                                               "figures": FigureEditor(editor)})
    server = ThreadingHTTPServer(listener.getsockname()[:2], handler,
                                 bind_and_activate=False)
    server.socket.close()
    server.socket, server.server_address = listener, listener.getsockname()
    server.server_port = editor.port = server.server_address[1]
    builder = Builder(root, state, clean, drafts)
    # While a build renders (an index of a thousand articles takes some 200 ms of Python),
    # a thread serving a page gets its turn within 0.1 ms rather than 5 ms: it waits for a
    # turn again after each read and write, and the reload of an edited article came
    # 15-30 ms after the build's event with 1 ms (N=1000), 6-9 ms with 0.1 ms.
    sys.setswitchinterval(0.0001)
    stop = threading.Event()

    def stop_now(*_) -> None:
        if not stop.is_set():
            stop.set()
            # Stopping takes well under a second. Should it not end, the log says where
            # it is stuck, and the process ends anyway.
            faulthandler.dump_traceback_later(STUCK_AFTER, exit=True)
            if builder.building:
                raise KeyboardInterrupt  # caught below: the last good site/ stays

    changes = Changes()

    def watch() -> None:
        """The watcher thread: hands each save to the builder (this process's main thread,
        where SIGTERM interrupts a build), even while it builds."""
        announced = False
        try:
            # The watcher reports "nothing" every 200 ms when idle: the first report says
            # it is watching, and only then is the server announced (a save before that is
            # seen). A save is reported once 5 ms pass without another change (with 2 ms,
            # more saves of a large file came in two reports; see when_written).
            for found in watchfiles.watch(*watched(root), stop_event=stop, debounce=400,
                                          step=5, raise_interrupt=False, rust_timeout=200,
                                          yield_on_timeout=True):
                if parent is not None and os.getppid() != parent:
                    break  # the supervisor was killed: nobody would stop this process
                if not announced:
                    if restarted:
                        print(f"Serving again, with the package's new code, at "
                              f"{address(host, server.server_address[1])}", flush=True)
                    else:
                        announce(site, host, server.server_address[1], root)
                    announced = True
                if found:
                    changes.add(when_written([Path(p) for _, p in found]))
        finally:
            changes.end()

    previous = signal.signal(signal.SIGTERM, stop_now)
    try:
        builder.run()
        threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
        threading.Thread(target=watch, name="watch", daemon=True).start()
        # Every save waiting is built at once; a build still making its search index when
        # another save comes is given up, and built again with it.
        while (paths := changes.take()) is not None:
            builder.run(paths, interrupt=changes.pending)
    except KeyboardInterrupt:
        pass  # stopped while building: as cleanly as while watching
    finally:
        stop.set()  # the watcher thread ends too
        signal.signal(signal.SIGTERM, previous)
        state.stop()
        server.shutdown()
        server.server_close()  # this process's handle: the supervisor keeps the socket
    return 0


def address(host: str, port: int) -> str:
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host
                                                         else host)
    return f"http://{shown}:{port}/"


def announce(site: Path, host: str, port: int, root: Path) -> None:
    print(f"Serving {site} at {address(host, port)}", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"Listening on {host}: anyone who can reach this machine can read the site, "
              "and edit figure texts in the translator's view.", flush=True)
    print(f"Translator's view and editor: {address(host, port)}translations.html",
          flush=True)
    print("Watching " + ", ".join(str(p) for p in (*watched(root), PACKAGE))
          + ". Ctrl-C stops.", flush=True)


def changed_names(paths: list[Path], root: Path) -> str:
    """What changed, for a message: the first three paths, and how many more."""
    names = ", ".join(shorten(p, root) for p in paths[:3])
    return names + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def shorten(path: Path, root: Path) -> str:
    for base in (root, PACKAGE.parent):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return str(path)
