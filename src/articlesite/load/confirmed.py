"""The translations' confirmation record, `figures/figure-texts.confirmed.json` beside
the dictionary: for each key and each language other than the source language, the
source-language text a translation was last confirmed against and the translation
confirmed, `{key: {language: {"source": …, "text": …}}}` (translate/record.py says what
it means and writes it)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..problems import Problems, command
from .sourcefiles import parse_json, read_text
from .texts import Dictionary


class Confirmation(NamedTuple):
    source: str  # the source-language text when the translation was confirmed
    text: str    # the translation confirmed


Record = dict[str, dict[str, Confirmation]]

def record_path(dictionary: Dictionary) -> Path:
    return dictionary.path.with_name(f"{dictionary.path.stem}.confirmed.json")


def load_record(path: Path, codes: list[str], problems: Problems) -> Record:
    """The confirmation record; empty if the file does not exist yet."""
    if not path.is_file():
        return {}
    text = read_text(path, problems)
    data = None if text is None else parse_json(text, path, problems)
    if data is None:
        return {}
    try:
        return {key: {code: Confirmation(**value) for code, value in entry.items()
                      if code in codes} for key, entry in data.items()}
    except (AttributeError, TypeError):
        problems.add(path, 1, 'the confirmation record must map keys to {language: '
                     '{"source": text, "text": text}}; rewrite it with '
                     f'`{command()} translations confirm --all`')
        return {}
