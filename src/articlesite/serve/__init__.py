"""`python build.py serve`: the preview server, its watcher and the reload script.

supervisor.py holds the socket and restarts process.py (the server process's life) when
the package's code changes; in it, watcher.py (with written.py) feeds changes.py's queue
to builder.py, which publishes each outcome (outcome.py, overlay.py) to the pages that
handler.py serves, with what inject.py adds. extensions.py lists the tools that answer
POSTs and add to pages (the translator's view's editor, the marks of a language in
progress).
"""
