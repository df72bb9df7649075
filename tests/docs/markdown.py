"""The code blocks of README.md and docs/**/*.md, as the docs tests read them.

A block runs unless the line before its opening fence is ``<!-- not-run: reason -->``: the reason
is shown as the skip reason of that block's test, and `test_not_run_blocks_stay_few` keeps the
list short. Line numbers are the file's, so a failure points at the page and line.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
SHELL_LANGS = ("bash", "sh", "shell", "console")
NOT_RUN = re.compile(r"^<!-- not-run: (.+?) -->$")


def name_of(doc: Path) -> str:
    return doc.relative_to(REPO).as_posix()


@dataclass(frozen=True)
class Block:
    doc: str                         # the file, relative to the repository root
    lang: str
    section: str                     # the nearest preceding `## ` heading
    fence: int                       # line number of the opening fence
    lines: tuple[tuple[int, str], ...]  # (line number, text)
    not_run: str | None              # why the tests do not run it, or None

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.fence}"

    @property
    def source(self) -> str:
        return "".join(text + "\n" for _, text in self.lines)


@dataclass(frozen=True)
class ShellLine:
    doc: str
    number: int
    text: str
    args: tuple[str, ...]            # shlex words, `# comment` removed (a `#` inside quotes is data)
    block: Block

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.number}"

    @property
    def command(self) -> str:
        return shlex.join(self.args)


def blocks_of(doc: Path) -> list[Block]:
    blocks: list[Block] = []
    section, current, lang, fence, not_run, previous = "", None, "", 0, None, ""
    for number, text in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
        if current is None:
            if text.startswith("## "):
                section = text[3:].strip()
            elif text.startswith("```"):
                marker = NOT_RUN.match(previous.strip())
                current, lang, fence, not_run = [], text[3:].strip().lower(), number, marker and marker.group(1)
            if text.strip():
                previous = text
        elif text.strip() == "```":
            blocks.append(Block(name_of(doc), lang, section, fence, tuple(current), not_run))
            current, previous = None, text
        else:
            current.append((number, text))
    assert current is None, f"{name_of(doc)}: the block opened at line {fence} is never closed"
    return blocks


def shell_lines(blocks: list[Block]) -> list[ShellLine]:
    lines = []
    for block in blocks:
        if block.lang in SHELL_LANGS:
            for number, text in block.lines:
                args = tuple(shlex.split(text, comments=True))
                if args:
                    lines.append(ShellLine(block.doc, number, text, args, block))
    return lines


BLOCKS = [b for doc in DOCUMENTS for b in blocks_of(doc)]
SHELL = shell_lines(BLOCKS)
KGRAG_LINES = [s for s in SHELL if s.args[0] == "kgrag"]
MAKE_LINES = [s for s in SHELL if s.args[0] == "make"]
EXECUTED = [s for s in SHELL if s.block.not_run is None]
NOT_RUN_BLOCKS = [b for b in BLOCKS if b.not_run and b.lang in (*SHELL_LANGS, "python")]
PYTHON_DOCS = sorted({b.doc for b in BLOCKS if b.lang == "python" and b.not_run is None})
