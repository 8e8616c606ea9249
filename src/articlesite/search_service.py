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
import json
import os
import subprocess
import tempfile
import threading
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

    def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Send a request and wait for its response's payload; raises ServiceError."""
        number = next(self._numbers)
        message = json.dumps({"message_id": number, "payload": payload}).encode("utf-8")
        try:
            self.process.stdin.write(base64.b64encode(message) + b",")
            self.process.stdin.flush()
        except OSError:
            raise ServiceError(self._ended()) from None
        while True:
            response = self._next()
            if response.get("message_id") == number:
                answer = response.get("payload") or {}
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

    def index_folder(self, folder: Path) -> dict[str, bytes]:
        """Index the HTML pages under `folder` as `pagefind --site FOLDER` would; the
        bundle's files, by their path in it. (They are asked for, not written by the
        service: it answers a request to write them before they are all written.)"""
        index = self.ask({"type": "NewIndex", "config": {}})["index_id"]
        self.ask({"type": "AddDir", "index_id": index, "path": str(folder)})
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

    def index(self, folder: Path) -> tuple[dict[str, bytes], str | None]:
        """The bundle's files for the pages under `folder` (PagefindService.index_folder),
        or what went wrong (also when `stop` ended the service meanwhile)."""
        try:
            self.warm()
            self._warming.join()
            return self._service.index_folder(folder), None
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
            self._service.close()


def _warm(service: PagefindService, languages: list[str]) -> None:
    with contextlib.suppress(ServiceError, OSError):   # indexing names what went wrong
        service.warm(languages)


def pagefind_program() -> str | None:
    """The Pagefind program the `pagefind` package would run (PAGEFIND_BINARY_PATH, else
    its `pagefind[extended]` wheel's, else one on PATH; get_executable is in the package
    since its first release, 1.2.0), run directly: `python -m pagefind` starts a Python
    that imports asyncio only to exec it (0.1 s of CPU a language). Imported here, since
    only a build that indexes needs it."""
    from pagefind.service import get_executable

    program = get_executable()
    return str(program) if program is not None and os.access(program, os.X_OK) else None
