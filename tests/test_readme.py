"""Every example in README.md, executed or checked, so the README stays true (#18).

* ```python blocks run in README order in one namespace (a later block uses names from an earlier
  one), in a subprocess (a method an example registers stays there) in a temporary directory.
  The script keeps README line numbers, so a traceback points at the README line.
* ```toml blocks parse.
* Every ``kgrag ...`` line of a ```bash block parses with the real command line (command, flags,
  argument types); every ``make ...`` line names a Makefile target.
* The shell lines of the bash blocks under EXECUTED_SECTIONS run for real, one test per README line
  (``README:123``), in README order in one working directory that holds small input files under
  the names the README uses; a line runs the earlier lines first (once), so any single test can
  be selected on its own. ``../shared`` there is a small stand-in in the same format (the full
  MetaQA dev set takes minutes and means nothing against a toy KG); where the real ``../shared``
  exists, each path a line reads from it must exist.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import subprocess
import sys
import textwrap
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import MOVIES

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MAKEFILE = REPO / "Makefile"
VENV = Path(sys.prefix)          # the README's `.venv` (activated by its first executed line)
BIN = Path(sys.executable).parent
EXECUTED_SECTIONS = ("Using it", "Methods", "Evaluating a method")
LINE_TIMEOUT_S = 600


# --------------------------------------------------------------------------- reading the README

@dataclass(frozen=True)
class Block:
    lang: str
    section: str                     # the nearest preceding `## ` heading
    fence: int                       # README line number of the opening fence
    lines: tuple[tuple[int, str], ...]  # (README line number, text)

    @property
    def source(self) -> str:
        return "".join(text + "\n" for _, text in self.lines)


@dataclass(frozen=True)
class ShellLine:
    number: int
    text: str
    args: tuple[str, ...]            # shlex words, `# comment` removed (a `#` inside quotes is data)
    section: str
    fence: int

    @property
    def id(self) -> str:
        return f"README:{self.number}"

    @property
    def command(self) -> str:
        return shlex.join(self.args)


def readme_blocks() -> list[Block]:
    blocks: list[Block] = []
    section, current, lang, fence = "", None, "", 0
    for number, text in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
        if current is None:
            if text.startswith("## "):
                section = text[3:].strip()
            elif text.startswith("```"):
                current, lang, fence = [], text[3:].strip().lower(), number
        elif text.strip() == "```":
            blocks.append(Block(lang, section, fence, tuple(current)))
            current = None
        else:
            current.append((number, text))
    assert current is None, f"README.md: the block opened at line {fence} is never closed"
    return blocks


def shell_lines() -> list[ShellLine]:
    lines = []
    for block in readme_blocks():
        if block.lang not in ("bash", "sh", "shell", "console"):
            continue
        for number, text in block.lines:
            args = tuple(shlex.split(text, comments=True))
            if args:
                lines.append(ShellLine(number, text, args, block.section, block.fence))
    return lines


BLOCKS = readme_blocks()
SHELL = shell_lines()
KGRAG_LINES = [s for s in SHELL if s.args[0] == "kgrag"]
MAKE_LINES = [s for s in SHELL if s.args[0] == "make"]
EXECUTED = [s for s in SHELL if s.section in EXECUTED_SECTIONS]


def test_readme_has_the_examples_this_file_checks():
    """A renamed heading or a dropped block would otherwise make these tests pass by checking less."""
    sections = {b.section for b in BLOCKS if b.lang == "bash"}
    assert set(EXECUTED_SECTIONS) <= sections, f"bash blocks under {sorted(sections)}"
    assert any(b.lang == "python" for b in BLOCKS)
    assert {"ingest", "ask", "train", "eval"} <= {s.args[1] for s in EXECUTED if s.args[0] == "kgrag"}


# --------------------------------------------------------------------------- python and toml blocks

def test_python_blocks_run_in_order_in_one_namespace(tmp_path):
    python = [b for b in BLOCKS if b.lang == "python"]
    # blank lines everywhere else: the script's line N is README line N, so tracebacks point there
    total = max(n for b in python for n, _ in b.lines)
    script = [""] * total
    for block in python:
        for number, text in block.lines:
            script[number - 1] = text
    (tmp_path / "readme_examples.py").write_text("\n".join(script) + "\n", encoding="utf-8")
    runner = textwrap.dedent(f"""\
        source = open("readme_examples.py", encoding="utf-8").read()
        exec(compile(source, {str(README)!r}, "exec"), {{"__name__": "__main__"}})
        """)
    r = subprocess.run([sys.executable, "-c", runner], check=False, cwd=tmp_path, capture_output=True, text=True,
                       timeout=LINE_TIMEOUT_S, env={**_env(), "TMPDIR": str(tmp_path)})  # the examples' mkdtemp() too
    blocks = ", ".join(f"README:{b.fence}" for b in python)
    if r.returncode != 0:
        pytest.fail(f"python blocks ({blocks}) exited {r.returncode}\n"
                    f"--- stdout\n{r.stdout[-4000:]}\n--- stderr\n{r.stderr[-8000:]}", pytrace=False)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "toml"], ids=lambda b: f"README:{b.fence}")
def test_toml_block_parses(block):
    try:
        tomllib.loads(block.source)
    except tomllib.TOMLDecodeError as exc:
        pytest.fail(f"README:{block.fence}: the toml block does not parse: {exc}")


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
def test_kgrag_line_parses(line):
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
def test_make_line_names_a_target(line):
    targets = _make_targets()
    named = [a for a in line.args[1:] if not a.startswith("-") and "=" not in a]
    missing = [t for t in named if t not in targets]
    assert named and not missing, (f"{line.id}: {line.text.strip()}\n  no Makefile target {missing or '(none named)'}"
                                   f" (targets: {', '.join(sorted(t for t in targets if not t.startswith('.')))})")


# --------------------------------------------------------------------------- input files the README names

# The README's examples ask about Fargo; MOVIES (tests/conftest.py) does not have it.
FARGO = """\
Fargo|directed_by|Joel Coen
Fargo|written_by|Joel Coen
Fargo|written_by|Ethan Coen
Fargo|starred_actors|Frances McDormand
Fargo|release_year|1996
The Big Lebowski|directed_by|Joel Coen
The Big Lebowski|written_by|Ethan Coen
The Big Lebowski|starred_actors|Jeff Bridges
Raising Arizona|directed_by|Joel Coen
Raising Arizona|written_by|Joel Coen
"""
TRIPLES = [tuple(line.split("|")) for line in (MOVIES + FARGO).splitlines() if line]

FORWARD = {  # relation -> (training phrasing, validation phrasing) of "head -> tails"
    "directed_by": ("who directed [{}]", "who was the director of [{}]"),
    "written_by": ("who wrote [{}]", "who was the writer of [{}]"),
    "starred_actors": ("who acted in [{}]", "who starred in [{}]"),
    "release_year": ("when was [{}] released", "what year was [{}] released"),
    "has_genre": ("what genre is [{}]", "what kind of film is [{}]"),
    "in_language": ("what language is [{}] in", "what is the language of [{}]"),
}
BACKWARD = {  # relation -> phrasings of "tail -> heads"
    "directed_by": ("which films did [{}] direct", "what movies were directed by [{}]"),
    "starred_actors": ("which films did [{}] act in", "what movies does [{}] appear in"),
}
NODE_LABEL = {"directed_by": "Person", "written_by": "Person", "starred_actors": "Person",
              "release_year": "Year", "has_genre": "Genre", "in_language": "Language", "has_tags": "Tag"}


def qa_pairs(phrasing: int, count: int = 12) -> list[str]:
    """MetaQA lines (`question with [Topic]<TAB>a1|a2`) from TRIPLES, one relation after another."""
    by_relation: dict[str, list[str]] = defaultdict(list)
    for templates, forward in ((FORWARD, True), (BACKWARD, False)):
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for h, r, t in TRIPLES:
            if r in templates:
                groups[(r, h) if forward else (r, t)].append(t if forward else h)
        for (r, topic), answers in groups.items():
            by_relation[f"{r}{forward}"].append(f"{templates[r][phrasing].format(topic)}\t{'|'.join(answers)}")
    lines, queues = [], list(by_relation.values())
    while len(lines) < count and any(queues):
        for q in queues:
            if q and len(lines) < count:
                lines.append(q.pop(0))
    return lines


def _iri(kind: str, name: str) -> str:
    return f"<http://example.org/{kind}/{re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_')}>"


def write_inputs(work: Path) -> None:
    """Small input files under every name the executed README lines use."""
    (work / "kb.txt").write_text(MOVIES + FARGO, encoding="utf-8")
    with (work / "facts.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["s", "p", "o"])
        writer.writerows(TRIPLES)
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"
    nt = [f"{_iri('film', 'Kill Bill')} {label} \"Kill Bill\" .",
          f"{_iri('person', 'Quentin Tarantino')} {label} \"Quentin Tarantino\" .",
          f"{_iri('film', 'Kill Bill')} {_iri('rel', 'directed_by')} {_iri('person', 'Quentin Tarantino')} .",
          f"{_iri('film', 'Kill Bill')} {_iri('rel', 'release_year')} \"2003\" ."]
    (work / "data.nt").write_text("\n".join(nt) + "\n", encoding="utf-8")
    (work / "more.ttl").write_text(textwrap.dedent("""\
        @prefix ex: <http://example.org/> .
        @prefix rel: <http://example.org/rel/> .
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
        @prefix skos: <http://www.w3.org/2004/02/skos/core#> .

        ex:fargo rdfs:label "Fargo" ;
            rel:directed_by ex:joel_coen ;
            rel:written_by ex:joel_coen, ex:ethan_coen .
        ex:joel_coen rdfs:label "Joel Coen" ; skos:altLabel "Joel David Coen" .
        ex:ethan_coen rdfs:label "Ethan Coen" .
        """), encoding="utf-8")
    ids: dict[str, tuple[str, str]] = {}
    for h, r, t in TRIPLES:
        ids.setdefault(h, (f"n{len(ids)}", "Movie"))
        ids.setdefault(t, (f"n{len(ids)}", NODE_LABEL.get(r, "Thing")))
    aliases = {"Kill Bill": "Kill Bill: Vol. 1", "Joel Coen": "Joel David Coen"}
    with (work / "nodes.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "label", "name", "aliases"])
        writer.writerows([key, lab, name, aliases.get(name, "")] for name, (key, lab) in ids.items())
    with (work / "edges.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["source", "type", "target"])
        writer.writerows([ids[h][0], r, ids[t][0]] for h, r, t in TRIPLES)
    (work / "questions.txt").write_text(
        "who directed Kill Bill\nwhich films did Uma Thurman act in\nwhat genre is Pulp Fiction\n", encoding="utf-8")
    (work / "train.txt").write_text("\n".join(qa_pairs(0)) + "\n", encoding="utf-8")
    (work / "val.txt").write_text("\n".join(qa_pairs(1)) + "\n", encoding="utf-8")
    from kgrag.datasets import sample_dir

    docs = sample_dir() / "docs"  # the bundled documents sample under the README's names
    for source, name in (("tables.jsonl", "tables.jsonl"), ("passages.jsonl", "passages.jsonl"),
                         ("observing_notes.md", "notes.md"), ("questions.jsonl", "docs_questions.jsonl")):
        (work / name).write_bytes((docs / source).read_bytes())


def test_qa_files_are_metaqa_with_known_topics_and_answers():
    names = {h for h, _, _ in TRIPLES} | {t for _, _, t in TRIPLES}
    for phrasing in (0, 1):
        lines = qa_pairs(phrasing)
        assert len(lines) == 12 and len(set(lines)) == 12
        for line in lines:
            question, answers = line.split("\t")
            topic = re.fullmatch(r"[^\[]*\[([^\]]+)\][^\]]*", question).group(1)
            assert topic in names and set(answers.split("|")) <= names


# --------------------------------------------------------------------------- executing the shell lines

def _env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "200",
            "PYTHONUNBUFFERED": "1"}


@dataclass
class Outcome:
    line: ShellLine
    returncode: int
    stdout: str
    stderr: str


@dataclass
class ReadmeSession:
    """Runs EXECUTED in README order, each line once, in `work`: the README's repository root
    stand-in, where `.venv` links to this venv and `../shared` is a small stand-in (`write_shared`)."""

    work: Path
    done: dict[int, Outcome] = field(default_factory=dict)

    def result(self, line: ShellLine) -> Outcome:
        for earlier in EXECUTED:
            if earlier.number not in self.done:
                r = subprocess.run(["bash", "-c", earlier.command], check=False, cwd=self.work, capture_output=True, text=True,
                                   timeout=LINE_TIMEOUT_S, env=_env())
                self.done[earlier.number] = Outcome(earlier, r.returncode, r.stdout, r.stderr)
            if earlier.number == line.number:
                return self.done[line.number]
        raise AssertionError(f"{line.id} is not an executed line")

    def failed_before(self, line: ShellLine) -> list[str]:
        return [o.line.id for n, o in sorted(self.done.items()) if n < line.number and o.returncode != 0]


SHARED_ARGS = [(s, a) for s in EXECUTED for a in s.args if a.startswith("../shared/")]


def write_shared(shared: Path) -> None:
    """A small stand-in for each `../shared` file an executed line reads: MetaQA text built from
    TRIPLES (questions about the KG in `mydb`). The full MetaQA dev set runs for minutes against
    any KG (7.7 min for the baseline eval line on this 2-core machine), and against a toy KG it
    measures nothing; `test_readme_shared_path_exists` checks the real paths."""
    for line, arg in SHARED_ARGS:
        target = shared.parent / arg[len("../"):]
        assert "metaqa" in arg and target.suffix == ".txt", f"{line.id}: no stand-in for {arg}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(qa_pairs(0, 100) + qa_pairs(1, 100)) + "\n", encoding="utf-8")


@pytest.mark.parametrize("line, arg", SHARED_ARGS, ids=[f"{s.id}:{a}" for s, a in SHARED_ARGS])
def test_readme_shared_path_exists(line, arg):
    shared = REPO.parent / "shared"
    if not shared.is_dir():
        pytest.skip(f"{shared} is absent on this machine")
    assert (REPO / arg).exists(), f"{line.id}: {line.text.strip()}\n  {arg} does not exist (from {REPO})"


@pytest.fixture(scope="module")
def readme_session(tmp_path_factory) -> ReadmeSession:
    root = tmp_path_factory.mktemp("readme")
    work = root / "work"
    work.mkdir()
    (work / ".venv").symlink_to(VENV, target_is_directory=True)
    write_shared(root / "shared")
    write_inputs(work)
    return ReadmeSession(work)


@pytest.mark.parametrize("line", EXECUTED, ids=lambda s: s.id)
def test_readme_shell_line_runs(line, readme_session):
    outcome = readme_session.result(line)
    earlier = readme_session.failed_before(line)
    context = (f"{line.id} ({line.section}): {line.text.strip()}\n  ran: {line.command}\n  in: {readme_session.work}"
               + (f"\n  earlier README lines failed, this one may depend on them: {', '.join(earlier)}" if earlier else ""))
    if outcome.returncode != 0:
        pytest.fail(f"{context}\n  exit code {outcome.returncode}\n"
                    f"--- stdout\n{outcome.stdout[-3000:]}\n--- stderr\n{outcome.stderr[-6000:]}", pytrace=False)
    if line.args[:2] == ("kgrag", "ask") and not outcome.stdout.strip():
        pytest.fail(f"{context}\n  printed nothing\n--- stderr\n{outcome.stderr[-3000:]}", pytrace=False)
