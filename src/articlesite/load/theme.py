"""The default theme, inside the package (articlesite/theme/): the page templates, styles,
scripts and interface strings in every language it knows. A project's templates/ folder
overrides it file by file, and its templates/strings.yaml overrides the theme's strings
key by key and language by language (a project adds the strings of a language the theme
does not know there; a copy of the theme's file may keep the languages the site has not)."""

from __future__ import annotations

import contextlib
from functools import lru_cache
from pathlib import Path

import yaml

from ..problems import Problems
from .sourcefiles import read_bytes
from .texts import Dictionary, load_dictionary

THEME = Path(__file__).resolve().parent.parent / "theme"
STRINGS = "strings.yaml"
OVERRIDES = "templates"   # the project's folder of overrides
# The strings of `serve`'s figure editor: in the theme's file, overridden by a project's
# as the others are, but no page that a build writes uses them, so a build does not ask
# a language the theme lacks to have them (serve's editor falls back to the source
# language's, see figures/editor.py).
EDITOR = "editor-"


class Templates(dict[str, str]):
    """The templates by name (name -> text: what Jinja renders from and what the cache
    keys on), with the file each text was read from (`paths`): the project's override,
    or else the theme's."""

    def __init__(self, texts: dict[str, str] | None = None,
                 paths: dict[str, Path] | None = None):
        super().__init__(texts or {})
        self.paths: dict[str, Path] = paths or {}

    def name_of(self, path: Path) -> str | None:
        """The name of the template read from `path`, if one was."""
        return next((name for name, found in self.paths.items() if found == path), None)


def load_templates(root: Path, problems: Problems, theme: Path = THEME) -> Templates:
    """The theme's text files, each replaced by the project's file of the same name
    (a file that is not UTF-8 cannot be a template, and is left out)."""
    templates = Templates()
    for folder in (theme, root / OVERRIDES):
        for path in sorted(folder.rglob("*")):
            if "__pycache__" in path.parts:
                continue
            data = read_bytes(path, problems) if path.is_file() else None
            with contextlib.suppress(UnicodeDecodeError):
                if data is not None:
                    name = path.relative_to(folder).as_posix()
                    templates[name] = data.decode("utf-8")
                    templates.paths[name] = path
    return templates


@lru_cache(maxsize=4)
def theme_strings(path: Path = THEME / STRINGS) -> dict[str, dict[str, str]]:
    """The theme's interface strings: key -> {language: text}. The theme's own file, whose
    lines no problem needs: libyaml's loader, where PyYAML has it (10 ms sooner)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)


def load_strings(root: Path, codes: list[str], problems: Problems,
                 in_progress: frozenset[str] = frozenset(),
                 fallback: str | None = None) -> Dictionary | None:
    """The interface strings of the site's languages: the theme's, with the project's
    templates/strings.yaml (if any) over them."""
    theme = theme_strings()
    base = {key: {code: text for code, text in texts.items() if code in codes}
            for key, texts in theme.items() if not key.startswith(EDITOR)}
    known = {code for texts in theme.values() for code in texts}
    return load_dictionary(root / OVERRIDES / STRINGS, codes, problems,
                           what="interface strings", in_progress=in_progress,
                           fallback=fallback, base=base, ignore=frozenset(known - set(codes)))


def load_figure_texts(root: Path, codes: list[str], problems: Problems,
                      in_progress: frozenset[str] = frozenset(),
                      fallback: str | None = None) -> Dictionary | None:
    """The figure-text dictionary, figures/figure-texts.json. A project without figures
    needs none: it is then empty."""
    path = root / "figures" / "figure-texts.json"
    if not path.exists() and not any((root / "figures").glob("*.yaml")):
        return Dictionary(path, {}, "")
    return load_dictionary(path, codes, problems, in_progress=in_progress,
                           fallback=fallback)
