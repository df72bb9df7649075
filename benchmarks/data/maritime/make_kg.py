#!/usr/bin/env python3
"""Deterministic generator of a small made-up MARITIME SHIPPING knowledge graph.

Writes kb.txt (head|relation|tail, one triple per line) next to this script.
Standard library only; fixed random seed.
"""
import os
import random

rng = random.Random(20211)
HERE = os.path.dirname(os.path.abspath(__file__))

triples = []
names_used = set()


def add(h, r, t):
    t = str(t)
    assert "|" not in h and "|" not in t
    triples.append((h, "mar:" + r, str(t)))


def uniq(name):
    assert name not in names_used, name
    names_used.add(name)
    return name


# ---------------------------------------------------------------- value entities
COUNTRIES = ["Panama", "Liberia", "Marshall Islands", "Malta", "Bahamas", "Singapore",
             "Greece", "Norway", "Cyprus", "Denmark", "Netherlands", "Germany", "Japan",
             "South Korea", "China", "United Kingdom", "Italy", "Portugal",
             "Antigua and Barbuda", "India", "Philippines", "Brazil"]
for c in COUNTRIES:
    uniq(c)
FLAG_WEIGHTS = {"Panama": 14, "Liberia": 12, "Marshall Islands": 10, "Malta": 7, "Bahamas": 5,
                "Singapore": 6, "Greece": 4, "Norway": 4, "Cyprus": 3, "Denmark": 3,
                "Netherlands": 2, "Germany": 2, "Japan": 3, "South Korea": 2, "China": 4,
                "United Kingdom": 2, "Italy": 2, "Portugal": 2, "Antigua and Barbuda": 2,
                "India": 1, "Philippines": 1, "Brazil": 1}

SEAS = ["North Sea", "Baltic Sea", "Mediterranean Sea", "South China Sea", "Arabian Sea",
        "Gulf of Guinea", "Caribbean Sea", "Yellow Sea", "Bay of Bengal", "Atlantic Ocean",
        "Pacific Ocean", "Red Sea"]
for s in SEAS:
    uniq(s)

CARGO = ["Containerised goods", "Crude oil", "Refined petroleum products",
         "Liquefied natural gas", "Liquefied petroleum gas", "Iron ore", "Coal", "Grain",
         "Bauxite", "Vehicles", "Passengers", "Chemicals", "Timber", "Steel coils",
         "Fertiliser", "Refrigerated fruit", "Cement"]
for c in CARGO:
    uniq(c)

# ship type -> (prefix, cargo options, GT range, length range, crew range)
SHIP_TYPES = {
    "Container ship": ("MV", ["Containerised goods", "Refrigerated fruit"], (18000, 215000), (170, 400), (18, 28)),
    "Bulk carrier": ("MV", ["Iron ore", "Coal", "Grain", "Bauxite", "Fertiliser", "Cement", "Steel coils"],
                     (20000, 110000), (160, 330), (19, 25)),
    "Oil tanker": ("MT", ["Crude oil", "Refined petroleum products"], (30000, 160000), (180, 333), (22, 30)),
    "Chemical tanker": ("MT", ["Chemicals", "Refined petroleum products", "Fertiliser"], (8000, 30000), (110, 185),
                        (18, 24)),
    "LNG carrier": ("LNG", ["Liquefied natural gas"], (90000, 140000), (280, 300), (28, 36)),
    "LPG carrier": ("LPG", ["Liquefied petroleum gas"], (15000, 50000), (150, 230), (20, 27)),
    "Car carrier": ("MV", ["Vehicles", "Steel coils"], (40000, 75000), (180, 232), (20, 26)),
    "Cruise ship": ("MS", ["Passengers"], (45000, 230000), (210, 362), (400, 1900)),
    "Ro-pax ferry": ("MS", ["Passengers", "Vehicles"], (15000, 60000), (140, 240), (60, 190)),
    "General cargo ship": ("MV", ["Timber", "Steel coils", "Cement", "Grain", "Fertiliser"], (3000, 18000), (85, 160),
                           (12, 19)),
    "Reefer ship": ("MV", ["Refrigerated fruit"], (7000, 15000), (130, 170), (16, 22)),
}
for t in SHIP_TYPES:
    uniq(t)
TYPE_WEIGHTS = {"Container ship": 26, "Bulk carrier": 22, "Oil tanker": 14, "Chemical tanker": 9,
                "LNG carrier": 6, "LPG carrier": 5, "Car carrier": 5, "Cruise ship": 6,
                "Ro-pax ferry": 5, "General cargo ship": 8, "Reefer ship": 3}

RANKS = ["Master", "Chief Officer", "Second Officer", "Chief Engineer", "Second Engineer",
         "Bosun", "Electro-Technical Officer"]
for r in RANKS:
    uniq(r)

ALLIANCES = ["Ocean Meridian Alliance", "Trident Alliance", "Blue Horizon Alliance",
             "Northstar Consortium"]
for a in ALLIANCES:
    uniq(a)

SOCIETIES = [("Nordvik Register", "Norway"), ("Meridian Classification Bureau", "United Kingdom"),
             ("Atlantic Register of Shipping", "Bahamas"), ("Hanseatic Marine Survey", "Germany"),
             ("Kaiyo Classification Society", "Japan"), ("Adriatic Register", "Italy"),
             ("Hellenic Ship Register", "Greece"), ("Orient Class Bureau", "China")]
for s, c in SOCIETIES:
    uniq(s)
    add(s, "headquartersCountry", c)

ENGINES = [("Halvorsen Diesel", "Norway", 1911), ("Mitsuka Heavy Engines", "Japan", 1934),
           ("Brenner-Voss Motoren", "Germany", 1898), ("Castellane Marine Power", "Italy", 1952),
           ("Wartholm Propulsion", "Denmark", 1921), ("Kyodo Engine Works", "Japan", 1947),
           ("Hanjin-Seo Power Systems", "South Korea", 1976), ("Dalian Crown Engines", "China", 1988)]
for e, c, y in ENGINES:
    uniq(e)
    add(e, "headquartersCountry", c)
    add(e, "foundedYear", y)

ACADEMIES = [("Halvard Maritime Academy", "Norway"), ("Kestrel Point Nautical College", "United Kingdom"),
             ("Piraeus Merchant Marine School", "Greece"), ("Manila Bay Seafarers Institute", "Philippines"),
             ("Goa Nautical Training Centre", "India"), ("Rostbrück Seefahrtschule", "Germany"),
             ("Kobe Higashi Maritime University", "Japan"), ("Busan Ocean Academy", "South Korea"),
             ("Dalian South Navigation College", "China"), ("Aalvik Skipper School", "Denmark"),
             ("Escola Náutica do Tejo", "Portugal"), ("Valletta Marine Institute", "Malta")]
ACAD_WEIGHT = {"Manila Bay Seafarers Institute": 6, "Goa Nautical Training Centre": 4,
               "Piraeus Merchant Marine School": 4, "Dalian South Navigation College": 3}
for a, c in ACADEMIES:
    uniq(a)
    add(a, "locatedIn", c)

# ---------------------------------------------------------------- ports
PORTS = [
    ("Puerto Almirante Vidal", "Panama", "Caribbean Sea"), ("Balboa Roads", "Panama", "Pacific Ocean"),
    ("Port Harmon", "Liberia", "Atlantic Ocean"), ("Greenville Sound", "Liberia", "Atlantic Ocean"),
    ("Ebeye Lagoon", "Marshall Islands", "Pacific Ocean"), ("Marsaxlokk Outer", "Malta", "Mediterranean Sea"),
    ("Freeport Lucaya North", "Bahamas", "Atlantic Ocean"), ("Nassau Deepwater", "Bahamas", "Atlantic Ocean"),
    ("Tanjong Seraya", "Singapore", "South China Sea"), ("Pasir Panjang East", "Singapore", "South China Sea"),
    ("Keratsini", "Greece", "Mediterranean Sea"), ("Thessalon Bay", "Greece", "Mediterranean Sea"),
    ("Volos Harbour", "Greece", "Mediterranean Sea"), ("Halvard", "Norway", "North Sea"),
    ("Kaelborg", "Norway", "North Sea"), ("Limassol New Port", "Cyprus", "Mediterranean Sea"),
    ("Aalvik", "Denmark", "North Sea"), ("Frederikshavn South", "Denmark", "Baltic Sea"),
    ("Maasvlakte West", "Netherlands", "North Sea"), ("Vlissingen-Oost", "Netherlands", "North Sea"),
    ("Rostbrück", "Germany", "Baltic Sea"), ("Jadeport Wilhelm", "Germany", "North Sea"),
    ("Kobe Higashi", "Japan", "Pacific Ocean"), ("Shimonoura", "Japan", "Pacific Ocean"),
    ("Busan New Harbour", "South Korea", "Yellow Sea"), ("Gwangyang Bay", "South Korea", "Yellow Sea"),
    ("Ningbo Zhoushan East", "China", "Yellow Sea"), ("Qingdao Dongjiakou", "China", "Yellow Sea"),
    ("Nansha Pearl", "China", "South China Sea"), ("Dalian South", "China", "Yellow Sea"),
    ("Tilbury Reach", "United Kingdom", "North Sea"), ("Southgate Docks", "United Kingdom", "Atlantic Ocean"),
    ("Felixmouth", "United Kingdom", "North Sea"), ("Gioia Tauro Sud", "Italy", "Mediterranean Sea"),
    ("La Spezia Levante", "Italy", "Mediterranean Sea"), ("Sines Atlântico", "Portugal", "Atlantic Ocean"),
    ("Leixões Norte", "Portugal", "Atlantic Ocean"), ("St. John's Harbour", "Antigua and Barbuda", "Caribbean Sea"),
    ("Jawaharpur", "India", "Arabian Sea"), ("Mundra West", "India", "Arabian Sea"),
    ("Vizag Outer Harbour", "India", "Bay of Bengal"), ("Batangas Bay", "Philippines", "South China Sea"),
    ("Subic Point", "Philippines", "South China Sea"), ("Santos Itapema", "Brazil", "Atlantic Ocean"),
    ("Ponta da Madeira", "Brazil", "Atlantic Ocean"), ("Tubarão Norte", "Brazil", "Atlantic Ocean"),
    ("Port Sudan South", None, "Red Sea"), ("Jeddah Islamic Quay", None, "Red Sea"),
    ("Salalah Gateway", None, "Arabian Sea"), ("Lagos Apapa East", None, "Gulf of Guinea"),
    ("Tema Deepwater", None, "Gulf of Guinea"), ("Abidjan Vridi", None, "Gulf of Guinea"),
    ("Kingston Freeport", None, "Caribbean Sea"), ("Cartagena Manga", None, "Caribbean Sea"),
    ("Gdańsk North Quay", None, "Baltic Sea"), ("Klaipėda Smelte", None, "Baltic Sea"),
    ("Colombo South", None, "Bay of Bengal"), ("Chittagong Karnaphuli", None, "Bay of Bengal"),
]
PORT_NAMES = []
for p, c, sea in PORTS:
    uniq(p)
    PORT_NAMES.append(p)
    if c:
        add(p, "locatedIn", c)
    add(p, "onSea", sea)
    add(p, "berthCount", rng.randint(4, 96))
PORTS_BY_COUNTRY = {}
for p, c, _ in PORTS:
    if c:
        PORTS_BY_COUNTRY.setdefault(c, []).append(p)
# hub ports get many voyages
PORT_WEIGHT = {p: 1 for p in PORT_NAMES}
for hub, w in [("Tanjong Seraya", 14), ("Maasvlakte West", 11), ("Ningbo Zhoushan East", 10),
               ("Busan New Harbour", 8), ("Jadeport Wilhelm", 6), ("Santos Itapema", 5),
               ("Keratsini", 5), ("Salalah Gateway", 4), ("Ponta da Madeira", 4)]:
    PORT_WEIGHT[hub] = w

# ---------------------------------------------------------------- shipyards
SHIPYARDS = [
    ("Okada Heavy Industries Shimonoura Yard", "Japan", 1919), ("Kobe Kaigan Dockyard", "Japan", 1951),
    ("Hanbit Shipbuilding & Marine", "South Korea", 1973), ("Geoje Daesan Heavy Industries", "South Korea", 1977),
    ("Ulsan Mipo Yard", "South Korea", 1975), ("Jiangnan Changxing Shipyard", "China", 1865),
    ("Dalian Bohai Shipbuilding", "China", 1898), ("Nantong Cosmo Yard", "China", 2004),
    ("Guangzhou Longxue Shipyard", "China", 2008), ("Shanghai Waigao Heavy", "China", 1999),
    ("Meyer-Lindqvist Werft", "Germany", 1795), ("Rostbrück Neptun Werft", "Germany", 1850),
    ("Fincanta Monfalcone", "Italy", 1908), ("Cantiere Navale di Levante", "Italy", 1962),
    ("Chantiers de l'Atlantique Sud", None, 1861), ("Odense Lindø Værft", "Denmark", 1917),
    ("Aker Halvard Verft", "Norway", 1841), ("Ulstein-Kaelborg Yard", "Norway", 1917),
    ("Damen Vlissingen", "Netherlands", 1875), ("Harland & Crewe", "United Kingdom", 1861),
    ("Cochin Malabar Shipyard", "India", 1972), ("Subic Hanjin-Point Yard", "Philippines", 2006),
    ("Estaleiro Atlântico Sul", "Brazil", 2005), ("Perama Ship Repair Zone", "Greece", 1956),
    ("Sembawang Seraya Marine", "Singapore", 1968), ("Imabari Hashihama Yard", "Japan", 1901),
    ("Tsuneishi Kotohira Yard", "Japan", 1917), ("Yangzijiang Jinghui Yard", "China", 1956),
]
YARD_NAMES = []
for y, c, f in SHIPYARDS:
    uniq(y)
    YARD_NAMES.append(y)
    if c:
        add(y, "locatedIn", c)
    add(y, "foundedYear", f)
YARD_WEIGHT = {y: 1 for y in YARD_NAMES}
for y, w in [("Hanbit Shipbuilding & Marine", 9), ("Jiangnan Changxing Shipyard", 7),
             ("Okada Heavy Industries Shimonoura Yard", 6), ("Geoje Daesan Heavy Industries", 6),
             ("Imabari Hashihama Yard", 5), ("Fincanta Monfalcone", 3), ("Meyer-Lindqvist Werft", 3)]:
    YARD_WEIGHT[y] = w
CRUISE_YARDS = ["Fincanta Monfalcone", "Meyer-Lindqvist Werft", "Chantiers de l'Atlantique Sud",
                "Cantiere Navale di Levante", "Rostbrück Neptun Werft"]

# ---------------------------------------------------------------- people
FIRST = ["Anders", "Maria", "Ioannis", "Kenji", "Ravi", "Olga", "Tomasz", "Ingrid", "Jun-ho", "Li",
         "Ricardo", "Fatima", "Elena", "Henrik", "Aiko", "Samuel", "Marisol", "Dimitrios", "Priya",
         "Lars", "Soren", "Ewa", "Carlos", "Nikolai", "Chidi", "Yuki", "Amara", "Matteo", "Freya",
         "Joaquim", "Hyun-woo", "Wei", "Jonas", "Katarina", "Andile", "Benedikt", "Noor", "Rafael",
         "Sigrid", "Takumi", "Ximena", "Efua", "Paolo", "Hamid", "Astrid", "Mateus", "Rosalind",
         "Vikram", "Teodora", "Emeka", "Gunnar", "Mei", "Arjun", "Helga", "Bartholomew", "Luz"]
LAST = ["Haugland", "Papadakis", "Tanaka", "Iyer", "Kowalski", "Lindqvist", "Park", "Zhang",
        "Oliveira", "Rahman", "Vasquez", "Nakamura", "Mensah", "Bianchi", "Christodoulou", "Sorensen",
        "Reyes", "Okafor", "Petrov", "Eriksen", "Moreau", "Van der Berg", "Schultz", "Kim", "Wang",
        "Fernandes", "Nair", "Andersson", "Galanis", "Mwangi", "Castellano", "Brennan", "Hoshino",
        "De Souza", "Halvorsen", "Dela Cruz", "Santos", "Kuznetsova", "O'Rourke", "Abernathy",
        "Villanueva", "Stavridis", "Jensen", "Takeda", "Menon", "Lombardi", "Achterberg", "Ishikawa"]
NAT_BY_LAST = {"Haugland": "Norway", "Papadakis": "Greece", "Tanaka": "Japan", "Iyer": "India",
               "Kowalski": None, "Lindqvist": "Norway", "Park": "South Korea", "Zhang": "China",
               "Oliveira": "Brazil", "Rahman": "India", "Vasquez": "Philippines", "Nakamura": "Japan",
               "Mensah": "Liberia", "Bianchi": "Italy", "Christodoulou": "Cyprus", "Sorensen": "Denmark",
               "Reyes": "Philippines", "Okafor": "Liberia", "Petrov": None, "Eriksen": "Denmark",
               "Moreau": None, "Van der Berg": "Netherlands", "Schultz": "Germany", "Kim": "South Korea",
               "Wang": "China", "Fernandes": "Portugal", "Nair": "India", "Andersson": "Norway",
               "Galanis": "Greece", "Mwangi": None, "Castellano": "Italy", "Brennan": "United Kingdom",
               "Hoshino": "Japan", "De Souza": "Brazil", "Halvorsen": "Norway", "Dela Cruz": "Philippines",
               "Santos": "Philippines", "Kuznetsova": None, "O'Rourke": "United Kingdom",
               "Abernathy": "United Kingdom", "Villanueva": "Philippines", "Stavridis": "Greece",
               "Jensen": "Denmark", "Takeda": "Japan", "Menon": "India", "Lombardi": "Italy",
               "Achterberg": "Netherlands", "Ishikawa": "Japan"}
INITIALS = "ABCDEFGHJKLMNPRSTW"


def make_person():
    while True:
        f = rng.choice(FIRST)
        last = rng.choice(LAST)
        r = rng.random()
        if r < 0.22:
            n = "%s %s. %s" % (f, rng.choice(INITIALS), last)
        elif r < 0.28:
            n = "%s. %s" % (rng.choice(INITIALS), last)
        elif r < 0.33:
            n = "%s %s %s" % (f, rng.choice(FIRST), last)
        else:
            n = "%s %s" % (f, last)
        if n not in names_used:
            uniq(n)
            return n, last


def nationality_for(last):
    c = NAT_BY_LAST[last]
    if c is None or rng.random() < 0.12:
        c = rng.choice(COUNTRIES)
    return c


# ---------------------------------------------------------------- shipping lines
LINES = [
    ("Meridian Box Lines", "Denmark", 1904, "c"), ("Halcyon Tankers", "Greece", 1971, "t"),
    ("Tarrow & Brandt Shipping", "United Kingdom", 1888, "g"), ("Nordvik Reederei", "Germany", 1872, "c"),
    ("Azure Crest Cruises", "Italy", 1987, "p"), ("Pelagos Bulk Carriers", "Greece", 1958, "b"),
    ("Kaiun Pacific Lines", "Japan", 1893, "c"), ("Hanbada Marine", "South Korea", 1976, "c"),
    ("Golden Junk Container Line", "China", 1961, "c"), ("Orient Star Bulk", "China", 1993, "b"),
    ("Stavros Navigation", "Greece", 1949, "t"), ("Seraya Gas Transport", "Singapore", 2001, "l"),
    ("Vestfjord Gas Shipping", "Norway", 1973, "l"), ("Sines Atlantic Shipping", "Portugal", 1999, "g"),
    ("Laguna Verde Ferries", "Italy", 1959, "f"), ("Baltic Link Ferries", "Denmark", 1966, "f"),
    ("Equator Reefer Lines", "Netherlands", 1934, "r"), ("Ro-Nippon Car Carriers", "Japan", 1968, "v"),
    ("Hellas Chemical Tankers", "Greece", 1984, "t"), ("Cape Hatteras Shipping", "Bahamas", 1990, "b"),
    ("Liberty Deepsea Holdings", "Liberia", 2009, "b"), ("Magellan Cruise Company", "United Kingdom", 1839, "p"),
    ("Bharat Ocean Lines", "India", 1948, "c"), ("Archipelago Tramp Services", "Philippines", 1979, "g"),
    ("Santos Navegação", "Brazil", 1955, "b"), ("Maas Delta Shipping", "Netherlands", 1919, "g"),
    ("Kestrel Tankers", "United Kingdom", 1997, "t"), ("Valletta Bulk Management", "Malta", 2006, "b"),
    ("Trident Marine Logistics", "Singapore", 1980, "c"), ("Aegean Bluewater", "Cyprus", 2012, "b"),
    ("Nagasaki Kisen", "Japan", 1917, "b"), ("Wilhelmshafen Container AG", "Germany", 1998, "c"),
    ("Polaris Car Logistics", "Norway", 1958, "v"), ("Iberian Chemical Carriers", "Portugal", 1991, "t"),
    ("Hanseatic Feeder Service", "Germany", 2003, "c"), ("Eastwind Cruises", "Singapore", 2015, "p"),
]
CONTAINER_ALLIANCE = {"Meridian Box Lines": "Ocean Meridian Alliance", "Nordvik Reederei": "Trident Alliance",
                      "Kaiun Pacific Lines": "Blue Horizon Alliance", "Hanbada Marine": "Blue Horizon Alliance",
                      "Golden Junk Container Line": "Ocean Meridian Alliance",
                      "Bharat Ocean Lines": "Northstar Consortium",
                      "Trident Marine Logistics": "Trident Alliance", "Wilhelmshafen Container AG": "Trident Alliance",
                      "Hanseatic Feeder Service": "Northstar Consortium"}
SUBSIDIARY = {"Hanseatic Feeder Service": "Nordvik Reederei", "Hellas Chemical Tankers": "Halcyon Tankers",
              "Eastwind Cruises": "Azure Crest Cruises", "Aegean Bluewater": "Pelagos Bulk Carriers",
              "Valletta Bulk Management": "Pelagos Bulk Carriers", "Polaris Car Logistics": "Vestfjord Gas Shipping",
              "Laguna Verde Ferries": "Azure Crest Cruises"}
LINE_NAMES = []
for n, c, y, kind in LINES:
    uniq(n)
    LINE_NAMES.append(n)
    add(n, "headquartersCountry", c)
    add(n, "foundedYear", y)
    if n in CONTAINER_ALLIANCE:
        add(n, "memberOfAlliance", CONTAINER_ALLIANCE[n])
    if n in SUBSIDIARY:
        add(n, "subsidiaryOf", SUBSIDIARY[n])
    ceo, last = make_person()
    add(n, "ceo", ceo)
    add(ceo, "nationality", nationality_for(last))
    add(ceo, "birthYear", rng.randint(1952, 1982))
# Which line kinds operate which ship types
KIND_TYPES = {"c": ["Container ship"], "t": ["Oil tanker", "Chemical tanker"],
              "g": ["General cargo ship", "Bulk carrier"], "p": ["Cruise ship"],
              "b": ["Bulk carrier"], "l": ["LNG carrier", "LPG carrier"], "f": ["Ro-pax ferry"],
              "r": ["Reefer ship", "Container ship"], "v": ["Car carrier"]}
LINES_FOR_TYPE = {}
for n, c, y, kind in LINES:
    for t in KIND_TYPES[kind]:
        LINES_FOR_TYPE.setdefault(t, []).append(n)
LINES_FOR_TYPE["Chemical tanker"].append("Iberian Chemical Carriers")
LINE_WEIGHT = {n: 1 for n in LINE_NAMES}
for n, w in [("Meridian Box Lines", 8), ("Golden Junk Container Line", 5), ("Pelagos Bulk Carriers", 6),
             ("Halcyon Tankers", 5), ("Kaiun Pacific Lines", 3), ("Orient Star Bulk", 3)]:
    LINE_WEIGHT[n] = w

# ---------------------------------------------------------------- ships
SHIP_WORDS_A = ["Nordic", "Cape", "Saltmarsh", "Kestrel", "Aurora", "Golden", "Silver", "Atlantic",
                "Pacific", "Coral", "Northern", "Southern", "Eastern", "Western", "Blue", "Crimson",
                "Harbour", "Ocean", "Polar", "Iron", "Amber", "Jade", "Ivory", "Stormy", "Serene",
                "Morning", "Evening", "Royal", "Baltic", "Aegean", "Emerald", "Sable", "Lucky", "Bright"]
SHIP_WORDS_B = ["Heron", "Pioneer", "Star", "Spirit", "Voyager", "Horizon", "Crest", "Dawn",
                "Trader", "Venture", "Explorer", "Albatross", "Mariner", "Guardian", "Navigator",
                "Glory", "Harmony", "Fortune", "Petrel", "Tern", "Breeze", "Current", "Meridian",
                "Endeavour", "Integrity", "Promise", "Resolve", "Unity", "Osprey", "Wave"]
SHIP_SINGLE = ["Arcturus", "Valkyrie", "Kalliope", "Ines Marguerite", "Santa Leocadia", "Thalassa",
               "Mirabelle", "Hyperion", "Oriana Bay", "Astraea", "Castoria", "Seraphina", "Hokusei Maru",
               "Koyo Maru No. 7", "Shinsei Maru", "Anna-Lena Schulte", "Frieda Rickmers", "Eleni K.",
               "Maria Theresa", "Sagres Star", "Cassiopeia", "Minerva", "Nordlys", "Skagen Trader",
               "Tui Manu", "Bahia Serena", "Evangelia", "Kapitan Vorobyov", "Pearl of Salalah",
               "Lady Rosalind", "Paloma", "Daewoong Pioneer", "Hua Xiang 18", "Zhen Hai 3", "Yuan Fu",
               "Iolanthe", "Leopoldina", "Sankt Jorgen", "Aurelia", "Halvard Spirit"]
rng.shuffle(SHIP_SINGLE)

N_SHIPS = 200
type_list = list(TYPE_WEIGHTS)


def wchoice(d):
    keys = list(d)
    return rng.choices(keys, weights=[d[k] for k in keys], k=1)[0]


ships = []  # dicts
single_iter = iter(SHIP_SINGLE)
for i in range(N_SHIPS):
    stype = wchoice(TYPE_WEIGHTS)
    prefix, cargos, gtr, lr, cr = SHIP_TYPES[stype]
    while True:
        if rng.random() < 0.2:
            body = next(single_iter, None)
            if body is None:
                body = "%s %s" % (rng.choice(SHIP_WORDS_A), rng.choice(SHIP_WORDS_B))
        else:
            body = "%s %s" % (rng.choice(SHIP_WORDS_A), rng.choice(SHIP_WORDS_B))
            if rng.random() < 0.08:
                body += " " + rng.choice(["II", "III", "IV"])
        name = "%s %s" % (prefix, body)
        if name not in names_used:
            break
    uniq(name)
    ships.append({"name": name, "type": stype})

# sister-ship groups: consecutive ships of same type get grouped
by_type = {}
for s in ships:
    by_type.setdefault(s["type"], []).append(s)

year_weights = list(range(1988, 2024))
for s in ships:
    stype = s["type"]
    prefix, cargos, gtr, lr, cr = SHIP_TYPES[stype]
    name = s["name"]
    add(name, "shipType", stype)
    # shipyard
    if stype == "Cruise ship":
        yard = rng.choice(CRUISE_YARDS)
    else:
        yard = wchoice(YARD_WEIGHT)
        while yard in CRUISE_YARDS and rng.random() < 0.7:
            yard = wchoice(YARD_WEIGHT)
    s["yard"] = yard
    add(name, "builtBy", yard)
    # operator
    cands = LINES_FOR_TYPE[stype]
    op = rng.choices(cands, weights=[LINE_WEIGHT[c] for c in cands], k=1)[0]
    s["op"] = op
    add(name, "operatedBy", op)
    # former operators
    nform = rng.choices([0, 1, 2, 3], weights=[55, 30, 12, 3], k=1)[0]
    formers = set()
    for _ in range(nform):
        fo = rng.choice(cands + rng.sample(LINE_NAMES, 2))
        if fo != op:
            formers.add(fo)
    for fo in sorted(formers):
        add(name, "formerOperator", fo)
    # flag
    flag = wchoice(FLAG_WEIGHTS)
    s["flag"] = flag
    add(name, "flagState", flag)
    add(name, "portOfRegistry", rng.choice(PORTS_BY_COUNTRY[flag]))
    add(name, "classedBy", rng.choices([x for x, _ in SOCIETIES], weights=[6, 5, 4, 4, 4, 2, 3, 3], k=1)[0])
    # cargo
    k = min(len(cargos), rng.choice([1, 1, 2, 2, 3]))
    for c in sorted(rng.sample(cargos, k)):
        add(name, "carriesCargo", c)
    gt = rng.randint(*gtr)
    gt = gt - gt % 10 + rng.randint(0, 9)
    s["gt"] = gt
    add(name, "grossTonnage", gt)
    add(name, "lengthMetres", rng.randint(*lr))
    yb = rng.randint(1988, 2023)
    s["year"] = yb
    add(name, "yearBuilt", yb)
    add(name, "crewSize", rng.randint(*cr))
    # launch date: same year or the year before
    ly = yb if rng.random() < 0.6 else yb - 1
    add(name, "launchDate", "%04d-%02d-%02d" % (ly, rng.randint(1, 12), rng.randint(1, 28)))
    add(name, "engineMaker", rng.choices([e for e, _, _ in ENGINES], weights=[5, 6, 7, 2, 6, 3, 3, 2], k=1)[0])

# sister ships: pairs/triples of same type, same yard
for stype, lst in sorted(by_type.items()):
    lst = list(lst)
    rng.shuffle(lst)
    i = 0
    while i + 1 < len(lst):
        g = rng.choice([2, 2, 3])
        group = lst[i:i + g]
        i += g + rng.choice([0, 1, 2])
        if len(group) < 2 or rng.random() < 0.45:
            continue
        for a in group:
            for b in group:
                if a is not b:
                    add(a["name"], "sisterShipOf", b["name"])

# ---------------------------------------------------------------- crew
# captains: one ship may have 1-2 masters over time; some masters command several ships
masters = []
for _ in range(85):
    p, last = make_person()
    masters.append((p, last))
crew = []
for _ in range(135):
    p, last = make_person()
    crew.append((p, last))

ship_names = [s["name"] for s in ships]
master_load = {m: 0 for m, _ in masters}
for s in ships:
    nm = rng.choices([1, 2], weights=[70, 30], k=1)[0]
    for m in rng.sample(masters, nm):
        add(s["name"], "commandedBy", m[0])
        master_load[m[0]] += 1

for p, last in masters:
    add(p, "rank", "Master")
    add(p, "nationality", nationality_for(last))
    add(p, "birthYear", rng.randint(1955, 1988))
    if rng.random() < 0.85:
        add(p, "trainedAt", rng.choices([a for a, _ in ACADEMIES],
                                        weights=[ACAD_WEIGHT.get(a, 2) for a, _ in ACADEMIES], k=1)[0])
    # earlier service aboard other ships
    for sh in rng.sample(ship_names, rng.choice([0, 1, 1, 2, 3])):
        add(p, "servedAboard", sh)

# a few "hub" crew members who served aboard many ships
for idx, (p, last) in enumerate(crew):
    rank = rng.choices(RANKS[1:], weights=[5, 4, 5, 4, 3, 2], k=1)[0]
    add(p, "rank", rank)
    add(p, "nationality", nationality_for(last))
    add(p, "birthYear", rng.randint(1960, 2001))
    if rng.random() < 0.8:
        add(p, "trainedAt", rng.choices([a for a, _ in ACADEMIES],
                                        weights=[ACAD_WEIGHT.get(a, 2) for a, _ in ACADEMIES], k=1)[0])
    n = rng.choice([1, 1, 2, 2, 3, 4]) if idx >= 6 else rng.randint(7, 11)
    for sh in rng.sample(ship_names, n):
        add(p, "servedAboard", sh)

# ---------------------------------------------------------------- voyages
N_VOY = 220
voy_ids = set()
for i in range(N_VOY):
    s = rng.choice(ships)
    while True:
        vid = "Voyage %s%s-%03d" % (rng.choice("ABCDEHKLMNRSTW"), rng.choice("0123456789EWNS"), rng.randint(1, 999))
        if vid not in voy_ids:
            break
    voy_ids.add(vid)
    uniq(vid)
    add(vid, "voyageShip", s["name"])
    dep = wchoice(PORT_WEIGHT)
    arr = wchoice(PORT_WEIGHT)
    while arr == dep:
        arr = wchoice(PORT_WEIGHT)
    add(vid, "departurePort", dep)
    add(vid, "arrivalPort", arr)
    calls = set()
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        c = wchoice(PORT_WEIGHT)
        if c not in (dep, arr):
            calls.add(c)
    for c in sorted(calls):
        add(vid, "callsAt", c)
    y = rng.randint(max(s["year"], 2015), 2024)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    add(vid, "departureDate", "%04d-%02d-%02d" % (y, m, d))
    dur = rng.randint(3, 45)
    # arrival date computed via ordinal
    import datetime
    ad = datetime.date(y, m, d) + datetime.timedelta(days=dur)
    add(vid, "arrivalDate", ad.isoformat())
    prefix, cargos, *_ = SHIP_TYPES[s["type"]]
    add(vid, "cargoCarried", rng.choice(cargos))

# ---------------------------------------------------------------- write
seen = set()
out = []
for t in triples:
    if t not in seen:
        seen.add(t)
        out.append(t)
with open(os.path.join(HERE, "kb.txt"), "w", encoding="utf-8") as f:
    for h, r, t in out:
        f.write("%s|%s|%s\n" % (h, r, t))

ents = set()
lit_rels = {"mar:grossTonnage", "mar:lengthMetres", "mar:yearBuilt", "mar:crewSize", "mar:launchDate",
            "mar:birthYear", "mar:foundedYear", "mar:berthCount", "mar:departureDate", "mar:arrivalDate"}
for h, r, t in out:
    ents.add(h)
    if r not in lit_rels:
        ents.add(t)
print("triples", len(out), "entities", len(ents), "relations", len({r for _, r, _ in out}))
