"""Tools for the maintainers of the package itself."""
