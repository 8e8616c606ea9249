"""The package's modules import one another without cycles, and never against the
declared order of its parts (parts.py, tools/imports.py): lazy imports and imports for
type checking count too."""

import pytest

from articlesite.parts import PARTS, part_of
from articlesite.tools.imports import against_order, cycles, report, scan, unplaced


@pytest.fixture(scope="module")
def modules():
    """The package's modules and their imports, read once for the tests that read them
    (a scan parses every module: about 0.5 s)."""
    return scan()


def test_no_import_cycle(modules):
    assert cycles(modules) == []


def test_no_import_against_the_order_of_the_parts(modules):
    assert unplaced(modules) == []
    assert [str(against) for against in against_order(modules)] == []


def test_the_report_lists_the_parts_in_order_and_every_module(modules):
    text = report(modules)
    assert "articlesite/build.py" in text and "articlesite/load/figures.py" in text
    assert "build -> " in text
    places = [text.index(f"\n{part} (") for part, _ in PARTS]
    assert places == sorted(places)
    assert "Imports against the parts' order: none" in text
    for group in cycles(modules):
        assert " <-> ".join(group) in text


def test_a_module_belongs_to_the_part_that_names_it_most_closely():
    assert part_of("render.markdown_rules.headings") == "markdown"
    assert part_of("render.templates") == "rendering"
    assert part_of("check.report") == "commands" and part_of("check.ids") == "checks"
    assert part_of("") == "problems" and part_of("nowhere") is None


def test_an_import_against_the_order_is_found_wherever_it_is_written(tmp_path):
    package = tmp_path / "articlesite"
    (package / "load").mkdir(parents=True)
    (package / "render").mkdir()
    for name in ("__init__.py", "load/__init__.py", "render/__init__.py", "cli.py",
                 "build.py"):
        (package / name).write_text("")
    (package / "problems.py").write_text("def f():\n    from .build import y\n")   # lazy
    (package / "load" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from ..render.b import z\n")                                        # typing
    (package / "render" / "b.py").write_text("from ..load import a\n")           # allowed
    (package / "build.py").write_text("from . import cli\n")                     # top
    (package / "cli.py").write_text("from .render import b\n")                   # allowed
    modules = scan(package)
    assert [str(against) for against in against_order(modules)] == [
        "build (build) imports cli (command line)",
        "load.a (loading) imports render.b~ (rendering)",
        "problems (problems) imports build* (build)"]


def test_a_cycle_through_a_lazy_import_is_found(tmp_path):
    package = tmp_path / "articlesite"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import x\n")
    (package / "b.py").write_text("def f():\n    from .c import y\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from .a import z\n")
    (package / "d.py").write_text("from . import a\n")
    modules = scan(package)
    assert cycles(modules) == [["a", "b", "c"]]
    assert "  b -> c*" in report(modules) and "  c -> a~" in report(modules)
