"""Cold ingest of MetaQA kb.txt with all indexes, then a warm reopen.

Prints JSON lines: seconds, peak RSS, triples/s (cold) and seconds to reopen and answer a first
link + neighbour query (warm). Usage: python benchmarks/ingest.py [--db DIR] [--keep]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from _common import emit, require_metaqa

REOPEN = """
import time, sys
t0 = time.perf_counter()
from kgrag import KnowledgeGraph
kg = KnowledgeGraph(sys.argv[1])
m = kg.linker.find_mentions("who directed Kill Bill")
n = kg.snapshot.neighbors(m[0].candidates[0].id, direction="both")
kg.store.query("MATCH (n) RETURN count(n) AS c")
print(time.perf_counter() - t0)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=".bench-db")
    args = ap.parse_args()
    metaqa = require_metaqa()
    db = Path(args.db)
    shutil.rmtree(db, ignore_errors=True)
    cmd = [sys.executable, "-c", "from kgrag.cli import main; main()", "ingest", str(metaqa / "kb.txt"), "--db", str(db)]
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, text=True)
    cold = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    peak_kb = int(proc.stderr.strip().splitlines()[-1])
    triples = sum(1 for _ in (metaqa / "kb.txt").open(encoding="utf-8"))
    emit(benchmark="ingest_cold", triples=triples, seconds=round(cold, 2), peak_rss_mb=round(peak_kb / 1024, 1),
         triples_per_s=round(triples / cold))
    warm = subprocess.run([sys.executable, "-c", REOPEN, str(db)], capture_output=True, text=True, check=True)
    emit(benchmark="reopen_warm", seconds=round(float(warm.stdout.strip().splitlines()[-1]), 3),
         includes="import, open, first find_mentions, CSR neighbours, first Cypher query")


if __name__ == "__main__":
    main()
