"""MkDocs hooks (mkdocs.yml `hooks:`): the site reads what lives elsewhere in the repository from
where it lives, so nothing under docs/ is a copy that can go stale.

* The home page is README.md: its links into ``docs/`` are made site-relative, so the README reads
  right on GitHub and on the site, and `mkdocs build --strict` checks its links too.
* CHANGELOG.md is the changelog page; every ``benchmarks/results/*.png`` plot is served at the same
  path, so a page shows ``![...](benchmarks/results/x.png)`` (relative to the docs root).
* ``{{ options NAME }}`` on a line of its own becomes method NAME's options table, generated from
  its ``Options`` class the way `kgrag methods` prints it (`kgrag.methods.describe_options`).
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = re.compile(r"^\{\{ options ([a-z0-9_-]+) \}\}$", re.MULTILINE)
README_LINK = re.compile(r"\]\((?!https?://|#)([^)\s]+)\)")
if str(ROOT / "src") not in sys.path:  # the options of this checkout, not of an installed kgrag
    sys.path.insert(0, str(ROOT / "src"))


def on_files(files: Files, config: Any) -> Files:
    """Serve the changelog and the benchmark plots from their places in the repository."""
    files.append(File.generated(config, "changelog.md", abs_src_path=str(ROOT / "CHANGELOG.md")))
    for png in sorted((ROOT / "benchmarks" / "results").glob("*.png")):
        files.append(File.generated(config, f"benchmarks/results/{png.name}", abs_src_path=str(png)))
    return files


def _readme_link(match: re.Match[str]) -> str:
    """A README link, relative to the repository root, as one relative to the docs root."""
    target = match.group(1)
    if target.startswith("docs/"):
        target = target[len("docs/"):]
    elif target == "CHANGELOG.md":
        target = "changelog.md"
    return f"]({posixpath.normpath(target)})"


def options_table(name: str) -> str:
    """Method ``name``'s options as a Markdown table: name, type, default, description."""
    from kgrag.methods import describe_options, method_class

    rows = ["| option | type | default | description |", "|---|---|---|---|"]
    for o in describe_options(method_class(name).Options):
        cells = (f"`{o.name}`", f"`{o.type}`", f"`{o.default}`", o.description.replace("|", "\\|"))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    if page.file.src_uri == "index.md":
        markdown = README_LINK.sub(_readme_link, (ROOT / "README.md").read_text(encoding="utf-8"))
    return OPTIONS.sub(lambda m: options_table(m.group(1)), markdown)
