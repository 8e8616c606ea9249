"""Text fit, measured in headless Chromium by `check` and live by the translator's view."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import confirm, line_of, need_browser, problems, run_build, set_text

OVERVIEW = "figures/training-overview.yaml"
LONG_JA = "教師あり微調整による初期方策の作成と検証"


def measured_check(root: Path) -> tuple[int, dict]:
    """`check --format json` with text fit, in its own process (Playwright's sync API
    runs once per process at a time)."""
    need_browser()
    result = run_build(root, "check", "--format", "json")
    return result.returncode, json.loads(result.stdout)


def test_real_content_fits_in_every_language_and_style(project, capsys):
    code, report = measured_check(project)
    assert code == 0, report["findings"]
    assert "text fit measured in Chromium" in report["checked"]
    assert report["notes"] == []
    assert not [f for f in report["findings"] if f["check"] == "fit"]


def test_an_overflow_a_covered_label_and_a_node_too_tall_are_found(project, capsys,
                                                                   chromium):
    """Three mistakes in one check (one run of Chromium): a Japanese text too long for its
    node, named by figure, element, key, language and pixels; an English label pushed
    under a node; a node whose two Japanese texts together are too tall, which names both
    (and the translator's view marks both by the same pixels)."""
    set_text(project, "sft", "ja", LONG_JA)
    confirm(project, capsys, "sft:ja")
    set_text(project, "command", "en", "Task command with a much longer explanation")
    confirm(project, capsys, "command:en")
    set_text(project, "critic-update", "ja",
             "Critic のパラメータをリターン目標に向けて少しずつ更新する")
    confirm(project, capsys, "critic-update:ja")
    code, report = measured_check(project)
    assert code == 1
    found = {f["key"]: f for f in problems(report, "fit")}
    assert sorted(found) == ["command", "critic-update", "sft"]
    overflow, covered, tall = found["sft"], found["command"], found["critic-update"]
    assert (overflow["file"], overflow["line"], overflow["figure"], overflow["element"],
            overflow["language"]) == (OVERVIEW, line_of(project, OVERVIEW, "id: sft"),
                                      "training-overview", "node sft", "ja")
    assert overflow["overflow_px"] > 1
    assert (f"node 'sft': the ja text overflows its box by {overflow['overflow_px']:g} px "
            "(blog and engineering styles)") in overflow["message"]
    assert (covered["element"], covered["language"]) == ("label command", "en")
    assert "is covered by node 'env'" in covered["message"]
    assert (tall["element"], tall["language"]) == ("node critic-update", "ja")
    assert "the ja texts (critic-update, critic-update-sub) together overflow" in tall["message"]

    assert run_build(project).returncode == 0
    page = translator_view(chromium, project / "site")
    for key in ("critic-update", "critic-update-sub"):
        assert page.locator(f'[data-fit="{key}|ja"]').inner_text() == (
            f"overflowing by {tall['overflow_px']:g} px (training-overview, node critic-update)")


def test_missing_browser_is_said_plainly_and_skips_only_text_fit(project):
    env = {**os.environ, "ARTICLESITE_CHROMIUM": "/nonexistent/chromium",
           "ARTICLESITE_REQUIRE_BROWSER": "0"}
    result = run_build(project, "check", env=env)
    assert result.returncode == 0, result.stdout
    assert ("Text fit was not measured: Chromium not found at /nonexistent/chromium"
            in result.stdout)
    # (four warnings of the content, and the five crossings of its hand-drawn figures)
    assert result.stdout.rstrip().endswith("Clean: no problems, 9 warnings.")


def test_missing_browser_is_said_the_same_where_playwright_is_missing(project, tmp_path):
    blocked = tmp_path / "blocked" / "playwright"   # Playwright made unimportable
    blocked.mkdir(parents=True)
    (blocked / "__init__.py").write_text('raise ImportError("not installed")\n')
    for required, code in (("0", 0), ("1", 1)):
        env = {**os.environ, "ARTICLESITE_CHROMIUM": "/nonexistent/chromium",
               "ARTICLESITE_REQUIRE_BROWSER": required, "PYTHONPATH": str(blocked.parent)}
        result = run_build(project, "check", env=env)
        assert result.returncode == code, result.stdout
        assert "Chromium not found at /nonexistent/chromium" in result.stdout


def test_missing_browser_is_an_error_when_required(project):
    env = {**os.environ, "ARTICLESITE_CHROMIUM": "/nonexistent/chromium",
           "ARTICLESITE_REQUIRE_BROWSER": "1"}
    result = run_build(project, "check", env=env)
    assert result.returncode == 1
    assert "text fit cannot be measured: Chromium not found" in result.stdout


def translator_view(chromium, site: Path):
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        "file://") else route.abort())
    page.goto((site / "translations.html").as_uri())
    page.wait_for_function("document.getElementById('fit-summary').textContent"
                           ".includes('measured in this browser')")
    return page


def test_translator_view_measures_fit_live(project, chromium):
    assert run_build(project).returncode == 0
    page = translator_view(chromium, project / "site")
    assert page.inner_text("#fit-summary").endswith("all fit.")
    assert page.locator(".status.overflowing").count() == 0

    set_text(project, "sft", "ja", LONG_JA)
    assert run_build(project).returncode == 0
    page = translator_view(chromium, project / "site")
    assert "1 overflowing" in page.inner_text("#fit-summary")
    cell = page.locator('[data-fit="sft|ja"]')
    assert cell.inner_text().startswith("overflowing by ")
    assert cell.inner_text().endswith(" px (training-overview, node sft)")
    assert page.locator('[data-fit="sft|en"]').inner_text() == ""
