"""`kgrag methods`, method options on the command line, the LLM flag group, and a method plugged in
from a separately installed package (an entry point) running through `kgrag ask` and `kgrag eval`."""

from __future__ import annotations

import json
import textwrap

import pytest

from kgrag.methods import available_methods

from .conftest import kgrag

TOY_PLUGIN = '''
"""A method from outside kgrag: the 1-hop neighbours of the first linked entity."""
from pydantic import Field

from kgrag import Method, MethodOptions, NoAnswer, RankedEntity


class ToyOptions(MethodOptions):
    limit: int = Field(3, ge=1, description="Neighbours to return.")


class ToyMethod(Method):
    """Toy: the first linked entity's neighbours, in edge order."""

    name = "toy"
    Options = ToyOptions

    def _answer(self, question, result):
        mentions = [m for m in self.kg.linker.find_mentions(question, top_m=1) if m.candidates]
        if not mentions:
            raise NoAnswer("toy: no entity linked")
        seed = mentions[0].candidates[0].id
        for step in self.kg.snapshot.edges_of(seed, "both")[: self.options.limit]:
            result.entities.append(RankedEntity(self.kg.names[step.target], 1.0, step.target))
        result.num_selected = 1
'''


@pytest.fixture(scope="module")
def toy_plugin(tmp_path_factory) -> dict[str, str]:
    """A real installed distribution (a dist-info with an entry point) on PYTHONPATH."""
    root = tmp_path_factory.mktemp("plugin")
    (root / "toy_kgrag_method.py").write_text(TOY_PLUGIN)
    info = root / "toy_kgrag_method-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-kgrag-method\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[kgrag.methods]\ntoy = toy_kgrag_method:ToyMethod\n")
    return {"PYTHONPATH": str(root)}


def test_methods_lists_every_method_with_typed_described_options():
    r = kgrag("methods", "--json")
    assert r.returncode == 0, r.stderr
    catalogue = {m["name"]: m for m in json.loads(r.stdout)}
    assert set(available_methods()) <= set(catalogue)
    for name, entry in catalogue.items():
        assert entry["summary"], name
        for option in entry["options"]:
            assert option["type"] and option["description"], (name, option)
    graphraft = {o["name"]: o for o in catalogue["graphraft"]["options"]}
    assert graphraft["selector"]["type"] == "ranker|llm|lora" and graphraft["selector"]["default"] == "ranker"
    assert graphraft["max_hops"]["default"] == 3  # shared path-model option, from the one base
    assert {o["name"] for o in catalogue["ultrag"]["options"]} >= {"executor", "max_hops", "max_frontier", "epochs"}
    table = kgrag("methods")
    assert table.returncode == 0 and "top_queries" in table.stdout and "baseline" in table.stdout


@pytest.mark.parametrize("option, expected", [
    ("top_m=x", "baseline options: top_m='x': Input should be a valid integer"),
    ("colour=red", "baseline options: unknown option 'colour' (its options: top_m)"),
    ("top_m=0", "top_m='0': Input should be greater than or equal to 1"),
])
def test_bad_baseline_options_are_one_line_errors(cli_db, option, expected):
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "baseline", "-o", option)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert expected in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_unknown_method_names_the_known_ones(cli_db):
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "nope")
    assert r.returncode == 2 and "unknown method 'nope'" in r.stderr and "graphraft" in r.stderr


def test_llm_flags_reach_the_method(cli_db, tmp_path):
    """`--llm openai --llm-base-url` with nothing listening: the method's LLM step fails with the
    endpoint named, proving the flags (not the default local model) were used; `--llm-config`
    supplies the rest (no retries), and a flag wins over the file's value."""
    config = tmp_path / "kgrag.toml"
    config.write_text('[llm]\nmax_retries = 0\ntimeout = 5\nbase_url = "http://127.0.0.1:8/v1"\n')
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "graphraft", "-o", "reader=llm",
              "--llm", "openai", "--llm-base-url", "http://127.0.0.1:9/v1", "--llm-model", "m",
              "--llm-config", str(config), "--json")
    assert r.returncode == 0, r.stderr
    error = json.loads(r.stdout)["error"]
    assert error and "127.0.0.1:9" in error


def test_a_plugged_in_method_runs_through_ask_and_eval(cli_db, toy_plugin, tmp_path):
    listed = json.loads(kgrag("methods", "--json", env=toy_plugin).stdout)
    toy = next(m for m in listed if m["name"] == "toy")
    assert toy["options"] == [{"name": "limit", "type": "int", "default": 3, "description": "Neighbours to return."}]

    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "toy", "-o", "limit=2", "--json",
              env=toy_plugin)
    assert r.returncode == 0, r.stderr
    ans = json.loads(r.stdout)
    assert ans["method"] == "toy" and ans["error"] is None and len(ans["entities"]) == 2
    assert "Quentin Tarantino" in [e["name"] for e in ans["entities"]]

    bad = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "toy", "-o", "limit=0",
                env=toy_plugin)
    assert bad.returncode == 2 and "toy options: limit='0'" in bad.stderr

    questions = tmp_path / "q.txt"
    questions.write_text("who directed [Pulp Fiction]\tQuentin Tarantino\nzzqx qqzz\tnobody\n")
    r = kgrag("eval", "--data", str(questions), "--db", str(cli_db), "-m", "toy", "--out", str(tmp_path / "run"),
              env=toy_plugin)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in (tmp_path / "run" / "predictions.jsonl").read_text().splitlines()]
    assert len(records) == 2 and (tmp_path / "run" / "report.md").exists()
    by_question = {rec["question"]: rec for rec in records}
    assert "Quentin Tarantino" in by_question["who directed Pulp Fiction"]["predicted"]
    assert by_question["zzqx qqzz"]["error"]  # a question it cannot answer is recorded, not raised


def test_ask_has_no_method_specific_flags(cli_db):
    """Method-specific settings are options of their method (`-o executor=...`), not CLI flags."""
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "ultrag", "--executor", "neural")
    assert r.returncode == 2 and "No such option" in r.stderr
    help_text = textwrap.dedent(kgrag("ask", "--help").stdout)
    for flag in ("--llm", "--llm-model", "--llm-base-url", "--llm-config", "--method", "-m", "--option"):
        assert flag in help_text
    for command in ("eval", "train", "demo", "llm-check"):
        assert "--llm-base-url" in kgrag(command, "--help").stdout, command



def test_byokg_answers_on_a_freshly_ingested_kg(cli_db):
    """Nothing trained, no LLM: ByoKG-RAG's learned linker falls back to the zero-shot path scorer."""
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "byokg")
    assert r.returncode == 0, r.stderr
    assert "Quentin Tarantino" in r.stdout
    r = kgrag("ask", "who directed Pulp Fiction", "--db", str(cli_db), "-m", "byokg", "-o", "rounds=9")
    assert r.returncode == 2 and "rounds" in r.stderr and "Traceback" not in r.stderr
