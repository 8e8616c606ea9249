"""A figure's HTML as a form: its geometry rendered once, its texts filled in per language.

The figure macro (templates/figure.html) lays out a figure from its spec: coordinates,
classes and keys, and the number of sentences that say what its edges join. None of
that depends on the language; only the texts it prints do (dictionary texts, interface
strings, the connection sentences). So the macro runs once per figure, with a mark in
place of each text, and each language fills the marks in: the same bytes as running the
macro in that language, at a fraction of the cost.

A mark is `<`, NUL, its number, NUL, `>`: the macro escapes every value of the spec it
prints (a `<` becomes `&lt;`), and no template writes a NUL, so marks are all the form
holds of that shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from ..load.figures import Figure
from ..load.markup import quick_escape as escape

_MARK = re.compile("<\x00(\\d+)\x00>")
TEXT, PHRASED, UI, SENTENCE = "text", "phrased", "ui", "sentence"


class FigureForm:
    """The HTML between the texts (`parts`) and what fills each gap (`slots`: a
    dictionary key, an interface string's key, or the number of a connection sentence).
    A text on the canvas is `t(key, true)`: set in its phrases (load/markup.py)."""

    def __init__(self, macro: Callable[..., Any], spec: Figure, sentences: int):
        slots: list[tuple[str, Any]] = []

        def mark(kind: str, value: Any) -> Markup:
            slots.append((kind, value))
            return Markup(f"<\x00{len(slots) - 1}\x00>")

        html = str(macro(spec, lambda key, phrased=False: mark(PHRASED if phrased else TEXT,
                                                               key),
                         [mark(SENTENCE, n) for n in range(sentences)],
                         lambda key: mark(UI, key)))
        pieces = _MARK.split(html)
        self.parts = pieces[0::2]
        self.slots = [slots[int(number)] for number in pieces[1::2]]
        # Each gap with the HTML after it, for fill: (kind, value, part).
        self._gaps = [(kind, value, part) for (kind, value), part
                      in zip(self.slots, self.parts[1:])]

    def fill(self, text: Callable[..., Markup], sentences: list[Markup],
             ui: Callable[[str], str]) -> str:
        """The figure in one language: `text(key, phrased)` and `ui(key)` as the macro
        takes them, and the connection sentences. Values are escaped as the macro's
        autoescape would."""
        out = [self.parts[0]]
        append = out.append
        escaped: dict[str, Markup] = {}   # each interface string once, not once per use
        for kind, value, part in self._gaps:
            if kind is TEXT:
                filled = text(value)
            elif kind is PHRASED:
                filled = text(value, True)
            elif kind is SENTENCE:
                filled = sentences[value]
            else:
                filled = escaped.get(value)
                if filled is None:
                    filled = escaped[value] = escape(ui(value))
            if type(filled) is not Markup:   # (escape gives a Markup back as it is)
                filled = escape(filled)
            append(filled)
            append(part)
        return "".join(out)
