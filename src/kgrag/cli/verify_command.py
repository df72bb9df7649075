"""`kgrag verify`: check claims against the KG — true, false or not enough evidence, with the facts
that decide (no LLM by default)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from ..errors import InputFileError, KgragError
from .answer_commands import TIMED_OUT
from .common import (
    DbOpt,
    LLMBackendOpt,
    LLMBaseUrlOpt,
    LLMConfigOpt,
    LLMModelOpt,
    OptionsOpt,
    llm_from_flags,
    out,
    parse_method_options,
)

if TYPE_CHECKING:
    from ..answer import Answer

__all__ = ["verify"]

COLOURS = {"true": "green", "false": "red", "not enough evidence": "yellow"}


def _claims_in(path: Path) -> list[tuple[str, str]]:
    """(claim, where) of each claim in a file: JSONL with ``question`` (or ``claim``), or one per line."""
    from ..errors import InputProblem
    from ..store.records import check_file, text_lines

    check_file(path)
    claims = []
    for number, line in text_lines(path):  # bytes that are not UTF-8 are one line's error, not a traceback
        if isinstance(line, InputProblem):
            raise InputFileError(str(line))
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = f"{path}:{number}"
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputFileError(f"{where}: not valid JSON ({exc.msg})") from None
            value = obj.get("question", obj.get("claim")) if isinstance(obj, dict) else None
            if not isinstance(value, str) or not value.strip():
                raise InputFileError(f"{where}: field 'question' (or 'claim') must be a non-empty string")
            text = value
        claims.append((text.strip(), where))
    if not claims:
        raise InputFileError(f"{path}: no claims in the file")
    return claims


def show_verdict(ans: Answer) -> None:
    if ans.error:
        out.print(f"  [red]no verdict:[/] {ans.error}")
        return
    label = ans.label or "-"
    confidence = f" (confidence {ans.confidence:.2f})" if ans.confidence is not None else ""
    out.print(f"  verdict: [bold {COLOURS.get(label, 'white')}]{label}[/]{confidence}")
    for ev in ans.evidence:
        if ev.kind == "fact":
            out.print("    [dim]fact:[/] " + escape(ev.text), highlight=False)
        elif ev.kind == "claim" and ans.label == "not enough evidence":
            out.print("    [dim]why:[/] " + escape(ev.text), highlight=False)


def verify(claim: Annotated[str | None, typer.Argument(help="The claim to check.")] = None,
           db: DbOpt = Path("kgrag-db"),
           file: Annotated[Path | None, typer.Option(
               "--file", help="Claims to check: JSONL with 'question' (or 'claim'), or one per line.")] = None,
           method: Annotated[str, typer.Option("--method", "-m", help="auto or simgrag (simgrag -o "
                                               "pattern_source=llm asks an LLM for the claim's pattern).")] = "auto",
           option: OptionsOpt = None,
           as_json: Annotated[bool, typer.Option("--json", help="Print each Answer as JSON (one per line).")] = False,
           timeout: Annotated[float | None, typer.Option(
               help="Seconds each claim may take (exit code 124 when one is stopped).")] = None,
           llm: LLMBackendOpt = None, llm_model: LLMModelOpt = None, llm_base_url: LLMBaseUrlOpt = None,
           llm_config: LLMConfigOpt = None) -> None:
    """Check a claim (or a file of claims) against the KG: true, false or not enough evidence, with
    the facts it asserts, whether each holds and what the KG holds instead."""
    from ..api import Database

    if (claim is None) == (file is None):
        raise KgragError("give one claim, or --file FILE with claims (not both)")
    if timeout is not None and not timeout > 0:
        raise KgragError(f"--timeout must be a positive number of seconds, not {timeout:g}")
    claims = [(claim, "argument")] if claim is not None else _claims_in(file)  # type: ignore[arg-type]
    database = Database(db, llm=llm_from_flags(llm, llm_model, llm_base_url, llm_config))
    options = parse_method_options(option)
    stopped = False
    for text, _ in claims:
        ans = database.verify(text, method, options, subgraph=as_json, timeout_s=timeout)
        stopped |= ans.error_type == "DeadlineExceeded"
        if as_json:
            print(ans.to_json_text())
        else:
            out.print(f"[bold]{text}[/]", highlight=False)
            show_verdict(ans)
    if stopped:
        raise typer.Exit(TIMED_OUT)
