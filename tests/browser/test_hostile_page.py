"""A page built from hostile sources runs no script of theirs in a real browser."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_build

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'


def test_hostile_texts_run_nothing(chromium, project: Path):
    texts_path = project / "figures/figure-texts.json"
    texts = json.loads(texts_path.read_text(encoding="utf-8"))
    texts["actor"]["en"] = HOSTILE
    texts_path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    article = project / "content/ppo-long-horizon/en.md"
    source = article.read_text(encoding="utf-8")
    source = source.replace('title: "', f"title: {json.dumps(HOSTILE)[:-1]} ", 1).replace(
        "\n## ", "\n[click me](javascript:alert(3))\n\n## ", 1)
    article.write_text(source, encoding="utf-8")
    assert run_build(project).returncode == 0

    context = chromium.new_context()
    dialogs, requests = [], []
    page = context.new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("request", lambda request: requests.append(request.url))
    page.goto((project / "site/en/ppo-long-horizon.html").as_uri())
    page.get_by_text("[click me](javascript:alert(3))").click()
    page.locator("#figure-training-overview [data-node=actor]").click()
    assert page.locator("h1").inner_text().startswith(HOSTILE)
    context.close()
    assert dialogs == []
    assert all(url.startswith("file://") for url in requests)  # no <img src=x> fetched
