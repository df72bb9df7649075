"""Which of a question's things it names as such, and which no reading may drop: a lower-case word
the linker found may be a name ("hip hop", "natural grass", "kuwait") or a kind word ("a *film*",
"which *illustrator*"), told apart by how the KG writes its names and by the words around it."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..claims import ClaimVerifier
from ..claims.reading import ClaimReading, Thing
from ..lexicon import Lexicon
from ..text import without_disambiguator, writes_names_in_lower_case, written_as
from . import kinds, roles
from .cues import joined

__all__ = ["INTRODUCED_GAP", "NamedThings"]

INTRODUCED_GAP = 2  # tokens between a relation's phrase and the lower-case thing it introduces


class NamedThings:
    """Reads names on one KG (`ConditionReader.names`)."""

    def __init__(self, verifier: ClaimVerifier) -> None:
        self.verifier = verifier

    @cached_property
    def lower_case_names(self) -> bool:
        """Most of the KG's names are written in lower case ("france", "new_york"): a lower-case
        mention written as the KG writes it is then a name, not a kind word."""
        return writes_names_in_lower_case(self.verifier.kg.names)

    @property
    def _lexicon(self) -> Lexicon | None:
        return self.verifier.scorer.names.lexicon

    def named(self, reading: ClaimReading) -> list[Thing]:
        """The things a question names as such, in its order: not a kind word ("what is a film ...")
        unless written as a KG of lower-case names writes a name ("who is a midfielder at C"), and apart
        from each other (two names side by side are more likely one name the KG lacks than two anchors;
        a category's plural is no part of a name: "Clint Eastwood *westerns*")."""
        def as_written(t: Thing) -> bool:  # the name, or its plural ("defenders"), or a category's ("thrillers"),
            return (self.lower_case_names and (t.text == t.name or written_as(  # or a category's name of words
                t.text, without_disambiguator(t.name), plural_only=True))) or self.category_plural(t) \
                or self.category_of_words(t)

        named = sorted((t for t in reading.things
                        if as_written(t) or kinds.says_of_the_answers(reading, t, self._lexicon)  # "*romance* films"
                        or (not t.indefinite or roles.value_before_its_noun(  # "with *a hybrid grass* surface"
                            self.verifier.schema, reading, t, self.verifier.weights.threshold))
                        and (not t.optional or self.introduced(reading, t))),
                       key=lambda t: t.first_token)
        return [t for i, t in enumerate(named) if not any(  # but a category's plural is a word apart ("X *westerns*")
            (o.last_token == t.first_token or t.last_token == o.first_token)
            and not (self.category_plural(o) or self.category_plural(t)) for o in named[:i] + named[i + 1:])]

    def category_plural(self, thing: Thing) -> bool:
        """The plural of a category's name: a capitalised one (`roles.category_plural`), or, in a KG
        that writes names with capitals, a lower-case one (the linker links such a plural only for
        a category value: "*musicals*" for the genre "musical")."""
        return roles.category_plural(thing) or not self.lower_case_names and thing.name[:1].islower() and \
            written_as(thing.text, without_disambiguator(thing.name), plural_only=True)

    def spelled(self, thing: Thing) -> bool:
        """A thing no reading may drop: written with a capital where names are ("Burl Ives"), or
        as the KG writes it where names are lower case ("kuwait" for `kuwait_(country)`). A
        lower-case word that is only next to a phrase ("directed *the entity* that ...") may be a
        kind word."""
        if not thing.optional or self.category_plural(thing) or self.category_of_words(thing):
            return True
        return self.lower_case_names and written_as(thing.text, without_disambiguator(thing.name))

    def category_of_words(self, thing: Thing) -> bool:
        """A category's name of several words, written as the KG writes it but for case ("natural grass")."""
        return " " in thing.text.strip() and thing.text.lower() == thing.name.lower() \
            and self.verifier.kg.linker.is_category(thing.entity)

    def introduced(self, reading: ClaimReading, thing: Thing, partners: bool = True) -> bool:
        """A lower-case thing right after (or before) a phrase naming a relation it has ("has the
        tag denver", "famous among its imdb votes"), or joined by "and" / "or" to a thing that is
        named ("has both *business* and financial crisis among its tags"): an argument of that
        relation, not a kind word; or a value the answers have (`kinds.says_of_the_answers`)."""
        if kinds.says_of_the_answers(reading, thing, self._lexicon):
            return True
        sides = {r for r, _ in self.verifier.schema.sides_of(thing.entity)}
        for phrase in reading.phrases:
            gap = thing.first_token - phrase.last_token if phrase.last_token <= thing.first_token \
                else phrase.first_token - thing.last_token
            if 0 <= gap <= INTRODUCED_GAP and int(np.argmax(phrase.strength)) in sides:
                return True
        words = reading.words
        return partners and any(o is not thing and joined(o, thing, words)
                                and (not o.optional or self.introduced(reading, o, False)) for o in reading.things)
