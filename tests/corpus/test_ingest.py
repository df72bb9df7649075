"""`ingest_documents` for real (MiniLM, the graph store): a fresh database, beside a KG, an update of one
document, and bad input that leaves everything as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgrag.corpus.chunks import ChunkingOptions
from kgrag.corpus.corpus import CorpusOptions
from kgrag.corpus.edges import GraphOptions
from kgrag.corpus.ingest import ingest_documents
from kgrag.datasets import sample_dir
from kgrag.errors import IngestError, InputFileError, NoDocumentsError
from kgrag.graph import KnowledgeGraph
from kgrag.store.database import Source, ingest
from kgrag.store.versions import current_version
from tests.conftest import copy_shared

DOCS = sample_dir() / "docs"


def test_sample_database_holds_chunks_graph_and_graph_store_tables(sample_docs_db: Path) -> None:
    with KnowledgeGraph(sample_docs_db) as kg:
        corpus = kg.corpus
        meta = corpus.meta
        assert meta["chunk_kinds"] == {"table": 3, "passage": 10, "text": 1}
        assert meta["edge_counts"]["hyperlink"] > 0 and meta["average_degree"] > 0
        assert set(meta["thresholds"]) >= {"doc-doc/topic", "doc-doc/content", "doc-doc/entities"}
        assert len(corpus.content) == len(corpus.chunks) == meta["chunks"]
        rows = kg.store.query("MATCH (c:DocChunk) RETURN count(*) AS n")
        assert rows[0]["n"] == meta["chunks"]
        links = kg.store.query("MATCH (t:DocChunk {source: 'space_probes_0'})-[l:DocLink]-(p:DocChunk) "
                               "WHERE l.kinds CONTAINS 'hyperlink' RETURN DISTINCT p.source AS s")
        assert {"/doc/Voyager_1", "/doc/Cassini", "/doc/Juno"} <= {r["s"] for r in links}
        assert kg.num_nodes == 0  # documents only: no KG


def test_documents_go_beside_a_kg_and_keep_it(tmp_path: Path, movies_file: Path) -> None:
    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    ingest_documents(db, [], [DOCS / "passages.jsonl"], [])
    with KnowledgeGraph(db) as kg:
        assert kg.num_nodes > 0 and "John Ford" in kg.ids_by_name
        assert kg.corpus.meta["chunk_kinds"] == {"passage": 10}
        assert kg.store.query("MATCH (c:DocChunk) RETURN count(*) AS n")[0]["n"] == 10
        assert kg.store.query("MATCH (e:Entity) WHERE e.name = 'John Ford' RETURN count(*) AS n")[0]["n"] == 1


def test_updating_one_document_reencodes_only_it(tmp_path: Path) -> None:
    db = tmp_path / "db"
    ingest_documents(db, [DOCS / "tables.jsonl"], [DOCS / "passages.jsonl"], [])
    first = current_version(db)
    before = json.loads((first / "docs" / "meta.json").read_text())
    changed = tmp_path / "mars.jsonl"
    changed.write_text(json.dumps({"id": "/doc/Mars", "title": "Mars", "text": "Mars is red . Its two moons are "
                                   "Phobos and Deimos . Olympus Mons is its highest volcano ."}) + "\n")
    meta = ingest_documents(db, [], [changed], [])
    assert meta["updated"] == {"chunks": 1, "sources": 1}
    assert meta["chunks"] == before["chunks"] and meta["thresholds"] == before["thresholds"]
    with KnowledgeGraph(db) as kg:
        chunks = kg.corpus.chunks
        mars = [t for s, t in zip(chunks.sources, chunks.texts) if s == "/doc/Mars"]
        assert mars == ["Mars is red . Its two moons are Phobos and Deimos . Olympus Mons is its highest volcano ."]
        hits = kg.corpus.retrieve("Olympus Mons volcano", 1, 0, expand=False)
        assert chunks.sources[hits[0].chunk] == "/doc/Mars"
        # the table still links to the new Mars chunk
        rows = kg.store.query("MATCH (t:DocChunk {source: 'planets_0'})-[:DocLink]-(p:DocChunk {source: '/doc/Mars'}) "
                              "RETURN count(*) AS n")
        assert rows[0]["n"] >= 1


def test_a_bad_record_names_file_and_line_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "db"
    ingest_documents(db, [], [DOCS / "passages.jsonl"], [])
    version = current_version(db)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "title": "A", "text": "fine ."}\n{"id": "b", "title": "B"}\n')
    with pytest.raises(IngestError, match=r"bad\.jsonl:2"):
        ingest_documents(db, [], [bad], [])
    assert current_version(db) == version


def test_options_are_honoured(tmp_path: Path) -> None:
    db = tmp_path / "db"
    opts = CorpusOptions(ChunkingOptions(split_above_tokens=10), GraphOptions(similarity=False, hyperlinks=False))
    meta = ingest_documents(db, [DOCS / "tables.jsonl"], [DOCS / "passages.jsonl"], [DOCS / "observing_notes.md"],
                            options=opts)
    assert meta["edge_counts"]["similarity"] == 0 and meta["edge_counts"]["hyperlink"] == 0
    assert meta["edge_counts"]["same_source"] == meta["edges"] == 1
    with KnowledgeGraph(db) as kg:  # the six-sentence note is cut in two (passages have < 6 sentences)
        chunks = kg.corpus.chunks
        notes = [t for s, t in zip(chunks.sources, chunks.texts) if s == "observing_notes.md"]
        assert len(notes) == 2 and notes[1].startswith("Neptune")


def test_a_kg_without_documents_says_how_to_add_them(movies_kg: KnowledgeGraph) -> None:
    with pytest.raises(NoDocumentsError, match="kgrag ingest-docs"):
        _ = movies_kg.corpus


def test_graph_store_chunk_tables_survive_copy(tmp_path: Path, sample_docs_db: Path) -> None:
    """A copied database directory (versions are self-contained) still answers Cypher over chunks."""
    copy = tmp_path / "copy"
    copy_shared(sample_docs_db, copy)
    with KnowledgeGraph(copy) as kg:
        assert kg.store.query("MATCH (c:DocChunk) RETURN count(*) AS n")[0]["n"] == kg.corpus.meta["chunks"]


def test_relink_changes_only_the_edges(tmp_path: Path) -> None:
    db = tmp_path / "db"
    first = ingest_documents(db, [DOCS / "tables.jsonl"], [DOCS / "passages.jsonl"], [])
    assert first["edge_counts"]["hyperlink"] > 0
    opts = CorpusOptions(graph=GraphOptions(hyperlinks=False, percentile=50.0))
    meta = ingest_documents(db, [], [], [], options=opts, relink=True)
    assert meta["edge_counts"]["hyperlink"] == 0 and meta["chunks"] == first["chunks"]
    assert meta["options"]["graph"]["percentile"] == 50.0 and "encoding" not in meta["timings_s"]
    with KnowledgeGraph(db) as kg:
        assert kg.corpus.meta["edges"] == meta["edges"]
        assert kg.store.query("MATCH ()-[l:DocLink]->() RETURN count(*) AS n")[0]["n"] == meta["edges"]
    with pytest.raises(InputFileError, match="--relink"):
        ingest_documents(db, [DOCS / "tables.jsonl"], [], [], relink=True)


def test_ingesting_triples_keeps_the_documents(tmp_path: Path, movies_file: Path) -> None:
    """`kgrag ingest` (plain or --append) is about the triples: documents stay, tables and all."""
    db = tmp_path / "db"
    ingest_documents(db, [], [DOCS / "passages.jsonl"], [])
    ingest([Source(movies_file)], db)
    more = tmp_path / "more.txt"
    more.write_text("Inception|directed_by|Christopher Nolan\n", encoding="utf-8")
    ingest([Source(more)], db, append=True)
    with KnowledgeGraph(db) as kg:
        assert "Inception" in kg.ids_by_name and "John Ford" in kg.ids_by_name
        assert kg.corpus.meta["chunks"] == 10
        assert kg.store.query("MATCH (c:DocChunk) RETURN count(*) AS n")[0]["n"] == 10
        hits = kg.corpus.retrieve("Galileo moons of Jupiter", 1, 0, expand=False)
        assert kg.corpus.chunks.sources[hits[0].chunk] in {"/doc/Galileo_Galilei", "/doc/Jupiter"}


def test_kgrag_check_counts_documents_apart_from_the_kg(tmp_path: Path, movies_file: Path) -> None:
    from kgrag.store.check import check_database

    db = tmp_path / "db"
    ingest([Source(movies_file)], db)
    ingest_documents(db, [DOCS / "tables.jsonl"], [DOCS / "passages.jsonl"], [])
    report = check_database(db)
    assert report.healthy, report.lines
    assert any(line.startswith("ok    documents: chunks in the graph store: 13") for line in report.lines)
