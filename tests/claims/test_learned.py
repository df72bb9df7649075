"""Words learned from claims labelled true: a word the KG's relation names do not explain ("made")
comes to name the relation its true claims used, and the database keeps it for every surface."""

from __future__ import annotations

from pathlib import Path

import kgrag
from kgrag.claims import ClaimVerifier
from kgrag.claims.learned import WordRelations
from kgrag.datasets import QAItem
from tests.conftest import copy_shared

TRUE = ["Quentin Tarantino made Kill Bill.", "John Ford made The Searchers.", "Maurice Pialat made Police.",
        "Quentin Tarantino made Pulp Fiction.", "Peter Bogdanovich made Directed by John Ford."]


def claims(texts, label="true"):
    return [QAItem(t, [], label=label, type="one-fact") for t in texts]


def test_a_word_learns_the_relation_its_true_claims_used(movies_kg):
    before = ClaimVerifier(movies_kg).verify("John Ford made Kill Bill.")
    assert before.pattern is not None and before.pattern.attachments[0].phrase is None  # "made" names nothing yet
    learned = ClaimVerifier(movies_kg)
    report = learned.fit(claims(TRUE) + claims(["John Ford made Kill Bill."], "false"))
    assert report["labelled_true"] == len(TRUE) and report["taught"] == len(TRUE)
    directed = movies_kg.relations.index("directed_by")
    assert learned.learned is not None and int(learned.learned.strength(["made"]).argmax()) == directed
    v = learned.verify("John Ford made Kill Bill.")
    assert v.verdict == "false" and "Quentin Tarantino" in v.reason
    assert v.pattern is not None and v.pattern.attachments[0].phrase.text == "made"
    assert learned.verify("Quentin Tarantino made Kill Bill.").verdict == "true"


def test_nothing_is_learned_without_true_claims(movies_kg):
    assert ClaimVerifier(movies_kg).fit(claims(TRUE, "false")) == {}


def test_the_table_round_trips_by_relation_label(tmp_path: Path, movies_kg):
    table = WordRelations(movies_kg.relations)
    table.counts["made"][movies_kg.relations.index("directed_by")] = 3
    table.save(tmp_path)
    shuffled = list(reversed(movies_kg.relations))
    back = WordRelations.load(tmp_path, shuffled)
    assert back is not None and dict(back.counts["made"]) == {shuffled.index("directed_by"): 3}
    assert WordRelations.load(tmp_path / "none", shuffled) is None


def test_train_keeps_it_in_the_database_for_verify(sample_db: Path, tmp_path: Path):
    db = kgrag.Database(copy_shared(sample_db, tmp_path / "db"))
    true = ["Sam Peckinpah made The Wild Bunch.", "John Woo made Hard Boiled.", "John Woo made A Better Tomorrow.",
            "Billy Crystal made 61*."]
    report = db.train("auto", claims(true), options={"task": "verify"})
    assert report["taught"] >= 3 and db.last_model is not None and db.last_model.name == "claims"
    assert (db.last_model / "claim_words.json").exists()
    reopened = kgrag.Database(db.path)
    ans = reopened.verify("John Woo made The Wild Bunch.")
    assert ans.label == "false" and "Sam Peckinpah" in ans.text
