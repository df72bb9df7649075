"""Every example in README.md and docs/**/*.md, executed or checked, so the docs stay true (#18, #40).

* ```python blocks run page by page, in page order in one namespace (a later block uses names from
  an earlier one), in a subprocess (a method an example registers stays there) in a temporary
  directory. The script keeps the page's line numbers, so a traceback points at the page's line.
* ```bash blocks run page by page, one test per line (``docs/asking.md:12``), in page order in one
  working directory per page that holds small input files under the names the pages use
  (`tests/docs/inputs.py`); a line runs the page's earlier lines first (once), so any single test
  can be selected on its own. ``../shared`` there is a small stand-in in the same format; where the
  real ``../shared`` exists, each path a line reads from it must exist.
* A block marked ``<!-- not-run: reason -->`` is reported as skipped with that reason; its
  ``kgrag`` lines still parse and its ``make`` lines still name Makefile targets.
* Every ``kgrag ...`` line parses with the real command line (command, flags, argument types);
  every ``make ...`` line names a Makefile target; ```toml blocks parse.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.cli.inprocess import run_in_process

from .inputs import TRIPLES, qa_pairs, write_inputs, write_shared
from .markdown import BLOCKS, EXECUTED, KGRAG_LINES, MAKE_LINES, NOT_RUN_BLOCKS, PYTHON_DOCS, REPO, Block, ShellLine

MAKEFILE = REPO / "Makefile"
VENV = Path(sys.prefix)          # the docs' `.venv` (activated by their first executed lines)
BIN = Path(sys.executable).parent
LINE_TIMEOUT_S = 600
MAX_NOT_RUN = 10                 # blocks the tests do not run: keep this list short


def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "200",
            "PYTHONUNBUFFERED": "1"}


def test_the_docs_have_the_examples_these_tests_check():
    """A dropped block or marker typo would otherwise make these tests pass by checking less."""
    readme = [b for b in BLOCKS if b.doc == "README.md" and b.not_run is None]
    assert {"bash", "python"} <= {b.lang for b in readme}, "README.md: a runnable bash and python example"
    commands = {s.args[1] for s in EXECUTED if s.args[0] == "kgrag"}
    assert {"ingest", "ask", "train", "eval", "ingest-docs", "methods", "check"} <= commands
    assert len({s.doc for s in EXECUTED}) >= 10 and len(PYTHON_DOCS) >= 3


def test_not_run_blocks_stay_few():
    listed = "\n".join(f"  {b.id}: {b.not_run}" for b in NOT_RUN_BLOCKS)
    assert len(NOT_RUN_BLOCKS) <= MAX_NOT_RUN, f"{len(NOT_RUN_BLOCKS)} blocks are not run:\n{listed}"


@pytest.mark.parametrize("block", NOT_RUN_BLOCKS, ids=lambda b: b.id)
def test_not_run_block(block: Block):
    pytest.skip(f"{block.id} is not run: {block.not_run}")


# --------------------------------------------------------------------------- python and toml blocks

@pytest.mark.parametrize("doc", PYTHON_DOCS)
def test_python_blocks_run_in_order_in_one_namespace(doc: str, tmp_path: Path):
    python = [b for b in BLOCKS if b.doc == doc and b.lang == "python" and b.not_run is None]
    # blank lines everywhere else: the script's line N is the page's line N, so tracebacks point there
    total = max(n for b in python for n, _ in b.lines)
    script = [""] * total
    for block in python:
        for number, text in block.lines:
            script[number - 1] = text
    (tmp_path / "examples.py").write_text("\n".join(script) + "\n", encoding="utf-8")
    runner = textwrap.dedent(f"""\
        source = open("examples.py", encoding="utf-8").read()
        exec(compile(source, {str(REPO / doc)!r}, "exec"), {{"__name__": "__main__"}})
        """)
    r = subprocess.run([sys.executable, "-c", runner], check=False, cwd=tmp_path, capture_output=True, text=True,
                       timeout=LINE_TIMEOUT_S, env={**_env(), "TMPDIR": str(tmp_path)})  # the examples' mkdtemp() too
    if r.returncode != 0:
        pytest.fail(f"python blocks ({', '.join(b.id for b in python)}) exited {r.returncode}\n"
                    f"--- stdout\n{r.stdout[-4000:]}\n--- stderr\n{r.stderr[-8000:]}", pytrace=False)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "toml"], ids=lambda b: b.id)
def test_toml_block_parses(block: Block):
    try:
        tomllib.loads(block.source)
    except tomllib.TOMLDecodeError as exc:
        pytest.fail(f"{block.id}: the toml block does not parse: {exc}")


# --------------------------------------------------------------------------- kgrag and make lines parse

def _click_errors() -> tuple[type[BaseException], ...]:
    """Parse errors of whichever click the typer app is built on (typer may vendor its own)."""
    errors: list[type[BaseException]] = []
    for module in ("typer._click.exceptions", "click.exceptions"):
        try:
            mod = __import__(module, fromlist=["ClickException"])
        except ImportError:
            continue
        errors += [getattr(mod, n) for n in ("ClickException", "Exit", "Abort") if hasattr(mod, n)]
    return tuple(errors)


@pytest.mark.parametrize("line", KGRAG_LINES, ids=lambda s: s.id)
def test_kgrag_line_parses(line: ShellLine):
    import typer

    from kgrag.cli import app

    cmd = typer.main.get_command(app)
    args = list(line.args[1:])
    where = f"{line.id}: {line.text.strip()}"
    try:
        ctx = cmd.make_context("kgrag", list(args))
        sub = cmd.get_command(ctx, args[0])
        assert sub is not None, f"{where}\n  no command '{args[0]}' (commands: {', '.join(cmd.list_commands(ctx))})"
        sub.make_context(args[0], args[1:], parent=ctx)
    except _click_errors() as exc:
        message = exc.format_message() if hasattr(exc, "format_message") else repr(exc)
        pytest.fail(f"{where}\n  does not parse: {message}")


def _make_targets() -> set[str]:
    targets = set()
    for text in MAKEFILE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([A-Za-z0-9_./$()-][^:=\s]*(?:\s+[^:=\s]+)*)\s*:(?!=)", text)
        if m and not text.startswith("\t"):
            targets.update(m.group(1).split())
    return targets


@pytest.mark.parametrize("line", MAKE_LINES, ids=lambda s: s.id)
def test_make_line_names_a_target(line: ShellLine):
    targets = _make_targets()
    named = [a for a in line.args[1:] if not a.startswith("-") and "=" not in a]
    missing = [t for t in named if t not in targets]
    assert named and not missing, (f"{line.id}: {line.text.strip()}\n  no Makefile target {missing or '(none named)'}"
                                   f" (targets: {', '.join(sorted(t for t in targets if not t.startswith('.')))})")


# --------------------------------------------------------------------------- executing the shell lines

def test_qa_files_are_metaqa_with_known_topics_and_answers():
    names = {h for h, _, _ in TRIPLES} | {t for _, _, t in TRIPLES}
    for phrasing in (0, 1):
        lines = qa_pairs(phrasing)
        assert len(lines) == 12 and len(set(lines)) == 12
        for line in lines:
            question, answers = line.split("\t")
            topic = re.fullmatch(r"[^\[]*\[([^\]]+)\][^\]]*", question).group(1)
            assert topic in names and set(answers.split("|")) <= names


SHARED_ARGS = [(s, a) for s in EXECUTED for a in s.args if a.startswith("../shared/")]


@pytest.mark.parametrize("line, arg", SHARED_ARGS, ids=[f"{s.id}:{a}" for s, a in SHARED_ARGS])
def test_shared_path_exists(line: ShellLine, arg: str):
    shared = REPO.parent / "shared"
    if not shared.is_dir():
        pytest.skip(f"{shared} is absent on this machine")
    assert (REPO / arg).exists(), f"{line.id}: {line.text.strip()}\n  {arg} does not exist (from {REPO})"


@dataclass
class Outcome:
    line: ShellLine
    returncode: int
    stdout: str
    stderr: str


@dataclass
class PageSession:
    """Runs one page's executed lines in page order, each once, in `work`: the repository root
    stand-in, where `.venv` links to this venv and `../shared` is a small stand-in."""

    work: Path
    lines: list[ShellLine]
    done: dict[int, Outcome] = field(default_factory=dict)

    def result(self, line: ShellLine) -> Outcome:
        for earlier in self.lines:
            if earlier.number not in self.done:
                self.done[earlier.number] = self._run(earlier)
            if earlier.number == line.number:
                return self.done[line.number]
        raise AssertionError(f"{line.id} is not an executed line")

    def _run(self, line: ShellLine) -> Outcome:
        """A plain ``kgrag ...`` line runs the real command line in this process (`run_kgrag`):
        starting Python, torch and MiniLM again for each of ~70 lines was most of these tests' time.
        Anything else (``. .venv/bin/activate``) runs in bash."""
        if line.args[0] == "kgrag":
            return run_kgrag(line, self.work)
        r = subprocess.run(["bash", "-c", line.command], check=False, cwd=self.work, capture_output=True,
                           text=True, timeout=LINE_TIMEOUT_S, env=_env())
        return Outcome(line, r.returncode, r.stdout, r.stderr)

    def failed_before(self, line: ShellLine) -> list[str]:
        return [o.line.id for n, o in sorted(self.done.items()) if n < line.number and o.returncode != 0]


def run_kgrag(line: ShellLine, work: Path) -> Outcome:
    """``kgrag ARGS`` as the installed script runs it, in this process (`run_in_process`)."""
    r = run_in_process(*line.args[1:], cwd=work)
    return Outcome(line, r.returncode, r.stdout, r.stderr)


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PageSession]:
    """One working directory per page, made when its first line runs."""
    made: dict[str, PageSession] = {}

    class Sessions(dict):
        def __missing__(self, doc: str) -> PageSession:
            root = tmp_path_factory.mktemp(re.sub(r"[^A-Za-z0-9]+", "-", doc))
            work = root / "work"
            work.mkdir()
            (work / ".venv").symlink_to(VENV, target_is_directory=True)
            write_shared(root / "shared", [a for s, a in SHARED_ARGS if s.doc == doc])
            write_inputs(work)
            self[doc] = PageSession(work, [s for s in EXECUTED if s.doc == doc])
            return self[doc]

    return Sessions(made)


@pytest.mark.parametrize("line", EXECUTED, ids=lambda s: s.id)
def test_shell_line_runs(line: ShellLine, sessions: dict[str, PageSession]):
    session = sessions[line.doc]
    outcome = session.result(line)
    earlier = session.failed_before(line)
    context = (f"{line.id} ({line.block.section}): {line.text.strip()}\n  ran: {line.command}\n  in: {session.work}"
               + (f"\n  earlier lines of the page failed, this one may depend on them: {', '.join(earlier)}"
                  if earlier else ""))
    if outcome.returncode != 0:
        pytest.fail(f"{context}\n  exit code {outcome.returncode}\n"
                    f"--- stdout\n{outcome.stdout[-3000:]}\n--- stderr\n{outcome.stderr[-6000:]}", pytrace=False)
    if line.args[:2] == ("kgrag", "ask") and not outcome.stdout.strip():
        pytest.fail(f"{context}\n  printed nothing\n--- stderr\n{outcome.stderr[-3000:]}", pytrace=False)
