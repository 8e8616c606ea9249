"""The package's parts, bottom up: a module may import modules of its own part and of
the parts below it, never of a part above (tests/test_imports.py refuses such an import
wherever it is written: at the top, inside a function, or for type checking only).
`python -m articlesite.tools.imports` lists the parts in this order with their modules
and line counts.

A part is named by the modules it holds: a name stands for that module and the modules
under it ("load" is load/ and everything in it), and a module belongs to the part that
names it most closely ("render.markdown" is Markdown, the rest of render/ is rendering).
"""

from __future__ import annotations

PARTS: list[tuple[str, tuple[str, ...]]] = [
    # Problems and the process pool: used everywhere, they use nothing of the package.
    ("problems", ("", "problems", "parallel", "parts")),
    # Pure coordinates: routing and layout of figures (no HTML, no files).
    ("geometry", ("geometry",)),
    # The Markdown parser and its rules, math included: text in, tokens out. The ids the
    # templates reserve (check/reserved.py) are declared here, where the heading rule
    # keeps clear of them.
    ("markdown", ("render.markdown", "render.markdown_rules", "render.equations",
                  "render.mathml", "render.mathsource", "check.reserved")),
    # Files and loading: every source read into data objects, its outline and sections
    # parsed; the memo that spares parsing a file again; the pages a site has.
    ("loading", ("memo", "load", "pages")),
    # The checks on the loaded sources; the state of each translation.
    ("checks", ("check", "translate.record", "translate.section_checks",
                "translate.progress")),
    # Pages and figures to HTML; the translator's view.
    ("rendering", ("render", "translate.view")),
    # The cache (pages by key, their store), the search index, writing the site.
    ("output", ("unchanged", "cache", "search_service", "search_shards", "search", "write")),
    # The build: its stages in order, the parse over the cores, and the planning of what
    # it renders.
    ("build", ("build", "parse", "plan")),
    # What runs around the build: the `check` command (which renders bodies and
    # templates; `check --stretch`), serve, the translation commands, the figure
    # commands, new projects and articles (starter, scaffold).
    ("commands", ("check.report", "check.bodies", "check.templates", "check.stretch",
                  "translate", "serve", "figures", "scaffold", "starter")),
    # The command line, and the tools that look at the package itself.
    ("command line", ("cli", "__main__", "tools")),
]


def part_of(module: str) -> str | None:
    """The part a module (dotted, without "articlesite.") belongs to; None if none."""
    best, length = None, -1
    for part, names in PARTS:
        for name in names:
            if (module == name or (name and module.startswith(name + "."))
                    or (not name and not module)) and len(name) > length:
                best, length = part, len(name)
    return best


def rank(part: str) -> int:
    """The part's place in the order, from 0 at the bottom."""
    return [name for name, _ in PARTS].index(part)
