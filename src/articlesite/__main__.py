"""`python -m articlesite`: the `articlesite` command (the project is the current folder
unless --root names another)."""

from .cli import run

if __name__ == "__main__":
    run()
