"""What a polished tool shows: plurals right, `--version`, "did you mean" for an unknown
name, an icon on every page (no /favicon.ico asked of the server), and `pip install .`
building outside the sources' folders."""

from __future__ import annotations

import json
import subprocess
import tomllib
import warnings
from pathlib import Path

import pytest
from conftest import REPO, TEXTS, edit, failed_build, fixture_site, run_build, save, soup

from articlesite import __version__
from articlesite.cli import main
from articlesite.starter import init_project


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


def test_a_site_in_one_language_is_built_in_1_language(tmp_path):
    root = tmp_path / "project"
    init_project(root, ["en"], "en")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    assert " in 1 language into " in result.stdout and " pages " in result.stdout


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"articlesite {__version__}"
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == __version__


def test_an_unknown_figure_id_and_key_get_a_did_you_mean(root):
    edit(root, "content/loop/ja.md", "```{figure} steps", "```{figure} stpes")
    edit(root, "figures/steps.yaml", "text: learn", "text: leran")
    message = failed_build(root)
    assert "unknown figure 'stpes' (did you mean 'steps'? figures: steps)" in message
    assert "uses a key that figure-texts.json lacks (did you mean 'learn'?)" in message


def test_an_unknown_language_of_the_dictionary_gets_a_did_you_mean(root):
    texts = json.loads((root / TEXTS).read_text(encoding="utf-8"))
    texts["act"]["enn"] = "Act"
    save(root, root / TEXTS, json.dumps(texts, ensure_ascii=False))
    assert "unknown language 'enn' (did you mean 'en'? languages: " in failed_build(root)


@pytest.mark.parametrize("target, suggestion", [
    ("akt:ja", "did you mean 'act'?"), ("act:jp", ""), ("act:jaa", "did you mean 'ja'?"),
    ("lop", "did you mean 'loop'?"), ("loop#colect:ja", "did you mean 'collect'?"),
])
def test_confirm_names_the_nearest_target(root, capsys, target, suggestion):
    assert main(["--root", str(root), "translations", "confirm", target]) == 2
    error = capsys.readouterr().err
    assert suggestion in error and "Traceback" not in error


def test_an_unknown_figure_of_a_figure_command_gets_a_did_you_mean(root, capsys):
    assert main(["--root", str(root), "figure", "layout", "stesp"]) == 2
    assert "figures/stesp.yaml not found (did you mean 'steps'?)" in capsys.readouterr().err


def test_every_page_carries_its_icon_and_a_project_may_replace_it(root):
    assert run_build(root).returncode == 0
    pages = sorted((root / "site").rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        icon = soup(page).select_one('head link[rel="icon"]')
        assert icon is not None and icon["href"].startswith("data:image/svg+xml,"), page
    (root / "templates" / "favicon.html").write_text(
        '<link rel="icon" href="{{ to_root }}icon.png">\n', encoding="utf-8")
    assert run_build(root).returncode == 0
    icon = soup(root / "site" / "en" / "loop.html").select_one('link[rel="icon"]')
    assert icon["href"] == "../icon.png"


def test_pip_builds_outside_the_sources(tmp_path):
    """setuptools (which `pip install .` runs) reads its build folder from pyproject.toml:
    .build/, which git ignores, not build/ beside the sources."""
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dist = Distribution()
        apply_configuration(dist, REPO / "pyproject.toml")
        build = dist.get_command_obj("build")
        build.ensure_finalized()
    assert Path(build.build_base) == Path(".build")
    ignored = subprocess.run(["git", "check-ignore", "-q", ".build/lib/articlesite/cli.py"],
                             cwd=REPO, check=False)
    assert ignored.returncode == 0
