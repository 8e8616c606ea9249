"""LaTeX to MathML at build time, with math-core (a converter written for MathML Core,
which Chromium, Firefox and Safari render), refusing what it cannot render faithfully.

The choice was measured on the corpus in tests/data/math-corpus.yaml: see README.md,
"Math", and bench/math_corpus.py.
"""

from __future__ import annotations

import html
import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import lru_cache

from math_core import LatexError, LatexToMathML

from .mathsource import DEEP, MathError, prepare, weight

__all__ = ["Formula", "MathError", "convert", "to_mathml"]

# A formula's MathML must parse as XML into presentation elements with presentation
# attributes only: no links, no scripts, no events, no styles that load anything.
_ELEMENTS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup",
    "munder", "mover", "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mpadded", "mphantom",
    "menclose", "mtable", "mtr", "mtd", "mmultiscripts", "mprescripts", "none", "semantics",
    "annotation",
    "b", "i",   # \textbf and \textit: HTML inside <mtext>, which browsers render
})
_ATTRIBUTES = frozenset({
    "display", "displaystyle", "scriptlevel", "mathvariant", "mathsize", "mathcolor",
    "mathbackground", "dir", "stretchy", "symmetric", "largeop", "movablelimits", "fence",
    "separator", "form", "lspace", "rspace", "minsize", "maxsize", "accent", "accentunder",
    "linethickness", "width", "height", "depth", "voffset", "columnalign", "rowalign",
    "columnspacing", "rowspacing", "columnspan", "rowspan", "notation", "encoding", "style",
})
# math-core aligns table cells, draws array rules and colours text with inline styles.
_STYLE = re.compile(r"^(?:\s*(?:text-align|justify-items|padding(?:-left|-right|-top|-bottom)?|"
                    r"width|border(?:-left|-right|-top|-bottom)?|color|background-color)\s*:"
                    r"\s*[-#%.\w ]+;?)*\s*$")
# Chromium draws no <menclose>: the site's style sheet draws the box of \boxed, and the
# rules of \overline and \underline are their own border (_rules_as_menclose).
_NOTATIONS = frozenset({"box", "top", "bottom"})


@dataclass(frozen=True)
class Formula:
    mathml: str
    tag: str | None = None      # shown beside a display formula: "(1)", or as \tag* wrote it
    label: str | None = None    # \label{…}: numbered by the page


# \smash only changes the height TeX reserves: its content is shown as it is.
_CONVERTER = LatexToMathML(fancy_error=False, allow_unreliable_rendering=True,
                           macros={"smash": "#1"})


@lru_cache(maxsize=8192)
def convert(latex: str, display: bool = False) -> Formula:
    """Convert one formula; raise MathError naming what cannot be rendered."""
    source = prepare(latex, display)
    try:
        mathml = _converted(source.tex, display)
    except LatexError as exc:
        raise MathError(_message(str(exc), source.tex)) from None
    mathml = _polish(_NAMED.sub(_numeric, mathml))
    _check_markup(mathml)
    return Formula(mathml, source.tag, source.label)


# The converter recurses about 2 KB of stack deep per level: a formula of many commands
# is converted on a thread whose stack holds any formula mathsource lets through (the
# memory is reserved, and used only as deep as the recursion goes).
_DEEP_STACK = 512 * 1024 * 1024


def _converted(tex: str, display: bool) -> str:
    if weight(tex) <= DEEP:
        return _CONVERTER.convert_with_local_state(tex, displaystyle=display)
    result: list = []

    def convert_here() -> None:
        try:
            result.append(_CONVERTER.convert_with_local_state(tex, displaystyle=display))
        except LatexError as exc:
            result.append(exc)

    if not _room_for_stack():
        raise MathError(f"a formula of {weight(tex):,} commands, groups and scripts cannot "
                        "be converted with the memory this process may use: split it")
    with _STACK_SIZE:
        previous = threading.stack_size(_DEEP_STACK)
        try:
            thread = threading.Thread(target=convert_here, name="deep formula")
            thread.start()
        finally:
            threading.stack_size(previous)
    thread.join()
    if isinstance(result[0], LatexError):
        raise result[0]
    return result[0]


_STACK_SIZE = threading.Lock()   # threading.stack_size is the process's


def _room_for_stack() -> bool:
    """Whether the process's address space limit (RLIMIT_AS) leaves room for the deep
    stack: a thread that cannot get its stack fails as it starts, and Thread.start()
    then waits for it forever."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        if limit == resource.RLIM_INFINITY:
            return True
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError):
        return True
    return limit - used > 2 * _DEEP_STACK


def to_mathml(latex: str, display: bool = False) -> str:
    return convert(latex, display).mathml


# math-core writes some characters as HTML's named entities (&ApplyFunction;): as numeric
# ones they mean the same in HTML and the MathML also parses as XML.
_NAMED = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_NAMED = frozenset({"lt", "gt", "amp", "quot", "apos"})


def _numeric(match: re.Match) -> str:
    if match.group(1) in _XML_NAMED:
        return match.group(0)
    text = html.unescape(match.group(0))
    if text == match.group(0):
        raise MathError(f"unknown character reference {match.group(0)}")
    return "".join(f"&#x{ord(c):X};" for c in text)


# Two things Chromium draws badly from math-core's output, seen on screenshots:
# - \vec's U+20D7 COMBINING RIGHT ARROW ABOVE alone in an <mo> is drawn left of its base:
#   a smaller plain arrow is centred on it;
# - \big( and its kin are <mo> with a size but no form: Chromium gives them an infix
#   operator's space on both sides, where TeX puts none inside a fence.
_VEC = re.compile(r'<mo stretchy="false">\u20d7</mo>')
_BIG_FENCE = re.compile(r'<mo (minsize="[^"]*" maxsize="[^"]*")>([(\[{\u27e8\u2308\u230a)\]}'
                        r'\u27e9\u2309\u230b|\u2016/])</mo>')


_SCRIPTS = "msub|msup|msubsup|munder|mover|munderover|mmultiscripts|mfrac|mroot"
_TAGS = re.compile(rf"<(/?)({_SCRIPTS}|mtable)\b([^>]*)>")


def _table_levels(mathml: str) -> str:
    """math-core sets scriptlevel="0" on every <mtable>; HTML's validator allows no
    scriptlevel there. Outside scripts and fractions the level is 0 anyway: left out."""
    depth = 0
    out, last = [], 0
    for match in _TAGS.finditer(mathml):
        closing, name, attributes = match.groups()
        if name != "mtable":
            if not attributes.rstrip().endswith("/"):
                depth += -1 if closing else 1
            continue
        if not closing and depth == 0 and ' scriptlevel="0"' in attributes:
            out.append(mathml[last:match.start()])
            out.append(match.group(0).replace(' scriptlevel="0"', "", 1))
            last = match.end()
    out.append(mathml[last:])
    return "".join(out)


_MROW = re.compile(r"<(/?)(mrow|mfrac)\b([^>]*)>")
_STYLE_ATTRIBUTE = re.compile(r'\s(?:displaystyle|scriptlevel)="[^"]*"')


def _styles_as_mstyle(mathml: str) -> str:
    """\\displaystyle, \\dfrac, \\tfrac: math-core sets displaystyle and scriptlevel on
    <mrow> and <mfrac>; HTML's validator allows them on <mstyle> only, which browsers treat
    alike: such an <mrow> becomes an <mstyle>, such an <mfrac> is wrapped in one."""
    stack: list[str] = []

    def tag(match: re.Match) -> str:
        closing, name, attributes = match.groups()
        if closing:
            kind = stack.pop()
            return {"mrow": "</mrow>", "mstyle": "</mstyle>", "mfrac": "</mfrac>",
                    "wrapped": "</mfrac></mstyle>"}[kind]
        if attributes.rstrip().endswith("/"):
            return match.group(0)
        styles = "".join(_STYLE_ATTRIBUTE.findall(attributes))
        if not styles:
            stack.append(name)
            return match.group(0)
        if name == "mrow":
            stack.append("mstyle")
            return f"<mstyle{attributes}>"
        stack.append("wrapped")
        return f"<mstyle{styles}><mfrac{_STYLE_ATTRIBUTE.sub('', attributes)}>"
    return _MROW.sub(tag, mathml)


_LOW_LINE = "\u0332"


def _rules_as_menclose(mathml: str) -> str:
    """\\overline and \\underline: math-core draws them as U+0332 COMBINING LOW LINE over
    or under the base, and HTML's validator warns of every such text run ("starts with a
    composing character"). TeX draws a rule there: <menclose notation="top"> (or
    "bottom"), which says so to assistive technology, with the rule as its border (no
    browser draws a menclose's notation)."""
    if _LOW_LINE not in mathml:
        return mathml
    root = ET.fromstring(mathml)
    for parent in root.iter():
        for i, child in enumerate(list(parent)):
            if child.tag not in ("mover", "munder") or len(child) != 2:
                continue
            line = child[1]
            if line.tag != "mo" or line.text != _LOW_LINE:
                continue
            side = "top" if child.tag == "mover" else "bottom"
            enclosed = ET.Element("menclose", notation=side,
                                  style=f"border-{side}:0.06em solid;padding-{side}:0.1em")
            enclosed.append(child[0])
            enclosed.tail = child.tail
            parent[i] = enclosed
    return ET.tostring(root, encoding="unicode")


def _polish(mathml: str) -> str:
    mathml = _rules_as_menclose(_styles_as_mstyle(_table_levels(mathml)))
    mathml = _VEC.sub('<mo stretchy="false" mathsize="70%" lspace="0" rspace="0">\u2192</mo>',
                      mathml)
    return _BIG_FENCE.sub(r'<mo \1 lspace="0" rspace="0">\2</mo>', mathml)


def _message(text: str, tex: str) -> str:
    """math-core's message; where it gives a position, the text around it, since the
    position counts characters of what the converter saw, not of what the author wrote."""
    first = text.strip().splitlines()[0] if text.strip() else "cannot convert"
    match = re.match(r"^(\d+):\s*(.*)$", first)
    if not match:
        return first
    message, at = match.group(2).rstrip("."), int(match.group(1))
    if "\\" in message:
        return message
    near = " ".join(tex[max(0, at - 12):at + 12].split())
    return f"{message}, near “{near}”" if near else message


def _check_markup(mathml: str) -> None:
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError:
        raise MathError("the converter's output is not well-formed MathML") from None
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag not in _ELEMENTS:
            raise MathError(f"unsupported: it would produce <{tag}>")
        if tag in ("b", "i") and (element.attrib or len(element)):
            raise MathError(f"unsupported: it would produce <{tag}> with markup")
        for name, value in element.attrib.items():
            if name not in _ATTRIBUTES:
                raise MathError(f"unsupported: it would set '{name}' on <{tag}>")
            if name == "style" and not _STYLE.match(value):
                raise MathError(f"unsupported: it would set the style '{value}'")
        if tag == "menclose" and element.get("notation") not in _NOTATIONS:
            raise MathError(f"unsupported: browsers draw no '{element.get('notation')}' "
                            "(\\cancel, \\sout and the like); only \\boxed is drawn")
