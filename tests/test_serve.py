"""`python build.py serve` over real HTTP on a free port: pages are served with the
reload hook, nothing outside site/ is, a missing page gets the site's 404.html, edits show
up, a broken edit shows the overlay and a fix clears it, a change to the package's code
restarts the server process on the same port. No timing is asserted: a test waits for
the build events serve sends (as open pages do), or for a line of its output, each with a
generous deadline. On the small fixture site (tests/fixtures/sources: article `loop` in
en, zh and ja, its figure `steps` with the nodes `act` and `learn`), built without the
search index."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Self

import pytest
from conftest import REPO, TEXTS, edit, fixture_site, line_of, run_build, set_text

SLUG = "loop"
ARTICLE = f"ja/{SLUG}.html"
SOURCE = f"content/{SLUG}/ja.md"
TITLE = "学習ループ"  # the ja article's title
DEADLINE = 60.0  # seconds: generous, this is a limit, not a measurement
# The command line as the `articlesite` script runs it (build.py would put the
# repository's package first on sys.path).
RUN_CLI = "import sys; from articlesite.cli import main; sys.exit(main(sys.argv[1:]))"


def poll(what, deadline: float = DEADLINE):
    """The first truthy value of what(), retried until the deadline."""
    end = time.monotonic() + deadline
    while True:
        value = what()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.1)


class Server:
    def __init__(self, root: Path, *args: str, command: list[str] | None = None,
                 env: dict | None = None):
        self.root, self.log = root, root / "serve.log"
        command = command or [sys.executable, str(REPO / "build.py")]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [*command, "--root", str(root), "serve", *args],
                stdout=out, stderr=subprocess.STDOUT, env=env)
        found = poll(lambda: self.process.poll() is not None or re.search(
            r"at http://([\d.]+):(\d+)/", self.output()))
        assert isinstance(found, re.Match), self.output()
        self.host, self.port = found.group(1), int(found.group(2))

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str) -> tuple[int, dict, str]:
        """GET a raw path (not normalised by any client library)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read().decode(errors="replace")
            return response.status, dict(response.getheaders()), body
        finally:
            connection.close()

    def status(self) -> dict:
        return json.loads(self.get("/__articlesite/status")[2])

    def events(self) -> Events:
        return Events(self)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_) -> None:
        """Whatever the test did: a server process still running is killed."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve did not stop; its log:\n{self.output()}") from None


class Events:
    """serve's build events, read as an open page's EventSource reads them (reconnecting
    when the server process is restarted). Opening it reads the current outcome."""

    def __init__(self, server: Server):
        self.server, self.connection, self.response = server, None, None
        self.last = self.next()

    def next(self, deadline: float = DEADLINE) -> dict:
        """The next outcome that serve sends."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            try:
                if self.response is None:
                    self.connect()
                line = self.response.readline()
            except (OSError, http.client.HTTPException):
                line = b""
            if not line:  # the server process stopped: connect again, as a page does
                self.close()
                time.sleep(0.1)
                continue
            if line.startswith(b"data: "):
                self.last = json.loads(line[len(b"data: "):])
                return self.last
        raise AssertionError(f"no build event within {deadline} s:\n{self.server.output()}")

    def until(self, predicate) -> dict:
        """The first outcome from now on for which predicate(outcome) holds."""
        while not predicate(outcome := self.next()):
            pass
        return outcome

    def connect(self) -> None:
        self.connection = http.client.HTTPConnection(self.server.host, self.server.port,
                                                     timeout=DEADLINE)
        self.connection.request("GET", "/__articlesite/events")
        self.response = self.connection.getresponse()

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
        self.connection = self.response = None


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the fixture site to serve and edit."""
    return fixture_site("sources", tmp_path / "project")


@pytest.fixture
def server(root: Path):
    with Server(root, "--port", "0") as running:
        yield running


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory):
    """One server for the tests that change no source (each start builds the site in a
    new process: some 1 s of CPU): what they add to site/ they take away."""
    root = fixture_site("sources", tmp_path_factory.mktemp("serve") / "project")
    with Server(root, "--port", "0") as running:
        yield running


def pages_built(server: Server) -> int:
    """How many pages the first build wrote (its summary line in serve's output)."""
    return int(re.search(r"^Built (\d+) pages", server.output(), re.MULTILINE).group(1))


def test_serves_pages_on_localhost_with_the_reload_hook_only_in_responses(unchanged: Server):
    server = unchanged
    assert server.host == "127.0.0.1"
    status, headers, body = server.get(f"/{ARTICLE}")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert TITLE in body and "articlesiteLive" in body and "EventSource" in body
    on_disk = (server.root / "site" / ARTICLE).read_text(encoding="utf-8")
    assert "articlesiteLive" not in on_disk and "EventSource" not in on_disk
    assert server.get("/")[0] == 200
    status, headers, _ = server.get("/ja")
    assert (status, headers["Location"]) == (301, "/ja/")
    assert server.get("/ja/")[0] == 200


def test_a_missing_page_gets_the_sites_404_page(unchanged: Server):
    server = unchanged
    not_found = (server.root / "site" / "404.html").read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", not_found).group(1)
    for path in ("/ja/no-such-page.html", "/no-such-folder/", "/en/x/y.png"):
        status, headers, body = server.get(path)
        assert (status, headers["Content-Type"]) == (404, "text/html; charset=utf-8"), path
        assert f"<title>{title}</title>" in body and "articlesiteLive" in body
        assert 'href="/ja/index.html"' in body  # links to every language's index, from
        # the root (the page is served at any depth)
    (server.root / "site" / "404.html").unlink()  # (a build always writes it)
    try:
        status, _, body = server.get("/ja/no-such-page.html")
        assert status == 404 and "404 Not Found" in body
    finally:
        (server.root / "site" / "404.html").write_text(not_found, encoding="utf-8")


def test_content_types(unchanged: Server, tmp_path: Path):
    site = unchanged.root / "site" / tmp_path.name   # a folder of this test's own
    site.mkdir()
    for name, data in (("style.css", b"p{}"), ("app.js", b"1"), ("data.json", b"{}"),
                       ("image.png", b"\x89PNG"), ("image.svg", b"<svg/>")):
        (site / name).write_bytes(data)
    types = {name: unchanged.get(f"/{site.name}/{name}")[1]["Content-Type"] for name in
             ("style.css", "app.js", "data.json", "image.png", "image.svg")}
    shutil.rmtree(site)
    assert types == {"style.css": "text/css; charset=utf-8",
                     "app.js": "text/javascript; charset=utf-8",
                     "data.json": "application/json; charset=utf-8",
                     "image.png": "image/png", "image.svg": "image/svg+xml; charset=utf-8"}


@pytest.mark.parametrize("path", [
    "/../content/site.yaml", "/%2e%2e/content/site.yaml", "/ja/../../build.py",
    "/..%2fcontent%2fsite.yaml", "/leak.yaml",
])
def test_refuses_paths_outside_site(unchanged: Server, path: str):
    leak = unchanged.root / "site" / "leak.yaml"
    leak.symlink_to(unchanged.root / "content" / "site.yaml")
    try:
        status, _, body = unchanged.get(path)
    finally:
        leak.unlink()
    assert status == 403, (status, body)
    assert "default_language" not in body


def test_dictionary_edit_shows_up_in_the_served_page(server: Server):
    events = server.events()
    set_text(server.root, "act", "ja", "行動（改訂版）")
    outcome = events.next()
    assert outcome["ok"] and ARTICLE in outcome["changed"], outcome
    assert "行動（改訂版）" in server.get(f"/{ARTICLE}")[2]


def test_an_article_edit_renders_only_its_page(server: Server):
    # (An edit that keeps the length: one that changes it renders the ja index too, which
    # shows the article's length.)
    events = server.events()
    edit(server.root, SOURCE, "## 収集 {#collect}", "## 採集 {#collect}")
    assert events.next()["changed"] == [ARTICLE]
    assert "採集" in server.get(f"/{ARTICLE}")[2]
    others = pages_built(server) - 1
    assert poll(lambda: f"(1 rendered, {others} unchanged): {SOURCE} changed"
                in server.output()), server.output()


def test_broken_edit_shows_the_overlay_and_a_fix_clears_it(server: Server):
    events = server.events()
    set_text(server.root, "act", "ja", None)
    problem, = events.until(lambda outcome: not outcome["ok"])["problems"]
    line = line_of(server.root, TEXTS, '"act":')
    assert (problem["file"], problem["line"], problem["key"], problem["language"]) == (
        TEXTS, line, "act", "ja")
    _, _, body = server.get(f"/{ARTICLE}")
    assert 'id="articlesite-overlay"' in body
    assert f"<b>{TEXTS}:{line}</b> translation missing for language &#x27;ja&#x27;" in body
    assert "[key act]" in body and "[language ja]" in body
    assert TITLE in body  # the last good page is still there, under the overlay

    edit(server.root, TEXTS, '"act": {', '"act" {')  # worse: invalid JSON
    assert events.next()["problems"][0]["message"].startswith("invalid JSON")
    edit(server.root, TEXTS, '"act" {', '"act": {')
    set_text(server.root, "act", "ja", "行動")
    events.until(lambda outcome: outcome["ok"])
    assert 'id="articlesite-overlay"' not in server.get(f"/{ARTICLE}")[2]
    assert server.process.poll() is None


def test_stops_cleanly_on_ctrl_c(server: Server):
    assert server.stop() == 0
    assert server.output().rstrip().endswith("Stopped.")
    assert "Traceback" not in server.output()
    with pytest.raises(ConnectionRefusedError):  # the server process is gone with it
        server.get("/")


def test_stops_on_ctrl_c_even_started_with_it_ignored(root: Path):
    """A command run in the background by a script (`serve &`) starts with SIGINT
    ignored, so Python raises no KeyboardInterrupt: serve must still stop on it (a
    server left running this way kept rebuilding for an hour)."""
    ignoring = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
                "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
    with Server(root, "--port", "0",
                command=[sys.executable, "-c", ignoring, str(REPO / "build.py")]) as running:
        assert running.stop() == 0
        assert "Stopped." in running.output()


def test_a_code_change_restarts_the_server_on_the_same_port(root: Path, tmp_path: Path,
                                                              chromium):
    """serve runs the package from a copy here, so that the test can change its code."""
    package = tmp_path / "package"
    shutil.copytree(REPO / "src" / "articlesite", package / "articlesite",
                    ignore=shutil.ignore_patterns("__pycache__"))
    environment = dict(os.environ, PYTHONPATH=str(package))
    with Server(root, "--port", "0", env=environment,
                command=[sys.executable, "-c", RUN_CLI]) as running:
        events = running.events()
        assert running.get("/")[1]["Server"].startswith("articlesite ")
        token = editor_token(running)
        page = chromium.new_page()
        origin = f"http://{running.host}:{running.port}/"
        page.route("**/*", lambda route: route.continue_()
                   if route.request.url.startswith(origin) else route.abort())
        page.goto(f"{origin}{ARTICLE}")
        page.evaluate("window.sentinel = 1")  # gone when the page reloads

        source = package / "articlesite" / "serve" / "handler.py"
        text = source.read_text(encoding="utf-8")
        assert 'server_version = "articlesite"' in text
        source.write_text(text.replace('server_version = "articlesite"',
                                       'server_version = "articlesite-changed"'))
        process = events.last["version"].split("-")[0]
        outcome = events.until(lambda outcome: outcome["version"].split("-")[0] != process)
        assert outcome["ok"], outcome
        assert running.get("/")[1]["Server"].startswith("articlesite-changed ")
        assert "serve/handler.py changed: restarting with the new code." in running.output()
        page.wait_for_function("window.sentinel === undefined", timeout=DEADLINE * 1000)
        assert TITLE in page.text_content("body")
        assert editor_token(running) == token  # an open editor can still save
        assert running.stop() == 0
        assert "Traceback" not in running.output()


def editor_token(server: Server) -> str:
    return re.search(r'"token": "([^"]+)"', server.get("/translations.html")[2]).group(1)


def test_a_busy_port_is_a_clear_error(unchanged: Server):
    server = unchanged
    result = run_build(server.root, "serve", "--port", str(server.port))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{server.port}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def long_server(root: Path):
    """The fixture site served with its ja article made long enough to scroll 3000 px
    (the fixture's fits on one screen)."""
    path = root / SOURCE
    filler = "".join(f"\n段落 {n}。" + "方策が行動し、環境が応え、価値の推定が改まる。" * 8 + "\n"
                     for n in range(60))
    path.write_text(path.read_text(encoding="utf-8") + filler, encoding="utf-8")
    with Server(root, "--port", "0") as running:
        yield running


def test_open_page_reloads_at_its_scroll_position_and_shows_the_overlay(long_server,
                                                                        chromium):
    server = long_server
    page = chromium.new_page(viewport={"width": 1200, "height": 800})
    origin = f"http://{server.host}:{server.port}/"
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(origin)
               else route.abort())
    page.goto(origin + ARTICLE)
    # Without the browser's own restoration of the position on reload (it would hide a
    # live.js that restores none): the setting holds for this page's history entry.
    page.evaluate("history.scrollRestoration = 'manual'")
    page.evaluate("window.scrollTo({top: 3000, behavior: 'instant'})")
    page.wait_for_function("window.scrollY > 2900")

    set_text(server.root, "act", "ja", "行動（改訂版）")
    # The reloaded page restores its scroll position in a script at the end of <body>.
    page.wait_for_function("document.readyState === 'complete' && "
                           "document.body?.textContent.includes('行動（改訂版）')",
                           timeout=DEADLINE * 1000)
    assert abs(page.evaluate("window.scrollY") - 3000) < 5

    set_text(server.root, "act", "ja", None)
    overlay = page.locator("#articlesite-overlay")
    overlay.wait_for(state="visible", timeout=DEADLINE * 1000)
    line = line_of(server.root, TEXTS, '"act":')
    assert f"{TEXTS}:{line}" in overlay.inner_text()

    set_text(server.root, "act", "ja", "行動（再改訂）")
    overlay.wait_for(state="detached", timeout=DEADLINE * 1000)
    page.wait_for_function("document.body?.textContent.includes('行動（再改訂）')",
                           timeout=DEADLINE * 1000)


def test_a_page_reloads_only_when_it_changed(server, chromium):
    """After a quick rebuild an open page reloads only if the build changed it: an edit to
    the ja body leaves the en page be, and a dictionary edit reloads the ja page once (not
    again when the translator's view is written after it)."""
    origin = f"http://{server.host}:{server.port}/"
    pages = {}
    for code in ("en", "ja"):
        page = pages[code] = chromium.new_page()
        page.route("**/*", lambda route: route.continue_()
                   if route.request.url.startswith(origin) else route.abort())
        page.goto(f"{origin}{code}/{SLUG}.html")
        page.evaluate("window.sentinel = 1")  # gone when the page reloads

    def built(count: int) -> bool:
        return server.output().count("\nBuilt ") >= count

    before = server.output().count("\nBuilt ")
    edit(server.root, SOURCE, "## 収集 {#collect}", "## 収集（改訂） {#collect}")
    pages["ja"].wait_for_function("document.body?.textContent.includes('収集（改訂）')",
                                  timeout=DEADLINE * 1000)
    assert poll(lambda: built(before + 1)), server.output()
    seen_by(pages["en"], server.status()["version"])
    assert pages["en"].evaluate("window.sentinel") == 1

    pages["ja"].wait_for_load_state("load")
    pages["ja"].evaluate("window.sentinel = 2")
    set_text(server.root, "act", "ja", "行動（改訂版）")
    pages["ja"].wait_for_function("document.body?.textContent.includes('行動（改訂版）')",
                                  timeout=DEADLINE * 1000)
    pages["ja"].evaluate("window.sentinel = 3")
    assert poll(lambda: built(before + 2)), server.output()
    version = server.status()["version"]
    seen_by(pages["ja"], version)
    seen_by(pages["en"], version)
    assert pages["ja"].evaluate("window.sentinel") == 3
    assert pages["en"].evaluate("window.sentinel") == 1


def seen_by(page, version: str) -> None:
    """Wait until the open page has handled the build event of `version` (live.js notes
    the version of each event it handles without reloading; a reloaded page is sent it)."""
    page.wait_for_function(f"window.articlesiteLive?.version === {json.dumps(version)}",
                           timeout=DEADLINE * 1000)



def test_a_page_that_missed_a_build_is_told_every_page_changed_since():
    from articlesite.serve.outcome import BuildState

    state = BuildState()
    state.publish(True, [])
    seen = state.outcome.version
    state.publish(True, [], ["ja/a.html"])   # two builds while the page was told of none
    state.publish(True, [], ["translations.html"])
    told = state.wait(seen, timeout=0)
    assert (told.previous, told.changed) == (seen, ("ja/a.html", "translations.html"))
    state.publish(False, [{"message": "x"}])  # a failed build: any page may change
    assert state.wait(seen, timeout=0).changed is None
    assert state.wait("an unknown version", timeout=0).previous == told.version


def test_a_build_goes_on_once_the_open_pages_it_told_to_reload_fetched_them():
    from articlesite.serve.outcome import BuildState

    state = BuildState()
    state.opened(1, "ja/a.html")
    state.opened(2, "en/b.html")
    state.publish(True, [], ["ja/a.html"])
    assert not state.settle(0)           # ja/a.html is open, told to reload, not fetched
    state.fetched("en/b.html")           # not told to reload: not waited for
    assert not state.settle(0)
    state.fetched("ja/a.html")
    assert state.settle(0)
    state.publish(True, [])              # every page may have changed: both reload
    state.fetched("en/b.html")
    assert not state.settle(0)
    state.closed(1)                      # a page closed before it fetched is not waited for
    assert state.settle(0)
    state.publish(True, [], ["zh/c.html"])   # no open page changed
    assert state.settle(0)


def test_serving_an_open_page_again_is_what_the_build_waits_for(tmp_path: Path):
    """The server names a fetched page as the build events do (its path in site/, an
    index page by its index.html)."""
    from http.server import ThreadingHTTPServer

    from articlesite.serve.extensions import Extensions
    from articlesite.serve.handler import Handler
    from articlesite.serve.outcome import BuildState

    site = tmp_path / "site"
    (site / "ja").mkdir(parents=True)
    for page in ("ja/a.html", "ja/index.html"):
        (site / page).write_text("<!DOCTYPE html><html><body><p>x</p></body></html>")
    state = BuildState()
    handler = type("SiteHandler", (Handler,), {"site": site, "state": state,
                                               "extensions": Extensions()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        state.opened(1, "ja/a.html")
        state.opened(2, "ja/index.html")
        state.publish(True, [])
        urllib.request.urlopen(f"{base}/ja/a.html", timeout=30).read()
        assert not state.settle(0)
        urllib.request.urlopen(f"{base}/ja/", timeout=30).read()
        assert state.settle(30)   # marked once the answer is sent: maybe after it is read
    finally:
        server.shutdown()
        server.server_close()


def test_a_large_or_empty_file_is_reported_once_written(tmp_path: Path, monkeypatch):
    """A save reported while the file is still written in place (the watcher keeps one
    event per file) is handed to the build only once the file stops changing."""
    from articlesite.serve import written as serve_server

    large, empty, small = (tmp_path / name for name in ("texts.json", "empty.md", "a.md"))
    large.write_bytes(b'{"a": "' + b"x" * serve_server.LARGE_FILE)   # half written
    empty.write_bytes(b"")                                            # just truncated
    small.write_text("# A\n")
    # What the writer does while the watcher waits, one step per wait (None: nothing).
    writes = [(large, b"x" * 1000), (large, b'"}\n'), None, None, (empty, b"# B\n")]

    def sleep(seconds: float) -> None:
        step = writes.pop(0) if writes else None
        if step is not None:
            with step[0].open("ab") as file:
                file.write(step[1])

    monkeypatch.setattr(serve_server.time, "sleep", sleep)
    assert serve_server.when_written([large, empty, small]) == [large, empty, small]
    assert not writes
    assert large.read_bytes().endswith(b'"}\n') and empty.read_text() == "# B\n"

    def no_sleep(seconds: float) -> None:
        raise AssertionError("a small file that is written is not waited for")

    monkeypatch.setattr(serve_server.time, "sleep", no_sleep)
    assert serve_server.when_written([small, tmp_path / "deleted.md"]) == \
        [small, tmp_path / "deleted.md"]
