"""What the build does to a formula's TeX before converting it: the parts that belong to
the page rather than to the formula (\\tag, \\label, \\eqref), environments named as
LaTeX and MathJax authors write them, and line breaks outside any environment."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


class MathError(ValueError):
    """A formula that cannot be shown faithfully; the message says why."""


@dataclass(frozen=True)
class Source:
    tex: str               # what the converter gets
    tag: str | None        # shown beside the formula, as written: "(1)" or "hi" for \tag*
    label: str | None      # \label{…}: the formula gets the page's next number


_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
_NOTAG = re.compile(r"\\(?:notag|nonumber)(?![A-Za-z])")
EQREF = re.compile(r"^\s*\\(?:eq)?ref\s*\{([^{}]+)\}\s*$")
_REF_ANYWHERE = re.compile(r"\\(?:eq)?ref\s*\{")
LABEL_TEXT = re.compile(r"^[A-Za-z0-9:._-]+\Z")

# Environments written as in LaTeX: the page numbers equations, not the converter, so a
# numbered environment is shown as its starred form; split is aligned inside equation.
_RENAMES = [
    (re.compile(r"\\(begin|end)\{equation\*?\}"), ""),
    (re.compile(r"\\begin\{(align|gather|multline)\}"), r"\\begin{\1*}"),
    (re.compile(r"\\end\{(align|gather|multline)\}"), r"\\end{\1*}"),
    (re.compile(r"\\begin\{alignat\*?\}\s*\{\d+\}"), r"\\begin{align*}"),
    (re.compile(r"\\end\{alignat\*?\}"), r"\\end{align*}"),
    (re.compile(r"\\begin\{alignedat\}\s*\{\d+\}"), r"\\begin{aligned}"),
    (re.compile(r"\\end\{alignedat\}"), r"\\end{aligned}"),
    (re.compile(r"\\(begin|end)\{split\}"), r"\\\1{aligned}"),
    (re.compile(r"\\(begin|end)\{smallmatrix\}"), r"\\\1{matrix}"),
]


# `\\` right before the end of a matrix or an aligned environment: LaTeX, KaTeX and
# MathJax start no new row there; the converter would draw an empty one.
_LAST_BREAK = re.compile(
    r"\\\\(?:\s*\[[^\]\\]*\])?\s*(?=\\end\s*\{(?:[pbBvV]?matrix|smallmatrix|aligned|alignedat"
    r"|gathered|align\*?|gather\*?|alignat\*?|flalign\*?|split|multline\*?|eqnarray\*?|cases"
    r"|dcases|rcases|array|subarray)\})")


# \text{… $x$ …}: math inside text, as amsmath allows; the converter takes it as text,
# math, text.
_TEXT_WITH_MATH = re.compile(r"\\text\s*\{([^{}]*\$[^{}]*)\}")


def _split_text(match: re.Match) -> str:
    parts = match.group(1).split("$")
    if len(parts) % 2 == 0:
        raise MathError("\\text{…} with an unpaired '$'")
    return "".join(f"\\text{{{part}}}" if i % 2 == 0 else f"{{{part}}}"
                   for i, part in enumerate(parts) if part)


_SUBSTACK = re.compile(r"\\substack\s*\{")


def _group_end(tex: str, start: int) -> int:
    """The index of the `}` closing the group whose `{` is at `start`."""
    depth, i = 0, start
    while i < len(tex):
        if tex[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        if depth == 0:
            return i
        i += 1
    raise MathError("unbalanced '{': a '}' is missing")


def _lines(tex: str) -> list[str]:
    """`a \\\\ b` split at the `\\\\` outside groups."""
    lines, depth, last, i = [], 0, 0, 0
    while i < len(tex):
        if tex.startswith("\\\\", i) and depth == 0:
            lines.append(tex[last:i])
            i += 2
            last = i
            continue
        if tex[i] == "\\":
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        i += 1
    lines.append(tex[last:])
    return [line for line in lines if line.strip()]


def _substacks(tex: str) -> str:
    """\\substack{a \\\\ b}, which math-core lacks, as TeX sets it: lines in script
    style stacked and centred, here written with \\atop."""
    while match := _SUBSTACK.search(tex):
        end = _group_end(tex, match.end() - 1)
        lines = [f"{{\\scriptstyle {line.strip()}}}" for line in _lines(tex[match.end():end])]
        stacked = lines[-1] if lines else "{}"
        for line in reversed(lines[:-1]):
            stacked = f"{{{line} \\atop {stacked}}}"
        tex = tex[:match.start()] + f"{{{stacked}}}" + tex[end + 1:]
    return tex


# The converter parses by recursion, on the stack of the thread that calls it: some 4000
# levels of nesting (\sqrt{\sqrt{…}}, braces, \left(, or commands applied to commands:
# \hat\hat…x, \color{red}\color{red}…) end the process. A real formula nests a few
# levels deep, and a long one holds some hundreds of commands.
MOST_NESTING = 100        # groups, \left…\right and environments inside each other
MOST_CHARACTERS = 50_000  # a formula's source
# A formula with more commands, groups and scripts than this is converted on a thread
# with a stack large enough for any formula under MOST_CHARACTERS (mathml.convert).
DEEP = 1_000
_OPENS = re.compile(r"\\(?:left|begin)(?![A-Za-z])")
_CLOSES = re.compile(r"\\(?:right|end)(?![A-Za-z])")


def check_braces(tex: str) -> None:
    """Refuse unbalanced braces, and a formula nested deeper than MOST_NESTING levels or
    longer than MOST_CHARACTERS."""
    if len(tex) > MOST_CHARACTERS:
        raise MathError(f"the formula is {len(tex):,} characters long, more than the "
                        f"{MOST_CHARACTERS:,} a formula may have: split it")
    depth = deepest = 0
    escaped = False
    for char in tex:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError("unbalanced '}'")
    if depth:
        raise MathError("unbalanced '{': a '}' is missing")
    if deepest <= MOST_NESTING and "\\" in tex:
        deepest = max(deepest, _nesting(tex))
    if deepest > MOST_NESTING:
        raise MathError(f"nested {deepest:,} levels deep (groups, \\left…\\right, "
                        f"environments), more than the {MOST_NESTING} a formula may have")


def _nesting(tex: str) -> int:
    """How deep braces, \\left…\\right and \\begin…\\end nest together."""
    depth = deepest = 0
    for match in re.finditer(r"\\(?:left|begin|right|end)(?![A-Za-z])|\\.|[{}]", tex):
        text = match.group()
        if text == "{" or _OPENS.fullmatch(text):
            depth += 1
            deepest = max(deepest, depth)
        elif text == "}" or _CLOSES.fullmatch(text):
            depth -= 1
    return deepest


def weight(tex: str) -> int:
    """The commands, groups and scripts of a formula: what bounds how deep the converter
    recurses into it."""
    return tex.count("\\") + tex.count("{") + tex.count("^") + tex.count("_")


@lru_cache(maxsize=8192)   # a body's outline asks for the label, its rendering converts
def prepare(tex: str, display: bool) -> Source:
    """The formula as the converter gets it, with its tag and label taken out."""
    check_braces(tex)
    if _REF_ANYWHERE.search(tex):
        raise MathError("\\eqref{…} must be a formula of its own ($\\eqref{label}$): the page "
                        "writes the reference text in its language")
    tags = _TAG.findall(tex)
    labels = _LABEL.findall(tex)
    if (tags or labels) and not display:
        raise MathError("\\tag and \\label number display formulas only ($$…$$)")
    if len(tags) > 1 or len(labels) > 1:
        raise MathError("a display formula takes one \\tag and one \\label at most: it "
                        "gets one number")
    label = labels[0].strip() if labels else None
    if label is not None and not LABEL_TEXT.match(label):
        raise MathError(f"label '{label}': use letters, digits, ':', '.', '_' or '-'")
    tag = None
    if tags:
        star, text = tags[0]
        tag = text.strip() if star else f"({text.strip()})"
    body = _NOTAG.sub("", _LABEL.sub("", _TAG.sub("", tex)))
    body = _LAST_BREAK.sub("", body)
    for pattern, replacement in _RENAMES:
        body = pattern.sub(replacement, body)
    body = _TEXT_WITH_MATH.sub(_split_text, body)
    if _SUBSTACK.search(body):
        body = _substacks(body)
        check_braces(body)   # each line of a \substack is a level deeper
    return Source(_break_lines(body.strip()), tag, label)


_ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{")
_NEWLINE = re.compile(r"\\newline(?![A-Za-z])")


def _break_lines(tex: str) -> str:
    """`\\\\` or `\\newline` outside every environment and group: the lines of a gathered
    block, or of an aligned one when `&` marks where they align."""
    depth = env = 0
    top_break = top_amp = False
    i = 0
    while i < len(tex):
        char = tex[i]
        if char == "\\":
            match = _ENVIRONMENT.match(tex, i)
            if match:
                env += 1 if match.group(1) == "begin" else -1
            elif depth == 0 and env == 0 and (tex.startswith("\\\\", i)
                                              or _NEWLINE.match(tex, i)):
                top_break = True
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "&" and depth == 0 and env == 0:
            top_amp = True
        i += 1
    if not top_break:
        return tex
    tex = re.sub(r"\\newline(?![A-Za-z])", r"\\\\", tex)
    name = "aligned" if top_amp else "gathered"
    return f"\\begin{{{name}}}{tex}\\end{{{name}}}"
