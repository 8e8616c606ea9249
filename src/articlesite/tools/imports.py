"""The package's parts in their order (parts.py) with their modules' line counts, which
module imports which, any import against the parts' order and any import cycle:
`python -m articlesite.tools.imports` (exit code 1 when there is either).

Every import counts, wherever it is written: at the top of a module, inside a function
(marked `*`: a lazy import still ties the two modules together) or under
`if TYPE_CHECKING:` (marked `~`: one module still needs the other's names)."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..parts import PARTS, part_of, rank

PACKAGE = Path(__file__).resolve().parent.parent
TOP = "top"
LOCAL = "local"
TYPING = "typing"
MARKS = {TOP: "", LOCAL: "*", TYPING: "~"}


@dataclass
class Module:
    name: str                 # dotted, without the package's own name: "load.figures"
    path: Path                # from the package's parent: "articlesite/load/figures.py"
    lines: int
    imports: dict[str, str] = field(default_factory=dict)  # module name -> kind


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def scan(package: Path = PACKAGE) -> dict[str, Module]:
    """Every module of the package, with what it imports from the package."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = module_name(path, package)
        modules[name] = Module(name, path.relative_to(package.parent), len(text.splitlines()))
    for module in modules.values():
        source = package.parent / module.path
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
        is_package = module.path.name == "__init__.py"
        for node, kind in imports_of(tree):
            for target in targets(node, module.name, is_package, modules):
                if target != module.name and target in modules:
                    known = module.imports.get(target)
                    if known is None or list(MARKS).index(kind) < list(MARKS).index(known):
                        module.imports[target] = kind
    return modules


def imports_of(tree: ast.AST):
    """(import statement, kind) for every import in the tree."""
    def walk(node: ast.AST, kind: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, kind
            elif isinstance(child, ast.If) and is_type_checking(child.test):
                for inner in child.body:
                    yield from walk(ast.Module(body=[inner], type_ignores=[]), TYPING)
                for inner in child.orelse:
                    yield from walk(ast.Module(body=[inner], type_ignores=[]), kind)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from walk(child, LOCAL if kind == TOP else kind)
            else:
                yield from walk(child, kind)
    yield from walk(tree, TOP)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def targets(node: ast.Import | ast.ImportFrom, current: str, is_package: bool,
            modules: dict[str, Module]) -> list[str]:
    """The package's modules an import statement loads (names within the package)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
        return [name.removeprefix("articlesite.") for name in names
                if name.startswith("articlesite.")]
    if node.level:
        parts = current.split(".") if current else []
        if not is_package:
            parts = parts[:-1]
        parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
        base = ".".join([*parts, *([node.module] if node.module else [])])
    elif node.module and (node.module == "articlesite" or node.module.startswith("articlesite.")):
        base = node.module.removeprefix("articlesite").removeprefix(".")
    else:
        return []
    found = []
    for alias in node.names:
        sub = f"{base}.{alias.name}" if base else alias.name
        found.append(sub if sub in modules else base)
    return found


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Every group of modules that import one another, directly or through others
    (strongly connected components of more than one module), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(name: str) -> None:
        index[name] = low[name] = counter[0]
        counter[0] += 1
        stack.append(name)
        on_stack.add(name)
        for target in modules[name].imports:
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for name in sorted(modules):
        if name not in index:
            visit(name)
    return sorted(found)


@dataclass(frozen=True)
class Against:
    """An import of a module of a higher part (or of a module in no part)."""

    module: str
    target: str
    kind: str

    def __str__(self) -> str:
        return (f"{self.module or 'articlesite'} ({part_of(self.module)}) imports "
                f"{self.target}{MARKS[self.kind]} ({part_of(self.target)})")


def against_order(modules: dict[str, Module]) -> list[Against]:
    """Every import that goes up the parts' order, or from or to a module in no part."""
    found = []
    for name, module in sorted(modules.items()):
        for target, kind in sorted(module.imports.items()):
            here, there = part_of(name), part_of(target)
            if here is None or there is None or rank(there) > rank(here):
                found.append(Against(name, target, kind))
    return found


def unplaced(modules: dict[str, Module]) -> list[str]:
    """The modules no part names."""
    return sorted(name for name in modules if part_of(name) is None)


def report(modules: dict[str, Module]) -> str:
    width = max(len(m.path.as_posix()) for m in modules.values())
    lines = ["Parts, bottom up (parts.py), with their modules (lines):"]
    for part, _ in PARTS:
        members = sorted((m for m in modules.values() if part_of(m.name) == part),
                         key=lambda m: m.path)
        lines.append(f"{part} ({sum(m.lines for m in members)} lines)")
        for module in members:
            lines.append(f"  {module.path.as_posix():<{width}}  {module.lines:>5}")
    for name in unplaced(modules):
        lines.append(f"in no part: {modules[name].path.as_posix()}")
    total = sum(m.lines for m in modules.values())
    lines.append(f"  {'total':<{width}}  {total:>5}")
    lines += ["", "Imports within the package (* inside a function, ~ for type checking only):"]
    for name in sorted(modules):
        imports = modules[name].imports
        if imports:
            targets_modules = ", ".join(t + MARKS[k] for t, k in sorted(imports.items()))
            lines.append(f"  {name or 'articlesite'} -> {targets_modules}")
    wrong = against_order(modules)
    lines.append("")
    lines.append("Imports against the parts' order: " + ("none" if not wrong else ""))
    lines += [f"  {against}" for against in wrong]
    found = cycles(modules)
    lines.append("")
    lines.append("Import cycles: " + ("none" if not found else ""))
    lines += [f"  {' <-> '.join(group)}" for group in found]
    return "\n".join(lines)


def main() -> int:
    modules = scan()
    print(report(modules))
    return 1 if cycles(modules) or against_order(modules) else 0


if __name__ == "__main__":
    sys.exit(main())
