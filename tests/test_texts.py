"""Dictionary values are text, never trusted HTML; sub/superscript markup is readable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_build, soup

from articlesite.load.markup import plain_text, rich_text


@pytest.mark.parametrize("value, html", [
    ("π_old", "π<sub>old</sub>"),
    ("Construct rewards r_t", "Construct rewards r<sub>t</sub>"),
    ("報酬 r_t を作る", "報酬 r<sub>t</sub> を作る"),
    ("V_{t+1} and x^2", "V<sub>t+1</sub> and x<sup>2</sup>"),
    ("snake\\_case", "snake_case"),
    ("a\nb", "a<br>b"),
    ("softmax(QK^⊤/√d) V", "softmax(QK<sup>⊤</sup>/√d) V"), ("π^*", "π<sup>*</sup>"),
    ("2^* 3", "2<sup>*</sup> 3"),
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
])
def test_rich_text(value: str, html: str):
    assert str(rich_text(value)) == html


def test_plain_text_drops_markup():
    assert plain_text("mean (V_φ(h_t) − Ĝ_t)²") == "mean (Vφ(ht) − Ĝt)²"


def test_hostile_dictionary_value_shows_as_text(project: Path):
    path = project / "figures/figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["sft"]["ja"] = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
    path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    assert run_build(project).returncode == 0
    page = soup(project / "site/ja/ppo-long-horizon.html")
    node = page.select_one("#figure-training-overview [data-node=sft] strong")
    assert node.get_text() == texts["sft"]["ja"]
    assert not node.find(["script", "img"])
