"""Content tabs, as MkDocs Material writes them (MyST's `tab-set` becomes the same tokens,
see directives.py):

    === "Python"

        ```python
        print("hello")
        ```

    === "C++"

        Content, indented by four spaces: lists, code, anything.

Consecutive tabs form one group; `===! "Label"` starts a new group right after another,
`===+ "Label"` is the tab shown first (else the first one).

Rendered without JavaScript: each tab is a radio button (keyboard: Tab to the group,
arrow keys between tabs) with its label, followed by its panel; CSS shows the panel of
the checked one and, in print, every panel. With JavaScript (page.js), choosing a tab
chooses the tab of the same label in every group of the page.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markupsafe import escape

from .common import line_of, report

TAB = re.compile(r'^===([!+]{0,2})[ \t]+"(.*)"[ \t]*$')


def use_tabs(md: MarkdownIt) -> None:
    md.block.ruler.before("fence", "tabs", tabs_rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list"]})
    for name, rule in (("tabs_open", render_tabs_open), ("tabs_close", render_tabs_close),
                       ("tab_open", render_tab_open), ("tab_close", render_tab_close)):
        md.add_render_rule(name, rule)


def _tab_line(state, line: int) -> re.Match | None:
    if line >= state.lineMax or state.sCount[line] != state.blkIndent:
        return None
    return TAB.match(state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]])


def tabs_rule(state, start: int, end: int, silent: bool) -> bool:
    match = _tab_line(state, start)
    if match is None:
        return False
    if silent:
        return True
    group = state.push("tabs_open", "div", 1)
    group.map, group.block, group.meta = [start, start], True, {"problems": []}
    line = start
    while (match := _tab_line(state, line)) is not None:
        if "!" in match.group(1) and line != start:
            break
        stop = line + 1
        while stop < end and (state.isEmpty(stop)
                              or state.sCount[stop] >= state.blkIndent + 4):
            stop += 1
        tab = state.push("tab_open", "div", 1)
        tab.map, tab.block = [line, stop], True
        tab.meta = {"label": match.group(2), "selected": "+" in match.group(1)}
        old = state.parentType, state.lineMax, state.blkIndent
        state.parentType, state.lineMax, state.blkIndent = "tabs", stop, state.blkIndent + 4
        state.md.block.tokenize(state, line + 1, stop)
        state.parentType, state.lineMax, state.blkIndent = old
        state.push("tab_close", "div", -1).block = True
        line = stop
    state.push("tabs_close", "div", -1).block = True
    group.map[1] = line
    state.line = line
    return True


def _children(tokens, idx):
    """The indexes of the tabs directly inside the group opened at `idx`."""
    depth, found = 0, []
    for j in range(idx, len(tokens)):
        depth += tokens[j].nesting
        if depth == 2 and tokens[j].nesting == 1 and tokens[j].type == "tab_open":
            found.append(j)
        elif depth == 2 and tokens[j].nesting == 1:
            found.append(-j)  # something else directly in the group
        if depth == 0:
            break
    return found


def render_tabs_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    for line, message in token.meta.get("problems", ()):
        report(env, env["first_line"] + line, message)
    children = _children(tokens, idx)
    tabs = [j for j in children if j > 0]
    if any(j < 0 for j in children) or not tabs:
        report(env, line_of(tokens, idx, env), "a tab set holds only tab items "
               "(:::{tab-item} Label), at least one")
    selected = next((j for j in tabs if tokens[j].meta.get("selected")), tabs[0] if tabs else 0)
    env["tab_groups"] = group = env.get("tab_groups", 0) + 1
    env.setdefault("tab_stack", []).append([group, 0, selected])
    return '<div class="tabs">\n'


def render_tabs_close(self, tokens, idx, options, env) -> str:
    if env.get("tab_stack"):
        env["tab_stack"].pop()
    return "</div>\n"


def render_tab_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    line = line_of(tokens, idx, env)
    for problem_line, message in token.meta.get("problems", ()):
        report(env, env["first_line"] + problem_line, message)
    stack = env.get("tab_stack")
    if not stack:
        report(env, line, "a tab item must be inside a tab set (::::{tab-set})")
        return '<div class="tab-panel">\n'
    group = stack[-1]
    group[1] += 1
    label = token.meta["label"].strip()
    if not label:
        report(env, line, "a tab needs a label: === \"Label\" or :::{tab-item} Label")
    if idx + 1 < len(tokens) and tokens[idx + 1].type == "tab_close":
        report(env, line, f"the tab '{label}' is empty: indent its content by four spaces "
               "under the `===` line")
    checked = " checked" if idx == group[2] else ""
    tab_id = f"tabs-{group[0]}-{group[1]}"
    return (f'<input type="radio" class="tab-input" name="tabs-{group[0]}" id="{tab_id}"'
            f'{checked}>\n<label class="tab-label" for="{tab_id}">{escape(label)}</label>\n'
            '<div class="tab-panel">\n')


def render_tab_close(self, tokens, idx, options, env) -> str:
    return "</div>\n"
