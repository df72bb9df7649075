"""Write `src/kgrag/methods/auto/generic_calibration.json`: auto's confidence fitted on synthetic
questions over the bundled sample KG, the one auto uses on a new KG until its own self-training is
done (`kgrag.methods.auto.generic`). Deterministic: run it again after changing auto's members,
features or synthetic questions.

Usage: python scripts/generic_calibration.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from kgrag.api import ingest_files
from kgrag.datasets import sample_dir
from kgrag.graph import KnowledgeGraph
from kgrag.methods import create_method
from kgrag.methods.auto.generic import GENERIC_CALIBRATION


def generic_calibration() -> dict:
    """Auto's synthetic-question calibration of the bundled sample, as saved in the package."""
    with tempfile.TemporaryDirectory() as tmp:
        ingest_files(Path(tmp) / "db", [sample_dir() / "movies.txt"])
        kg = KnowledgeGraph(Path(tmp) / "db")
        try:
            auto = create_method("auto", kg)
            auto.self_train()
            return {"made_by": "python scripts/generic_calibration.py",
                    "members": {n: c.to_json() for n, c in auto.calibrators.items()},
                    "choice": {n: c.to_json() for n, c in auto.choosers.items()}}
        finally:
            kg.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=GENERIC_CALIBRATION)
    args = ap.parse_args()
    args.out.write_text(json.dumps(generic_calibration(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
