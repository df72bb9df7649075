"""`kgrag methods`: every registered method with its options, generated from the `Options` classes."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated, Any

import typer
from rich.table import Table

from .common import out

__all__ = ["methods", "methods_catalogue"]


def methods_catalogue() -> list[dict[str, Any]]:
    """Every method (built in and plugged in) with its summary and options, as plain data."""
    from ..methods import available_methods, describe_options

    return [{"name": name, "summary": cls.summary(), "module": cls.__module__,
             "options": [asdict(o) for o in describe_options(cls.Options)]}
            for name, cls in available_methods().items()]


def methods(as_json: Annotated[bool, typer.Option("--json", help="Print the catalogue as JSON.")] = False) -> None:
    """List every method and its options (type, default, description); use them as -m NAME -o KEY=VALUE."""
    catalogue = methods_catalogue()
    if as_json:
        print(json.dumps(catalogue, ensure_ascii=False, default=str, indent=1))
        return
    for entry in catalogue:
        out.print(f"[bold]{entry['name']}[/]  {entry['summary']}", highlight=False)
        table = Table("option", "type", "default", "description", show_edge=False, pad_edge=False)
        for o in entry["options"]:
            table.add_row(o["name"], o["type"], str(o["default"]), o["description"])
        out.print(table)
        out.print()
