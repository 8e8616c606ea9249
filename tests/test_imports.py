"""The package's modules import one another without cycles (tools/imports.py): lazy
imports and imports for type checking count too."""

from articlesite.tools.imports import cycles, report, scan


def test_no_import_cycle():
    assert cycles(scan()) == []


def test_the_report_lists_every_module_and_the_cycles():
    modules = scan()
    text = report(modules)
    assert "articlesite/build.py" in text and "articlesite/load/figures.py" in text
    assert "build -> " in text
    for group in cycles(modules):
        assert " <-> ".join(group) in text


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
