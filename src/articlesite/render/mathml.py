"""LaTeX to MathML at build time, refusing what the converter cannot render faithfully."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from latex2mathml.converter import convert

# latex2mathml passes an unknown command through as text (<mi>\foo</mi>) and an
# alignment `&` as an identifier; both would show raw source to the reader.
_LEFTOVER = re.compile(r">\s*(\\[A-Za-z]+|\\.|&amp;|&)\s*<")


# latex2mathml unescapes its whole output, so `\text{<script>…}` would come out as a
# live <script>, and it turns \href and \style into attributes. A formula's MathML must
# parse as XML into presentation elements with presentation attributes only.
_ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "munder", "mover", "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mpadded", "mphantom",
    "menclose", "mtable", "mtr", "mtd", "mmultiscripts", "mprescripts", "none", "semantics",
    "annotation",
})
_ATTRIBUTES = frozenset({
    "display", "displaystyle", "scriptlevel", "mathvariant", "mathsize", "mathcolor",
    "mathbackground", "dir", "stretchy", "symmetric", "largeop", "movablelimits", "fence",
    "separator", "separators", "form", "lspace", "rspace", "minsize", "maxsize", "accent",
    "accentunder", "linethickness", "bevelled", "width", "height", "depth", "voffset",
    "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines", "frame",
    "framespacing", "equalrows", "equalcolumns", "columnspan", "rowspan", "notation", "open",
    "close", "encoding",
})


class MathError(ValueError):
    pass


@lru_cache(maxsize=4096)
def to_mathml(latex: str, display: bool = False) -> str:
    """Convert one formula; raise MathError naming what cannot be rendered."""
    depth = 0
    escaped = False
    for char in latex:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError("unbalanced '}'")
    if depth:
        raise MathError("unbalanced '{'")
    try:
        mathml = convert(latex, display="block" if display else "inline")
    except Exception as exc:  # noqa: BLE001 - latex2mathml raises many kinds of error
        raise MathError(f"cannot convert: {exc}") from None
    leftover = _LEFTOVER.search(mathml)
    if leftover:
        raise MathError(f"unsupported LaTeX: {leftover.group(1)}")
    _check_markup(mathml)
    return mathml


def _check_markup(mathml: str) -> None:
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError:
        raise MathError("'<' or '&' in text cannot be written safely; use \\lt, \\gt "
                        "or \\& outside \\text{…}") from None
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag not in _ELEMENTS:
            raise MathError(f"unsupported LaTeX: it would produce <{tag}>")
        for name in element.attrib:
            if name not in _ATTRIBUTES:
                raise MathError(f"unsupported LaTeX: it would set '{name}' on <{tag}>")
