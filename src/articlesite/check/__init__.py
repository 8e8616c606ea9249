"""Checking: what `python build.py check` reports beyond what stops a build: geometry,
parity between languages, the bibliography, text fit."""
