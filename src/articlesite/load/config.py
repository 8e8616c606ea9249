"""The site configuration, `content/site.yaml`: languages and site-wide settings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..problems import Problems, did_you_mean
from .migrated import ADMONITIONS, LINK_BASE, URL, admonition_kinds, link_bases
from .schema import Context, ListOf, Record, Value, flag, one_of, scalar_text
from .sourcefiles import load_yaml

CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]+)*\Z")
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
    numbering: bool = True   # section numbers on the pages (load/numbering.py)
    # Kinds declared in `admonitions`: kind -> (the known kind whose look it has,
    # {language: title}); see load/migrated.py.
    admonitions: dict[str, tuple[str | None, dict[str, str]]] = field(default_factory=dict)
    # `link_base`: where site-absolute links go, per article (slug or "") and language.
    link_base: dict[str, dict[str, str]] = field(default_factory=dict)
    # `publish_html_and_svg`: publish the HTML, SVG and XML files beside the articles
    # (render/assets.py ACTIVE), which run scripts when opened. Off: they are left out.
    publish_html_and_svg: bool = False

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


def _code(value: object) -> str:
    code = scalar_text(value)
    if not CODE.match(code):
        raise ValueError
    return code


def _base_url(value: object) -> str:
    url = scalar_text(value)
    if url and not URL.match(url):
        raise ValueError
    return url


LANGUAGE = Record(
    "a language", language_field="code",
    code=Value(_code, "language code '{value}' must be lower-case letters, e.g. "
               "'en' or 'zh'"),
    name=Value(scalar_text, "'{key}' must be text"),
    lang=Value(scalar_text, "'{key}' must be text"),
    title=Value(scalar_text, "'{key}' must be text"),
    status=Value(one_of(*STATUSES), f"status '{{value}}' must be one of {', '.join(STATUSES)}",
                 required=False, default="finished"))
SITE = Record(
    "site.yaml",
    languages=ListOf(LANGUAGE, "'languages' must be a non-empty list"),
    default_language=Value(scalar_text, "'{key}' must be a language code"),
    source_language=Value(scalar_text, "'{key}' must be a language code", required=False),
    base_url=Value(_base_url, "'{key}' must be the site's address, starting with https:// "
                   "or http://, not '{value}'", required=False, default=""),
    search=Value(flag, "search must be true or false, not '{value}'", required=False,
                 default=True),
    numbering=Value(flag, "numbering must be true or false, not '{value}'", required=False,
                    default=True),
    admonitions=ADMONITIONS, link_base=LINK_BASE,
    publish_html_and_svg=Value(flag, "publish_html_and_svg must be true or false, not "
                               "'{value}'", required=False, default=False))


def load_site(root: Path, problems: Problems) -> Site | None:
    """The site's configuration; None (with the problems) when its languages cannot be
    trusted. A problem that leaves them whole (an unknown field, a wrong `search`) is
    reported, and the site is still returned so that every other file is checked too."""
    path = root / "content" / "site.yaml"
    if not path.is_file():
        problems.add(path, None, "site configuration not found" + (
            "" if (root / "content").is_dir() else f": {root} is no project folder "
            "(`articlesite init DIR` starts one; --root names another)"))
        return None
    data = load_yaml(path, problems)
    if data is None:
        return None
    config = Context(path, problems).read(SITE, data)
    # After an unknown field, the rest is still checked, to list every problem at once.
    if config is None or "languages" not in config or "default_language" not in config:
        return None
    if not config["languages"]:
        problems.add(path, config.line_of("languages"),
                     "'languages' must be a non-empty list", key="languages")
        return None
    before = len(problems)
    languages = []
    for entry in config["languages"]:
        if not entry.ok:
            continue
        code = entry["code"]
        if code in [lang.code for lang in languages]:
            problems.add(path, entry.line_of("code"), f"language '{code}' is listed "
                         "twice", language=code)
            continue
        languages.append(Language(code, entry["name"], entry["lang"], entry["title"],
                                  entry["status"] == "in-progress"))
    codes = [lang.code for lang in languages]
    default = config["default_language"]
    source = config.get("source_language") or default
    for key, value in (("default_language", default), ("source_language", source)):
        if codes and value not in codes:
            problems.add(path, config.line_of(key), f"{key} '{value}' is not one of "
                         f"the languages ({did_you_mean(value, codes)}{', '.join(codes)})",
                         key=key, language=value)
    for key, value in (("default_language", default), ("source_language", source)):
        if value in codes and next(lang for lang in languages if lang.code == value).in_progress:
            problems.add(path, config.line_of(key), f"{key} '{value}' cannot be in "
                         "progress: other languages fall back to it", key=key, language=value)
    if len(problems) > before or not all(entry.ok for entry in config["languages"]):
        return None   # the languages are not what the author meant: nothing else is read
    base_url = config.get("base_url") or ""
    if base_url and not base_url.endswith("/"):
        base_url += "/"
    context = Context(path, problems)
    return Site(root, languages, default, source, base_url, config.get("search", True),
                config.get("numbering", True), admonition_kinds(config, codes, context),
                link_bases(config, codes, context),
                publish_html_and_svg=config.get("publish_html_and_svg", False))
