#!/usr/bin/env python3
"""Deterministic generator of a small made-up video games industry KG.

Writes kb.txt (head|relation|tail, one triple a line) next to this script.
Standard library only, fixed random seed.
"""
import os
import random

rng = random.Random(20240521)
HERE = os.path.dirname(os.path.abspath(__file__))

triples = []
used_names = set()


def add(h, r, t):
    assert "|" not in h and "|" not in str(t), (h, t)
    triples.append((h, r, str(t)))


def unique(name):
    assert name not in used_names, name
    used_names.add(name)
    return name


def zipf_pick(items, s=1.1):
    """Pick one item, earlier items much more likely (hubs)."""
    weights = [1.0 / (i + 1) ** s for i in range(len(items))]
    return rng.choices(items, weights=weights, k=1)[0]


def zipf_sample(items, k, s=1.1):
    out = []
    while len(out) < k:
        x = zipf_pick(items, s)
        if x not in out:
            out.append(x)
    return out


# ---------------------------------------------------------------- countries, cities
COUNTRY_CITIES = {
    "Japan": ["Tokyo", "Kyoto", "Osaka", "Sapporo"],
    "United States": ["Seattle", "Austin", "San Francisco", "Los Angeles", "Boston", "Raleigh"],
    "Canada": ["Montreal", "Vancouver", "Toronto"],
    "United Kingdom": ["London", "Guildford", "Leamington Spa", "Dundee"],
    "France": ["Paris", "Lyon", "Montpellier"],
    "Germany": ["Berlin", "Hamburg", "Frankfurt"],
    "Sweden": ["Stockholm", "Malmo"],
    "Finland": ["Helsinki", "Espoo"],
    "Poland": ["Warsaw", "Krakow"],
    "South Korea": ["Seoul", "Busan"],
    "China": ["Shanghai", "Shenzhen"],
    "Australia": ["Melbourne", "Brisbane"],
    "Netherlands": ["Amsterdam"],
    "Czech Republic": ["Prague", "Brno"],
    "Brazil": ["Sao Paulo"],
}
COUNTRIES = list(COUNTRY_CITIES)
CITIES = []
for c, cities in COUNTRY_CITIES.items():
    unique(c)
    for city in cities:
        unique(city)
        CITIES.append(city)
        add(city, "LocatedInCountry", c)
CITY_COUNTRY = {city: c for c, cs in COUNTRY_CITIES.items() for city in cs}

# ---------------------------------------------------------------- shared values
GENRES = ["Action", "Adventure", "Role-Playing", "Platformer", "First-Person Shooter",
          "Third-Person Shooter", "Real-Time Strategy", "Turn-Based Strategy", "Puzzle",
          "Racing", "Fighting", "Survival Horror", "Simulation", "Sports", "Roguelike",
          "Metroidvania", "Stealth", "Rhythm", "City Builder", "Battle Royale",
          "Visual Novel", "MOBA"]
MODES = ["Single-Player", "Multiplayer", "Online Co-op", "Local Co-op", "MMO"]
RATINGS = ["Everyone", "Everyone 10+", "Teen", "Mature 17+", "Adults Only 18+"]
AWARDS = ["Golden Joystick for Best Storytelling", "Golden Joystick for Best Visual Design",
          "Pixel Crown for Game of the Year", "Pixel Crown for Best Indie Game",
          "Pixel Crown for Best Multiplayer", "Harmony Award for Best Score",
          "Harmony Award for Best Sound Design", "Critics Circle Award for Innovation",
          "Critics Circle Award for Best Debut", "Nordic Game Prize",
          "Esports Excellence Award", "Accessibility Honor"]
LANGUAGES = ["C++", "C#", "Rust", "Lua", "Java"]
for n in GENRES + MODES + RATINGS + AWARDS + LANGUAGES:
    unique(n)

# ---------------------------------------------------------------- hardware makers, platforms
MANUFACTURERS = ["Kessel Electronics", "Oriwa Corporation", "Brightline Systems",
                 "Tanaka-Halvorsen", "Mirevo", "Quanta Forge Hardware"]
for m in MANUFACTURERS:
    unique(m)
MAN_HQ = {"Kessel Electronics": "Seattle", "Oriwa Corporation": "Kyoto",
          "Brightline Systems": "San Francisco", "Tanaka-Halvorsen": "Tokyo",
          "Mirevo": "Seoul", "Quanta Forge Hardware": "Shenzhen"}
PLATFORMS = [  # name, maker, year
    ("Windows PC", None, 1995), ("Kestrel One", "Kessel Electronics", 2013),
    ("Kestrel Series Z", "Kessel Electronics", 2020), ("Kestrel 360", "Kessel Electronics", 2005),
    ("Oriwa Swivel", "Oriwa Corporation", 2017), ("Oriwa Duo", "Oriwa Corporation", 2011),
    ("Oriwa Wavelet", "Oriwa Corporation", 2006), ("Nova Station 4", "Tanaka-Halvorsen", 2013),
    ("Nova Station 5", "Tanaka-Halvorsen", 2020), ("Nova Station 3", "Tanaka-Halvorsen", 2006),
    ("Nova Portable", "Tanaka-Halvorsen", 2004), ("Brightline Cloud", "Brightline Systems", 2019),
    ("Mirevo Pocket", "Mirevo", 2015), ("Mirevo VR Headset", "Mirevo", 2018),
    ("Forgebox", "Quanta Forge Hardware", 2021), ("macOS", None, 2001), ("Linux", None, 1998),
    ("iOS", None, 2008), ("Android", None, 2009),
]
PLAT_YEAR = {}
for p, maker, year in PLATFORMS:
    unique(p)
    PLAT_YEAR[p] = year
    add(p, "PlatformReleaseYear", year)
    if maker:
        add(p, "ManufacturedBy", maker)
for m, city in MAN_HQ.items():
    add(m, "HeadquarteredIn", city)
PLATFORM_NAMES = [p for p, _, _ in PLATFORMS]
# popularity order for zipf picks
PLATFORM_POP = ["Windows PC", "Nova Station 4", "Kestrel One", "Oriwa Swivel", "Nova Station 5",
                "Kestrel Series Z", "macOS", "Linux", "Nova Station 3", "Kestrel 360", "iOS",
                "Android", "Oriwa Duo", "Oriwa Wavelet", "Nova Portable", "Brightline Cloud",
                "Mirevo Pocket", "Mirevo VR Headset", "Forgebox"]

# ---------------------------------------------------------------- persons
FIRST = ["Hideo", "Akira", "Yuki", "Shigeru", "Tomoko", "Kenji", "Mariko", "Ryo", "Sakura",
         "John", "Amy", "Marcus", "Elena", "David", "Sarah", "Tim", "Rachel", "Chris", "Leah",
         "Pierre", "Camille", "Lucas", "Margot", "Jonas", "Greta", "Klaus", "Anja", "Lars",
         "Ingrid", "Mikko", "Aino", "Piotr", "Agnieszka", "Tomasz", "Min-jun", "Ji-woo",
         "Wei", "Lin", "Olivia", "Noah", "Darius", "Priya", "Mateo", "Isabela", "Jan", "Petra",
         "Oskar", "Freya", "Ravi", "Hannah", "Emil", "Nadia", "Victor", "Zoe"]
LAST = ["Kojima", "Tanabe", "Morikawa", "Hayashi", "Ishida", "Okamoto", "Sato", "Fujimori",
        "Blackwood", "Harlan", "Whitaker", "Delgado", "Reyes", "Carver", "Lindqvist", "Strand",
        "Nyberg", "Virtanen", "Koskinen", "Nowak", "Zielinski", "Kowalczyk", "Park", "Choi",
        "Zhang", "Liu", "Dubois", "Moreau", "Laurent", "Becker", "Hoffmann", "Schreiber",
        "Novak", "Dvorak", "Silva", "Costa", "Ashford", "Pembroke", "Quinlan", "Ostrander",
        "Van Dijk", "De Vries", "Marsh", "Ellison", "Faraday", "Oyelaran", "Castellanos",
        "Abernathy"]
PERSONS = []
while len(PERSONS) < 170:
    f = rng.choice(FIRST)
    last = zipf_pick(LAST, 0.6)   # some surnames shared by several persons
    r = rng.random()
    if r < 0.12:
        name = f"{f} {rng.choice('ABCDEFGHJKLMNPRSTW')}. {last}"
    elif r < 0.16:
        name = f"{f[0]}. {last}"
    elif r < 0.19:
        name = f"{f} {last}-{rng.choice(LAST)}"
    else:
        name = f"{f} {last}"
    if name in used_names:
        continue
    unique(name)
    PERSONS.append(name)
for p in PERSONS:
    add(p, "Nationality", rng.choice(COUNTRIES[:10] + ["Japan", "United States", "United Kingdom"]))
    add(p, "BirthYear", rng.randint(1952, 1994))

# ---------------------------------------------------------------- publishers and studios
PUBLISHERS = ["Vanguard Interactive", "Helix Entertainment", "Bluecrest Games",
              "Northwind Publishing", "Solstice Digital", "Kitsune Works Publishing",
              "Arclight", "Ironvale Media", "Paper Lantern Publishing", "Riverstone Interactive",
              "Meridian Games Group", "Crowsfoot", "Tessellate Publishing", "Obsidian Gate Media",
              "Halcyon Labs Publishing", "Ember & Ash", "Greyfell Interactive",
              "Starbound Distribution", "Oriwa Corporation", "Tanaka-Halvorsen",
              "Kessel Electronics", "Little Owl Games", "Sixfold Publishing",
              "Polar Bear Interactive", "Redcap Media", "Yellow Kite", "Monolith Street",
              "Cinderblock Publishing"]
for p in PUBLISHERS:
    if p not in used_names:
        unique(p)

STUDIO_A = ["Moon", "Iron", "Silver", "Red", "Hollow", "Glass", "Crooked", "Velvet", "Amber",
            "Quiet", "Thunder", "Paper", "Copper", "Wild", "Neon", "Frost", "Bright", "Black",
            "Lantern", "Rusty", "Tiny", "Ninth", "Salt", "Ghost", "Cobalt", "Electric", "Wandering",
            "Stone", "Violet", "Golden"]
STUDIO_B = ["Fox", "Anvil", "Harbor", "Owl", "Crow", "Tree", "Tide", "Forge", "Wolf", "Spire",
            "Beetle", "Heron", "Lynx", "Hammer", "Lighthouse", "Cartographer", "Gear", "Kite",
            "Badger", "Rook"]
STUDIO_C = ["Studios", "Games", "Interactive", "Entertainment", "Software", "Studio", "Labs",
            "Workshop", "Digital", "Collective"]
STUDIOS = []
while len(STUDIOS) < 90:
    r = rng.random()
    if r < 0.75:
        n = f"{rng.choice(STUDIO_A)} {rng.choice(STUDIO_B)} {rng.choice(STUDIO_C)}"
    elif r < 0.9:
        n = f"{rng.choice(STUDIO_A)}{rng.choice(STUDIO_B).lower()} {rng.choice(STUDIO_C)}"
    else:
        n = f"{rng.choice(STUDIO_A)} {rng.choice(STUDIO_B)}"
    if n in used_names:
        continue
    unique(n)
    STUDIOS.append(n)

# publisher attributes
for p in PUBLISHERS:
    if p in MAN_HQ:
        add(p, "FoundedYear", rng.randint(1950, 1985))
        continue
    add(p, "HeadquarteredIn", rng.choice(CITIES))
    add(p, "FoundedYear", rng.randint(1975, 2012))
    add(p, "Employees", rng.choice([45, 80, 120, 240, 400, 650, 900, 1500, 2300, 4800, 7200]) + rng.randint(0, 40))

STUDIO_FOUNDED = {}
for i, s in enumerate(STUDIOS):
    city = zipf_pick(CITIES, 0.5)
    add(s, "HeadquarteredIn", city)
    fy = rng.randint(1982, 2019)
    STUDIO_FOUNDED[s] = fy
    add(s, "FoundedYear", fy)
    size = int(rng.choice([6, 12, 25, 40, 75, 120, 200, 350, 600, 1100]) * rng.uniform(0.8, 1.3))
    add(s, "TeamSize", size)
    if rng.random() < 0.45:
        parent = zipf_pick(PUBLISHERS, 0.9)
        add(s, "SubsidiaryOf", parent)

# ---------------------------------------------------------------- engines
ENGINES = ["Unreal Forge 4", "Unreal Forge 5", "Unity Core", "Godspark", "Frostline Engine",
           "Redline Engine", "Kairo Engine", "Lumen Tide", "Atlas Engine", "Pyre Engine 2",
           "Basalt", "Mosaic Engine"]
ENGINE_LANG = {}
for e in ENGINES:
    unique(e)
    add(e, "CreatedBy", rng.choice(STUDIOS[:30]))
    lang = rng.choice(["C++", "C++", "C++", "C#", "Rust", "Java"])
    add(e, "WrittenIn", lang)
    if rng.random() < 0.4:
        add(e, "WrittenIn", "Lua")
    add(e, "EngineReleaseYear", rng.randint(1998, 2021))

# ---------------------------------------------------------------- franchises and games
NOUNS = ["Ember", "Hollow", "Tide", "Crown", "Lantern", "Ash", "Signal", "Orchard", "Harbor",
         "Glacier", "Cinder", "Meridian", "Atlas", "Requiem", "Echo", "Vessel", "Spire", "Cradle",
         "Wanderer", "Reverie", "Fracture", "Bastion", "Drift", "Sable", "Verdict", "Quarry",
         "Paragon", "Lullaby", "Mirage", "Outpost", "Covenant", "Kingdom", "Sunder", "Thicket",
         "Circuit", "Pilgrim", "Monsoon", "Oracle", "Warden", "Nomad"]
ADJ = ["Silent", "Crimson", "Endless", "Forgotten", "Broken", "Hidden", "Last", "Iron",
       "Starlit", "Sunken", "Burning", "Wild", "Hollow", "Pale", "Eternal", "Restless",
       "Gilded", "Neon", "Frozen", "Distant", "Savage", "Tiny", "Electric", "Feral"]
PLACES = ["the Deep", "Ashmoor", "Kelvara", "the Northern Reach", "Old Veil", "Tamsin Bay",
          "the Spire", "Duskwood", "Orun", "the Glass Sea", "Brenmoor", "Vael", "the Last City",
          "Highmarch", "Sorrow Peak"]
SUBS = ["Reckoning", "Awakening", "Legacy", "Rebirth", "Origins", "Frontiers", "Ascension",
        "Homecoming", "Exodus", "Dominion", "Afterlight", "Resonance"]
MADE_UP = ["Skyrend", "Voidling", "Mossheart", "Glimmerfall", "Brineborn", "Quillsmith",
           "Tumbleweald", "Orbitron", "Hexbloom", "Gravewind", "Pocketfort", "Starmoth",
           "Clockroot", "Puddlejump", "Runekeep", "Lumenfall", "Nettlebrook", "Drakespire",
           "Cogsworth Dash", "Tidewrack", "Bramblecourt", "Ironquill", "Fablewick", "Snowpine"]

FRANCHISES = []
while len(FRANCHISES) < 38:
    r = rng.random()
    if r < 0.4:
        n = f"{rng.choice(ADJ)} {rng.choice(NOUNS)}"
    elif r < 0.7:
        n = rng.choice(MADE_UP)
    else:
        n = f"{rng.choice(NOUNS)} of {rng.choice(PLACES)}"
    if n in used_names or any(n == f for f in FRANCHISES):
        continue
    FRANCHISES.append(n)
# franchise entity names carry "series" so games and franchises never share a name
FRANCHISE_ENT = {f: f"{f} series" for f in FRANCHISES}
for f in FRANCHISES:
    unique(FRANCHISE_ENT[f])

games = []          # dicts
game_names = set()


def new_game_name():
    while True:
        r = rng.random()
        if r < 0.3:
            n = f"{rng.choice(ADJ)} {rng.choice(NOUNS)}"
        elif r < 0.45:
            n = f"The {rng.choice(NOUNS)} of {rng.choice(PLACES)}"
        elif r < 0.6:
            n = f"{rng.choice(NOUNS)}: {rng.choice(SUBS)}"
        elif r < 0.75:
            n = f"{rng.choice(MADE_UP)}"
        elif r < 0.85:
            n = f"{rng.choice(NOUNS)}{rng.choice(['fall', 'bound', 'born', 'ward', 'light'])}"
        else:
            n = f"{rng.choice(ADJ)} {rng.choice(NOUNS)}: {rng.choice(SUBS)}"
        if n not in used_names and n not in FRANCHISES:
            unique(n)
            return n


def rand_date(y0, y1):
    y = rng.randint(y0, y1)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    return f"{y:04d}-{m:02d}-{d:02d}"


GENRE_POP = GENRES[:]
rng.shuffle(GENRE_POP)
composers = PERSONS[:45]
directors = PERSONS[30:110]
designers = PERSONS[60:170]

studio_pop = STUDIOS[:]  # zipf order = list order
rng.shuffle(studio_pop)


def make_game(name, franchise=None, base=None, date=None):
    g = {"name": name}
    if base:
        g["studio"] = [base["studio"][0]] if rng.random() < 0.8 else [zipf_pick(studio_pop)]
        g["publisher"] = base["publisher"] if rng.random() < 0.85 else zipf_pick(PUBLISHERS, 0.8)
        g["genre"] = list(base["genre"])
        if rng.random() < 0.3:
            extra = zipf_pick(GENRE_POP, 0.7)
            if extra not in g["genre"]:
                g["genre"].append(extra)
        g["engine"] = base["engine"] if rng.random() < 0.7 else zipf_pick(ENGINES, 0.8)
        g["composer"] = base.get("composer") if rng.random() < 0.6 else zipf_pick(composers, 1.0)
        g["director"] = base["director"] if rng.random() < 0.5 else zipf_pick(directors, 0.9)
        g["rating"] = base["rating"]
    else:
        g["studio"] = [zipf_pick(studio_pop, 0.9)]
        g["publisher"] = zipf_pick(PUBLISHERS, 0.8)
        g["genre"] = zipf_sample(GENRE_POP, rng.choice([1, 1, 2, 2, 2, 3]), 0.7)
        g["engine"] = zipf_pick(ENGINES, 0.8) if rng.random() < 0.9 else None
        g["composer"] = zipf_pick(composers, 1.0) if rng.random() < 0.85 else None
        g["director"] = zipf_pick(directors, 0.9)
        g["rating"] = rng.choice(RATINGS[:4] + ["Teen", "Mature 17+", "Everyone 10+"]
                                 + (["Adults Only 18+"] if rng.random() < 0.1 else []))
    if rng.random() < 0.15:
        other = zipf_pick(studio_pop, 0.9)
        if other not in g["studio"]:
            g["studio"].append(other)
    g["designers"] = zipf_sample(designers, rng.choice([1, 1, 2, 2, 3]), 0.8)
    g["date"] = date or rand_date(2003, 2024)
    year = int(g["date"][:4])
    plats = [p for p in PLATFORM_POP if PLAT_YEAR[p] <= year]
    g["platforms"] = zipf_sample(plats, min(len(plats), rng.choice([1, 2, 2, 3, 3, 4, 5])), 0.9)
    g["modes"] = ["Single-Player"] if rng.random() < 0.8 else []
    if rng.random() < 0.45:
        g["modes"].append(rng.choice(["Multiplayer", "Online Co-op", "Local Co-op", "MMO"]))
    if not g["modes"]:
        g["modes"] = ["Multiplayer"]
    g["score"] = max(31, min(97, int(rng.gauss(76, 9))))
    g["units"] = int(rng.lognormvariate(13.2, 1.3)) // 1000 * 1000 + 1000
    g["franchise"] = franchise
    g["awards"] = []
    if g["score"] >= 85 and rng.random() < 0.6:
        g["awards"] = rng.sample(AWARDS, rng.choice([1, 1, 2, 3]))
    elif rng.random() < 0.05:
        g["awards"] = [rng.choice(AWARDS)]
    g["sequel_of"] = None
    return g


# franchise games
for f in FRANCHISES:
    n = rng.choice([2, 2, 3, 3, 3, 4, 5, 6])
    y0 = rng.randint(2003, 2018)
    dates = sorted(rand_date(y0, min(2024, y0 + 3 * n)) for _ in range(n))
    base = None
    prev = None
    for i in range(n):
        if i == 0:
            name = f
            if name in used_names:
                name = new_game_name()
            else:
                unique(name)
        else:
            r = rng.random()
            if r < 0.45:
                name = f"{f} {['II', 'III', 'IV', 'V', 'VI', 'VII'][i - 1]}"
            else:
                name = f"{f}: {rng.choice(SUBS)}"
            if name in used_names:
                name = f"{f} {i + 1}"
            unique(name)
        g = make_game(name, franchise=f, base=base, date=dates[i])
        if base is None:
            base = g
        if prev is not None:
            g["sequel_of"] = prev["name"]
        prev = g
        games.append(g)

# standalone games
while len(games) < 330:
    games.append(make_game(new_game_name()))

for g in games:
    n = g["name"]
    for s in g["studio"]:
        add(n, "DevelopedBy", s)
    add(n, "PublishedBy", g["publisher"])
    for ge in g["genre"]:
        add(n, "HasGenre", ge)
    if g["engine"]:
        add(n, "BuiltWith", g["engine"])
    if g["composer"]:
        add(n, "ComposedBy", g["composer"])
    add(n, "DirectedBy", g["director"])
    for d in g["designers"]:
        add(n, "DesignedBy", d)
    add(n, "ReleaseDate", g["date"])
    for p in g["platforms"]:
        add(n, "AvailableOn", p)
    for m in g["modes"]:
        add(n, "GameMode", m)
    add(n, "ContentRating", g["rating"])
    add(n, "MetacriticScore", g["score"])
    add(n, "UnitsSold", g["units"])
    if g["franchise"]:
        add(n, "PartOfFranchise", FRANCHISE_ENT[g["franchise"]])
    for a in g["awards"]:
        add(n, "ReceivedAward", a)
    if g["sequel_of"]:
        add(n, "SequelOf", g["sequel_of"])

# franchise owners
for f in FRANCHISES:
    first = next(g for g in games if g["franchise"] == f)
    add(FRANCHISE_ENT[f], "OwnedBy", first["publisher"])

# persons work history: studios of games they worked on + a random extra
person_studios = {p: set() for p in PERSONS}
for g in games:
    for p in [g["director"], g["composer"]] + g["designers"]:
        if p and rng.random() < 0.5:
            person_studios[p].add(g["studio"][0])
for p in PERSONS:
    if not person_studios[p] or rng.random() < 0.3:
        person_studios[p].add(rng.choice(STUDIOS))
    for s in sorted(person_studios[p])[:4]:
        add(p, "WorkedAt", s)
# founders
for s in STUDIOS:
    if rng.random() < 0.5:
        for p in rng.sample(PERSONS, rng.choice([1, 1, 2])):
            add(s, "FoundedBy", p)

# ---------------------------------------------------------------- esports
TEAM_A = ["Team", "Squad", ""]
TEAM_WORDS = ["Vortex", "Nightfall", "Apex Wolves", "Crimson Tide Gaming", "Northern Lights",
              "Phantom Five", "Polar Owls", "Iron Dragons", "Neon Serpents", "Blue Ravens",
              "Golden Lions Esports", "Kinetic", "Eclipse", "Void Runners", "Storm Riders",
              "Arcadia", "Frostbite Gaming", "Titan Sphere", "Seoul Tigers", "Samba Force",
              "Red Comet", "Outlaws Club", "Mirage Syndicate", "Lotus Legion", "Bastion Five",
              "Zero Gravity", "Hydra Esports", "Sakura Storm", "Baltic Wolves", "Kraken Collective"]
TEAMS = []
for t in TEAM_WORDS:
    name = t if t not in used_names else t + " Esports"
    unique(name)
    TEAMS.append(name)
for t in TEAMS:
    add(t, "BasedIn", rng.choice(CITIES))
    add(t, "FoundedYear", rng.randint(2004, 2020))

esport_games = [g for g in games if "Multiplayer" in g["modes"] or "MMO" in g["modes"]]
esport_games.sort(key=lambda g: -g["units"])
esport_games = esport_games[:14]
TOURN_SERIES = ["Apex Invitational", "Grand Clash", "Crown Masters", "Summit Series",
                "Frostfire Open", "Pacific Showdown", "Nordic Brawl", "Continental Cup"]
tournaments = []
for s in TOURN_SERIES:
    for y in sorted(rng.sample(range(2012, 2025), rng.choice([3, 4, 5, 6]))):
        name = f"{s} {y}"
        unique(name)
        tournaments.append((name, y))
for name, y in tournaments:
    g = rng.choice([eg for eg in esport_games if int(eg["date"][:4]) <= y] or esport_games)
    add(name, "FeaturedGame", g["name"])
    add(name, "HostCity", rng.choice(CITIES))
    add(name, "EventYear", y)
    add(name, "PrizePool", rng.choice([50, 100, 150, 250, 400, 750, 1000, 2000, 5000]) * 1000)
    parts = zipf_sample(TEAMS, rng.choice([4, 5, 6, 8]), 0.7)
    for t in parts:
        add(name, "ParticipatingTeam", t)
    add(name, "WonBy", rng.choice(parts))
    add(name, "OrganizedBy", rng.choice(PUBLISHERS[:12]))

# ---------------------------------------------------------------- write
seen = set()
out = []
for t in triples:
    if t not in seen:
        seen.add(t)
        out.append(t)
with open(os.path.join(HERE, "kb.txt"), "w", encoding="utf-8") as fh:
    for h, r, t in out:
        fh.write(f"{h}|{r}|{t}\n")

ents = set()
rels = set()
LITERAL = {"ReleaseDate", "MetacriticScore", "UnitsSold", "FoundedYear", "TeamSize", "Employees",
           "BirthYear", "PlatformReleaseYear", "EngineReleaseYear", "EventYear", "PrizePool"}
for h, r, t in out:
    rels.add(r)
    ents.add(h)
    if r not in LITERAL:
        ents.add(t)
print(f"triples={len(out)} relations={len(rels)} entities={len(ents)}")
