"""`figure new` writes its placeholders in the project's source language."""

from __future__ import annotations

import json

import pytest

from articlesite.cli import main
from articlesite.starter import init_project


@pytest.mark.parametrize("source, title, step", [
    ("zh", "图的标题（待写）", "步骤"), ("en", "Title of the figure (to write)", "Step"),
    ("ja", "図のタイトル（未記入）", "ステップ"), ("ko", "그림 제목 (작성 예정)", "단계"),
])
def test_placeholders_are_in_the_source_language(tmp_path, source, title, step):
    root = tmp_path / "project"
    codes = [source] + [code for code in ("zh", "en", "ja") if code != source][:2]
    init_project(root, codes, source)
    assert main(["--root", str(root), "figure", "new", "flow"]) == 0
    texts = json.loads((root / "figures/figure-texts.json").read_text(encoding="utf-8"))
    # every language holds the source's placeholder: untranslated until translated
    assert texts["flow-title"] == {code: title for code in codes}
    assert texts["flow-step"][source] == step
