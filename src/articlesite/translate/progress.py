"""Languages in progress (`status: in-progress` in content/site.yaml): what they still lack.

A figure text or interface string missing in such a language falls back to the source
language's (texts.load_dictionary); its pages are built, but the other languages do not
list them (config.Site.shown). `check` lists every fallback as a problem; `serve` marks
the fallback figure texts on the pages (they carry `data-fallback`) and says on each page
of the language what it still lacks.
"""

from __future__ import annotations

import json
import os
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from ..problems import Findings, Problems, command

if TYPE_CHECKING:
    from ..load.sources import Sources

Summary = dict[str, dict[str, list[str]]]   # language -> {"texts": keys, "strings": keys}


def check_fallbacks(sources: Sources, findings: Findings) -> None:
    source = sources.site.source_language
    for dictionary, what in ((sources.dictionary, "figure text"),
                             (sources.strings, "interface string")):
        for key, language in sorted(dictionary.fallbacks):
            findings.add(dictionary.path, dictionary.lines.get(key),
                         f"{what} not translated yet: the {language} pages show the {source} "
                         f"text ({language} is in progress)", key=key, language=language,
                         check="translations")


class SummaryOnDisk:
    """What the languages in progress of the project at `root` lack in the sources as
    they are now (serve asks for each page it sends, so that a page reloaded after a save
    is told what is current; the files are parsed again only when they changed)."""

    def __init__(self, root: Path):
        self.root = root
        self.files = [root / "content" / "site.yaml", root / "figures" / "figure-texts.json",
                      root / "templates" / "strings.yaml"]
        self._read: tuple[tuple, Summary] | None = None   # the files' stamp, their summary

    def __call__(self) -> Summary:
        stamp = tuple(stamp_of(path) for path in self.files)
        if stamp[0] is None:
            return {}
        if self._read is None or self._read[0] != stamp:
            self._read = (stamp, summary_of(self.root))
        return self._read[1]


def summary_of(root: Path) -> Summary:
    from ..load.config import load_site
    from ..load.theme import load_figure_texts, load_strings

    problems = Problems(root)
    site = load_site(root, problems)
    found: Summary = {}
    if site is not None and site.in_progress:
        found = {code: {"texts": [], "strings": []} for code in site.in_progress}
        for load, kind in ((load_figure_texts, "texts"), (load_strings, "strings")):
            loaded = load(root, site.codes, problems, in_progress=site.in_progress,
                          fallback=site.source_language)
            for key, language in sorted(loaded.fallbacks if loaded else ()):
                found[language][kind].append(key)
    return found


def stamp_of(path: Path) -> tuple[int, int] | None:
    """A file's time and size, None if it is absent (an optional file, such as the
    project's interface strings)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def serve_snippet(found: Summary, path: str) -> str:
    """What serve adds to a page: on a page of a language in progress, a bar saying so,
    with what falls back, and a dashed outline round each fallback figure text."""
    parts = [part for part in path.split("/") if part]
    language = parts[0] if len(parts) > 1 else None
    if language not in found:
        return ""
    texts, strings = found[language]["texts"], found[language]["strings"]
    listing = json.dumps({"texts": texts, "strings": strings},
                         ensure_ascii=False).replace("</", "<\\/")
    return (
        "<style>[data-fallback]{outline:2px dashed #c25a00;outline-offset:1px;"
        "background:rgba(255,170,60,.18)}#articlesite-in-progress code{color:inherit;"
        "background:rgba(255,255,255,.18)}</style>"
        '<div id="articlesite-in-progress" role="status" lang="en" style="position:fixed;'
        "left:0;right:0;bottom:0;z-index:2147483646;padding:6px 14px;background:#5b3100;"
        'color:#fff;font:13px/1.4 system-ui,sans-serif">'
        f"<b>{escape(language)} is in progress</b> (serve only): "
        f"{len(texts)} figure text{'s' if len(texts) != 1 else ''} (outlined) and "
        f"{len(strings)} interface string{'s' if len(strings) != 1 else ''} of this "
        f"language fall back to the source language; <code>{command()} check</code> "
        f"lists them.<script type=\"application/json\" id=\"articlesite-fallbacks\">"
        f"{listing}</script></div>")
