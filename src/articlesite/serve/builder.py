"""serve's builder: rebuilds the site after each save, on top of the last good build, and
publishes each outcome (outcome.py) to the open pages."""

from __future__ import annotations

import gc
import traceback
from collections.abc import Callable
from pathlib import Path

from ..problems import Problem, plural, warning_lines
from .messages import changed_names, shorten
from .outcome import BuildState, problem_entries
from .watchdog import BuildReport

# Seconds a build waits, once its pages are in place, for the open pages it told to reload
# to fetch them (BuildState.settle), before it goes on.
RELOADS_SERVED_WITHIN = 0.1


class Builder:
    """Rebuilds the site with the package's current code: only the pages whose inputs
    changed are rendered again (the build cache), the first build ignores the cache with
    `clean`."""

    def __init__(self, root: Path, state: BuildState, clean: bool = False,
                 drafts: bool = True, report: BuildReport | None = None):
        self.root, self.state, self.clean = root.resolve(), state, clean
        self.report = report or BuildReport(None)   # to the supervisor (watchdog.py)
        self.drafts = drafts  # serve shows drafts (marked as such) unless --no-drafts
        self.cache = None  # the last good build's cache and summary, kept in memory for
        self.last = None   # the next build
        self.building = False
        # What builds given up (Interrupted) left: the paths they were to build, built
        # again with the next change, and the pages they put in place (see rebuild).
        self.carried: set[Path] = set()
        self.unsettled: set[str] = set()
        self.noted: set[str] = set()   # the notes said: each once per serve
        # Pagefind's service, kept from build to build with its word segmenters loaded
        # (a new one after a build that stopped it); ended by close().
        self.search = None

    def run(self, paths: list[Path] | None = None,
            interrupt: Callable[[], bool] | None = None) -> None:
        """Build again after `paths` changed (None: the first build), on top of the last
        good build: only what the change touches is read and rendered again. When
        `interrupt()` turns true while the search index is made, the build is given up
        (its pages stay in place) and its paths are built again with the next change."""
        self.building = True
        self.report.started(None if paths is None else [
            shorten(path, self.root) for path in sorted(self.carried.union(paths))])
        try:
            self.rebuild(paths, interrupt)
        finally:
            self.building = False
            self.report.ended()

    def rebuild(self, paths: list[Path] | None,
                interrupt: Callable[[], bool] | None) -> None:
        if paths is not None:
            paths = sorted(self.carried.union(paths))
        reason = f": {changed_names(paths, self.root)} changed" if paths else ""
        try:
            built = self.build(paths, interrupt)
        except Exception as exc:  # noqa: BLE001 - a bug or syntax error in the package: keep serving
            self.last = None  # the next build is a full one
            traceback.print_exc()
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            self.fail([Problem(getattr(exc, "filename", None) or frame.filename,
                               getattr(exc, "lineno", None) or frame.lineno,
                               f"{type(exc).__name__}: {exc}")])
            return
        if built is None:
            return
        print(f"{built.summary()}{reason}.", flush=True)
        for line in warning_lines(built.warnings):
            print(line, flush=True)
        for note in built.notes:
            if note not in self.noted:
                self.noted.add(note)
                print(note, flush=True)

    def build(self, paths: list[Path] | None, interrupt: Callable[[], bool] | None):
        """The build after `paths` changed, kept as the next one's base; None when it was
        given up or failed (and said so)."""
        clean, self.clean = self.clean, False
        # Imported here: an error in the package's code then shows in the overlay (the
        # supervisor starts this process again when the code is saved).
        from ..build import build, warm_up
        from ..cache import Cache
        from ..problems import BuildError, Interrupted

        placed: set[str] = set()

        def written(changed: list[str] | None = None) -> None:
            placed.update(changed or ())
            self.state.publish(True, [], changed)
            self.state.settle(RELOADS_SERVED_WITHIN)

        if self.last is None or not paths:
            gc.unfreeze()  # what earlier builds left may be collected again
        cache = Cache(self.root, clean=clean, after=self.cache)
        if self.search is None or self.search.closed:
            from ..search_service import Service
            self.search = Service()
        try:
            built = build(self.root, clean=clean, cache=cache, written=written,
                          drafts=self.drafts, previous=self.last, changed=paths,
                          interrupt=interrupt, search=self.search,
                          # A full build (the first, or after a failure) trusts the
                          # sources the last build hashed and leaves its record (a quick
                          # rebuild's 50 ms would not pay for scanning the project).
                          remember=self.last is None)
        except Interrupted:
            # The last good build stays the base: the next one renders these paths
            # again, from their newest sources, and makes the index.
            self.carried, self.unsettled = set(paths or ()), self.unsettled | placed
            print("Search index interrupted by a new change; building again.", flush=True)
            return None
        except BuildError as error:
            self.last, self.carried = None, set()
            self.fail(error.problems)
            return None
        self.carried = set()
        if not built.incremental:
            gc.unfreeze()  # what the previous build kept may be collected now
            gc.collect()
            warm_up(built)
        self.cache, self.last = cache, built
        self.settle_unsettled(built, cache, written)
        # The collector need not walk what this build keeps (at N=1000, a collection of
        # it takes some 80 ms: a quick rebuild would wait for it).
        gc.freeze()
        return built

    def close(self) -> None:
        """End Pagefind's service (serve's end)."""
        if self.search is not None:
            self.search.close()

    def settle_unsettled(self, built, cache, written) -> None:
        """A page a given-up build put in place that this one did not render (its edit
        was undone, say) is put back as this build has it."""
        from ..write import place_pages

        if built.incremental:
            pages = cache.saved.pages
            place_pages(built.out, {path: pages[path] for path in
                                    sorted(self.unsettled - set(built.rendered))
                                    if path in pages}, cache.store, written)
        self.unsettled = set()

    def fail(self, problems, quiet: bool = False) -> None:
        """Publish a failed build's problems to the open pages (and say so, unless
        `quiet`: the supervisor said it)."""
        if not quiet:
            print(f"Build failed: {plural(len(problems), 'problem')}; site/ keeps "
                  "the last good build, open pages show the problems.", flush=True)
            for problem in problems:
                print(f"  {problem}", flush=True)
        self.state.publish(False, problem_entries(problems))
