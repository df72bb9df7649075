"""Write the format-1 fixture that `tests/store/test_migration.py` migrates: a kgrag database made by
kgrag *before* the move to LadybugDB (its graph in Kùzu 0.11.3), and what that kgrag answered.

Run with the old kgrag and the old engine on the path (neither is a dependency any more):

    git worktree add /tmp/kgrag-kuzu 0287a7a
    pip install --no-deps --target /tmp/kuzu-0.11.3 kuzu==0.11.3
    PYTHONPATH=/tmp/kgrag-kuzu/src:/tmp/kuzu-0.11.3 .venv/bin/python scripts/make_format1_fixture.py OUT

OUT/db is the database (the bundled movie sample, its documents and a trained GraphRAFT model),
OUT/expected.json what the old kgrag answered: the held-out sample questions by baseline and
graphraft, the document questions by sage, and rows of Cypher through the read-only store.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

QUESTIONS_PER_HOP = 20
CYPHER = [
    ("MATCH (a:Entity)-[r]->(b:Entity) RETURN a.name AS head, label(r) AS relation, b.name AS tail "
     "ORDER BY head, relation, tail LIMIT 40"),
    "MATCH ()-[r]->() RETURN label(r) AS relation, count(*) AS edges ORDER BY relation",
    "MATCH (c:DocChunk) RETURN c.kind AS kind, count(*) AS chunks ORDER BY kind",
]


def answers(db, method: str, questions: list[str], options: dict | None = None) -> list[dict]:
    out = []
    for q in questions:
        ans = db.ask(q, method, options, subgraph=False)
        out.append({"question": q, "names": ans.names[:5], "scores": [round(float(e.score), 6) for e in ans.entities[:5]], "text": ans.text,
                    "error": ans.error})
    return out


def main() -> None:
    import kgrag
    from kgrag import Database
    from kgrag.datasets import load_jsonl, sample_dir, split_items

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=False)
    sample = sample_dir()
    db_dir = out / "db"
    Database.ingest(db_dir, [sample / "movies.txt"]).close()
    docs = sample / "docs"
    Database.ingest_documents(db_dir, tables=[docs / "tables.jsonl"], passages=[docs / "passages.jsonl"],
                              files=[docs / "observing_notes.md"]).close()
    train, held_out = split_items(load_jsonl(sample / "questions.jsonl"), 0.5)
    with Database(db_dir) as db:
        db.train("graphraft", train)
    per_hop: dict[str, list[str]] = {}
    for it in held_out:
        per_hop.setdefault(it.type or "all", [])
        if len(per_hop[it.type or "all"]) < QUESTIONS_PER_HOP:
            per_hop[it.type or "all"].append(it.question)
    questions = [q for qs in per_hop.values() for q in qs]
    doc_questions = [it.question for it in load_jsonl(docs / "questions.jsonl")]
    with Database(db_dir) as db:
        expected = {
            "written_by": {"kgrag_source": kgrag.__file__, "engine": "kuzu 0.11.3"},
            "answers": {"baseline": answers(db, "baseline", questions),
                        "graphraft": answers(db, "graphraft", questions),
                        "sage": answers(db, "sage", doc_questions, {"generate": "never"})},
            "cypher": {q: db.kg.store.query(q) for q in CYPHER},
        }
    (out / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
