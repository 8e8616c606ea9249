"""axe-core, injected into every page, light and dark: no violation of any rule it runs."""

from __future__ import annotations

import pytest
from conftest import REPO, require

from browser.pages import ALL_PAGES, THEMES

AXE = REPO / "node_modules/axe-core/axe.min.js"


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", ALL_PAGES)
def test_axe_finds_no_violation(visit, path: str, theme: str):
    require(AXE.is_file(), "node_modules/axe-core (npm ci)")
    page = visit(path, color_scheme=theme)
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    ran = sum(len(results[kind]) for kind in ("violations", "passes", "incomplete",
                                              "inapplicable"))
    assert ran >= 50  # the default rule set ran, not an empty one
    violations = [f"{v['id']} ({v['impact']}): {v['help']} -> "
                  + "; ".join(n["target"][0] for n in v["nodes"][:5])
                  for v in results["violations"]]
    assert violations == []
