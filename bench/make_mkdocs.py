"""Write the MkDocs site (with mkdocs-static-i18n) equivalent to an articlesite project.

    python bench/make_mkdocs.py PROJECT MKDOCS_DIR

What a user who picked MkDocs instead would build: every article in every language with
the same Markdown body, each figure directive replaced by the raw HTML our generator
renders for that figure in that language (the same figures as in the Hugo twin), one
index per language, MkDocs' own theme, and mkdocs-static-i18n's folder layout
(`docs/<lang>/…`) with the default language listed first (otherwise the plugin builds it
twice). Needs `pip install -e '.[bench]'`.

Not equivalent, and in MkDocs' favour: `$…$` math and `[@id]` citations stay text, there
is no bibliography, and the plugin's search index is off (ours is on).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_hugo import FIGURE_FENCE, command, loaded  # the same figures as the Hugo twin


def make(project: Path, target: Path) -> None:
    sources, renderer = loaded(project, target)
    site = sources.site
    docs = target / "docs"
    # The default language first: mkdocs-static-i18n builds the first as the default.
    languages = sorted(site.languages, key=lambda lang: lang.code != site.default_language)
    config = {
        "site_name": site.language(site.default_language).site_title,
        "site_url": site.base_url or "https://example.org/",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs"},
        "markdown_extensions": ["toc", "tables", "attr_list", "md_in_html"],
        "plugins": [{"i18n": {"docs_structure": "folder", "languages": [
            {"locale": lang.code, "name": lang.name, "build": True,
             "default": lang.code == site.default_language} for lang in languages]}}],
    }
    target.mkdir(parents=True)
    # JSON is YAML: the configuration is written without a YAML writer.
    (target / "mkdocs.yml").write_text(json.dumps(config, ensure_ascii=False, indent=1),
                                       encoding="utf-8")
    for language in languages:
        folder = docs / language.code
        folder.mkdir(parents=True)
        listed = [f"- [{article.sources[language.code].title}]({article.slug}.md)"
                  for article in sources.articles if language.code in article.sources]
        (folder / "index.md").write_text(f"# {language.site_title}\n\n" + "\n".join(listed)
                                         + "\n", encoding="utf-8")
    for article in sources.articles:
        for code, source in article.sources.items():
            def figure(match: re.Match, code: str = code) -> str:
                return renderer.render_figure(renderer.figures.get(match.group(1)), code)
            body = FIGURE_FENCE.sub(figure, source.body)
            (docs / code / f"{article.slug}.md").write_text(
                f"# {source.title}\n\n{source.description}\n\n{body}", encoding="utf-8")


def main(argv: list[str]) -> int:
    return command(make, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
