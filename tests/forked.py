"""Commands run as a process of their own without starting Python again: a fork server
(multiprocessing's "forkserver", one per test process) imports the generator once, and
forks a fresh child for each command. The child is a process as `python build.py …` is
(its own memory, limits, working folder, environment and output files; it ends when the
command ends), but it costs a fork, not Python's start and the generator's imports
(about 0.5 s of CPU each: the suite runs a hundred such commands).

The fork server never starts Playwright or a thread, so a child may measure in Chromium
(`check`, `figure layout`) while the test's own process holds the session's browser."""

from __future__ import annotations

import gc
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

# What the fork server imports before it forks: the command line and what a build and a
# check load lazily.
PRELOAD = ["articlesite.cli", "articlesite.build", "articlesite.check.report",
           "articlesite.figures.commands", "articlesite.translate.commands", "forked"]
_context = None


# What the fork server must import first: this checkout's package (not an installed
# one) and the tests' modules. It is started as `python -c …` with this environment;
# multiprocessing gives it this process's sys.path only after its imports.
FIRST = (Path(__file__).resolve().parent.parent / "src", Path(__file__).resolve().parent)


def context():
    global _context
    if _context is None:
        from multiprocessing import forkserver

        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(PRELOAD)
        before = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = os.pathsep.join([*map(str, FIRST), *filter(None, [before])])
        try:
            forkserver.ensure_running()
        finally:
            if before is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = before
    return _context


def stop() -> None:
    """End the fork server, if one was started, and wait for it: its CPU time, and its
    children's, is then counted in this process's children's (`/usr/bin/time`)."""
    from multiprocessing import forkserver

    server = forkserver._forkserver
    if _context is None or server._forkserver_pid is None:
        return
    os.close(server._forkserver_alive_fd)
    os.waitpid(server._forkserver_pid, 0)
    server._forkserver_pid = server._forkserver_alive_fd = None
    server._forkserver_address = None


def run(argv: list[str], *, env: dict | None = None, cwd: Path | None = None,
        timeout: float = 300, memory: int | None = None,
        shown: list[str] | None = None) -> subprocess.CompletedProcess:
    """`articlesite ARGV` in a forked process, as subprocess.run(…, capture_output=True,
    text=True) would run it: its exit code and output. `env`: its environment (this
    process's by default, as it is now); `memory`: bytes of address space it may have;
    a child still running after `timeout` seconds is killed (subprocess.TimeoutExpired).
    `shown`: the command line the result names (what a user would have typed)."""
    with tempfile.TemporaryDirectory(prefix="forked-") as folder:
        out, err = Path(folder, "out"), Path(folder, "err")
        child = context().Process(target=_child, args=(
            argv, dict(os.environ if env is None else env), str(cwd or os.getcwd()),
            memory, str(out), str(err)))
        child.start()
        child.join(timeout)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(shown or argv, timeout)
        code = child.exitcode
        child.close()
        return subprocess.CompletedProcess(
            shown or argv, code, out.read_text(encoding="utf-8", errors="replace"),
            err.read_text(encoding="utf-8", errors="replace"))


def _child(argv: list[str], env: dict, cwd: str, memory: int | None, out: str,
           err: str) -> None:
    """In the forked child: the environment, folder, limit and output files it was given,
    then the command line's own entry point (cli.run's steps)."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    if memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    for fd, path in ((1, out), (2, err)):   # the command's processes write there too
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.stdout, sys.stderr = (open(fd, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                                   closefd=False) for fd in (1, 2))   # until os._exit
    import articlesite
    from articlesite.cli import main

    if not Path(articlesite.__file__).is_relative_to(FIRST[0]):
        print(f"forked.py: the fork server imported {articlesite.__file__}, not this "
              f"checkout's package in {FIRST[0]}", file=sys.stderr)
        os._exit(1)
    gc.set_threshold(20_000, 20, 20)
    try:
        code = main(argv)
    except SystemExit as stop:   # argparse's answer to a mistaken command line
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
        code = stop.code if isinstance(stop.code, int) else 1 if stop.code else 0
    except BaseException:   # noqa: BLE001 - shown as Python would show it, exit code 1
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
