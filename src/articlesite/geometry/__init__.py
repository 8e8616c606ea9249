"""A figure's geometry as pure functions on coordinates (no HTML, templates or files):
routes for edges that name their ends (route.py), used by the build and the editor, and
the layered first draft of `figure layout` (layout.py)."""

PAGE_WIDTH = 1240.0   # px: the theme's figure.css shows a figure at most this wide (wider scrolls)
