"""LaTeX to MathML at build time, refusing what the converter cannot render faithfully."""

from __future__ import annotations

import re
from functools import lru_cache

from latex2mathml.converter import convert

# latex2mathml passes an unknown command through as text (<mi>\foo</mi>) and an
# alignment `&` as an identifier; both would show raw source to the reader.
_LEFTOVER = re.compile(r">\s*(\\[A-Za-z]+|\\.|&amp;|&)\s*<")


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
    return mathml
