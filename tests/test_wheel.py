"""The package as a user installs it: the wheel built from this tree, installed (not
editable) in a fresh virtual environment, runs `articlesite init`, a build, `serve` with
the translator's editor answering, and `check`, with nothing of this repository in reach.
The environment sees the system's site-packages for the dependencies only: the
articlesite it imports is the wheel's (asserted)."""

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

from conftest import REPO


def run(command: list, cwd: Path, env: dict, timeout: float = 180) -> str:
    result = subprocess.run([str(part) for part in command], check=False, cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def build_wheel(tmp_path: Path, env: dict) -> Path:
    """The wheel of a copy of the tree (building in place would leave build/ behind)."""
    tree = tmp_path / "tree"
    shutil.copytree(REPO / "src", tree / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, tree / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist",
         tree], tmp_path, env, timeout=300)
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
           if key not in ("PYTHONPATH", "ARTICLESITE_COMMAND")}
    wheel = build_wheel(tmp_path, env)
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", venv], tmp_path, env)
    python, script = venv / "bin" / "python", venv / "bin" / "articlesite"
    run([python, "-m", "pip", "install", "--no-deps", "-q", wheel], tmp_path, env)
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
