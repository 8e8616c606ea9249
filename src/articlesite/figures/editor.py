"""The figure editor of `python build.py serve`: its server side.

serve adds editor.js and editor_bar.js (beside this file) to every page it serves with a
figure, with this server's secret token and the editor's interface strings in the site's
languages; each figure gets a button "Edit figure" that turns it into an editor in place.
The page then asks, by POST under PREFIX:

- `open` `{"figure": ID}`: the spec's own geometry (before its transforms: the editor
  edits the coordinates the author writes), every text the figure uses in every language,
  the languages, the keys other figures use too (`elsewhere`: a rename keeps them), and
  the digests of `figures/ID.yaml` and `figures/figure-texts.json`;
- `route` `{"figure", "nodes", "labels", "edges"}`: the points of the edges that name
  their ends, from the build's own router (geometry/route.py) on the geometry as it is
  being dragged, so that what the editor shows is what the build draws (with `"place":
  true`, once a drag ends, each edge label's box and each group's frame as the build
  places and draws them too);
- `save` `{"figure", "base": {"spec", "texts"}, "spec": {...}, "texts": [...],
  "renames": {OLD: NEW}}`: refused (409) when either file is no longer the one the editor
  loaded; otherwise the spec's changed elements are written into its text and nothing
  else (figures/spec_edit.py), the keys of a renamed node renamed (figures/rename.py,
  refused when another figure uses them), the texts into the dictionary as the
  translator's editor writes them (translate/dictionary_file.py), each file atomically.
  The new spec is loaded as the build loads it first: a spec the build would refuse is
  not written (422, with the build's messages). serve's watcher then rebuilds, and open
  pages reload.

Every request passes the translator's editor's guard (translate/editor.py): the token in
a header, `Origin` and `Host` naming this server, a JSON body under its size limit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from http import HTTPStatus
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..check.reserved import PAGE_IDS
from ..geometry import PAGE_WIDTH
from ..load.config import load_site
from ..load.figures import FIGURE_ID, load_figure
from ..load.phrases import breaks
from ..load.schema import is_number
from ..load.sourcefiles import parse_yaml
from ..load.texts import every_language, value_problem
from ..load.theme import EDITOR, OVERRIDES, STRINGS, theme_strings
from ..problems import BuildError, Problems, UsageError
from ..translate.dictionary_file import edit_text, write_atomically
from ..translate.editor import HEADER, VIEW, Editor, Refused, editable_layout, file_digest
from . import changes
from .fitting import fit_figure, room_said, too_wide_now, wide_said
from .new import add_entries
from .rename import keys_of, problems_of, rename_keys, used_elsewhere
from .routing import route_answer

PREFIX = "/__articlesite/figure/"
LISTS = ("nodes", "edges", "labels", "dividers", "lifelines", "groups")
MAX_ELEMENTS = 2_000          # per list: far more than a figure can show
MAX_COORDINATE = 100_000.0    # px: larger is a mistake, not a figure


@dataclass(frozen=True)
class Standing:
    """A spec as the editor loaded it: its text, its checked data, and its digest."""

    path: Path
    text: str
    data: dict
    digest: str


@dataclass
class FigureEditor:
    """The figure editor's requests, behind the translator's editor's guard."""

    guard: Editor

    @property
    def root(self) -> Path:
        return self.guard.root

    @property
    def dictionary_path(self) -> Path:
        return self.guard.dictionary_path

    # What a page is given --------------------------------------------------------------
    def page_snippet(self, page: str, headers) -> str:
        """serve's page-snippet provider: the editor's settings and scripts for a served
        page ('' for the translator's view, which has an editor of its own, and for a
        request not naming this server)."""
        if page == VIEW or headers.get("Host", "") not in self.guard.hosts():
            return ""
        here, translate = files("articlesite.figures"), files("articlesite.translate")
        settings = {"token": self.guard.token, "header": HEADER, "prefix": PREFIX,
                    "reserved": sorted(PAGE_IDS), **editor_strings(self.root)}
        safe = json.dumps(settings).replace("<", "\\u003c")
        scripts = [translate.joinpath("richtext.js"), translate.joinpath("measure.js"),
                   here.joinpath("editor.js"), here.joinpath("editor_bar.js"),
                   here.joinpath("groups_bar.js"), here.joinpath("segment.js"),
                   here.joinpath("fit_button.js"), here.joinpath("annotations.js")]
        style = here.joinpath("editor.css").read_text(encoding="utf-8")
        return (f"<style>{style}</style><script>window.articlesiteFigureEditor={safe};\n"
                + "\n".join(s.read_text(encoding="utf-8") for s in scripts) + "</script>")

    # Requests --------------------------------------------------------------------------
    def handle(self, path: str, headers, body: bytes) -> tuple[HTTPStatus, dict]:
        """Answer one POST: (status, JSON answer). Never raises for a bad request."""
        actions = {"open": self.open, "route": self.route, "save": self.save,
                   "fit": lambda request: fit_answer(self.root, self.spec_path(request)),
                   "segment": segment_request}
        try:
            request = self.guard.read_request(headers, body)
            action = actions.get(path.removeprefix(PREFIX))
            if action is None:
                raise refused(HTTPStatus.NOT_FOUND, "no-action",
                              "no such figure editor action")
            with self.guard.lock:
                return HTTPStatus.OK, action(request)
        except Refused as refusal:
            return refusal.status, answer_of(refusal)

    def spec_path(self, request: dict) -> Path:
        figure = request.get("figure")
        if not isinstance(figure, str) or not FIGURE_ID.match(figure):
            raise _bad("'figure' must be a figure id")
        path = self.root / "figures" / f"{figure}.yaml"
        if not path.is_file():
            raise refused(HTTPStatus.NOT_FOUND, "no-figure", f"figures/{figure}.yaml not "
                          "found", file=f"figures/{figure}.yaml")
        return path

    def standing(self, path: Path) -> Standing:
        """The spec on disk, refused when the build would refuse it."""
        data = path.read_bytes()
        text = data.decode("utf-8", errors="replace")
        problems = Problems(self.root)
        checked = build_problems(path, text, problems)
        if checked is None or problems:
            raise refused(HTTPStatus.CONFLICT, "spec-problems", f"figures/{path.name} has "
                          "problems; fix them first (see serve)", file=f"figures/{path.name}",
                          problems=list(map(str, problems)))
        return Standing(path, text, checked, file_digest(data))

    def open(self, request: dict) -> dict:
        standing = self.standing(self.spec_path(request))
        texts_data = self.dictionary_path.read_bytes()
        try:
            texts = json.loads(texts_data)
        except ValueError:
            raise refused(HTTPStatus.CONFLICT, "texts-invalid", "figures/figure-texts.json "
                          "is not valid JSON (see serve)",
                          file=f"figures/{self.dictionary_path.name}") from None
        site = self.site()
        spec = plain_spec(standing.data)
        title, caption = standing.data["title"], standing.data["caption"]
        groups = [g for g in standing.data.get("groups") or [] if isinstance(g, dict)]
        keys = [title, caption, *changes.used_keys({**spec, "groups": groups})]
        return {"ok": True, "figure": standing.path.stem, "spec": spec,
                "groups": changes.plain(groups),
                "title": title, "caption": caption,
                "transforms": changes.plain(standing.data.get("transforms") or []),
                # a text written once under "*" shown in each language without its own
                "texts": every_language({key: texts.get(key, {}) for key in keys},
                                        site.codes)[0],
                "taken": sorted(texts) if isinstance(texts, dict) else [],
                "elsewhere": sorted(set(keys) & used_elsewhere(self.root, standing.path.stem)),
                "languages": [{"code": lang.code, "lang": lang.lang, "name": lang.name}
                              for lang in site.languages],
                "source": site.source_language,
                "base": {"spec": standing.digest, "texts": file_digest(texts_data)},
                "file": f"figures/{standing.path.name}"}

    def site(self):
        site = load_site(self.root, Problems(self.root))
        if site is None:
            raise refused(HTTPStatus.CONFLICT, "site-problems",
                          "content/site.yaml has problems: see serve")
        return site

    def route(self, request: dict) -> dict:
        groups = request.get("groups")
        if groups is None:   # a page that does not send them: the spec's on disk
            groups = self.groups(request)
        elif not isinstance(groups, list) or len(groups) > MAX_ELEMENTS or not all(
                _group_shape(group) for group in groups):
            raise _bad("'groups' must be a list of {\"nodes\": [ID, ...], "
                       "\"title_box\": [W, H]}")
        return {"ok": True, **route_answer(request, groups)}

    def groups(self, request: dict) -> list:
        """The groups of the spec a route request names (their titles are in the routes'
        way), or none if it names no readable spec."""
        try:
            path = self.spec_path(request)
            data = parse_yaml(path.read_text(encoding="utf-8"), path, Problems(self.root))
        except (Refused, OSError, UnicodeDecodeError):
            return []
        groups = data.get("groups") if isinstance(data, dict) else None
        return [g for g in groups if isinstance(g, dict)] if isinstance(groups, list) else []

    def save(self, request: dict) -> dict:
        path = self.spec_path(request)
        base = request.get("base")
        if not isinstance(base, dict) or not all(isinstance(base.get(k), str)
                                                 for k in ("spec", "texts")):
            raise _bad("'base' must give the digests of the spec and of the dictionary the "
                       "editor loaded")
        standing = self.standing(path)
        texts_data = self.dictionary_path.read_bytes()
        for name, digest, shown in ((base["spec"], standing.digest, f"figures/{path.name}"),
                                    (base["texts"], file_digest(texts_data),
                                     f"figures/{self.dictionary_path.name}")):
            if name != digest:
                raise refused(HTTPStatus.CONFLICT, "changed", f"{shown} changed on disk "
                              "since the editor loaded it: nothing was saved. Your edits are "
                              "still here; close the editor to see the file as it is now.",
                              file=shown)
        spec = checked_spec(request.get("spec"))
        checked_ids(spec, standing.data)
        texts = checked_texts(request.get("texts"), self.site().codes)
        renames = self.checked_renames(request.get("renames") or {}, standing, texts_data)
        new_texts = self.new_dictionary(rename_keys(texts_data.decode("utf-8"), renames), texts)
        try:
            new_spec = changes.apply(standing.text, standing.data, spec)
        except ValueError as error:
            raise not_saved([str(error)]) from None
        self.validate(path, new_spec, new_texts)
        changed = []
        if new_spec != standing.text:
            write_atomically(path, new_spec, self.root)
            changed.append(f"figures/{path.name}")
        if new_texts != texts_data.decode("utf-8"):
            write_atomically(self.dictionary_path, new_texts, self.root)
            changed.append(f"figures/{self.dictionary_path.name}")
        changed += self.rename_in_record(renames)
        return {"ok": True, "changed": changed,
                "base": {"spec": file_digest(new_spec.encode("utf-8")),
                         "texts": file_digest(new_texts.encode("utf-8"))},
                "message": ("Saved " + " and ".join(changed) + "." if changed
                            else "Nothing to save: the files already say this.")}

    def checked_renames(self, renames: object, standing: Standing, texts_data: bytes) -> dict:
        """The keys to rename (old -> new), refused (422) unless each is a key of this
        figure that no other figure uses, renamed to a key not taken."""
        entries = set(json.loads(texts_data))
        problems = problems_of(renames, entries, keys_of(standing.data),
                               used_elsewhere(self.root, standing.path.stem))
        if problems:
            raise not_saved(problems)
        return dict(renames)   # type: ignore[call-overload]

    def rename_in_record(self, renames: dict) -> list[str]:
        """The renamed keys renamed in the record of confirmed translations too."""
        path = self.dictionary_path.with_name(f"{self.dictionary_path.stem}.confirmed.json")
        if not renames or not path.is_file():
            return []
        text = path.read_bytes().decode("utf-8")
        try:
            new = rename_keys(text, renames)
        except ValueError:   # a record the build will report on its own
            return []
        if new == text:
            return []
        write_atomically(path, new, self.root)
        return [f"figures/{path.name}"]

    def new_dictionary(self, text: str, texts: dict[tuple[str, str], str]) -> str:
        """The dictionary's text with the edited texts; a new key (a node added) gets,
        in each language it was not given in, the source language's text (else the first
        given), which is how the dictionary holds a text not translated yet (as `figure
        new` writes it)."""
        entries = editable_layout(text)
        site = self.site()
        given: dict[str, dict[str, str]] = {}
        for (key, language), value in texts.items():
            if key not in entries:
                given.setdefault(key, {})[language] = value
        new = {key: {code: values.get(code) or values.get(site.source_language)
                     or next(iter(values.values())) for code in site.codes}
               for key, values in given.items()}
        text = edit_text(text, {k: v for k, v in texts.items() if k[0] in entries})
        return add_entries(text, new) if new else text

    def validate(self, path: Path, spec_text: str, texts_text: str) -> None:
        """Refuse (422) what the build would refuse: the spec as the build loads it, each
        key it uses present in every language (but those in progress)."""
        problems = Problems(self.root)
        figure = load_figure_text(path, spec_text, problems)
        site = self.site()   # a language in progress may lack a text (its fallback shows)
        texts = every_language(json.loads(texts_text), site.codes)[0]   # "*": every one
        codes = [code for code in site.codes if code not in site.in_progress]
        if figure is not None:
            for key, element, line in figure.used_keys():
                entry = texts.get(key)
                if not isinstance(entry, dict):
                    problems.add(path, line, f"{element} uses a key that "
                                 f"{self.dictionary_path.name} lacks", key=key)
                    continue
                for code in codes:
                    if message := value_problem(entry.get(code), code):
                        problems.add(self.dictionary_path, None, f"{element}: {message}",
                                     key=key, language=code)
        if problems:
            raise not_saved([str(problem) for problem in problems])


# The editor's interface strings -------------------------------------------------------------

def editor_strings(root: Path) -> dict:
    """The editor's interface strings (the theme's `editor-` strings, with those of the
    project's templates/strings.yaml over them) in each language of the site, by language
    code (a language without one gets the source language's), and the code of each `lang`
    a page may have. A project's file the build refuses is the build's to report: its
    strings are then left out here."""
    site = load_site(root, Problems(root))
    if site is None:
        return {"strings": {}, "codes": {}}
    texts = {key: dict(values) for key, values in theme_strings().items()
             if key.startswith(EDITOR)}
    own = root / OVERRIDES / STRINGS
    found = parse_yaml(own.read_text(encoding="utf-8", errors="replace"), own,
                       Problems(root)) if own.is_file() else None
    for key, values in (found.items() if isinstance(found, dict) else ()):
        if isinstance(key, str) and key.startswith(EDITOR) and isinstance(values, dict):
            texts.setdefault(key, {}).update(
                (code, text) for code, text in values.items() if isinstance(text, str))
    strings = {code: {key.removeprefix(EDITOR): values.get(code) or values.get(
                   site.source_language) or values.get("en", "")
                   for key, values in texts.items()} for code in site.codes}
    return {"strings": strings, "codes": {lang.lang: lang.code for lang in site.languages},
            "source": site.source_language}


# The spec as the build reads it ----------------------------------------------------------

class _Text:
    """A spec's text standing in for the file (load_figure reads `id`, `path`, `text`)."""

    def __init__(self, path: Path, text: str):
        self.id, self.path, self.text = path.stem, path, text


def load_figure_text(path: Path, text: str, problems: Problems):
    return load_figure(_Text(path, text), problems)


def build_problems(path: Path, text: str, problems: Problems) -> dict | None:
    """The spec's data, after loading it as the build does (its problems into `problems`)."""
    load_figure_text(path, text, problems)
    data = parse_yaml(text, path, Problems(path.parent))
    return data if isinstance(data, dict) else None


def plain_spec(data: dict) -> dict:
    """What the page edits: the canvas size and the lists of elements, as plain JSON."""
    spec = {"width": data["width"], "height": data["height"]}
    for name in LISTS:
        spec[name] = changes.plain(data.get(name) or [])
    return spec


# What a page may send ---------------------------------------------------------------------

def _bad(message: str) -> Refused:
    return refused(HTTPStatus.BAD_REQUEST, "bad-request", message, detail=message)


def checked_spec(spec: Any) -> dict:
    """The page's spec, its shape checked; its values are checked by loading the spec
    written from it as the build loads it (FigureEditor.validate)."""
    if not isinstance(spec, dict):
        raise _bad("'spec' must be an object")
    for name in ("width", "height"):
        if not is_number(spec.get(name)) or not 0 < spec[name] <= MAX_COORDINATE:
            raise _bad(f"'{name}' must be a positive number")
    for name in LISTS:
        items = spec.get(name, [])
        if not isinstance(items, list) or len(items) > MAX_ELEMENTS or not all(
                isinstance(item, dict) for item in items):
            raise _bad(f"'{name}' must be a list of objects")
        for item in items:
            origin = item.get("origin")
            if origin is not None and (not isinstance(origin, int) or isinstance(origin, bool)
                                       or origin < 0):
                raise _bad(f"an element of '{name}' has a wrong 'origin'")
            if any(is_number(v) and abs(v) > MAX_COORDINATE for v in _numbers(item)):
                raise _bad(f"an element of '{name}' lies too far away")
    return spec


def _group_shape(group: Any) -> bool:
    """A group as a route request gives it: its members' ids, its title's size (if any),
    its id (if any)."""
    if not isinstance(group, dict) or not isinstance(group.get("id", ""), str):
        return False
    nodes, size = group.get("nodes"), group.get("title_box")
    return (isinstance(nodes, list) and all(isinstance(n, str) for n in nodes)
            and (size is None or (isinstance(size, list) and len(size) == 2
                                  and all(is_number(v) and 0 <= v <= MAX_COORDINATE
                                          for v in size))))


def _numbers(value: Any):
    if isinstance(value, dict):
        for item in value.values():
            yield from _numbers(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numbers(item)
    else:
        yield value


def checked_texts(texts: Any, codes: list[str]) -> dict[tuple[str, str], str]:
    """The page's texts: [{key, language, text}], each as the build checks a value."""
    if texts is None:
        return {}
    if not isinstance(texts, list) or len(texts) > MAX_ELEMENTS:
        raise _bad("'texts' must be a list")
    found, problems = {}, []
    for change in texts:
        if not isinstance(change, dict) or set(change) != {"key", "language", "text"}:
            raise _bad('each text must be {"key", "language", "text"}')
        key, language, value = change["key"], change["language"], change["text"]
        if not isinstance(key, str) or not FIGURE_ID.match(key):
            problems.append(f"{key!r}: a key is lower-case letters, digits and hyphens")
        elif language not in codes:
            problems.append(f"{key} ({language}): unknown language "
                            f"(languages: {', '.join(codes)})")
        elif message := value_problem(value, language):
            problems.append(f"{key} ({language}): {message}")
        else:
            found[(key, language)] = value
    if problems:
        raise not_saved(problems)
    return found


def checked_ids(spec: dict, loaded: dict) -> None:
    """Every node's and group's id used once in its list, and a new one lower-case
    letters, digits and hyphens; else refused (422) naming the first wrong one."""
    for name in ("nodes", "groups"):
        seen: set[str] = set()
        had = {item.get("id") for item in loaded.get(name) or [] if isinstance(item, dict)}
        for item in spec.get(name, []):
            found = item.get("id")
            if found not in had and (not isinstance(found, str) or not FIGURE_ID.match(found)):
                raise refused(HTTPStatus.UNPROCESSABLE_ENTITY, "id-invalid", "nothing was "
                              f"saved: the id {found!r} is not lower-case letters, digits "
                              "and hyphens", id=str(found))
            if found in seen:
                raise refused(HTTPStatus.UNPROCESSABLE_ENTITY, "id-used", "nothing was "
                              f"saved: the id {found!r} is used twice", id=found)
            seen.add(found)


# What the page is told: a message key of the theme's `editor-server-` strings ------------

def refused(status: HTTPStatus, key: str, message: str, **args) -> Refused:
    """A refusal the page shows in its language: the string `editor-server-KEY` with
    `args` (the English `message` for other clients and the log); a list of problems
    (the build's own messages) goes with it as `problems`."""
    problems = args.pop("problems", None)
    extra = {"problems": problems} if problems is not None else {}
    return Refused(status, message, key=key, args=args, **extra)


# A refusal of the guard (translate/editor.py), by its status: its key.
GUARD_KEYS = {HTTPStatus.FORBIDDEN: "forbidden", HTTPStatus.UNSUPPORTED_MEDIA_TYPE:
              "bad-request", HTTPStatus.BAD_REQUEST: "bad-request",
              HTTPStatus.REQUEST_ENTITY_TOO_LARGE: "too-large",
              HTTPStatus.NOT_FOUND: "no-action"}


def answer_of(refusal: Refused) -> dict:
    """A refusal as the page is given it: ok false, the English message, the key (one of
    the guard's refusals gets its key from its status) and its arguments."""
    details = dict(refusal.details)
    if "key" not in details:
        details["key"] = GUARD_KEYS.get(refusal.status, "bad-request")
        details["args"] = {"detail": refusal.message}
    return {"ok": False, "message": refusal.message, **details}


def not_saved(problems: list[str]) -> Refused:
    return refused(HTTPStatus.UNPROCESSABLE_ENTITY, "not-saved",
                   "nothing was saved: " + "; ".join(problems), problems=problems)


def fit_answer(root: Path, path: Path) -> dict:
    """The figure editor's "Fit to texts" (fit_button.js): `figure fit` on the spec
    (figures/fitting.py), what it did said by a key and its arguments."""
    try:
        fitted = fit_figure(root, path.stem)
    except (UsageError, BuildError) as error:
        raise refused(HTTPStatus.CONFLICT, "not-fitted", f"Not fitted: {error}",
                      error=str(error)) from None
    # the edge labels given room, and those still without, by number: the page says so
    # after what grew (fit_button.js)
    room = {"room": fitted.roomed, "room_moved": fitted.room_moved, "crowded": fitted.crowded,
            "canvas": list(fitted.canvas) if fitted.canvas else None,
            "wide": too_wide_now(fitted), "page": PAGE_WIDTH}
    if not fitted.grown:
        return {"ok": True, "changed": [f"figures/{path.name}"] if fitted.roomed else [],
                "key": "fits-already", "args": room,
                "message": "Every box fits its texts already." + room_said(fitted)
                + wide_said(fitted)}
    # `grown` in English; `items` for the page to name them in its language
    args = {"grown": ", ".join(fitted.grown), "moved": fitted.moved,
            "items": [list(item) for item in fitted.grown_items], **room}
    return {"ok": True, "changed": [f"figures/{path.name}"],
            "key": _fitted_key(fitted.moved), "args": args,
            "message": f"Fitted: grew {args['grown']}; moved {fitted.moved} other "
                       f"box{'es' * (fitted.moved != 1)}."
                       + room_said(fitted) + wide_said(fitted)}


def _fitted_key(moved: int) -> str:
    """The string that says what fit grew, and how many other boxes it moved."""
    return "fitted-moved-one" if moved == 1 else "fitted-moved" if moved else "fitted"


# Where a text being typed may break: the build's phrases (load/phrases.py) ---------------

MAX_SEGMENTS, MAX_SEGMENT_TEXT = 500, 2_000


def segment_request(request: dict) -> dict:
    """`segment` `{"texts": [{"text", "lang"}]}`: for each, the offsets in the text where
    the build lets a line break between two phrases (BudouX, the kinsoku rules), so that
    what the editor shows while a Japanese or Chinese text is typed breaks where the
    build's will."""
    texts = request.get("texts")
    if not isinstance(texts, list) or len(texts) > MAX_SEGMENTS or not all(
            isinstance(t, dict) and isinstance(t.get("text"), str)
            and len(t["text"]) <= MAX_SEGMENT_TEXT and isinstance(t.get("lang"), str)
            for t in texts):
        raise _bad("'texts' must be a list of {\"text\", \"lang\"}")
    return {"ok": True, "breaks": [breaks(t["text"], t["lang"]) for t in texts]}
