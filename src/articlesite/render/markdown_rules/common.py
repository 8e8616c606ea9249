"""What the rules of this package share: source lines and problems found while parsing."""

from __future__ import annotations

from markdown_it.token import Token


def line_of(tokens, idx: int, env: dict) -> int | None:
    """The source line (1-based, in the file) of a token being rendered."""
    token = tokens[idx]
    if token.map:
        return env["first_line"] + token.map[0]
    return env.get("inline_line")


def report(env: dict, line: int | None, message: str) -> None:
    """A problem that stops the build, found while rendering."""
    context = env.get("context")
    if context is not None:
        context.problem(line, message)


def problem_token(message: str, line: int, stops_build: bool = True) -> Token:
    """A token that renders nothing and carries a problem found while parsing, at a line of
    the body (0-based): see literal.find_literal_markup."""
    token = Token("markup_problem", "", 0)
    token.map = [line, line + 1]
    token.meta = {"message": message, "build": stops_build}
    token.block = True
    return token


def ui(env: dict, key: str) -> str:
    """An interface string (templates/strings.yaml) in the page's language."""
    context = env.get("context")
    return key if context is None else context.ui(key)


def closing_token(tokens: list[Token], i: int) -> int:
    """The index of the token that closes the one opened at `i` (nesting back to zero)."""
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1
