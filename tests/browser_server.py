"""One Chromium per test process for the commands the tests run in processes of their
own (`check` and `figure` measure text in Chromium): started once, by Playwright's
launchServer with the package's flags (check/fit.py: ARGS), and named to the commands by
ENDPOINT, so that each does not start a Chromium of its own (about 1.5 s of CPU each).

Where it cannot be started (no Chromium, no Playwright, another Playwright), nothing is
set and each command starts its own browser as a user's does."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from articlesite.check.fit import ARGS, ENDPOINT, chromium_path

_server: subprocess.Popen | None = None
# Run by Playwright's own Node.js: ARGV is the package, the Chromium and its flags.
SCRIPT = """const [package_, executablePath, args] = process.argv.slice(1);
require(package_).chromium.launchServer({executablePath, args: JSON.parse(args)}).then(
    server => console.log(server.wsEndpoint()),
    error => { console.error(String(error)); process.exit(1); });"""


def start() -> None:
    """Start the server if it is not running, and set ENDPOINT for the commands."""
    global _server
    if _server is not None or os.environ.get(ENDPOINT) or not chromium_path().exists():
        return
    try:
        from playwright._impl._driver import compute_driver_executable
        node, cli = compute_driver_executable()
    except (ImportError, ValueError, TypeError):
        return
    _server = subprocess.Popen([node, "-e", SCRIPT, str(Path(cli).parent),
                                str(chromium_path()), json.dumps(ARGS)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    address = _server.stdout.readline().strip()
    if address.startswith("ws://"):
        os.environ[ENDPOINT] = address
    else:
        stop()


def stop() -> None:
    """End the server and its Chromium, and wait for them (their CPU time is then counted
    in this process's children's)."""
    global _server
    os.environ.pop(ENDPOINT, None)
    if _server is not None:
        _server.terminate()
        try:
            _server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _server.kill()
            _server.wait()
        _server.stdout.close()
        _server = None
