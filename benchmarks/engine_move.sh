#!/usr/bin/env bash
# #37's side-by-side: the kgrag before the move (on Kùzu 0.11.3) against this one (on LadybugDB), one
# run at a time on the same machine, into benchmarks/results/engine_move.jsonl and .png.
#
# Needs the old kgrag and the old engine beside the project (neither is a dependency any more):
#   git worktree add ../kgrag-kuzu 0287a7a
#   .venv/bin/pip install --no-deps --target ../kuzu-0.11.3 kuzu==0.11.3
# Usage: bash benchmarks/engine_move.sh [OLD_SRC] [KUZU_SITE] [WORK]   (about 45 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD_SRC=${1:-../kgrag-kuzu/src}
KUZU_SITE=${2:-../kuzu-0.11.3}
WORK=${3:-.bench-engine}
KB=../shared/data/metaqa/kb.txt
PY=.venv/bin/python
OLD=(env "PYTHONPATH=$OLD_SRC:$KUZU_SITE")
OUT=$WORK/engine_move.jsonl
mkdir -p "$WORK"
: > "$OUT"; : > "$WORK/store_write.jsonl"
new_run() { "$PY" benchmarks/ingest_scale.py "$@" | tee -a "$OUT"; }
old_run() { "${OLD[@]}" "$PY" benchmarks/ingest_scale.py "$@" | tee -a "$OUT"; }
# 1. MetaQA, then the 10M-edge power-law KG: ingest, reopen, Cypher shapes, every no-LLM method
new_run --kg "$KB" --work "$WORK/metaqa-new"
old_run --kg "$KB" --work "$WORK/metaqa-old"
new_run --work "$WORK/scale-new"
old_run --kg "$WORK/scale-new/kg-10000000-0.txt" --work "$WORK/scale-old"
# 2. a second answering pass on the 10M databases, taking turns (auto's one-off self-training left out)
methods=baseline,graphraft,simgrag,ultrag,byokg
second='s/"benchmark": "/"pass": 2, "benchmark": "/'
"${OLD[@]}" "$PY" benchmarks/ingest_scale.py --kg "$WORK/scale-new/kg-10000000-0.txt" --work "$WORK/scale-old" \
  --reuse --methods $methods | sed "$second" > "$WORK/pass2.jsonl"
"$PY" benchmarks/ingest_scale.py --work "$WORK/scale-new" --reuse --methods $methods | sed "$second" >> "$WORK/pass2.jsonl"
# 3. the graph store's bulk load alone, both engines, from the new databases' own files
for kg in metaqa-new scale-new; do
  "$PY" benchmarks/graph_store_write.py --repeats 1 --db "$WORK/$kg/db" | tee -a "$WORK/store_write.jsonl"
  "${OLD[@]}" "$PY" benchmarks/graph_store_write.py --repeats 1 --db "$WORK/$kg/db" | tee -a "$WORK/store_write.jsonl"
done
# 4. kgrag migrate on the old engine's databases (then kgrag check), timed
for kg in metaqa-old scale-old; do
  /usr/bin/time -f "%e %M" -o "$WORK/$kg.time" .venv/bin/kgrag migrate --db "$WORK/$kg/db" > "$WORK/$kg.migrate.log" 2>&1
  read -r secs rss < "$WORK/$kg.time"
  echo "{\"benchmark\": \"migrate\", \"kg\": \"$kg\", \"seconds\": $secs, \"peak_rss_mb\": $((rss / 1024))}" | tee -a "$OUT"
done
cat "$WORK/pass2.jsonl" "$WORK/store_write.jsonl" >> "$OUT"
cp "$OUT" benchmarks/results/engine_move.jsonl
"$PY" benchmarks/engine_move_plot.py benchmarks/results/engine_move.jsonl
