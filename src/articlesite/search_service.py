"""The Pagefind program in its service mode (`pagefind --service`): requests in on its
standard input, responses out on its standard output, each a JSON object encoded in
base64 and followed by a comma. (The `pagefind` package's own client waits 0.1 s
before reading each response; this one reads them as they come.)

A service started early can load a language's word segmenter while the pages are
rendered: Pagefind loads the Japanese dictionary (some 0.8 s) and the Chinese one
(some 0.15 s) when it first meets a text of that language, and keeps them for every
index it makes after. The index it then makes of a folder is the same, byte for byte,
as the one `pagefind --site` makes of it.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import importlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

# A text that makes Pagefind load the segmenter of a language that has one (its
# extended build's): a Japanese text needs kana, or Pagefind takes it for Chinese, and
# full-width brackets, or the first page of an index loads more of it then (some 0.2 s
# of CPU after "日本語です", 0.04 s after this one: bench/README.md, the shards section).
WARM_TEXT = {"ja": "日本語の文です（例）。", "zh": "中文"}


def warm_text(language: str) -> str | None:
    return WARM_TEXT.get(language.split("-")[0].lower())


class ServiceError(Exception):
    """The service ended, or answered a request with an error: what it said."""


class PagefindService:
    """One `pagefind --service` process, asked one request at a time."""

    def __init__(self, program: str):
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self.process = subprocess.Popen([program, "--service"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self._errors)
        self._numbers = iter(range(1, 1 << 62))
        self._pending = b""
        self._answers: dict[int | None, dict[str, Any]] = {}

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Send a request and wait for its response's payload; raises ServiceError."""
        return self.receive(self.send(payload))

    def send(self, payload: dict[str, Any]) -> int:
        """Send a request without waiting for its response (receive); its number. The
        service reads requests as they come and answers them in order, one at a time:
        requests sent together leave it no pause between two."""
        number = next(self._numbers)
        message = json.dumps({"message_id": number, "payload": payload},
                             ensure_ascii=False).encode("utf-8")
        try:
            self.process.stdin.write(base64.b64encode(message) + b",")
            self.process.stdin.flush()
        except OSError:
            raise ServiceError(self._ended()) from None
        return number

    def receive(self, number: int) -> dict[str, Any]:
        """The payload of the response to request `number` (send); raises ServiceError if
        it is an error. The responses read before it, to later requests, are kept."""
        while number not in self._answers:
            response = self._next()
            self._answers[response.get("message_id")] = response.get("payload") or {}
        answer = self._answers.pop(number)
        if answer.get("type") == "Error":
            raise ServiceError(answer.get("message") or "an error")
        return answer

    def _next(self) -> dict[str, Any]:
        """The next response the service writes (the bundle's files come in one, tens of
        megabytes at a thousand articles: its pieces are joined once)."""
        pieces = [self._pending]
        while b"," not in pieces[-1]:
            data = self.process.stdout.read1(1 << 20)
            if not data:
                raise ServiceError(self._ended())
            pieces.append(data)
        message, self._pending = b"".join(pieces).split(b",", 1)
        return json.loads(base64.b64decode(message))

    def _ended(self) -> str:
        """Why the process stopped answering: the last line it wrote to standard error."""
        self.stop()
        self._errors.seek(0)
        lines = self._errors.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"it ended (exit code {self.process.returncode})"

    def warm(self, languages: list[str]) -> None:
        """Have the service load these languages' segmenters now, in a throwaway index
        of one small page each: from a folder, since Pagefind reads a folder's pages at
        once, loading the Japanese and Chinese segmenters side by side (0.9 s of wall on
        2 cores, where one record after the other took 1.1 s)."""
        texts = {language: text for language in languages if (text := warm_text(language))}
        if not texts:
            return
        with tempfile.TemporaryDirectory(prefix="articlesite-warm-") as folder:
            for number, (language, text) in enumerate(texts.items()):
                Path(folder, f"{number}.html").write_text(
                    f'<html lang="{html.escape(language)}"><body><p>{text}</p></body></html>',
                    "utf-8")
            index = self.ask({"type": "NewIndex", "config": {}})["index_id"]
            self.ask({"type": "AddDir", "index_id": index, "path": folder})
            self.ask({"type": "DeleteIndex", "index_id": index})

    def add_folder(self, folder: Path) -> int:
        """A new index of the HTML pages under `folder`, as `pagefind --site FOLDER` reads
        them: in the order the folder lists them (which the index's bytes depend on: a
        fresh folder of the same files lists them in the same order), read over the
        cores; its id."""
        index = self.ask({"type": "NewIndex", "config": {}})["index_id"]
        self.ask({"type": "AddDir", "index_id": index, "path": str(folder)})
        return index

    def add_pages(self, pages: list[tuple[str, str]], index: int | None = None
                  ) -> tuple[int, list[int]]:
        """Hand these pages (path in the site, what Pagefind is given of it) to an index
        (a new one if `index` is None), one after the other, each under the URL
        `pagefind --site` gives it (page_url). The index's id and the numbers of the
        requests, whose responses say whether each page was read (receive). A page
        handed again under the same URL takes the place of the first in the index."""
        if index is None:
            index = self.ask({"type": "NewIndex", "config": {}})["index_id"]
        return index, [self.send({"type": "AddFile", "index_id": index, "url": page_url(path),
                                  "file_contents": text}) for path, text in pages]

    def files(self, index: int) -> dict[str, bytes]:
        """The bundle's files of an index, by their path in it; the index then goes.
        (They are asked for, not written by the service: it answers a request to write
        them before they are all written.)"""
        files = {}
        for file in self.ask({"type": "GetFiles", "index_id": index})["files"]:
            name = file["path"]
            if name.startswith("/") or ".." in name.split("/"):
                raise ServiceError(f"a file outside the bundle: {name}")
            files[name] = base64.b64decode(file["content"])
        self.ask({"type": "DeleteIndex", "index_id": index})
        return files

    def stop(self) -> None:
        """End the process (a request being read then fails with ServiceError)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def close(self) -> None:
        """End the process and close its pipes, once nothing reads them any more."""
        self.stop()
        for stream in (self.process.stdin, self.process.stdout, self._errors):
            with contextlib.suppress(OSError):   # (a broken pipe, its data lost: unread)
                stream.close()


class Service:
    """A build's Pagefind service: started early (`warm`, which loads the segmenters of
    the languages given in the background) or when the index is made. `program` is None
    when Pagefind's program was not found."""

    def __init__(self):
        self._service: PagefindService | None = None
        self._warming: threading.Thread | None = None
        self._closed = False
        self._lock = threading.Lock()   # (the index stage may run beside the build's thread)
        self._feeding: threading.Thread | None = None   # (feed)
        self._fed: tuple[int, list[tuple[str, Hashable]]] | None = None

    @functools.cached_property
    def program(self) -> str | None:
        return pagefind_program()

    @property
    def closed(self) -> bool:
        """Stopped: a build failed or was given up while it indexed (serve then starts
        another for the next build)."""
        return self._closed

    def warm(self, languages: list[str] = ()) -> None:
        """Start the service, loading the segmenters of these languages in the
        background (those that take long to load)."""
        with self._lock:
            if self._closed:
                raise ServiceError("the build ended")
            if self.program is None or self._service is not None:
                return
            self._service = PagefindService(self.program)
            self._warming = threading.Thread(target=_warm, args=(self._service, languages),
                                             daemon=True)
            self._warming.start()

    def feed(self, pages: list[tuple[str, Hashable]], hand: Callable[[Path], None],
             work: Path) -> None:
        """Have Pagefind read these pages now, into an index of their own, in a thread
        (after the warming), ahead of the index stage that will likely index them
        (Pagefind takes some 15 ms of CPU a Japanese page): each page is a path in the
        site and a token for what Pagefind is given of it; `hand(folder)` puts them in a
        folder (made in `work`). `index` then hands over only the pages whose token
        changed, each in its page's place, if it indexes these very pages. An index fed
        earlier and not taken goes."""
        if self.program is None or self._closed:
            return
        self.warm(sorted({path.split("/", 1)[0] for path, _ in pages}))
        if self._feeding is not None:
            self._feeding.join()
        # The folder is made here, not in the thread: this thread's work (a hard link a
        # page) takes some 10 ms; in the thread, waiting for the interpreter after each
        # call while the build works, it took 260 ms, after the warming, before
        # Pagefind was given anything (N=1000, 62 pages).
        folder = Path(tempfile.mkdtemp(prefix=".search-", dir=work))
        try:
            hand(folder)
        except OSError:
            shutil.rmtree(folder, ignore_errors=True)
            return
        self._feeding = threading.Thread(target=self._feed, args=(pages, folder),
                                         daemon=True)
        self._feeding.start()

    def _feed(self, pages: list[tuple[str, Hashable]], folder: Path) -> None:
        try:
            with contextlib.suppress(ServiceError, OSError, ValueError):
                self._warming.join()
                old, self._fed = self._fed, None
                if old is not None:
                    self._service.ask({"type": "DeleteIndex", "index_id": old[0]})
                self._fed = (self._service.add_folder(folder), pages)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def index(self, pages: list[tuple[str, Hashable]], hand: Callable[[Path], None],
              text: Callable[[Hashable], str], work: Path
              ) -> tuple[dict[str, bytes], str | None]:
        """The bundle's files for these pages (path in the site, token: as `feed`; `hand`
        puts them in a folder made in `work`, `text(token)` is one's text), or what
        went wrong (also when `stop` ended the service meanwhile). If these very pages
        were fed ahead (a fresh folder of the same files lists them in the same order),
        that index is taken, and the pages whose token changed are handed over again:
        each takes its first version's place (Pagefind's fossick_one), so the index is
        the one these pages make read afresh."""
        try:
            self.warm()
            self._warming.join()
            if self._feeding is not None:
                self._feeding.join()
            service, fed = self._service, self._fed
            if fed is not None and [path for path, _ in fed[1]] == [path for path, _ in pages]:
                self._fed = None
                index, before = fed
                _, again = service.add_pages([(path, text(token)) for (path, token), (
                    _, was) in zip(pages, before, strict=True) if token != was], index)
                for number in again:
                    service.receive(number)
                return service.files(index), None
            with tempfile.TemporaryDirectory(prefix=".search-", dir=work) as folder:
                hand(Path(folder))
                index = service.add_folder(Path(folder))
            return service.files(index), None
        except (ServiceError, OSError, ValueError) as error:
            return {}, str(error)

    def stop(self) -> None:
        """End the service's process, and refuse to start another: a request being
        read then fails (the index stage's, the warming)."""
        with self._lock:
            self._closed = True
            if self._service is not None:
                self._service.stop()

    def close(self) -> None:
        """End the service, once the thread warming it has seen it end (the index
        stage's thread has ended: build.index waits for it)."""
        self.stop()
        if self._service is not None:
            self._warming.join()
            if self._feeding is not None:
                self._feeding.join()
            self._service.close()


def changed_languages(languages: list[str] | None, changed: set[str] | None) -> list[str]:
    """Of the `languages` a site indexes, those whose article sources changed (`changed`:
    names under the project, as unchanged.Since says; all of them after a figure text
    changed): their edited pages' shards will be indexed again."""
    if not languages or not changed:
        return []
    edited = set(languages) if "figures/figure-texts.json" in changed else {
        parts[2][:-3] for parts in (name.split("/") for name in changed)
        if len(parts) == 3 and parts[0] == "content" and parts[2].endswith(".md")}
    return sorted(edited & set(languages))


class EarlyService:
    """A Pagefind service for the build the command line is about to run, started before
    the build loads anything, so that it loads the word segmenters of the languages
    whose article sources were edited (a second for Japanese) while the build reads the
    cache and the sources, and reads the edited pages' shard (Service.feed). Started as
    soon as the scan of the project has been through content/ (`content`), then kept,
    or made again for the languages the whole scan says (`settle`)."""

    def __init__(self):
        self.service: Service | None = None
        self.warming: set[str] = set()

    def content(self, record: dict, changed: set[str]) -> None:
        """Start for the languages of the article sources in content/ that `changed` since
        the last build (its `record`): unchanged.since_last calls this once its scan has
        been through content/."""
        edited = changed_languages(record.get("search"), changed)
        if edited:
            self.service = Service()
            self.service.warm(edited)
            self.warming = {code for code in edited if warm_text(code)}

    def settle(self, languages: list[str] | None, changed: set[str] | None
               ) -> Service | None:
        """The service for the build, if the site indexes `languages` and article sources
        of some of them `changed`: the one started from content/ if it loads the
        segmenters needed (and no other that takes long), else a new one."""
        edited = changed_languages(languages, changed)
        slow = {code for code in edited if warm_text(code)}
        if self.service is not None and edited and slow == self.warming:
            return self.service
        self.close()
        if not edited:
            return None
        self.service = Service()
        self.service.warm(edited)
        self.warming = slow
        return self.service

    def close(self) -> None:
        if self.service is not None:
            self.service.close()
            self.service = None


def _warm(service: PagefindService, languages: list[str]) -> None:
    with contextlib.suppress(ServiceError, OSError):   # indexing names what went wrong
        service.warm(languages)


def pagefind_program() -> str | None:
    """The Pagefind program the `pagefind` package would run (its get_executable, in the
    package since its first release, 1.2.0: PAGEFIND_BINARY_PATH, else the
    `pagefind[extended]` wheel's program, else the `pagefind` wheel's, else one on PATH),
    run directly: `python -m pagefind` starts a Python that imports asyncio only to exec
    it (0.1 s of CPU a language). Found here as get_executable finds it, without
    importing `pagefind.service` (which imports asyncio: some 45 ms)."""
    program = os.environ.get("PAGEFIND_BINARY_PATH")
    if program is None:
        for wheel in ("pagefind_bin_extended", "pagefind_bin"):
            try:
                program = importlib.import_module(wheel).get_executable()
                break
            except ImportError:
                continue
        else:
            program = shutil.which("pagefind_extended") or shutil.which("pagefind")
    return str(program) if program is not None and os.access(program, os.X_OK) else None


def page_url(path: str) -> str:
    """The URL Pagefind gives a page at `path` in the folder it indexes (its build_url,
    without keep_index_url): `/` and the path, an `index.html` at its end left out."""
    if path == "index.html" or path.endswith("/index.html"):
        path = path[:-len("index.html")]
    return f"/{path}"
