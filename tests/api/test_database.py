"""`kgrag.Database`, the public API, with the real graph store and the real MiniLM embedder."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

import kgrag
from kgrag.answer import Answer, ChunkRef, Evidence, RankedEntity, Route
from kgrag.errors import IngestError, InvalidOptionError, InvalidQuestionError, UnknownMethodError

GOLD = "Alejandro González Iñárritu"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> kgrag.Database:
    path = tmp_path_factory.mktemp("api") / "db"
    database = kgrag.Database.ingest(path, [kgrag.sample_dir() / "movies.txt"])
    yield database
    database.close()


def test_ingest_reports_and_opens(db: kgrag.Database) -> None:
    assert db.last_ingest is not None and db.last_ingest.edges == db.info()["edges"] == 3675
    assert "directed_by" in db.info()["relations"]


def test_a_bad_file_changes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("a|r|b\nonly two|fields\n", encoding="utf-8")
    with pytest.raises(IngestError, match=r"bad.txt:2"):
        kgrag.Database.ingest(tmp_path / "db", [bad])
    assert not (tmp_path / "db" / "current").exists()


def test_link_and_ask(db: kgrag.Database) -> None:
    assert db.link("who directed 21 Grams")[0].candidates[0].name == "21 Grams"
    ans = db.ask("who directed 21 Grams")  # the default method: auto, answering while it self-trains
    assert ans.selected == [GOLD] and ans.method == "auto" and ans.error is None and ans.produced_by
    assert any("until this KG's self-training is done" in w for w in ans.warnings)
    done = db.wait_self_training()
    assert done is not None and done.state == "saved" and done.done == done.total > 0
    assert "auto" in [p.name for p in db.kg.files.models.iterdir()]  # kept in the database
    ans = db.ask("who directed 21 Grams")
    assert ans.selected == [GOLD] and not ans.warnings and ans.evidence[0].data["calibration"] == "synthetic"
    ans = db.ask("who directed 21 Grams", method="baseline")
    assert ans.selected == [GOLD] and ans.method == "baseline"
    assert {n.name: n.role for n in ans.subgraph.nodes} == {"21 Grams": "question", GOLD: "answer"}
    assert "subgraph" in ans.timings
    assert db.ask("who directed 21 Grams", subgraph=False).subgraph is None


def test_methods_are_created_once_per_options(db: kgrag.Database) -> None:
    assert db.method("byokg", {"rounds": 1}) is db.method("byokg", {"rounds": 1})
    assert db.method("byokg", {"rounds": 1}) is not db.method("byokg", {"rounds": 2})


def test_bad_input_raises_naming_it(db: kgrag.Database) -> None:
    with pytest.raises(UnknownMethodError, match="unknown method 'nope'"):
        db.ask("who directed 21 Grams", method="nope")
    with pytest.raises(InvalidOptionError, match="unknown option 'colour'"):
        db.ask("who directed 21 Grams", options={"colour": 1})
    with pytest.raises(InvalidQuestionError):
        db.ask("  ")


def test_threads_share_one_database(db: kgrag.Database) -> None:
    questions = ["who directed 21 Grams", "what genre is 21 Grams", "who starred in 21 Grams"] * 5
    alone = {q: db.ask(q, method="byokg").names for q in set(questions)}
    results: dict[int, list[str]] = {}

    def work(i: int, q: str) -> None:
        results[i] = db.ask(q, method="byokg").names

    threads = [threading.Thread(target=work, args=(i, q)) for i, q in enumerate(questions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(len(questions))] == [alone[q] for q in questions]


def test_train_publishes_a_model_and_evaluate_writes_the_report(db: kgrag.Database, tmp_path: Path) -> None:
    train, held_out = kgrag.split_items(kgrag.load_jsonl(kgrag.sample_dir() / "questions.jsonl"), 0.5)
    before = db.kg.version
    report = db.train("graphraft", train)
    assert report["kept"] > 0 and db.kg.version != before
    assert (db.kg.files.model_dir("graphraft") / "fit.json").exists()
    summary = db.evaluate(held_out[:20], method="graphraft", out=tmp_path / "run")
    assert summary["overall"]["questions"] == 20 and summary["overall"]["hits@1"] > 0.5
    lines = (tmp_path / "run" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 20 and (tmp_path / "run" / "report.md").exists()


def test_answer_json_is_strict_json() -> None:
    ans = Answer("q", "m", entities=[RankedEntity("a", float(np.float32(0.5)), int(np.int64(3)))],
                 evidence=[Evidence("triple", "t", float("nan"), {"ids": (np.int64(1), np.float32(2.5)),
                                                               "inf": float("-inf"), "path": Path("x")})])
    text = ans.to_json_text()
    value = json.loads(text)  # allow_nan=False: a browser's JSON.parse takes it
    assert value["evidence"][0] == {"kind": "triple", "text": "t", "score": None,
                                    "data": {"ids": [1, 2.5], "inf": None, "path": "x"}}
    assert value["subgraph"] is None and value["error_type"] is None


def test_typed_evidence_joins_data_in_json() -> None:
    """The typed fields keep the JSON's one shape (kind, text, score, data): set ones join ``data``
    under their names, a chunk by its fields; unset ones are left out."""
    query = Evidence("query", "MATCH ...", 0.9, {"rank": 0}, path="directed_by",
                     route=Route(7, [(2, "out")]), triples=[(7, 2, 9)])
    chunk = Evidence("chunk", "text", 0.5, chunk=ChunkRef(4, "/doc/A#1", "/doc/A", "passage", "A", "seed"))
    value = json.loads(Answer("q", "m", evidence=[query, chunk]).to_json_text())
    assert value["evidence"] == [
        {"kind": "query", "text": "MATCH ...", "score": 0.9,
         "data": {"rank": 0, "path": "directed_by", "route": {"seed": 7, "steps": [[2, "out"]], "bridge": False,
                                                              "anchor": None}, "triples": [[7, 2, 9]]}},
        {"kind": "chunk", "text": "text", "score": 0.5,
         "data": {"chunk": 4, "key": "/doc/A#1", "source": "/doc/A", "kind": "passage", "title": "A",
                  "stage": "seed"}}]


def test_documents_through_the_public_api(tmp_path) -> None:  # noqa: ANN001
    from kgrag import Database, sample_dir

    docs = sample_dir() / "docs"
    with Database.ingest_documents(tmp_path / "db", tables=[docs / "tables.jsonl"],
                                   passages=[docs / "passages.jsonl"], method="sage") as db:
        assert db.last_ingest["chunks"] == 13
        info = db.info()
        assert info["documents"]["chunks"] == 13 and info["nodes"] == 0
        ans = db.ask("Where was the astronomer who discovered the four large moons of Jupiter born?")
        assert ans.error is None and ans.method == "sage"
        assert "/doc/Galileo_Galilei" in [e.chunk.source for e in ans.evidence if e.chunk is not None]


def test_ingest_takes_the_cli_sources_and_progress_stays_off(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`Database.ingest` is the step `kgrag ingest` runs: it takes the same `Source`s (here a CSV
    with its own column names) and builds the same version; only the CLI asks for progress."""
    from kgrag.linking.encoders import encoder_name
    from kgrag.store.database import Source
    from kgrag.store.readers import ColumnMap

    rows = tmp_path / "rows.csv"
    rows.write_text("film,rel,who\nKill Bill,directed_by,Quentin Tarantino\nGrease,starred_actors,John Travolta\n",
                    encoding="utf-8")
    seen: list[str] = []
    with kgrag.Database.ingest(tmp_path / "db", [Source(rows, "csv", ColumnMap("film", "rel", "who"))],
                               on_source=lambda s: seen.append(s.describe())) as db:
        assert db.last_ingest.edges == 2 and db.info()["relations"] == ["directed_by", "starred_actors"]
        assert encoder_name(db.kg.version) == "minilm" and seen == [str(rows)]
        assert any(f.name.endswith("-entities.npy") for f in db.kg.files.cache.iterdir())  # embedded, silently
    assert capsys.readouterr().err == ""
