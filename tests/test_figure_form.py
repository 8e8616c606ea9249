"""A figure's geometry is rendered once and its texts filled in per language
(render/figure_form.py): a project's own figure.html that changes a text as it prints it
still gets what its template says."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO, edit, run_build, soup


def test_a_figure_template_that_changes_its_texts_is_followed(project: Path):
    edit(project, "templates/figure.html", "{{ t(spec.caption) }}",
         "{{ t(spec.caption)|upper }}")
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    texts = json.loads((REPO / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    for code in ("en", "ja", "zh"):
        html = soup(project / "site" / code / "ppo-long-horizon.html")
        captions = [figure.figcaption.get_text() for figure in html.select("figure.figure")]
        assert texts["overview-caption"][code].upper() == captions[0]
        assert all(caption == caption.upper() for caption in captions)
