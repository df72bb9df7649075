#!/usr/bin/env python3
"""Make a small made-up publishing knowledge graph (books, authors, publishers,
imprints, editors, translators, agents, prizes ...) and write it to kb.txt.

Standard library only, fixed seed: running it twice gives the same file.
One triple a line: head|relation|tail.  Relation labels are snake_case.
"""
import os
import random

SEED = 20240611
rng = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))

triples = []
seen_triples = set()
used_names = set()


def add(h, r, t):
    t = str(t)
    for x in (h, r, t):
        assert "|" not in x and "\n" not in x and x.strip() == x and x, (h, r, t)
    key = (h, r, t)
    if key not in seen_triples:
        seen_triples.add(key)
        triples.append(key)


def claim(name):
    assert name not in used_names, name
    used_names.add(name)
    return name


# ---------------------------------------------------------------- shared values
COUNTRIES = ["United Kingdom", "Ireland", "United States", "Canada", "France",
             "Germany", "Italy", "Spain", "Poland", "Japan", "Nigeria", "India",
             "Sweden", "Norway", "Brazil", "Argentina", "Mexico", "Netherlands"]
COUNTRY_LANG = {"United Kingdom": "English", "Ireland": "English",
                "United States": "English", "Canada": "English", "France": "French",
                "Germany": "German", "Italy": "Italian", "Spain": "Spanish",
                "Poland": "Polish", "Japan": "Japanese", "Nigeria": "English",
                "India": "English", "Sweden": "Swedish", "Norway": "Norwegian",
                "Brazil": "Portuguese", "Argentina": "Spanish", "Mexico": "Spanish",
                "Netherlands": "Dutch"}
LANGUAGES = ["English", "French", "German", "Italian", "Spanish", "Polish",
             "Japanese", "Swedish", "Norwegian", "Portuguese", "Dutch", "Korean",
             "Catalan", "Hindi"]
CITIES = {"United Kingdom": ["London", "Edinburgh", "Manchester"],
          "Ireland": ["Dublin"], "United States": ["New York", "Boston", "Chicago"],
          "Canada": ["Toronto"], "France": ["Paris", "Lyon"], "Germany": ["Berlin", "Munich"],
          "Italy": ["Milan", "Turin"], "Spain": ["Madrid", "Barcelona"], "Poland": ["Warsaw"],
          "Japan": ["Tokyo"], "Nigeria": ["Lagos"], "India": ["Mumbai"],
          "Sweden": ["Stockholm"], "Norway": ["Oslo"], "Brazil": ["São Paulo"],
          "Argentina": ["Buenos Aires"], "Mexico": ["Mexico City"], "Netherlands": ["Amsterdam"]}
GENRES = ["literary fiction", "crime fiction", "historical fiction", "science fiction",
          "fantasy", "horror", "romance", "thriller", "memoir", "biography", "poetry",
          "essays", "travel writing", "popular science", "narrative history",
          "graphic novel", "short stories", "picture book"]
NONFICTION = ["memoir", "biography", "essays", "travel writing", "popular science",
              "narrative history"]
FORMATS = ["hardcover", "paperback", "ebook", "audiobook"]
AUDIENCES = ["adult readers", "young adult readers", "middle grade readers", "young children"]

for v in COUNTRIES + LANGUAGES + GENRES + FORMATS + AUDIENCES:
    claim(v)
for cs in CITIES.values():
    for c in cs:
        claim(c)

# ---------------------------------------------------------------- person names
ENGLISH_FIRST = ["Margaret", "Thomas", "Eleanor", "James", "Harriet", "Oliver", "Rosalind",
                 "Daniel", "Imogen", "Patrick", "Clara", "Edmund", "Bridget", "Samuel",
                 "Vivian", "Nathaniel", "Agnes", "Callum", "Lydia", "Graham", "Frances",
                 "Owen", "Miriam", "Declan", "Hazel", "Jonah", "Tessa", "Walter", "Nora",
                 "Rupert", "Joan", "Felix", "Ada", "Henry", "Maeve", "Leonard", "Ruth",
                 "Marcus", "Delia", "Simon", "Beatrice", "Arthur", "Iris", "Gideon"]
ENGLISH_LAST = ["Harlow", "Whitcombe", "Ashby", "Pennington", "Okafor", "Brennan",
                "Calloway", "Marsh", "Thorne", "Fairweather", "Lockhart", "Quigley",
                "Sutherland", "Hale", "Merriman", "Dunmore", "Kavanagh", "Blackwood",
                "Ellery", "Prescott", "Rowe", "Garrity", "Holloway", "Vance", "Winslow",
                "Carver", "Doyle", "Fenwick", "Abernathy", "Lindley", "Mercer", "Hartigan",
                "Osei", "Achebe-Ward", "Nwosu", "Adeyemi", "Raman", "Iyer", "Chandra",
                "Mehta", "Sinclair", "Galbraith", "Redmond", "Castellane"]
POOLS = {
    "English": (ENGLISH_FIRST, ENGLISH_LAST),
    "French": (["Camille", "Étienne", "Juliette", "Benoît", "Mathilde", "Lucien", "Séverine",
                "Rémi", "Odile", "Gaspard", "Amélie", "Théo"],
               ["Vernet", "Lacroix", "Morel", "Delaunay", "Fabre", "Rousseau-Blanc", "Garnier",
                "Chevalier", "Marchand", "Lefort", "Bastide", "Aubert"]),
    "German": (["Katrin", "Matthias", "Annelie", "Jonas", "Friederike", "Lukas", "Ingrid",
                "Tobias", "Henrike", "Florian"],
               ["Hollenbeck", "Brandt", "Vogel", "Kessler", "Reinhardt", "Albers", "Winter",
                "Falkenrath", "Lindemann", "Sauer"]),
    "Italian": (["Giulia", "Matteo", "Chiara", "Lorenzo", "Francesca", "Davide", "Elena",
                 "Tommaso", "Silvia"],
                ["Ferrante-Bosi", "Marchetti", "Colombo", "Rinaldi", "Bellandi", "Serra",
                 "Fontana", "Galli", "Moretti"]),
    "Spanish": (["Lucía", "Javier", "Inés", "Mateo", "Carmen", "Álvaro", "Pilar", "Diego",
                 "Marisol", "Tomás", "Ximena", "Rodrigo"],
                ["Alcántara", "Ibarra", "Montero", "Salazar", "Quiroga", "Herrera", "Vidal",
                 "Cortázar-Ruiz", "Paredes", "Esquivel", "Ortega", "Villalba"]),
    "Polish": (["Agnieszka", "Tomasz", "Magdalena", "Piotr", "Zofia", "Krzysztof", "Ewa"],
               ["Nowicka", "Wiśniewski", "Zając", "Kowalczyk", "Brzezińska", "Lewandowski",
                "Sadowska"]),
    "Japanese": (["Haruki", "Yoko", "Kenji", "Aiko", "Sora", "Mariko", "Takeshi", "Emi"],
                 ["Tanabe", "Morikawa", "Ishida", "Kobayashi", "Nakamura", "Shirai",
                  "Hoshino", "Ueda"]),
    "Swedish": (["Astrid", "Magnus", "Linnea", "Henrik", "Sigrid", "Oskar", "Ebba"],
                ["Lindqvist", "Bergström", "Ekholm", "Sandberg", "Norén", "Wallin"]),
    "Norwegian": (["Ingvild", "Håkon", "Solveig", "Eirik", "Ragnhild", "Torstein"],
                  ["Fjellstad", "Haugen", "Bakke", "Solberg", "Nygård", "Strand"]),
    "Portuguese": (["Beatriz", "João", "Luana", "Rafael", "Helena", "Caio", "Mariana"],
                   ["Albuquerque", "Tavares", "Moura", "Figueiredo", "Castro", "Nogueira"]),
    "Dutch": (["Femke", "Joost", "Marieke", "Bram", "Sanne", "Pieter"],
              ["van der Laan", "de Vries", "Bakker", "Visser", "Mulder", "Hendriks"]),
    "Korean": (["Ji-woo", "Min-jun", "Seo-yeon", "Hyun-woo"],
               ["Park", "Han", "Yoon", "Seo"]),
}


def person_name(lang, style=None):
    first, last = POOLS[lang]
    for _ in range(1000):
        f = rng.choice(first)
        l = rng.choice(last)
        s = style if style is not None else rng.random()
        if s < 0.12:
            # initial(s) before the surname: "J. D. Harlow" / "M. Vernet"
            ini = f[0] + "."
            if rng.random() < 0.5:
                ini += " " + rng.choice("ABCDEFGHJKLMNPRSTW") + "."
            n = ini + " " + l
        elif s < 0.27:
            n = f + " " + rng.choice("ABCDEFGHJKLMNPRSTW") + ". " + l
        elif s < 0.33 and lang == "English":
            n = f + " " + rng.choice(last) + " " + l
        else:
            n = f + " " + l
        if n not in used_names:
            return claim(n)
    raise RuntimeError("name pool exhausted for " + lang)


def weighted_pick(items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


def lang_of_country(c):
    return COUNTRY_LANG[c]


# ---------------------------------------------------------------- publishers
PUBLISHERS = [
    # name, country, city, founded, staff
    ("Larkspur House", "United Kingdom", "London", 1846),
    ("Meridian Books", "United States", "New York", 1921),
    ("Colborne Press", "United Kingdom", "Edinburgh", 1889),
    ("Aldwych and Rowe", "United Kingdom", "London", 1903),
    ("Blue Heron Publishing", "Canada", "Toronto", 1968),
    ("Stonebridge Press", "United States", "Boston", 1874),
    ("Éditions Clairval", "France", "Paris", 1911),
    ("Éditions du Quai Noir", "France", "Lyon", 1987),
    ("Verlag Hollenbeck", "Germany", "Munich", 1899),
    ("Kranich Verlag", "Germany", "Berlin", 1994),
    ("Edizioni Lanterna", "Italy", "Milan", 1932),
    ("Editorial Marea Alta", "Spain", "Barcelona", 1956),
    ("Ediciones Cardo", "Argentina", "Buenos Aires", 1948),
    ("Wydawnictwo Brzask", "Poland", "Warsaw", 1991),
    ("Koyosha Shobo", "Japan", "Tokyo", 1925),
    ("Nordljus Förlag", "Sweden", "Stockholm", 1972),
    ("Fjordlys Forlag", "Norway", "Oslo", 2003),
    ("Ironwood Publishing", "United States", "Chicago", 1985),
    ("Quillmark Books", "United States", "New York", 2009),
    ("Saltmarsh Press", "Ireland", "Dublin", 1979),
    ("Redfern and Oakes", "United Kingdom", "Manchester", 1952),
    ("Harbourlight Publishers", "Nigeria", "Lagos", 1997),
    ("Ashgrove Books", "India", "Mumbai", 2001),
    ("Editora Cais", "Brazil", "São Paulo", 1964),
    ("Uitgeverij Zandpad", "Netherlands", "Amsterdam", 1938),
    ("Cinder Lane Press", "United States", "Boston", 2012),
]
GROUPS = [
    ("Tessellate Media Group", "United States", "New York", 1979),
    ("Northbound Holdings", "United Kingdom", "London", 1988),
    ("Grupo Alcázar", "Spain", "Madrid", 1971),
    ("Mosaik Medien", "Germany", "Berlin", 1996),
]
GROUP_OF = {
    "Meridian Books": "Tessellate Media Group", "Stonebridge Press": "Tessellate Media Group",
    "Ironwood Publishing": "Tessellate Media Group", "Blue Heron Publishing": "Tessellate Media Group",
    "Larkspur House": "Northbound Holdings", "Aldwych and Rowe": "Northbound Holdings",
    "Redfern and Oakes": "Northbound Holdings", "Colborne Press": "Northbound Holdings",
    "Editorial Marea Alta": "Grupo Alcázar", "Ediciones Cardo": "Grupo Alcázar",
    "Editora Cais": "Grupo Alcázar",
    "Verlag Hollenbeck": "Mosaik Medien", "Kranich Verlag": "Mosaik Medien",
    "Uitgeverij Zandpad": "Mosaik Medien",
}
pub_country = {}
for name, country, city, founded in PUBLISHERS + GROUPS:
    claim(name)
    pub_country[name] = country
    add(name, "headquartered_in", city)
    add(name, "founded_year", founded)
    big = name in GROUP_OF.values()
    add(name, "staff_count", rng.randint(900, 6000) if big else rng.randint(12, 850))
for p, g in GROUP_OF.items():
    add(p, "parent_company", g)

# imprints: every publisher has 1..4
IMPRINT_WORDS = ["Vintage Lane", "Nightjar", "Foxglove", "Pilot Light", "Harvest Moon",
                 "Kite", "Lodestar", "Bramble", "Ember", "Slate", "Tidewater", "Paper Boat",
                 "Orchard Gate", "Wren", "Compass Rose", "Quarry", "Little Acorn",
                 "Black Lantern", "Halcyon", "Meridian Modern", "Juniper", "Salt and Ink",
                 "Tern", "Ravenscroft", "Cobalt", "Mistral", "Larch", "Hearthstone",
                 "Sparrowhawk", "Inkwell", "Greenfinch", "Aurelia", "Northlight",
                 "Saffron", "Driftwood", "Tinderbox", "Marigold", "Blackthorn", "Firefly",
                 "Moorland", "Palisade", "Corvid", "Starling", "Clementine", "Ridgeway",
                 "Sycamore", "Pinecone", "Lighthouse", "Copperleaf", "Riverrun",
                 "Fable Street", "Hollow Oak", "Nimbus", "Redstart", "Quayside", "Bellwether",
                 "Skylark", "Tamarind", "Lamplight", "Windrush", "Gallowglass", "Kingfisher",
                 "Oxbow", "Mooncalf", "Pelican Yard", "Thistle", "Verdigris", "Half Moon",
                 "Amberley", "Cormorant", "Silverbirch", "Rookery", "Lanyard", "Catkin",
                 "Sandpiper"]
rng.shuffle(IMPRINT_WORDS)
imprints = []          # (imprint, publisher)
iw = iter(IMPRINT_WORDS)
PUB_WEIGHT = {}
for name, country, city, founded in PUBLISHERS:
    n_imp = 1 + (rng.random() < 0.7) + (rng.random() < 0.4) + (rng.random() < 0.15)
    if name in ("Larkspur House", "Meridian Books"):
        n_imp = 4
    for _ in range(n_imp):
        w = next(iw)
        suffix = rng.choice(["Books", "Press", "Editions", "", ""]) if country in (
            "United Kingdom", "United States", "Ireland", "Canada", "Nigeria", "India") else ""
        im = (w + " " + suffix).strip() if suffix else w
        if im in used_names:
            im = w + " Imprint"
        claim(im)
        imprints.append((im, name))
        add(im, "imprint_of", name)
    PUB_WEIGHT[name] = 6 if name in ("Larkspur House", "Meridian Books") else (
        3 if name in GROUP_OF else 1.5)

# ---------------------------------------------------------------- agencies, agents
AGENCIES = [("Ledger and Pike Literary", "London"), ("Blackstock Agency", "New York"),
            ("Wexford Literary Management", "Dublin"), ("Agence Marronnier", "Paris"),
            ("Literarische Agentur Falk", "Berlin"), ("Agenzia Portolano", "Milan"),
            ("Agencia Las Hojas", "Barcelona"), ("Tanuki Literary Office", "Tokyo"),
            ("Nordic Quill Agency", "Stockholm"), ("Copperline Agency", "Toronto"),
            ("Ibis Literary", "Lagos"), ("Harwood Ames Associates", "New York")]
agency_lang = {"London": "English", "New York": "English", "Dublin": "English",
               "Paris": "French", "Berlin": "German", "Milan": "Italian",
               "Barcelona": "Spanish", "Tokyo": "Japanese", "Stockholm": "Swedish",
               "Toronto": "English", "Lagos": "English"}
agents_by_lang = {}
for ag, city in AGENCIES:
    claim(ag)
    add(ag, "based_in", city)
    n = 5 if agency_lang[city] == "English" else 3
    for _ in range(n):
        a = person_name(agency_lang[city])
        add(a, "employed_by", ag)
        agents_by_lang.setdefault(agency_lang[city], []).append(a)

# ---------------------------------------------------------------- editors
editors_by_pub = {}
all_editors = []
for name, country, city, founded in PUBLISHERS:
    lang = COUNTRY_LANG[country]
    n = 3 if PUB_WEIGHT[name] >= 3 else 2
    if PUB_WEIGHT[name] >= 6:
        n = 5
    for _ in range(n):
        e = person_name(lang)
        all_editors.append(e)
        add(e, "worked_for", name)
        editors_by_pub.setdefault(name, []).append(e)
        # career moves: some editors worked for other publishers in the same language
        if rng.random() < 0.35:
            others = [p for p, c, _, _ in PUBLISHERS if COUNTRY_LANG[c] == lang and p != name]
            if others:
                add(e, "worked_for", rng.choice(others))

# ---------------------------------------------------------------- translators
translators_into = {}   # target language -> list of translators (who translate *from* langs)
translator_from = {}
for lang in ["English", "English", "English", "English", "English", "English", "English",
             "English", "French", "French", "German", "German", "Spanish", "Spanish",
             "Italian", "Japanese", "Swedish", "Portuguese", "Dutch", "Polish", "Norwegian"]:
    t = person_name(lang)
    if lang == "English":
        froms = rng.sample(["French", "German", "Italian", "Spanish", "Polish", "Japanese",
                            "Swedish", "Norwegian", "Portuguese", "Dutch", "Korean"],
                           k=rng.choice([1, 1, 2, 2, 3]))
    else:
        froms = ["English"] + (["French"] if rng.random() < 0.3 and lang != "French" else [])
    for f in froms:
        add(t, "translates_from", f)
    translator_from[t] = froms
    translators_into.setdefault(lang, []).append(t)
# extra English translators for Korean/Hindi/Catalan
for lang_from in ["Korean", "Catalan", "Hindi"]:
    t = person_name("English")
    add(t, "translates_from", lang_from)
    translator_from[t] = [lang_from]
    translators_into.setdefault("English", []).append(t)

# ---------------------------------------------------------------- illustrators, designers, narrators
illustrators = [person_name(rng.choice(["English"] * 4 + ["French", "Japanese", "Swedish",
                                                          "Italian"])) for _ in range(22)]
designers = [person_name(rng.choice(["English"] * 5 + ["German", "Dutch", "Spanish"]))
             for _ in range(18)]
narrators = [person_name("English") for _ in range(24)]

# ---------------------------------------------------------------- prizes
PRIZE_ORGS = ["Halloran Foundation", "Society of Crime Writers", "Guild of Speculative Authors",
              "Royal Society of Letters", "Fondation Vernet-Aubry", "Stiftung Lesezeichen",
              "Fundación Palabra Viva", "Nordic Literature Council", "Children's Book Circle",
              "Association of Literary Translators", "Lagos Book Trust"]
for o in PRIZE_ORGS:
    claim(o)
PRIZES = [
    # name, org, established, genre focus (None = any), languages (None = any), audience
    ("Halloran Prize for Fiction", "Halloran Foundation", 1969,
     ["literary fiction", "historical fiction", "short stories"], ["English"], "adult readers"),
    ("Golden Quill Medal", "Royal Society of Letters", 1952,
     ["literary fiction", "historical fiction"], ["English"], "adult readers"),
    ("Obsidian Dagger Award", "Society of Crime Writers", 1961,
     ["crime fiction", "thriller"], None, "adult readers"),
    ("Silver Magnifier Prize", "Society of Crime Writers", 1988,
     ["crime fiction"], None, "adult readers"),
    ("Farthing Prize for Science Fiction", "Guild of Speculative Authors", 1974,
     ["science fiction"], None, None),
    ("Wyvern Award", "Guild of Speculative Authors", 1981, ["fantasy", "horror"], None, None),
    ("Sable Prize for Poetry", "Royal Society of Letters", 1977, ["poetry"], None, "adult readers"),
    ("Thornfield Nonfiction Prize", "Halloran Foundation", 1999,
     ["memoir", "biography", "essays", "narrative history", "popular science", "travel writing"],
     None, "adult readers"),
    ("Prix Lumière-Vernet", "Fondation Vernet-Aubry", 1958, None, ["French"], "adult readers"),
    ("Hallstein Literaturpreis", "Stiftung Lesezeichen", 1965, None, ["German", "Dutch"], "adult readers"),
    ("Premio Sirena", "Fundación Palabra Viva", 1983, None, ["Spanish", "Portuguese", "Italian"],
     "adult readers"),
    ("Aurora Borealis Prize", "Nordic Literature Council", 1990, None, ["Swedish", "Norwegian"],
     None),
    ("Kestrel Award for Young Readers", "Children's Book Circle", 1970, None, None,
     "middle grade readers"),
    ("Little Lantern Medal", "Children's Book Circle", 1994, ["picture book"], None,
     "young children"),
    ("Beacon Prize for Young Adult Fiction", "Children's Book Circle", 2004, None, None,
     "young adult readers"),
    ("Lindqvist Translation Prize", "Association of Literary Translators", 1992, "TRANSLATED",
     None, None),
    ("Ebony Tree Prize", "Lagos Book Trust", 2006, None, None, "adult readers"),
    ("Debut Lantern Award", "Halloran Foundation", 2011, "DEBUT", None, None),
]
for name, org, est, *_ in PRIZES:
    claim(name)
    add(name, "awarded_by", org)
    add(name, "established_year", est)

# ---------------------------------------------------------------- authors
NAT_WEIGHTS = {"United Kingdom": 30, "Ireland": 8, "United States": 34, "Canada": 8,
               "France": 14, "Germany": 10, "Italy": 8, "Spain": 8, "Poland": 5, "Japan": 7,
               "Nigeria": 8, "India": 8, "Sweden": 6, "Norway": 5, "Brazil": 6, "Argentina": 5,
               "Mexico": 5, "Netherlands": 5}
N_AUTHORS = 195
authors = []
author_info = {}
nat_list = list(NAT_WEIGHTS)
nat_w = [NAT_WEIGHTS[c] for c in nat_list]
for i in range(N_AUTHORS):
    nat = weighted_pick(nat_list, nat_w)
    lang = COUNTRY_LANG[nat]
    a = person_name(lang)
    born = rng.randint(1921, 1996)
    # "speciality": 1-2 genres an author mostly writes in
    r = rng.random()
    if r < 0.10:
        audience = "young children"
        genres = ["picture book"]
    elif r < 0.17:
        audience = "middle grade readers"
        genres = rng.sample(["fantasy", "crime fiction", "historical fiction", "science fiction"], 1)
    elif r < 0.27:
        audience = "young adult readers"
        genres = rng.sample(["fantasy", "science fiction", "romance", "thriller", "horror"], 2)
    else:
        audience = "adult readers"
        main = rng.choice(["literary fiction"] * 5 + ["crime fiction"] * 4 + ["historical fiction"] * 3
                          + ["science fiction"] * 2 + ["fantasy"] * 2 + ["horror", "romance",
                          "thriller", "thriller", "memoir", "biography", "poetry", "poetry",
                          "essays", "travel writing", "popular science", "narrative history",
                          "graphic novel", "short stories"])
        second = rng.choice(GENRES[:15])
        genres = [main] if second == main or rng.random() < 0.4 else [main, second]
    # productivity: a few hubs with many books
    prod = rng.choice([1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 4])
    if i < 8:
        prod = rng.randint(8, 12)
    authors.append(a)
    author_info[a] = dict(nat=nat, lang=lang, born=born, genres=genres, audience=audience,
                          prod=prod)
    add(a, "nationality", nat)
    add(a, "birth_year", born)
    if rng.random() < 0.85 and agents_by_lang.get(lang if lang in agents_by_lang else "English"):
        pool = agents_by_lang.get(lang) or agents_by_lang["English"]
        # a few agents are hubs
        add(a, "represented_by", pool[min(int(rng.expovariate(0.6)), len(pool) - 1)])

# influences: younger authors influenced by older ones
by_age = sorted(authors, key=lambda x: (author_info[x]["born"], x))
for a in authors:
    older = [b for b in by_age if author_info[b]["born"] <= author_info[a]["born"] - 12]
    if not older:
        continue
    k = rng.choice([0, 0, 1, 1, 1, 2, 2, 3])
    # prefer the hub authors (first in list) and same-genre ones
    weights = [(6 if authors.index(b) < 8 else 1) *
               (3 if set(author_info[b]["genres"]) & set(author_info[a]["genres"]) else 1)
               for b in older]
    for _ in range(k):
        add(a, "influenced_by", rng.choices(older, weights=weights, k=1)[0])

# ---------------------------------------------------------------- book titles
T_ADJ = ["Quiet", "Broken", "Hollow", "Salt", "Silver", "Burning", "Last", "Little", "Drowned",
         "Northern", "Paper", "Glass", "Winter", "Borrowed", "Crooked", "Distant", "Bitter",
         "Golden", "Sleeping", "Hidden", "Small", "Wild", "Lost", "Iron", "Scarlet", "Forgotten",
         "Secret", "Endless", "Lonely", "Bright", "Velvet", "Ashen", "Restless", "Second"]
T_NOUN = ["Harbour", "Orchard", "Lantern", "River", "Cartographer", "Garden", "Tide",
          "Lighthouse", "Weather", "Kingdom", "Inheritance", "Ferryman", "Daughter", "Archive",
          "Signal", "Country", "Winter", "Furnace", "Meadow", "Staircase", "Island", "Orphan",
          "Clockmaker", "Alphabet", "Heron", "Ledger", "Embassy", "Quarry", "Voyage", "Witness",
          "Atlas", "Beekeeper", "Observatory", "Mirror", "Hunger", "Shoreline", "Choir",
          "Comet", "Fox", "Widow", "Letters", "Engine", "Marsh", "Border", "Tenant", "Saint"]
T_PLACE = ["Saltmarsh", "Hollowmere", "Kestrel Bay", "the North Road", "Ashby Fen", "Calder Street",
           "the Glass Coast", "Little Ambrey", "the Lower Town", "Vell", "Marrowby",
           "the Eastern Line", "Corriebrae", "Port Essling", "Dunmore Hill", "the White Valley",
           "Orrin", "Halsey Pier", "the Drowned Quarter", "Bellhaven"]
T_VERB = ["Remembered", "Forgot", "Carried", "Knew", "Left Behind", "Kept", "Saw", "Gave Away"]
T_ONE = ["Undertow", "Afterglow", "Quarantine", "Tinderbox", "Latitude", "Wolfsbane",
         "Nightfall", "Ballast", "Marrow", "Foxfire", "Driftglass", "Sundown", "Copperhead",
         "Hinterland", "Meltwater", "Threshold", "Brightwater", "Fathom", "Kindling", "Halflight",
         "Stillwater", "Overland", "Thaw", "Brine", "Cinderella Road", "Ninefold", "Wayfarer"]
T_CHILD = ["Pip and the", "Molly Moss and the", "The Bear Who Lost His", "Otto Finds a",
           "Where Is My", "Goodnight,", "The Very Busy", "Tilly's Big", "Ten Little",
           "Who Stole the"]
T_CHILD_N = ["Moon", "Umbrella", "Red Balloon", "Wellies", "Hedgehog", "Teapot", "Lighthouse",
             "Snowstorm", "Kite", "Dinosaur", "Garden Gnome", "Sandcastle", "Tugboat"]
T_NONFIC = ["A History of", "The Age of", "On", "Notes on", "In Praise of", "The Invention of",
            "Travels Along", "Letters from", "A Life in", "The Science of", "Walking"]
T_NONFIC_N = ["Salt", "Silence", "Maps", "Bridges", "Bees", "Clocks", "Ink", "Weather", "Islands",
              "Printing", "Rivers", "Borders", "Forgetting", "Night", "Libraries", "Tea",
              "the Danube", "the Atlantic", "Paper", "Glass", "Memory", "Orchards"]
T_POETRY = ["Psalms for", "Elegies for", "Songs from", "Hymn to", "Small Prayers for",
            "Lullabies for", "Field Notes for"]


def plural(w):
    if w.endswith("Letters"):
        return w
    if w.endswith("man"):
        return w[:-3] + "men"
    if w.endswith(("ss", "x", "ch", "sh", "s")):
        return w + "es"
    if w.endswith("y") and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


def a_an(w):
    return ("An " if w[0] in "AEIOU" else "A ") + w


def make_title(genre):
    for _ in range(200):
        r = rng.random()
        if genre == "picture book":
            pre, noun = rng.choice(T_CHILD), rng.choice(T_CHILD_N)
            if pre == "Ten Little":
                noun = plural(noun)
            if pre.endswith(" a"):           # "Otto Finds a" -> "Otto Finds an Umbrella"
                art = a_an(noun).split(" ", 1)[0].lower()
                pre = pre[:-2] + " " + art
            t = pre + " " + noun
        elif genre in ("memoir", "biography", "essays", "travel writing", "popular science",
                       "narrative history"):
            t = rng.choice(T_NONFIC) + " " + rng.choice(T_NONFIC_N)
            if r < 0.3:
                t = rng.choice(T_ONE) + ": " + t
        elif genre == "poetry":
            t = rng.choice(T_POETRY) + " the " + plural(rng.choice(T_NOUN)) if r < 0.6 \
                else rng.choice(T_ADJ) + " " + plural(rng.choice(T_NOUN))
        elif r < 0.2:
            t = "The " + rng.choice(T_NOUN) + " of " + rng.choice(T_PLACE)
        elif r < 0.38:
            t = "The " + rng.choice(T_ADJ) + " " + rng.choice(T_NOUN)
        elif r < 0.5:
            t = rng.choice(T_ADJ) + " " + plural(rng.choice(T_NOUN))
        elif r < 0.62:
            t = rng.choice(T_ONE)
        elif r < 0.72:
            t = "What the " + rng.choice(T_NOUN) + " " + rng.choice(T_VERB)
        elif r < 0.8:
            t = a_an(rng.choice(T_NOUN)) + " for " + rng.choice(T_PLACE)
        elif r < 0.88:
            t = "The " + rng.choice(T_NOUN) + "'s " + rng.choice(T_NOUN)
        elif r < 0.94:
            t = "Murder at " + rng.choice(T_PLACE) if genre == "crime fiction" else \
                "The " + rng.choice(T_NOUN) + " and the " + rng.choice(T_NOUN)
        else:
            t = "All the " + rng.choice(T_ADJ) + " " + plural(rng.choice(T_NOUN))
        if t not in used_names:
            return claim(t)
    raise RuntimeError("titles exhausted")


# ---------------------------------------------------------------- series
SERIES = [  # name, genres it fits, language it fits (None = any)
    ("The Ashfall Chronicles", ["fantasy"], None),
    ("Inspector Varga Mysteries", ["crime fiction"], None),
    ("The Kestrel Bay Books", ["historical fiction", "literary fiction"], "English"),
    ("The Lantern Keepers", ["fantasy"], None),
    ("Molly Moss Adventures", ["picture book"], None),
    ("The Glass Coast Cycle", ["science fiction"], None),
    ("Detective Okonjo Casebooks", ["crime fiction"], "English"),
    ("The Hollowmere Saga", ["fantasy", "horror"], None),
    ("The Iron Orchard Novels", ["historical fiction", "literary fiction"], None),
    ("Commissaire Bastide Investigations", ["crime fiction"], "French"),
    ("The Starwright Sequence", ["science fiction"], None),
    ("The Salt Road Books", ["historical fiction", "literary fiction", "romance"], None),
    ("Kommissar Albers Fälle", ["crime fiction"], "German"),
    ("The Ninefold Realm", ["fantasy"], None),
    ("Pip's Big Days", ["picture book"], None),
    ("The Drowned Quarter Mysteries", ["crime fiction", "thriller"], None),
    ("The Tidewater Novels", ["literary fiction", "romance", "thriller"], None),
    ("The Copper Comet Cycle", ["science fiction"], None),
    ("Saga of the White Valley", ["fantasy", "historical fiction"], None),
    ("The Corriebrae Novels", ["literary fiction", "crime fiction", "horror"], "English"),
]
for s_name, _, _ in SERIES:
    claim(s_name)


# ---------------------------------------------------------------- books
books = []
book_info = {}
imprint_weights = [PUB_WEIGHT[p] for _, p in imprints]


def pick_imprint(lang, audience):
    cands = [(im, p) for im, p in imprints if COUNTRY_LANG[pub_country[p]] == lang]
    if not cands or rng.random() < (0.15 if lang == "English" else 0.08):
        cands = imprints
    ws = [PUB_WEIGHT[p] for _, p in cands]
    return rng.choices(cands, weights=ws, k=1)[0]


def rand_date(year):
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    return "%04d-%02d-%02d" % (year, m, d)


for a in authors:
    info = author_info[a]
    start = info["born"] + rng.randint(22, 40)
    if start > 2023:
        start = 2023 - rng.randint(0, 3)
    years = sorted(min(2024, start + rng.randint(0, max(1, min(45, 2024 - start))))
                   for _ in range(info["prod"]))
    years[0] = start if start <= 2024 else 2024
    years.sort()
    # a series for some productive authors
    series = None
    if info["prod"] >= 3 and rng.random() < 0.6:
        fits = [x for x in SERIES if info["genres"][0] in x[1]
                and (x[2] is None or x[2] == info["lang"])]
        fits.sort(key=lambda x: x[2] is None)   # language-specific series first
        if fits:
            series = fits[0][0]
            SERIES.remove(fits[0])
            series_entry = fits[0]
    series_books = []
    for k, y in enumerate(years):
        g = rng.choice(info["genres"])
        title = make_title(g)
        books.append(title)
        gset = [g]
        if g not in ("picture book", "poetry") and rng.random() < 0.35:
            if g in NONFICTION:
                extra = rng.choice(NONFICTION)
            else:
                extra = rng.choice(["thriller", "romance", "historical fiction", "short stories",
                                    "horror", "literary fiction", "graphic novel"])
            if extra != g:
                gset.append(extra)
        book_info[title] = dict(author=a, year=y, genres=gset, lang=info["lang"],
                                audience=info["audience"], debut=(k == 0))
        add(title, "written_by", a)
        for gg in gset:
            add(title, "has_genre", gg)
        add(title, "original_language", info["lang"])
        add(title, "first_published", rand_date(y))
        add(title, "target_audience", info["audience"])
        if info["audience"] == "young children":
            pages = rng.choice([24, 28, 32, 32, 32, 40, 48])
        elif info["audience"] == "middle grade readers":
            pages = rng.randint(140, 320)
        elif "poetry" in gset:
            pages = rng.randint(60, 130)
        else:
            pages = rng.randint(180, 780)
        add(title, "page_count", pages)
        run = rng.choice([1500, 2000, 3000, 4000, 5000, 7500, 10000, 12000, 15000, 20000,
                          25000, 40000, 60000, 100000, 150000])
        if authors.index(a) < 8 and k > 2:
            run = rng.choice([80000, 120000, 200000, 250000, 350000])
        add(title, "first_print_run", run)
        im, pub = pick_imprint(info["lang"], info["audience"])
        add(title, "published_by", im)
        book_info[title]["imprint"] = im
        book_info[title]["publisher"] = pub
        eds = editors_by_pub.get(pub)
        if eds:
            add(title, "edited_by", eds[min(int(rng.expovariate(0.8)), len(eds) - 1)])
        fmts = ["hardcover"] if rng.random() < 0.7 else ["paperback"]
        if rng.random() < 0.6:
            fmts.append("paperback")
        if y >= 2000 and rng.random() < 0.75:
            fmts.append("ebook")
        if y >= 1995 and rng.random() < 0.4 and info["audience"] != "young children":
            fmts.append("audiobook")
        for f in fmts:
            add(title, "available_format", f)
        if "audiobook" in fmts:
            add(title, "narrated_by", narrators[min(int(rng.expovariate(0.25)), len(narrators) - 1)])
        if info["audience"] == "young children" or "graphic novel" in gset or (
                info["audience"] == "middle grade readers" and rng.random() < 0.5):
            add(title, "illustrated_by", illustrators[min(int(rng.expovariate(0.2)),
                                                          len(illustrators) - 1)])
        if y >= 1970 and rng.random() < 0.4:
            add(title, "cover_designed_by", designers[min(int(rng.expovariate(0.2)),
                                                          len(designers) - 1)])
        # translations
        p_tr = 0.18 + (0.35 if info["lang"] != "English" else 0.0) + (0.3 if authors.index(a) < 8 else 0)
        if rng.random() < p_tr:
            if info["lang"] != "English":
                targets = ["English"] + rng.sample([l for l in ["French", "German", "Spanish",
                                                               "Italian", "Japanese", "Dutch"]
                                                    if l != info["lang"]], k=rng.choice([0, 0, 1, 2]))
            else:
                targets = rng.sample(["French", "German", "Spanish", "Italian", "Japanese",
                                      "Swedish", "Portuguese", "Dutch", "Polish", "Norwegian",
                                      "Korean"], k=rng.choice([1, 1, 2, 3, 4]))
            for tl in targets:
                add(title, "translated_into", tl)
                cands = [t for t in translators_into.get(tl, []) if info["lang"] in translator_from[t]]
                if cands:
                    add(title, "translated_by", rng.choice(cands))
            book_info[title]["translated"] = True
        if series and g == info["genres"][0]:
            series_books.append(title)
    if series and len(series_books) >= 2:
        for b in series_books:
            add(b, "part_of_series", series)
        for prev, nxt in zip(series_books, series_books[1:]):
            add(nxt, "sequel_of", prev)
    elif series:
        SERIES.insert(0, series_entry)   # unused: give it back

# co-authored books: a few books get a second author of the same language
for title in rng.sample(books, 28):
    a = book_info[title]["author"]
    cands = [b for b in authors if b != a and author_info[b]["lang"] == book_info[title]["lang"]
             and author_info[b]["born"] + 20 <= book_info[title]["year"]]
    if cands:
        add(title, "written_by", rng.choice(cands))

# ---------------------------------------------------------------- prizes, shortlists, juries
for name, org, est, gfocus, langs, aud in PRIZES:
    elig = []
    for b in books:
        bi = book_info[b]
        if bi["year"] < est:
            continue
        if aud and bi["audience"] != aud:
            continue
        if langs and bi["lang"] not in langs:
            continue
        if gfocus == "TRANSLATED":
            if not bi.get("translated"):
                continue
        elif gfocus == "DEBUT":
            if not bi["debut"]:
                continue
        elif gfocus and not set(gfocus) & set(bi["genres"]):
            continue
        elig.append(b)
    if not elig:
        continue
    n_win = min(len(elig), rng.randint(3, 11))
    weights = [4 if authors.index(book_info[b]["author"]) < 8 else 1 for b in elig]
    winners = []
    while len(winners) < n_win:
        b = rng.choices(elig, weights=weights, k=1)[0]
        if b not in winners:
            winners.append(b)
    for b in winners:
        add(b, "won_award", name)
        add(b, "shortlisted_for", name)   # winners were on the shortlist first
    rest = [b for b in elig if b not in winners]
    for b in rng.sample(rest, min(len(rest), rng.randint(4, 14))):
        add(b, "shortlisted_for", name)
    # jury: older authors writing in the same languages
    jury_cands = [a for a in authors if (not langs or author_info[a]["lang"] in langs)
                  and author_info[a]["born"] < 1975]
    for a in rng.sample(jury_cands, min(len(jury_cands), rng.randint(2, 5))):
        add(a, "jury_member_of", name)

# ---------------------------------------------------------------- write
with open(os.path.join(HERE, "kb.txt"), "w", encoding="utf-8") as f:
    for h, r, t in triples:
        f.write("%s|%s|%s\n" % (h, r, t))

if __name__ == "__main__":
    ents = set()
    rels = {}
    for h, r, t in triples:
        ents.add(h)
        ents.add(t)
        rels[r] = rels.get(r, 0) + 1
    print("triples", len(triples))
    print("relations", len(rels))
    print("nodes (incl. literal values)", len(ents))
    for r in sorted(rels):
        print("  %-20s %d" % (r, rels[r]))
