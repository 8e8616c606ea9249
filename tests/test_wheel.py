"""The package as a user installs it: the wheel built from this tree, installed (not
editable) with its dependencies in a fresh virtual environment that sees nothing of the
Python running the tests, runs `articlesite init`, a build, `serve` with the translator's
editor answering, and `check`, with nothing of this repository in reach.

The dependencies are the ones the wheel's metadata names (with its `browser` extra, so
that `check` measures text fit as a user's does), installed by pip from a wheelhouse kept
between runs (WHEELHOUSE) and filled from the package index when it lacks one. Where no
index is reachable and the wheelhouse cannot serve them the test is skipped, saying so
(a failure under ARTICLESITE_REQUIRE_BROWSER=1, as in CI)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, REQUIRE_TOOLS

from articlesite.check.fit import ENDPOINT

# Wheels of the dependencies, kept between runs: installing from here needs no index.
WHEELHOUSE = Path(os.environ.get("ARTICLESITE_WHEELHOUSE") or Path(
    os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "articlesite" / "wheels")
# What pip prints when it cannot reach the index (as opposed to a resolution that fails)
UNREACHABLE = re.compile(r"NewConnectionError|Failed to establish a new connection|"
                         r"Temporary failure in name resolution|Network is unreachable|"
                         r"ProxyError|ConnectTimeout|Read timed out|No route to host|"
                         r"Name or service not known|Could not fetch URL")


def run(command: list, cwd: Path, env: dict, timeout: float = 180) -> str:
    result = subprocess.run([str(part) for part in command], check=False, cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def pip(arguments: list, cwd: Path, env: dict) -> str:
    """`pip ARGUMENTS`, which must succeed; the test is skipped, saying why, where it
    failed because no package index could be reached (CI fails instead)."""
    result = subprocess.run([sys.executable, "-m", "pip", "--retries", "1", "--timeout",
                             "30", *map(str, arguments)], check=False, cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    if result.returncode != 0 and UNREACHABLE.search(output) and not REQUIRE_TOOLS:
        pytest.skip("no package index is reachable, so the wheel's build requirements or "
                    f"dependencies cannot be installed: `pip {' '.join(map(str, arguments))}` said "
                    f"{UNREACHABLE.search(output).group(0)!r}")
    assert result.returncode == 0, f"pip {arguments}\n{output}"
    return output


def install(wheel: Path, venv: Path, tmp_path: Path, env: dict) -> None:
    """The wheel and the dependencies its metadata names, into `venv`: from WHEELHOUSE
    alone when it has them all, else downloaded there first (pip's own cache helps)."""
    requirement = f"{wheel}[browser]"
    offline = ["--python", venv / "bin" / "python", "install", "-q", "--no-index",
               "--find-links", WHEELHOUSE, requirement]
    if subprocess.run([sys.executable, "-m", "pip", *map(str, offline)], cwd=tmp_path,
                      env=env, capture_output=True, check=False, timeout=600).returncode == 0:
        return
    downloads = tmp_path / "downloads"
    pip(["download", "-q", "-d", downloads, requirement], tmp_path, env)
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    for found in downloads.iterdir():   # each renamed whole: another run may be reading
        if not found.name.startswith("articlesite-"):
            part = WHEELHOUSE / f".{found.name}.{os.getpid()}.part"
            shutil.copy(found, part)
            os.replace(part, WHEELHOUSE / found.name)
    pip(offline, tmp_path, env)


def build_wheel(tmp_path: Path, env: dict) -> Path:
    """The wheel of a copy of the tree (building in place would leave build/ behind)."""
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, tree / name)
    pip(["wheel", "--no-deps", "-q", "-w", tmp_path / "dist", tree], tmp_path, env)
    return next((tmp_path / "dist").glob("articlesite-*.whl"))


def serve(project: Path, command: Path, env: dict) -> tuple[subprocess.Popen, int, Path]:
    log = project.parent / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([command, "serve", "--port", "0"], cwd=project, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/", log.read_text(errors="replace"))
        if found and "Watching" in log.read_text(errors="replace"):
            return process, int(found.group(1)), log
        time.sleep(0.1)
    process.terminate()
    raise AssertionError(log.read_text(errors="replace"))


def request(port: int, method: str, path: str, body: dict | None = None,
            headers: dict | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_the_wheel_installs_and_runs_init_build_serve_and_check(tmp_path: Path):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "ARTICLESITE_COMMAND", ENDPOINT)}
    wheel = build_wheel(tmp_path, env)
    venv = tmp_path / "venv"
    # No pip of its own (ensurepip would take seconds): this Python's pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, env)
    python, script = venv / "bin" / "python", venv / "bin" / "articlesite"
    install(wheel, venv, tmp_path, env)
    where = run([python, "-c", "import articlesite; print(articlesite.__file__)"],
                tmp_path, env)
    assert Path(where.strip()).is_relative_to(venv), where

    out = run([script, "init", "mysite"], tmp_path, env)
    project = tmp_path / "mysite"
    assert "articlesite serve" in out
    assert not (project / "templates").exists()
    run([script, "build"], project, env)
    page = (project / "site" / "en" / "hello.html").read_text(encoding="utf-8")
    assert 'id="figure-hello-flow"' in page and "Every save builds the site again." in page
    assert "<style>" in page   # the theme's styles, from the wheel

    process, port, log = serve(project, script, env)
    try:
        host = f"127.0.0.1:{port}"
        status, view = request(port, "GET", "/translations.html", headers={"Host": host})
        assert status == 200 and "window.articlesiteEditor=" in view, view[:500]
        settings = json.loads(re.search(r"window\.articlesiteEditor=(\{.*?\});\n",
                                        view).group(1))
        headers = {"Host": host, "Origin": f"http://{host}",
                   settings["header"]: settings["token"], "Content-Type": "application/json"}
        status, answer = request(port, "POST", settings["save"], {
            "base": settings["base"],
            "changes": [{"key": "build", "language": "en", "text": "Build it"}]}, headers)
        assert status == 200 and json.loads(answer)["ok"], answer
        texts = json.loads((project / "figures" / "figure-texts.json").read_text("utf-8"))
        assert texts["build"]["en"] == "Build it"
        status, answer = request(port, "POST", settings["confirm"], {
            "base": json.loads(answer)["base"], "key": "build", "language": "en"}, headers)
        assert status == 200 and json.loads(answer)["ok"], answer
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "Traceback" not in log.read_text(errors="replace")

    out = run([script, "check"], project, env)
    assert "Clean: no problems." in out, out
