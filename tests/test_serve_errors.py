"""A request that serve fails to answer (a bug, a file of the package missing) gets a
500 page, or for the editor's POST a JSON answer, and the console one line: never a
dropped connection, never a traceback. In-process, on a free port."""

from __future__ import annotations

import http.client
import json
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from articlesite.serve.extensions import Extensions, PostRoute
from articlesite.serve.handler import Handler
from articlesite.serve.outcome import BuildState


def missing_script(page: str, headers) -> str:
    raise FileNotFoundError("editor.js")


def failing_route(path: str, headers, body: bytes):
    raise KeyError("no such request")


BROKEN = Extensions(posts=(PostRoute("/__articlesite/editor/", 1000, failing_route),),
                    snippets=(missing_script,))


@pytest.fixture
def server(tmp_path: Path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "translations.html").write_text("<!DOCTYPE html><html><head></head>"
                                            "<body></body></html>", encoding="utf-8")
    handler = type("TestHandler", (Handler,), {"site": site, "state": BuildState(),
                                               "extensions": BROKEN})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def request(port: int, method: str, path: str, body: bytes | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body,
                           headers={"Content-Length": str(len(body or b""))})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read().decode()
    finally:
        connection.close()


def test_a_failing_page_request_gets_a_500_page(server, capfd):
    status, kind, body = request(server, "GET", "/translations.html")
    assert status == 500 and kind.startswith("text/html")
    assert "500 Internal Server Error: FileNotFoundError: editor.js" in body
    out, err = capfd.readouterr()
    assert "GET /translations.html failed: FileNotFoundError: editor.js" in out
    assert "Traceback" not in out + err
    assert request(server, "GET", "/nothing-here")[0] == 404   # and serving goes on


def test_a_failing_editor_request_gets_a_json_500(server, capfd):
    status, kind, body = request(server, "POST", "/__articlesite/editor/save", b"{}")
    assert status == 500 and kind.startswith("application/json")
    assert json.loads(body)["ok"] is False and "KeyError" in json.loads(body)["message"]
    assert "Traceback" not in "".join(capfd.readouterr())
