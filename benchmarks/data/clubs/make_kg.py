#!/usr/bin/env python3
"""Build a small, made-up club-football knowledge graph and write it to kb.txt.

Deterministic: standard library only, fixed random seed. One triple per line,
``head|relation|tail``, UTF-8, no header. Relation labels are Wikidata-style
lower-case words with spaces.
"""
import os
import random

SEED = 20240519
rng = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "kb.txt")

triples = []
used_names = set()


def add(h, r, t):
    assert "|" not in h and "|" not in r and "|" not in str(t)
    triples.append((h, r, str(t)))


def claim(name):
    assert name not in used_names, name
    used_names.add(name)
    return name


def iso(y, m, d):
    return "%04d-%02d-%02d" % (y, m, d)


def rand_date(y0, y1):
    y = rng.randint(y0, y1)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    return iso(y, m, d)


# ---------------------------------------------------------------- countries
LEAGUE_COUNTRIES = ["Valdoria", "Estmark", "Norvania", "Castellane", "Ibrenia"]
OTHER_COUNTRIES = ["Kestrava", "Sorvenia", "Lusitra", "Merovia", "Tarsenland",
                   "Oskaria", "Drevnia"]
COUNTRIES = LEAGUE_COUNTRIES + OTHER_COUNTRIES
for c in COUNTRIES:
    claim(c)

ADJ = {"Valdoria": "Valdorian", "Estmark": "Estmarkian", "Norvania": "Norvanian",
       "Castellane": "Castellanian", "Ibrenia": "Ibrenian", "Kestrava": "Kestravan",
       "Sorvenia": "Sorvenian", "Lusitra": "Lusitran", "Merovia": "Merovian",
       "Tarsenland": "Tarsenish", "Oskaria": "Oskarian", "Drevnia": "Drevnian"}

# ---------------------------------------------------------------- cities
CITY_NAMES = {
    "Valdoria": ["Marlow Bay", "Kessington", "Port Aldren", "Hollowmere", "Brackenford",
                 "Saint Ives-on-Vale", "Dunmore", "Ashcombe"],
    "Estmark": ["Ravnholt", "Skjelby", "Aalborne", "Frostvik", "Hedeby", "Norrgaard",
                "Lindevik", "Ostrup"],
    "Norvania": ["Velgrad", "Novo Kamen", "Drazhevo", "Pelinor", "Stravnik", "Koruna",
                 "Belomir", "Zalesk"],
    "Castellane": ["San Lorient", "Villabrava", "Montereal", "Puerto Celeste", "Alcaraz del Rio",
                   "Torremar", "Santa Ines", "Valdemora"],
    "Ibrenia": ["Porto Alvar", "Coimbrada", "Sao Telmo", "Vila Serena", "Almedra",
                "Braganca Nova", "Faroal", "Estrela"],
    "Kestrava": ["Kestgrad", "Olvany", "Tirsk"],
    "Sorvenia": ["Sorvik", "Maribel", "Ljubno"],
    "Lusitra": ["Lusa", "Cabo Verdel", "Mirandel"],
    "Merovia": ["Meroux", "Saint-Audric", "Lenvers"],
    "Tarsenland": ["Tarsby", "Grimholm", "Westerhaven"],
    "Oskaria": ["Oskarsborg", "Vellamo", "Kuopiri"],
    "Drevnia": ["Drevno", "Belgora", "Sokolets"],
}
CITIES = []
CITY_COUNTRY = {}
for c in COUNTRIES:
    for i, city in enumerate(CITY_NAMES[c]):
        claim(city)
        CITIES.append(city)
        CITY_COUNTRY[city] = c
        add(city, "country", c)
        if i == 0:
            pop = rng.randint(900, 2400) * 1000 + rng.randint(0, 999)
        else:
            pop = rng.randint(40, 850) * 1000 + rng.randint(0, 999)
        add(city, "population", pop)

# ---------------------------------------------------------------- federations
FEDERATIONS = {}
for c in COUNTRIES:
    f = claim("%s Football Federation" % ADJ[c])
    FEDERATIONS[c] = f
    add(f, "country", c)
CONFED = claim("Confederation of Continental Football")

# ---------------------------------------------------------------- leagues
LEAGUE_NAMES = {
    "Valdoria": ["Valdorian Premier Division", "Valdorian Championship"],
    "Estmark": ["Estmark Superliga", "Estmark First Division"],
    "Norvania": ["Norvanian Prva Liga", "Norvanian Druga Liga"],
    "Castellane": ["Liga Castellana", "Segunda Castellana"],
    "Ibrenia": ["Ibrenian Primeira Liga", "Ibrenian Liga Dois"],
}
LEAGUES = []
LEAGUE_COUNTRY = {}
LEAGUE_LEVEL = {}
for c in LEAGUE_COUNTRIES:
    for lvl, name in enumerate(LEAGUE_NAMES[c], start=1):
        claim(name)
        LEAGUES.append(name)
        LEAGUE_COUNTRY[name] = c
        LEAGUE_LEVEL[name] = lvl
        add(name, "country", c)
        add(name, "league level", lvl)
        add(name, "operator", FEDERATIONS[c])

# ---------------------------------------------------------------- positions, feet, surfaces
POSITIONS = ["goalkeeper", "centre-back", "full-back", "wing-back", "defensive midfielder",
             "central midfielder", "attacking midfielder", "winger", "second striker",
             "centre-forward"]
for p in POSITIONS:
    claim(p)
FEET = ["left foot", "right foot", "both feet"]
for f in FEET:
    claim(f)
SURFACES = ["natural grass", "hybrid grass", "artificial turf"]
for s in SURFACES:
    claim(s)

# ---------------------------------------------------------------- companies
KIT_MAKERS = ["Strydex", "Kalvo", "Umbrio", "Pendra Sport", "Norrfeld", "Axion Athletic",
              "Volte", "Harken"]
for k in KIT_MAKERS:
    claim(k)
SPONSORS = ["Brannock Bank", "Telvia Mobile", "Oriel Airways", "Castor Energy", "Veldt Beer",
            "Nordlys Insurance", "Quintara Motors", "Solvane Pharma", "Bluewick Betting",
            "Arcadia Telecom", "Halcyon Hotels", "Marrow & Finch", "Lumen Logistics",
            "Pemberton Foods", "Zephyr Air", "Gravitas Capital", "Kobalt Steel",
            "Ferrovia Rail", "Sunterra Solar", "Ostara Dairy", "Mirelle Cosmetics",
            "Tavanti Coffee", "Redcliff Cement", "Novum Electronics", "Atlas Shipping"]
for s in SPONSORS:
    claim(s)
OWNERS = ["Halvorsen Group", "Dmitri Ostrakov", "Castell Holdings", "Ardent Capital Partners",
          "Lucia Ferreira-Bastos", "Meridian Sovereign Fund", "The Brannock Family Trust",
          "Henrik Aalund", "Peregrine Sports Ventures", "Velgrad City Council",
          "Sergio Montalban", "Blue Harbor Investments", "Kaito Mirren", "Rosamund Ashby",
          "Ironvale Consortium", "Supporters Trust of Kessington", "Telvia Group",
          "Gregor Vasquez-Lind", "Northlight Equity", "Amadeo Lusardi", "Orsolya Kertesz",
          "Silverline Holdings"]
for o in OWNERS:
    claim(o)
AGENTS = ["Meridian Sports Management", "Fivefold Agency", "Crossbar Talent",
          "Gavin Stroud Associates", "Touchline Partners", "Eleven Stars Representation",
          "Vantage Football", "Halbrook & Maier", "Castillo Sports Group", "Northpoint Athletes",
          "Rui Damasceno Agency", "Pitchside Global", "Keystone Sports Law", "Orbit Player Care",
          "Lionheart Management", "Bracewell Agency"]
for a in AGENTS:
    claim(a)
ARCHITECTS = ["Ilse Vandermeer", "Oscar Pellegrini", "Marta Kowalik", "Jonas Brandt",
              "Teodor Ruskin", "Helena Sardinha", "Arnaud Lefevre", "Priya Castellanos",
              "Magnus Holt", "Beatriz Ocampo", "Fenwick & Rowe Architects", "Studio Aleph",
              "Kasimir Dunn", "Yara Oliveira", "Rowan Achterberg"]
for a in ARCHITECTS:
    claim(a)

# ---------------------------------------------------------------- people names
FIRST = ["Adrian", "Alejo", "Anders", "Andrei", "Anton", "Arvid", "Bastian", "Benedek", "Bruno",
         "Callum", "Cristian", "Dario", "Davor", "Diego", "Dominik", "Eero", "Elias", "Emil",
         "Enzo", "Erik", "Esteban", "Fabian", "Felix", "Filip", "Florin", "Gael", "Gustavo",
         "Hakon", "Hugo", "Ignacio", "Igor", "Ivo", "Jakob", "Janne", "Joao", "Jonas", "Jorge",
         "Julian", "Kasper", "Kai", "Kristof", "Lars", "Leandro", "Lennart", "Leon", "Liam",
         "Luka", "Luis", "Magnus", "Marco", "Mateo", "Matias", "Mikkel", "Milos", "Nico",
         "Nikola", "Noah", "Oliver", "Olek", "Oskar", "Pablo", "Patrik", "Pedro", "Petar",
         "Rafael", "Rasmus", "Renato", "Ruben", "Samuel", "Santiago", "Sebastian", "Simao",
         "Stefan", "Sven", "Teo", "Thiago", "Tobias", "Tomas", "Ugo", "Valentin", "Vasco",
         "Viktor", "Vuk", "Wilhelm", "Xavi", "Yannick", "Zoran", "Aleksander", "Bartholomew",
         "Cormac", "Declan", "Eamon", "Gareth", "Rhys", "Owen", "Ciaran", "Marius", "Teodor",
         "Emanuel", "Kwame", "Amadou", "Idrissa", "Youssef", "Karim", "Malik", "Tariq",
         "Dmitri", "Yuri", "Ilya", "Arturo", "Benicio", "Lucas", "Gabriel", "Henrique",
         "Miguel", "Joaquim", "Aurelio", "Ferran", "Jordi", "Oriol"]
SURNAMES = ["Aalto", "Abreu", "Achterberg", "Almeida", "Andersen", "Arnaud", "Bakker", "Baros",
            "Bellamy", "Bergstrom", "Blazevic", "Bonnet", "Borges", "Brennan", "Calder",
            "Camacho", "Carvalho", "Castellano", "Cerny", "Colquhoun", "Costa", "Dahl",
            "Dalgaard", "Delacroix", "Dimitrov", "Dobrev", "Dragovic", "Duarte", "Eklund",
            "Esposito", "Falk", "Farrow", "Ferrante", "Fonseca", "Fournier", "Galvao",
            "Gallardo", "Grahn", "Gunnarsson", "Halloran", "Hartmann", "Haugen", "Holm",
            "Ibarra", "Ilic", "Iversen", "Jaksic", "Jensen", "Juhl", "Kallio", "Karlsen",
            "Kovac", "Kowalczyk", "Kristiansen", "Lacerda", "Lagerqvist", "Lindqvist",
            "Lozano", "Lund", "Madsen", "Marin", "Markovic", "Mendes", "Mikkelsen", "Molina",
            "Moreau", "Mortensen", "Nakamura", "Navarro", "Nielsen", "Novak", "Nyberg",
            "Oduya", "Okafor", "Olsen", "Ortega", "Pajares", "Pavlovic", "Pereira", "Petrov",
            "Quaresma", "Quinlan", "Radic", "Ramos", "Rasmussen", "Rebelo", "Rinaldi",
            "Rocha", "Rosendahl", "Salazar", "Santos", "Sauer", "Sebek", "Silva", "Simic",
            "Skov", "Sousa", "Stanek", "Strand", "Tavares", "Teixeira", "Thorsen", "Toivonen",
            "Torres", "Urbanek", "Valente", "Vasquez", "Vidal", "Vukovic", "Wahlberg",
            "Weiss", "Westergaard", "Yilmaz", "Zajac", "Zeller", "Zoric", "Mbeki", "Diallo",
            "Traore", "Mensah", "Boateng", "El Amrani", "Haddad", "Benali", "Van der Berg",
            "De Vries", "Van Dijkhuis", "O'Donnell", "McAllister", "Fitzgerald", "Da Costa",
            "Dos Santos", "Ferreira Lima", "Garcia-Ruiz", "Moreno Vidal", "Kjaer", "Brodersen",
            "Sandoval", "Echeverria", "Villanueva", "Montenegro", "Zubizarreta"]


def person_name(style_rng):
    """Return a fresh unique person name with varied shapes."""
    for _ in range(1000):
        r = style_rng.random()
        f = style_rng.choice(FIRST)
        s = style_rng.choice(SURNAMES)
        if r < 0.08:
            name = "%s. %s" % (f[0], s)                 # initial + surname
        elif r < 0.16:
            f2 = style_rng.choice(FIRST)
            if f2 == f:
                continue
            name = "%s %s %s" % (f, f2, s)             # double given name
        elif r < 0.22:
            f2 = style_rng.choice(FIRST)
            name = "%s %s. %s" % (f, f2[0], s)          # middle initial
        elif r < 0.27:
            s2 = style_rng.choice(SURNAMES)
            if s2 == s or " " in s2 or " " in s:
                continue
            name = "%s %s-%s" % (f, s, s2)             # hyphenated surname
        elif r < 0.30:
            name = f                                    # mononym (Brazil style)
            name = name + "inho" if not name.endswith("o") else name[:-1] + "inho"
        else:
            name = "%s %s" % (f, s)
        if name not in used_names:
            return claim(name)
    raise RuntimeError("name space exhausted")


# ---------------------------------------------------------------- awards
AWARDS_PLAYER = []
AWARD_KIND = {}
for c in LEAGUE_COUNTRIES:
    for kind, label in [("poty", "%s Player of the Year"), ("boot", "%s Golden Boot"),
                        ("young", "%s Young Player of the Year")]:
        a = claim(label % ADJ[c])
        AWARDS_PLAYER.append(a)
        AWARD_KIND[a] = (kind, c)
        add(a, "conferred by", FEDERATIONS[c])
CONT_AWARDS = ["Continental Golden Ball", "Continental Goalkeeper of the Year",
               "Continental Team of the Season", "Kovacs Trophy for Fair Play"]
for a in CONT_AWARDS:
    claim(a)
    AWARDS_PLAYER.append(a)
    AWARD_KIND[a] = ("cont", None)
    add(a, "conferred by", CONFED)
AWARDS_MANAGER = []
for c in LEAGUE_COUNTRIES:
    a = claim("%s Manager of the Year" % ADJ[c])
    AWARDS_MANAGER.append(a)
    AWARD_KIND[a] = ("mgr", c)
    add(a, "conferred by", FEDERATIONS[c])
a = claim("Continental Coach of the Year")
AWARDS_MANAGER.append(a)
AWARD_KIND[a] = ("mgr", None)
add(a, "conferred by", CONFED)

# ---------------------------------------------------------------- clubs and stadiums
CLUB_PATTERNS = ["{c} United", "{c} Rovers", "Athletic {c}", "Real {c}", "Sporting {c}",
                 "Dynamo {c}", "{c} Wanderers", "FC {c}", "{c} City", "Racing {c}",
                 "{c} Albion", "Union {c}", "Olympique {c}", "{c} Rangers", "Inter {c}",
                 "{c} Athletic", "Deportivo {c}", "{c} Town", "Lokomotiv {c}", "Spartak {c}"]
STADIUM_PATTERNS = ["{s} Park", "Estadio {s}", "{s} Arena", "{s} Road", "Stadion {s}",
                    "The {s} Ground", "{s} Stadium", "Campo {s}", "{s} Field", "{s} Lane"]
STADIUM_WORDS = ["Kingsway", "Harbour", "Copperfield", "Riverside", "Old Mill", "Lighthouse",
                 "Ironbridge", "Elmstead", "Victoria", "Foundry", "Saint Oswald", "Greyfriars",
                 "Larkspur", "Cathedral", "Aurora", "Meridian", "Bellavista", "El Mirador",
                 "Sol Naciente", "Dom Afonso", "Vila Nova", "Crvena Zvezda", "Slavija",
                 "Nordhavn", "Fjordside", "Granite", "Brook Hollow", "Whitecliff", "Pinewood",
                 "Tannery", "Ropewalk", "Mariners", "Centenary", "Jubilee", "Olive Grove",
                 "Palmeiras", "Lagoa", "Castelo", "Torre Alta", "Orchard", "Heathfield",
                 "Stonegate", "Glasshouse", "Sunderby", "Kronborg", "Vinterhall", "Bastion",
                 "Zlatni", "Libertad", "Independencia", "Dos Rios", "Carrow", "Millbank",
                 "Hightower", "Redstone", "Saltmarsh", "Windmill", "Beacon", "Arsenal Yard",
                 "Coronation", "Silverwood", "Quarry", "Gasworks", "Clockhouse", "Brewery",
                 "Weavers", "Marina", "Citadel", "Tramway", "Observatory", "Waterloo",
                 "Eastgate", "Northbank", "Cloister", "Sandpiper", "Foxhollow", "Kestrel",
                 "Pavilion", "Anchorage", "Lindenhof"]

CLUBS = []
CLUB_CITY = {}
CLUB_LEAGUE = {}
CLUB_STADIUM = {}
STADIUMS = []
STADIUM_CITY = {}
stadium_words = STADIUM_WORDS[:]
rng.shuffle(stadium_words)
pattern_cycle = 0
for c in LEAGUE_COUNTRIES:
    cities = CITY_NAMES[c]
    # 16 clubs per country: the capital gets 3, two cities get 1, the rest 2 (3+2*5+... )
    counts = [3, 3, 2, 2, 2, 2, 1, 1]
    country_clubs = []
    for city, n in zip(cities, counts):
        pats = rng.sample(CLUB_PATTERNS, n)
        for p in pats:
            name = p.format(c=city)
            claim(name)
            country_clubs.append(name)
            CLUB_CITY[name] = city
    rng.shuffle(country_clubs)
    top, second = country_clubs[:8], country_clubs[8:]
    for cl in top:
        CLUB_LEAGUE[cl] = LEAGUE_NAMES[c][0]
    for cl in second:
        CLUB_LEAGUE[cl] = LEAGUE_NAMES[c][1]
    CLUBS.extend(country_clubs)

# rivals: clubs sharing a city are derby rivals
by_city = {}
for cl in CLUBS:
    by_city.setdefault(CLUB_CITY[cl], []).append(cl)

# stadiums: one per club, but in a few cities two clubs share one ground
shared_cities = [city for city, cls in sorted(by_city.items()) if len(cls) >= 2]
shared_cities = rng.sample(shared_cities, 4)
for city in sorted(by_city):
    cls = sorted(by_city[city])
    if city in shared_cities:
        groups = [cls[:2]] + [[x] for x in cls[2:]]
    else:
        groups = [[x] for x in cls]
    for g in groups:
        word = stadium_words.pop()
        pat = STADIUM_PATTERNS[rng.randrange(len(STADIUM_PATTERNS))]
        sname = claim(pat.format(s=word))
        STADIUMS.append(sname)
        STADIUM_CITY[sname] = city
        for cl in g:
            CLUB_STADIUM[cl] = sname

CLUB_INCEPTION = {}
for cl in CLUBS:
    CLUB_INCEPTION[cl] = rng.randint(1871, 1978)

STADIUM_OPEN = {}
for s in STADIUMS:
    owners = [cl for cl in CLUBS if CLUB_STADIUM[cl] == s]
    tier = min(LEAGUE_LEVEL[CLUB_LEAGUE[cl]] for cl in owners)
    earliest = max(min(CLUB_INCEPTION[cl] for cl in owners) + 2, 1890)
    y = rng.randint(earliest, 2021)
    STADIUM_OPEN[s] = iso(y, rng.randint(1, 12), rng.randint(1, 28))
    cap = rng.randint(18, 86) * 1000 + rng.randint(0, 999) if tier == 1 else \
        rng.randint(4, 24) * 1000 + rng.randint(0, 999)
    add(s, "location", STADIUM_CITY[s])
    add(s, "maximum capacity", cap)
    add(s, "date of official opening", STADIUM_OPEN[s])
    add(s, "playing surface", rng.choices(SURFACES, weights=[6, 3, 1])[0])
    if rng.random() < 0.75:
        add(s, "architect", rng.choice(ARCHITECTS))

owner_pool = OWNERS[:]
for cl in CLUBS:
    add(cl, "home venue", CLUB_STADIUM[cl])
    add(cl, "league", CLUB_LEAGUE[cl])
    add(cl, "headquarters location", CLUB_CITY[cl])
    add(cl, "inception", CLUB_INCEPTION[cl])
    add(cl, "kit manufacturer", rng.choice(KIT_MAKERS))
    for sp in rng.sample(SPONSORS, rng.choice([1, 1, 1, 2])):
        add(cl, "sponsor", sp)
    if rng.random() < 0.6:
        add(cl, "owned by", rng.choice(owner_pool))
for city, cls in sorted(by_city.items()):
    for a in cls:
        for b in cls:
            if a != b:
                add(a, "rival", b)
# a few cross-city historic rivalries
for _ in range(10):
    a, b = rng.sample(CLUBS, 2)
    if CLUB_CITY[a] != CLUB_CITY[b] and LEAGUE_COUNTRY[CLUB_LEAGUE[a]] == LEAGUE_COUNTRY[CLUB_LEAGUE[b]]:
        add(a, "rival", b)
        add(b, "rival", a)

# ---------------------------------------------------------------- managers
MANAGERS = []
for i in range(96):
    m = person_name(rng)
    MANAGERS.append(m)
    nat = rng.choice(LEAGUE_COUNTRIES * 3 + OTHER_COUNTRIES)
    add(m, "country of citizenship", nat)
    add(m, "date of birth", rand_date(1956, 1986))
    if rng.random() < 0.7:
        add(m, "place of birth", rng.choice(CITY_NAMES[nat]))
    if rng.random() < 0.45:
        for cl in rng.sample(CLUBS, rng.randint(1, 3)):
            add(m, "member of sports team", cl)
coaching = rng.sample(MANAGERS, len(CLUBS))
HEAD_COACH = dict(zip(CLUBS, coaching))
for cl in CLUBS:
    add(cl, "head coach", HEAD_COACH[cl])

# ---------------------------------------------------------------- players
PLAYERS = []
PLAYER_POS = {}
PLAYER_CLUBS = {}
PLAYER_NAT = {}
POS_WEIGHTS = [8, 12, 9, 3, 7, 10, 7, 10, 3, 11]
GOAL_RATE = {"goalkeeper": (0, 0.01), "centre-back": (0.02, 0.08), "full-back": (0.02, 0.07),
             "wing-back": (0.03, 0.10), "defensive midfielder": (0.03, 0.10),
             "central midfielder": (0.06, 0.18), "attacking midfielder": (0.15, 0.35),
             "winger": (0.15, 0.40), "second striker": (0.25, 0.50),
             "centre-forward": (0.30, 0.70)}
SECOND_POS = {"centre-back": ["full-back", "defensive midfielder"],
              "full-back": ["wing-back", "centre-back"], "wing-back": ["full-back", "winger"],
              "defensive midfielder": ["central midfielder", "centre-back"],
              "central midfielder": ["defensive midfielder", "attacking midfielder"],
              "attacking midfielder": ["central midfielder", "second striker", "winger"],
              "winger": ["attacking midfielder", "wing-back"],
              "second striker": ["centre-forward", "attacking midfielder"],
              "centre-forward": ["second striker", "winger"]}

clubs_by_country = {c: [cl for cl in CLUBS if LEAGUE_COUNTRY[CLUB_LEAGUE[cl]] == c]
                    for c in LEAGUE_COUNTRIES}


def make_player(name, nat=None, surname_city=None):
    PLAYERS.append(name)
    if nat is None:
        nat = rng.choice(LEAGUE_COUNTRIES * 4 + OTHER_COUNTRIES)
    PLAYER_NAT[name] = nat
    add(name, "country of citizenship", nat)
    if rng.random() < 0.08:
        second = rng.choice([c for c in COUNTRIES if c != nat])
        add(name, "country of citizenship", second)
    if rng.random() < 0.9:
        city = surname_city or rng.choice(CITY_NAMES[nat])
        add(name, "place of birth", city)
    pos = rng.choices(POSITIONS, weights=POS_WEIGHTS)[0]
    PLAYER_POS[name] = [pos]
    add(name, "position played on team", pos)
    if pos != "goalkeeper" and rng.random() < 0.3:
        p2 = rng.choice(SECOND_POS[pos])
        PLAYER_POS[name].append(p2)
        add(name, "position played on team", p2)
    by = rng.randint(1984, 2006)
    add(name, "date of birth", iso(by, rng.randint(1, 12), rng.randint(1, 28)))
    h = rng.randint(183, 199) if pos == "goalkeeper" else \
        rng.randint(181, 196) if pos == "centre-back" else rng.randint(164, 192)
    add(name, "height", h)
    years = max(0, 2024 - by - 17)
    apps = max(1, int(years * rng.uniform(14, 38)))
    lo, hi = GOAL_RATE[pos]
    goals = int(apps * rng.uniform(lo, hi))
    add(name, "number of matches played", apps)
    add(name, "career goals", goals)
    add(name, "preferred foot", rng.choices(FEET, weights=[28, 64, 8])[0])
    # clubs: mostly from one or two countries
    n_clubs = rng.choices([1, 2, 3, 4, 5], weights=[25, 32, 24, 13, 6])[0]
    if years < 3:
        n_clubs = 1
    home = nat if nat in LEAGUE_COUNTRIES and rng.random() < 0.55 else rng.choice(LEAGUE_COUNTRIES)
    pool = clubs_by_country[home][:]
    if n_clubs > 1:
        pool += rng.sample(clubs_by_country[rng.choice(LEAGUE_COUNTRIES)], 6)
    cls = []
    for cl in rng.sample(pool, min(n_clubs, len(pool))):
        if cl not in cls:
            cls.append(cl)
    PLAYER_CLUBS[name] = cls
    for cl in cls:
        add(name, "member of sports team", cl)
    if rng.random() < 0.55:
        yc = cls[0] if rng.random() < 0.5 else rng.choice(clubs_by_country[home])
        add(name, "youth club", yc)
    if rng.random() < 0.65:
        add(name, "represented by", rng.choice(AGENTS))
    if rng.random() < 0.8:
        shirt = 1 if pos == "goalkeeper" and rng.random() < 0.4 else rng.randint(2, 99)
        add(name, "shirt number", shirt)
    return name


# sibling pairs sharing a surname (and a country and a birthplace)
SIBLING_SURNAMES = ["Halloran", "Dragovic", "Castellano", "Mensah", "Lindqvist", "Rebelo",
                    "Okafor", "Westergaard", "Ibarra"]
for s in SIBLING_SURNAMES:
    firsts = rng.sample(FIRST, 2)
    nat = rng.choice(COUNTRIES)
    city = rng.choice(CITY_NAMES[nat])
    names = []
    for f in firsts:
        n = "%s %s" % (f, s)
        if n in used_names:
            n = "%s %s %s" % (f, rng.choice(FIRST), s)
        names.append(claim(n))
    for n in names:
        make_player(n, nat=nat, surname_city=city)
    add(names[0], "sibling", names[1])
    add(names[1], "sibling", names[0])

for i in range(400):
    make_player(person_name(rng))

# ---------------------------------------------------------------- awards for people
for p in PLAYERS:
    if rng.random() < 0.2:
        n = rng.choices([1, 2, 3], weights=[6, 3, 1])[0]
        cand = []
        for a in AWARDS_PLAYER:
            kind, c = AWARD_KIND[a]
            if kind == "boot" and not set(PLAYER_POS[p]) & {"centre-forward", "second striker",
                                                            "winger", "attacking midfielder"}:
                continue
            if a == "Continental Goalkeeper of the Year" and PLAYER_POS[p][0] != "goalkeeper":
                continue
            if c is not None and not any(LEAGUE_COUNTRY[CLUB_LEAGUE[cl]] == c
                                         for cl in PLAYER_CLUBS[p]):
                continue
            cand.append(a)
        for a in rng.sample(cand, min(n, len(cand))):
            add(p, "award received", a)
for m in MANAGERS:
    if rng.random() < 0.3:
        for a in rng.sample(AWARDS_MANAGER, rng.choice([1, 1, 2])):
            add(m, "award received", a)

# ---------------------------------------------------------------- seasons
SEASON_YEARS = [(2019, 20), (2020, 21), (2021, 22), (2022, 23), (2023, 24)]
for lg in LEAGUES:
    lg_clubs = [cl for cl in CLUBS if CLUB_LEAGUE[cl] == lg]
    strong = rng.sample(lg_clubs, 3)
    for y, y2 in SEASON_YEARS:
        sname = claim("%d-%02d %s" % (y, y2, lg))
        add(sname, "sports season of league or competition", lg)
        add(sname, "winner", rng.choice(strong + [rng.choice(lg_clubs)]))
        forwards = [p for p in PLAYERS if set(PLAYER_CLUBS[p]) & set(lg_clubs)
                    and set(PLAYER_POS[p]) & {"centre-forward", "second striker", "winger"}]
        if forwards:
            add(sname, "top scorer", rng.choice(forwards))

# ---------------------------------------------------------------- write
seen = set()
with open(OUT, "w", encoding="utf-8") as fh:
    for h, r, t in triples:
        key = (h, r, t)
        if key in seen:
            continue
        seen.add(key)
        fh.write("%s|%s|%s\n" % (h, r, t))

if __name__ == "__main__":
    ents = set()
    rels = set()
    literal_rels = {"date of birth", "height", "career goals", "number of matches played",
                    "shirt number", "inception", "maximum capacity", "date of official opening",
                    "league level", "population"}
    for h, r, t in seen:
        ents.add(h)
        rels.add(r)
        if r not in literal_rels:
            ents.add(t)
    print("triples", len(seen), "relations", len(rels), "entities", len(ents))
