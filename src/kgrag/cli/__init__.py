"""The `kgrag` command line (`kgrag --help`)."""

from .app import app, build_app, main

__all__ = ["app", "build_app", "main"]
