"""What serve adds to each HTML page it sends, before </body>: the live-reload script
(live.js, which follows the build events at EVENTS), the error overlay after a failed
build, and what the page-snippet providers give (extensions.py). Nothing of this is
ever written into site/."""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files

from .outcome import Outcome
from .overlay import overlay

EVENTS = "/__articlesite/events"
LIVE_JS = files("articlesite.serve") / "live.js"


def inject(html: bytes, outcome: Outcome, extra: str = "") -> bytes:
    """The page with the live-reload script (and the overlay after a failed build, and
    `extra`) added before </body>."""
    settings = json.dumps({"version": outcome.version, "events": EVENTS})
    snippet = (extra + ("" if outcome.ok else overlay(outcome.problems))
               + f"<script>window.articlesiteLive={settings};\n{LIVE_JS.read_text('utf-8')}"
               "</script>")
    end = html.rfind(b"</body>")
    end = len(html) if end < 0 else end
    return html[:end] + snippet.encode() + html[end:]


# The theme's icon (theme/favicon.html), inline: the browser asks no /favicon.ico.
ICON = ("<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/"
        "svg'%20viewBox='0%200%2016%2016'%3E%3Crect%20width='16'%20height='16'%20rx='3'%20"
        "fill='%234a7423'/%3E%3C/svg%3E\">")


def status_page(title: str, outcome: Outcome) -> bytes:
    """A small page for an error status; it reloads when a build succeeds."""
    return inject(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>'
                  f"{escape(title)}</title>{ICON}</head><body><p>{escape(title)}</p></body></html>"
                  .encode(), outcome)
