#!/usr/bin/env python3
"""Make a small, made-up space-exploration knowledge graph.

Standard library only, fixed seed: running it twice writes the same kb.txt.
Relations are full IRIs in one namespace, http://example.org/space/<lowerCamelCase>.
"""
import datetime
import os
import random

SEED = 20251130
NS = "http://example.org/space/"
HERE = os.path.dirname(os.path.abspath(__file__))

rng = random.Random(SEED)
triples = []
seen = set()
names = {}  # name -> type


def ent(name, kind):
    assert "|" not in name, name
    if name in names:
        assert names[name] == kind, (name, kind, names[name])
    names[name] = kind
    return name


def add(h, rel, t):
    key = (h, rel, str(t))
    if key in seen:
        return
    seen.add(key)
    triples.append((h, NS + rel, str(t)))


# ---------------------------------------------------------------- countries
COUNTRIES = [
    "United States", "Russia", "China", "Japan", "India", "France", "Germany",
    "Italy", "Canada", "United Kingdom", "Brazil", "South Korea", "Israel",
    "Australia", "Sweden", "Norway", "Spain", "Ukraine", "Kazakhstan",
    "New Zealand", "United Arab Emirates", "Argentina",
]
for c in COUNTRIES:
    ent(c, "country")

# ---------------------------------------------------------------- agencies
# name, country, founding year
AGENCIES = [
    ("American Orbital Exploration Agency", "United States", 1958),
    ("Federal Aerospace Directorate", "Russia", 1992),
    ("China Deep Space Administration", "China", 1993),
    ("Japan Astronautics Research Organization", "Japan", 2003),
    ("Indian Space Development Organisation", "India", 1969),
    ("Centre National d'Études Orbitales", "France", 1961),
    ("German Aerospace Institute", "Germany", 1969),
    ("Agenzia Spaziale Orbitale", "Italy", 1988),
    ("Canadian Space Directorate", "Canada", 1989),
    ("UK Orbital Agency", "United Kingdom", 2010),
    ("Brazilian Space Program Office", "Brazil", 1994),
    ("Korea Aerospace Research Agency", "South Korea", 1989),
    ("Israel Space Authority", "Israel", 1983),
    ("Australian Space Office", "Australia", 2018),
    ("Swedish Space Board", "Sweden", 1972),
    ("Norwegian Space Centre", "Norway", 1987),
    ("Spanish Space Agency", "Spain", 2023),
    ("Ukrainian Space Bureau", "Ukraine", 1992),
    ("Kazakh National Space Agency", "Kazakhstan", 2007),
    ("Emirates Space Centre", "United Arab Emirates", 2014),
    ("Argentine Space Activities Commission", "Argentina", 1991),
    ("European Orbital Consortium", "France", 1975),
    ("New Zealand Space Agency", "New Zealand", 2016),
    ("Soviet Cosmonautics Bureau", "Russia", 1955),
]
AG = {}
FOUNDED = {a: y for a, _, y in AGENCIES}
for a, c, y in AGENCIES:
    ent(a, "agency")
    add(a, "headquarteredIn", c)
    add(a, "foundingYear", y)
    AG[a] = c
US = "American Orbital Exploration Agency"
RU = "Federal Aerospace Directorate"
SU = "Soviet Cosmonautics Bureau"
CN = "China Deep Space Administration"
JP = "Japan Astronautics Research Organization"
IN = "Indian Space Development Organisation"
EU = "European Orbital Consortium"
FR = "Centre National d'Études Orbitales"
DE = "German Aerospace Institute"
IT = "Agenzia Spaziale Orbitale"
CA = "Canadian Space Directorate"
UK = "UK Orbital Agency"
AE = "Emirates Space Centre"
KR = "Korea Aerospace Research Agency"
IL = "Israel Space Authority"
BR = "Brazilian Space Program Office"

# ---------------------------------------------------------------- manufacturers
MANUFACTURERS = [
    ("Halvorsen Aerospace", "United States", 1961),
    ("Meridian Dynamics", "United States", 1947),
    ("Kestrel Launch Systems", "United States", 2004),
    ("Bell & Carver Space Systems", "United States", 1939),
    ("Pacifica Rocket Company", "United States", 2016),
    ("Stellar Frontier Inc.", "United States", 2000),
    ("Redstone Avionics", "United States", 1952),
    ("Northway Orbital", "United States", 1982),
    ("Cosmodyne Laboratories", "United States", 1971),
    ("Energon Rocket Works", "Russia", 1946),
    ("Korolev Design Bureau No. 2", "Russia", 1956),
    ("Samara Progress Plant", "Russia", 1959),
    ("Khrunov Machine Works", "Russia", 1951),
    ("Lavochkin-Volga Association", "Russia", 1937),
    ("Shenhua Aerospace Corporation", "China", 1999),
    ("Great Wall Launch Industry", "China", 1980),
    ("Beijing Institute of Spacecraft Systems", "China", 1968),
    ("Mitsuda Heavy Industries", "Japan", 1934),
    ("Nakamura Space Electronics", "Japan", 1972),
    ("Vikram Propulsion Ltd", "India", 1995),
    ("Bharat Satellite Centre", "India", 1972),
    ("Astrium Nord", "France", 1970),
    ("Thales-Aubert Espace", "France", 1985),
    ("OHB Sternwerk", "Germany", 1981),
    ("Bremen Orbital Systems", "Germany", 1990),
    ("Leonardo Celeste", "Italy", 1964),
    ("Maple Robotics", "Canada", 1969),
    ("Surrey Smallsat Works", "United Kingdom", 1985),
    ("Hangil Aerospace", "South Korea", 1999),
    ("Rafael Orbital Division", "Israel", 1948),
    ("Southern Cross Launch", "Australia", 2015),
    ("Tui Rocket Lab", "New Zealand", 2006),
    ("INVAP Espacial", "Argentina", 1976),
    ("Yuzhne Design Office", "Ukraine", 1954),
    ("Falak Space Industries", "United Arab Emirates", 2015),
    ("Kiruna Instruments AB", "Sweden", 1988),
]
MF = {}
for m, c, y in MANUFACTURERS:
    ent(m, "manufacturer")
    add(m, "headquarteredIn", c)
    add(m, "foundingYear", y)
    MF.setdefault(c, []).append(m)

# ---------------------------------------------------------------- launch sites
# name, country, operator
SITES = [
    ("Cape Meridian Space Force Station", "United States", US),
    ("Kennard Space Center", "United States", US),
    ("Vandal Ridge Launch Complex", "United States", US),
    ("Wallace Island Flight Facility", "United States", US),
    ("Northern Steppe Cosmodrome", "Kazakhstan", RU),
    ("Mirny Cosmodrome", "Russia", RU),
    ("Amur Cosmodrome", "Russia", RU),
    ("Gobi Launch Center", "China", CN),
    ("Hainan Coastal Launch Site", "China", CN),
    ("Liangshan Launch Center", "China", CN),
    ("Tanemura Space Center", "Japan", JP),
    ("Pulicat Island Spaceport", "India", IN),
    ("Guiana Equatorial Spaceport", "France", EU),
    ("Andvik Spaceport", "Norway", "Norwegian Space Centre"),
    ("Kiruna Rocket Range", "Sweden", "Swedish Space Board"),
    ("Whyalla Test Range", "Australia", "Australian Space Office"),
    ("Mahina Peninsula Launch Complex", "New Zealand", "New Zealand Space Agency"),
    ("Sao Luis Equatorial Launch Base", "Brazil", BR),
    ("Oenaro Space Center", "South Korea", KR),
    ("Negev Coast Launch Site", "Israel", IL),
    ("Sutherland Vertical Spaceport", "United Kingdom", UK),
]
SITE_BY_COUNTRY = {}
for s, c, op in SITES:
    ent(s, "launch site")
    add(s, "locatedIn", c)
    add(s, "siteOperator", op)
    SITE_BY_COUNTRY.setdefault(c, []).append(s)

# ---------------------------------------------------------------- shared values
PROPELLANTS = ["RP-1 and liquid oxygen", "liquid hydrogen and liquid oxygen",
               "methane and liquid oxygen", "hypergolic UDMH and nitrogen tetroxide",
               "solid propellant"]
MISSION_TYPES = ["crewed orbital flight", "crewed lunar landing", "cargo resupply",
                 "orbital survey", "surface landing", "rover exploration", "flyby",
                 "sample return", "astronomical observatory", "communications relay",
                 "Earth observation", "technology demonstration"]
STATUSES = ["completed", "failed", "partial success", "ongoing", "planned"]
ORBITS = ["low Earth orbit", "sun-synchronous orbit", "geostationary orbit",
          "medium Earth orbit", "lunar orbit", "heliocentric orbit",
          "Sun-Earth L2 halo orbit", "areocentric orbit"]
CLASSES = ["crew capsule", "space station", "cargo vehicle", "orbiter", "lander",
           "rover", "flyby probe", "space telescope", "satellite"]
BRANCHES = ["Air Force", "Navy", "Army", "Marine Corps", "civilian", "Air Force Reserve"]
for v in PROPELLANTS:
    ent(v, "propellant")
for v in MISSION_TYPES:
    ent(v, "mission type")
for v in STATUSES:
    ent(v, "mission status")
for v in ORBITS:
    ent(v, "orbit")
for v in CLASSES:
    ent(v, "spacecraft class")
for v in BRANCHES:
    ent(v, "service branch")

# ---------------------------------------------------------------- celestial bodies
# name, parent (orbits), mean radius km
BODIES = [
    ("Sun", None, 696340), ("Mercury", "Sun", 2440), ("Venus", "Sun", 6052),
    ("Earth", "Sun", 6371), ("Moon", "Earth", 1737), ("Mars", "Sun", 3390),
    ("Phobos", "Mars", 11), ("Deimos", "Mars", 6), ("Jupiter", "Sun", 69911),
    ("Io", "Jupiter", 1822), ("Europa", "Jupiter", 1561), ("Ganymede", "Jupiter", 2634),
    ("Callisto", "Jupiter", 2410), ("Saturn", "Sun", 58232), ("Titan", "Saturn", 2575),
    ("Enceladus", "Saturn", 252), ("Uranus", "Sun", 25362), ("Neptune", "Sun", 24622),
    ("Triton", "Neptune", 1353), ("Ceres", "Sun", 470), ("Vesta", "Sun", 263),
    ("Pluto", "Sun", 1188), ("4417 Halvard", "Sun", 3), ("Comet Oterma-Kiel", "Sun", 5),
    ("2031 Bennu-Ravel", "Sun", 1), ("Psyche Minor", "Sun", 113),
]
for b, p, r in BODIES:
    ent(b, "celestial body")
    if p:
        add(b, "orbits", p)
    add(b, "meanRadius", r)

# ---------------------------------------------------------------- rockets
# name, manufacturer, payload kg LEO, first launch year, height m, propellant
ROCKETS = [
    ("Aegis V", "Meridian Dynamics", 18850, 2002, 58, 0),
    ("Aegis V Heavy", "Meridian Dynamics", 28790, 2004, 72, 1),
    ("Kestrel 1", "Kestrel Launch Systems", 670, 2006, 21, 0),
    ("Kestrel 9", "Kestrel Launch Systems", 22800, 2010, 70, 0),
    ("Kestrel Heavy", "Kestrel Launch Systems", 63800, 2018, 70, 0),
    ("Colossus Super Heavy", "Kestrel Launch Systems", 150000, 2023, 121, 2),
    ("Saturnia IB", "Bell & Carver Space Systems", 21000, 1966, 68, 1),
    ("Saturnia V", "Bell & Carver Space Systems", 140000, 1967, 111, 1),
    ("Delphi IV", "Halvorsen Aerospace", 9420, 1989, 39, 3),
    ("Delphi IV Heavy", "Halvorsen Aerospace", 28370, 2004, 72, 1),
    ("Shuttle Stack STS", "Northway Orbital", 27500, 1981, 56, 4),
    ("Nova Heavy", "Stellar Frontier Inc.", 45000, 2024, 98, 2),
    ("Pacifica Neutron", "Pacifica Rocket Company", 13000, 2025, 43, 2),
    ("Sokol-2", "Energon Rocket Works", 7020, 1966, 46, 0),
    ("Sokol-2.1b", "Samara Progress Plant", 8200, 2006, 46, 0),
    ("Burya-M", "Khrunov Machine Works", 23000, 1965, 58, 3),
    ("Burya Heavy", "Khrunov Machine Works", 24500, 2014, 64, 0),
    ("Vostok-K", "Korolev Design Bureau No. 2", 4730, 1961, 31, 0),
    ("Zenith-3SL", "Yuzhne Design Office", 13740, 1999, 59, 0),
    ("Longbow 2C", "Great Wall Launch Industry", 3850, 1982, 43, 3),
    ("Longbow 2F", "Great Wall Launch Industry", 8400, 1999, 62, 3),
    ("Longbow 3B", "Great Wall Launch Industry", 11500, 1996, 56, 1),
    ("Longbow 5", "Shenhua Aerospace Corporation", 25000, 2016, 57, 1),
    ("Longbow 7", "Shenhua Aerospace Corporation", 13500, 2016, 53, 0),
    ("Hinode H-IIA", "Mitsuda Heavy Industries", 10000, 2001, 53, 1),
    ("Hinode H3", "Mitsuda Heavy Industries", 6500, 2023, 63, 1),
    ("Epsilon-S", "Nakamura Space Electronics", 1500, 2013, 26, 4),
    ("Garuda PSLV-XL", "Vikram Propulsion Ltd", 3800, 1993, 44, 4),
    ("Garuda GSLV Mk3", "Vikram Propulsion Ltd", 10000, 2017, 43, 1),
    ("Arbalest 5", "Astrium Nord", 21000, 1996, 52, 1),
    ("Arbalest 6", "Astrium Nord", 21650, 2024, 62, 1),
    ("Vespa C", "Leonardo Celeste", 3300, 2012, 35, 4),
    ("Haneul-1", "Hangil Aerospace", 3300, 2021, 47, 0),
    ("Kelev LV", "Rafael Orbital Division", 800, 1988, 26, 4),
    ("VLS-Alfa", "INVAP Espacial", 380, 2019, 19, 4),
    ("Tui Electron", "Tui Rocket Lab", 300, 2017, 18, 0),
    ("Southern Cross Eris", "Southern Cross Launch", 305, 2024, 23, 4),
    ("Vega Borealis", "OHB Sternwerk", 1500, 2025, 30, 2),
]
ROCKET = {}
for r, m, pay, fy, h, p in ROCKETS:
    ent(r, "rocket")
    add(r, "manufacturedBy", m)
    add(r, "payloadCapacity", pay)
    add(r, "firstLaunchYear", fy)
    add(r, "rocketHeight", h)
    add(r, "propellant", PROPELLANTS[p])
    ROCKET[r] = fy

# ---------------------------------------------------------------- instruments
INSTR_KIND = ["Magnetometer", "Imaging Spectrometer", "Thermal Emission Imager",
              "Ground-Penetrating Radar", "Plasma Wave Analyzer", "Dust Counter",
              "Laser Altimeter", "Neutron Spectrometer", "Wide-Angle Camera",
              "Narrow-Angle Camera", "Mass Spectrometer", "Seismometer",
              "Ultraviolet Spectrograph", "Gamma-Ray Detector", "Radio Science Package",
              "Weather Station", "X-ray Fluorescence Sensor", "Infrared Sounder"]
INSTR_PREFIX = ["ARGUS", "HELIX", "MIRA", "SOLIS", "TERRA", "VEGA", "KAPPA", "NEXUS",
                "ORCA", "PICO", "RAVEN", "SIGMA", "LYRA", "ZEPHYR", "CORONA", "DELTA",
                "ECHO", "FALCO", "GEMMA", "HYDRA", "IRIS", "JUNO", "KORA", "LUX"]
instruments = []
while len(instruments) < 90:
    n = "%s %s" % (rng.choice(INSTR_PREFIX), rng.choice(INSTR_KIND))
    if rng.random() < 0.3:
        n += " %s" % rng.choice(["II", "2", "3", "Mk2", "B"])
    if n in names:
        continue
    ent(n, "instrument")
    instruments.append(n)
INSTR_MAKERS = [m for m, _, _ in MANUFACTURERS]
for i in instruments:
    add(i, "manufacturedBy", rng.choice(INSTR_MAKERS))

# ---------------------------------------------------------------- astronauts
FIRST = {
    "en": ["James", "Robert", "Mary", "Linda", "Michael", "Susan", "David", "Karen",
           "Thomas", "Nancy", "Charles", "Sandra", "Daniel", "Kathryn", "Mark", "Ellen",
           "Scott", "Peggy", "Douglas", "Tracy", "Eileen", "Gordon", "Frank", "Joan",
           "Victor", "Shannon", "Raymond", "Jessica", "Warren", "Nicole", "Alan", "Jeanette",
           "Kenneth", "Sunita", "Leland", "Christina", "Edward", "Megan", "Walter", "Anne"],
    "ru": ["Yuri", "Alexei", "Valentina", "Sergei", "Gennady", "Elena", "Oleg", "Anton",
           "Mikhail", "Svetlana", "Dmitri", "Anna", "Pavel", "Nikolai", "Fyodor", "Irina",
           "Vladimir", "Andrei", "Roman", "Yelena"],
    "zh": ["Wei", "Jing", "Hao", "Li", "Yang", "Xiaoming", "Haipeng", "Yaping", "Jun",
           "Tao", "Ming", "Guangfu", "Dong", "Lin", "Qiang"],
    "ja": ["Koichi", "Naoko", "Satoshi", "Akihiko", "Soichi", "Kimiya", "Takuya",
           "Chiaki", "Norishige", "Mamoru", "Yui"],
    "in": ["Rakesh", "Kalpana", "Shubhanshu", "Prasanth", "Angad", "Ajit", "Sirisha",
           "Vikram", "Meera", "Arjun"],
    "eu": ["Jean-Loup", "Claudie", "Thomas", "Samantha", "Luca", "Paolo", "Alexander",
           "Matthias", "Ulf", "Christer", "Pedro", "Andreas", "Frank", "Tim", "Marcus",
           "Sophie", "Lena", "Reinhold", "Michel", "Umberto", "Roberto", "Astrid"],
    "ca": ["Chris", "Julie", "Marc", "Roberta", "Jeremy", "Jenni", "Dave", "Joshua"],
    "ko": ["So-yeon", "Ji-hoon", "Min-jun", "Seo-yeon", "Dong-hyun"],
    "ae": ["Hazzaa", "Sultan", "Nora", "Mohammed", "Ahmed"],
    "other": ["Ilan", "Eitan", "Marcos", "Andrew", "Rodolfo", "Ana", "Lucas", "Ingrid"],
}
LAST = {
    "en": ["Holloway", "Armitage", "Kessler", "Brandt", "Whitcomb", "Ostrander",
           "McAllister", "Delgado", "Fairbanks", "Pruett", "Hargrove", "Lindqvist",
           "Castellano", "Okafor", "Reyes", "Thornton", "Vance", "Mallory", "Ashford",
           "Duvall", "Kincaid", "Sutherland", "Whitaker", "Brennan", "Caldwell",
           "Nakashima", "Ferrante", "Holt", "Garrison", "Pemberton", "Quinlan",
           "Redmond", "Sandoval", "Tolliver", "Upshaw", "Weatherby", "Yates", "Zimmer",
           "Baird", "Coburn", "Drury", "Ellsworth"],
    "ru": ["Volkov", "Leonov", "Krikalyov", "Padalka", "Zaletin", "Kondratyev",
           "Tokarev", "Skvortsov", "Artemyev", "Serova", "Kononenko", "Ryazansky",
           "Shkaplerov", "Ivanishin", "Misurkin", "Borisenko", "Titov", "Gerasimov",
           "Belyaev", "Lazutkin", "Morozov", "Prokopyev"],
    "zh": ["Zhang", "Wang", "Liu", "Chen", "Yang", "Zhao", "Nie", "Jing", "Fei",
           "Deng", "Tang", "Cai", "Ye", "Gui"],
    "ja": ["Wakata", "Noguchi", "Furukawa", "Hoshide", "Onishi", "Kanai", "Yamazaki",
           "Mukai", "Doi", "Akiyama"],
    "in": ["Sharma", "Shukla", "Nair", "Pratap", "Krishnan", "Chawla", "Bandla",
           "Rao", "Menon"],
    "eu": ["Pesquet", "Haigneré", "Cristoforetti", "Parmitano", "Nespoli", "Gerst",
           "Maurer", "Merbold", "Fuglesang", "Duque", "Mogensen", "Peake", "Reiter",
           "Ewald", "Clervoy", "Vittori", "Guidoni", "Wubbo", "Kuipers", "Lemaire"],
    "ca": ["Hadfield", "Payette", "Garneau", "Bondar", "Hansen", "Sidey-Gibbons",
           "Saint-Jacques", "Kutryk"],
    "ko": ["Yi", "Kim", "Park", "Choi"],
    "ae": ["Al Mansouri", "Al Neyadi", "Al Matrooshi", "Al Mulla"],
    "other": ["Ramon", "Stibbe", "Pontes", "Thomas", "Neri Vela", "Lindgren", "Berg"],
}
# agency -> (name pool, country, number of astronauts)
CORPS = [
    (US, "en", "United States", 120),
    (RU, "ru", "Russia", 45),
    (SU, "ru", "Russia", 22),
    (CN, "zh", "China", 34),
    (JP, "ja", "Japan", 14),
    (IN, "in", "India", 9),
    (EU, "eu", None, 30),
    (CA, "ca", "Canada", 10),
    (KR, "ko", "South Korea", 4),
    (AE, "ae", "United Arab Emirates", 5),
    (IL, "other", "Israel", 2),
    (BR, "other", "Brazil", 2),
    (DE, "eu", "Germany", 4),
    (IT, "eu", "Italy", 3),
    (UK, "en", "United Kingdom", 3),
]
EU_COUNTRIES = ["France", "Germany", "Italy", "Sweden", "Spain", "Norway", "United Kingdom"]
ASTRO = {}       # agency -> list of astronauts
ASTRO_INFO = {}  # astronaut -> dict
for agency, pool, country, n in CORPS:
    lst = []
    while len(lst) < n:
        f = rng.choice(FIRST[pool])
        last = rng.choice(LAST[pool])
        r = rng.random()
        if r < 0.18:
            full = "%s %s. %s" % (f, rng.choice("ABCDEFGHJKLMNPRSTW"), last)
        elif r < 0.22 and pool in ("en", "eu"):
            full = "%s %s %s" % (f, rng.choice(FIRST[pool]), last)
        else:
            full = "%s %s" % (f, last)
        if full in names:
            continue
        ent(full, "astronaut")
        c = country or rng.choice(EU_COUNTRIES)
        add(full, "nationality", c)
        add(full, "memberOfAgency", agency)
        ASTRO_INFO[full] = {"agency": agency, "flights": [], "country": c}
        if pool == "en" and agency == US:
            add(full, "serviceBranch", rng.choices(BRANCHES, [5, 4, 2, 1, 6, 1])[0])
        elif pool == "ru":
            add(full, "serviceBranch", rng.choice(["Air Force", "civilian", "Air Force"]))
        elif rng.random() < 0.3:
            add(full, "serviceBranch", rng.choice(["Air Force", "civilian"]))
        lst.append(full)
    ASTRO[agency] = lst
# a couple of dual-agency astronauts (many-to-many memberOfAgency)
for a in ASTRO[EU][:4]:
    c = ASTRO_INFO[a]["country"]
    nat = {"France": FR, "Germany": DE, "Italy": IT, "United Kingdom": UK}.get(c)
    if nat:
        add(a, "memberOfAgency", nat)

# ---------------------------------------------------------------- spacecraft
SC_NAMES = ["Resolute", "Valiant", "Harbinger", "Constance", "Meridian Star", "Endurance Two",
            "Steadfast", "Aurora Borealis", "Freedom Bell", "Liberty Eagle", "Intrepid Spirit",
            "Vigilant", "Perseverance Bay", "Columbine", "Trailblazer", "Galatea",
            "Sojourner Hope", "Halcyon", "Tenacity", "Wanderer", "Kinglet", "Osprey",
            "Marigold", "Cormorant", "Zephyrine", "Lodestar", "Pathmaker", "Beacon Rock",
            "Tern", "Skylark", "Nightjar", "Kittiwake", "Starling", "Petrel", "Shearwater",
            "Avocet", "Plover", "Curlew", "Bittern", "Dunlin", "Merlin Crest", "Sandpiper",
            "Lark Rising", "Whimbrel", "Godwit", "Turnstone", "Sanderling", "Redshank",
            "Greenshank", "Goldcrest", "Firecrest", "Wheatear", "Stonechat", "Whinchat",
            "Redstart", "Bluethroat", "Nuthatch", "Treecreeper", "Wryneck", "Hoopoe",
            "Bee-eater", "Roller", "Kingfisher", "Dipper", "Wagtail", "Pipit", "Bunting",
            "Linnet", "Twite", "Siskin", "Crossbill", "Hawfinch", "Brambling", "Chiffchaff",
            "Blackcap", "Garganey", "Shoveler", "Pintail", "Teal", "Wigeon", "Gadwall",
            "Smew", "Goosander", "Scaup", "Eider", "Scoter", "Merganser", "Grebe",
            "Fulmar", "Gannet", "Shag", "Heron", "Egret", "Spoonbill", "Crane", "Bustard",
            "Rail", "Crake", "Coot", "Moorhen", "Oystercatcher", "Stilt", "Lapwing",
            "Dotterel", "Knot", "Ruff", "Snipe", "Woodcock", "Phalarope", "Skua",
            "Kittlitz", "Guillemot", "Razorbill", "Puffin", "Auklet", "Murrelet"]
ADJ = ["Silver", "Crimson", "Northern", "Far", "Bright", "Quiet", "Swift", "Lone", "High",
       "Deep", "Golden", "Pale"]
sc_pool = list(SC_NAMES)
rng.shuffle(sc_pool)
extra = ["%s %s" % (a, b) for a in ADJ for b in SC_NAMES[:40]]
rng.shuffle(extra)
sc_pool = extra[:200] + sc_pool
SC_INFO = {}


def new_spacecraft(cls, country, mass_range, prefix=None):
    base = sc_pool.pop()
    name = "%s %s" % (prefix, base) if prefix else base
    if name in names:
        name = name + " II"
    ent(name, "spacecraft")
    add(name, "spacecraftClass", cls)
    makers = MF.get(country) or MF["United States"]
    add(name, "manufacturedBy", rng.choice(makers))
    add(name, "launchMass", rng.randint(*mass_range))
    SC_INFO[name] = cls
    if cls in ("orbiter", "lander", "rover", "flyby probe", "space telescope", "satellite"):
        for i in rng.sample(instruments, rng.randint(1, 3)):
            add(name, "carriesInstrument", i)
    return name


# stations
STATIONS = {
    "Concordia Orbital Station": (US, "United States", 419725),
    "Mir Vostok Station": (SU, "Russia", 129700),
    "Tianhe Harmony Station": (CN, "China", 100000),
    "Selene Gateway": (US, "United States", 63000),
    "Salyut Zarya 7": (SU, "Russia", 19824),
    "Skyhaven Lab": (US, "United States", 77088),
}
for st, (ag, c, mass) in STATIONS.items():
    ent(st, "spacecraft")
    add(st, "spacecraftClass", "space station")
    add(st, "manufacturedBy", rng.choice(MF[c]))
    add(st, "launchMass", mass)
    SC_INFO[st] = "space station"

# ---------------------------------------------------------------- missions
# program, agency, country, kind, n, year range, rockets, spacecraft spec, station, dest list
PROGRAMS = [
    # crewed
    ("Gemini Arc", US, "United States", "crew", 8, (1964, 1967), ["Delphi IV"], ("Gemini", 2), None, ["Earth"]),
    ("Selene", US, "United States", "lunar", 9, (1968, 1973), ["Saturnia V"], ("Selene", 3), None, ["Moon"]),
    ("Skyhaven", US, "United States", "crew", 3, (1973, 1974), ["Saturnia IB"], ("Skyhaven", 1), "Skyhaven Lab",
     ["Earth"]),
    ("STS", US, "United States", "crew", 30, (1981, 2011), ["Shuttle Stack STS"], ("Orbiter", 5),
     "Concordia Orbital Station", ["Earth"]),
    ("Vanguard Crew", US, "United States", "crew", 12, (2020, 2025), ["Kestrel 9"], ("Dragonet", 4),
     "Concordia Orbital Station", ["Earth"]),
    ("Artemis Dawn", US, "United States", "lunar", 3, (2022, 2026), ["Nova Heavy", "Colossus Super Heavy"],
     ("Artemis", 2), "Selene Gateway", ["Moon"]),
    ("Vostok Zvezda", SU, "Russia", "crew", 8, (1961, 1965), ["Vostok-K"], ("Vostok", 6), None, ["Earth"]),
    ("Soyuz-T", SU, "Russia", "crew", 14, (1971, 1990), ["Sokol-2"], ("Soyuz", 6), "Salyut Zarya 7", ["Earth"]),
    ("Soyuz-TM", RU, "Russia", "crew", 18, (1991, 2024), ["Sokol-2", "Sokol-2.1b"], ("Soyuz", 8),
     "Concordia Orbital Station", ["Earth"]),
    ("Tianlu", CN, "China", "crew", 12, (2003, 2025), ["Longbow 2F"], ("Tianlu", 4), "Tianhe Harmony Station",
     ["Earth"]),
    ("Gaganyatri", IN, "India", "crew", 2, (2025, 2026), ["Garuda GSLV Mk3"], ("Gagan", 1), None, ["Earth"]),
    # cargo
    ("Progress Cargo", RU, "Russia", "cargo", 14, (1995, 2025), ["Sokol-2", "Sokol-2.1b"], ("Progress", 14),
     "Concordia Orbital Station", ["Earth"]),
    ("Pelican Cargo", US, "United States", "cargo", 10, (2012, 2025), ["Kestrel 9", "Aegis V"], ("Pelican", 3),
     "Concordia Orbital Station", ["Earth"]),
    ("Tianzhou Freighter", CN, "China", "cargo", 7, (2017, 2025), ["Longbow 7"], ("Tianzhou", 7),
     "Tianhe Harmony Station", ["Earth"]),
    ("Kounotori", JP, "Japan", "cargo", 7, (2009, 2020), ["Hinode H-IIA"], ("HTV", 7), "Concordia Orbital Station",
     ["Earth"]),
    ("ATV Ferry", EU, "France", "cargo", 5, (2008, 2014), ["Arbalest 5"], ("ATV", 5), "Concordia Orbital Station",
     ["Earth"]),
    # robotic planetary
    ("Ares Pathfinder", US, "United States", "robot", 7, (1976, 2021), ["Delphi IV", "Aegis V"], None, None, ["Mars"]),
    ("Mariner Deep", US, "United States", "robot", 8, (1962, 1975), ["Delphi IV"], None, None,
     ["Venus", "Mars", "Mercury"]),
    ("Voyager Reach", US, "United States", "robot", 4, (1972, 1977), ["Delphi IV Heavy", "Delphi IV"], None, None,
     ["Jupiter", "Saturn", "Uranus", "Neptune"]),
    ("Galilean Explorer", US, "United States", "robot", 4, (1989, 2024), ["Aegis V", "Kestrel Heavy"], None, None,
     ["Jupiter", "Europa", "Ganymede"]),
    ("Cassini Horizon", US, "United States", "robot", 3, (1997, 2027), ["Delphi IV Heavy", "Colossus Super Heavy"],
     None, None, ["Saturn", "Titan", "Enceladus"]),
    ("Discovery Small Body", US, "United States", "robot", 6, (1996, 2023), ["Delphi IV", "Kestrel 9"], None, None,
     ["Ceres", "Vesta", "2031 Bennu-Ravel", "Psyche Minor", "4417 Halvard", "Comet Oterma-Kiel"]),
    ("Luna Nova", SU, "Russia", "robot", 10, (1959, 1976), ["Vostok-K", "Burya-M"], None, None, ["Moon"]),
    ("Venera Ray", SU, "Russia", "robot", 8, (1961, 1984), ["Burya-M"], None, None, ["Venus"]),
    ("Mars Sokol", SU, "Russia", "robot", 5, (1971, 1996), ["Burya-M"], None, None, ["Mars", "Phobos"]),
    ("Luna-Glob", RU, "Russia", "robot", 2, (2023, 2027), ["Sokol-2.1b"], None, None, ["Moon"]),
    ("Chang'e Light", CN, "China", "robot", 7, (2007, 2026), ["Longbow 3B", "Longbow 5"], None, None, ["Moon"]),
    ("Tianwen", CN, "China", "robot", 2, (2020, 2025), ["Longbow 5"], None, None, ["Mars", "4417 Halvard"]),
    ("Hayabusa Kite", JP, "Japan", "robot", 3, (2003, 2026), ["Hinode H-IIA", "Hinode H3"], None, None,
     ["4417 Halvard", "Phobos", "2031 Bennu-Ravel"]),
    ("Akatsuki Dawn", JP, "Japan", "robot", 2, (2010, 2018), ["Hinode H-IIA"], None, None, ["Venus", "Mercury"]),
    ("Chandrayaan Path", IN, "India", "robot", 4, (2008, 2026), ["Garuda PSLV-XL", "Garuda GSLV Mk3"], None, None,
     ["Moon"]),
    ("Mangalyaan Arc", IN, "India", "robot", 2, (2013, 2027), ["Garuda PSLV-XL", "Garuda GSLV Mk3"], None, None,
     ["Mars", "Venus"]),
    ("Rosetta Tide", EU, "France", "robot", 5, (1985, 2029), ["Arbalest 5", "Arbalest 6"], None, None,
     ["Comet Oterma-Kiel", "Mercury", "Jupiter", "Mars", "Venus"]),
    ("Hope Orbiter", AE, "United Arab Emirates", "robot", 2, (2020, 2028), ["Hinode H-IIA"], None, None,
     ["Mars", "Vesta"]),
    ("Danuri", KR, "South Korea", "robot", 1, (2022, 2022), ["Kestrel 9"], None, None, ["Moon"]),
    ("Beresheet Quest", IL, "Israel", "robot", 1, (2019, 2019), ["Kestrel 9"], None, None, ["Moon"]),
    ("New Frontiers Outer", US, "United States", "robot", 2, (2006, 2028), ["Aegis V", "Colossus Super Heavy"], None,
     None, ["Pluto", "Triton"]),
    ("Helios Watch", US, "United States", "robot", 3, (1974, 2018), ["Delphi IV", "Aegis V"], None, None, ["Sun"]),
    # Earth orbit
    ("Great Observatory", US, "United States", "telescope", 5, (1990, 2021), ["Shuttle Stack STS", "Arbalest 5"], None,
     None, ["Earth"]),
    ("Kepler Lens", EU, "France", "telescope", 3, (2009, 2026), ["Arbalest 5", "Arbalest 6"], None, None, ["Earth"]),
    ("Xuntian Survey", CN, "China", "telescope", 1, (2027, 2027), ["Longbow 5"], None, None, ["Earth"]),
    ("Landview", US, "United States", "eo", 6, (1972, 2021), ["Delphi IV", "Aegis V"], None, None, ["Earth"]),
    ("Sentinel Watch", EU, "France", "eo", 6, (2014, 2024), ["Vespa C", "Arbalest 5"], None, None, ["Earth"]),
    ("Gaofen Eye", CN, "China", "eo", 5, (2013, 2022), ["Longbow 2C", "Longbow 3B"], None, None, ["Earth"]),
    ("Cartosat Vista", IN, "India", "eo", 4, (2005, 2019), ["Garuda PSLV-XL"], None, None, ["Earth"]),
    ("Himawari Sky", JP, "Japan", "eo", 3, (1977, 2016), ["Hinode H-IIA", "Epsilon-S"], None, None, ["Earth"]),
    ("Kompsat Eye", KR, "South Korea", "eo", 3, (1999, 2024), ["Haneul-1", "Tui Electron"], None, None, ["Earth"]),
    ("SAOCOM Pampa", "Argentine Space Activities Commission", "Argentina", "eo", 2, (2018, 2020), ["Kestrel 9"], None,
     None, ["Earth"]),
    ("Ofek Sentinel", IL, "Israel", "eo", 3, (1988, 2023), ["Kelev LV"], None, None, ["Earth"]),
    ("Amazonia Watch", BR, "Brazil", "eo", 2, (2021, 2025), ["Garuda PSLV-XL", "VLS-Alfa"], None, None, ["Earth"]),
    ("Telstar Relay", US, "United States", "comsat", 6, (1962, 2019), ["Delphi IV", "Aegis V", "Kestrel 9"], None, None,
     ["Earth"]),
    ("Ekspress Link", RU, "Russia", "comsat", 5, (1994, 2021), ["Burya-M", "Zenith-3SL"], None, None, ["Earth"]),
    ("Zhongxing Beam", CN, "China", "comsat", 4, (2005, 2023), ["Longbow 3B"], None, None, ["Earth"]),
    ("GSAT Bharat", IN, "India", "comsat", 4, (2001, 2024), ["Garuda GSLV Mk3"], None, None, ["Earth"]),
    ("Anik North", CA, "Canada", "comsat", 3, (1972, 2013), ["Delphi IV", "Arbalest 5"], None, None, ["Earth"]),
    ("Skynet Albion", UK, "United Kingdom", "comsat", 3, (1969, 2020), ["Delphi IV", "Arbalest 5"], None, None,
     ["Earth"]),
    ("Thor Nordic", "Norwegian Space Centre", "Norway", "comsat", 2, (1997, 2008), ["Zenith-3SL", "Arbalest 5"], None,
     None, ["Earth"]),
    ("Optus Austral", "Australian Space Office", "Australia", "comsat", 2, (2019, 2024),
     ["Arbalest 5", "Southern Cross Eris"], None, None, ["Earth"]),
    ("Lybid Relay", "Ukrainian Space Bureau", "Ukraine", "comsat", 1, (2020, 2020), ["Zenith-3SL"], None, None,
     ["Earth"]),
    ("KazSat Steppe", "Kazakh National Space Agency", "Kazakhstan", "comsat", 2, (2006, 2014), ["Burya-M"], None, None,
     ["Earth"]),
    ("SIRIO Lumen", IT, "Italy", "tech", 2, (1977, 2019), ["Vespa C", "Delphi IV"], None, None, ["Earth"]),
    ("TET Bremen", DE, "Germany", "tech", 3, (2012, 2025), ["Sokol-2.1b", "Vega Borealis"], None, None, ["Earth"]),
    ("Odin Nord", "Swedish Space Board", "Sweden", "tech", 2, (2001, 2016), ["Kelev LV", "Tui Electron"], None, None,
     ["Earth"]),
    ("Tui Demonstrator", "New Zealand Space Agency", "New Zealand", "tech", 3, (2018, 2024), ["Tui Electron"], None,
     None, ["Earth"]),
    ("PAZ Iberia", "Spanish Space Agency", "Spain", "tech", 1, (2024, 2024), ["Vega Borealis"], None, None, ["Earth"]),
    ("Pacifica Testbed", US, "United States", "tech", 2, (2025, 2025), ["Pacifica Neutron"], None, None, ["Earth"]),
]

ROCKET_SITES = {
    "Aegis V": ["Cape Meridian Space Force Station", "Vandal Ridge Launch Complex"],
    "Aegis V Heavy": ["Cape Meridian Space Force Station"],
    "Kestrel 1": ["Wallace Island Flight Facility"],
    "Kestrel 9": ["Cape Meridian Space Force Station", "Kennard Space Center", "Vandal Ridge Launch Complex"],
    "Kestrel Heavy": ["Kennard Space Center"],
    "Colossus Super Heavy": ["Kennard Space Center"],
    "Saturnia IB": ["Kennard Space Center"],
    "Saturnia V": ["Kennard Space Center"],
    "Delphi IV": ["Cape Meridian Space Force Station", "Vandal Ridge Launch Complex"],
    "Delphi IV Heavy": ["Cape Meridian Space Force Station"],
    "Shuttle Stack STS": ["Kennard Space Center"],
    "Nova Heavy": ["Kennard Space Center"],
    "Pacifica Neutron": ["Wallace Island Flight Facility"],
    "Sokol-2": ["Northern Steppe Cosmodrome", "Mirny Cosmodrome"],
    "Sokol-2.1b": ["Northern Steppe Cosmodrome", "Amur Cosmodrome", "Guiana Equatorial Spaceport"],
    "Burya-M": ["Northern Steppe Cosmodrome"],
    "Burya Heavy": ["Mirny Cosmodrome", "Amur Cosmodrome"],
    "Vostok-K": ["Northern Steppe Cosmodrome"],
    "Zenith-3SL": ["Northern Steppe Cosmodrome"],
    "Longbow 2C": ["Gobi Launch Center", "Liangshan Launch Center"],
    "Longbow 2F": ["Gobi Launch Center"],
    "Longbow 3B": ["Liangshan Launch Center"],
    "Longbow 5": ["Hainan Coastal Launch Site"],
    "Longbow 7": ["Hainan Coastal Launch Site"],
    "Hinode H-IIA": ["Tanemura Space Center"],
    "Hinode H3": ["Tanemura Space Center"],
    "Epsilon-S": ["Tanemura Space Center"],
    "Garuda PSLV-XL": ["Pulicat Island Spaceport"],
    "Garuda GSLV Mk3": ["Pulicat Island Spaceport"],
    "Arbalest 5": ["Guiana Equatorial Spaceport"],
    "Arbalest 6": ["Guiana Equatorial Spaceport"],
    "Vespa C": ["Guiana Equatorial Spaceport"],
    "Haneul-1": ["Oenaro Space Center"],
    "Kelev LV": ["Negev Coast Launch Site"],
    "VLS-Alfa": ["Sao Luis Equatorial Launch Base"],
    "Tui Electron": ["Mahina Peninsula Launch Complex"],
    "Southern Cross Eris": ["Whyalla Test Range"],
    "Vega Borealis": ["Andvik Spaceport", "Kiruna Rocket Range", "Sutherland Vertical Spaceport"],
}

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
AGENCY_NAMES = [a for a, _, _ in AGENCIES]
FOREIGN_PARTNERS = [EU, JP, CA, DE, IT, FR, UK, AE, KR, IL, BR, "Swedish Space Board"]
TODAY = datetime.date(2025, 11, 30)
missions = []


def rand_date(y):
    d = datetime.date(y, 1, 1) + datetime.timedelta(days=rng.randint(0, 364))
    return d


for (prog, agency, country, kind, n, (y0, y1), rockets, scspec, station, dests) in PROGRAMS:
    years = sorted(rng.randint(y0, y1) for _ in range(n))
    if n > 1:
        years[0], years[-1] = y0, y1
    # crewed/cargo: spacecraft fleet
    fleet = []
    if scspec:
        pref, k = scspec
        cls = {"crew": "crew capsule", "lunar": "crew capsule", "cargo": "cargo vehicle"}[kind]
        mr = {"crew capsule": (3000, 14000), "cargo vehicle": (7000, 20000)}[cls]
        if kind == "crew" and prog == "STS":
            cls, mr = "orbiter", (68000, 80000)
        for _ in range(k):
            fleet.append(new_spacecraft(cls, country, mr, prefix=pref))
    use_roman = kind in ("robot", "telescope", "eo", "comsat", "tech") and n <= 4 and rng.random() < 0.35
    prev = None
    dates = set()
    for y in years:
        d = rand_date(y)
        while d in dates:
            d = rand_date(y)
        dates.add(d)
    dates = sorted(dates)
    for i, y in enumerate(years):
        if n == 1:
            m = prog
        elif use_roman:
            m = "%s %s" % (prog, ROMAN[i])
        elif prog in ("Soyuz-T", "Soyuz-TM", "STS"):
            m = "%s-%d" % (prog, i + 1 if prog != "STS" else 1 + i * 4 + rng.randint(0, 3))
        else:
            m = "%s %d" % (prog, i + 1)
        ent(m, "mission")
        d = dates[i]
        rocket = rockets[0] if len(rockets) == 1 else rockets[min(len(rockets) - 1, int(i * len(rockets) / n))]
        if ROCKET[rocket] > y:
            rocket = min(rockets, key=lambda r: ROCKET[r])
        site = rng.choice(ROCKET_SITES[rocket])
        add(m, "operatedBy", agency)
        add(m, "launchDate", d.isoformat())
        add(m, "launchVehicle", rocket)
        add(m, "launchedFrom", site)
        dest = dests[i % len(dests)] if kind == "robot" else dests[0]
        add(m, "destination", dest)
        if prev:
            add(m, "precededBy", prev)
        prev = m
        future = d > TODAY
        # status
        if future:
            status = "planned"
        else:
            status = rng.choices(STATUSES[:4], [80, 8, 6, 6 if y >= 2010 else 0])[0]
        if kind in ("crew", "lunar"):
            status = "planned" if future else rng.choices(["completed", "failed", "partial success"], [92, 3, 5])[0]
        # type, spacecraft, orbit, duration
        if kind in ("crew", "lunar"):
            mtype = "crewed lunar landing" if kind == "lunar" else "crewed orbital flight"
            sc = fleet[i % len(fleet)]
            orbit = "lunar orbit" if kind == "lunar" else "low Earth orbit"
            if station and (y >= 1998 or prog != "STS"):
                if prog in ("Soyuz-TM", "Vanguard Crew", "Tianlu") and y > 2000:
                    dur = rng.randint(120, 215)
                else:
                    dur = rng.randint(8, 90)
            else:
                dur = rng.randint(1, 14)
            if kind == "lunar":
                dur = rng.randint(6, 13)
        elif kind == "cargo":
            mtype = "cargo resupply"
            sc = fleet[i % len(fleet)]
            orbit = "low Earth orbit"
            dur = rng.randint(30, 200)
        else:
            cls = {"robot": None, "telescope": "space telescope", "eo": "satellite",
                   "comsat": "satellite", "tech": "satellite"}[kind]
            if kind == "robot":
                mtype = rng.choice(["orbital survey", "surface landing", "rover exploration", "flyby", "sample return"])
                if dest in ("Jupiter", "Saturn", "Uranus", "Neptune", "Sun"):
                    mtype = rng.choice(["orbital survey", "flyby"])
                if dest == "Pluto" or dest == "Triton":
                    mtype = "flyby"
                small_bodies = ("4417 Halvard", "2031 Bennu-Ravel", "Comet Oterma-Kiel")
                if dest in small_bodies and mtype in ("rover exploration",):
                    mtype = "sample return"
                cls = {"orbital survey": "orbiter", "surface landing": "lander", "rover exploration": "rover",
                       "flyby": "flyby probe", "sample return": "orbiter"}[mtype]
                orbit = {"Moon": "lunar orbit", "Mars": "areocentric orbit",
                         "Phobos": "areocentric orbit"}.get(dest, "heliocentric orbit")
                dur = rng.randint(3, 5200)
                if status == "failed":
                    dur = rng.randint(0, 40)
                mr = {"orbiter": (500, 6000), "lander": (400, 3000), "rover": (180, 1100),
                      "flyby probe": (250, 1200)}[cls]
            elif kind == "telescope":
                mtype = "astronomical observatory"
                orbit = rng.choice(["low Earth orbit", "Sun-Earth L2 halo orbit", "Sun-Earth L2 halo orbit"])
                dur = rng.randint(1000, 12000)
                mr = (1000, 12000)
            elif kind == "eo":
                mtype = "Earth observation"
                orbit = rng.choice(["sun-synchronous orbit", "sun-synchronous orbit", "low Earth orbit"])
                if prog == "Himawari Sky":
                    orbit = "geostationary orbit"
                dur = rng.randint(300, 9000)
                mr = (200, 4000)
            elif kind == "comsat":
                mtype = "communications relay"
                orbit = rng.choice(["geostationary orbit", "geostationary orbit", "medium Earth orbit"])
                dur = rng.randint(700, 7000)
                mr = (1500, 6500)
            else:
                mtype = "technology demonstration"
                orbit = rng.choice(["low Earth orbit", "sun-synchronous orbit"])
                dur = rng.randint(30, 1500)
                mr = (20, 600)
            sc = new_spacecraft(cls, country, mr)
        if future:
            dur = None
        else:
            dur = min(dur, (TODAY - d).days)
        add(m, "missionType", mtype)
        add(m, "missionStatus", status)
        add(m, "usesSpacecraft", sc)
        add(m, "targetOrbit", orbit)
        if dur is not None:
            add(m, "missionDuration", dur)
        if station and (kind in ("cargo", "lunar") or (kind == "crew" and (prog != "STS" or y >= 1995))):
            add(m, "visitedStation", station)
        # partners
        partners = []
        older = [p for p in FOREIGN_PARTNERS if FOUNDED[p] <= y and p != agency]
        if kind in ("robot", "telescope") and rng.random() < 0.45:
            partners = rng.sample(older, min(len(older), rng.randint(1, 3)))
        if kind == "crew" and station == "Concordia Orbital Station" and rng.random() < 0.5:
            pp = [p for p in [EU, JP, CA, AE, US, RU, IT, DE] if p != agency and FOUNDED[p] <= y]
            partners = rng.sample(pp, min(len(pp), rng.randint(1, 2)))
        for p in partners:
            add(m, "partnerAgency", p)
        missions.append(dict(name=m, agency=agency, kind=kind, year=y, partners=partners,
                             prog=prog, date=d))

# ---------------------------------------------------------------- crews
for ms in missions:
    if ms["kind"] not in ("crew", "lunar"):
        continue
    prog, y = ms["prog"], ms["year"]
    if prog in ("Vostok Zvezda",):
        size = 1
    elif prog in ("Gemini Arc",):
        size = 2
    elif prog in ("Selene", "Skyhaven", "Soyuz-T", "Soyuz-TM", "Tianlu", "Gaganyatri"):
        size = 3 if prog != "Tianlu" or y > 2005 else rng.choice([1, 2])
    elif prog == "STS":
        size = rng.randint(5, 7)
    else:
        size = 4
    home = ASTRO[ms["agency"]]
    # prefer astronauts still active (few flights, era-consistent): pick by index window
    era = (y - 1960) / 66.0
    idx = int(era * len(home))
    window = home[max(0, idx - 18): idx + 18] or home
    pool = list(window)
    crew = []
    guests = [p for p in ms["partners"] if p in ASTRO]
    for g in guests[: max(0, size - 1)]:
        cands = [a for a in ASTRO[g] if len(ASTRO_INFO[a]["flights"]) < 3]
        if cands:
            crew.append(rng.choice(cands))
    while len(crew) < size:
        a = rng.choice(pool)
        if a not in crew and len(ASTRO_INFO[a]["flights"]) < 5:
            crew.append(a)
        elif len(pool) < size * 2:
            pool = home
    # commander: the home-agency crew member with most flights so far
    homes = [a for a in crew if ASTRO_INFO[a]["agency"] == ms["agency"]] or crew
    cmd = max(homes, key=lambda a: (len(ASTRO_INFO[a]["flights"]), a))
    add(ms["name"], "commander", cmd)
    for a in crew:
        add(ms["name"], "crewMember", a)
        ASTRO_INFO[a]["flights"].append(ms)
    add(ms["name"], "crewSize", len(crew))

for a, info in ASTRO_INFO.items():
    if info["flights"]:
        first = min(f["year"] for f in info["flights"])
        eva = sum(rng.choice([0, 0, 1, 2, 3]) for f in info["flights"] if f["kind"] in ("crew", "lunar"))
        add(a, "evaCount", eva)
    else:
        first = rng.randint(1995, 2026) if info["agency"] not in (SU,) else rng.randint(1962, 1988)
    add(a, "birthYear", first - rng.randint(29, 48))

# ---------------------------------------------------------------- write
used = set()
for h, r, t in triples:
    used.add(h)
    used.add(t)
with open(os.path.join(HERE, "kb.txt"), "w", encoding="utf-8") as f:
    for h, r, t in triples:
        f.write("%s|%s|%s\n" % (h, r, t))

rels = sorted({r for _, r, _ in triples})
ents = {h for h, _, _ in triples} | {t for _, r, t in triples
                                     if not r.endswith(("launchDate", "missionDuration", "crewSize",
                                                        "launchMass", "payloadCapacity", "foundingYear",
                                                        "birthYear", "evaCount", "firstLaunchYear",
                                                        "rocketHeight", "meanRadius"))}
print("triples", len(triples))
print("relations", len(rels))
print("entities", len(ents))
