"""Chunk metadata written by an LLM (SAGE §2.1.A, prompts G.1 and G.2, verbatim with their
one-shot examples): optional, for an endpoint LLM; the rule-based metadata is the default.

Per chunk one call: G.1 for a table segment (its rows as JSON objects, as in the paper's example),
G.2 for a text chunk (the document title passed in). From the reply the topic (``topic``, or
``table_description`` for a table) and the entity names (the keys of ``entities``, and of
``events`` for text) replace the rule-based ones. A reply that is not the JSON asked for keeps the
chunk's rule-based metadata, and is counted, so one bad reply never stops a build of thousands.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import LLMError, LLMUnavailable
from ..llm.base import extract_json
from ..llm.prompts import render_prompt
from ..text import normalize_name
from .chunks import ChunkSet
from .documents import Table
from .metadata import link_title

if TYPE_CHECKING:
    from ..llm.base import LLM

__all__ = ["llm_metadata"]

log = logging.getLogger(__name__)
MAX_TOKENS = 1024


def _table_content(table: Table, start: int, end: int) -> str:
    rows = [dict(zip(table.header, row, strict=False)) for row in table.rows[start:end]]
    return json.dumps(rows, indent=0, ensure_ascii=False)


def _names(obj: Any, *keys: str) -> list[str]:
    out: list[str] = []
    for key in keys:
        value = obj.get(key) if isinstance(obj, dict) else None
        if isinstance(value, dict):
            out += [normalize_name(k) for k in value if isinstance(k, str)]
    return [n for n in dict.fromkeys(out) if n]


def llm_metadata(llm: LLM, chunks: ChunkSet, tables: Sequence[Table], progress: bool = False) -> dict[str, Any]:
    """Fill ``chunks``' topics and entities from the LLM, in place; returns counts for the build's
    report. An LLM that cannot be reached stops the build (nothing is written)."""
    from tqdm import tqdm

    by_id = {t.id: t for t in tables}
    failed = 0
    for i in tqdm(range(len(chunks)), desc="LLM metadata", disable=not progress, unit="chunk"):
        if chunks.kinds[i] == "table" and chunks.sources[i] in by_id:
            start, end = chunks.spans[i]
            messages = render_prompt("sage_table_metadata", source_name=chunks.titles[i],
                                     table_content=_table_content(by_id[chunks.sources[i]], start, end))
        else:
            messages = render_prompt("sage_chunk_metadata", doc_title=chunks.titles[i], doc_content=chunks.texts[i])
        messages[-1]["truncatable"] = True
        try:
            reply = extract_json(llm.chat(messages, max_tokens=MAX_TOKENS).text)
        except LLMUnavailable:
            raise
        except (LLMError, ValueError):
            failed += 1
            continue
        if not isinstance(reply, dict):
            failed += 1
            continue
        topic = reply.get("table_description") if chunks.kinds[i] == "table" else reply.get("topic")
        entities = _names(reply, "entities", "events")
        if isinstance(topic, str) and topic.strip():
            chunks.topics[i] = topic.strip()
        if entities:  # hyperlink targets stay entities: they are explicit, not extracted
            chunks.entities[i] = list(dict.fromkeys([normalize_name(link_title(t)) for t in chunks.links[i]]
                                                    + entities))
        else:
            failed += 1
    log.info("LLM metadata: %d of %d replies unusable (rule-based metadata kept for those)", failed, len(chunks))
    return {"metadata": f"llm:{llm.model_name}", "metadata_unusable_replies": failed}
