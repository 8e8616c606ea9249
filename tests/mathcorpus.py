"""The math corpus (tests/data/math-corpus.yaml) and the checks that judge a conversion.

A formula is judged on its parsed MathML, never by "it produced some MathML": each entry
carries structural expectations written by hand (`expect`), and more are read off the TeX
source itself by a small table that knows what a command must become (`\\sim` an <mo>
`∼`, `\\log` an upright function name with space before an identifier that follows it,
`\\sum_…` with limits under and over it in display, `\\hat{x}` an accent over `x`, …).
The converter under test never sees these tables.

Used by tests/test_math_corpus.py and bench/math_corpus.py.
"""

from __future__ import annotations

import html
import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import yaml

CORPUS = Path(__file__).parent / "data" / "math-corpus.yaml"
SUMMARY: list[str] = []   # lines for pytest's terminal summary (see conftest.py)

TOKENS = {"mi", "mn", "mo", "mtext", "ms"}
SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts"}
INVISIBLE = {"\u2061", "\u2062", "\u2063", "\u2064", "\ufe00", "\ufe01", "\u200b"}


@dataclass
class Entry:
    tex: str
    display: bool
    source: str
    expect: list[str] = field(default_factory=list)
    reject: str | None = None          # a formula that must be refused: part of the message
    line: int = 0

    @property
    def name(self) -> str:
        return f"{self.source}: {self.tex}"


@dataclass
class Result:
    """What a converter gave: MathML, or a refusal with its message; the tag and label the
    build shows beside a display formula (None where the converter puts them in MathML)."""

    mathml: str | None
    error: str | None = None
    tag: str | None = None
    label: str | None = None


def load(path: Path = CORPUS) -> list[Entry]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = []
    for group in data["groups"]:
        source = group["source"]
        for item in group["formulas"]:
            if isinstance(item, str):
                item = {"tex": item}
            expect = [part.strip() for part in item.get("e", "").split(";") if part.strip()]
            entries.append(Entry(item["tex"], bool(item.get("d", group.get("display", False))),
                                 source, expect, item.get("reject")))
    return entries


# Normalised token text ------------------------------------------------------------------
_VARIANT_NAMES = {
    "bold": "BOLD", "italic": "ITALIC", "bold-italic": "BOLD ITALIC", "double-struck":
    "DOUBLE-STRUCK", "script": "SCRIPT", "bold-script": "BOLD SCRIPT", "fraktur": "FRAKTUR",
    "bold-fraktur": "BOLD FRAKTUR", "sans-serif": "SANS-SERIF", "bold-sans-serif":
    "SANS-SERIF BOLD", "sans-serif-italic": "SANS-SERIF ITALIC", "monospace": "MONOSPACE",
}
_LETTERLIKE = {"SCRIPT": "SCRIPT", "FRAKTUR": "BLACK-LETTER", "DOUBLE-STRUCK": "DOUBLE-STRUCK",
               "ITALIC": "ITALIC"}


def _styled(char: str, variant: str) -> str:
    """A character in a mathvariant, as the Unicode mathematical alphanumeric character."""
    style = _VARIANT_NAMES.get(variant)
    if style is None:
        return char
    name = unicodedata.name(char, "")
    if name.startswith(("LATIN CAPITAL LETTER ", "LATIN SMALL LETTER ")):
        case = "CAPITAL" if "CAPITAL" in name else "SMALL"
        base = f"{case} {name.rsplit(' ', 1)[1]}"
    elif name.startswith(("GREEK CAPITAL LETTER ", "GREEK SMALL LETTER ")):
        case = "CAPITAL" if "CAPITAL" in name else "SMALL"
        base = f"{case} {name.split('LETTER ', 1)[1]}"
    elif name.startswith("DIGIT "):
        base = name
    else:
        return char
    for candidate in (f"MATHEMATICAL {style} {base}",
                      f"{_LETTERLIKE.get(style, style)} {base}",
                      "PLANCK CONSTANT" if (style, base) == ("ITALIC", "SMALL H") else ""):
        try:
            return unicodedata.lookup(candidate)
        except KeyError:
            continue
    return char


def text_of(element: ET.Element) -> str:
    """A token's text as a reader sees it: mathvariant applied, selectors dropped."""
    raw = "".join(element.itertext())
    variant = element.get("mathvariant")
    styled = {local(child) for child in element}   # HTML's <b> and <i> inside <mtext>
    if "b" in styled or "i" in styled:
        variant = {"b": "bold", "i": "italic"}[min(styled & {"b", "i"})]
    if variant and variant != "normal":
        raw = "".join(_styled(c, variant) for c in raw)
    raw = "".join(c for c in raw if c not in INVISIBLE)
    return unicodedata.normalize("NFC", raw.replace("\u00a0", " ")).strip()


def flat(element: ET.Element) -> str:
    """All token text under an element, without spaces."""
    parts = [text_of(e) for e in element.iter() if local(e) in TOKENS]
    return re.sub(r"\s+", "", "".join(parts))


def local(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


def parse(mathml: str) -> ET.Element:
    """MathML as XML; HTML's named character references (valid in an HTML page) allowed."""
    def numeric(match: re.Match) -> str:
        if match.group(1) in ("lt", "gt", "amp", "quot", "apos"):
            return match.group(0)
        return "".join(f"&#x{ord(c):X};" for c in html.unescape(match.group(0)))
    return ET.fromstring(re.sub(r"&([A-Za-z][A-Za-z0-9]*);", numeric, mathml))


# Expectations read off the TeX --------------------------------------------------------------
AUTO_MO = {
    "sim": "∼", "approx": "≈", "gg": "≫", "ll": "≪", "mid": "∣", "leq": "≤", "le": "≤",
    "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "equiv": "≡", "propto": "∝", "simeq": "≃",
    "cong": "≅", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "cup": "∪", "cap": "∩", "times": "×", "cdot": "⋅", "pm": "±",
    "mp": "∓", "div": "÷", "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "iff": "⟺", "implies": "⟹", "mapsto": "↦",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "forall": "∀", "exists": "∃",
    "nabla": "∇", "partial": "∂", "infty": "∞", "oplus": "⊕", "otimes": "⊗", "circ": "∘",
    "perp": "⊥|⟂", "parallel": "∥", "vee": "∨", "wedge": "∧", "land": "∧", "lor": "∨",
    "neg": "¬", "lnot": "¬", "setminus": "∖", "prec": "≺", "succ": "≻", "preceq": "⪯",
    "succeq": "⪰", "vdash": "⊢", "models": "⊨", "asymp": "≍", "doteq": "≐", "ni": "∋",
    "bullet": "∙", "star": "⋆", "ast": "∗", "odot": "⊙", "triangleq": "≜",
    "coloneqq": "≔", "lessapprox": "⪅", "lesssim": "≲", "gtrsim": "≳", "nsim": "≁",
    "uparrow": "↑", "downarrow": "↓", "longrightarrow": "⟶", "hookrightarrow": "↪",
    "sum": "∑", "prod": "∏", "int": "∫", "oint": "∮", "iint": "∬", "coprod": "∐",
    "bigcup": "⋃", "bigcap": "⋂", "bigoplus": "⨁", "bigotimes": "⨂", "bigvee": "⋁",
    "bigwedge": "⋀",
}
# Symbols a converter may write as <mi> or <mo>: checked only to be there.
AUTO_SYMBOL = {"infty": "∞", "partial": "∂", "nabla": "∇", "emptyset": "∅", "ell": "ℓ",
               "hbar": "ℏ", "aleph": "ℵ", "varnothing": "∅", "forall": "∀", "exists": "∃",
               "neg": "¬", "lnot": "¬"}
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ",
         "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ",
         "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π",
         "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ",
         "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
         "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ",
         "Omega": "Ω"}
FUNCTIONS = {"log", "ln", "lg", "exp", "sin", "cos", "tan", "sec", "csc", "cot", "sinh",
             "cosh", "tanh", "arcsin", "arccos", "arctan", "max", "min", "sup", "inf", "lim",
             "limsup", "liminf", "det", "dim", "ker", "deg", "gcd", "arg", "Pr", "hom"}
BIG_OPERATORS = {"sum": "∑", "prod": "∏", "coprod": "∐", "bigcup": "⋃", "bigcap": "⋂",
                 "bigoplus": "⨁", "bigotimes": "⨂", "bigvee": "⋁", "bigwedge": "⋀"}
LIMIT_FUNCTIONS = {"lim", "max", "min", "sup", "inf", "limsup", "liminf", "det", "gcd", "Pr"}
ACCENTS = {"hat": "^ˆ̂", "widehat": "^ˆ̂", "tilde": "~˜̃∼", "widetilde": "~˜̃∼",
           "bar": "¯‾_̄―‒−ˉ", "vec": "→⃗", "dot": "˙.̇⋅", "ddot": "¨..̈", "check": "ˇ̌",
           "breve": "˘̆", "acute": "´ˊ́", "grave": "`ˋ̀", "mathring": "˚̊∘"}
_COMMAND = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])")


def _strip_text(tex: str) -> str:
    """The TeX without the contents of \\text{…} and \\operatorname{…} (no commands there)."""
    return re.sub(r"\\(?:text|textbf|textit|mathrm|operatorname\*?|label|tag|eqref|ref)"
                  r"\s*\{[^{}]*\}", " ", tex)


def auto_expectations(tex: str, display: bool) -> list[str]:
    found: list[str] = []
    math = _strip_text(tex)
    for match in _COMMAND.finditer(math):
        name = match.group(1)
        after = math[match.end():].lstrip()
        nested = _nested(math, match.start())
        if name in AUTO_SYMBOL:
            found.append(f"symbol {AUTO_SYMBOL[name]}")
        elif name in AUTO_MO:
            found.append(f"mo {AUTO_MO[name]}")
        elif name in GREEK and not re.search(r"\\(?:mathbf|boldsymbol|bm|mathrm|mathit|"
                                              r"mathsf|mathbb|mathcal|mathfrak|mathscr)\s*\{?"
                                              r"\s*$", math[:match.start()]):
            found.append(f"mi {GREEK[name]}")
        if name in FUNCTIONS:
            found.append(f"fn {name}")
        limits = after.startswith("\\limits")
        scripts = after.startswith(("_", "^"))
        if (name in BIG_OPERATORS or name in LIMIT_FUNCTIONS) and not nested and \
                not after.startswith("\\nolimits"):
            base = BIG_OPERATORS.get(name, name)
            if limits or (scripts and display and name != "int"):
                found.append(f"limits {base}")
            elif scripts and not display:
                found.append(f"scripts {base}")
        if name in ACCENTS:
            arg = re.match(r"\s*\{\s*(\\[A-Za-z]+|[A-Za-z])\s*\}|\s*(\\[A-Za-z]+|[A-Za-z])",
                           after)
            if arg:
                base = arg.group(1) or arg.group(2)
                base = GREEK.get(base[1:], None) if base.startswith("\\") else base
                if base:
                    found.append(f"accent {base} {name}")
    return found


_DISPLAY_ENVIRONMENTS = {"aligned", "align", "align*", "gather", "gather*", "gathered",
                         "split", "equation", "equation*", "multline", "multline*"}


def _nested(tex: str, position: int) -> bool:
    """Is this position inside a group, or an environment whose cells are not in display
    style (cases, matrices)? There TeX's style, and so limits placement, differs."""
    depth, environments, i = 0, [], 0
    while i < position:
        if tex[i] == "\\":
            begin = re.match(r"\\(begin|end)\s*\{([^{}]*)\}", tex[i:])
            if begin:
                if begin.group(1) == "begin":
                    environments.append(begin.group(2))
                elif environments:
                    environments.pop()
                i += begin.end()
                continue
            i += 2
            continue
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        i += 1
    return depth > 0 or any(e not in _DISPLAY_ENVIRONMENTS for e in environments)


# Checks ---------------------------------------------------------------------------------
def _tokens(root: ET.Element, tag: str) -> list[str]:
    return [text_of(e) for e in root.iter() if local(e) == tag]


def _space_after(root: ET.Element, atom: ET.Element) -> bool:
    """Is there space between a function name (or the script element it is the base of)
    and an identifier, number or text right after it?"""
    order = list(root.iter())
    inside = set(atom.iter())
    index = max(order.index(e) for e in inside)
    last_token = [e for e in atom.iter() if local(e) in TOKENS]
    if last_token and local(last_token[0]) == "mo" and last_token[0].get("rspace") not in (
            "0", "0em", "0px"):
        return True   # an operator keeps the dictionary's space after it
    for element in order[index + 1:]:
        tag = local(element)
        if tag == "mspace":
            width = element.get("width", "")
            if re.match(r"\s*0*\.?0*[1-9]", width or "") or re.match(r"[1-9]", width or ""):
                return True
            continue
        if tag == "mo":
            if text_of(element) == "":
                for side in ("lspace", "rspace"):
                    if re.match(r"\s*0*\.?0*[1-9]", element.get(side, "") or "0"):
                        return True
                continue
            return True
        if tag in ("mi", "mn", "mtext"):
            return text_of(element) == ""
        if tag in ("mfrac", "msqrt", "mroot"):
            return False
    return True


def _function_atom(parents: dict, element: ET.Element) -> ET.Element:
    atom = element
    while True:
        parent = parents.get(atom)
        if parent is None:
            return atom
        if local(parent) == "mrow" and len([c for c in parent if local(c) != "mspace"]) == 1:
            atom = parent
            continue
        if local(parent) in SCRIPTED and parent[0] is atom:
            atom = parent
            continue
        return atom


def _table_shape(table: ET.Element) -> tuple[int, int]:
    rows = [r for r in table if local(r) in ("mtr", "mlabeledtr")]
    cols = max((len([c for c in r if local(c) == "mtd"]) - (local(r) == "mlabeledtr")
                for r in rows), default=0)
    return len(rows), cols


def check(entry: Entry, result: Result) -> list[str]:
    """What is wrong with a conversion of the entry: an empty list when it is right."""
    if entry.reject is not None:
        if result.error is None:
            return ["converted, but must be refused"]
        return []
    if result.error is not None:
        return [f"refused: {result.error.splitlines()[0][:120]}"]
    try:
        root = parse(result.mathml)
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"]
    failures = []
    parents = {child: parent for parent in root.iter() for child in parent}
    for element in root.iter():
        if local(element) == "merror":
            failures.append("contains <merror>")
        if local(element) in TOKENS and re.search(r"\\[A-Za-z]", text_of(element)):
            failures.append(f"TeX source in the output: {text_of(element)!r}")
        if local(element) == "mo" and len(text_of(element)) == 1 and \
                unicodedata.combining(text_of(element)) and element.get("stretchy") != "true":
            # alone and not stretched, a combining mark has no base: Chromium draws it beside
            # the accent's base (seen with \vec's U+20D7); stretched, the font's variants
            # are drawn over it (\overline, \widehat: seen right)
            failures.append(f"a lone combining mark {text_of(element)!r}")
    expectations = list(dict.fromkeys(auto_expectations(entry.tex, entry.display)
                                      + entry.expect))
    for expectation in expectations:
        if not _holds(expectation, root, parents, result):
            failures.append(expectation)
    return failures


def _base_matches(element: ET.Element, base: str) -> bool:
    """Does the element's text match the base (alternatives separated by "|")?"""
    return flat(element) in {b.replace(" ", "") for b in base.split("|")}


def _holds(expectation: str, root: ET.Element, parents: dict, result: Result) -> bool:
    kind, _, arg = expectation.partition(" ")
    args = arg.split(" ")
    if kind in ("mo", "mi", "mn"):
        return any(a in _tokens(root, kind) for a in arg.split("|"))
    if kind == "moany":
        return any(t in arg for t in _tokens(root, "mo") if len(t) == 1)
    if kind == "upright":
        upright = "".join(text_of(e) for e in root.iter() if local(e) in TOKENS and (
            local(e) != "mi" or len(text_of(e)) > 1 or e.get("mathvariant") == "normal"))
        return arg in re.sub(r"\s", "", upright)
    if kind == "space":
        return any(local(e) == "mspace" and re.match(r"\s*0*\.?0*[1-9]", e.get("width", ""))
                   for e in root.iter())
    if kind == "boxed":
        return any((local(e) == "menclose" and "box" in e.get("notation", ""))
                   or "border" in e.get("style", "") for e in root.iter())
    if kind == "symbol":
        return any(text_of(e) in arg.split("|") for e in root.iter() if local(e) in ("mi", "mo"))
    if kind == "mtext":
        return any(arg in t for t in _tokens(root, "mtext"))
    if kind == "text":
        return any(a.replace(" ", "") in flat(root) for a in arg.split("|"))
    if kind == "absent":
        return all(arg not in text_of(e) for e in root.iter() if local(e) in TOKENS)
    if kind == "fn":
        names = [e for e in root.iter() if local(e) in ("mi", "mo")
                 and re.sub(r"\s", "", text_of(e)) == arg]
        if not names:
            return False
        return all(_space_after(root, _function_atom(parents, e)) for e in names)
    if kind in ("limits", "scripts"):
        wanted = ({"munder", "mover", "munderover"} if kind == "limits"
                  else {"msub", "msup", "msubsup"})
        for element in root.iter():
            tag = local(element)
            if len(element) and _base_matches(element[0], arg):
                if tag in wanted:
                    return True
                if kind == "scripts" and tag in ("munder", "mover", "munderover"):
                    core = [e for e in element[0].iter() if local(e) in TOKENS]
                    if core and local(core[-1]) == "mo" and core[-1].get(
                            "movablelimits", "true") != "false" and arg in BIG_OPERATORS.values():
                        return True
                    if core and core[-1].get("movablelimits") == "true":
                        return True
        return False
    if kind == "accent":
        base, name = args[0], args[1] if len(args) > 1 else None
        for element in root.iter():
            if local(element) == "mover" and len(element) == 2 and \
                    element.get("accent") == "true" and _base_matches(element[0], base):
                mark = flat(element[1])
                if name is None or any(c in ACCENTS.get(name, "") for c in mark) or (
                        name not in ACCENTS and mark):
                    return True
        return False
    if kind in ("under", "over"):   # a script, or a rule: <menclose notation="top">
        script = ("munder" if kind == "under" else "mover", "munderover")
        side = "bottom" if kind == "under" else "top"
        return any((local(e) in script and len(e) >= 2 and _base_matches(e[0], args[0]))
                   or (local(e) == "menclose" and e.get("notation") == side
                       and _base_matches(e, args[0])) for e in root.iter())
    if kind == "table":
        shape = (int(args[0]), int(args[1]))
        return any(_table_shape(e) == shape for e in root.iter() if local(e) == "mtable")
    if kind == "stack":   # N lines set one above the other: a one-column table, or TeX's
        # own \atop (fractions without a rule, nested)
        def parts(e: ET.Element) -> int:
            if local(e) == "mfrac" and e.get("linethickness") in ("0", "0px", "0em"):
                return sum(parts(child) for child in e)
            if local(e) == "mrow" and len(e) == 1:
                return parts(e[0])
            return 1
        return any(_table_shape(e) == (int(arg), 1) for e in root.iter()
                   if local(e) == "mtable") or any(
            parts(e) == int(arg) for e in root.iter() if local(e) == "mfrac")
    if kind == "rows":
        return any(_table_shape(e)[0] == int(arg) for e in root.iter() if local(e) == "mtable")
    if kind == "count":
        return sum(1 for e in root.iter() if local(e) == args[0]) in {
            int(n) for n in args[1].split("|")}
    if kind == "fence":
        same = {"|": "|∣", "‖": "‖∥"}.get(arg, arg)
        return any(local(e) == "mo" and text_of(e) and text_of(e) in same
                   and e.get("stretchy") != "false" for e in root.iter())
    if kind == "big":
        return any(local(e) == "mo" and text_of(e) == arg and e.get("minsize")
                   for e in root.iter())
    if kind in ("sub", "sup"):
        tags = {"sub": ("msub", "msubsup", "munder", "munderover"),
                "sup": ("msup", "msubsup", "mover", "munderover")}[kind]
        for e in root.iter():
            if local(e) in tags and _base_matches(e[0], args[0]):
                index = 2 if (kind == "sup" and local(e) in ("msubsup", "munderover")) else 1
                if len(e) > index and flat(e[index]) == args[1]:
                    return True
        return False
    if kind == "frac":
        return any(local(e) == "mfrac" and flat(e[0]) == args[0] and flat(e[1]) == args[1]
                   for e in root.iter())
    if kind == "sqrt":
        return any(local(e) == "msqrt" and flat(e) == arg for e in root.iter())
    if kind == "root":
        return any(local(e) == "mroot" and flat(e[0]) == args[0] and flat(e[1]) == args[1]
                   for e in root.iter())
    if kind == "variant":
        def shown(e: ET.Element) -> str:   # a lone letter in <mi> is italic by default
            text = text_of(e)
            if local(e) == "mi" and len(text) == 1 and not e.get("mathvariant"):
                return _styled(text, "italic")
            return text
        return any(a in shown(e) for a in arg.split("|") for e in root.iter()
                   if local(e) in ("mi", "mo", "mn"))
    if kind == "tag":
        if result.tag is not None:
            return result.tag == arg and f"({arg})" not in flat(root)
        return any(text_of(e) in (f"({arg})", arg) for e in root.iter()
                   if local(e) in ("mtext", "mn", "mi")) and "tag" not in flat(root)
    if kind == "label":
        return result.label == arg
    raise ValueError(f"unknown expectation {expectation!r}")
