"""Figure texts whose markup could be meant two ways: a word with one underscore that is
as likely an identifier as a base with a subscript (`kl_coef`, `sum_i`; the rule is in
load/markup.py). Each is a warning, naming the key, the language, the text and both
readings, since the text shows one of them and only its author knows which was meant."""

from __future__ import annotations

from ..load.markup import ambiguous
from ..load.texts import Dictionary
from ..problems import Findings


def check_readings(dictionary: Dictionary, findings: Findings) -> None:
    for key, texts in dictionary.texts.items():
        for language, text in texts.items():
            if (key, language) in dictionary.fallbacks:
                continue   # the source language's text, warned about under its own
            for word in ambiguous(text):
                findings.add(dictionary.path, dictionary.lines.get(key),
                             f"the text “{text}”: {word.message()}", key=key,
                             language=language, check="markup", warning=True)
