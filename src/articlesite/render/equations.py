"""Formulas on a page: MathML for each, numbers for labelled display formulas, and
`$\\eqref{label}$` as a link whose text is in the page's language ("Eq. (3)", "式 (3)")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it.token import Token
from markupsafe import escape

from .mathml import MathError, convert
from .mathsource import EQREF, prepare


@dataclass
class Numbering:
    """The numbers of a page's labelled display formulas, found before it is rendered
    (a reference may come before the formula)."""

    numbers: dict[str, str] = field(default_factory=dict)   # label -> "(3)" or the tag


_BARE_EQREF = re.compile(r"\\(?:eq)?ref\{([^{}\s]+)\}")


def eqref_rule(state, silent: bool) -> bool:
    """Inline rule: `\\eqref{label}` written in the text, outside `$…$`, as MathJax
    readers write it: the same link as `$\\eqref{label}$`."""
    if not state.src.startswith("\\", state.pos):
        return False
    match = _BARE_EQREF.match(state.src, state.pos)
    if not match or not match.group(0).startswith("\\eqref"):
        return False
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.content = match.group(0)
        token.markup = ""
    state.pos = match.end()
    return True


def anchor(label: str) -> str:
    return "eq-" + re.sub(r"[^A-Za-z0-9_-]", "-", label)


def label_of(tex: str) -> str | None:
    """A display formula's \\label, without converting it (None for a formula with a
    problem: reported where it is rendered)."""
    try:
        return prepare(tex, True).label
    except MathError:
        return None


def number(tokens: list[Token]) -> Numbering:
    """Number the labelled display formulas in page order: \\label gets the next number,
    \\tag{…} its own text (a labelled tag is referred to by it)."""
    found = Numbering()
    count = 0
    for token in tokens:
        if token.type != "math_block":
            continue
        try:
            formula = convert(token.content.strip(), True)
        except MathError:
            continue   # reported where the formula is rendered
        if formula.label is None:
            continue
        if formula.tag is None:
            count += 1
        found.numbers.setdefault(formula.label, formula.tag or f"({count})")
    return found


# How much of a formula a problem shows.
SHOWN = 120


def render(token: Token, line: int | None, numbering: Numbering | None,
           problem: Callable[[int | None, str], None] | None,
           reference: Callable[[str], str] | None, name: str | None = None) -> str:
    """A formula's HTML, or a placeholder after reporting what is wrong with it.

    A display formula wider than the column scrolls sideways in its box (on a phone most
    long ones do), so the box is focusable (a keyboard reader scrolls it with the arrow
    keys) and named: `name`, "Formula" in the page's language, with its number."""
    tex = token.content.strip()
    display = token.type == "math_block"

    def refuse(message: str) -> str:
        if problem is not None:
            shown = " ".join(tex.split())
            if len(shown) > SHOWN:   # a formula of thousands of characters: its start
                shown = f"{shown[:SHOWN]}… ({len(shown):,} characters)"
            problem(line, f"formula ${shown}$: {message}")
        return f'<code class="math-error">{escape(token.content)}</code>'

    eqref = EQREF.match(tex)
    if eqref and not display:
        label = eqref.group(1).strip()
        if numbering is None:
            return escape(label)
        shown = numbering.numbers.get(label)
        if shown is None:
            known = ", ".join(sorted(numbering.numbers)) or "none"
            return refuse(f"no display formula on this page has \\label{{{label}}} "
                          f"(labels: {known})")
        text = reference(shown) if reference else shown
        return f'<a class="eqref" href="#{anchor(label)}">{escape(text)}</a>'
    try:
        formula = convert(tex, display)
    except MathError as exc:
        return refuse(str(exc))
    if not display:
        return formula.mathml
    shown = formula.tag
    if formula.label is not None and numbering is not None:
        shown = numbering.numbers.get(formula.label, shown)
    box = ' tabindex="0" role="group"'
    if name:
        box += f' aria-label="{escape(name + (" " + shown if shown else ""))}"'
    if shown is None:
        return f'<div class="math-display"{box}>{formula.mathml}</div>\n'
    ident = f' id="{anchor(formula.label)}"' if formula.label else ""
    return (f'<div class="math-display numbered"{ident}{box}>{formula.mathml}'
            f'<span class="eqno">{escape(shown)}</span></div>\n')


def duplicate_labels(tokens: list[Token], first_line: int) -> list[tuple[int, str]]:
    """Labels used by more than one display formula of a page: (line, label)."""
    seen: set[str] = set()
    repeated = []
    for token in tokens:
        if token.type != "math_block":
            continue
        try:
            formula = convert(token.content.strip(), True)
        except MathError:
            continue
        if formula.label is None:
            continue
        if formula.label in seen:
            repeated.append((first_line + token.map[0] if token.map else 0, formula.label))
        seen.add(formula.label)
    return repeated
