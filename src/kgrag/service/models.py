"""The service's request and response bodies (their JSON schemas are the OpenAPI document)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AskRequest",
    "ErrorOut",
    "HealthOut",
    "InfoOut",
    "LLMFailureOut",
    "LinkOut",
    "LinkRequest",
    "TimeoutOut",
    "VerifyRequest",
]

MAX_QUESTION_CHARS = 2000


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=r"\S",
                          description="The question, in words.", examples=["who directed Pulp Fiction"])
    method: str | None = Field(None, max_length=100, description="A method name from /info (default: the "
                               "service's method).")
    options: dict[str, Any] = Field(default_factory=dict, description="The method's options by name (/info "
                                    "lists them); unknown names are refused.")


class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    claim: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, pattern=r"\S",
                       description="The claim to check, in words.",
                       examples=["The General's Daughter was directed by Simon West."])


class LinkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS, description="A question or a mention.")
    top_m: int = Field(3, ge=1, le=50, description="Candidates per mention.")


class HealthOut(BaseModel):
    status: str
    replica: int  # the answering process's id


class OptionOut(BaseModel):
    name: str
    type: str
    default: Any = None
    description: str


class MethodOut(BaseModel):
    name: str
    summary: str
    options: list[OptionOut]


class DocumentsOut(BaseModel):
    chunks: int
    sources: int
    chunk_kinds: dict[str, int]
    edges: int
    average_degree: float


class SelfTrainingOut(BaseModel):
    """A method learning from the KG alone in the background (`kgrag.api.self_training`)."""

    method: str
    state: str  # waiting (another process trains it), running, saved, kept in memory, outdated, stopped...
    done: int  # synthetic questions answered so far
    total: int
    seconds: float
    error: str | None = None


class DatabaseOut(BaseModel):
    path: str
    version: str
    nodes: int
    edges: int
    relations: list[str]
    documents: DocumentsOut | None = None  # `kgrag ingest-docs`
    self_training: dict[str, SelfTrainingOut] = {}  # by method (and options): until done, answers say so


class InfoOut(BaseModel):
    version: str
    database: DatabaseOut
    default_method: str
    auth: bool
    request_timeout_s: float
    max_body_bytes: int
    workers: int  # questions answered at once
    allow_expensive: bool  # options that can run for minutes are served
    methods: list[MethodOut]


class CandidateOut(BaseModel):
    id: int
    name: str
    score: float
    method: str


class MentionOut(BaseModel):
    text: str
    start: int
    end: int
    score: float
    candidates: list[CandidateOut]


class LinkOut(BaseModel):
    question: str
    mentions: list[MentionOut]


class ErrorOut(BaseModel):
    detail: Any = Field(description="What was wrong, naming the field, method or option.")


class TimeoutOut(BaseModel):
    detail: str = Field(description="The time limit and where the method stopped.")
    answer: dict[str, Any] | None = Field(None, description="The Answer as far as it got (its timings show "
                                          "what was done); absent when the work could not be stopped in time.")


class LLMFailureOut(BaseModel):
    detail: str = Field(description="Which LLM call failed and why (endpoint down, model missing...).")
    answer: dict[str, Any] = Field(description="The Answer as far as it got without the LLM.")
