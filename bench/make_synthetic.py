"""Write a synthetic project folder of N articles × 3 languages, derived from the real one.

    python bench/make_synthetic.py N DIR

Every article is the real article with its number woven into its title, description and
every paragraph, so no two articles share a text. Every article places its own five
figures: copies of the real specs whose title and caption are dictionary keys of their
own, so no two figures share a rendering either. Templates and site.yaml are copied.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REAL_ARTICLE = "ppo-long-horizon"
# How each language says "article N", woven into titles and paragraphs.
MARKERS = {"zh": "（第 {n} 篇）", "en": " (article {n})", "ja": "（第 {n} 号）"}
FIGURE_LINE = re.compile(r"^(```\{figure\}\s*)(\S+)\s*$")
SPEC_KEY = re.compile(r"^(title|caption): (\S+)$", re.MULTILINE)


def slug(number: int) -> str:
    return f"article-{number:04d}"


def weave(markdown: str, marker: str, number: int) -> str:
    """The article with `marker` after its title, its description and every paragraph
    line, and with its figures renamed to this article's copies."""
    out = []
    front_matter = in_fence = False
    for index, line in enumerate(markdown.split("\n")):
        stripped = line.strip()
        figure = FIGURE_LINE.match(line)
        if stripped == "---":
            front_matter = index == 0
        elif front_matter:
            if stripped.endswith('"'):
                line = line[:-1] + marker + '"'
        elif figure:
            line = f"{figure.group(1)}{figure.group(2)}-{number:04d}"
            in_fence = True
        elif stripped.startswith("```"):
            in_fence = not in_fence
        elif stripped and not in_fence and not stripped.startswith(("#", "|", "$$")):
            line += marker
        out.append(line)
    return "\n".join(out)


def make(count: int, target: Path) -> None:
    if target.exists():
        shutil.rmtree(target)
    (target / "content").mkdir(parents=True)
    shutil.copytree(REPO / "src" / "articlesite" / "theme", target / "templates")
    shutil.copy(REPO / "content" / "site.yaml", target / "content" / "site.yaml")
    real = REPO / "content" / REAL_ARTICLE
    sources = {code: (real / f"{code}.md").read_text(encoding="utf-8") for code in MARKERS}
    specs = {p.stem: p.read_text(encoding="utf-8")
             for p in sorted((REPO / "figures").glob("*.yaml"))}
    texts = json.loads((REPO / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    (target / "figures").mkdir()
    for number in range(1, count + 1):
        folder = target / "content" / slug(number)
        folder.mkdir()
        shutil.copy(real / "references.yaml", folder / "references.yaml")
        for code, marker in MARKERS.items():
            text = weave(sources[code], marker.format(n=number), number)
            (folder / f"{code}.md").write_text(text, encoding="utf-8")
        for figure_id, spec in specs.items():
            def own_key(match: re.Match, number: int = number) -> str:
                key, own = match.group(2), f"{match.group(2)}-{number:04d}"
                texts[own] = {code: texts[key][code] + marker.format(n=number)
                              for code, marker in MARKERS.items()}
                return f"{match.group(1)}: {own}"
            (target / "figures" / f"{figure_id}-{number:04d}.yaml").write_text(
                SPEC_KEY.sub(own_key, spec), encoding="utf-8")
    for spec in specs.values():   # the originals' own keys are used by no figure now
        for _, key in SPEC_KEY.findall(spec):
            texts.pop(key, None)
    (target / "figures" / "figure-texts.json").write_text(
        json.dumps(texts, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not argv[0].isdigit() or int(argv[0]) < 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    make(int(argv[0]), Path(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
