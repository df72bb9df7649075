"""Shared helpers for benchmarks: locate ../shared, print JSON lines, peak RSS."""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
METAQA = SHARED / "data" / "metaqa"


def require_metaqa() -> Path:
    if not (METAQA / "kb.txt").exists():
        print(json.dumps({"skipped": f"MetaQA not found at {METAQA}"}))
        sys.exit(0)
    return METAQA


def emit(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
