"""A dictionary text's markup, read as a translator writes it (the rule is on the docs'
translating page, with examples; translate/richtext.js draws it the same way in the
browser, and a test holds the two to the same table):

- `` `code` `` is code: monospace, shown as written, never broken inside;
- `\\_`, `\\^` and `` \\` `` are the characters themselves;
- a word with an underscore is an identifier, shown as written, when it has two or more
  underscores, starts or ends with one, or has more than two characters before it
  (`batched_forward_pass`, `max_len`, `ppo_trainer.step()`, `_private`);
- otherwise `_x` / `_{…}` make a subscript and `^x` / `^{…}` a superscript (`π_old`,
  `r_t`, `V_{t+1}`, `x^2`); braces always do (`score_{max}`); so do the marks a formula
  puts up without braces (`Q^⊤`, `A^†`, `x^′`, `π^*`);
- a newline is a line break.

A word is a run of Latin letters (with their accents), Greek letters and digits, joined
by underscores; a Chinese or Japanese character is not part of one (`价值V_t` is 价值 and
V_t). Some words could be meant either way (`kl_coef`: kl with the subscript coef, or the
identifier; `sum_i`: the identifier, or sum with the subscript i): `ambiguous` names them
for `check`.

In a Japanese or Chinese figure text, a zero-width space (U+200B) marks each place a line
may break, between two phrases (load/phrases.py); the figure's CSS lets it break nowhere
else but at spaces. (A zero-width space rather than `<wbr>`: an element splits the text
it stands in, and Chromium then shapes each part apart, which moves glyphs by a fraction
of a pixel; a character in the text does not.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

from .phrases import breaks, model_of

try:   # markupsafe's own escaping of a str (C where it has its speedups)
    from markupsafe import _escape_inner
except ImportError:   # pragma: no cover - another markupsafe: its escape, always
    _escape_inner = None
_new_str = str.__new__

_LETTER = "A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0300-\u036f\u0370-\u03ff"
_SCRIPT_CHARS = "A-Za-z0-9\u0370-\u03ff"
_TOKEN = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|\\(?P<escaped>[_^`])"
    rf"|(?<![{_LETTER}])(?P<word>_*[{_LETTER}]+(?:_+[{_LETTER}]+)*(?:_+(?![{{]))?)"
    rf"|(?P<mark>[_^])(?:\{{(?P<braced>[^{{}}]*)\}}|(?P<bare>[{_SCRIPT_CHARS}]+|[*⊤†′]))")
_SUBSCRIPT = re.compile(rf"([{_SCRIPT_CHARS}]+)(.*)", re.DOTALL)
TEXT, CODE, SUB, SUP = "text", "code", "sub", "sup"
BREAK = "\u200b"   # a zero-width space: where a line may break between two phrases


@dataclass(frozen=True)
class Piece:
    """One run of a text as shown: plain text, code, a subscript or a superscript."""

    kind: str
    text: str


def identifier(word: str) -> bool:
    """Is this word, which has an underscore, shown as written? (Two underscores or
    more, one at its end, more than two characters before it, or one at its start
    before more than two.)"""
    if word.count("_") >= 2 or word.endswith("_"):
        return True
    return len(word) - 1 > 2 if word.startswith("_") else word.index("_") > 2


def _word(word: str) -> list[Piece]:
    if "_" not in word or identifier(word):
        return [Piece(TEXT, word)]
    base, rest = word.split("_")
    found = _SUBSCRIPT.match(rest)
    if found is None:   # no character a subscript takes (`x_é`): as written
        return [Piece(TEXT, word)]
    return [Piece(TEXT, base), Piece(SUB, found[1]), Piece(TEXT, found[2])]


def _token(match: re.Match) -> list[Piece]:
    if match["code"] is not None:
        return [Piece(CODE, match["code"])]
    if match["escaped"] is not None:
        return [Piece(TEXT, match["escaped"])]
    if match["word"] is not None:
        return _word(match["word"])
    inner = match["braced"] if match["braced"] is not None else match["bare"]
    return [Piece(SUB if match["mark"] == "_" else SUP, inner)]


@lru_cache(maxsize=4096)
def pieces(value: str) -> tuple[Piece, ...]:
    """A dictionary value read into its pieces, neighbouring plain texts joined. (The
    plain text is gathered as strings and made a Piece once, before the next piece of
    another kind: most words of a text are plain.)"""
    out: list[Piece] = []
    plain: list[str] = []   # the plain text since the last piece of another kind
    position = 0
    for match in _TOKEN.finditer(value):
        plain.append(value[position:match.start()])
        position = match.end()
        word = match["word"]
        if word is not None and ("_" not in word or identifier(word)):
            plain.append(word)   # as _word gives it: [Piece(TEXT, word)]
            continue
        for piece in _token(match):
            if piece.kind == TEXT:
                plain.append(piece.text)
                continue
            text = "".join(plain)
            if text:
                out.append(Piece(TEXT, text))
            plain = []
            out.append(piece)
    plain.append(value[position:])
    text = "".join(plain)
    if text:
        out.append(Piece(TEXT, text))
    return tuple(out)


def quick_escape(value: object) -> Markup:
    """markupsafe.escape, the same Markup for every value, made at less cost for the two
    kinds templates print most (a figure's macro some 230 values a figure): a plain str
    is escaped without markupsafe's Python-level Markup constructor, and a Markup is
    given back as it is (escape gives an equal copy)."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _new_str(Markup, _escape_inner(value))
    if kind is Markup:
        return value
    return escape(value)


# Dictionary texts made into HTML by a build's workers, handed to the build's own
# process (parse.py): the translator's view shows every text of the dictionary, and
# would otherwise make again, in one process, those the article pages made over the
# cores. By (value, lang): what a value becomes never changes.
_shared: dict[tuple[str, str | None], Markup] = {}
# In a worker that records: what it made that it has not handed over yet (as plain str).
_recorded: dict[tuple[str, str | None], str] | None = None


def rich_text(value: str, lang: str | None = None) -> Markup:
    """A dictionary value as HTML; in a Japanese or Chinese `lang` (an HTML language tag
    or a site's language code), BREAK between its phrases."""
    made = _shared.get((value, lang))
    if made is None:
        made = _rich_text(value, lang)
        if _recorded is not None:
            _shared[value, lang] = made
            _recorded[value, lang] = str(made)
    return made


def record_texts() -> None:
    """From now on (in a worker), note each text rich_text makes: take_recorded."""
    global _recorded
    if _recorded is None:
        _recorded = {}


def take_recorded() -> dict[tuple[str, str | None], str]:
    """The texts made since record_texts or the last call, as plain strings."""
    global _recorded
    made, _recorded = _recorded or {}, {} if _recorded is not None else None
    return made


def forget_shared() -> None:
    """Before a build's workers start: the texts an earlier build's handed over go."""
    _shared.clear()


def share_texts(made: dict[tuple[str, str | None], str]) -> None:
    """Texts a worker made (take_recorded), for rich_text to give in this process."""
    for key, html in made.items():
        _shared[key] = Markup(html)


@lru_cache(maxsize=4096)  # figures repeat their texts across pages
def _rich_text(value: str, lang: str | None = None) -> Markup:
    found = pieces(value)
    allowed = set(breaks(plain_text(value, newlines=True), lang)) if model_of(lang) else set()
    if not allowed and len(found) == 1 and found[0].kind == TEXT:   # most texts: plain
        return _new_str(Markup, str(quick_escape(found[0].text)).replace("\n", "<br>"))
    out: list[Markup] = []
    position = 0
    for piece in found:
        end = position + len(piece.text)
        if position in allowed:
            out.append(Markup(BREAK))
        if piece.kind == TEXT:
            cuts = [cut - position for cut in sorted(allowed) if position < cut < end]
            parts = [piece.text[a:b] for a, b in zip([0, *cuts], [*cuts, None])]
            out.append(Markup(BREAK).join(quick_escape(part) for part in parts))
        elif piece.kind == CODE:
            out.append(Markup("<code>{}</code>").format(piece.text))
        else:
            out.append(Markup("<{0}>{1}</{0}>").format(Markup(piece.kind), piece.text))
        position = end
    return Markup(Markup("").join(out).replace("\n", Markup("<br>")))


@lru_cache(maxsize=2048)
def plain_text(value: str, newlines: bool = False) -> str:
    """A dictionary value as plain text (markup removed), for attributes and alt text;
    a newline is a space unless `newlines`."""
    text = "".join(piece.text for piece in pieces(value))
    return text if newlines else text.replace("\n", " ")


@dataclass(frozen=True)
class Ambiguous:
    """A word that could be meant either way, and which way it is shown."""

    word: str
    base: str
    subscript: str
    shown: str       # "as written" (the identifier) or "as a subscript"

    def message(self) -> str:
        braced = f"{self.base}_{{{self.subscript}}}"
        literal = self.word.replace("_", "\\_")
        return (f"'{self.word}' could be meant two ways: the identifier {self.word}, or "
                f"{self.base} with the subscript {self.subscript}; it is shown "
                f"{self.shown}. Say which: `{self.word}` in backticks (code) or {literal} "
                f"(as written), or {braced} (a subscript)")


def ambiguous(value: str) -> list[Ambiguous]:
    """The words of `value` with one underscore that could be an identifier or a base
    with a subscript: a short ASCII base with a subscript of three or more letters
    (`kl_coef`, `x_train`: shown as a subscript), or a longer base with a subscript of
    one or two (`sum_i`: shown as written)."""
    out = []
    for match in _TOKEN.finditer(value):
        word = match["word"]
        if word is None or word.count("_") != 1 or word.strip("_") != word:
            continue
        base, rest = word.split("_")
        if not (base + rest).isascii() or not rest.isalnum():
            continue
        if identifier(word) and len(rest) <= 2:
            out.append(Ambiguous(word, base, rest, "as written"))
        elif not identifier(word) and len(rest) >= 3 and rest.isalpha():
            out.append(Ambiguous(word, base, rest, "as a subscript"))
    return out
