"""How a name reads when its words are not the whole story: a capitalised name beside a lower-case
tag of the same words, a plural that names a category, a name no phrase ties that is known for one
role, and "someone else" leaving the one other role a name has."""

from __future__ import annotations

from . import kind_and_names, reader_fixture

FILLER = "".join(f"Reel {i}|has_genre|Thriller\nReel {i}|directed_by|Someone {i % 7}\n" for i in range(60))
FILMS = FILLER + """\
Raising Cane|directed_by|Brian Palma
Raising Cane|has_genre|Thriller
Sisters Three|directed_by|Brian Palma
Sisters Three|has_genre|Thriller
Carried|directed_by|Brian Palma
Carried|has_genre|Horror
Casino Night|directed_by|Martin Scor
Casino Night|starred_actors|Robert Nero
Good Fellows|directed_by|Martin Scor
Good Fellows|starred_actors|Robert Nero
Cape Dread|directed_by|Martin Scor
Cape Dread|starred_actors|Nick Nolan
Cape Dread|has_tags|robert nero
Age Innocence|directed_by|Martin Scor
Age Innocence|starred_actors|Daniel Lewis
Color Money|starred_actors|Martin Scor
Color Money|directed_by|Someone 1
Heat Wave|starred_actors|Robert Nero
Heat Wave|directed_by|Someone 2
True Love|written_by|Quentin Tara
Natural Killers|written_by|Quentin Tara
Pulp Story|written_by|Quentin Tara
Pulp Story|directed_by|Quentin Tara
Hell Road|written_by|Larry Bish
Hell Road|directed_by|Larry Bish
Hell Road|has_tags|quentin tara
"""

reader = reader_fixture(FILMS, "names")


def test_a_lower_case_tag_is_not_the_capitalised_name_the_question_writes(reader):
    """"Robert Nero" is the actor, not the tag "robert nero" (the tagged "Cape Dread" is not his);
    with no phrase saying how, each name takes the side most of its facts are on: Scor directs, Nero acts."""
    kind, names = kind_and_names(reader, "Name the pictures Martin Scor made with Robert Nero.")
    assert kind == "intersection" and names == ["Casino Night", "Good Fellows"]


def test_someone_else_leaves_the_one_other_role_the_name_has(reader):
    """Tara writes and directs: "Tara scripts someone else directed" are the films Tara wrote and
    did not direct, not the film tagged with Tara's name."""
    kind, names = kind_and_names(reader, "What Quentin Tara scripts did someone else direct?")
    assert kind == "negation" and names == ["Natural Killers", "True Love"]


def test_a_plural_of_a_category_filters_the_answers(reader):
    kind, names = kind_and_names(reader, "Find the thrillers that Brian Palma directed.")
    assert kind == "intersection" and names == ["Raising Cane", "Sisters Three"]


def test_a_category_plural_right_after_a_name_is_a_word_of_its_own(reader):
    """"Brian Palma thrillers": two names side by side are usually one name the KG lacks, but a
    category's lower-case plural is no part of a name."""
    kind, names = kind_and_names(reader, "Which Brian Palma thrillers are there?")
    assert kind == "intersection" and names == ["Raising Cane", "Sisters Three"]


def test_one_name_and_two_of_its_facts_joined_by_or_or_and(reader):
    """"everything X wrote or directed": what either relation reaches from the one name (the opening
    "Everything" is no film of that name); "wrote and directed": what both reach; counted too."""
    kind, names = kind_and_names(reader, "Everything Quentin Tara either wrote or directed")
    assert kind == "union" and names == ["Natural Killers", "Pulp Story", "True Love"]
    kind, names = kind_and_names(reader, "Which films did Quentin Tara write and direct?")
    assert kind == "intersection" and names == ["Pulp Story"]
    found = reader.read("How many films did Quentin Tara write or direct?")
    assert found is not None and found.kind == "count" and int(found.result.value) == 3
    assert reader.read("Which films did Quentin Tara write?") is None  # one fact: a chain


PEAKS = """\
Mont Blanc|mountain range|Alps
Matterhorn|mountain range|Alps
Eiger|mountain range|Alps
Aneto|mountain range|Pyrenees
Mont Blanc|belongs to|France
Matterhorn|belongs to|Switzerland
Eiger|belongs to|Switzerland
"""

peaks = reader_fixture(PEAKS, "peaks")


def test_a_verb_after_the_counted_noun_is_no_step_from_the_answers(peaks):
    """"how many mountains belong to the Alps": "belong" says how the mountains relate to the Alps,
    not a step from them to what they belong to (two countries)."""
    found = peaks.read("how many mountains belong to the Alps")
    assert found is not None and found.kind == "count" and int(found.result.value) == 3


YEARS = """\
First Light|directed_by|Ann Lee
First Light|release_year|1995
First Light|has_tags|space
Second Wind|directed_by|Ann Lee
Second Wind|release_year|2005
Second Wind|has_tags|drama
Third Act|directed_by|Ann Lee
Third Act|release_year|2010
Third Act|has_tags|2001
Third Act|has_tags|sequel
Other Film|directed_by|Bo Park
Other Film|release_year|2003
Other Film|has_tags|space
"""

years = reader_fixture(YEARS, "years")


def test_a_value_compared_with_no_phrase_takes_the_side_whose_values_mostly_are_such(years):
    """"came out after 2000" names no relation: the year is compared on the side whose values are
    years (the release year), not on one where a value happens to read as a year (a tag "2001")."""
    kind, names = kind_and_names(years, "Which of Ann Lee's films came out after 2000?")
    assert kind == "comparison" and names == ["Second Wind", "Third Act"]


DATES = """\
Ada Orm|award received|Lumen Prize
Ada Orm|date of death|1995-03-02
Bo Lind|award received|Lumen Prize
Bo Lind|date of death|1997-06-01
Cy Park|award received|Lumen Prize
Cy Park|date of death|2001-01-01
Di Roe|award received|Other Prize
Di Roe|date of death|2003-05-05
"""

dates = reader_fixture(DATES, "dates")


def test_a_year_compared_with_dates_means_the_years_bounds(dates):
    """"died 1997 or later" on a side of dates: on or after 1997-01-01; "after 1997": after its
    last day; "before 1997": before its first."""
    def read(question: str) -> list[str]:
        kind, names = kind_and_names(dates, question)
        assert kind == "comparison", question
        return names

    assert read("Who has the award received Lumen Prize and a date of death 1997 or later?") == ["Bo Lind", "Cy Park"]
    assert read("Who has the award received Lumen Prize and a date of death after 1997?") == ["Cy Park"]
    assert read("Who has the award received Lumen Prize and a date of death before 1997?") == ["Ada Orm"]


SPLIT = """\
Film A|directed_by|Kim Dahl
Film B|directed_by|Kim Dahl
Film C|directed_by|Kim Dahl
Film D|starred_actors|Kim Dahl
Film E|starred_actors|Kim Dahl
Film D|starred_actors|Lou Ness
Film A|starred_actors|Lou Ness
"""

split = reader_fixture(SPLIT, "split")


def test_a_name_split_between_roles_is_known_for_none(split):
    """Three films directed and two acted in: no side holds two thirds of Kim Dahl's facts, so a
    question that says neither is not read as one of them."""
    found = split.read("Name the pictures Kim Dahl made with Lou Ness.")
    assert found is None or sorted(split.kg.names[i] for i in found.result.value.tolist()) != ["Film A"]


ART = """\
Still Life|movement|impressionism
Still Life|country of origin|Belora
Water Lilies|movement|impressionism
Water Lilies|country of origin|Franor
Cubist Head|movement|cubism
Cubist Head|country of origin|Belora
"""

art = reader_fixture(ART, "art")


def test_a_relation_phrase_right_before_a_thing_introduces_it_and_asks_no_step(art):
    """"has the *movement* impressionism": the phrase names impressionism's relation to the answer,
    not a step from the answers to their movement."""
    kind, names = kind_and_names(art, "which item that has the movement impressionism also has Belora as its "
                                      "country of origin?")
    assert kind == "intersection" and names == ["Still Life"]


def test_two_verbs_denied_or_two_nouns_are_no_joined_facts(reader):
    """"neither wrote nor directed" denies both (no intersection of them); "the *writers and
    directors* of X" are nouns, everyone on either list (no intersection of the name's facts); a
    value besides the verbs is another condition the joined facts would drop."""
    for question in ("Which films did Quentin Tara neither write nor direct?",
                     "Who were the writers and directors of Hell Road?",
                     "Which films did Quentin Tara write or direct in 1994?"):
        found = reader.read(question)
        assert found is None or found.kind not in ("intersection", "union"), question


ROLES = FILMS + """\
Age Innocence|starred_actors|Robert Nero
Age Innocence|has_genre|Drama
Everything|directed_by|Someone 3
"""

roles_reader = reader_fixture(ROLES, "names-roles")


def test_a_noun_after_as_its_is_a_step_where_no_name_stands_before_as(roles_reader):
    """"what did the film starring A and B have *as its director*": the step from the film (no name
    before "as"), unlike "have X as an official language"."""
    kind, names = kind_and_names(roles_reader,
                                 "Who did the film starring Robert Nero and Daniel Lewis have as its director?")
    assert kind == "two-anchor-hop" and names == ["Martin Scor"]


def test_an_opening_everything_before_a_name_is_no_film_of_that_name(roles_reader):
    """"*Everything* Quentin Tara wrote or directed": the pronoun is the answer set, not the film
    "Everything" the KG has."""
    kind, names = kind_and_names(roles_reader, "Everything Quentin Tara either wrote or directed")
    assert kind == "union" and names == ["Natural Killers", "Pulp Story", "True Love"]


BOOKS = "".join(f"Tome {i}|has_genre|{'thriller' if i % 2 else 'romance'}\nTome {i}|written_by|Pen {i % 5}\n"
                for i in range(40)) + """\
Cold Harbour|written_by|Ida Holt
Cold Harbour|has_genre|thriller
Night Desk|written_by|Ida Holt
Night Desk|has_genre|thriller
Summer Lane|written_by|Ida Holt
Summer Lane|has_genre|romance
"""

books = reader_fixture(BOOKS, "names-books")


def test_a_plural_of_a_lower_case_category_in_a_kg_of_capitalised_names(books):
    """The genres are written in lower case, the books and people with capitals: "thrillers" is the
    genre "thriller" (a value many books share), a condition like a capitalised category's plural."""
    kind, names = kind_and_names(books, "Which thrillers did Ida Holt write?")
    assert kind == "intersection" and names == ["Cold Harbour", "Night Desk"]
    kind, names = kind_and_names(books, "list the books written by Ida Holt, excluding thrillers")
    assert kind == "negation" and names == ["Summer Lane"]
