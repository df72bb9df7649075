"""Zero-shot chains in KGs of people and of players, clubs and countries: kin words, "the N of"
steps, alternatives ("husband or wife"), out-and-back for "the same" / "alongside", and which way a
verb's relation goes."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import numpy as np
import pytest

from kgrag.learn.zero_shot import ZeroShotPathScorer, ZeroShotWeights
from kgrag.lexicon import Lexicon, wordnet_dir
from tests.learn.test_zero_shot import _best, _canonical_best, _kg

KIN = [("ann_lee", "children", "carl_lee"), ("bo_lee", "children", "carl_lee"), ("carl_lee", "parents", "ann_lee"),
       ("carl_lee", "parents", "bo_lee"), ("ann_lee", "gender", "female"), ("bo_lee", "gender", "male"),
       ("carl_lee", "gender", "male"), ("ann_lee", "spouse", "bo_lee"), ("bo_lee", "spouse", "ann_lee"),
       ("dora_fay", "gender", "female"), ("dora_fay", "children", "ann_lee"), ("ann_lee", "parents", "dora_fay")]


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_a_kin_word_names_the_relation_its_broader_word_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """"son" and "father" name no relation by spelling or by MiniLM (its contrast is flat over
    kin relations); WordNet's broader words of a person noun do: a son is a child, a father a
    parent (`Lexicon.broader`). Without them the path skips the kin step."""
    kg = _kg(tmp_path, triples=KIN)
    try:
        assert _best(kg, "what is the gender of ann_lee's son") == "children>|gender>"
        assert _best(kg, "what is the gender of carl_lee's father") == "parents>|gender>"
        narrow = Lexicon(wordnet_dir())  # a fresh lexicon: the shared one has memoised its answers
        monkeypatch.setattr(narrow, "broader", lambda word: [])
        monkeypatch.setattr(Lexicon, "load", classmethod(lambda cls: narrow))
        assert _best(kg, "what is the gender of ann_lee's son") == "gender>"
    finally:
        kg.close()


RESEARCH = [("ann_lee", "employer", "acme_labs"), ("bo_lee", "employer", "acme_labs"),
            ("ann_lee", "researchField", "optics"), ("bo_lee", "researchField", "topology"),
            ("cy_dunn", "researchField", "optics"), ("cy_dunn", "employer", "vek_works")]


@pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")
def test_a_person_noun_names_no_step_through_a_relation_it_modifies(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """"which researchers have acme_labs as their employer": the people, not their research fields
    ("researchers" matches only the modifier of ``researchField``; a person noun asks for no step
    through it, where another noun would half-name it)."""
    kg = _kg(tmp_path, triples=RESEARCH)
    question = "which researchers have acme_labs as their employer"
    field = kg.relation_ids["researchField"]
    try:
        assert _best(kg, question) == "employer<"
        assert ZeroShotPathScorer(kg).read("which researchers have X as their employer").type_row[field] == 0.0
        monkeypatch.setattr(Lexicon, "person_noun", lambda self, word: False)
        assert ZeroShotPathScorer(kg).read("which researchers have X as their employer").type_row[field] > 0.2
    finally:
        kg.close()


KIN_CHAINS = {
    # "the N of ..." is a step, not only the answer's kind (every entity but two here is a person)
    "what is the child of the spouse of bo_lee": "spouse>|children>",
    # a relation named twice is two steps, each the way its words say ("the N of X": forward)
    "what is the parent of the parent of carl_lee": "parents>|parents>",
    "who is the child of the children of bo_lee": "children>|children>",  # not down and up again
    # two words joined by "or" that name one relation are one phrase, one step
    "who is the child of the husband or wife of bo_lee": "spouse>|children>",
}
GRANDCHILD = [("carl_lee", "children", "eve_lee"), ("eve_lee", "parents", "carl_lee"), ("eve_lee", "gender", "female")]


@pytest.mark.parametrize("question", list(KIN_CHAINS))
def test_each_the_n_of_is_a_step_the_way_its_words_say(tmp_path: Path, question: str) -> None:
    kg = _kg(tmp_path, triples=KIN + GRANDCHILD)
    try:
        assert _best(kg, question) == KIN_CHAINS[question]
    finally:
        kg.close()


def test_words_joined_by_or_that_name_one_relation_are_one_phrase(tmp_path: Path) -> None:
    kg = _kg(tmp_path, triples=KIN)
    try:
        reading = ZeroShotPathScorer(kg).read("who is the child of the husband or wife of X")
        spouse = kg.relation_ids["spouse"]
    finally:
        kg.close()
    assert reading.demand[spouse] == pytest.approx(1.0, abs=0.05)


def test_a_word_far_nearer_one_relation_than_the_rest_names_it(tmp_path: Path) -> None:
    """In a KG of a few relations the mean over them is high, and "couple" (MiniLM: 0.58 to
    ``spouse``, about 0.3 to the rest) passes the contrast with the mean only by its lead over the
    runner-up (`ZeroShotWeights.margin`)."""
    kg = _kg(tmp_path, triples=KIN)
    try:
        on, off = ZeroShotPathScorer(kg), ZeroShotPathScorer(kg, ZeroShotWeights(margin=0.0))
        spouse = kg.relation_ids["spouse"]
        lead, plain = on.word_relation_strength(["couple"])[0], off.word_relation_strength(["couple"])[0]
    finally:
        kg.close()
    assert plain[spouse] < on.w.threshold <= lead[spouse]
    assert int(np.argmax(lead)) == spouse and np.count_nonzero(lead >= on.w.threshold) == 1


SQUADS = [("ana_reis", "plays_for", "fc_lisa"), ("bea_koh", "plays_for", "fc_lisa"),
          ("cai_moor", "plays_for", "sc_ovo"),
          ("fc_lisa", "plays_for_inverse", "ana_reis"), ("fc_lisa", "plays_for_inverse", "bea_koh"),
          ("sc_ovo", "plays_for_inverse", "cai_moor"), ("fc_lisa", "located_in", "portugal"),
          ("sc_ovo", "located_in", "norway"), ("portugal", "located_in_inverse", "fc_lisa"),
          ("norway", "located_in_inverse", "sc_ovo"), ("ana_reis", "nationality", "norway"),
          ("bea_koh", "nationality", "portugal"), ("cai_moor", "nationality", "portugal")]
SQUAD_CASES = {
    # "country" names no relation: the answer is no relation's subject by default when the path would
    # go out and back for it; only words asking for others ("the same", "else") ask for that
    "which country is fc_lisa located in": "located_in>",
    "who else plays for the same club as ana_reis": "plays_for>|plays_for<",
    # "players" is who plays: the subjects of plays_for, not its clubs
    "which players have portugal nationality": "nationality<",
    # the mention does the verb of an active name ("X's club is located in ?"): forward to its object,
    # where "which country" alone would end at a relation's subjects
    "which country is the club of ana_reis located in": "plays_for>|located_in>",
    # "alongside" asks for others like the mention: the way back is asked, a path without it costs
    "which players play alongside ana_reis": "plays_for>|plays_for<",
    "who are the teammates of ana_reis": "plays_for>|plays_for<",  # "-mates": the others on X's team
    # "country" names no relation but fits the countries' side clearly: the path ends there
    "in which country does ana_reis play club football": "plays_for>|located_in>",
    # "who plays": plays_for's subjects, though "club" names plays_for too
    "who plays for a club located in norway": "located_in<|plays_for<",
    # "the club that X plays for": a noun and the clause about it, one step (not out and back)
    "which country is the club that ana_reis plays for located in": "plays_for>|located_in>",
    # "where is NP": where the club is, one step beyond what the words name
    "where is the club that ana_reis plays for": "plays_for>|located_in>",
    "where is fc_lisa located": "located_in>",  # the locative word names the step itself
    # a doer's noun the answer is not is a thing on the way, its relation walked on from it: the
    # clubs of players from norway, not the players of clubs there
    "which clubs have a player from norway": "nationality<|plays_for>",
    # ... but followed by its verb's own preposition the noun's relation reaches the mention
    "what nationality do players for fc_lisa have": "plays_for<|nationality>",
    # a copula, only function words apart, equates the noun with the answer
    "who is a player for fc_lisa": "plays_for<",
    "who has been one of the players for fc_lisa": "plays_for<",
    "who's a player for fc_lisa": "plays_for<",
}


NEEDS_WORDNET = {"who are the teammates of ana_reis"}  # WordNet says a teammate is a person


@pytest.mark.parametrize("question", [
    pytest.param(q, marks=pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed"))
    if q in NEEDS_WORDNET else q for q in SQUAD_CASES])
def test_out_and_back_needs_words_for_it_and_an_agent_noun_names_the_subjects(tmp_path: Path, question: str) -> None:
    kg = _kg(tmp_path, triples=SQUADS)
    try:
        assert _canonical_best(kg, question) == SQUAD_CASES[question]
    finally:
        kg.close()


def test_agent_nouns_name_an_active_relations_subjects() -> None:
    from kgrag.learn.relation_words import RelationNames
    names = ["plays_for", "directed_by", "edited", "performer", "nationality"]
    words = RelationNames(names, np.ones(len(names), dtype=bool), None)
    assert [names[r] for r in range(len(names)) if words.agent_of("players", r)] == ["plays_for"]
    assert [names[r] for r in range(len(names)) if words.agent_of("editors", r)] == ["edited"]
    assert not any(words.agent_of(w, r) for w in ("director", "performer", "nation") for r in range(len(names)))


CAPITALS = [("luxembourg", "capital", "luxembourg_city"), ("luxembourg", "adjoins", "france"),
            ("france", "capital", "paris"), ("france", "adjoins", "luxembourg"), ("seine", "cities", "paris"),
            ("moselle", "cities", "luxembourg_city"), ("moselle", "cities", "metz"),
            ("moselle", "basin_countries", "france"), ("moselle", "basin_countries", "luxembourg")]


def test_a_noun_compound_before_of_names_one_step(tmp_path: Path) -> None:
    """"The capital city of X": "city" modifies nothing of its own, so `cities` is no second step."""
    kg = _kg(tmp_path, triples=CAPITALS)
    try:
        reading = ZeroShotPathScorer(kg).read("name the capital city of X")
        assert reading.demand[kg.relation_ids["cities"]] == 0.0
        assert _best(kg, "name the capital city of luxembourg") == "capital>"
    finally:
        kg.close()



def test_who_does_a_verb_asks_for_its_subjects_and_a_noun_with_its_clause_is_one_phrase(tmp_path: Path) -> None:
    """"who plays for a club ...": the answer is plays_for's subject, and stays so where other
    words name plays_for too (the type word then asks for no step of its own); "the club that X
    plays for" names plays_for once (a noun and the clause about it): one step, not out and back."""
    kg = _kg(tmp_path, triples=SQUADS)
    try:
        scorer = ZeroShotPathScorer(kg)
        plays = kg.relation_ids["plays_for"]
        assert scorer.read("who plays for a club located in X").agent_relation == plays
        assert scorer.read("which club does X play for").agent_relation is None
        clause = scorer.read("where is the club that X plays for")
        assert 0.0 < clause.demand[plays] <= 1.0
    finally:
        kg.close()


def test_a_verb_whose_object_the_noun_asked_for_is_asks_no_step(tmp_path: Path) -> None:
    """"what position does X play": the position X plays, one step; "play" naming ``plays_for`` is
    no second step (out to the club and back to a teammate's position, before)."""
    kg = _kg(tmp_path, triples=[*SQUADS, ("ana_reis", "position", "defender"), ("bea_koh", "position", "forward"),
                                ("cai_moor", "position", "defender")])
    try:
        assert scorer_demand(kg, "what position does X play") == {}
        assert _canonical_best(kg, "what position does ana_reis play") == "position>"
        # "club" names no relation here: the verb names the step
        assert list(scorer_demand(kg, "which club does X play for")) == ["plays_for"]
    finally:
        kg.close()


def scorer_demand(kg, question: str) -> dict[str, float]:  # noqa: ANN001
    reading = ZeroShotPathScorer(kg).read(question)
    return {kg.relations[r]: float(v) for r, v in enumerate(reading.demand) if v > 0}


def test_a_verb_the_mention_is_the_object_of_still_asks_its_step(tmp_path: Path) -> None:
    """"which actors did X direct": X is `directed_by`'s object, not the doer of its verb, so the verb
    asks its step (X's films) before the actors."""
    kg = _kg(tmp_path)
    try:
        assert "directed_by" in scorer_demand(kg, "which actors did X direct")
    finally:
        kg.close()


# the same squads, relations named by the kinds they reach: no name says "team" or "based"
KIND_SQUADS = [(h, {"plays_for": "plays_in_club", "plays_for_inverse": "plays_in_club_inverse",
                    "located_in": "club_country", "located_in_inverse": "club_country_inverse"}.get(r, r), t)
               for h, r, t in SQUADS]


def test_where_is_a_possessive_noun_no_relation_names_asks_a_step_beyond_it(tmp_path: Path) -> None:
    """"where is X's team based": the team is a step from X though no relation's name says "team",
    and the answer is where it is, one step on, not the team itself."""
    with closing(_kg(tmp_path, triples=KIND_SQUADS)) as kg:
        scorer = ZeroShotPathScorer(kg)
        assert scorer.read("where is X's team based").unnamed_owned == 1  # "team" names no relation here
        assert scorer.read("where is X's home").unnamed_owned == 0  # no locative word: the noun may be the place
        assert _canonical_best(kg, "where is ana_reis's team based") == "plays_in_club>|club_country>"


def test_a_doers_noun_on_the_way_walks_its_relation_on_from_it(tmp_path: Path) -> None:
    with closing(_kg(tmp_path, triples=SQUADS)) as kg:
        reading = ZeroShotPathScorer(kg).read("which clubs have a player from X")
        plays_for = kg.relation_ids["plays_for"]
    assert reading.direction is not None and reading.direction[plays_for] > 0
