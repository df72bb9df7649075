"""The 10M-edge benchmark's whole pipeline at a small size, with approximate search forced
(`KGRAG_APPROXIMATE_FROM`): generated KG file, `kgrag ingest --encoder static` with every index
(the approximate nearest-entity index included), reopen, then every no-LLM method answering
questions generated from the graph. Latency budgets are the benchmark's business, not checked here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kgrag.store.layout import ANN_PREFIX

ROOT = Path(__file__).resolve().parents[1]


def test_the_scale_benchmark_ingests_reopens_and_every_method_answers(tmp_path: Path) -> None:
    env = {**os.environ, "KGRAG_APPROXIMATE_FROM": "200"}
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ingest_scale.py"), "--edges", "6000",
                           "--nodes", "1500", "--relations", "40", "--questions", "9", "--work", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    by_kind = {}
    for line in lines:
        by_kind.setdefault(line["benchmark"], []).append(line)
    assert by_kind["generate-scale"][0]["edges"] == 6000
    assert by_kind["ingest-scale"][0]["peak_rss_mb"] > 0
    assert by_kind["reopen-scale"][0]["seconds"] > 0
    assert list((tmp_path / "db" / "current" / "cache").glob(f"{ANN_PREFIX}entities-*.faiss"))
    assert all(r["recall"] >= 0.9 for r in by_kind["approximate-index-recall"]), by_kind["approximate-index-recall"]
    answered = {r["method"]: r for r in by_kind["answer-scale"]}
    assert set(answered) == {"baseline", "graphraft", "simgrag", "ultrag", "byokg", "auto"}
    for name, row in answered.items():
        assert row["questions"] == 8 and row["errors"] == 0, (name, row)
    assert answered["graphraft"]["hits_at_1_synthetic"] > 0  # multi-hop answers found with nothing trained
