"""Write the Hugo site equivalent to an articlesite project folder.

    python bench/make_hugo.py PROJECT HUGO_DIR

The same pages from the same sources: every article in every language with the same
Markdown body, each figure directive replaced by the raw HTML our generator renders for
that figure in that language, and layouts that inline the same CSS and scripts, link the
translations with hreflang (and x-default), offer a language switcher, a table of
contents and the bibliography, plus one index per language. Hugo's extra outputs (RSS,
sitemap, taxonomies, 404, robots.txt) are turned off, since our site has none.

Not equivalent, and in Hugo's favour: `$…$` math stays text (Hugo 0.111 has no LaTeX to
MathML; a Hugo site would typeset it in the browser) and `[@id]` citations stay text.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from articlesite.load.sources import Sources, load_sources
from articlesite.problems import Problems
from articlesite.render.templates import Renderer, renderer_for

FIGURE_FENCE = re.compile(r"^```\{figure\}\s*(\S+)\s*\n```\s*$", re.MULTILINE)

CONFIG = """\
baseURL = "{base_url}"
defaultContentLanguage = "{default}"
defaultContentLanguageInSubdir = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
uglyURLs = true
[markup.goldmark.renderer]
unsafe = true
[markup.tableOfContents]
startLevel = 2
endLevel = 2
ordered = true
[params]
defaultlang = "{default}"
"""

LANGUAGE = """\
[languages.{code}]
languageName = {name}
title = {title}
weight = {weight}
contentDir = "content/{code}"
[languages.{code}.params]
htmllang = "{lang}"
"""

BASEOF = """\
<!DOCTYPE html>
<html lang="{{ .Site.Language.Params.htmllang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
{{ block "meta" . }}{{ end }}
<script>{{ partialCached "head-js.html" . | safeJS }}</script>
<style>
{{ partialCached "style.html" . | safeCSS }}
</style>
</head>
<body>
<a class="skip" href="#main">{{ i18n "skip-to-content" }}</a>
<header class="bar">
<a class="site-title" href="index.html">{{ .Site.Title }}</a>
{{ block "switcher" . }}{{ end }}
<div class="settings" role="group" aria-label="{{ i18n "settings" }}" hidden>
<button type="button" id="theme-toggle" aria-pressed="false">{{ i18n "dark-theme" }}</button>
<button type="button" id="style-toggle" aria-pressed="false">{{ i18n "engineering-style" }}</button>
</div>
</header>
<main id="main">
{{ block "main" . }}{{ end }}
</main>
<script>{{ partialCached "page-js.html" . | safeJS }}</script>
</body>
</html>
"""

SINGLE = """\
{{ define "title" }}{{ .Title }} · {{ .Site.Title }}{{ end }}
{{ define "meta" }}
<meta name="description" content="{{ .Description }}">
{{ range .AllTranslations }}
<link rel="alternate" hreflang="{{ .Language.Params.htmllang }}" href="{{ .Permalink }}">
{{ end }}
{{ range .AllTranslations }}{{ if eq .Language.Lang site.Params.defaultlang }}
<link rel="alternate" hreflang="x-default" href="{{ .Permalink }}">
{{ end }}{{ end }}
{{ end }}
{{ define "switcher" }}
<nav class="switcher" aria-label="{{ i18n "languages" }}">
<ul>
{{ $page := . }}
{{ range site.Languages }}
{{ $code := .Lang }}{{ $other := . }}
{{ if eq $code $page.Language.Lang }}
<li><a href="{{ $page.RelPermalink }}" lang="{{ .Params.htmllang }}" aria-current="page">{{ .LanguageName }}</a></li>
{{ else }}
{{ $found := false }}
{{ range $page.Translations }}{{ if eq .Language.Lang $code }}{{ $found = true }}
<li><a href="{{ .RelPermalink }}" lang="{{ $other.Params.htmllang }}" hreflang="{{ $other.Params.htmllang }}" data-keep-section>{{ $other.LanguageName }}</a></li>
{{ end }}{{ end }}
{{ if not $found }}<li><span class="unavailable" lang="{{ .Params.htmllang }}">{{ .LanguageName }} <small>({{ i18n "not-available" }})</small></span></li>{{ end }}
{{ end }}
{{ end }}
</ul>
</nav>
{{ end }}
{{ define "main" }}
<article data-pagefind-body>
<h1>{{ .Title }}</h1>
<p class="description">{{ .Description }}</p>
<nav class="toc" aria-labelledby="toc-title" data-pagefind-ignore>
<h2 id="toc-title">{{ i18n "contents" }}</h2>
{{ .TableOfContents }}
</nav>
{{ .Content }}
{{ with .Params.references }}
<section class="references" aria-labelledby="references">
<h2 id="references">{{ i18n "references" }}</h2>
<ol>
{{ range . }}
<li id="ref-{{ .id }}">{{ .authors }}, {{ if eq .kind "book" }}<cite>{{ .title }}</cite>{{ else }}“{{ .title }}”{{ end }}, {{ .venue }}, {{ .year }}.
{{- with .note }} {{ . }}.{{ end }}
{{- with .url }} <a href="{{ . }}">{{ . }}</a>{{ end }}
{{- if .unconfirmed }} <em class="unconfirmed">({{ i18n "unconfirmed" }})</em>{{ end }}
</li>
{{ end }}
</ol>
</section>
{{ end }}
</article>
{{ end }}
"""

INDEX = """\
{{ define "meta" }}
{{ range site.Languages }}
<link rel="alternate" hreflang="{{ .Params.htmllang }}" href="../{{ .Lang }}/index.html">
{{ end }}
<link rel="alternate" hreflang="x-default" href="../index.html">
{{ end }}
{{ define "switcher" }}
<nav class="switcher" aria-label="{{ i18n "languages" }}">
<ul>
{{ $here := .Language.Lang }}
{{ range site.Languages }}
<li><a href="../{{ .Lang }}/index.html" lang="{{ .Params.htmllang }}" hreflang="{{ .Params.htmllang }}"{{ if eq .Lang $here }} aria-current="page"{{ end }}>{{ .LanguageName }}</a></li>
{{ end }}
</ul>
</nav>
{{ end }}
{{ define "main" }}
<h1>{{ .Site.Title }}</h1>
<h2>{{ i18n "articles" }}</h2>
<ul class="articles">
{{ range .Site.RegularPages.ByTitle }}
<li>
<a class="article-title" href="{{ .RelPermalink }}">{{ .Title }}</a>
<p>{{ .Description }}</p>
<p class="read-in">{{ i18n "read-in" }}:
{{ range .AllTranslations }}
<a href="{{ .RelPermalink }}" lang="{{ .Language.Params.htmllang }}" hreflang="{{ .Language.Params.htmllang }}">{{ .Language.LanguageName }}</a>
{{ end }}
</p>
</li>
{{ end }}
</ul>
{{ end }}
"""


def toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def loaded(project: Path, target: Path) -> tuple[Sources, Renderer]:
    """The project's sources and a renderer of its figures; `target` emptied."""
    problems = Problems(project.resolve())
    sources = load_sources(project.resolve(), problems)
    if target.exists():
        shutil.rmtree(target)
    return sources, renderer_for(sources, problems)


def make(project: Path, target: Path) -> None:
    sources, renderer = loaded(project, target)
    site = sources.site
    layouts = target / "layouts"
    (layouts / "_default").mkdir(parents=True)
    (layouts / "partials").mkdir()
    (target / "i18n").mkdir()

    config = CONFIG.format(base_url=site.base_url or "https://example.org/",
                           default=site.default_language)
    for weight, language in enumerate(site.languages, start=1):
        config += LANGUAGE.format(code=language.code, name=toml_string(language.name),
                                  lang=language.lang, title=toml_string(language.site_title),
                                  weight=weight)
    (target / "hugo.toml").write_text(config, encoding="utf-8")
    templates = project / "templates"
    (layouts / "partials" / "style.html").write_text(
        (templates / "style.css").read_text(encoding="utf-8")
        + (templates / "figure.css").read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copy(templates / "head.js", layouts / "partials" / "head-js.html")
    shutil.copy(templates / "page.js", layouts / "partials" / "page-js.html")
    (layouts / "_default" / "baseof.html").write_text(BASEOF, encoding="utf-8")
    (layouts / "_default" / "single.html").write_text(SINGLE, encoding="utf-8")
    (layouts / "index.html").write_text(INDEX, encoding="utf-8")
    for code in site.codes:
        strings = {key: {"other": texts[code]} for key, texts in sources.strings.texts.items()}
        (target / "i18n" / f"{code}.json").write_text(
            json.dumps(strings, ensure_ascii=False), encoding="utf-8")

    for article in sources.articles:
        references = [{k: v for k, v in vars(ref).items() if v is not None and k != "line"}
                      for ref in article.references]
        for code, source in article.sources.items():
            def figure(match: re.Match, code: str = code) -> str:
                return renderer.render_figure(renderer.figures.get(match.group(1)), code)
            front = {"title": source.title, "description": source.description,
                     "references": references}
            folder = target / "content" / code
            folder.mkdir(parents=True, exist_ok=True)
            body = FIGURE_FENCE.sub(figure, source.body)
            (folder / f"{article.slug}.md").write_text(
                json.dumps(front, ensure_ascii=False, indent=1) + "\n\n" + body,
                encoding="utf-8")


def command(make_site, doc: str, argv: list[str]) -> int:
    """`python bench/make_X.py PROJECT TARGET`: the usage line of `doc` if misused."""
    if len(argv) != 2:
        print(doc.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    make_site(Path(argv[0]), Path(argv[1]))
    return 0


def main(argv: list[str]) -> int:
    return command(make, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
