"""site.yaml's keys for articles brought from other tools:

    admonitions:                      kinds of admonition the articles use beyond the
      pythontutor:                    known ones: the look of a known kind (none: the
        like: example                 plain look), and a title per language (a language
        title:                        left out gets the kind's name, capitalized)
          en: Visualized Execution
          zh: 可视化运行

    link_base:                        where a site-absolute link (`/learn/x`) that names
      zh: https://zh-hans.react.dev   no article of the project goes: per language, for
      en: https://react.dev           every article, or per article (its slug, then a
      react-ui-as-a-tree:             language per line), as the original page's URL;
        en: https://react.dev/learn/understanding-your-ui-as-a-tree

A per-article base is the page the article came from: its relative links that name no
file of its folder and no article (`./computed`, written for the original site) are
resolved against it too (render/links.py).
"""

from __future__ import annotations

import re
from typing import Any

from .schema import Context, MapOf, Record, Value, anything, text

URL = re.compile(r"^https?://[^\s/]+(/\S*)?\Z")

ADMONITIONS = MapOf(Record("an admonition kind",
                           like=Value(text, "'{key}' must be the name of a known admonition "
                                      "kind", required=False),
                           title=MapOf(Value(text, "a title must be text"), names="language",
                                       required=False, default={})),
                    message="'admonitions' must map each kind to its look and titles",
                    required=False, default={})
LINK_BASE = Value(anything, required=False, default={})
KIND = re.compile(r"^[a-z][a-z0-9_-]*\Z")


def admonition_kinds(config: dict, codes: list[str], context: Context
                     ) -> dict[str, tuple[str | None, dict[str, str]]]:
    """The kinds declared, checked: kind -> (look or None, {language: title})."""
    declared = config.get("admonitions") or {}
    if not declared:
        return {}
    from ..render.markdown_rules.admonitions import KINDS, known_kinds  # only when declared

    kinds = {}
    for kind, entry in declared.items():
        line = context.line(declared, kind)
        if not isinstance(entry, dict) or not getattr(entry, "ok", True):
            continue   # reported by the schema
        if not KIND.match(str(kind)) or kind in KINDS:
            context.add(line, f"admonition kind '{kind}': "
                        + ("a known kind cannot be declared again" if kind in KINDS else
                           "use lower-case letters, digits, '-' or '_'"), key=str(kind))
            continue
        like = entry.get("like")
        if like is not None and like not in KINDS:
            context.add(entry.line_of("like"), f"admonition kind '{kind}': like "
                        f"'{entry['like']}' is not a known kind ({known_kinds()})",
                        key=str(kind))
            continue
        titles = entry.get("title") or {}
        for code in titles:
            if code not in codes:
                context.add(entry.line_of("title"), f"admonition kind '{kind}': title in "
                            f"'{code}', which is not one of the languages ({', '.join(codes)})",
                            key=str(kind))
        kinds[kind] = KINDS.get(like), {code: titles.get(code, kind.capitalize())
                                             for code in codes}
    return kinds


def link_bases(config: dict, codes: list[str], context: Context) -> dict[str, dict[str, str]]:
    """`link_base` checked: {"": {language: URL}, slug: {language: URL}}."""
    given: Any = config.get("link_base") or {}
    if not isinstance(given, dict):
        context.add(config.line_of("link_base"), "'link_base' must map languages (or "
                    "articles, then languages) to the URL the links were written for",
                    key="link_base")
        return {}
    bases: dict[str, dict[str, str]] = {}
    for key, value in given.items():
        line = context.line(given, key) or config.line_of("link_base")
        if isinstance(value, dict):
            folder = context.path.parent / str(key)
            if not folder.is_dir():
                context.add(line, f"link_base: there is no article '{key}' (no "
                            f"content/{key}/)", key=str(key))
                continue
            for code, url in value.items():
                _add(bases, str(key), code, url, codes, context, context.line(value, code))
        else:
            _add(bases, "", key, value, codes, context, line)
    return bases


def _add(bases, slug, code, url, codes, context, line) -> None:
    where = f"link_base{'.' + slug if slug else ''}.{code}"
    if code not in codes:
        context.add(line, f"{where}: '{code}' is not one of the languages ({', '.join(codes)})",
                    key="link_base")
    elif not isinstance(url, str) or not URL.match(url):
        context.add(line, f"{where} must be a URL starting with https:// or http://, not "
                    f"'{url}'", key="link_base")
    else:
        bases.setdefault(slug, {})[code] = url
