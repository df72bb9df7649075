"""The WordNet lexicon: base forms, synonyms and near links, read from the database files as
shipped (and as a hand-made database with either line ending), and no lexicon without data."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.lexicon import NEAR, SYNONYM, Lexicon, wordnet_dir

HEADER = "  1 This is a licence line, as the real files begin  \n"


LINE = 200  # every data line padded to this many bytes, "\n" included: offsets are easy to write


def _database(root: Path, newline: str) -> Path:
    """A four-synset WordNet: verb {border, adjoin}, derived from the noun {boundary}; noun
    {spouse, partner} and its hyponym {wife}; the noun exception "wives" -> "wife". Byte offsets as
    the format has them: counted with "\n" line ends, whatever the file's own line ends are."""
    synsets = {  # part of speech -> [(words, [(pointer symbol, its part of speech, its synset's place)])]
        "verb": [("border adjoin", [("+", "n", 0)])],
        "noun": [("boundary", [("+", "v", 0)]), ("spouse partner", [("~", "n", 2)]), ("wife", [("@", "n", 1)])],
    }
    offsets = {pos[0]: [len(HEADER) + LINE * i for i in range(len(entries))] for pos, entries in synsets.items()}
    root.mkdir(parents=True, exist_ok=True)
    for pos, entries in synsets.items():
        offset = offsets[pos[0]]
        data, index = [], []
        for i, (words, pointers) in enumerate(entries):
            members = " ".join(f"{w} 0" for w in words.split())
            links = " ".join(f"{symbol} {offsets[p][j]:08d} {p} 0000" for symbol, p, j in pointers)
            line = f"{offset[i]:08d} 00 {pos[0]} {len(words.split()):02x} {members} {len(pointers):03d} {links}" \
                   f" | gloss of {words.split()[0]}"
            data.append(line.ljust(LINE - 1) + "\n")
            index += [f"{w} {pos[0]} 1 0 1 0 {offset[i]:08d}\n" for w in words.split()]
        (root / f"data.{pos}").write_bytes((HEADER + "".join(data)).replace("\n", newline).encode())
        (root / f"index.{pos}").write_text(HEADER + "".join(sorted(index)), encoding="utf-8")
    for pos in ("adj", "adv"):
        (root / f"index.{pos}").write_text(HEADER, encoding="utf-8")
        (root / f"data.{pos}").write_text(HEADER, encoding="utf-8")
    (root / "noun.exc").write_text("wives wife\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_hand_made_database_reads_the_same_with_either_line_end(tmp_path: Path, newline: str) -> None:
    lexicon = Lexicon(_database(tmp_path / "wn", newline))
    assert lexicon.relatedness("border", "adjoin") == SYNONYM
    assert lexicon.relatedness("adjoins", "bordered") == SYNONYM  # base forms on both sides
    assert lexicon.relatedness("boundary", "border") == NEAR  # derived
    assert lexicon.base_forms("wives") == [("n", "wife")]  # an irregular plural
    assert lexicon.relatedness("wives", "spouse") == 0.0  # a broader word is no stand-in
    assert lexicon.relatedness("wife", "border") == 0.0
    assert lexicon.senses("wife")[0].gloss == "gloss of wife"


def test_no_database_means_no_links() -> None:
    lexicon = Lexicon(None)
    assert not lexicon.available
    assert lexicon.base_forms("tongues") == [] and lexicon.relatedness("border", "adjoin") == 0.0


def test_a_folder_named_by_the_environment_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _database(tmp_path / "wn", "\n")
    monkeypatch.setenv("KGRAG_WORDNET", str(root))
    assert wordnet_dir() == root


shipped = pytest.mark.skipif(Lexicon.load().root is None, reason="no WordNet database installed")


@shipped
def test_the_shipped_wordnet_relates_the_words_questions_use_for_relation_names() -> None:
    lexicon = Lexicon.load()
    assert ("n", "tongue") in lexicon.base_forms("tongues") and ("v", "supervise") in lexicon.base_forms("supervised")
    assert ("n", "child") in lexicon.base_forms("children")  # an exception, not a stripped ending
    assert lexicon.relatedness("border", "adjoins") == SYNONYM
    assert lexicon.relatedness("prize", "award") == SYNONYM
    assert lexicon.relatedness("nation", "country") == SYNONYM
    assert lexicon.relatedness("wrote", "writer") == NEAR  # derived, after "wrote" -> "write"
    assert lexicon.relatedness("film", "capital") == 0.0
    # a question's word in its first sense only, and no broader or narrower word
    assert lexicon.relatedness("words", "language") == 0.0 and lexicon.relatedness("person", "actors") == 0.0


def test_a_hand_made_database_knows_which_words_are_derived_from_which(tmp_path: Path) -> None:
    lexicon = Lexicon(_database(tmp_path / "wn", "\n"))
    assert lexicon.family("bordered") == {"border", "boundary"}  # its base form and what derives from it
    assert lexicon.same_family("boundary", "borders") is True
    assert lexicon.same_family("wife", "border") is False
    assert lexicon.same_family("wife", "zebra") is None  # WordNet does not know "zebra" here
    assert Lexicon(None).same_family("border", "boundary") is None


@shipped
def test_the_shipped_wordnet_tells_a_derived_word_from_a_shared_spelling() -> None:
    """What a prefix of letters cannot tell: "director" comes from "direct", "partner" does not
    come from "part", nor "husband" from "band"; a compound's last word counts ("screenwriter")."""
    lexicon = Lexicon.load()
    for a, b in [("directed", "director"), ("children", "child"), ("played", "player"), ("starred", "star"),
                 ("screenwriter", "written"), ("songwriter", "wrote"), ("countries", "country")]:
        assert lexicon.same_family(a, b) is True, (a, b)
    for a, b in [("partner", "part"), ("husband", "band"), ("employee", "employer")]:
        assert lexicon.same_family(a, b) is False, (a, b)
    assert lexicon.same_family("kgragword", "word") is None


@shipped
def test_a_person_nouns_broader_words_stand_in_for_it() -> None:
    """A kin or role word's broader words, two levels up, stand in for it in a question ("son" →
    "child", "husband" → "spouse" before "relative"); not other nouns' ("words" is no "language")
    and not "person" itself."""
    lexicon = Lexicon.load()
    assert ("child", 2) in lexicon.broader("sons") and ("parent", 1) in lexicon.broader("mother")
    assert lexicon.relatedness("son", "children") > 0 and lexicon.relatedness("father", "parents") == NEAR
    assert lexicon.relatedness("husband", "spouse") > lexicon.relatedness("husband", "relative") > 0
    assert lexicon.broader("words") == [] and lexicon.broader("film") == []
    assert "person" not in {w for w, _ in lexicon.broader("student")}


@shipped
def test_an_adjective_pertains_to_the_noun_it_is_made_from() -> None:
    lexicon = Lexicon.load()
    assert lexicon.pertains_to("African") == ["africa"] and lexicon.pertains_to("South American") == ["south america"]
    assert lexicon.pertains_to("French")[:2] == ["france", "french republic"]  # each noun once
    assert lexicon.pertains_to("Nolan") == [] and Lexicon(None).pertains_to("African") == []


@shipped
def test_a_proper_noun_is_an_instance_of_a_kind() -> None:
    lexicon = Lexicon.load()
    assert lexicon.instance_of("Amazon") == ["river"] and "mountain peak" in lexicon.instance_of("Everest")
    assert lexicon.stands_for("Amazon") == ["Amazon river", "river Amazon"]
    assert lexicon.stands_for("African") == ["africa"] and lexicon.instance_of("film") == []


@shipped
def test_a_practitioner_or_manner_word_derives_the_value_it_stands_for() -> None:
    """Derivations written with the word's stem: the field of a practitioner, the noun of a manner
    word; not the word itself, a synonym of a derived verb ("film": shoot), nor a verb's inflection."""
    lexicon = Lexicon.load()
    assert lexicon.derived_forms("cardiologists") == ["cardiology"]
    assert lexicon.derived_forms("publicly") == ["public"] and lexicon.derived_forms("orally") == ["oral"]
    assert lexicon.derived_forms("dizzy") == ["dizziness"]
    assert lexicon.derived_forms("film") == [] and lexicon.derived_forms("shipped") == []
    assert Lexicon(None).derived_forms("cardiologists") == []
