"""`articlesite init DIR`: a new project that builds and serves at once.

It writes content/site.yaml, one short example article in every language (content/hello/),
one small figure (figures/hello-flow.yaml and its texts, figures/figure-texts.json) and a
.gitignore; the theme stays in the package, so the project has no templates/. The texts
of the languages it knows are in texts.yaml; another language gets the English texts, to
translate.
"""

from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from pathlib import Path
from string import Template

import yaml

from ..load.config import CODE
from ..load.theme import theme_strings
from ..problems import UsageError

HERE = Path(__file__).resolve().parent
SLUG = "hello"
FIGURE = "hello-flow"
FALLBACK = "en"   # whose texts a language the starter does not know is given

GITIGNORE = """\
# What articlesite writes: the built site and the build cache.
/site/
/.articlesite-cache/
"""


@lru_cache(maxsize=1)
def texts() -> dict[str, dict]:
    """The starter's texts by language: name, lang, site title, article, figure texts."""
    return yaml.safe_load((HERE / "texts.yaml").read_text(encoding="utf-8"))


def language_texts(code: str) -> dict:
    known = texts()
    if code in known:
        return known[code]
    return known[FALLBACK] | {"name": code, "lang": code}


def parse_languages(value: str, source: str | None) -> tuple[list[str], str]:
    """The language codes of `--languages zh,en,ja` and the source language (the first
    unless `--source` names another)."""
    codes = [code.strip() for code in value.split(",") if code.strip()]
    wrong = [code for code in codes if not CODE.match(code)]
    if not codes or wrong:
        raise UsageError(f"--languages '{value}': give language codes separated by commas, "
                         "such as zh,en,ja (lower-case letters: zh, en, pt-br)")
    if len(set(codes)) != len(codes):
        raise UsageError(f"--languages '{value}' names a language twice")
    source = source or codes[0]
    if source not in codes:
        raise UsageError(f"--source '{source}' is not one of --languages ({', '.join(codes)})")
    if source not in theme_languages():
        raise UsageError(f"the default theme has no interface strings in '{source}', which "
                         "other languages would fall back to: choose a source language it "
                         f"has ({', '.join(sorted(theme_languages()))}), then add {source} "
                         "and its strings (templates/strings.yaml)")
    return codes, source


def theme_languages() -> set[str]:
    """The languages the default theme has interface strings for."""
    return {code for strings in theme_strings().values() for code in strings}


def init_project(folder: Path, codes: list[str], source: str,
                 today: dt.date | None = None) -> list[Path]:
    """Write a new project into `folder` (absent or empty); the files written."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        what = "a folder that is not empty" if folder.is_dir() else "a file"
        raise UsageError(f"{folder} is {what}: init writes a new project only into a new "
                         "or empty folder")
    date = (today or dt.date.today()).isoformat()
    files = {
        "content/site.yaml": site_yaml(codes, source),
        "figures/figure-texts.json": figure_texts(codes),
        f"figures/{FIGURE}.yaml": (HERE / f"{FIGURE}.yaml").read_text(encoding="utf-8"),
        ".gitignore": GITIGNORE,
    }
    for code in codes:
        files[f"content/{SLUG}/{code}.md"] = article(code, date)
    written = []
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written + confirm_translations(folder)


def confirm_translations(folder: Path) -> list[Path]:
    """Record the starter's translations as confirmed (they are right), as `check
    --confirm-all` does, so that a new project checks clean; the records written. A
    language the starter has no texts for keeps its English texts unconfirmed."""
    from ..load.sources import load_sources
    from ..problems import Problems
    from ..translate.record import confirm
    from ..translate.section_checks import confirm_sections

    sources = load_sources(folder, Problems(folder), drafts=True)
    confirm(sources, [], True)
    confirm_sections(sources, [], True)
    return sorted(path for path in folder.rglob("*.confirmed.json"))


def site_yaml(codes: list[str], source: str) -> str:
    default = "en" if "en" in codes else source
    lines = ["# The site's configuration: its languages, and which one translations are",
             "# made from. Unknown keys are an error.",
             f"default_language: {default}   # the language of the site's first page",
             f"source_language: {source}    # what translations are made from",
             "languages:"]
    for code in codes:
        language = language_texts(code)
        lines += [f"  - code: {code}",
                  f"    name: {json.dumps(language['name'], ensure_ascii=False)}",
                  f"    lang: {language['lang']}",
                  f"    title: {json.dumps(language['title'], ensure_ascii=False)}"]
        if code not in theme_languages():   # its strings fall back until translated
            lines.append("    status: in-progress   # add its interface strings to "
                         "templates/strings.yaml, then remove this")
    return "\n".join(lines) + "\n"


def article(code: str, date: str) -> str:
    language = language_texts(code)
    return (f"---\ntitle: {json.dumps(language['article-title'], ensure_ascii=False)}\n"
            f"description: {json.dumps(language['description'], ensure_ascii=False)}\n"
            f"date: {date}\n---\n\n"
            + Template(language["body"]).substitute(slug=SLUG, code=code, figure=FIGURE))


def figure_texts(codes: list[str]) -> str:
    keys = texts()[FALLBACK]["figure"]
    entries = {key: {code: language_texts(code)["figure"][key] for code in codes}
               for key in keys}
    return json.dumps(entries, ensure_ascii=False, indent=2) + "\n"
