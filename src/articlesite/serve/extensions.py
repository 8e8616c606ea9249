"""serve's extension points: the tools that answer a POST and add to the pages served.

- A `PostRoute` answers every POST whose path starts with its `prefix`: the handler
  (handler.py) checks the Content-Length against the route's `max_body`, reads the body,
  and calls `handle(path, headers, body)`, which returns (status, JSON answer) and never
  raises for a bad request.
- A page-snippet provider is called for each HTML page served, with the page's path in
  site/ ("ja/a.html", "translations.html") and the request's headers; the HTML it
  returns ("" for none) is added before </body>, before the live-reload script
  (inject.py).

`serve_extensions` makes them for one server process: a tool is added to serve by adding
its route and its provider there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from pathlib import Path

from ..figures.editor import PREFIX as FIGURES
from ..figures.editor import FigureEditor
from ..translate.editor import MAX_BODY, PREFIX, Editor
from ..translate.progress import SummaryOnDisk, serve_snippet

PostHandler = Callable[[str, Message, bytes], tuple[HTTPStatus, dict]]
PageSnippet = Callable[[str, Message], str]


@dataclass(frozen=True)
class PostRoute:
    prefix: str
    max_body: int           # bytes: a larger body is refused (413) without calling handle
    handle: PostHandler


@dataclass(frozen=True)
class Extensions:
    posts: tuple[PostRoute, ...] = ()
    snippets: tuple[PageSnippet, ...] = ()

    def route(self, path: str) -> PostRoute | None:
        """The route that answers a POST to `path`, if any."""
        return next((route for route in self.posts if path.startswith(route.prefix)), None)

    def page_snippet(self, page: str, headers: Message) -> str:
        return "".join(provider(page, headers) for provider in self.snippets)


def serve_extensions(root: Path, host: str, port: int,
                     token: str | None = None) -> Extensions:
    """The tools of a server process on `host`:`port` serving the project at `root`;
    `token` is the editor's secret (kept by the supervisor across restarts)."""
    root = root.resolve()
    editor = Editor(root, host, port) if token is None else Editor(root, host, port, token)
    figures = FigureEditor(editor)
    return Extensions(
        posts=(PostRoute(PREFIX, MAX_BODY, editor.handle),
               PostRoute(FIGURES, MAX_BODY, figures.handle)),
        snippets=(in_progress_marks(root), editor.page_snippet, figures.page_snippet))


def in_progress_marks(root: Path) -> PageSnippet:
    """On a page of a language in progress, the marks of what it still lacks."""
    summary = SummaryOnDisk(root)

    def snippet(page: str, headers: Message) -> str:
        return serve_snippet(summary(), page)
    return snippet
