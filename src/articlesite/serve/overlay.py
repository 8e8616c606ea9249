"""The error overlay an open page shows after a failed build."""

from __future__ import annotations

from html import escape


def overlay(problems: tuple[dict, ...]) -> str:
    """The error overlay, as HTML with every source text escaped."""
    items = "".join(
        f'<li style="margin:0 0 10px"><b>{escape(p["where"])}</b> {escape(p["message"])}'
        + "".join(f' <span style="opacity:.75">[{name} {escape(p[name])}]</span>'
                  for name in ("key", "language") if p.get(name))
        + "</li>" for p in problems)
    count = len(problems)
    return (
        '<div id="articlesite-overlay" role="alert" style="position:fixed;inset:0;'
        "z-index:2147483647;overflow:auto;margin:0;padding:24px 28px;background:#1d1f1e;"
        'color:#f3f1ea;font:15px/1.55 ui-monospace,Menlo,Consolas,monospace;text-align:left">'
        f'<p style="margin:0 0 6px;font-size:20px;color:#ff9c85">Build failed: {count} '
        f"problem{'s' if count != 1 else ''}</p>"
        '<p style="margin:0 0 16px;opacity:.8">site/ still holds the last good build. Fix '
        "the sources and save: this page reloads by itself.</p>"
        f'<ol style="margin:0;padding-left:1.6em">{items}</ol></div>')

