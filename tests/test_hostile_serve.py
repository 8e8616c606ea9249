"""Hostile requests and hostile builds under `serve`: a request serve cannot parse gets a
4xx, never a 500, and changes nothing; a build that crashes the server process, or runs
past the build limit, is shown on the open pages as a failed build is, the last good site
stays served (the port answers at once), and the next save builds again. On the small
fixture site (tests/fixtures/sources), through real HTTP, as test_serve.py does."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, TEXTS, check, fixture_site, run_build, save
from test_serve import RUN_CLI, Server, poll

SAVE = "/__articlesite/editor/save"
POST_ROUTES = (SAVE, "/__articlesite/editor/confirm", "/__articlesite/figure/open",
               "/__articlesite/figure/route", "/__articlesite/figure/save")
SOURCE = "content/loop/en.md"
# A build slow on purpose: the article template sums 10^11 numbers (minutes, in C, in
# constant memory) when the page's title says SLOW, and holds 700 MB besides when it
# says BIG; the fixture's own titles render at once.
# (Of values known only when rendering: Jinja works out constant expressions as it
# compiles.)
SLOW_LOOP = ('{% if "BIG" in source.title %}{% set big = "x" * (source.title|length * '
             '40000000) %}{% endif %}{% if "SLOW" in source.title %}'
             '{{ range(source.title|length * 10**10)|sum }}{% endif %}')


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = fixture_site("sources", tmp_path_factory.mktemp("hostile-serve") / "project")
    with Server(root, "--port", "0") as running:
        yield running


def raw(server: Server, request: bytes, deadline: float = 20.0) -> bytes:
    """What the server answers to these bytes, as sent (no client library tidies them)."""
    with socket.create_connection((server.host, server.port), timeout=deadline) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(1 << 16):
            answer += chunk
    return answer


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def editor_request(server: Server, path: str, body: bytes, length: str | None = None,
                   ) -> tuple[int, dict]:
    """A POST as the translator's view sends it (token, Origin, Host), with `body`."""
    page = server.get("/translations.html")[2]
    token = re.search(r'"token": "([^"]+)"', page).group(1)
    host = f"{server.host}:{server.port}"
    head = (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
            f"X-Articlesite-Token: {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body) if length is None else length}\r\n"
            "Connection: close\r\n\r\n")
    answer = raw(server, head.encode() + body)
    return status_of(answer), json.loads(answer.partition(b"\r\n\r\n")[2])


def dictionary_base(server: Server) -> str:
    page = server.get("/translations.html")[2]
    return json.loads(re.search(r"window.articlesiteEditor=(\{.*?\});\n", page).group(1))["base"]


@pytest.mark.parametrize("route", POST_ROUTES)
def test_json_nested_200000_deep_is_refused_on_every_post_route(served: Server, route: str):
    for body in (b"[" * 200_000 + b"]" * 200_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
                 b'{"base": ' + b"[" * 100 + b"]" * 100 + b"}"):
        status, answer = editor_request(served, route, body)
        assert status == 400, answer
        assert "more than 64 deep" in answer["message"]
    assert served.get("/en/loop.html")[0] == 200


# "²" as one byte (Latin-1, as HTTP headers are read): a digit to str.isdigit.
@pytest.mark.parametrize("length", ["²".encode("latin-1"), "١٢".encode(), b"-1", b"1e3",
                                    b"0x10", b" "])
def test_a_content_length_that_is_no_number_is_refused(served: Server, length: bytes):
    host = f"{served.host}:{served.port}"
    answer = raw(served, f"POST {SAVE} HTTP/1.1\r\nHost: {host}\r\nContent-Length: ".encode()
                 + length + b"\r\nConnection: close\r\n\r\n{}")
    assert status_of(answer) == 411, answer[:200]


def test_a_content_length_larger_than_what_is_sent_is_answered_at_once(served: Server):
    """A body declared as 10^30 bytes and never sent: 413 within seconds, not a thread
    waiting for ever."""
    host = f"{served.host}:{served.port}"
    started = time.monotonic()
    answer = raw(served, f"POST {SAVE} HTTP/1.1\r\nHost: {host}\r\nContent-Length: "
                         f"{10**30}\r\n\r\n{{}}".encode())
    assert status_of(answer) == 413
    assert time.monotonic() - started < 15


def test_a_save_with_an_unpaired_surrogate_is_refused_and_saves_nothing(served: Server):
    dictionary = served.root / TEXTS
    before = dictionary.read_bytes()
    key = next(iter(json.loads(before)))
    for change in ({"key": key, "language": "en", "text": "loop \ud800"},
                   {"key": "\udfff", "language": "en", "text": "loop"}):
        body = json.dumps({"base": dictionary_base(served), "changes": [change]}).encode()
        status, answer = editor_request(served, SAVE, body)
        assert status == 400, answer
        assert "unpaired surrogate" in answer["message"]
    status, answer = editor_request(served, "/__articlesite/figure/save", json.dumps(
        {"figure": "steps", "spec": {"title": "\ud800"}}).encode())
    assert status == 400 and "unpaired surrogate" in answer["message"]
    assert dictionary.read_bytes() == before


@pytest.mark.parametrize("path", ["/" + "a/" * 3000, "/" + "a/" * 3000 + "index.html",
                                  "/" + "x" * 300, "/en/" + "%41" * 5000 + ".html",
                                  "/" + "a/" * 40 + "b" * 250 + "/" + "c" * 250])
def test_a_path_no_site_has_gets_404(served: Server, path: str):
    status, _, body = served.get(path)
    assert status == 404
    assert "Internal Server Error" not in body


def test_serve_answered_every_hostile_request_without_a_failure(served: Server):
    """Whatever ran before in this module: nothing was answered 500 (serve prints one
    line for each request it failed to answer)."""
    assert " failed: " not in served.output()
    assert "Traceback" not in served.output()


# Builds that crash or hang ---------------------------------------------------------------
def server_process(supervisor: int) -> int:
    """The server process the supervisor runs (its one child)."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def status_or_none(server: Server) -> dict | None:
    """serve's status, or None while its server process is being started again (the
    connection is then refused or reset, or the stand-in answers 503)."""
    try:
        return server.status()
    except (ConnectionError, ValueError):
        return None


def failure_shown(server: Server, words: str) -> dict:
    """The status once the open pages are told of a failed build saying `words`."""
    def shown() -> dict | None:
        status = status_or_none(server)
        if status is None:
            return None
        return status if not status["ok"] and status["problems"] and \
            words in status["problems"][0]["message"] else None
    outcome = poll(shown)
    assert outcome, server.output()
    return outcome


def slow_site(tmp_path: Path) -> tuple[Path, Path, str]:
    """The fixture site, built, its article template slow on purpose (SLOW_LOOP): the
    project, its English source and that source's text."""
    root = fixture_site("sources", tmp_path / "project")
    template = root / "templates/article.html"
    text = template.read_text("utf-8")
    template.write_text(text.replace("{% block title %}", "{% block title %}" + SLOW_LOOP, 1),
                        "utf-8")
    source = root / SOURCE
    assert run_build(root).returncode == 0   # serve's first build then takes no time
    return root, source, source.read_text("utf-8")


def test_a_build_that_crashes_or_hangs_never_stops_serving(tmp_path: Path):
    root, source, original = slow_site(tmp_path)
    with Server(root, "--port", "0", "--build-limit", "4", "--build-memory", "400") as running:
        page = running.get("/en/loop.html")
        assert page[0] == 200 and "The training loop" in page[2]

        # A build that runs past the limit is ended; the last good site is served.
        save(root, source, original.replace("The training loop", "The SLOW loop"))
        outcome = failure_shown(running, "ran for more than 4 s and was stopped")
        assert outcome["problems"][0]["file"] == SOURCE
        assert "Build failed" in outcome["overlay"]
        status, _, body = running.get("/en/loop.html")
        assert status == 200 and "The training loop" in body
        assert 'id="articlesite-overlay"' in body and "ran for more than 4 s" in body

        # A build that takes too much memory is ended too.
        save(root, source, original.replace("The training loop", "The BIG SLOW loop"))
        outcome = failure_shown(running, "took more than 400 MiB of memory and was stopped")
        assert running.get("/en/loop.html")[0] == 200

        # A build whose process crashes (as a segmentation fault in a library would).
        save(root, source, original.replace("The training loop", "The SLOW loop, again"))
        poll(lambda: "SLOW loop, again" in source.read_text("utf-8"))
        child = server_process(running.process.pid)
        time.sleep(1.0)   # the build has most likely begun (it would run for minutes)
        os.kill(child, signal.SIGSEGV)
        failure_shown(running, "crashed (segmentation fault, SIGSEGV)")
        assert running.get("/en/loop.html")[0] == 200

        # The next save builds again.
        save(root, source, original.replace("The training loop", "The mended loop"))
        assert poll(lambda: (status_or_none(running) or {}).get("ok")), running.output()
        assert "The mended loop" in running.get("/en/loop.html")[2]
        assert running.stop() == 0
    assert "Traceback" not in running.output()


def test_a_build_stuck_in_c_code_ends_when_serve_is_killed(tmp_path: Path):
    """serve killed outright (SIGKILL: no cleanup) while its build is stuck in C code,
    where no check of the server process's own runs: that process ends too, rather than
    run on for ever, orphaned, heeding no signal but SIGKILL."""
    root, source, original = slow_site(tmp_path)
    with Server(root, "--port", "0", "--build-limit", "600") as running:
        assert running.get("/en/loop.html")[0] == 200
        child = server_process(running.process.pid)
        try:
            idle = cpu_seconds(child)
            save(root, source, original.replace("The training loop", "The SLOW loop"))
            # The build has begun once the process has worked a second: in C from then.
            assert poll(lambda: cpu_seconds(child) > idle + 1.0)
            running.process.kill()
            running.process.wait()
            assert poll(lambda: not alive(child)), "the server process runs on"
        finally:
            if alive(child):
                os.kill(child, signal.SIGKILL)


def cpu_seconds(pid: int) -> float:
    """The CPU time process `pid` has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def alive(pid: int) -> bool:
    """Whether process `pid` runs still (not ended, nor ended and left unreaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


# Files beside an article are not trusted -------------------------------------------------
SCRIPTED_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
                '<script>alert(1)</script><rect width="40" height="20"/></svg>')
SCRIPTED_HTML = '<html><body><script>fetch("/translations.html")</script></body></html>'


def with_scripted_files(tmp_path: Path) -> Path:
    root = fixture_site("sources", tmp_path / "project")
    folder = root / "content/loop"
    (folder / "diagram.svg").write_text(SCRIPTED_SVG, "utf-8")
    (folder / "demo.html").write_text(SCRIPTED_HTML, "utf-8")
    source = folder / "en.md"
    source.write_text(source.read_text("utf-8") + "\n![A diagram](diagram.svg)\n\n"
                      "Try [the demo](demo.html).\n", "utf-8")
    return root


def test_html_and_svg_beside_an_article_are_left_out_unless_site_yaml_allows(tmp_path: Path,
                                                                           capsys):
    root = with_scripted_files(tmp_path)
    code, report = check(root, capsys)    # `check` says so too, at the line that shows it
    said = {(finding["file"], finding["message"].split(":")[0]) for finding in
            report["findings"] if "leaves the file out" in finding["message"]}
    assert code == 1 and said == {("content/loop/en.md", "image 'diagram.svg'"),
                                  ("content/loop/en.md", "link 'demo.html'")}, report
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "2 files left out of the site:" in output
    for name in ("diagram.svg", "demo.html"):
        assert f"content/loop/{name}: not published: an HTML file, or an SVG with a script " \
               "in it, runs scripts" in output
        assert not (root / "site/assets/loop" / name).exists()
    assert "publish_html_and_svg: true" in output

    config = root / "content/site.yaml"
    config.write_text(config.read_text("utf-8") + "publish_html_and_svg: true\n", "utf-8")
    result = run_build(root)
    assert result.returncode == 0 and "left out" not in result.stdout + result.stderr
    assert "leaves the file out" not in json.dumps(check(root, capsys)[1])
    assert (root / "site/assets/loop/diagram.svg").read_text("utf-8") == SCRIPTED_SVG
    assert (root / "site/assets/loop/demo.html").read_text("utf-8") == SCRIPTED_HTML
    page = (root / "site/en/loop.html").read_text("utf-8")
    # The SVG is shown as an image (no script of an image runs), never inlined.
    assert '<img src="../assets/loop/diagram.svg" alt="A diagram" width="40" height="20"' in page
    assert "alert(1)" not in page

    config.write_text(config.read_text("utf-8").replace("true", "yes please"), "utf-8")
    result = run_build(root)
    assert result.returncode == 1
    assert "publish_html_and_svg must be true or false, not 'yes please'" in result.stderr


# A drawing as tools export it (a raster image inside), then each way an SVG may hold a
# script when opened alone: only the first is published.
DRAWING = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
           ' width="30" height="10"><style>rect {{ fill: #333 }}</style><rect width="30" '
           'height="10"/><image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" '
           'height="1"/>{}</svg>')
SCRIPTING = ['<a xlink:href=" java\tscript:alert(1)"><text>x</text></a>',
             '<g onclick="alert(1)"/>', '<foreignObject><p>x</p></foreignObject>',
             '<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>',
             '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>',
             '<set attributeName="href" to="javascript:alert(1)"/>',
             ('<h:meta xmlns:h="http://www.w3.org/1999/xhtml" http-equiv="refresh" '
              'content="0; url=https://example.org/"/>')]


def test_an_svg_with_no_script_is_published_and_one_with_a_script_is_not(tmp_path: Path):
    root = fixture_site("sources", tmp_path / "project")
    folder = root / "content/loop"
    names = [f"drawing-{n}.svg" for n in range(len(SCRIPTING) + 2)]
    bodies = [DRAWING.format(""), *(DRAWING.format(part) for part in SCRIPTING),
              '<!DOCTYPE svg [<!ENTITY a "b">]>' + DRAWING.format("&a;")]
    for name, body in zip(names, bodies, strict=True):
        (folder / name).write_text(body, "utf-8")
    source = folder / "en.md"
    source.write_text(source.read_text("utf-8") + "".join(
        f"\n![Drawing {n}]({name})\n" for n, name in enumerate(names)), "utf-8")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert (root / "site/assets/loop/drawing-0.svg").read_text("utf-8") == bodies[0]
    assert "drawing-0.svg" not in output
    assert f"{len(names) - 1} files left out of the site:" in output
    for name in names[1:]:
        assert f"content/loop/{name}: not published" in output
        assert not (root / "site/assets/loop" / name).exists()


def test_serve_gives_its_token_to_no_file_copied_from_an_article(tmp_path: Path):
    root = with_scripted_files(tmp_path)
    config = root / "content/site.yaml"
    config.write_text(config.read_text("utf-8") + "publish_html_and_svg: true\n", "utf-8")
    assert run_build(root).returncode == 0   # serve's first build then takes no time
    with Server(root, "--port", "0") as running:
        token = re.search(r'"token": "([^"]+)"', running.get("/translations.html")[2])
        assert token
        for path in ("/assets/loop/demo.html", "/assets/loop/diagram.svg"):
            status, headers, body = running.get(path)
            assert status == 200
            assert body == (SCRIPTED_HTML if path.endswith(".html") else SCRIPTED_SVG)
            # Opened alone, it runs in a sandbox: no script, no origin of serve's.
            assert headers["Content-Security-Policy"] == "sandbox"
            assert token.group(1) not in body and "articlesite" not in body
        # The build's own pages get serve's script (and its figure editor, the token).
        status, headers, body = running.get("/en/loop.html")
        assert status == 200 and "articlesiteLive" in body and token.group(1) in body
        assert "Content-Security-Policy" not in headers


def test_while_no_server_process_runs_every_request_gets_503_at_once(tmp_path: Path):
    """A change to the package that stops the server process as it starts (a syntax
    error): the supervisor answers in its place, 503 and why, until the code is fixed."""
    package = tmp_path / "package"
    shutil.copytree(REPO / "src" / "articlesite", package / "articlesite",
                    ignore=shutil.ignore_patterns("__pycache__"))
    root = fixture_site("sources", tmp_path / "project")
    assert run_build(root).returncode == 0
    with Server(root, "--port", "0", env=dict(os.environ, PYTHONPATH=str(package)),
                command=[sys.executable, "-c", RUN_CLI]) as running:
        handler = package / "articlesite" / "serve" / "handler.py"
        text = handler.read_text("utf-8")
        handler.write_text(text + "\nthis is not Python\n", "utf-8")
        assert poll(lambda: "The server process stopped (exit code 1)" in running.output())

        def answered() -> str | None:
            status, _, body = running.get("/en/loop.html")
            return body if status == 503 else None
        body = poll(answered)
        assert "fix the package&#x27;s code and save to start it again" in body

        handler.write_text(text, "utf-8")
        assert poll(lambda: running.get("/en/loop.html")[0] == 200), running.output()
        assert running.stop() == 0
