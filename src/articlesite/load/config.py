"""The site configuration, `content/site.yaml`: languages and site-wide settings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..problems import Problems
from .sourcefiles import check_fields, line_of, load_yaml

CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Language:
    code: str        # used in paths and as the dictionary's language key: "zh"
    name: str        # the language's name in its own script: "中文"
    lang: str        # the HTML lang attribute: "zh-CN"
    site_title: str  # the site's title in this language


@dataclass
class Site:
    root: Path
    languages: list[Language]
    default_language: str
    source_language: str
    base_url: str = ""

    @property
    def codes(self) -> list[str]:
        return [lang.code for lang in self.languages]

    def language(self, code: str) -> Language:
        return next(lang for lang in self.languages if lang.code == code)


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
                        optional=("source_language", "base_url")):
        return None
    languages = []
    entries = data["languages"]
    if not isinstance(entries, list) or not entries:
        problems.add(path, line_of(data, "languages"), "'languages' must be a non-empty list")
        return None
    for entry in entries:
        if not check_fields(entry, path, problems, what="a language",
                            required=("code", "name", "lang", "title")):
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
                                  str(entry["title"])))
    codes = [lang.code for lang in languages]
    default = str(data["default_language"])
    source = str(data.get("source_language", default))
    for key, value in (("default_language", default), ("source_language", source)):
        if codes and value not in codes:
            problems.add(path, line_of(data, key), f"{key} '{value}' is not one of the "
                         f"languages ({', '.join(codes)})", key=key, language=value)
    base_url = str(data.get("base_url") or "")
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    return Site(root, languages, default, source, base_url)
