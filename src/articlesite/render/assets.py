"""Files an article references: images and downloads in its own folder, published once
for every language under `site/assets/<slug>/`, with per-language variants.

A reference `chart.assets/fig.png` on the page in language `ja` is the file
`content/<slug>/chart.assets/fig.ja.png` when it exists (the variant), else
`content/<slug>/chart.assets/fig.png` (the shared file). Both are published under their
own names, so a file shared by every language is written once. Each file is read once
per build and process: its digest names it in the cache's store, and the pages that show
it record the digests of what they looked for (see `current`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Protocol
from xml.etree import ElementTree

from ..load.sourcefiles import digest

ARTICLE_KEY = "article:"   # in a page's record of what it looked at: an article's languages
FOLDER = "assets"   # site/assets/<slug>/<path inside the article's folder>


def is_published_file(path: str) -> bool:
    """Whether a path of the site is a file an article references (not a page)."""
    return path.startswith(f"{FOLDER}/")


# The files a browser opens as a document that can run scripts, at the site's address (a
# host serves each by its name's suffix): published only when site.yaml says so
# (`publish_html_and_svg`). An image shown by <img> runs none, but can be opened alone.
ACTIVE = (".html", ".htm", ".xhtml", ".xht", ".shtml", ".svg", ".svgz", ".xml", ".xsl",
          ".xslt", ".mht", ".mhtml")


def is_active(path: str) -> bool:
    """Whether a published file is one a browser would run scripts in (ACTIVE)."""
    return path.lower().endswith(ACTIVE)


# What lets an SVG opened alone run a script or show a page of its own: these elements,
# an event attribute (on…), a javascript: URL or a data: URL but a raster image's, an
# entity declared or a style sheet instruction (XSLT). SCRIPTLESS_MOST bytes at most.
_SCRIPTING = {"script", "foreignobject", "iframe", "embed", "object", "handler",
              "listener", "meta"}
_DECLARATIONS = re.compile(rb"<!ENTITY|<\?xml-stylesheet", re.IGNORECASE)
_SCRIPT_URL = re.compile(r"(?:java|vb)script:|data:(?!image/(?:png|jpeg|gif|webp|avif)[;,])",
                         re.IGNORECASE)
SCRIPTLESS_MOST = 8 << 20


_judged: dict[str, bool] = {}   # an SVG's digest -> runs_scripts (serve builds often)


def kept_out(path: str, hashed: str, read: Callable[[], bytes]) -> bool:
    """Whether the build leaves a published file out unless site.yaml trusts such files
    (`publish_html_and_svg`): a file of ACTIVE's kinds that may run a script when opened
    alone on the site's address. An SVG is read (`read()`, its bytes) and judged once
    per content in a process."""
    if not is_active(path):
        return False
    if not path.lower().endswith(".svg"):
        return True
    if hashed not in _judged:
        _judged[hashed] = runs_scripts(read())
    return _judged[hashed]


def runs_scripts(data: bytes) -> bool:
    """Whether an SVG may run a script: it does not parse, or it holds something of the
    above. A drawing exported by a tool, as most are, holds none. Unsure is yes."""
    if len(data) > SCRIPTLESS_MOST or _DECLARATIONS.search(data):
        return True
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError):
        return True
    for element in root.iter():
        if not isinstance(element.tag, str) or \
                element.tag.rsplit("}", 1)[-1].lower() in _SCRIPTING:
            return True
        for name, value in element.attrib.items():
            if name.rsplit("}", 1)[-1].lower().startswith("on") or \
                    _SCRIPT_URL.search(re.sub(r"[\s\x00-\x1f]", "", value)):
                return True
    return False


IMAGE_FORMATS = "PNG, JPEG, GIF, WebP, AVIF or SVG"


@dataclass(frozen=True)
class FileInfo:
    """What a build read of a referenced file."""

    digest: str
    size: tuple[int, int] | None   # an image's width and height in CSS px
    kind: str | None               # "png", "jpeg", "gif", "webp", "avif", "svg"; None: no image
    scripts: bool = False          # left out unless site.yaml trusts such files (kept_out)


def variant_name(name: str, language: str) -> str:
    """`fig.png` -> `fig.ja.png`; `notes` -> `notes.ja`."""
    path = PurePosixPath(name)
    if path.suffix:
        return str(path.with_name(f"{path.stem}.{language}{path.suffix}"))
    return f"{name}.{language}"


def site_path(slug: str, relative: str) -> str:
    """Where a file of the article's folder is published, inside site/."""
    return f"{FOLDER}/{slug}/{relative}"


class FileStore(Protocol):
    """What rendering needs of the cache's store (cache.Store): where a file of a digest
    is, and a way to put one there."""

    def path(self, blob: str) -> Path: ...

    def put_bytes(self, data: bytes) -> object: ...


class Files:
    """Reads referenced files, once per process and build; puts each in the cache's store
    (when given one) so that the site can be assembled from it."""

    def __init__(self, root: Path, store: FileStore | None = None):
        self.root = root
        self.store = store
        self._seen: dict[str, FileInfo | None] = {}

    def info(self, relative: str) -> FileInfo | None:
        """The file `relative` (to the project root), or None when there is no such file."""
        if relative not in self._seen:
            self._seen[relative] = self._read(relative)
        return self._seen[relative]

    def _read(self, relative: str) -> FileInfo | None:
        path = self.root / relative
        try:
            if not path.is_file():
                return None
            data = path.read_bytes()
        except (OSError, ValueError):
            return None
        hashed = digest(data)
        if self.store is not None and not self.store.path(hashed).is_file():
            self.store.put_bytes(data)
        kind, size = image_size(data)
        return FileInfo(hashed, size, kind, kept_out(relative, hashed, lambda: data))

    def choose(self, article_folder: str, relative: str, language: str
               ) -> tuple[str, dict[str, str | None]]:
        """The file a page in `language` shows for `relative` (inside the article's folder
        `article_folder`, root-relative), and what was looked at: {root-relative path:
        digest or None}. The chosen path is None-valued in the record when neither exists."""
        looked: dict[str, str | None] = {}
        for name in (variant_name(relative, language), relative):
            info = self.info(f"{article_folder}/{name}")
            looked[f"{article_folder}/{name}"] = info.digest if info else None
            if info is not None:
                return name, looked
        return relative, looked


def current(files: Iterable[tuple[str, str | None]], reader: Files,
            articles: dict[str, str], store) -> bool:
    """Whether every file a cached page looked at is what it was (and, for those it
    showed, still in the store), and every article it linked to has the languages it
    had (`articles`: slug -> its languages, space-separated)."""
    for relative, expected in files:
        if relative.startswith(ARTICLE_KEY):
            if articles.get(relative.removeprefix(ARTICLE_KEY)) != expected:
                return False
            continue
        info = reader.info(relative)
        if (info.digest if info else None) != expected:
            return False
        if info is not None and not store.path(info.digest).is_file():
            return False
    return True


def published(pages: dict) -> dict[str, tuple[str, str]]:
    """Every file the pages show or link to: {path in site/: (digest, root-relative
    path of the source)}."""
    found: dict[str, tuple[str, str]] = {}
    for entry in pages.values():
        for relative, hashed in entry.files:
            where = article_file(relative) if hashed else None
            if where is not None:
                found[site_path(*where)] = (hashed, relative)
    return found


def article_file(relative: str) -> tuple[str, str] | None:
    """`content/<slug>/a/b.png` -> (slug, "a/b.png")."""
    parts = relative.split("/", 2)
    if len(parts) != 3 or parts[0] != "content":
        return None
    return parts[1], parts[2]


# Image sizes -----------------------------------------------------------------------
_FORMATS = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8": "jpeg", b"GIF87a": "gif",
            b"GIF89a": "gif"}
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54,
          "mm": 96 / 25.4, "q": 96 / 101.6}
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-zA-Z]*)\s*$")


def sniff(data: bytes) -> str | None:
    """The image format a browser shows, from the file's first bytes; None if none."""
    for magic, kind in _FORMATS.items():
        if data.startswith(magic):
            return kind
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        return "avif"
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") and b"<svg" in data[:4096]:
        return "svg"
    return None


def image_size(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """The image's format and its width and height in CSS px (rounded), as far as they
    can be read: (None, None) for a file that is no image a browser shows."""
    kind = sniff(data)
    if kind is None:
        return None, None
    if kind == "svg":
        return kind, svg_size(data)
    # Imported here: it imports urllib.request (http.client, ssl, email: some 7 ms), and
    # only a build with a raster image needs it.
    import imagesize

    try:
        info = imagesize.get_info(io.BytesIO(data))
    except (ValueError, OSError, EOFError):
        return kind, None
    width, height = info.width, info.height
    if width <= 0 or height <= 0:
        return kind, None
    if info.rotation in (5, 6, 7, 8):  # EXIF orientation: the browser turns the photo
        width, height = height, width
    return kind, (round(width), round(height))


def svg_size(data: bytes) -> tuple[int, int] | None:
    """An SVG's size from its root element: `width` and `height` in absolute units, else
    `viewBox` (scaled to one of them when only one is given); None when it has neither."""
    attributes = _svg_root(data)
    if attributes is None:
        return None
    width, height = _length(attributes.get("width")), _length(attributes.get("height"))
    box = None
    numbers = re.split(r"[\s,]+", attributes.get("viewBox", "").strip())
    if len(numbers) == 4:
        try:
            box = (float(numbers[2]), float(numbers[3]))
        except ValueError:
            box = None
    if box is not None and (box[0] <= 0 or box[1] <= 0):
        box = None
    if width and height:
        size = (width, height)
    elif box and width:
        size = (width, width * box[1] / box[0])
    elif box and height:
        size = (height * box[0] / box[1], height)
    elif box:
        size = box
    else:
        return None
    rounded = (round(size[0]), round(size[1]))
    return rounded if min(rounded) > 0 else None


def _svg_root(data: bytes) -> dict[str, str] | None:
    """The attributes of the root element; only the document's start is parsed (expat,
    whose limits on entity expansion guard against entity bombs)."""
    parser = ElementTree.XMLPullParser(events=("start",))
    try:
        for start in range(0, min(len(data), 1 << 20), 4096):
            parser.feed(data[start:start + 4096])
            for _, element in parser.read_events():
                if element.tag.rsplit("}", 1)[-1] != "svg":
                    return None
                return dict(element.attrib)
    except ElementTree.ParseError:
        return None
    return None


def _length(value: str | None) -> float | None:
    match = _LENGTH.match(value or "")
    if not match or match.group(2).lower() not in _UNITS:
        return None   # %, em, ex or no value: the size comes from the viewBox
    number = float(match.group(1)) * _UNITS[match.group(2).lower()]
    return number if number > 0 else None

