"""The site configuration, `content/site.yaml`: languages and site-wide settings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..problems import Problems
from .sourcefiles import check_fields, line_of, load_yaml

CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]+)*$")
STATUSES = ("finished", "in-progress")


@dataclass(frozen=True)
class Language:
    code: str        # used in paths and as the dictionary's language key: "zh"
    name: str        # the language's name in its own script: "中文"
    lang: str        # the HTML lang attribute: "zh-CN"
    site_title: str  # the site's title in this language
    in_progress: bool = False  # `status: in-progress`: texts it lacks fall back, unlisted


@dataclass
class Site:
    root: Path
    languages: list[Language]
    default_language: str
    source_language: str
    base_url: str = ""
    search: bool = True   # the full-text search index and the search box

    @property
    def codes(self) -> list[str]:
        return [lang.code for lang in self.languages]

    def language(self, code: str) -> Language:
        return next(lang for lang in self.languages if lang.code == code)

    @property
    def in_progress(self) -> frozenset[str]:
        """The codes of the languages still being added (`status: in-progress`)."""
        return frozenset(lang.code for lang in self.languages if lang.in_progress)

    def shown(self, code: str | None = None) -> list[Language]:
        """The languages a page in `code` lists (switcher, hreflang links, indexes): the
        finished ones, and its own."""
        return [lang for lang in self.languages if not lang.in_progress or lang.code == code]

    def shown_codes(self, code: str | None = None) -> list[str]:
        return [lang.code for lang in self.shown(code)]


def load_site(root: Path, problems: Problems) -> Site | None:
    path = root / "content" / "site.yaml"
    if not path.is_file():
        problems.add(path, None, "site configuration not found")
        return None
    data = load_yaml(path, problems)
    if data is None:
        return None
    if not check_fields(data, path, problems, what="site.yaml",
                        required=("languages", "default_language"),
                        optional=("source_language", "base_url", "search")):
        return None
    languages = []
    entries = data["languages"]
    if not isinstance(entries, list) or not entries:
        problems.add(path, line_of(data, "languages"), "'languages' must be a non-empty list")
        return None
    for entry in entries:
        if not check_fields(entry, path, problems, what="a language",
                            required=("code", "name", "lang", "title"), optional=("status",)):
            continue
        status = str(entry.get("status", "finished"))
        if status not in STATUSES:
            problems.add(path, line_of(entry, "status"), f"status '{status}' must be one of "
                         f"{', '.join(STATUSES)}", key="status", language=str(entry["code"]))
            continue
        code = str(entry["code"])
        if not CODE.match(code):
            problems.add(path, line_of(entry, "code"), f"language code '{code}' must be "
                         "lower-case letters, e.g. 'en' or 'zh'", language=code)
            continue
        if code in [lang.code for lang in languages]:
            problems.add(path, line_of(entry, "code"), f"language '{code}' is listed twice",
                         language=code)
            continue
        languages.append(Language(code, str(entry["name"]), str(entry["lang"]),
                                  str(entry["title"]), status == "in-progress"))
    codes = [lang.code for lang in languages]
    default = str(data["default_language"])
    source = str(data.get("source_language", default))
    for key, value in (("default_language", default), ("source_language", source)):
        if codes and value not in codes:
            problems.add(path, line_of(data, key), f"{key} '{value}' is not one of the "
                         f"languages ({', '.join(codes)})", key=key, language=value)
    for key, value in (("default_language", default), ("source_language", source)):
        if value in codes and next(lang for lang in languages if lang.code == value).in_progress:
            problems.add(path, line_of(data, key), f"{key} '{value}' cannot be in progress: "
                         "other languages fall back to it", key=key, language=value)
    base_url = str(data.get("base_url") or "")
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    search = data.get("search", True)
    if not isinstance(search, bool):
        problems.add(path, line_of(data, "search"), f"search must be true or false, not "
                     f"'{search}'", key="search")
        search = True
    return Site(root, languages, default, source, base_url, search)
