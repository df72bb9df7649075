"""The package's shape: layers kept (import-linter), no import circles, small modules, a declared
public face in every package, and no global side effects from importing or using kgrag."""

from __future__ import annotations

import importlib
import json
import pkgutil
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import networkx as nx
import pytest

import kgrag

SRC = Path(kgrag.__file__).parent
ROOT = SRC.parent.parent
MAX_MODULE_LINES = 400


def _modules() -> list[str]:
    """Every module of the package but ``__main__`` (importing that runs the CLI)."""
    return ["kgrag", *(m.name for m in pkgutil.walk_packages([str(SRC)], prefix="kgrag.")
                       if not m.name.endswith("__main__"))]


def test_layers_are_kept():
    """`lint-imports` checks the layer contract in pyproject.toml (a lower layer never imports a higher one)."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe, "import-linter is a dev dependency"
    r = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "1 kept, 0 broken" in r.stdout


def _circles(edges: nx.DiGraph) -> list[list[str]]:
    """One import circle per strongly connected part, by module name ("a -> b -> a")."""
    return [[*cycle, cycle[0]] for part in nx.strongly_connected_components(edges) if len(part) > 1
            for cycle in [next(nx.simple_cycles(edges.subgraph(part)))]]


def test_no_module_imports_itself_in_a_circle():
    """Every import counts: those inside functions and those under `if TYPE_CHECKING:` too (a
    circle hidden from the interpreter is still one module needing the other to be read)."""
    grimp = pytest.importorskip("grimp")

    graph = grimp.build_graph("kgrag", exclude_type_checking_imports=False)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    assert _circles(edges) == []
    packages = nx.DiGraph()  # and no circle between the top-level parts (kgrag.store, kgrag.linking, ...)
    for a, b in edges.edges:
        top_a, top_b = ".".join(a.split(".")[:2]), ".".join(b.split(".")[:2])
        if top_a != top_b and "kgrag" not in (top_a, top_b):
            packages.add_edge(top_a, top_b)
    assert _circles(packages) == []


def test_circles_are_named():
    """The check above reports each circle by its modules' names, so a failure says what to cut."""
    edges = nx.DiGraph([("kgrag.a", "kgrag.b"), ("kgrag.b", "kgrag.a"), ("kgrag.b", "kgrag.c")])
    assert _circles(edges) in ([["kgrag.a", "kgrag.b", "kgrag.a"]], [["kgrag.b", "kgrag.a", "kgrag.b"]])
    assert _circles(nx.DiGraph([("kgrag.a", "kgrag.b")])) == []


def test_modules_stay_small():
    big = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert big == {}


def test_every_package_declares_its_public_names():
    for name in _modules():
        module = importlib.import_module(name)
        if not hasattr(module, "__path__"):
            continue
        public = getattr(module, "__all__", None)
        if public is None and not any(True for _ in pkgutil.iter_modules(module.__path__)):
            continue
        assert public is not None, f"{name} declares no __all__"
        missing = [n for n in public if not hasattr(module, n)]
        assert missing == [], f"{name}.__all__ names what it does not have: {missing}"


def test_the_public_face_covers_a_session():
    """What a user needs to open, ask and evaluate comes from `kgrag`, `kgrag.methods` and `kgrag.llm`."""
    import kgrag.llm
    import kgrag.methods

    for name in ("KnowledgeGraph", "Answer", "create_method", "available_methods", "register_method", "Method",
                 "MethodOptions", "KgragError", "NoAnswer", "load_dataset", "sample_dir"):
        assert name in kgrag.__all__
    assert {"baseline", "graphraft", "simgrag", "ultrag"} <= set(kgrag.available_methods())
    for name in ("create_llm", "LLMConfig", "LLM", "LocalLLM", "OpenAILLM"):
        assert name in kgrag.llm.__all__
    assert "PathModelOptions" in kgrag.methods.__all__


def _run(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_importing_kgrag_changes_nothing_global():
    seen = _run("""
        import json, os, sys
        before = dict(os.environ)
        import kgrag, kgrag.cli, kgrag.eval.report, kgrag.llm, kgrag.methods
        print(json.dumps({"env_changed": dict(os.environ) != before,
                          "heavy": [m for m in ("torch", "transformers", "llama_cpp", "matplotlib.pyplot",
                                                "sentence_transformers") if m in sys.modules]}))
    """)
    assert seen == {"env_changed": False, "heavy": []}


def test_using_kgrag_leaves_global_state_alone(tmp_path):
    """Loading the embedder sets no environment variable, training seeds no global torch RNG, and
    the eval report's plots switch no matplotlib backend."""
    seen = _run(f"""
        import json, os
        import matplotlib, torch
        import sentence_transformers  # sets KMP_* variables itself when imported: not kgrag's doing
        from pathlib import Path
        env, rng, backend = dict(os.environ), torch.get_rng_state().clone(), matplotlib.get_backend()
        from kgrag.learn.path_ranker import PathRanker
        PathRanker(8, 4, hidden=8, out=4, seed=3)
        rng_kept = bool(torch.equal(rng, torch.get_rng_state()))
        from kgrag.eval import write_report
        rec = {{"qid": "q", "type": "1-hop", "timings": {{"total": 0.01}}, "evidence": [], "oracle_hops": 1,
               "error": None, "llm_calls": [], "metrics": {{"hits@1": 1.0, "hit@5": 1.0, "mrr": 1.0, "f1": 1.0}}}}
        write_report([rec], Path({str(tmp_path)!r}), "toy", "toy")
        from kgrag.linking.embedder import MiniLMEmbedder
        MiniLMEmbedder().embed(["hello"])
        print(json.dumps({{"env_kept": dict(os.environ) == env, "rng_kept": rng_kept,
                          "backend_kept": matplotlib.get_backend() == backend,
                          "plots": sorted(p.name for p in Path({str(tmp_path)!r}).glob("*.png"))}}))
    """)
    assert seen == {"env_kept": True, "rng_kept": True, "backend_kept": True,
                    "plots": ["evidence.png", "latency.png", "scores.png"]}


def test_one_module_imports_the_graph_engine_and_none_the_archived_one():
    """The engine sits behind `kgrag.store.engine` (so a change of engine touches one file); Kùzu,
    archived upstream, is imported nowhere: databases it wrote are read through `kgrag migrate`."""
    import ast

    importers: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            for name in names:
                importers.setdefault(name.split(".")[0], set()).add(str(path.relative_to(SRC)))
    assert importers.get("ladybug") == {"store/engine.py"}
    assert "kuzu" not in importers
