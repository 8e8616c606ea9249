"""`python build.py serve`: the preview server, its watcher and the reload script."""
