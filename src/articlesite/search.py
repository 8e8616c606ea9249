"""Full-text search: the Pagefind bundle (`site/pagefind/`), built from the finished
pages at build time by the Pagefind program the `pagefind[extended]` wheel ships (the
extended build segments Chinese and Japanese into words). Pagefind keeps one index per
`<html lang>`, so a page searches its own language only (templates/search.js).

Only articles are indexed (their `<article>` carries data-pagefind-body); the table of
contents is left out. A large language's index is in shards (search_shards.py), each a
bundle of its own. Each language's part of a shard's bundle is kept in the build cache
like a page: it is made again only when what Pagefind is given of a page of that
language in that shard changed (search_input), and put in place with the pages.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path, PurePosixPath

from .cache import Entry, Store, key_of
from .load.sourcefiles import digest
from .problems import Problems
from .search_service import Service, warm_text
from .search_shards import BUNDLE, MANIFEST, by_shard, folder, manifest


def pagefind_version() -> str:
    try:
        return version("pagefind")
    except PackageNotFoundError:
        return ""


MARK = "data-pagefind-"   # Pagefind's attributes: -body, -ignore, -meta, -filter, …
TAG_NAME = re.compile(r"<([A-Za-z][\w-]*)")
BODY_TAG = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
STYLE_OR_SCRIPT = re.compile(r"<(style|script)\b", re.IGNORECASE)
END_TAG = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in ("style", "script")}
# What Pagefind does not read of an article: inline styles (a figure's coordinates) and
# the empty elements hidden from readers (its edges, one span a segment). Left out, a
# figure's node moved in serve's editor gives Pagefind the same input: no new index.
GEOMETRY = re.compile(r' style="[^"]*"|<span\b[^<>]*\baria-hidden="true"[^<>]*></span>\n?')


def search_input(html: str) -> str:
    """What Pagefind is given of a page, so all that the index depends on: the page up to
    its <body> tag (the <html> tag with its lang, the <head> without its styles and
    scripts) and the one element marked data-pagefind-body, the only part of the body
    Pagefind reads once pages mark one, without the elements in it marked
    data-pagefind-ignore (the table of contents, a figure's controls). A change elsewhere
    (the header, the table of contents, the footer, the stylesheet) then leaves the index
    be; so does a figure's geometry (GEOMETRY: inline styles and its hidden edges). A
    page that
    marks no such element, or more than one, or marks anything but `ignore` outside it,
    is given whole; so is a skipped element that marks anything inside it."""
    marks = []   # (where the marked element's start tag begins, the mark's kind)
    at = html.find(MARK)
    while at != -1:
        kind = re.match(r"[\w-]*", html[at + len(MARK):at + len(MARK) + 40]).group()
        marks.append((html.rfind("<", 0, at), kind))
        at = html.find(MARK, at + len(MARK))
    body = BODY_TAG.search(html)
    indexed = [start for start, kind in marks if kind == "body"]
    if len(indexed) != 1 or body is None or body.end() > indexed[0]:
        return html
    start = indexed[0]
    end = element_end(html, start)
    if end is None or any(kind != "ignore" and not start <= where < end
                          for where, kind in marks):
        return html
    kept, position = [without_styles_and_scripts(html[:body.end()])], start
    for where, kind in marks:
        if kind != "ignore" or not position <= where < end:
            continue
        after = element_end(html, where)
        if after is not None and not any(other_kind != "ignore" and where <= other < after
                                         for other, other_kind in marks):
            kept.append(html[position:where])
            position = after
    # The zero-width spaces between a figure text's phrases (load/markup.py) are left
    # out: Pagefind segments Chinese and Japanese itself, and its excerpts carry none.
    given = GEOMETRY.sub("", "".join(kept) + html[position:end]).replace("\u200b", "")
    return given + "</body></html>\n"


# In place of a digest, for a page that marks no element data-pagefind-body (a
# language's index page). Once some page of its language marks one, Pagefind leaves it
# out of the index (pagefind.app, "Configuring the index"): it is then not handed over,
# and a change to it (an edit of base.html) does not make Pagefind index the language
# again.
UNMARKED = "-"


def given_digest(html: str, store: Store) -> str:
    """Store what Pagefind is given of a page (search_input); its digest, the name it is
    stored under, so that indexing hands it to Pagefind as it is (index_languages), or
    UNMARKED. The cache keeps it with the page (some 60 % of the page's size): a build
    that renders the page again with the same text then creates no file for it."""
    if f"{MARK}body" not in html:
        return UNMARKED
    return store.put_bytes(search_input(html).encode("utf-8"))[0]


def without_styles_and_scripts(html: str) -> str:
    """The HTML without its <style> and <script> elements. (Found tag by tag: one regular
    expression for both, with a back-reference to the name, took 6 times as long.)"""
    kept, position = [], 0
    for tag in STYLE_OR_SCRIPT.finditer(html):
        if tag.start() < position:
            continue
        end = END_TAG[tag.group(1).lower()].search(html, tag.end())
        if end is not None:
            kept.append(html[position:tag.start()])
            position = end.end()
    kept.append(html[position:])
    return "".join(kept)


def element_end(html: str, start: int) -> int | None:
    """Where the element whose start tag begins at `start` ends (after its end tag)."""
    name = TAG_NAME.match(html, start)
    if name is None:
        return None
    opening, closing = f"<{name.group(1)}", f"</{name.group(1)}"
    depth, at, next_close = 0, start, -1
    while True:
        if next_close < at:
            next_close = html.find(closing, at)
            if next_close == -1:
                return None
        next_open = html.find(opening, at, next_close)
        tag, ends = (next_open, False) if -1 < next_open < next_close else (next_close, True)
        after = tag + len(closing if ends else opening)
        if after < len(html) and (html[after].isspace() or html[after] in "/>"):
            depth += -1 if ends else 1
            if depth == 0:
                close = html.find(">", tag)
                return None if close == -1 else close + 1
        at = after


def language_groups(pages: dict[str, Entry], codes: list[str]) -> dict[str, list]:
    """The pages Pagefind reads, by site language: every HTML page under `<code>/` (it
    indexes the articles among them), for each language that has an article; each with
    the digest of what Pagefind is given of it (Entry.search, else the page's own). The
    pages that mark no data-pagefind-body are left out once one of the others marks it
    (UNMARKED); until then they are given whole."""
    groups = {}
    for code in codes:
        group = sorted((path, entry.search or entry.blob, entry.blob)
                       for path, entry in pages.items()
                       if path.startswith(f"{code}/") and path.endswith(".html"))
        marked = any(given not in (blob, UNMARKED) for _, given, blob in group)
        group = [(path, blob if given == UNMARKED else given, blob)
                 for path, given, blob in group if not (marked and given == UNMARKED)]
        if any(path != f"{code}/index.html" for path, *_ in group):
            groups[code] = group
    return groups


def search_bundle(pages: dict[str, Entry], store: Store, cached: dict[str, Entry],
                  problems: Problems, root: Path, codes: list[str],
                  service: Service | None = None) -> dict[str, Entry]:
    """The bundle's files (path in site/ -> stored entry) for these pages: each shard's
    (search_shards.py: the main bundle, then the large languages' other shards), and the
    manifest that names each language's other shards (none in a small site: the search
    box reads it, so that it asks for no file that is not there)."""
    groups = language_groups(pages, codes)
    if not groups:
        return {}
    known, damaged = cached_bundle(cached, store)
    bundle, headers = {}, {}
    for shard, members in by_shard(groups).items():
        made = shard_bundle(shard, members, known, damaged, store, problems, root, service)
        if made is None:
            return {}
        bundle |= made
        headers[shard] = cached_header(made[f"{folder(shard)}/{ENTRY_NAME}"], store)
    data = manifest(headers)
    bundle[MANIFEST] = Entry(key_of("manifest", data.decode("utf-8")), (), (), "",
                             *store.put_bytes(data))
    return bundle


def shard_bundle(shard: int, groups: dict[str, list], known: dict[str, Entry],
                 damaged: set[str], store: Store, problems: Problems, root: Path,
                 service: Service | None) -> dict[str, Entry] | None:
    """One shard's bundle (its languages' pages in `groups`), from the cached files
    (`known`) where what Pagefind is given of its pages is as it was.

    Pagefind indexes only the languages where what it is given of the pages changed
    (search_input), in one run: a language's files are the same whether it is indexed
    alone or with the others (only the entry file, which lists the languages, is merged
    here). A language's files are kept in the cache under that language's key, the
    program's own under its version (in the main bundle only: the client loads them
    from there, its other shards are merged into it)."""
    version, where, main = pagefind_version(), folder(shard), shard == 0
    shared_key = key_of("pagefind", version)
    keys = {code: f"{code} {key_of(version, shard, [(p, given) for p, given, _ in group])}"
            for code, group in groups.items()}
    shared = {path: entry for path, entry in known.items() if entry.key == shared_key} \
        if main and shared_key not in damaged else {}
    files = {code: {path: entry for path, entry in known.items() if entry.key == key}
             for code, key in keys.items()}
    entry_path, entry_key = f"{where}/{ENTRY_NAME}", key_of(sorted(keys.values()))
    header = cached_header(known.get(entry_path), store)
    # A language is indexed again when a file of its cached index is missing or damaged,
    # or the entry file has no record of it.
    stale = [code for code in groups if not files[code] or keys[code] in damaged
             or not recorded(header, files[code], where)]
    if not stale and (shared or not main) and entry_path in known \
            and known[entry_path].key == entry_key:
        # Nothing to index: the cached bundle, without reading or storing anything more.
        return shared | {path: entry for code in groups for path, entry in files[code].items()} \
            | {entry_path: known[entry_path]}
    if main and not shared and not stale:
        stale = [next(iter(groups))]   # the program's own files come with any language
    if stale:
        made = index_languages({code: groups[code] for code in stale}, store, problems, root,
                               service, where)
        if made is None:
            return None
        for code, (own, common, entry) in made.items():
            files[code] = {path: Entry(keys[code], (), (), "", *stored)
                           for path, stored in own.items()}
            shared = {path: Entry(shared_key, (), (), "", *stored)
                      for path, stored in common.items()} if main else {}
            header = entry | {"languages": header["languages"] | entry["languages"]}
    bundle = shared | {path: entry for code in groups for path, entry in files[code].items()}
    # The languages in a fixed order, so that two builds are byte-identical.
    header["languages"] = {name: record for name, record in sorted(header["languages"].items())
                           if f"{where}/pagefind.{record['hash']}.pf_meta" in bundle}
    data = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    bundle[entry_path] = Entry(entry_key, (), (), "", *store.put_bytes(data))
    return bundle


def cached_bundle(cached: dict[str, Entry], store: Store) -> tuple[dict[str, Entry], set[str]]:
    """The cached bundle's files whose copies in the store are intact (Store.intact), and
    the keys of those that are missing or damaged."""
    known, damaged = {}, set()
    for path, entry in cached.items():
        if path.startswith(f"{BUNDLE}/"):
            if store.intact(entry):
                known[path] = entry
            else:
                damaged.add(entry.key)
    return known, damaged


def cached_header(entry: Entry | None, store: Store) -> dict:
    """The cached entry file's content ({"languages": {}} when there is none usable)."""
    if entry is not None:
        with contextlib.suppress(OSError, ValueError):
            header = json.loads(store.path(entry.blob).read_bytes())
            if isinstance(header, dict) and isinstance(header.get("languages"), dict):
                return header
    return {"languages": {}}


def recorded(header: dict, own: dict[str, Entry], where: str) -> bool:
    """Whether the entry file (of the bundle in `where`) names the language whose files
    are `own`."""
    return any(isinstance(record, dict) and
               f"{where}/pagefind.{record.get('hash')}.pf_meta" in own
               for record in header["languages"].values())


def early_service(codes: list[str], cached: dict[str, Entry],
                  edited: list[str] = ()) -> Service:
    """The build's Pagefind service, started now when the cache holds no index of a
    language whose segmenter takes long to load (search_service.WARM_TEXT; a first or
    clean build: its pages will be indexed), or when such a language's sources were
    `edited` since the last build (its edited page's shard will be), so that the
    segmenters load while the pages are rendered. Otherwise it starts when the index is
    made."""
    indexed = {entry.key.split(" ", 1)[0] for path, entry in cached.items()
               if path.startswith(f"{BUNDLE}/")}
    service = Service()
    slow = [code for code in codes
            if (code not in indexed or code in edited) and warm_text(code)]
    if slow:
        service.warm(slow)
    return service


def feed_ahead(service: Service, pages: dict[str, Entry], store: Store,
               edited: list[str]) -> None:
    """Hand Pagefind's service, now (Service.feed), the pages of the shard the first of
    the `edited` pages (their paths in the site) is in, as the last build's `pages` (the
    cache's entries) have them, with the languages of the other edited pages in that
    shard: the index stage will likely index these pages again, most of them as they
    were, the edited ones in their new versions. Only if the last build made an
    index."""
    if not edited or not any(path.startswith(f"{BUNDLE}/") for path in pages):
        return
    groups = language_groups(pages, sorted({path.split("/", 1)[0] for path in edited}))
    for members in by_shard(groups).values():
        stale = {code: group for code, group in members.items()
                 if any(page[0] in edited for page in group)}
        if any(page[0] == edited[0] for group in stale.values() for page in group):
            pages = given_pages(stale)
            service.feed(pages, functools.partial(hand_over, store, pages),
                         store.folder.parent)
            return


ENTRY_NAME = "pagefind-entry.json"
ENTRY = f"{BUNDLE}/{ENTRY_NAME}"
# The program's own files, the same for every language (with its UI's pagefind-*.js/css).
SHARED = ("pagefind.js", "pagefind-worker.js", "pagefind-highlight.js", "wasm.unknown.pagefind")
HTML_LANG = re.compile(r"<html\b[^>]*?\blang=[\"']?([^\"'\s>]+)", re.IGNORECASE)


def index_languages(groups: dict[str, list], store: Store, problems: Problems, root: Path,
                    service: Service | None = None, where: str = BUNDLE,
                    ) -> dict[str, tuple[dict, dict, dict]] | None:
    """Have Pagefind index the languages' pages in one run (of `service`, which may have
    been started early, and fed some of them ahead: Service.feed); for each language, its
    own files and the program's shared ones (path -> stored), and an entry file's content
    naming its language only.

    The pages are handed over in a fresh folder, as `pagefind --site` reads them (the
    index depends on the order the folder lists them in, the same for the same files in
    a fresh folder; Pagefind reads them over the cores). One run over several languages makes each
    language's files byte for byte as a run over that language alone, with less CPU and
    memory than one run per language at once (one process: at N = 200, 5.95 s of CPU
    and 611 MiB against 7.4 s and 768 MiB); the paths are in the bundle folder `where`.
    Where Pagefind would not tell two languages apart (the same `<html lang>`), each is
    indexed alone."""
    service = service or Service()
    if service.program is None:
        for code in groups:
            problems.add(root / "site" / BUNDLE, None, "the search index could not be built: "
                         "Pagefind's program was not found (pip install 'pagefind[extended]'; "
                         "or the PAGEFIND_BINARY_PATH environment variable names no program)",
                         language=code)
        return None
    text, pages = functools.partial(given_text, store), given_pages(groups)
    files, failure = service.index(pages, functools.partial(hand_over, store, pages), text,
                                   store.folder.parent)
    if failure or "pagefind-entry.json" not in files:
        for code in groups:
            problems.add(root / "site" / BUNDLE, None, "the search index could not be "
                         "built by Pagefind (is it installed? pip install "
                         f"'pagefind[extended]'): {failure or 'no index written'}",
                         language=code)
        return None
    entry = json.loads(files.pop("pagefind-entry.json"))
    keys = {code: language_key(group, text) for code, group in groups.items()}
    owners = file_owners(sorted(files), entry, keys)
    if owners is None:
        made: dict[str, tuple[dict, dict, dict]] = {}
        for code, group in groups.items():
            alone = index_languages({code: group}, store, problems, root, service, where)
            if alone is None:
                return None
            made |= alone
        return made
    # The program's files (and a language's wasm) only in the main bundle, where the
    # client loads them: a shard's copies are not stored.
    main = where == BUNDLE
    common = {f"{where}/{name}": store.put_bytes(files[name])
              for name, owner in owners.items() if owner is None and main}
    made = {code: ({}, common, entry | {"languages": {
        key: record for key, record in entry["languages"].items()
        if len(groups) == 1 or key == keys[code]}}) for code in groups}
    for name, owner in owners.items():
        if owner is not None and (main or not name.startswith("wasm.")):
            made[owner][0][f"{where}/{name}"] = store.put_bytes(files[name])
    return made


def given_pages(groups: dict[str, list]) -> list[tuple[str, tuple[str, str]]]:
    """The languages' pages as Pagefind is given them, by path, each with the digests of
    what it is given and of the page ((given, blob): given_text)."""
    return sorted((path, (given, blob)) for group in groups.values()
                  for path, given, blob in group)


def hand_over(store: Store, pages: list[tuple[str, tuple[str, str]]], folder: Path) -> None:
    """Put what Pagefind is given of these pages (given_pages) in `folder`, at their paths
    in the site, in that order: the text stored as each page was rendered
    (given_digest), linked rather than copied; else (a page with no digest of its own,
    a stored text gone or damaged, no hard links here) worked out again."""
    for path, (given, blob) in pages:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if given != blob:
            with contextlib.suppress(OSError):
                if digest(store.path(given).read_bytes()) == given:   # not damaged since
                    os.link(store.path(given), target)
                    continue
        target.write_text(search_input(store.path(blob).read_text("utf-8")), "utf-8")


def file_owners(names: list[str], entry: dict, keys: dict[str, str | None]) -> dict | None:
    """Each file of a bundle but its entry file (path in it) -> the language it belongs
    to (of `keys`: each language's Pagefind key, language_key), None for the program's
    own; None if some file's language is not certain."""
    owners: dict[str, str | None] = {}
    one = len(keys) == 1
    if not one and (len(set(keys.values())) < len(keys) or set(keys.values()) !=
                    set(entry["languages"])):
        return None
    for name in names:
        if name in SHARED or (name.startswith("pagefind-") and name.endswith((".js", ".css"))):
            owners[name] = None
            continue
        found = list(keys) if one else [code for code, key in keys.items()
                                        if belongs(name, key, entry["languages"][key])]
        if len(found) != 1:
            return None
        owners[name] = found[0]
    return owners


def belongs(name: str, key: str, record: dict) -> bool:
    """Whether a file of the bundle is of the Pagefind language `key` (its entry record)."""
    return name == f"pagefind.{record.get('hash')}.pf_meta" or \
        name.startswith((f"index/{key}_", f"fragment/{key}_", f"filter/{key}_")) or \
        (bool(record.get("wasm")) and name == f"wasm.{record['wasm']}.pagefind")


def language_key(group: list, text: Callable[[tuple[str, str]], str]) -> str | None:
    """The language Pagefind files a language's pages under: their `<html lang>`, in
    lower case (the first page's, by path; each language's pages share it)."""
    _, given, blob = min(group, key=lambda page: PurePosixPath(page[0]))
    found = HTML_LANG.search(text((given, blob))[:4096])
    return found.group(1).lower() if found else None


def given_text(store: Store, page: tuple[str, str]) -> str:
    """What Pagefind is given of a page ((given, blob): what language_groups lists of
    it): the text stored as the page was rendered (given_digest), if it is intact; else
    worked out again from the page."""
    given, blob = page
    if given != blob:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            data = store.path(given).read_bytes()
            if digest(data) == given:   # not damaged since
                return data.decode("utf-8")
    return search_input(store.path(blob).read_text("utf-8"))
