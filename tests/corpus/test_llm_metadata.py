"""LLM-written chunk metadata (prompts G.1/G.2) with a scripted LLM: what is sent, what is kept,
and a bad reply that leaves the rule-based metadata in place."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from kgrag.corpus.chunks import ChunkSet
from kgrag.corpus.corpus import CorpusOptions
from kgrag.corpus.documents import Table
from kgrag.corpus.ingest import ingest_documents
from kgrag.corpus.llm_metadata import llm_metadata
from kgrag.datasets import sample_dir
from kgrag.errors import LLMUnavailable
from kgrag.llm.base import LLM
from kgrag.llm.config import LLMConfig
from kgrag.llm.types import Completion, Message, Usage

TABLE_REPLY = {"table_title": "Space probes", "table_description": "Probes sent to the outer planets.",
               "col_desc": {}, "entities": {"Voyager 1": {"type": "thing"}, "NASA": {"type": "organization"}}}
TEXT_REPLY = {"entities": {"Cassini": {"details": ["a probe"]}}, "events": {"Huygens landing": {"date": None}},
              "timeline": [], "topic": "The Cassini mission to Saturn."}


class MetadataLLM(LLM):
    backend = "scripted"

    def __init__(self, bad_for: str = "", down: bool = False) -> None:
        super().__init__(LLMConfig())
        self.prompts: list[str] = []
        self.bad_for, self.down = bad_for, down

    @property
    def model_name(self) -> str:
        return "scripted"

    def _complete(self, messages: list[Message], *, max_tokens: int, temperature: float, stop: list[str] | None,
                  json_schema: dict | None, grammar: str | None, choices: Sequence[str] | None) -> Completion:
        if self.down:
            raise LLMUnavailable("the endpoint http://127.0.0.1:9 cannot be reached")
        text = messages[-1]["content"]
        self.prompts.append(text)
        if self.bad_for and self.bad_for in text.rsplit("One", 1)[-1]:
            return Completion("I cannot do that", "scripted", Usage(10, 5))
        reply = TABLE_REPLY if text.startswith("You are a table metadata") else TEXT_REPLY
        return Completion("```json\n" + json.dumps(reply) + "\n```", "scripted", Usage(100, 50))


def _chunks() -> tuple[ChunkSet, list[Table]]:
    table = Table("probes_0", "Space probes", "", ("Probe", "Launched"), (("Voyager 1", "1977"), ("Cassini", "1997")),
                  ((0, 0, "/doc/Voyager_1"),))
    chunks = ChunkSet()
    chunks.add("probes_0", "table", "Space probes", "Space probes\nProbe | Launched\nVoyager 1 | 1977\nCassini | 1997",
               "Space probes: Probe, Launched", ["space probes"], ["/doc/Voyager_1"], (0, 2))
    chunks.add("/doc/Cassini", "passage", "Cassini", "Cassini orbited Saturn .", "Cassini orbited Saturn .",
               ["cassini", "saturn"], span=(0, 1))
    return chunks, [table]


def test_prompts_carry_the_one_shot_examples_and_the_chunk() -> None:
    chunks, tables = _chunks()
    llm = MetadataLLM()
    report = llm_metadata(llm, chunks, tables)
    table_prompt, text_prompt = llm.prompts
    assert "1911 Notre Dame Fighting Irish football team" in table_prompt
    assert 'Table Source Name: "Space probes"' in table_prompt and '"Probe": "Voyager 1"' in table_prompt
    assert "Bixente" in text_prompt and 'Document Title: "Cassini"' in text_prompt
    assert text_prompt.rstrip().endswith("Document Content: Cassini orbited Saturn .")
    assert chunks.topics == ["Probes sent to the outer planets.", "The Cassini mission to Saturn."]
    assert chunks.entities[0] == ["voyager 1", "nasa"]  # the link target first, then the LLM's names
    assert chunks.entities[1] == ["cassini", "huygens landing"]
    assert report == {"metadata": "llm:scripted", "metadata_unusable_replies": 0}


def test_a_bad_reply_keeps_the_rule_based_metadata() -> None:
    chunks, tables = _chunks()
    report = llm_metadata(MetadataLLM(bad_for="Cassini orbited"), chunks, tables)
    assert report["metadata_unusable_replies"] == 1
    assert chunks.topics[1] == "Cassini orbited Saturn ." and chunks.entities[1] == ["cassini", "saturn"]


def test_an_unreachable_llm_stops_the_build_and_writes_nothing(tmp_path: Path) -> None:
    docs = sample_dir() / "docs"
    with pytest.raises(LLMUnavailable, match="127.0.0.1:9"):
        ingest_documents(tmp_path / "db", [docs / "tables.jsonl"], [], [], options=CorpusOptions(metadata="llm"),
                         llm=MetadataLLM(down=True))
    assert not (tmp_path / "db" / "current").exists()


def test_ingest_with_llm_metadata_reports_it(tmp_path: Path) -> None:
    docs = sample_dir() / "docs"
    meta = ingest_documents(tmp_path / "db", [docs / "tables.jsonl"], [docs / "passages.jsonl"], [],
                            options=CorpusOptions(metadata="llm"), llm=MetadataLLM())
    assert meta["metadata"] == "llm:scripted" and meta["metadata_unusable_replies"] == 0
    assert meta["options"]["metadata"] == "llm" and "metadata" in meta["timings_s"]
