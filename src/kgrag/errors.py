"""Typed exceptions.

Every error a user can cause carries a message that names *what* and *where* (file:line, field,
question) so the CLI can print it as one line instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class KgragError(Exception):
    """Base class for all errors kgrag raises on purpose."""


@dataclass(frozen=True)
class InputProblem:
    """One malformed input record: where it is and why it was rejected."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}" if self.line else f"{self.file}: {self.reason}"


class InputFileError(KgragError):
    """A whole input file is unusable (missing, empty, binary, unknown format)."""


class IngestError(KgragError):
    """Ingest stopped on malformed records; the existing database was left untouched."""

    def __init__(self, problems: list[InputProblem], shown: int = 20, *, what: str = "record(s)",
                 hint: str = "nothing was written (use --on-error skip to ingest the rest)") -> None:
        self.problems = problems
        lines = [str(p) for p in problems[:shown]]
        more = len(problems) - shown
        if more > 0:
            lines.append(f"... and {more} more")
        super().__init__(f"{len(problems)} malformed {what}" + (f"; {hint}" if hint else "") + ":\n" + "\n".join(lines))


class DatabaseNotFoundError(KgragError):
    """The --db directory holds no kgrag database."""


class NotADatabaseError(DatabaseNotFoundError):
    """The --db directory holds files, but not a kgrag database (a foreign directory)."""


class DatabaseDamagedError(KgragError):
    """The database directory is damaged: a dangling ``current``, an incomplete version, bad meta."""


class DatabaseOutdatedError(KgragError):
    """The database was written in an older format (e.g. by kgrag on Kùzu): `kgrag migrate` rebuilds it."""


class DatabaseTooNewError(DatabaseDamagedError):
    """The database was written in a newer format by a newer kgrag: nothing here may rewrite it."""


class DatabaseBusyError(KgragError):
    """Another writer holds the database's write lock (and the caller chose not to wait)."""


class DatabaseChangedError(KgragError):
    """The database moved to a new version while a writer was deriving one from the old."""


class InvalidQuestionError(KgragError):
    """The question is unusable before any method runs (empty or whitespace only)."""


class InvalidOptionError(KgragError):
    """A method option is unknown or has a value of the wrong type or range."""


class UnknownMethodError(KgragError):
    """No registered method (built in or plugged in by an entry point) has this name."""


class NoAnswer(KgragError):
    """A method could not answer one question (nothing linked, no path, an LLM failure...).

    Methods raise it (or any `KgragError`) while answering; `Method.answer` records the message
    in `Answer.error` and returns what was found so far, so a batch never stops on one question."""


class NoDocumentsError(KgragError):
    """A document method was asked of a database that holds no documents or tables."""


class ReadOnlyViolation(KgragError):
    """A query that could write was refused before it reached the database."""


class QueryError(KgragError):
    """The database rejected a read-only query (syntax, unknown table, timeout)."""


class QueryTimeout(QueryError):
    """A read-only query ran past its time limit (``GraphStore(timeout_ms=...)``)."""


class StoreError(KgragError):
    """The graph store could not be opened or used (locked, damaged, leftover files not removable)."""


class LLMError(KgragError):
    """Base class for LLM-layer failures."""


class LLMUnavailable(LLMError):
    """The endpoint could not be reached (after retries) or stopped answering."""


class LLMNativeCrash(LLMUnavailable):
    """The local model's native library crashes on this CPU (found out in a child process)."""


class LLMModelNotFound(LLMError):
    """The configured model is not served by the endpoint."""


class LLMOutputError(LLMError):
    """The model's output stayed unusable (invalid JSON/schema) after one repair attempt."""


class LLMContextError(LLMError):
    """The instructions alone do not fit the model's context window."""


class NotSupportedByBackend(LLMError):
    """The backend cannot do this (e.g. log-probability scoring on a server without logprobs)."""


class DeadlineExceeded(KgragError):
    """The question ran past its time limit (or the server is shutting down) and was stopped;
    `kgrag.deadline` carries the limit into the method's loops, which raise this past it."""


class NotAllowedError(KgragError):
    """The server does not serve this method, or runs this option only when allowed
    (`kgrag serve --methods`, `--allow-expensive`): the request is refused (403), naming it."""


class PlanError(KgragError):
    """A query plan is malformed or does not fit the KG (a node of the wrong type, an unknown
    relation or entity); the message names the node by its place in the plan (``root.input.a``)."""


class PlanTooLarge(PlanError):
    """Executing a query plan would read more than its limits allow (a frontier or the edges a
    step reads); the message names the node, the size and the limit to raise."""
