"""The version of rstkit, in one place: ``pyproject.toml`` reads it (dynamic version) and so does the package."""
__version__ = "0.1.0"
