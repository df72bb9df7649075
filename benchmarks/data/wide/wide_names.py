"""Entity types of the wide dev KG and made-up names for their entities (standard library only).

``TYPES`` maps a type to (its word in questions, the plural, how many entities, how skewed the
choice of an entity of this type as a relation's value is). ``name(kind, rng)`` makes one
candidate name of a type from the word lists below; `make_wide.py` keeps the unique ones.
"""

from __future__ import annotations

import random


def _words(text: str, sep: str | None = None) -> list[str]:
    """A word list written as one string."""
    return text.split(sep)


def _plural(noun: str) -> str:
    if noun.endswith("f"):
        return noun[:-1] + "ves"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


# type: (word, plural, entities, skew: 1.0 a hub type whose first entities take most edges, 0.5 mild)
TYPES: dict[str, tuple[str, str, int, float]] = {
    "human": ("person", "people", 820, 0.4),
    "city": ("city", "cities", 212, 0.7),
    "region": ("region", "regions", 40, 0.6),
    "country": ("country", "countries", 40, 1.1),
    "continent": ("continent", "continents", 7, 1.0),
    "organization": ("organization", "organizations", 68, 0.7),
    "company": ("company", "companies", 136, 0.6),
    "university": ("university", "universities", 54, 0.7),
    "film": ("film", "films", 170, 0.5),
    "television series": ("television series", "television series", 48, 0.5),
    "book": ("book", "books", 144, 0.5),
    "periodical": ("periodical", "periodicals", 36, 0.6),
    "album": ("album", "albums", 120, 0.5),
    "band": ("band", "bands", 68, 0.6),
    "record label": ("record label", "record labels", 28, 0.9),
    "sports team": ("sports team", "sports teams", 54, 0.6),
    "sports league": ("sports league", "sports leagues", 14, 0.8),
    "river": ("river", "rivers", 40, 0.6),
    "lake": ("lake", "lakes", 28, 0.6),
    "mountain": ("mountain", "mountains", 40, 0.6),
    "award": ("award", "awards", 48, 0.8),
    "language": ("language", "languages", 30, 1.1),
    "genre": ("genre", "genres", 44, 1.0),
    "occupation": ("occupation", "occupations", 48, 1.0),
    "academic discipline": ("academic discipline", "academic disciplines", 40, 0.9),
    "industry": ("industry", "industries", 24, 0.9),
    "political party": ("political party", "political parties", 40, 0.7),
    "ship": ("ship", "ships", 40, 0.5),
    "building": ("building", "buildings", 76, 0.6),
    "software": ("software", "software", 60, 0.7),
    "disease": ("disease", "diseases", 38, 0.6),
    "chemical compound": ("chemical compound", "chemical compounds", 52, 0.7),
    "species": ("species", "species", 76, 0.6),
    "painting": ("painting", "paintings", 68, 0.5),
    "event": ("event", "events", 60, 0.5),
    "musical instrument": ("musical instrument", "musical instruments", 24, 0.9),
}

FIRST = _words("Ada Alma Anton Aria Ayla Basil Bruno Celia Cyrus Dara Dmitri Edda Elias Emre Esme Farah Felix Freya "
               "Gideon Greta Hana Hugo Ilse Imran Ines Ivo Jonas Juno Kasia Kenji Lars Leona Lina Luca Mara Mateo "
               "Mila Nadia Nico Nora Odile Omar Otto Pia Priya Quentin Rafael Rhea Rosa Saba Selma Soren Talia Teo "
               "Uma Vera Viktor Wanda Yara Yusuf Zelda Zoran Amara Benedikt Clara Dario Elif Fumiko Goran Halle "
               "Iris Joaquin Kira Leif")
ONSET = _words("Ab Al Ar Bal Bel Bor Cal Cor Dal Dor El Er Fal Fen Gal Gor Hal Har Is Jor Kal Kel Lor Mar Mor Nal "
               "Nor Or Pel Quen Ros Sal Sel Tal Tor Ul Val Ves Wen Yar Zan Brin Cren Drav Esk Fros Grev Hesk Lun "
               "Thal Vor")
MID = _words("a e i o u an en or il ar el in ad er os") + [""] * 4
TOWN_END = _words("ford ton burg vale mouth field haven stead wick mere dale holm port gate more crest bridge ley")
LAST_END = _words("berg son dottir ski ova ez ani ström etti ard ens ley man ow ik en ur as ot is")
COUNTRY_END = _words("ia land stan ora avia esh ica any ar onia")
LANG_END = _words("ish ese i an ic")
ADJ = _words("Silent Golden Broken Hidden Burning Crimson Distant Frozen Gentle Hollow Iron Last Lonely Midnight "
             "Northern Pale Quiet Restless Scarlet Secret Silver Sleeping Stolen Summer Tender Twisted Velvet "
             "Wandering White Wild Winter Amber Bitter Bright Cold Dark Electric Fallen Glass Green Lost Lucky Open "
             "Paper Red Salt Second Shadow Sudden")
NOUN = _words("Harbor Garden River Mirror Lantern Orchard Signal Empire Meadow Horizon Compass Tide Bridge Island "
              "Engine Feather Crown Station Canyon Letter Window Dream Shore Forest Harvest Ember Echo Voyage "
              "Citadel Promise Kingdom Circus Fortune Storm Orbit Season Thread Ladder Prairie Tower Avenue Anchor "
              "Beacon Desert Fever Garland Machine Passage Quarry Raven Saint Silence Spiral Thunder Valley Wolf")
MASCOT = _words("Hawks Lions Rovers Comets Wolves Falcons Bears Pilots Stallions Mariners Giants Titans Sparks Owls")
PAPER = _words("Herald Gazette Review Journal Courier Observer Quarterly Tribune Chronicle Dispatch Monthly Ledger")
FIRM = _words("Industries Systems Holdings Motors Foods Labs Group Logistics Energy Pharma Textiles Airlines Bank "
              "Electronics Mining Media Shipping")
SOFT = _words("base forge kit flow desk script lang db view sync mail cad stack")
PARTY = _words("Democratic Liberal Progressive National People's Green Social Conservative Free Republican United "
               "Workers' Agrarian Civic Reform Christian Pirate")
PARTY_KIND = _words("Party Alliance Union Movement Front League Congress")
SPORT = _words("Football Basketball Hockey Rugby Volleyball Handball Baseball Cricket")
CONTINENTS = ["Aurelia", "Boreasia", "Caldera Major", "Meridia", "Nortalis", "Oceanis", "Sudmark"]
GENRES = _words("drama, comedy, thriller, horror, science fiction, fantasy, crime fiction, film noir, "
                "documentary, western, musical, romance, satire, war film, animation, jazz, blues, "
                "hard rock, punk rock, synth-pop, folk music, hip hop, techno, ambient music, opera, "
                "soul music, heavy metal, bluegrass, gospel music, reggae, impressionism, cubism, "
                "surrealism, expressionism, baroque, romanticism, realism, poetry, short story, memoir, "
                "epic poetry, detective fiction, historical novel, adventure", ", ")
OCCUPATIONS = _words("actor, painter, physician, architect, engineer, novelist, poet, composer, singer, "
                     "guitarist, drummer, film director, screenwriter, journalist, photographer, politician, "
                     "lawyer, judge, diplomat, economist, physicist, chemist, biologist, mathematician, "
                     "historian, philosopher, sculptor, dancer, choreographer, footballer, "
                     "basketball player, cyclist, swimmer, sailor, pilot, chef, nurse, teacher, librarian, "
                     "entrepreneur, banker, astronomer, geologist, botanist, translator, illustrator, "
                     "film producer, conductor", ", ")
DISCIPLINES = _words("physics, chemistry, biology, mathematics, history, philosophy, economics, linguistics, "
                     "sociology, psychology, astronomy, geology, botany, zoology, medicine, law, "
                     "computer science, political science, anthropology, archaeology, musicology, "
                     "art history, literary studies, ecology, genetics, statistics, engineering, "
                     "architecture, theology, oceanography, meteorology, neuroscience, pharmacology, "
                     "epidemiology, materials science, cryptography, logic, geography, demography, agronomy", ", ")
INDUSTRIES = _words("automotive industry, banking, mining, retail, telecommunications, aviation, "
                    "shipbuilding, publishing, pharmaceutical industry, textile industry, food industry, "
                    "energy industry, construction, insurance, tourism, logistics, software industry, "
                    "film industry, music industry, steel industry, chemical industry, agriculture, fishing, "
                    "forestry", ", ")
INSTRUMENTS = _words("piano, violin, cello, double bass, flute, clarinet, oboe, bassoon, trumpet, trombone, "
                     "tuba, french horn, saxophone, harp, guitar, banjo, mandolin, accordion, organ, "
                     "harpsichord, drum kit, xylophone, sitar, bagpipes", ", ")
FIXED = {"continent": CONTINENTS, "genre": GENRES, "occupation": OCCUPATIONS, "academic discipline": DISCIPLINES,
         "industry": INDUSTRIES, "musical instrument": INSTRUMENTS}


def _root(rng: random.Random) -> str:
    return rng.choice(ONSET) + rng.choice(MID)


def _town(rng: random.Random) -> str:
    return _root(rng) + rng.choice(TOWN_END)


def _last(rng: random.Random) -> str:
    return _root(rng) + rng.choice(LAST_END)


def _pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def name(kind: str, rng: random.Random) -> str:
    """One candidate name of an entity of type ``kind`` (the caller drops repeats)."""
    a, n, n2, town, last = rng.choice(ADJ), rng.choice(NOUN), rng.choice(NOUN), _town(rng), _last(rng)
    makers = {
        "human": lambda: f"{rng.choice(FIRST)} {last}",
        "city": lambda: town if rng.random() < 0.85 else f"{_pick(rng, 'Port', 'New', 'Upper', 'Saint')} {town}",
        "region": lambda: _pick(rng, f"{_root(rng)}shire", f"{town} Province", f"North {town}", f"{_root(rng)} Valley"),
        "country": lambda: _root(rng) + rng.choice(COUNTRY_END),
        "organization": lambda: _pick(rng, f"{town} Society", f"{a} {n} Foundation", f"Council of {town}",
                                      f"{last} Institute", f"{n} Trust"),
        "company": lambda: f"{_pick(rng, _root(rng) + 'co', last, n, town)} {rng.choice(FIRM)}",
        "university": lambda: _pick(rng, f"University of {town}", f"{last} University",
                                    f"{town} Institute of Technology", f"{town} College"),
        "film": lambda: _pick(rng, f"The {a} {n}", f"{n} of {_plural(n2)}", f"{a} {n}"),
        "television series": lambda: _pick(rng, f"{n} Street", f"The {last}s", f"{town} {n}", f"{n} & {n2}"),
        "book": lambda: _pick(rng, f"The {n} of {last}", f"A {a} {n}", f"{n} and {n2}", f"Letters from {town}"),
        "periodical": lambda: f"The {town} {rng.choice(PAPER)}",
        "album": lambda: _pick(rng, f"{a} {_plural(n)}", f"{n} Sessions", f"Songs of the {n}", f"{a} {n2} EP"),
        "band": lambda: _pick(rng, f"The {a} {_plural(n)}", f"{n} {n2}", f"{a} {n} Orchestra"),
        "record label": lambda: _pick(rng, f"{_root(rng)} Records", f"{n} Music", f"{a} Sound"),
        "sports team": lambda: _pick(rng, f"{town} {rng.choice(MASCOT)}", f"FC {town}", f"{town} United"),
        "sports league": lambda: f"{_pick(rng, a, 'National', 'Premier', 'Continental')} {rng.choice(SPORT)} League",
        "river": lambda: f"{_root(rng)}{_pick(rng, 'a', 'e', 'in', 'ar', '')} River",
        "lake": lambda: f"Lake {_root(rng)}{_pick(rng, 'a', 'en', 'ine', 'o')}",
        "mountain": lambda: _pick(rng, f"Mount {_root(rng)}", f"{_root(rng)} Peak", f"{_root(rng)}horn"),
        "award": lambda: _pick(rng, f"{last} Prize", f"{last} Medal", f"Order of the {n}", f"{a} {n} Award"),
        "language": lambda: _root(rng) + rng.choice(LANG_END),
        "political party": lambda: f"{rng.choice(PARTY)} {rng.choice(PARTY_KIND)}"
                                   + _pick(rng, "", f" of {_root(rng)}{rng.choice(COUNTRY_END)}"),
        "ship": lambda: _pick(rng, f"MS {_root(rng)}a", f"SS {last}", f"RV {n}", f"MV {a} {n}"),
        "building": lambda: _pick(rng, f"{last} Tower", f"{town} Central Station", f"{n} Hall", f"{last} Museum",
                                  f"{town} Arena", f"{town} Cathedral", f"{last} Theatre"),
        "software": lambda: (_root(rng) + rng.choice(SOFT)).capitalize(),
        "disease": lambda: _pick(rng, f"{last} syndrome", f"{_root(rng).lower()}itis", f"{_root(rng).lower()}osis",
                                 f"{last}'s disease"),
        "chemical compound": lambda: _pick(rng, f"{_root(rng).lower()}ine", f"{_root(rng).lower()}ol",
                                           f"{_root(rng).lower()}ic acid", f"{_root(rng).lower()}ium chloride"),
        "species": lambda: f"{_root(rng)}{_pick(rng, 'us', 'a', 'ia', 'ops', 'ix')} "
                           f"{_root(rng).lower()}{_pick(rng, 'ensis', 'ii', 'ata', 'ina')}",
        "painting": lambda: _pick(rng, f"Portrait of {rng.choice(FIRST)}", f"{n} at Dusk", f"Still Life with {n}",
                                  f"View of {town}", f"{a} {n} in {n2} Light"),
        "event": lambda: _pick(rng, f"{rng.randint(1850, 2020)} {town} Summit", f"Battle of {town}",
                               f"{town} Festival of the {n}", f"{rng.randint(1900, 2022)} {town} Marathon"),
    }
    return makers[kind]()
