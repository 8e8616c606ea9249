"""How soon a drag's new route reaches the screen in serve's figure editor, on the first
article's overview figure (15 nodes, 20 edges).

    python bench/figure_editor.py [ROOT] [NODE ...]

ROOT's content/, figures/ and templates/ are copied into a temporary folder (nothing of
ROOT is written), served by `python build.py serve` on a free port and opened in
Chromium. For each NODE (default: sft, trajectory, critic) the editor is opened, the node
dragged with the mouse by 60 px in 30 moves at about 60 moves a second, as a hand does,
and dropped. The editor records, for each route it draws, the time from the first change
of the geometry not yet sent to the server until the frame that shows the route
(figures/editor.js: `stats.routes`): one request is on its way at a time, so a route
shown is at most that old. Printed: median, 90th percentile and maximum, per node and
over all; the goal is 50 ms.
"""

from __future__ import annotations

import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
FIGURE = "training-overview"
PAGE = "en/ppo-long-horizon.html"
GOAL_MS = 50.0


def serve(root: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (root / "serve.log").open("wb")
    process = subprocess.Popen([sys.executable, str(REPO / "build.py"), "--root", str(root),
                                "serve", "--port", str(port)], stdout=log, stderr=log)
    deadline = time.monotonic() + 120
    while not re.search(r"Serving .* at http://", (root / "serve.log").read_text()):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit((root / "serve.log").read_text())
        time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}/"


def drag(page, node: str) -> list[float]:
    figure = page.locator(f"#figure-{FIGURE}")
    figure.get_by_role("button", name="Edit figure").click()
    page.wait_for_selector(f"#figure-{FIGURE} .fe-bar")
    page.wait_for_timeout(1500)   # the first routes of the figure's own edges, if any
    page.evaluate("window.articlesiteFigureEditor.stats.routes = []")
    target = figure.locator(f'[data-node="{node}"]')
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 31):
        page.mouse.move(x + step, y + step * 2)
        page.wait_for_timeout(16)
    page.mouse.up()
    page.wait_for_timeout(1500)
    return page.evaluate("window.articlesiteFigureEditor.stats.routes")


def summary(name: str, times: list[float]) -> str:
    if not times:
        return f"{name:12} no route drawn"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return (f"{name:12} {len(times):3} routes drawn: median {statistics.median(times):6.1f} ms,"
            f" p90 {p90:6.1f} ms, max {max(times):6.1f} ms")


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO
    nodes = sys.argv[2:] or ["sft", "trajectory", "critic"]
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for part in ("content", "figures", "templates"):
            shutil.copytree(root / part, project / part)
        process, url = serve(project)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                found = {}
                for node in nodes:
                    page.goto(url + PAGE)
                    found[node] = drag(page, node)
                browser.close()
        finally:
            process.terminate()
            process.wait()
    every = [t for times in found.values() for t in times]
    for node, times in found.items():
        print(summary(node, times))
    print(summary("all", every))
    print(f"goal: a route on screen within {GOAL_MS:g} ms of the drag's move")


if __name__ == "__main__":
    main()
