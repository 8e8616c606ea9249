"""The issue's demo, as a person would make it: the figure `build-pipeline` (written by
`figure new`, placed by `figure layout`) finished in serve's figure editor with the mouse
and the keyboard only. Nothing here writes a coordinate: every node is dragged to a
place found on the screen next to another node; every edge is drawn from a node's dot.

    python make_demo.py URL      (serve running on the project, e.g. http://127.0.0.1:8770/)
"""

from __future__ import annotations

import sys

from playwright.sync_api import sync_playwright

URL = sys.argv[1]
FIG = "#figure-build-pipeline"
LANGS = ("zh", "en", "ja")

# What each node says, in zh, en, ja: (text, subtitle).
TEXTS = {
    "input": (("源文件", ""), ("Sources", ""), ("ソース", "")),
    "step": (("load · 读取", "文章、词典、图的规格"), ("load", "articles, texts, specs"),
             ("load · 読み込み", "記事・辞書・図の仕様")),
    "check": (("parse · 解析", "每个源文件一次"), ("parse", "each source once"),
              ("parse · 解析", "各ソースを一度")),
    "output": (("check · 检查", "所有问题"), ("check", "all problems"),
               ("check · 検査", "すべての問題")),
}
NEW = [  # added nodes: (texts, the node it goes below)
    ((("render · 渲染", "模板 → HTML"), ("render", "templates → HTML"),
      ("render · 描画", "テンプレート → HTML")), "output"),
    ((("write · 写出", "新文件夹替换"), ("write", "a fresh folder"),
      ("write · 書き出し", "新しいフォルダ")), "check"),
    ((("index · 索引", "供搜索"), ("index", "for search"), ("index · 索引", "検索用")), "step"),
    ((("site/ 站点", ""), ("site/", ""), ("site/ サイト", "")), "input"),
    ((("serve 监视", "每次保存"), ("serve's watcher", "every save"),
      ("serve の監視", "保存のたび")), "node-4"),
]
EDGES = [  # (from, its side, to, the side dropped on, style)
    ("output", "bottom", "node-1", "top", ""), ("node-1", "left", "node-2", "right", ""),
    ("node-2", "left", "node-3", "right", ""), ("node-3", "left", "node-4", "right", ""),
    ("input", "left", "node-5", "left", ""), ("node-5", "right", "step", "bottom", "feedback"),
    ("node-2", "bottom", "node-4", "bottom", ""),
]
TITLE = ("构建的六个阶段", "The six stages of a build", "構築の六段階")
CAPTION = ("图 1 · 从源文件到 site/：每个阶段只读取上一阶段交出的数据；serve 的监视器在每次保存后把改动交回 load。",
           "Figure 1 · From sources to site/: each stage reads only what the one before handed "
           "on; serve's watcher hands every save back to load.",
           "図 1 · ソースから site/ へ：各段階は前の段階が渡したものだけを読む。serve の監視は保存のたびに変更を load に返す。")


def centre(page, selector):
    """Where an element is on the screen (the page is tall enough to show the figure
    whole, below the bars, as a person would scroll it)."""
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box


def drag(page, start, end, steps=15):
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(start[0] + (end[0] - start[0]) * i / steps,
                        start[1] + (end[1] - start[1]) * i / steps)
        page.wait_for_timeout(10)
    page.mouse.up()
    page.wait_for_timeout(250)


def language(page, code):
    page.locator(f"{FIG} select.fe-language").select_option(code)


def fill(page, field, text):
    area = page.locator(f"{FIG} textarea[data-field={field}]")
    area.fill(text)
    area.dispatch_event("change")


def select(page, node):
    x, y, _ = centre(page, f'{FIG} [data-node="{node}"]')
    page.mouse.click(x, y)


def texts_of(page, node, texts):
    select(page, node)
    for code, (text, sub) in zip(LANGS, texts):
        language(page, code)
        fill(page, "text", text)
        if sub:
            fill(page, "sub", sub)


def place(page, node, reference):
    """Drag `node` 90 px below `reference`, their left sides in line (the guide shows it)."""
    x, y, box = centre(page, f'{FIG} [data-node="{node}"]')
    _, _, ref = centre(page, f'{FIG} [data-node="{reference}"]')
    drag(page, (x, y), (ref["x"] + box["width"] / 2, ref["y"] + ref["height"] + 90
                        + box["height"] / 2))


def connect(page, source, side, target, target_side):
    """Select `source`, drag from its dot on `side` and let go just inside `target`'s
    `target_side`."""
    select(page, source)
    px, py, _ = centre(page, f"{FIG} .fe-port[data-port={side}]")
    tx, ty, box = centre(page, f'{FIG} [data-node="{target}"]')
    inside = {"top": (tx, box["y"] + 6), "bottom": (tx, box["y"] + box["height"] - 6),
              "left": (box["x"] + 6, ty), "right": (box["x"] + box["width"] - 6, ty)}
    drag(page, (px, py), inside[target_side])


def widen_until_fits(page):
    """Each box whose text overflows somewhere is made wider by its right handle, 10 px
    at a time up to 180 px, then taller by its bottom one, as a person would, until every
    language fits in both styles."""
    for _ in range(60):
        page.wait_for_timeout(300)
        over = page.locator(f"{FIG} .fe-fit.fe-over").evaluate_all(
            "els => els.map(e => e.dataset.fit)")
        nodes = [name.split(" ", 1)[1] for name in over if name.startswith("node ")]
        if not nodes:
            return
        select(page, nodes[0])
        width = page.locator(f'{FIG} [data-node="{nodes[0]}"]').bounding_box()["width"]
        handle = "e" if width < 180 else "s"
        x, y, _ = centre(page, f'{FIG} .fe-handle[data-handle="{handle}"]')
        drag(page, (x, y), (x + 10, y) if handle == "e" else (x, y + 10), steps=3)
    page.locator(FIG).screenshot(path="/tmp/fe-dev/demo-debug.png")
    raise SystemExit("still overflowing: " + ", ".join(over))


def nudge(page, node, dx, dy):
    """Drag a node by a few pixels, letting the guides line it up with its neighbours."""
    x, y, _ = centre(page, f'{FIG} [data-node="{node}"]')
    drag(page, (x, y), (x + dx, y + dy), steps=6)


def tidy(page):
    """What a person does last: index up into its row, check as wide as render below it
    (their centres in line), and the canvas's corner pulled in to 30 px from the boxes."""
    nudge(page, "node-3", 0, -15)
    select(page, "output")
    x, y, _ = centre(page, f'{FIG} .fe-handle[data-handle="e"]')
    drag(page, (x, y), (x + 30, y), steps=6)
    boxes = page.locator(f"{FIG} .canvas .node").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(r => [r.right, r.bottom])")
    right, bottom = max(b[0] for b in boxes), max(b[1] for b in boxes)
    x, y, _ = centre(page, f"{FIG} .fe-canvas-handle")
    # The handle's centre is 7 px inside the canvas's corner.
    drag(page, (x, y), (right + 30 - 7, bottom + 30 - 7))


def main():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1300})
        page.on("pageerror", lambda e: print("page error:", e))
        page.goto(URL + "en/build-pipeline.html")
        page.locator(FIG).get_by_role("button", name="Edit figure").click()
        page.wait_for_selector(f"{FIG} .fe-bar")
        page.locator(f"{FIG} .figure-heading").evaluate(
            "el => window.scrollTo({top: el.getBoundingClientRect().top + scrollY - 70, "
            "behavior: 'instant'})")
        # A taller canvas, by its corner.
        x, y, _ = centre(page, f"{FIG} .fe-canvas-handle")
        drag(page, (x, y), (x + 60, y + 330))
        for code, title, caption in zip(LANGS, TITLE, CAPTION):
            language(page, code)
            fill(page, "title", title)
            fill(page, "caption", caption)
        for node, texts in TEXTS.items():
            texts_of(page, node, texts)
        # The draft's feedback edge (parse back to load) is not this figure's: delete it.
        x, y, _ = centre(page, f"{FIG} .canvas .edge.feedback >> nth=1")
        page.mouse.click(x, y)
        page.keyboard.press("Delete")
        for texts, reference in NEW:
            page.locator(FIG).get_by_role("button", name="Add node").click()
            node = page.evaluate("window.articlesiteFigureEditor.current.model.nodes.slice(-1)[0]"
                                 ".fields.id")
            texts_of(page, node, texts)
            place(page, node, reference)
        language(page, "en")
        for source, side, target, target_side, style in EDGES:
            connect(page, source, side, target, target_side)
            if style:   # the watcher's edge back to load is feedback: its style, in the bar
                page.locator(f"{FIG} .fe-style select").select_option(style, timeout=3000)
        widen_until_fits(page)
        tidy(page)
        page.wait_for_timeout(1000)
        page.locator(FIG).screenshot(path="/work/wt/shots/demo-editor-en.png")
        page.locator(FIG).get_by_role("button", name="Save").click()
        page.wait_for_timeout(1500)
        print(page.locator(f"{FIG} .fe-message").inner_text())
        browser.close()


if __name__ == "__main__":
    main()
