"""The translator's editor, through `python build.py serve` on a free port, in Chromium:
a Japanese text that overflows is seen to overflow while typing, before any save; a save
changes exactly that value in figures/figure-texts.json and the open article page
reloads with it; a file changed on disk since the page loaded refuses the save and keeps
the typed text; requests without the token, from another origin or malformed change
nothing. Every wait polls with a deadline; nothing is timed. On the small fixture site
(tests/fixtures/sources: article `loop`, en its source language, zh and ja translations;
figure `steps`, whose node `act` is 140 px wide), built without the search index."""

from __future__ import annotations

import http.client
import json
import re

import pytest
from conftest import TEXTS, fixture_site, run_build, save, set_text
from test_serve import Server, poll

from browser.conftest import serving, visitor

SLUG = "loop"
ARTICLE = f"ja/{SLUG}.html"
NODE = '#figure-steps [data-node="act"] strong'
LONG = "方策が環境の中で自分の試行を何度も重ねながら行動し、その結果を集める段階"
SHORT = "行う"
DEADLINE_MS = 60_000


@pytest.fixture
def project(tmp_path):
    """A copy of the fixture site to serve and edit (here, in place of conftest's copy of
    the real project)."""
    return fixture_site("sources", tmp_path / "project")


@pytest.fixture
def served(project):
    with Server(project, "--port", "0") as server:
        yield server


@pytest.fixture
def browser_page(chromium, served):
    """A page that may only reach this server; anything else fails the test."""
    origin = f"http://{served.host}:{served.port}/"
    troubles: list[str] = []
    context = chromium.new_context(viewport={"width": 1400, "height": 900})

    def guard(route) -> None:
        if route.request.url.startswith(origin):
            route.continue_()
        else:
            troubles.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    pages = []

    def open_page(path: str):
        page = context.new_page()
        page.on("pageerror", lambda error: troubles.append(f"uncaught: {error}"))
        page.goto(origin + path)
        page.wait_for_load_state("load")
        pages.append(page)
        return page

    yield open_page
    context.close()
    assert not troubles


def edit(page, key: str, language: str, text: str):
    page.get_by_role("button", name=f"Edit {key} ({language})", exact=True).click()
    area = page.locator(f'textarea[data-edit="{key}|{language}"]')
    area.fill(text)
    return area


def fit(page, key: str, language: str) -> str:
    return page.locator(f'[data-fit="{key}|{language}"]').inner_text()


def message(page) -> str:
    """What the editor said after an action (read at once: a save or a confirmation is
    followed by a rebuild, which may reload the page)."""
    said = page.wait_for_function(
        "() => { var text = document.getElementById('editor-message')?.textContent;"
        " return /^(Saved|Confirmed|figures|nothing|missing|Not)/.test(text) && text; }",
        timeout=DEADLINE_MS)
    return said.json_value()


def test_overflow_seen_while_typing_then_save_writes_only_that_value(project, served,
                                                                     browser_page):
    before = (project / TEXTS).read_bytes()
    article = browser_page(ARTICLE)
    node = article.locator(NODE)
    assert node.inner_text() == "行動"
    view = browser_page("translations.html")
    edit(view, "act", "ja", LONG)
    assert re.match(r"overflowing by [\d.]+ px \(steps, node act", fit(view, "act", "ja"))
    preview = view.locator("#editor-preview")
    assert preview.is_visible() and "act (ja): overflowing" in preview.inner_text()
    assert LONG in preview.locator(".editing").inner_text()
    assert (project / TEXTS).read_bytes() == before   # nothing saved while typing
    edit(view, "act", "ja", SHORT)
    assert fit(view, "act", "ja") == "fits (both diagram styles)"
    view.locator("#editor-save").click()
    assert message(view).startswith("Saved 1 text to figures/figure-texts.json.")
    after = (project / TEXTS).read_bytes()
    assert after == before.replace('"ja": "行動"'.encode(), f'"ja": "{SHORT}"'.encode())
    # The open article page reloads with the new text, as after any save.
    article.wait_for_function("([node, text]) => document.querySelector(node)?.textContent "
                              "=== text", arg=[NODE, SHORT], timeout=DEADLINE_MS)


def test_save_refused_when_the_file_changed_on_disk_and_the_text_stays(project, served,
                                                                      browser_page):
    view = browser_page("translations.html")
    area = edit(view, "learn", "ja", "学ぶ段階")
    set_text(project, "act", "zh", "去行动")   # by another hand
    on_disk = (project / TEXTS).read_bytes()
    view.locator("#editor-save").click()
    assert "changed on disk since this page was loaded: nothing was saved" in message(view)
    assert area.input_value() == "学ぶ段階"
    assert (project / TEXTS).read_bytes() == on_disk


def test_confirm_records_the_translation(project, served, browser_page):
    set_text(project, "act", "en", "Act first")  # the source language: ja is out of date
    assert poll(lambda: "Act first" in served.get("/translations.html")[2])  # rebuilt
    view = browser_page("translations.html")
    view.get_by_role("button", name="Confirm act (ja)", exact=True).click()
    assert message(view) == "Confirmed 1 translation in figure-texts.confirmed.json."
    record = json.loads((project / "figures/figure-texts.confirmed.json").read_text())
    assert record["act"]["ja"] == {"source": "Act first", "text": "行動"}


def test_confirm_a_stale_article_section_and_its_notice_goes(project, served, browser_page):
    run_build(project, "translations", "confirm", SLUG)
    source = project / f"content/{SLUG}/en.md"   # the source language's: section collect
    text = source.read_text(encoding="utf-8")
    assert "The policy acts, the environment" in text
    save(project, source, text.replace("The policy acts, the environment",
                                       "The policy acts and the environment"))
    article = browser_page(ARTICLE)
    article.wait_for_function("() => document.querySelector('#collect + .stale-notice')",
                              timeout=DEADLINE_MS)
    view = browser_page("translations.html")
    view.wait_for_function("() => document.querySelector("
                           f"'[data-section=\"{SLUG}#collect|ja\"] .status.stale')",
                           timeout=DEADLINE_MS)
    view.get_by_role("button", name=f"Confirm {SLUG}#collect (ja)", exact=True).click()
    assert message(view) == f"Confirmed 1 section of {SLUG} in {SLUG}/sections.confirmed.json."
    article.wait_for_function("() => !document.querySelector('.stale-notice')",
                              timeout=DEADLINE_MS)


def post(served, path: str, body: bytes, headers: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection(served.host, served.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def test_requests_without_the_token_from_elsewhere_or_malformed_change_nothing(
        project, served, browser_page):
    _, _, html = served.get("/translations.html")
    settings = json.loads(re.search(r"window\.articlesiteEditor=(\{.*?\});\n", html).group(1))
    token, base = settings["token"], settings["base"]
    before = {p: p.read_bytes() for p in (project / "figures").glob("figure-texts*.json")}
    here = f"{served.host}:{served.port}"
    good = {"Content-Type": "application/json", "Origin": f"http://{here}",
            "X-Articlesite-Token": token, "Host": here}
    body = json.dumps({"base": base, "changes": [
        {"key": "act", "language": "ja", "text": "乗っ取り"}]}).encode()
    save = "/__articlesite/editor/save"
    for headers, status in (
            ({**good, "X-Articlesite-Token": ""}, 403),
            ({**good, "X-Articlesite-Token": token[:-1] + "x"}, 403),
            ({**good, "Origin": "http://evil.example"}, 403),
            ({k: v for k, v in good.items() if k != "Origin"}, 403),
            ({**good, "Host": "evil.example"}, 403),
            ({**good, "Content-Type": "text/plain"}, 415)):
        assert post(served, save, body, headers)[0] == status, headers
    for bad, status in ((b"{not json", 400), (b"[]", 400),
                        (json.dumps({"base": base, "changes": [
                            {"key": "act", "language": "ja", "text": "   "}]}).encode(), 422),
                        (json.dumps({"base": base, "changes": [
                            {"key": "no-such-key", "language": "ja", "text": "x"}]}).encode(),
                         422),
                        (b"x" * (2 << 20), 413)):
        assert post(served, save, bad, good)[0] == status, bad[:40]
    # A page of another origin cannot send the token header (its preflight is refused).
    page = browser_page("translations.html")
    page.goto("about:blank")
    failed = page.evaluate("""([url, token, body]) => fetch(url, {method: "POST",
        headers: {"Content-Type": "application/json", "X-Articlesite-Token": token},
        body: body}).then(() => "sent", () => "blocked")""",
        [f"http://{here}{save}", token, body.decode()])
    assert failed == "blocked"
    assert {p: p.read_bytes() for p in before} == before


@pytest.fixture
def closed(project):
    """The fixture site with a theme whose view opens nothing at once, as a large site's
    view does (the files beside it hold more than its data-open-all)."""
    template = project / "templates" / "translations.html"
    text = template.read_text(encoding="utf-8")
    assert 'data-open-all="600000"' in text
    template.write_text(text.replace('data-open-all="600000"', 'data-open-all="0"'),
                        encoding="utf-8")
    return project


OPENED = "document.querySelector('[data-open=\"article-loop\"]')?.getAttribute('aria-expanded')"


def test_an_article_opened_is_loaded_edited_saved_and_open_again_after_the_reload(
        closed, served, browser_page):
    view = browser_page("translations.html")
    assert view.locator("#keys tbody tr").count() == 0   # nothing loaded before it is opened
    loaded = []
    view.on("request", lambda request: loaded.append(request.url.split("/", 3)[3]))
    view.get_by_role("button", name=SLUG, exact=True).click()
    view.wait_for_function(f"() => {OPENED} === 'true'", timeout=DEADLINE_MS)
    assert sorted(loaded) == ["translations/article-loop.js", "translations/keys-0.js"]
    assert view.locator(f"#article-{SLUG} [data-section]").count() > 0   # its sections
    edit(view, "act", "ja", SHORT)
    assert fit(view, "act", "ja") == "fits (both diagram styles)"
    view.evaluate("window.beforeTheReload = true")
    view.locator("#editor-save").click()
    assert message(view).startswith("Saved 1 text to figures/figure-texts.json.")
    # serve rebuilds; the page reloads, opens the article again and shows the text saved.
    view.wait_for_function(f"text => !window.beforeTheReload && {OPENED} === 'true' && "
                           "document.querySelector('[data-text=\"act|ja\"]')?.textContent "
                           "=== text", arg=SHORT, timeout=DEADLINE_MS)


def test_the_built_view_served_over_http_loads_what_is_opened(closed, chromium):
    assert run_build(closed).returncode == 0
    site = closed / "site"
    with serving(site) as url, visitor(chromium, url, site) as visit:   # nothing else
        view = visit("translations.html")
        assert view.locator("#keys tbody tr").count() == 0
        # A search finds texts in what is not opened: the rows are loaded to look.
        view.get_by_role("searchbox").fill("行動")
        view.get_by_role("button", name="Find", exact=True).click()
        view.wait_for_function("() => /^2 keys hold/.test("
                               "document.getElementById('find-said').textContent)")
        shown = "() => Array.from(document.querySelectorAll('#keys tbody tr'))" \
                ".filter(row => row.checkVisibility()).map(row => row.id)"
        assert view.evaluate(shown) == ["key-steps-caption", "key-act"]
        view.get_by_role("searchbox").fill("")
        view.get_by_role("button", name="Find", exact=True).click()
        assert view.evaluate(shown) == []
        view.get_by_role("button", name=SLUG, exact=True).click()
        view.wait_for_function(f"() => {OPENED} === 'true'", timeout=DEADLINE_MS)
        assert view.locator('[data-text="act|ja"]').inner_text() == "行動"
        assert view.inner_text("#fit-summary").endswith(" 2 diagram styles, all fit.")


def test_built_view_stays_read_only(project):
    assert run_build(project).returncode == 0
    html = (project / "site" / "translations.html").read_text(encoding="utf-8")
    assert "articlesiteEditor" not in html and "editor/save" not in html
