"""articlesite: a static multilingual article site generator."""

__version__ = "0.1.0"
