"""What serve prints: the address it serves at, and what changed."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # articlesite/


def address(host: str, port: int) -> str:
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host
                                                         else host)
    return f"http://{shown}:{port}/"


def announce(site: Path, host: str, port: int, watched: list[Path]) -> None:
    print(f"Serving {site} at {address(host, port)}", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"Listening on {host}: anyone who can reach this machine can read the site, "
              "and edit figure texts in the translator's view.", flush=True)
    print(f"Translator's view and editor: {address(host, port)}translations.html",
          flush=True)
    print("Watching " + ", ".join(str(p) for p in (*watched, PACKAGE))
          + ". Ctrl-C stops.", flush=True)


def changed_names(paths: list[Path], root: Path) -> str:
    """What changed, for a message: the first three paths, and how many more."""
    names = ", ".join(shorten(p, root) for p in paths[:3])
    return names + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


def shorten(path: Path, root: Path) -> str:
    for base in (root, PACKAGE.parent):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return str(path)
