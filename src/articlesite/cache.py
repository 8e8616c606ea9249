"""The build cache, ROOT/.articlesite-cache/: rendered pages by content hash, across runs.

A page is reused only when everything its HTML depends on is what it was:

- its key: this code and its libraries, the site configuration, every template byte and
  interface string, and the page's own sources (for an article page, its source, the
  bibliography and the article's listing; for an index page, the listings it shows; for
  the translator's view, everything it shows: see build.plan_view);
- what it read while it was rendered: each figure spec's digest, each dictionary text
  its figures showed, in its language, and the digest of each file its images and links
  looked for (None for a file that was absent, such as a language's variant) and the
  languages of each article it links to (links.py).

The files articles reference are kept in the same store, by digest, and listed among the
pages, at their place in site/ (assets/<slug>/…), so that they are put in place as the
pages are.

The stored HTML is a file named after its own digest, hard-linked into the new site; it is
reused only while its size and modification time are what they were when written, so an
edit made to it through site/ is never copied into a new build. Deleting the folder is
always safe.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import marshal
import os
import re
import shutil
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from .load.config import Site
from .load.figures import FigureFile
from .load.sourcefiles import CHANGED, digest, hasher, hexdigest, key_of
from .load.texts import Dictionary
from .memo import BODY, COPY, Memo
from .pages import Body
from .problems import BuildError, Problem, Problems
from .render.assets import kept_out, published
from .search_shards import BUNDLE
from .unchanged import CACHE_FOLDER, code_fingerprint, load_marshal

FOLDER = CACHE_FOLDER
FORMAT = 9
# The templates only the page around an article's body reads (article.html and what it
# includes): a change to them leaves every body as it is. Any other template may shape a
# body (figure.html, notice.html do): body_key covers it.
PAGE_TEMPLATES = ("article.html", "base.html", "favicon.html", "head-meta.html",
                  "dateline.html", "head.js", "style.css", "figure.css", "markdown.css",
                  "page.js", "search.js")
FigureCopy = tuple[list[tuple[str, str]], str]  # (key, element) pairs, the copy's HTML


def site_key(site: Site, templates: dict[str, str], strings: Dictionary,
             read: Iterable[str] = PAGE_TEMPLATES) -> str:
    """What every page depends on: configuration, templates and interface strings (what
    render_key covers, and the page templates and the search setting besides); with
    `read`, only those of the page templates."""
    return key_of(render_key(site, templates, strings), site.search,
                  sorted((name, text) for name, text in templates.items()
                         if name in PAGE_TEMPLATES and name in read))


def page_key(site: Site, templates: dict[str, str], strings: Dictionary, template: str) -> str:
    """What a page rendered with `template` depends on: as site_key, but of the page
    templates only those it reads (an edit to article.html leaves the indexes and the
    translator's view be)."""
    return site_key(site, templates, strings, templates_read(template, templates))


class PageKeys:
    """The site_key and each template's page_key of one build's sources, each worked out
    once."""

    def __init__(self, site: Site, templates: dict[str, str], strings: Dictionary):
        self._of = (site, templates, strings)
        self.site = site_key(site, templates, strings)
        self._pages: dict[str, str] = {}

    def page(self, template: str) -> str:
        if template not in self._pages:
            self._pages[template] = page_key(*self._of, template)
        return self._pages[template]


# A template's reference to another, by name: {% extends "base.html" %}, {% include … %},
# {% import … %}, {% from … import … %}. A name in quotes, or else an expression.
REFERENCE = re.compile(r"""\{%-?\s*(?:extends|include|import|from)\s+(["']?)([^"'\s]*)""")


def templates_read(name: str, templates: dict[str, str]) -> set[str]:
    """`name` and the templates it extends, includes or imports, theirs, and so on. A
    template named by an expression (worked out while rendering) may be any: then all."""
    read, pending = set(), [name]
    while pending:
        current = pending.pop()
        if current in read:
            continue
        read.add(current)
        for quote, target in REFERENCE.findall(templates.get(current, "")):
            if not quote:
                return set(templates)
            pending.append(target)
    return read


def index_key(site: str, template: str, language: str, listings: str) -> str:
    """An index page's (or the root page's): the listings of every article it shows
    (`listings` is their listings_digest)."""
    return key_of(site, template, language, listings)


def listings_digest(listings: list) -> str:
    return key_of(listings)


def article_key(site: str, language: str, listing: object, source: str,
                references: str | None, notices: object = None) -> str:
    """An article page's: its own source, the article's bibliography, its listing (the
    titles and descriptions the switcher shows in the other languages) and the sections it
    marks as possibly out of date (load/sections.py)."""
    return key_of(site, "article.html", language, listing, source, references, notices)


def render_key(site: Site, templates: dict[str, str], strings: Dictionary) -> str:
    """What every article body (pages.Body) and figure copy for the translator's view
    depends on: as site_key, but not the templates only the pages around them read."""
    return key_of(code_fingerprint(), str(site.root), site.languages, site.default_language,
                  site.source_language, site.base_url, site.admonitions, site.link_base,
                  site.numbering,
                  sorted((name, text) for name, text in templates.items()
                         if name not in PAGE_TEMPLATES), strings.texts)


def body_key(render: str, slug: str, language: str, source: str, references: str | None,
             notices: object = None) -> str:
    """An article body's: what its page's key covers (article_key) but the templates only
    the page reads (`render`: render_key) and of the article's listing all but its slug
    (a body links to its other languages' pages: a stale section's notice)."""
    return key_of(render, "body", slug, language, source, references, notices)


def view_key(site: str, path: str, texts: str, confirmed: dict, figures: list,
             links: dict, sections: object) -> str:
    """The translator's view's: everything it shows (see build.plan_view); `texts`: the
    dictionary's digest (Cache.texts_key)."""
    return key_of(site, path, texts, confirmed, figures, links, sections)


def copy_key(site: str, figure: str) -> str:
    """A figure's copy for the translator's view: its spec's digest (`site`: render_key)."""
    return key_of(site, figure)


def texts_digest(texts: tuple[tuple[str, str], ...], dictionary: Dictionary) -> str:
    """Of these texts' values, and of which of them stand in for a language in progress
    (a page marks those)."""
    fallbacks = dictionary.fallbacks
    return key_of([dictionary.texts.get(key, {}).get(language) for key, language in texts],
                  [pair for pair in texts if pair in fallbacks] if fallbacks else None)


class Stored(NamedTuple):
    """A file in the store: its digest (its name there), size and modification time."""

    blob: str
    size: int
    mtime_ns: int


class StoredCopy(NamedTuple):
    """What the memo keeps of a figure's copy for the translator's view: all of it, a
    few kilobytes (a file of its own in the store cost more to create than the copy
    to render, and the next build reads every one of them back or none)."""

    uses: list[tuple[str, str]]   # the (key, element) pairs it shows
    html: str


class KeptBody(NamedTuple):
    """What the memo keeps of an article body (pages.Body): what it read, and where its
    HTML is in the store: inside its page, as the page template put it there (`span`:
    the characters it takes), or, if the template changed it, in a file of its own."""

    blob: str                                  # the page's file, or the body's own
    span: tuple[int, int] | None               # its characters in the page; None: own
    headings: list[tuple]                      # as Body.headings
    cite_count: list[tuple[str, int]]          # sorted items of Body.cite_count
    figures: list[tuple[str, str | None]]      # figure id, spec digest (None: absent)
    texts: tuple[tuple[str, str], ...]         # dictionary key, language
    texts_digest: str                          # of those texts' values
    files: list[tuple[str, str | None]]        # what its images and links looked at


class Saved(NamedTuple):
    """What Cache.save recorded: the next build in this process starts from it."""

    pages: dict[str, Entry]
    memo: dict
    texts: str


class Entry(NamedTuple):
    """A rendered page in the cache: its key, what it read, and its stored HTML."""

    key: str
    figures: tuple[tuple[str, str | None], ...]   # figure id, spec digest (None: absent)
    texts: tuple[tuple[str, str], ...]            # dictionary key, language
    texts_digest: str                             # of those texts' values
    blob: str                                     # digest of the HTML, its name in store
    size: int
    mtime_ns: int
    files: tuple[tuple[str, str | None], ...] = ()  # what its images and links looked at
    search: str = ""   # digest of what the search index is given of it (search.py)


def batched(chunks: Iterable[str], size: int = 1 << 16) -> Iterator[str]:
    """The chunks joined into pieces of about `size` characters."""
    pending, length = [], 0
    for chunk in chunks:
        pending.append(chunk)
        length += len(chunk)
        if length >= size:
            yield "".join(pending)
            pending, length = [], 0
    yield "".join(pending)


# The thread deleting files in a store's folder, if one was started (Store.delete_soon).
_deleting: dict[Path, threading.Thread] = {}


class Store:
    """HTML files named after their digest."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._temporaries = itertools.count()

    def put(self, html: str) -> Stored:
        """Write a page; return its digest, size and modification time."""
        return self.put_bytes(html.encode("utf-8"))

    def put_chunks(self, chunks: Iterable[str]) -> Stored:
        """Write a page given in pieces, never holding it whole; as `put`."""
        self.settle()
        content = hasher()
        temporary = self.folder / f".{os.getpid()}.{next(self._temporaries)}.tmp"
        with temporary.open("wb") as out:
            for part in batched(chunks):
                data = part.encode("utf-8")
                content.update(data)
                out.write(data)
        blob = hexdigest(content)
        path = self.path(blob)
        os.replace(temporary, path)
        stat = path.stat()
        return Stored(blob, stat.st_size, stat.st_mtime_ns)

    def put_bytes(self, data: bytes) -> Stored:
        """Store a file as it is (a file an article references); as `put`. A file the
        store holds already with these very bytes (an earlier build's) is left as it is:
        on some file systems creating a file costs as much CPU as rendering a figure."""
        self.settle()
        blob = digest(data)
        path = self.path(blob)
        try:
            stat = path.stat()
            if stat.st_size == len(data) and path.read_bytes() == data:
                return Stored(blob, stat.st_size, stat.st_mtime_ns)
        except OSError:
            pass
        temporary = self.folder / f".{os.getpid()}.{next(self._temporaries)}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, path)
        stat = path.stat()
        return Stored(blob, stat.st_size, stat.st_mtime_ns)

    def path(self, blob: str) -> Path:
        return self.folder / f"{blob}.html"

    def read(self, blob: str) -> str | None:
        """A stored text, if it is still exactly what was stored."""
        try:
            data = self.path(blob).read_bytes()
        except OSError:
            return None
        return data.decode("utf-8") if digest(data) == blob else None

    def holds(self, entry: Entry) -> bool:
        try:
            stat = self.path(entry.blob).stat()
        except OSError:
            return False
        return (stat.st_size, stat.st_mtime_ns) == (entry.size, entry.mtime_ns)

    def intact(self, entry: Entry) -> bool:
        """Whether the stored file of `entry` is still what was stored: as the build wrote
        it (size and modification time as recorded then), else by the digest of its
        bytes (a file stored again with the same bytes). A missing or damaged one is
        not (the build makes it again)."""
        if self.holds(entry):
            return True
        try:
            return digest(self.path(entry.blob).read_bytes()) == entry.blob
        except OSError:
            return False

    def place(self, blob: str, target: Path) -> None:
        """Put a stored page at `target`: a hard link, or a copy across file systems."""
        source = self.path(blob)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)

    def unused(self, blobs: set[str]) -> list[str]:
        """The names of the files here that hold none of these blobs."""
        return [item.name for item in os.scandir(self.folder)
                if item.name.removesuffix(".html") not in blobs]

    def delete_soon(self, names: list[str]) -> None:
        """Delete these files in a thread of their own, beside the work that follows (on
        a disk mounted with `discard` a deletion waits for the disk: 3000 pages took
        0.7-1.6 s at N=1000). A write to the store, through any Store of its folder in
        this process, waits for the thread first (settle), so that a file written again
        is never deleted after."""
        self.settle()
        if names:
            thread = _deleting[self.folder] = threading.Thread(
                target=self._delete, args=(names,), name="store-delete", daemon=True)
            thread.start()

    def _delete(self, names: list[str]) -> None:
        for name in names:
            with contextlib.suppress(OSError):
                os.unlink(self.folder / name)

    def settle(self) -> None:
        """Wait for the deletions under way in this folder (delete_soon)."""
        thread = _deleting.pop(self.folder, None)
        if thread is not None:
            thread.join()


def prepare_folder(folder: Path) -> None:
    """Make the cache's folders. What stands in the way inside it (a file where a folder
    goes, or the other way round) was put there by no build and holds nothing of the
    author's: it goes. The cache's folder itself being a file is a BuildError."""
    if folder.exists() and not folder.is_dir():
        raise BuildError([Problem(FOLDER, None, "the build cache's folder is a file: "
                                  f"delete it (`rm {FOLDER}`; the build makes the folder "
                                  "again) and build again")])
    for name, want_folder in (("pages", True), ("templates", True), ("index", False),
                              ("copies", False), ("bundle", False)):
        path = folder / name
        if path.is_symlink() or (path.exists() and path.is_dir() != want_folder):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
    (folder / "pages").mkdir(parents=True, exist_ok=True)


class Cache:
    """The pages and parsed files of the last successful build."""

    def __init__(self, root: Path, *, clean: bool = False, after: Cache | None = None):
        """The cache under `root`; `after` a cache this process saved (serve builds again
        and again): its state is taken as it is, without reading the index again."""
        self.folder = root / FOLDER
        self.store = Store(self.folder / "pages")
        self.pages: dict[str, Entry] = {}
        # The figure copies (a few KB each, half the index) are a file of their own,
        # read only by a build that asks for one (the view rendered; a page placing a
        # figure the memo has no copy of asks only whether it has: Memo.has).
        self._copies: str | None = None   # the token of the copies file the index names
        self._saved_copies = False
        self.memo = Memo(parts={COPY: self._load_copies})
        # The digest of the dictionary texts every page in `pages` was checked against.
        self.texts: str | None = None
        self._texts_key: tuple[Dictionary | None, str] = (None, "")
        self.saved: Saved | None = None
        # The files of the store the last build left unused, if a process that ended may
        # have left some of them (Cache.save).
        self.superseded: list[str] = []
        # The index file's token, which the bundle file names (save_ahead, save).
        self._token: str | None = None
        self._ahead: bool | None = None   # whether save_ahead wrote the index
        prepare_folder(self.folder)
        if after is not None and after.saved is not None and after.folder == self.folder:
            self.texts = after.saved.texts
            self.pages = dict(after.saved.pages)
            self.memo = Memo(dict(after.saved.memo), parts={COPY: self._load_copies})
            self._copies = after._copies
            self.memo.part_keys[COPY] = after.memo.part_keys.get(COPY, set())
            self._token = after._token
            if after._saved_copies:   # its memo holds every copy it kept: not read again
                self.memo.loaded.add(COPY)
            self._texts_key = after._texts_key   # worked out for the same dictionary
        elif not clean:
            self._load()

    def delete_superseded(self) -> None:
        """Delete the files the last build left unused that are still there, in a thread
        (Store.delete_soon)."""
        self.store.delete_soon(self.superseded)

    def compiled_templates(self) -> Path:
        """The folder where Jinja keeps the templates it compiled (render/templates.py),
        one per version of this code and its libraries (which shape the compiled code;
        Jinja itself compares each template's text): a compile cache, like Python's
        __pycache__, that --clean keeps. The folders of other versions are deleted."""
        folder = self.folder / "templates"
        current = folder / code_fingerprint()[:16]
        if not current.is_dir():
            if folder.is_dir():
                for other in folder.iterdir():
                    shutil.rmtree(other, ignore_errors=True)
            current.mkdir(parents=True, exist_ok=True)
        return current

    def _load(self) -> None:
        # marshal: the index is plain tuples, lists and strings, and marshal reads them
        # twice as fast as json, without pickle's running of code.
        try:
            data = load_marshal(self.folder / "index")
            if data["format"] != FORMAT or data["code"] != code_fingerprint():
                return
            self.pages = {path: Entry._make(row) for path, row in data["pages"].items()}
            self.memo = Memo(data["parsed"], parts={COPY: self._load_copies})
            self._copies = data["copies"]
            self.memo.part_keys[COPY] = set(data["copy_keys"])
            self.texts = data.get("texts")
            self._token = data["token"]
        except (OSError, ValueError, EOFError, KeyError, TypeError):
            self.pages = {}  # unreadable: start afresh
            return
        # The search bundle's files, saved once the index was made (save): each entry
        # stands for itself (its key names what its language's pages gave Pagefind, and
        # its stored file is checked), so those of an earlier save serve too; the files
        # it left unused only if that save followed the index's.
        try:
            data = load_marshal(self.folder / "bundle")
            self.pages.update((path, Entry._make(row)) for path, row in data["pages"].items()
                              if path.startswith(f"{BUNDLE}/"))
            if data["token"] == self._token:
                self.superseded = data["superseded"]
        except (OSError, ValueError, EOFError, KeyError, TypeError, AttributeError):
            pass

    def _load_copies(self) -> dict:
        """The memo's figure copies, from their file, if it is the one the index names."""
        try:
            data = load_marshal(self.folder / "copies")
            if self._copies is not None and data["token"] == self._copies:
                return dict(data["entries"])
        except (OSError, ValueError, EOFError, KeyError, TypeError):
            pass
        return {}

    def reusable(self, path: str, key: str, figures: dict[str, FigureFile],
                 dictionary: Dictionary) -> Entry | None:
        """The cached page, if nothing it depends on changed and its HTML is intact."""
        entry = self.pages.get(path)
        if entry is None or entry.key != key:
            return None
        for figure_id, spec in entry.figures:
            file = figures.get(figure_id)
            if (file.digest if file else None) != spec:
                return None
        if not self.same_texts(dictionary) and \
                texts_digest(entry.texts, dictionary) != entry.texts_digest:
            return None
        return entry if self.store.holds(entry) else None

    def same_texts(self, dictionary: Dictionary) -> bool:
        """Whether the dictionary's texts are those the cached pages were checked against
        (then no page's texts need checking: at N=1000 that is 3000 pages' worth)."""
        return self.texts_key(dictionary) == self.texts

    def texts_key(self, dictionary: Dictionary) -> str:
        """The digest of the dictionary's texts (worked out once per dictionary)."""
        if self._texts_key[0] is not dictionary:
            self._texts_key = (dictionary, key_of(dictionary.texts,
                                                  sorted(dictionary.fallbacks),
                                                  sorted(dictionary.same)))
        return self._texts_key[1]

    # The translator's view's figure copies (build.render_view): the memo keeps, by key,
    # each copy's (key, element) pairs and its HTML.
    def stored_copy(self, key: str) -> StoredCopy | None:
        kept = self.memo.recall(COPY, key)
        return None if kept is None else StoredCopy._make(kept)

    def holds_copy(self, key: str) -> bool:
        """Whether the memo has this copy (its file is not read for it)."""
        return self.memo.has(COPY, key)

    def keep_copy(self, key: str, stored: StoredCopy) -> None:
        self.memo.keep(COPY, key, tuple(stored))   # marshal keeps plain tuples only

    @staticmethod
    def store_copy(copy: FigureCopy) -> StoredCopy:
        """What the memo keeps of a copy (a build worker may make it)."""
        uses, html = copy
        return StoredCopy(uses, html)

    @staticmethod
    def load_copy(stored: StoredCopy) -> FigureCopy | None:
        """The copy the memo kept."""
        return stored.uses, stored.html

    # Article bodies (pages.Body): the memo keeps, by body_key, what each read and where
    # its HTML is in the store; build.plan_pages recalls those it may reuse.
    def store_body(self, body: Body, dictionary: Dictionary) -> KeptBody:
        """Write a body's HTML to the store, as a file of its own (a build worker may do
        this); what the memo keeps of it (keep_body)."""
        texts = tuple(sorted(body.texts))
        return self._kept(body, self.store.put(body.html).blob, None,
                          texts_digest(texts, dictionary))

    def body_in_page(self, body: Body, page: str, entry: Entry,
                     dictionary: Dictionary) -> KeptBody:
        """What the memo keeps of a body its page (`page`, stored as `entry`) holds: where
        it is in the page's file. A page is some twice its body: storing the body beside
        it was a third of the store's bytes. A template that put the body in its page
        other than as it is: in a file of its own (store_body)."""
        start = page.find(body.html)
        if start < 0:
            return self.store_body(body, dictionary)
        texts = tuple(sorted(body.texts))
        digest = entry.texts_digest if entry.texts == texts else \
            texts_digest(texts, dictionary)
        return self._kept(body, entry.blob, (start, start + len(body.html)), digest)

    @staticmethod
    def _kept(body: Body, blob: str, span: tuple[int, int] | None,
              digest: str) -> KeptBody:
        return KeptBody(blob, span, body.headings, sorted(body.cite_count.items()),
                        sorted(body.figures.items()), tuple(sorted(body.texts)), digest,
                        sorted(body.files.items()))

    def keep_body(self, key: str, kept: KeptBody) -> None:
        self.memo.keep(BODY, key, tuple(kept))   # marshal keeps plain tuples only

    def reusable_body(self, key: str, figures: dict[str, FigureFile],
                      dictionary: Dictionary) -> KeptBody | None:
        """What the memo keeps of a body, if the figures and texts it read are as they
        were (the files it read: assets.current); its HTML is read by load_body."""
        recalled = self.memo.recall(BODY, key)
        if recalled is None:
            return None
        kept = KeptBody._make(recalled)
        for figure_id, spec in kept.figures:
            file = figures.get(figure_id)
            if (file.digest if file else None) != spec:
                return None
        if not self.same_texts(dictionary) and \
                texts_digest(kept.texts, dictionary) != kept.texts_digest:
            return None
        return kept

    def load_body(self, kept: KeptBody) -> Body | None:
        """The body, if its HTML in the store is still exactly what was stored (the whole
        file it is in: its page's, through whose hard link in site/ it may have been
        edited)."""
        html = self.store.read(kept.blob)
        if html is None:
            return None
        if kept.span is not None:
            start, end = kept.span
            html = html[start:end]
        return Body(html, [tuple(heading) for heading in kept.headings],
                    dict(kept.cite_count), dict(kept.figures), set(kept.texts),
                    dict(kept.files))

    def save_ahead(self, pages: dict[str, Entry], dictionary: Dictionary) -> None:
        """Record the build's pages but its search bundle, and what it parsed: the index
        file, written while the search index is still being made (the build then waits
        for it); `save` records the rest. Pages and parsed files are cached by what they
        depend on: a build that fails later leaves them for the next to reuse."""
        self._ahead = self._save_index(
            {path: entry for path, entry in pages.items() if not path.startswith(f"{BUNDLE}/")},
            dictionary)

    def save(self, pages: dict[str, Entry], dictionary: Dictionary) -> None:
        """Record a successful build, whose pages were all checked against or rendered
        from `dictionary`, and delete the stored files it no longer uses, in a thread: a
        process that goes on (serve) deletes them all while it waits; one that ends at
        once (the build command) leaves them to the next build, which finds them named
        in the cache (delete_superseded). The search bundle's files are recorded in a
        file of their own (`bundle`, small), the rest in the index (save_ahead, unless
        the build called it)."""
        texts = self.texts_key(dictionary)
        self.saved = Saved(pages, self.memo.kept, texts)   # (serve's next build: copies
        self._saved_copies = COPY in self.memo.loaded     # it loaded stay in memory)
        bundle = {path: entry for path, entry in pages.items()
                  if path.startswith(f"{BUNDLE}/")}
        written = self._save_index({path: entry for path, entry in pages.items()
                                    if path not in bundle}, dictionary) \
            if self._ahead is None else self._ahead
        self._ahead = None
        if not written and bundle == {path: entry for path, entry in self.pages.items()
                                      if path.startswith(f"{BUNDLE}/")}:
            return
        bodies = {KeptBody._make(value).blob for value in self.memo.of_kind(BODY)}
        given = {entry.search for entry in pages.values()}   # (search.given_digest)
        self.store.settle()
        unused = self.store.unused({entry.blob for entry in pages.values()} | given |
                                   bodies)
        self._write("bundle", {"token": self._token, "superseded": unused,
                               "pages": {path: tuple(entry) for path, entry in bundle.items()}})
        self.store.delete_soon(unused)

    def _save_index(self, pages: dict[str, Entry], dictionary: Dictionary) -> bool:
        """Write the index (pages without the search bundle's files), and the copies'
        file, if they changed; whether they did."""
        texts = self.texts_key(dictionary)
        main, copies = self.memo.without_parts(), self.memo.part_to_save(COPY)
        if pages == {path: entry for path, entry in self.pages.items()
                     if not path.startswith(f"{BUNDLE}/")} and copies is None and \
                texts == self.texts and main == self.memo.known_without_parts():
            return False
        if copies is not None:   # (else the file stays as it is, and its token)
            self._copies = os.urandom(8).hex()
            self._write("copies", {"token": self._copies, "entries": copies})
            self.memo.part_keys[COPY] = set(copies)
        self._token = os.urandom(8).hex()
        self._write("index", {
            "format": FORMAT, "code": code_fingerprint(), "parsed": main, "texts": texts,
            "pages": {path: tuple(entry) for path, entry in pages.items()},
            "token": self._token, "copies": self._copies,
            "copy_keys": sorted(self.memo.part_keys.get(COPY, ()))})
        return True

    def _write(self, name: str, data: dict) -> None:
        temporary = self.folder / f".{name}.{os.getpid()}.tmp"
        temporary.write_bytes(marshal.dumps(data))
        os.replace(temporary, self.folder / name)


def _bytes_of(store: Store, blob: str, source: Path) -> bytes:
    """A referenced file's bytes: its copy in the store, else its source (b"" if gone)."""
    for path in (store.path(blob), source):
        with contextlib.suppress(OSError):
            return path.read_bytes()
    return b""


def store_files(pages: dict[str, Entry], previous: dict[str, Entry], store: Store,
                root: Path, problems: Problems, left_out: list[str] | None = None
                ) -> dict[str, Entry]:
    """The files the pages show or link to, as cache entries of their copies in the store:
    the last build's entry while its copy is intact, else a new one (the copy put back
    from the source if it was altered, e.g. edited through its hard link in site/). With
    `left_out`, the files that can run scripts (assets.kept_out) are not published but
    listed there (root-relative)."""
    found = {}
    for path, (blob, relative) in published(pages).items():
        if left_out is not None and kept_out(
                path, blob, functools.partial(_bytes_of, store, blob, root / relative)):
            left_out.append(relative)
            continue
        entry = previous.get(path)
        if entry is not None and entry.blob == blob and store.holds(entry):
            found[path] = entry
            continue
        try:
            if digest(store.path(blob).read_bytes()) != blob:
                raise OSError
        except OSError:
            data = (root / relative).read_bytes() if (root / relative).is_file() else b""
            if digest(data) != blob:
                problems.add(root / relative, None, CHANGED)
                continue
            store.put_bytes(data)
        stat = store.path(blob).stat()
        found[path] = Entry(blob, (), (), "", blob, stat.st_size, stat.st_mtime_ns)
    return found
