"""The translator's view as an editor, in `python build.py serve` only.

serve adds editor.js to the translator's view it serves, with the dictionary's texts as
they are on disk, the digest of that file, and this server's secret token. The page then
edits any cell, redraws and measures that language's copy of the figures while typing,
and saves through two requests:

- `POST /__articlesite/editor/save` `{"base": digest, "changes": [{"key", "language",
  "text"}]}`: refused (409) if figures/figure-texts.json is no longer the file the page
  was given; otherwise the changed values are written into the file's text and nothing
  else (translate/dictionary_file.py), atomically. serve's watcher then rebuilds and every
  open page reloads, as after any save.
- `POST /__articlesite/editor/confirm` `{"base": digest, "key", "language"}`: records the
  confirmation as `translations confirm KEY:LANG` does; with `"section": "SLUG#SECTION"`
  instead of a key, an article's translated section, as `translations confirm
  SLUG#SECTION:LANG` does.

Only the page this server served can do either: every request must carry the token (in
a header, which a cross-site page cannot send without a preflight this server never
grants), an `Origin` naming this server, a `Host` naming this server (against DNS
rebinding), a JSON body no larger than MAX_BODY; values are validated as the build
validates them. Anything else is refused and changes nothing. The view written by
`python build.py` has none of this: it stays a read-only page.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib.resources import files
from pathlib import Path

from ..load.texts import value_problem
from ..problems import BuildError, Problems, UsageError
from .dictionary_file import LayoutError, edit_text, layout, write_atomically

PREFIX = "/__articlesite/editor/"
MAX_BODY = 1 << 20       # bytes: far more than any edit, far less than a denial of service
MAX_CHANGES = 10_000
HEADER = "X-Articlesite-Token"
VIEW = "translations.html"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class Refused(Exception):
    def __init__(self, status: HTTPStatus, message: str, **details):
        super().__init__(message)
        self.status, self.message, self.details = status, message, details


MAX_DEPTH = 64   # arrays and objects within each other: an edit needs some 8
TOO_DEEP = f"nests arrays and objects more than {MAX_DEPTH} deep"
SURROGATE = re.compile("[\ud800-\udfff]")


def shape_problem(request: object) -> str | None:
    """What makes a parsed request unusable whatever it asks: nesting deeper than any edit
    (later steps walk it by recursion), or text holding an unpaired surrogate (JSON's
    "\\ud800": no character, which no file can hold). None when there is nothing."""
    pending = [(request, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if SURROGATE.search(value):
                return ("holds an unpaired surrogate (such as \\ud800), which is no "
                        "character: nothing was saved")
            continue
        if depth > MAX_DEPTH and isinstance(value, (dict, list)):
            return TOO_DEEP
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in (*value, *value.values()))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)
    return None


def file_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def editable_layout(text: str) -> dict:
    """Where each entry of the dictionary's text lies (dictionary_file.layout), or a
    refusal (409) naming why the file cannot be edited in place."""
    try:
        return layout(text)
    except LayoutError as exc:
        raise Refused(HTTPStatus.CONFLICT, f"the dictionary cannot be edited: {exc}") from None


@dataclass
class Editor:
    root: Path
    host: str
    port: int = 0
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def dictionary_path(self) -> Path:
        return self.root / "figures" / "figure-texts.json"

    # Who may ask ---------------------------------------------------------------------
    def hosts(self) -> set[str]:
        """The Host headers naming this server."""
        names = {self.host}
        if self.host in LOOPBACK or self.host in ("0.0.0.0", "::"):
            names |= set(LOOPBACK)
        return {f"[{name}]:{self.port}" if ":" in name else f"{name}:{self.port}"
                for name in names}

    def check_request(self, headers) -> None:
        host = headers.get("Host", "")
        if host not in self.hosts():
            raise Refused(HTTPStatus.FORBIDDEN, f"Host {host!r} is not this server")
        origin = headers.get("Origin")
        if origin != f"http://{host}":
            raise Refused(HTTPStatus.FORBIDDEN, f"Origin {origin!r} is not this server: "
                          "only a page served here can save")
        if not secrets.compare_digest(headers.get(HEADER, ""), self.token):
            raise Refused(HTTPStatus.FORBIDDEN, "missing or wrong token: reload the "
                          "page from this server")
        if headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "the body must be JSON")

    def read_request(self, headers, body: bytes) -> dict:
        """The JSON object a request carries, once its headers are checked: the guard of
        every editor serve has (this one and the figure editor, figures/editor.py)."""
        self.check_request(headers)
        try:
            request = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refused(HTTPStatus.BAD_REQUEST, f"malformed JSON: {exc}") from None
        except RecursionError:   # nested deeper than the parser goes
            raise Refused(HTTPStatus.BAD_REQUEST, f"the body {TOO_DEEP}") from None
        if problem := shape_problem(request):
            raise Refused(HTTPStatus.BAD_REQUEST, f"the body {problem}")
        if not isinstance(request, dict):
            raise Refused(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return request

    # What the page is given ----------------------------------------------------------
    def page_snippet(self, page: str, headers) -> str:
        """serve's page-snippet provider: the translator's view, asked for by this
        server's name, becomes an editor; other pages get nothing."""
        if page == VIEW and headers.get("Host", "") in self.hosts():
            return self.snippet()
        return ""

    def snippet(self) -> str:
        """The editor for the served view: its settings and its script."""
        path = self.dictionary_path   # a project without figures has none
        data = path.read_bytes() if path.is_file() else b""
        try:
            texts = json.loads(data)
        except ValueError:
            texts = {}
        from ..load.config import load_site

        site = load_site(self.root, Problems(self.root))
        settings = {"token": self.token, "base": file_digest(data), "header": HEADER,
                    "source": site.source_language if site else "",
                    "save": PREFIX + "save", "confirm": PREFIX + "confirm",
                    "texts": texts if isinstance(texts, dict) else {},
                    "file": "figures/" + self.dictionary_path.name}
        here = files("articlesite.translate")
        script = "\n".join(here.joinpath(name).read_text(encoding="utf-8")
                           for name in ("richtext.js", "editor.js"))
        safe = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c")
        return f"<script>window.articlesiteEditor={safe};\n{script}</script>"

    # Requests ------------------------------------------------------------------------
    def handle(self, path: str, headers, body: bytes) -> tuple[HTTPStatus, dict]:
        """Answer one POST: (status, JSON answer). Never raises for a bad request."""
        try:
            request = self.read_request(headers, body)
            if not isinstance(request.get("base"), str):
                raise Refused(HTTPStatus.BAD_REQUEST, "the body must be an object with "
                              "the file's digest as 'base'")
            with self.lock:
                if path == PREFIX + "save":
                    return HTTPStatus.OK, self.save(request)
                if path == PREFIX + "confirm":
                    return HTTPStatus.OK, self.confirm(request)
            raise Refused(HTTPStatus.NOT_FOUND, "no such editor action")
        except Refused as refused:
            return refused.status, {"ok": False, "message": refused.message,
                                    **refused.details}

    def current(self, base: str) -> tuple[bytes, str]:
        data = self.dictionary_path.read_bytes()
        if file_digest(data) != base:
            raise Refused(HTTPStatus.CONFLICT, f"figures/{self.dictionary_path.name} changed "
                          "on disk since this page was loaded: nothing was saved. Your text "
                          "is still here; copy it, reload the page and enter it again.")
        return data, data.decode("utf-8")

    def languages(self) -> list[str]:
        from ..load.config import load_site

        problems = Problems(self.root)
        site = load_site(self.root, problems)
        if site is None:
            raise Refused(HTTPStatus.CONFLICT, "content/site.yaml has problems: see serve")
        return site.codes

    def save(self, request: dict) -> dict:
        changes = request.get("changes")
        if not isinstance(changes, list) or not changes or len(changes) > MAX_CHANGES:
            raise Refused(HTTPStatus.BAD_REQUEST, "'changes' must be a non-empty list")
        _, text = self.current(request["base"])
        entries = editable_layout(text)
        codes = self.languages()
        edits, problems = {}, []
        for change in changes:
            if not isinstance(change, dict) or set(change) != {"key", "language", "text"}:
                raise Refused(HTTPStatus.BAD_REQUEST, "each change must be "
                              '{"key", "language", "text"}')
            key, language, value = change["key"], change["language"], change["text"]
            if not isinstance(key, str) or key not in entries:
                problems.append({"key": str(key), "language": str(language),
                                 "message": "no such key in the dictionary"})
            elif language not in codes:
                problems.append({"key": key, "language": str(language),
                                 "message": f"unknown language (languages: "
                                            f"{', '.join(codes)})"})
            elif message := value_problem(value, language):
                problems.append({"key": key, "language": language, "message": message})
            else:
                edits[(key, language)] = value
        if problems:
            raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, "nothing was saved: "
                          + "; ".join(f"{p['key']} ({p['language']}): {p['message']}"
                                      for p in problems), problems=problems)
        new = edit_text(text, edits)
        if new != text:
            write_atomically(self.dictionary_path, new, self.root)
        return {"ok": True, "base": file_digest(new.encode("utf-8")),
                "saved": len(edits), "message": f"Saved {len(edits)} text"
                f"{'s' if len(edits) != 1 else ''} to figures/{self.dictionary_path.name}."}

    def confirm(self, request: dict) -> dict:
        from .record import confirm

        if "section" in request:
            return self.confirm_section(request)
        key, language = request.get("key"), request.get("language")
        if not isinstance(key, str) or not isinstance(language, str) or ":" in key:
            raise Refused(HTTPStatus.BAD_REQUEST, "'key' and 'language' must be text")
        data, _ = self.current(request["base"])
        done = self._confirmed(confirm, f"{key}:{language}")
        return {"ok": True, "base": file_digest(data), "message": " ".join(done)}

    def confirm_section(self, request: dict) -> dict:
        """A translated article section, as `translations confirm SLUG#SECTION:LANG` does."""
        from .section_checks import confirm_sections

        section, language = request.get("section"), request.get("language")
        if (not isinstance(section, str) or not isinstance(language, str)
                or "#" not in section or ":" in section):
            raise Refused(HTTPStatus.BAD_REQUEST, "'section' must be SLUG#SECTION and "
                          "'language' a language")
        done = self._confirmed(confirm_sections, f"{section}:{language}")
        return {"ok": True, "base": request["base"], "message": " ".join(done)}

    def _confirmed(self, confirm, target: str) -> list[str]:
        """Record a confirmation as `translations confirm TARGET` does, on sources loaded now;
        sources with problems or a target that names nothing are refused."""
        from ..load.sources import load_sources

        try:
            return confirm(load_sources(self.root, Problems(self.root)), [target], False)
        except BuildError as error:
            raise Refused(HTTPStatus.CONFLICT, "the sources have problems (see serve): "
                          f"{error.problems[0]}") from None
        except UsageError as error:
            raise Refused(HTTPStatus.UNPROCESSABLE_ENTITY, str(error)) from None
