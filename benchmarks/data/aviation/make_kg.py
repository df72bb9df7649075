#!/usr/bin/env python3
"""Build a small, made-up civil aviation knowledge graph and write kb.txt.

Standard library only; deterministic (fixed seed). One triple per line:
head|relation|tail. Relation labels are prefixed camelCase (av:...).
"""
import os
import random

SEED = 20240519
rng = random.Random(SEED)

triples = []
seen_triples = set()
all_names = {}  # name -> type (to keep names unique across types)


def add(h, r, t):
    t = str(t)
    key = (h, r, t)
    if key in seen_triples:
        return
    for x in (h, r, t):
        assert "|" not in x and "\n" not in x, x
    seen_triples.add(key)
    triples.append(key)


def claim(name, typ):
    if name in all_names:
        return False
    all_names[name] = typ
    return True


def rand_date(y0, y1):
    y = rng.randint(y0, y1)
    m = rng.randint(1, 12)
    d = rng.randint(1, 28)
    return f"{y:04d}-{m:02d}-{d:02d}"


# ---------------------------------------------------------------- countries
COUNTRIES = [
    "Norvania", "Keshmar", "Valdoria", "Estrelia", "Tarrakand", "Ostmark",
    "Lusiana", "Brevonia", "Calderra", "Myrrhen", "Sardovia", "Quelland",
    "Ithren", "Pallasia", "Zemora", "Corvalis", "Andurra", "Helvoria",
    "Marenlund", "Taviros", "Okonde", "Rusalia", "Dunmere", "Arvel Islands",
]
for c in COUNTRIES:
    claim(c, "Country")

# time zones, shared by countries
TZ = {}
tz_pool = ["UTC-05:00", "UTC-03:00", "UTC+00:00", "UTC+01:00", "UTC+02:00",
           "UTC+03:00", "UTC+04:00", "UTC+05:30", "UTC+07:00", "UTC+08:00",
           "UTC+09:00", "UTC+10:00"]
for i, c in enumerate(COUNTRIES):
    TZ[c] = tz_pool[(i * 5) % len(tz_pool)]
for z in tz_pool:
    claim(z, "TimeZone")

# ---------------------------------------------------------------- cities
PRE = ["Al", "Bel", "Cor", "Dar", "El", "Fen", "Gal", "Har", "Ist", "Jor",
       "Kal", "Lor", "Mar", "Nor", "Or", "Pel", "Quin", "Ros", "Sal", "Tor",
       "Ul", "Vel", "Wes", "Yar", "Zan", "Bran", "Cas", "Dun", "Esk", "Tal",
       "Mir", "Sev", "Ard", "Lin", "Ken"]
MID = ["a", "e", "i", "o", "", "an", "en", "ar", "or", "u"]
SUF = ["ford", "mont", "burg", "haven", "dale", "ria", "stad", "ton", "vik",
       "mar", "polis", "gard", "wick", "port", "lin", "sk", "via", "more",
       "bridge", "holm", "era", "ona"]
CITY_PREFIX = ["Port ", "San ", "New ", "Fort ", "Saint ", "Upper ", "East ",
               "Lake "]


def city_name():
    while True:
        base = rng.choice(PRE) + rng.choice(MID) + rng.choice(SUF)
        base = base[0].upper() + base[1:]
        r = rng.random()
        if r < 0.18:
            base = rng.choice(CITY_PREFIX) + base
        elif r < 0.24:
            base = base + " " + rng.choice(["Bay", "Springs", "Falls", "Heights"])
        if claim(base, "City"):
            return base


cities_of = {}
country_of_city = {}
for c in COUNTRIES:
    n = rng.randint(3, 7)
    cities_of[c] = []
    for _ in range(n):
        nm = city_name()
        cities_of[c].append(nm)
        country_of_city[nm] = c
        add(nm, "av:inCountry", c)
    # capital: first city
    add(c, "av:capitalCity", cities_of[c][0])
ALL_CITIES = [x for c in COUNTRIES for x in cities_of[c]]

# ---------------------------------------------------------------- people
FIRST = ["Elena", "Marcus", "Aiko", "Tomas", "Priya", "Dmitri", "Sofia",
         "Henrik", "Amara", "Luca", "Ingrid", "Rafael", "Mei", "Oskar",
         "Nadia", "Julian", "Fatima", "Callum", "Yara", "Stefan", "Leila",
         "Anders", "Chloe", "Mateo", "Hana", "Viktor", "Imogen", "Kwame",
         "Beatriz", "Ruben", "Signe", "Tariq", "Margot", "Emil", "Ines",
         "Bastian", "Zuzana", "Arjun", "Colette", "Nikolai", "Thea", "Dario",
         "Ottilie", "Samir", "Greta", "Felix", "Lucia", "Jonas", "Aurelie",
         "Kenji", "Maren", "Idris", "Vera", "Hugo", "Esme", "Teodor", "Nia",
         "Ciaran", "Ruth", "Malik", "Astrid", "Pavel", "Clara", "Wendell"]
LAST = ["Marchetti", "Okafor", "Lindqvist", "Haraldsen", "Varga", "Castellan",
        "Nakamura", "Brennan", "Delacroix", "Petrov", "Oyelaran", "Van Dorn",
        "Ashworth", "Kowalczyk", "Moreau", "Stavros", "Halloran", "Ferreira",
        "Iversen", "Quist", "Romero", "Sandoval", "Thorne", "Ueda", "Whitcombe",
        "Zelenko", "Abernathy", "Bellamy", "Cruz", "Duarte", "Eklund",
        "Fairbanks", "Grünwald", "Hollis", "Ibarra", "Jansen", "Kalinowski",
        "Laurent", "Mbeki", "Novak", "O'Rourke", "Pellegrini", "Rahimi",
        "Sørensen", "Takahashi", "Ulloa", "Vasquez", "Wren", "Yilmaz",
        "Achterberg", "Bianchi", "Carvalho", "Draper", "Esposito", "Falk",
        "Gallagher", "Hsu", "Ishikawa", "Jovanovic", "Keane", "Lemaire",
        "Mistry", "Nilsen", "Ortega", "Prasad", "Quintero", "Reyes", "Saito",
        "Tiernan", "Voss", "Whitlock", "Ye", "Zamora", "de la Vega", "Ellery"]
INITIALS = "ABCDEFGHJKLMNPRSTW"


def person_name():
    while True:
        f = rng.choice(FIRST)
        l = rng.choice(LAST)
        r = rng.random()
        if r < 0.15:
            nm = f"{f} {rng.choice(INITIALS)}. {l}"
        elif r < 0.20:
            nm = f"{f}-{rng.choice(FIRST)} {l}"
        else:
            nm = f"{f} {l}"
        if claim(nm, "Person"):
            return nm


def new_person(kind):
    p = person_name()
    nat = rng.choice(COUNTRIES)
    add(p, "av:nationality", nat)
    if kind == "pilot":
        add(p, "av:birthDate", rand_date(1958, 1998))
    else:
        add(p, "av:birthDate", rand_date(1930, 1985))
    return p, nat


# ---------------------------------------------------------------- airports
AIRPORTS = []
airport_city = {}
airport_size = {}
airport_country = {}
for c in COUNTRIES:
    for i, city in enumerate(cities_of[c]):
        n_ap = 1
        if i == 0:
            n_ap = rng.choice([1, 2, 2])
        elif rng.random() < 0.15:
            n_ap = 2
        if i > 0 and rng.random() < 0.12:
            n_ap = 0
        for k in range(n_ap):
            while True:
                r = rng.random()
                if k == 0 and r < 0.55:
                    nm = f"{city} International Airport"
                elif r < 0.7:
                    nm = f"{city} {rng.choice(['Regional', 'Municipal', 'North', 'South'])} Airport"
                elif r < 0.85:
                    nm = f"{rng.choice(FIRST)} {rng.choice(LAST)} International Airport"
                else:
                    nm = f"{city} {rng.choice(LAST)} Field"
                if claim(nm, "Airport"):
                    break
            AIRPORTS.append(nm)
            airport_city[nm] = city
            airport_country[nm] = c
            # size: capitals' first airport are big
            big = (i == 0 and k == 0)
            size = rng.randint(8_000_000, 72_000_000) if big else rng.randint(300_000, 18_000_000)
            airport_size[nm] = size
            add(nm, "av:locatedInCity", city)
            add(nm, "av:annualPassengers", size)
            runways = 1 + (size > 3_000_000) + (size > 15_000_000) + (size > 40_000_000) + (rng.random() < 0.2)
            add(nm, "av:runwayCount", runways)
            add(nm, "av:elevationMetres", rng.choice([rng.randint(2, 120), rng.randint(100, 900), rng.randint(900, 2600)]))
            add(nm, "av:openedYear", rng.randint(1925, 2019))
            add(nm, "av:timeZone", TZ[c])

airports_in = {c: [a for a in AIRPORTS if airport_country[a] == c] for c in COUNTRIES}

# ---------------------------------------------------------------- manufacturers and types
MANUF = [
    ("Aerovance", "AV"), ("Kestrel Aerospace", "Kestrel K"),
    ("Talon Aircraft Corporation", "Talon T"), ("Norvanian Aircraft Works", "NAW"),
    ("Ilyenko Design Bureau", "Ilyenko IL"), ("Brennan-Hollis Aviation", "BH"),
    ("Sorel Aeronautique", "Sorel S"), ("Cirrostrat Industries", "Cirro C"),
    ("Halvard Aero", "Halvard H"), ("Pemberton Jetworks", "PJ"),
    ("Zemoran Aerospace Group", "ZAG"), ("Okonde Air Industries", "OAI"),
    ("Lindqvist Flygverk", "LF"), ("Corvalis Airframes", "Corvair CA"),
]
BODY = ["Narrow-body", "Wide-body", "Regional jet", "Turboprop", "Double-deck"]
for b in BODY:
    claim(b, "BodyType")

FOUNDERS = []
AIRCRAFT_TYPES = []
type_body = {}
for mname, prefix in MANUF:
    claim(mname, "Manufacturer")
    ctry = rng.choice(COUNTRIES)
    add(mname, "av:headquarteredIn", rng.choice(cities_of[ctry]))
    add(mname, "av:foundingYear", rng.randint(1909, 1985))
    for _ in range(rng.choice([1, 1, 2])):
        p, _n = new_person("founder")
        FOUNDERS.append(p)
        add(mname, "av:foundedBy", p)
    ntypes = rng.randint(2, 7)
    for j in range(ntypes):
        while True:
            num = rng.choice([100, 120, 140, 200, 220, 300, 310, 320, 330, 350,
                              400, 500, 600, 700, 737, 750, 800, 900, 50, 72, 90])
            sep = "-" if rng.random() < 0.6 else " "
            variant = rng.choice(["", "", "", "ER", "LR", "neo", "X", "-200", "-300"])
            nm = f"{prefix}{sep}{num}{variant}" if not prefix.endswith(" ") else f"{prefix}{num}{variant}"
            if claim(nm, "AircraftType"):
                break
        AIRCRAFT_TYPES.append(nm)
        add(nm, "av:manufacturedBy", mname)
        body = rng.choices(BODY, weights=[40, 25, 18, 14, 3])[0]
        type_body[nm] = body
        add(nm, "av:bodyType", body)
        seats = {"Narrow-body": (120, 240), "Wide-body": (220, 420),
                 "Regional jet": (50, 110), "Turboprop": (19, 78),
                 "Double-deck": (420, 620)}[body]
        add(nm, "av:seatCapacity", rng.randint(*seats))
        rng_km = {"Narrow-body": (3000, 7500), "Wide-body": (9000, 16000),
                  "Regional jet": (1800, 4000), "Turboprop": (900, 2400),
                  "Double-deck": (12000, 15500)}[body]
        add(nm, "av:rangeKm", rng.randint(*rng_km) // 10 * 10)
        add(nm, "av:firstFlightDate", rand_date(1958, 2021))
        eng = 4 if body == "Double-deck" or (body == "Wide-body" and rng.random() < 0.25) else 2
        add(nm, "av:engineCount", eng)

# ---------------------------------------------------------------- alliances
ALLIANCES = ["Aurora Alliance", "Meridian Alliance", "Polaris Group", "Cirrus Partnership"]
for a in ALLIANCES:
    claim(a, "Alliance")
    add(a, "av:foundingYear", rng.randint(1989, 2008))
    add(a, "av:headquarteredIn", rng.choice(ALL_CITIES))

# ---------------------------------------------------------------- awards and organisations
ORGS = ["International Air Passenger Forum", "Global Aviation Review",
        "World Airport Council of Excellence", "Flight Safety Institute"]
for o in ORGS:
    claim(o, "Organisation")
AWARDS = [
    ("Global Airline Excellence Award", 0, "airline"),
    ("Best Regional Carrier Award", 1, "airline"),
    ("Best Cabin Crew Award", 0, "airline"),
    ("Best Low-Cost Carrier Award", 1, "airline"),
    ("Golden Runway Award", 2, "airport"),
    ("Airport Service Quality Award", 2, "airport"),
    ("Cleanest Terminal Award", 0, "airport"),
    ("Aviation Executive of the Year", 1, "person"),
    ("Lifetime Achievement in Aviation", 1, "person"),
    ("Meridian Safety Medal", 3, "pilot"),
    ("Golden Wings Award", 3, "pilot"),
    ("Eco-Flight Innovation Prize", 1, "airline"),
    ("Best Business Class Award", 0, "airline"),
    ("On-Time Performance Trophy", 1, "airline"),
]
for a, oi, _k in AWARDS:
    claim(a, "Award")
    add(a, "av:presentedBy", ORGS[oi])
awards_for = {}
for a, _oi, k in AWARDS:
    awards_for.setdefault(k, []).append(a)

# ---------------------------------------------------------------- airlines
CATS = ["Full-service carrier", "Low-cost carrier", "Regional carrier",
        "Cargo airline", "Charter airline", "Ultra low-cost carrier"]
STATUS = ["Active", "Defunct", "Merged", "Suspended"]
RANKS = ["Captain", "Senior First Officer", "First Officer", "Second Officer"]
for x in CATS + STATUS + RANKS:
    claim(x, "Value")

BRAND = ["Skylark", "Aquila", "Zephyr", "Bluejay", "Northwind", "Solara",
         "Cobalt", "Falcon", "Amber", "Altair", "Vega", "Tern", "Swiftline",
         "Cloudhopper", "Jetstream", "Pelican", "Kite", "Orion", "Lumen",
         "Saffron", "Juniper", "Aurelia", "Sirocco", "Monsoon", "Tundra",
         "Coral", "Mistral", "Halcyon", "Nimbus", "Peregrine", "Kingfisher Blue",
         "Red Heron", "Silver Gull", "Evening Star", "Crescent", "Starling"]
BRAND_SUF = [" Airlines", " Air", " Airways", " Jet", " Aviation", " Wings", " Fly"]

AIRLINES = []
airline_country = {}
airline_cat = {}


def make_airline(name, ctry, cat, parent=None, flag=False):
    claim(name, "Airline")
    AIRLINES.append(name)
    airline_country[name] = ctry
    airline_cat[name] = cat
    add(name, "av:registeredInCountry", ctry)
    add(name, "av:airlineCategory", cat)
    if parent:
        add(name, "av:parentCompany", parent)


# flag carriers
for c in COUNTRIES:
    pat = rng.choice(["Air {c}", "{c} Airlines", "{c} Airways", "{c} International Air Lines",
                      "Royal {c} Airlines", "Fly {c}", "{c} Air Transport"])
    nm = pat.format(c=c)
    make_airline(nm, c, "Full-service carrier", flag=True)

# brand airlines
brands = BRAND[:]
rng.shuffle(brands)
for b in brands[:34]:
    nm = b + rng.choice(BRAND_SUF)
    ctry = rng.choice(COUNTRIES)
    cat = rng.choices(CATS, weights=[20, 30, 18, 10, 10, 8])[0]
    make_airline(nm, ctry, cat)

# city airlines
for _ in range(14):
    while True:
        ctry = rng.choice(COUNTRIES)
        city = rng.choice(cities_of[ctry])
        nm = city + rng.choice([" Air", " Airlines", " Express", " Airlink"])
        if nm not in all_names:
            break
    cat = rng.choices(CATS, weights=[8, 20, 40, 8, 16, 8])[0]
    make_airline(nm, ctry, cat)

# subsidiaries
parents = rng.sample(AIRLINES[:len(COUNTRIES)], 12)
for p in parents:
    suffix = rng.choice([" Express", " Connect", " Cargo", " Regional"])
    nm = p + suffix
    cat = {"Express": "Regional carrier", "Connect": "Regional carrier",
           "Cargo": "Cargo airline", "Regional": "Regional carrier"}[suffix.strip()]
    make_airline(nm, airline_country[p], cat, parent=p)
# a few brand airlines owned by others
for p in rng.sample(AIRLINES[len(COUNTRIES):len(COUNTRIES) + 34], 5):
    q = rng.choice(AIRLINES[:len(COUNTRIES)])
    add(p, "av:parentCompany", q)

airline_hubs = {}
airline_types = {}
EXECS = []
# alliance membership
for a in AIRLINES:
    ctry = airline_country[a]
    cat = airline_cat[a]
    status = rng.choices(STATUS, weights=[70, 14, 10, 6])[0]
    add(a, "av:operatingStatus", status)
    is_flag = a in AIRLINES[:len(COUNTRIES)]
    add(a, "av:foundingYear", rng.randint(1921, 1975) if is_flag else rng.randint(1955, 2018))
    # HQ
    hq = cities_of[ctry][0] if is_flag or rng.random() < 0.4 else rng.choice(cities_of[ctry])
    add(a, "av:headquarteredIn", hq)
    # hubs
    aps = airports_in[ctry]
    aps_sorted = sorted(aps, key=lambda x: -airport_size[x])
    nh = 1 if cat in ("Regional carrier", "Charter airline") else rng.choice([1, 2, 2, 3])
    if is_flag:
        hubs = aps_sorted[:nh]
    else:
        hubs = rng.sample(aps, min(nh, len(aps)))
    airline_hubs[a] = hubs
    for h in hubs:
        add(a, "av:hubAirport", h)
    # served airports
    served = set(hubs)
    dom = [x for x in aps if x not in served]
    nd = min(len(dom), rng.randint(1, 4))
    served.update(rng.sample(dom, nd))
    if cat == "Regional carrier":
        nint = rng.randint(0, 4)
    elif cat in ("Full-service carrier",):
        nint = rng.randint(8, 20)
    else:
        nint = rng.randint(3, 12)
    foreign = [x for x in AIRPORTS if airport_country[x] != ctry]
    weights = [airport_size[x] ** 0.6 for x in foreign]
    while nint > 0:
        pick = rng.choices(foreign, weights=weights)[0]
        if pick not in served:
            served.add(pick)
            nint -= 1
    for s in sorted(served):
        add(a, "av:servesAirport", s)
    # alliance
    if cat == "Full-service carrier" and rng.random() < 0.75:
        add(a, "av:memberOfAlliance", rng.choice(ALLIANCES))
    elif cat in ("Regional carrier", "Cargo airline") and rng.random() < 0.25:
        add(a, "av:memberOfAlliance", rng.choice(ALLIANCES))
    # fleet types
    pool = AIRCRAFT_TYPES[:]
    if cat == "Regional carrier":
        pool = [t for t in AIRCRAFT_TYPES if type_body[t] in ("Regional jet", "Turboprop")]
    elif cat in ("Low-cost carrier", "Ultra low-cost carrier"):
        pool = [t for t in AIRCRAFT_TYPES if type_body[t] == "Narrow-body"]
    nt = rng.randint(1, 3) if cat != "Full-service carrier" else rng.randint(3, 7)
    types = rng.sample(pool, min(nt, len(pool)))
    airline_types[a] = types
    for t in types:
        add(a, "av:operatesAircraftType", t)
    fleet = {"Full-service carrier": (40, 320), "Low-cost carrier": (20, 260),
             "Regional carrier": (6, 70), "Cargo airline": (4, 60),
             "Charter airline": (3, 35), "Ultra low-cost carrier": (12, 140)}[cat]
    add(a, "av:fleetSize", rng.randint(*fleet))

# founders: some founders start several airlines
for a in AIRLINES:
    if a.endswith((" Express", " Connect", " Cargo", " Regional")) and any(
            (a, "av:parentCompany", p) in seen_triples for p in AIRLINES):
        continue
    n = rng.choices([1, 2, 3], weights=[65, 28, 7])[0]
    for _ in range(n):
        if FOUNDERS and rng.random() < 0.22:
            p = rng.choice(FOUNDERS)
        else:
            p, _nat = new_person("founder")
            FOUNDERS.append(p)
        add(a, "av:foundedBy", p)

# chief executives: one-to-one
for a in AIRLINES:
    p, _nat = new_person("exec")
    EXECS.append(p)
    add(a, "av:chiefExecutive", p)
    for _ in range(rng.choices([0, 1, 2, 3], weights=[35, 35, 22, 8])[0]):
        prev = rng.choice(AIRLINES)
        if prev != a:
            add(p, "av:previousEmployer", prev)
# founders may also have worked for airlines
for p in FOUNDERS:
    if rng.random() < 0.3:
        add(p, "av:previousEmployer", rng.choice(AIRLINES))

# codeshares (symmetric pairs written once each direction)
for a in AIRLINES:
    if airline_cat[a] in ("Cargo airline", "Charter airline"):
        continue
    for _ in range(rng.choices([0, 1, 2, 3, 4], weights=[30, 25, 20, 15, 10])[0]):
        b = rng.choice(AIRLINES)
        if b != a and airline_cat[b] not in ("Cargo airline", "Charter airline"):
            add(a, "av:codeshareWith", b)
            add(b, "av:codeshareWith", a)

# awards for airlines
for a in AIRLINES:
    for _ in range(rng.choices([0, 1, 2, 3], weights=[50, 30, 14, 6])[0]):
        add(a, "av:receivedAward", rng.choice(awards_for["airline"]))
for ap in AIRPORTS:
    if rng.random() < 0.2 + (0.3 if airport_size[ap] > 20_000_000 else 0):
        add(ap, "av:receivedAward", rng.choice(awards_for["airport"]))
for p in EXECS + FOUNDERS:
    if rng.random() < 0.12:
        add(p, "av:receivedAward", rng.choice(awards_for["person"]))

# ---------------------------------------------------------------- pilots
for a in AIRLINES:
    cat = airline_cat[a]
    n = {"Full-service carrier": (4, 7), "Low-cost carrier": (2, 5),
         "Regional carrier": (1, 3), "Cargo airline": (1, 3),
         "Charter airline": (1, 2), "Ultra low-cost carrier": (1, 3)}[cat]
    for _ in range(rng.randint(*n)):
        p, _nat = new_person("pilot")
        add(p, "av:employedBy", a)
        rank = rng.choices(RANKS, weights=[40, 20, 30, 10])[0]
        add(p, "av:pilotRank", rank)
        hrs = {"Captain": (6000, 24000), "Senior First Officer": (3500, 9000),
               "First Officer": (1500, 6000), "Second Officer": (300, 2000)}[rank]
        add(p, "av:flightHours", rng.randint(*hrs) // 10 * 10)
        types = airline_types[a]
        for t in rng.sample(types, min(len(types), rng.choice([1, 1, 2, 3]))):
            add(p, "av:typeRating", t)
        if rng.random() < 0.12:
            add(p, "av:previousEmployer", rng.choice(AIRLINES))
        if rng.random() < 0.07:
            add(p, "av:receivedAward", rng.choice(awards_for["pilot"]))

# ---------------------------------------------------------------- write
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kb.txt")
with open(out, "w", encoding="utf-8") as f:
    for h, r, t in triples:
        f.write(f"{h}|{r}|{t}\n")

if __name__ == "__main__":
    ents = set()
    for h, r, t in triples:
        ents.add(h)
        ents.add(t)
    rels = sorted({r for _, r, _ in triples})
    from collections import Counter
    types = Counter(all_names.values())
    print(f"triples={len(triples)} nodes={len(ents)} named_entities={len(all_names)} relations={len(rels)}")
    print(dict(types))
    rc = Counter(r for _, r, _ in triples)
    for r in rels:
        print(f"  {r}: {rc[r]}")
