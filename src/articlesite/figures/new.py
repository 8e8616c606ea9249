"""`python build.py figure new ID`: a spec to start from, and its texts in the dictionary.

The spec's nodes are drafts (no `box`: `figure layout` places them) joined by edges that
name their ends. Each text key is added to `figures/figure-texts.json` in every language:
in the source language a placeholder for the author to replace (written in that
language: PLACEHOLDERS), in every other language
the same text, which is how the dictionary holds a text not translated yet (the
translator's view and `check` show it as untranslated: identical to the source text and
not confirmed). The dictionary is written as the translator's editor writes it
(translate/dictionary_file.py): the new entries appended in the file's own indentation,
nothing else touched.
"""

from __future__ import annotations

from pathlib import Path

from ..load.config import load_site
from ..load.theme import load_figure_texts
from ..problems import Problems, UsageError, command
from ..translate.dictionary_file import add_entries, write_atomically
from .place import spec_path

__all__ = ["add_entries", "new_figure", "placeholders"]

SPEC = """\
# A first draft. Nodes without a `box` are drafts: `{command} figure layout {id}`
# places them (and sets the canvas size), then move them in `serve`'s figure editor.
title: {id}-title
caption: {id}-caption
direction: right             # where the edges point: right, down, left or up
nodes:
  - {{id: input, text: {id}-input}}
  - {{id: step, text: {id}-step, sub: {id}-step-sub}}
  - {{id: check, text: {id}-check}}
  - {{id: output, text: {id}-output}}
edges:
  - {{from: input, to: step}}
  - {{from: step, to: check}}
  - {{from: check, to: output}}
  - {{from: check, to: step, class: feedback}}
"""
# The placeholders in the project's source language, by the end of each key (the texts
# to be written); another source language has the English ones.
PLACEHOLDERS = {
    "en": {"title": "Title of the figure (to write)",
           "caption": "Caption of the figure: what it shows, in one or two sentences "
                      "(to write).",
           "input": "Input", "step": "Step", "step-sub": "what the step does",
           "check": "Check", "output": "Output"},
    "zh": {"title": "图的标题（待写）", "caption": "图的说明：它展示什么，一两句话（待写）。",
           "input": "输入", "step": "步骤", "step-sub": "这一步做什么", "check": "检查",
           "output": "输出"},
    "ja": {"title": "図のタイトル（未記入）",
           "caption": "図の説明：何を示すかを一、二文で（未記入）。",
           "input": "入力", "step": "ステップ", "step-sub": "このステップで行うこと",
           "check": "確認", "output": "出力"},
    "ko": {"title": "그림 제목 (작성 예정)",
           "caption": "그림 설명: 무엇을 보여 주는지 한두 문장으로 (작성 예정).",
           "input": "입력", "step": "단계", "step-sub": "이 단계가 하는 일", "check": "확인",
           "output": "출력"},
}


def placeholders(source_language: str) -> dict[str, str]:
    """The placeholders in the source language (by its primary subtag: zh-hant is zh),
    else in English."""
    return PLACEHOLDERS.get(source_language.split("-")[0], PLACEHOLDERS["en"])


def new_figure(root: Path, figure_id: str) -> list[Path]:
    """Write figures/ID.yaml and its texts into the dictionary; the files written."""
    path = spec_path(root, figure_id)
    if path.exists():
        raise UsageError(f"figures/{figure_id}.yaml already exists: choose another id or "
                         f"edit that figure")
    problems = Problems(root)
    site = load_site(root, problems)
    dictionary_path = root / "figures" / "figure-texts.json"
    dictionary = None if site is None else load_figure_texts(
        root, site.codes, problems, in_progress=site.in_progress,
        fallback=site.source_language)
    if site is None or dictionary is None or problems:
        raise UsageError("fix these first:\n  " + "\n  ".join(str(p) for p in problems))
    entries = {f"{figure_id}-{end}": {code: text for code in site.codes}
               for end, text in placeholders(site.source_language).items()}
    taken = [key for key in entries if key in dictionary.texts]
    if taken:
        raise UsageError(f"{dictionary_path.name} already has the key{'s' * (len(taken) > 1)} "
                         f"{', '.join(taken)}: choose another figure id")
    path.parent.mkdir(exist_ok=True)
    write_atomically(dictionary_path, add_entries(dictionary.source or "{}\n", entries), root)
    write_atomically(path, SPEC.format(id=figure_id, command=command()), root)
    return [path, dictionary_path]
