"""Question-answer datasets: MetaQA text and a generic JSONL format, plus deterministic splits."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .answer import normalise_label
from .errors import InputFileError, InputProblem
from .store.records import check_file, jsonl_objects, text_lines

_BRACKET = re.compile(r"\[([^\[\]]+)\]")


@dataclass
class QAItem:
    """One evaluation question. ``question`` is what the method sees (no brackets)."""

    question: str
    answers: list[str]
    topic_entities: list[str] = field(default_factory=list)
    type: str | None = None
    gold_query: str | None = None
    label: str | None = None  # fact verification: true, false or not enough evidence
    source: str = ""

    @property
    def qid(self) -> str:
        """Stable id: hash of the question text and type (resumable evaluations key on it)."""
        return hashlib.sha1(f"{self.type}\x00{self.question}".encode()).hexdigest()[:16]


def strip_brackets(text: str) -> tuple[str, list[str]]:
    """'what did [Tom Cullen] act in' -> ('what did Tom Cullen act in', ['Tom Cullen'])."""
    return _BRACKET.sub(lambda m: m.group(1), text), _BRACKET.findall(text)


def load_metaqa(path: Path, qtype: str | None = None) -> list[QAItem]:
    """``question<TAB>a1|a2`` lines; the bracketed topic entity becomes ``topic_entities``.

    The type defaults to the parent folder name ("1-hop") so reports can group by hop.
    """
    path = Path(path)
    check_file(path)
    qtype = qtype or path.parent.name
    items, problems = [], []
    for number, line in text_lines(path):
        if isinstance(line, InputProblem):
            problems.append(line)
            continue
        parts = line.split("\t")
        if len(parts) != 2 or not parts[0].strip():
            problems.append(InputProblem(str(path), number, "expected 'question<TAB>answer1|answer2'"))
            continue
        question, topics = strip_brackets(parts[0].strip())
        answers = [a.strip() for a in parts[1].split("|") if a.strip()]
        items.append(QAItem(question, answers, topics, qtype, source=f"{path}:{number}"))
    _raise_if(problems)
    return items


def load_jsonl(path: Path) -> list[QAItem]:
    """Generic JSONL: ``question``, ``answers`` and optional ``topic_entities``, ``type``,
    ``gold_query``, ``label`` (a claim's verdict: true, false or "not enough evidence"; FEVER's
    SUPPORTS / REFUTES / NOT ENOUGH INFO are read too)."""
    path = Path(path)
    items: list[QAItem] = []
    problems: list[InputProblem] = []
    for number, obj in jsonl_objects(path, problems):
        if not isinstance(obj.get("question"), str) or not obj["question"].strip():
            problems.append(InputProblem(str(path), number, "field 'question' must be a non-empty string"))
            continue
        answers = obj.get("answers", [])
        if isinstance(answers, str):
            answers = [answers]
        if not isinstance(answers, list) or not all(isinstance(a, (str, int, float)) for a in answers):
            problems.append(InputProblem(str(path), number, "field 'answers' must be a list of strings"))
            continue
        label = obj.get("label")
        if label is not None and (label := normalise_label(label)) is None:
            problems.append(InputProblem(str(path), number, "field 'label' must be true, false or "
                                         "\"not enough evidence\""))
            continue
        question, topics = strip_brackets(obj["question"].strip())
        items.append(QAItem(question, [str(a) for a in answers], list(obj.get("topic_entities") or topics),
                            obj.get("type"), obj.get("gold_query"), label, f"{path}:{number}"))
    _raise_if(problems)
    return items


def _raise_if(problems: list[InputProblem]) -> None:
    if problems:
        shown = "\n".join(str(p) for p in problems[:10])
        raise InputFileError(f"{len(problems)} malformed question(s):\n{shown}")


def load_dataset(path: Path) -> list[QAItem]:
    path = Path(path)
    return load_jsonl(path) if path.suffix.lower() in (".jsonl", ".json", ".ndjson") else load_metaqa(path)


def in_validation(question: str, val_fraction: float, seed: int = 0) -> bool:
    """Deterministic split by a hash of the question: same answer on every machine and run."""
    digest = hashlib.sha256(f"{seed}:{question}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < val_fraction


def split_items(items: list[QAItem], val_fraction: float = 0.5, seed: int = 0) -> tuple[list[QAItem], list[QAItem]]:
    train = [it for it in items if not in_validation(it.question, val_fraction, seed)]
    val = [it for it in items if in_validation(it.question, val_fraction, seed)]
    return train, val


def sample_dir() -> Path:
    """The bundled movie sample (``movies.txt`` triples, ``questions.jsonl``) shipped in the wheel."""
    from importlib import resources

    return Path(str(resources.files("kgrag") / "data" / "sample"))
