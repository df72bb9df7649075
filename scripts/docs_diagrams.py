"""Draw the architecture page's two diagrams as plain SVG (they render offline, in any browser and on
GitHub): the layers of src/kgrag, read from pyproject.toml's import-linter contract, and the path of
one question. tests/docs/test_site.py fails when the committed files differ from what this writes.

Usage: python scripts/docs_diagrams.py [--out docs/assets]
"""

from __future__ import annotations

import argparse
import tomllib
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTH, ROW, GAP, PAD, CHAR = 900, 30, 18, 12, 7.4

# One question, top to bottom: each row is one step, its boxes the parts that may do it.
QUESTION_FLOW = [
    ("ask", ["kgrag ask (cli)", "POST /ask (service)", "Database.ask (api)"]),
    ("method", ["create_method(name, kg, options) (methods)"]),
    ("link", ["EntityLinker.find_mentions (linking)", "BM25 + dense chunk search (corpus)"]),
    ("retrieve", ["relation paths on the CSR snapshot (paths, store)", "read-only Cypher (store)",
                  "nearest vectors (vector_index)"]),
    ("select", ["path ranker / zero-shot scorer (learn)", "LLM step, optional (llm)"]),
    ("answer", ["Answer: entities, text, evidence, timings, LLM calls (answer)"]),
    ("show", ["evidence subgraph (api)", "JSON: CLI --json, service, web page"]),
]


def layers() -> list[tuple[str, list[str]]]:
    """The contract's layers, top first; modules that share a layer ("a | b") are separate boxes."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]
    return [(str(i + 1), [m.strip() for m in layer.split("|")]) for i, layer in enumerate(contract["layers"])]


def draw(rows: list[tuple[str, list[str]]], title: str, arrow_note: str) -> str:
    """Rows of boxes, one row per step or layer, joined by downward arrows."""
    label_w = 78
    height = PAD * 2 + 28 + len(rows) * (ROW + GAP)
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">'),
           ('<defs><marker id="a" markerWidth="8" markerHeight="8" refX="4" refY="4" orient="auto">'
            '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>'),
           f'<text x="{PAD}" y="{PAD + 14}" font-weight="bold">{escape(title)}</text>',
           f'<text x="{WIDTH - PAD}" y="{PAD + 14}" text-anchor="end" fill="#555">{escape(arrow_note)}</text>']
    y = PAD + 28
    for i, (label, boxes) in enumerate(rows):
        out.append(f'<text x="{PAD}" y="{y + ROW / 2 + 4:.0f}" fill="#555">{escape(label)}</text>')
        avail = WIDTH - PAD - label_w - PAD
        natural = [len(b) * CHAR + 2 * PAD for b in boxes]
        room = avail - 8 * (len(boxes) - 1)  # the row is filled, each box in proportion to its text
        widths = [n * room / sum(natural) for n in natural]
        x = label_w + PAD
        for box, w in zip(boxes, widths, strict=True):
            out.append(f'<rect x="{x:.0f}" y="{y}" width="{w:.0f}" height="{ROW}" rx="5" '
                       'fill="#e8eef7" stroke="#3f5f8f"/>')
            out.append(f'<text x="{x + w / 2:.0f}" y="{y + ROW / 2 + 4:.0f}" text-anchor="middle">{escape(box)}</text>')
            x += w + 8
        if i < len(rows) - 1:
            cx = label_w + PAD + avail / 2
            out.append(f'<line x1="{cx:.0f}" y1="{y + ROW}" x2="{cx:.0f}" y2="{y + ROW + GAP - 3}" '
                       'stroke="#555" marker-end="url(#a)"/>')
        y += ROW + GAP
    out.append("</svg>")
    return "\n".join(out) + "\n"


def diagrams() -> dict[str, str]:
    """File name → SVG text, for every diagram of the docs."""
    return {"layers.svg": draw(layers(), "src/kgrag layers (pyproject.toml [tool.importlinter])",
                               "a module imports only from layers below it"),
            "question-flow.svg": draw(QUESTION_FLOW, "One question through kgrag", "each step calls the next")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "assets")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, svg in diagrams().items():
        (args.out / name).write_text(svg, encoding="utf-8")
        print(args.out / name)


if __name__ == "__main__":
    main()
