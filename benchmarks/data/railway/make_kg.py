#!/usr/bin/env python3
"""Make a small made-up railway knowledge graph and write it to kb.txt.

Domain: a fictional national railway network -- stations, lines, operators,
holding companies, named train services, rolling-stock classes, manufacturers,
depots, people (architects, engineers, executives, surveyors) and districts.

Standard library only; fixed seed, so the output is the same on every run.
One triple per line: head|relation|tail (UTF-8, no header).
"""

import os
import random

SEED = 1847
rng = random.Random(SEED)

triples = []


def add(h, r, t):
    h, t = str(h), str(t)
    assert "|" not in h and "|" not in t and "|" not in r
    triples.append((h, r, t))


def pick_weighted(items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


# --------------------------------------------------------------------------
# Shared value entities (objects many subjects share)
# --------------------------------------------------------------------------
STATUSES = ["open", "closed", "heritage", "mothballed"]
STYLES = ["Victorian Gothic", "Italianate", "Art Deco", "Brutalist",
          "Modernist", "Arts and Crafts", "High-tech"]
GAUGES = ["standard gauge", "narrow gauge", "broad gauge", "metre gauge"]
ELECTRIFICATION = ["25 kV AC overhead", "750 V DC third rail",
                   "1500 V DC overhead", "non-electrified"]
SERVICE_TYPES = ["intercity", "regional", "commuter", "night sleeper",
                 "heritage excursion"]
TRACTION = ["diesel-electric", "diesel-hydraulic", "electric", "bi-mode",
            "steam", "battery-electric"]
PROFESSIONS = ["architect", "civil engineer", "mechanical engineer",
               "railway executive", "surveyor"]

DISTRICTS = [
    "Corrowdale", "Fenmarsh Vale", "Ivel Valley", "Northmoor", "Saxonby Wolds",
    "Greywater", "Harrowfield", "Kestrel Downs", "Lower Tamsin", "Marrick Heath",
    "Oakenshaw", "Pennick Coast", "Quarry Hills", "Redmere", "Selbourne Flats",
    "Thornbury Forest", "Upper Wendle", "Vexley", "Westholm", "Yarrow Marches",
    "Aldwych Levels", "Brackenridge", "Caldmoor", "Dunmere", "Eastmarch",
    "Glenharrow", "Holloway Fields", "Inverlyn", "Kirkby Uplands", "Lanthorn Bay",
]

# --------------------------------------------------------------------------
# Stations
# --------------------------------------------------------------------------
ROOTS = ["Ash", "Bram", "Thorn", "Kes", "Wil", "Hal", "Mar", "Ock", "Pen",
         "Rad", "Sel", "Tam", "Wex", "Dun", "Fen", "Gar", "Hex", "Lyn", "Nor",
         "Os", "Pol", "Quen", "Rook", "Stan", "Tre", "Ulver", "Vane", "Whit",
         "Yar", "Elm", "Crow", "Brack", "Cal", "Dray", "Ever", "Fal", "Glen",
         "Hart", "Ivel", "Kirk"]
ENDINGS = ["combe", "ley", "wick", "ford", "bury", "ham", "ton", "stead",
           "mouth", "field", "thorpe", "by", "hurst", "worth", "gate",
           "bridge", "dale", "minster"]
SUFFIXES = ["", "", "", "", " Central", " Junction", " Road", " Parkway",
            " Halt", " Street", " North", " South", " Docks", " Town",
            " Market", " Abbey", " Park", " Riverside"]
PREFIXES = ["", "", "", "", "", "", "", "", "Upper ", "Lower ", "Great ",
            "Little ", "East ", "West ", "Old ", "St. "]

towns = sorted(r + e for r in ROOTS for e in ENDINGS)
rng.shuffle(towns)
towns = towns[:400]

N_STATIONS = 400
stations = []
seen = set(DISTRICTS)
for town in towns:
    pre = rng.choice(PREFIXES)
    suf = rng.choice(SUFFIXES)
    if pre == "St. ":
        suf = rng.choice(["", " Road", " Halt", " Abbey"])
    name = pre + town + suf
    if name in seen:
        name = town + " Central"
    seen.add(name)
    stations.append(name)
    if len(stations) == N_STATIONS:
        break

# --------------------------------------------------------------------------
# People
# --------------------------------------------------------------------------
FIRST = ["Edmund", "Ada", "Marguerite", "Thomas", "Isambard", "Clara",
         "Henrietta", "Walter", "Rosalind", "Bartholomew", "Nadia", "Oskar",
         "Priya", "Jonah", "Leonora", "Felix", "Imogen", "Cyril", "Beatrix",
         "Rupert", "Sunita", "Declan", "Ottilie", "Hugo", "Winifred", "Kwame",
         "Agnes", "Lucian", "Mei", "Roderick", "Tamsin", "Ezra", "Harriet",
         "Ivo", "Greta", "Samuel", "Yusuf", "Philippa", "Anselm", "Dorothea"]
SURNAMES = ["Harrow", "Linwood", "Okonkwo-Baines", "Pemberton", "Strand",
            "Castellane", "Whitlock", "Ferrier", "Achterberg", "Moss",
            "Dunmore", "Kilbride", "Vasquez Reyes", "Thackeray", "Ng",
            "Holloway", "Brightwater", "Ormerod", "Sandeman", "Quill",
            "Radley", "Fairbairn", "Ostrowski", "Penhaligon", "Carew",
            "Iyer", "Blackmore", "Lindqvist", "Ashdown", "Trevelyan",
            "McAlister", "Rowntree", "Delacroix-Hale", "Jessop", "Kettle"]
# a few shared surnames are used more than once on purpose (rng.choice does it)
INITIALS = "ABCDEFGHJKLMNPRSTW"

used_people = set()


def person_name():
    while True:
        first = rng.choice(FIRST)
        sur = rng.choice(SURNAMES)
        x = rng.random()
        if x < 0.30:
            name = f"{first} {rng.choice(INITIALS)}. {sur}"
        elif x < 0.36:
            name = f"{rng.choice(INITIALS)}. {rng.choice(INITIALS)}. {sur}"
        else:
            name = f"{first} {sur}"
        if name not in used_people and name not in seen:
            used_people.add(name)
            seen.add(name)
            return name


def make_people(n, prof, birth_lo, birth_hi):
    out = []
    for _ in range(n):
        p = person_name()
        by = rng.randint(birth_lo, birth_hi)
        out.append((p, by))
        add(p, "profession", prof)
        add(p, "birthYear", by)
    return out


architects = make_people(36, "architect", 1800, 1975)
civil_engineers = make_people(28, "civil engineer", 1790, 1975)
mech_engineers = make_people(22, "mechanical engineer", 1900, 1985)
executives = make_people(30, "railway executive", 1945, 1988)
surveyors = make_people(16, "surveyor", 1800, 1960)

# --------------------------------------------------------------------------
# Operators and holding companies
# --------------------------------------------------------------------------
HOLDINGS = [("Ardent Transport Group", 1968), ("Corvid Holdings", 1994),
            ("Meridian Mobility plc", 1999), ("Halcyon Infrastructure", 1987),
            ("Tessellate Capital", 2006)]
for h, fy in HOLDINGS:
    add(h, "headquarteredIn", rng.choice(DISTRICTS))
    add(h, "foundedYear", fy)

OPERATORS = [
    ("Greywater Railways", 1923, "Greywater"),
    ("Ivel & Fenmarsh Railway Company", 1846, "Ivel Valley"),
    ("Northmoor Rail", 1996, "Northmoor"),
    ("Coastlink Trains", 2004, "Pennick Coast"),
    ("Meridian Express", 2001, "Harrowfield"),
    ("Harlow Valley Transit", 1979, "Oakenshaw"),
    ("Pennant Rail", 2011, "Redmere"),
    ("Saxonby Light Railway", 1899, "Saxonby Wolds"),
    ("Kestrel Trains", 2008, "Kestrel Downs"),
    ("Union Midland Railway", 1872, "Marrick Heath"),
    ("Thornbury Heritage Railway Trust", 1961, "Thornbury Forest"),
    ("Blue Heron Rail", 2015, "Lanthorn Bay"),
]
HERITAGE_OP = "Thornbury Heritage Railway Trust"
operator_names = [o[0] for o in OPERATORS]
ceos = list(executives)
rng.shuffle(ceos)
for i, (o, fy, hq) in enumerate(OPERATORS):
    add(o, "headquarteredIn", hq)
    add(o, "foundedYear", fy)
    add(o, "chiefExecutive", ceos[i][0])          # one-to-one
    if o not in (HERITAGE_OP, "Saxonby Light Railway"):
        add(o, "parentCompany", HOLDINGS[i % len(HOLDINGS)][0])

MANUFACTURERS = [
    ("Brennard & Co", 1851), ("Halloway Locomotive Works", 1838),
    ("Sterling-Ashby Rail Systems", 1964), ("Vireo Mobility", 1998),
    ("Castlegate Engineering", 1902), ("Northern Carriage & Wagon", 1889),
    ("Oriel Traction", 1976), ("Pike & Marlow", 1866),
    ("Tamsin Rolling Stock", 2003), ("Quarry Hills Foundry", 1871),
]
manufacturer_names = [m[0] for m in MANUFACTURERS]
for m, fy in MANUFACTURERS:
    add(m, "headquarteredIn", rng.choice(DISTRICTS))
    add(m, "foundedYear", fy)

# --------------------------------------------------------------------------
# Lines
# --------------------------------------------------------------------------
LINES = [
    "Northmoor Line", "Ivel Valley Line", "Coastway", "Crowhurst Branch",
    "Great Western Loop", "Fenmarsh Main Line", "Saxonby Light Line",
    "Greywater Circle", "Harlow Valley Line", "Pennick Coast Line",
    "Kestrel Downs Railway", "Marrick Heath Branch", "Thornbury Forest Railway",
    "Upper Wendle Line", "Vexley Orbital", "Westholm Express Route",
    "Yarrow Marches Line", "Caldmoor Tramway", "Dunmere Link",
    "Eastmarch Main Line", "Glenharrow Branch", "Inverlyn Line",
    "Lanthorn Bay Railway", "Redmere Cross-City Line", "Oakenshaw Line",
    "Quarry Hills Mineral Line", "Brackenridge Line", "Selbourne Flats Line",
    "Holloway Fields Line", "Aldwych Levels Line",
]
line_op = {}
line_year = {}
line_elec = {}
line_stations = {l: [] for l in LINES}

heritage_lines = ["Thornbury Forest Railway", "Quarry Hills Mineral Line"]
for i, l in enumerate(LINES):
    if l in heritage_lines:
        op = HERITAGE_OP
    elif l == "Saxonby Light Line":
        op = "Saxonby Light Railway"
    else:
        # a few operators run many lines (hubs)
        op = pick_weighted(
            [o for o in operator_names if o not in (HERITAGE_OP, "Saxonby Light Railway")],
            [5, 4, 3, 3, 2, 2, 1, 2, 3, 1])
    line_op[l] = op
    y = rng.randint(1836, 1935) if rng.random() < 0.8 else rng.randint(1950, 2018)
    line_year[l] = y
    if l in heritage_lines or l == "Saxonby Light Line":
        gauge = "narrow gauge"
    else:
        gauge = pick_weighted(GAUGES, [14, 1, 2, 2])
    if l in heritage_lines:
        elec = "non-electrified"
    elif l == "Caldmoor Tramway":
        elec = "750 V DC third rail"
    else:
        elec = pick_weighted(ELECTRIFICATION, [6, 3, 2, 4])
    line_elec[l] = elec
    add(l, "operatedBy", op)
    add(l, "trackGauge", gauge)
    add(l, "electrification", elec)
    add(l, "openingDate", f"{y:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
    # chief engineer born 25..65 years before the opening
    cands = [p for p, by in civil_engineers if 25 <= y - by <= 65]
    if not cands:
        cands = [p for p, _ in civil_engineers]
    add(l, "chiefEngineer", rng.choice(cands))

# distribute stations: each station gets a primary line ...
order = list(stations)
rng.shuffle(order)
weights = [rng.randint(6, 20) for _ in LINES]
station_primary = {}
for s in order:
    l = pick_weighted(LINES, weights)
    line_stations[l].append(s)
    station_primary[s] = l
# ... make sure every line has at least 6 stations
for l in LINES:
    while len(line_stations[l]) < 6:
        donor = max(LINES, key=lambda x: len(line_stations[x]))
        s = line_stations[donor].pop()
        line_stations[l].append(s)
        station_primary[s] = l
# ... and some interchange hubs sit on several lines
hubs = rng.sample(stations, 45)
for k, s in enumerate(hubs):
    extra = 4 if k < 5 else (2 if k < 15 else 1)
    others = [l for l in LINES if s not in line_stations[l]]
    for l in rng.sample(others, extra):
        line_stations[l].append(s)

station_lines = {s: [] for s in stations}
for l in LINES:
    for s in line_stations[l]:
        station_lines[s].append(l)
        add(s, "onLine", l)
    a, b = line_stations[l][0], line_stations[l][-1]
    add(l, "terminus", a)
    add(l, "terminus", b)
    add(l, "lengthKm", max(4, int(len(line_stations[l]) * rng.uniform(3.5, 11.0))))

# --------------------------------------------------------------------------
# Station attributes
# --------------------------------------------------------------------------
arch_weights = [max(1, int(30 / (i + 1))) for i in range(len(architects))]
for s in stations:
    l = station_primary[s]
    y = line_year[l] if rng.random() < 0.55 else min(2023, line_year[l] + rng.randint(1, 70))
    add(s, "openedYear", y)
    if line_op[l] == HERITAGE_OP:
        st = pick_weighted(STATUSES, [1, 2, 10, 1])
    else:
        st = pick_weighted(STATUSES, [70, 18, 3, 9])
    add(s, "status", st)
    add(s, "locatedIn", rng.choice(DISTRICTS))
    pc = pick_weighted([1, 2, 3, 4, 5, 6, 8, 10, 12], [10, 30, 12, 10, 4, 3, 2, 1, 1])
    if len(station_lines[s]) >= 3:
        pc = max(pc, rng.randint(6, 16))
    add(s, "platformCount", pc)
    if y < 1880:
        style = pick_weighted(STYLES, [6, 5, 0, 0, 0, 1, 0])
    elif y < 1915:
        style = pick_weighted(STYLES, [3, 2, 1, 0, 0, 4, 0])
    elif y < 1950:
        style = pick_weighted(STYLES, [0, 0, 6, 0, 3, 1, 0])
    elif y < 1985:
        style = pick_weighted(STYLES, [0, 0, 0, 5, 5, 0, 1])
    else:
        style = pick_weighted(STYLES, [0, 0, 0, 1, 3, 0, 5])
    add(s, "architecturalStyle", style)
    if rng.random() < 0.6:
        cands = [(p, w) for (p, by), w in zip(architects, arch_weights) if 25 <= y - by <= 70]
        if cands:
            add(s, "designedBy", pick_weighted([c[0] for c in cands], [c[1] for c in cands]))

# --------------------------------------------------------------------------
# Depots
# --------------------------------------------------------------------------
depots = []
for town in rng.sample(towns, 20):
    kind = rng.choice(["Depot", "Traction Maintenance Depot", "Carriage Sidings", "Works"])
    d = f"{town} {kind}"
    if d in seen:
        continue
    seen.add(d)
    depots.append(d)
    add(d, "locatedIn", rng.choice(DISTRICTS))
    add(d, "operatedBy", rng.choice(operator_names))

# --------------------------------------------------------------------------
# Rolling-stock classes
# --------------------------------------------------------------------------
CLASS_NAMES = []
nums = rng.sample(range(101, 399), 24)
for n in sorted(nums):
    CLASS_NAMES.append(f"Class {n}")
CLASS_NAMES += ["Aurora EMU", "Kestrel DMU", "Vireo Swift", "Brennard Tempest",
                "Oriel Coastrunner", "Halloway Pannier", "Sterling Metro 2000",
                "Castlegate Highlander", "Pike Railbus", "Tamsin Citylink",
                "Northern Sleeper Coach", "Quarry Hills Saddle Tank",
                "Halloway Atlantic", "Vireo Meridian", "Oriel Sprint", "Ashby Voyager"]
class_traction = {}
for c in CLASS_NAMES:
    seen.add(c)
    if "Saddle Tank" in c or "Pannier" in c or "Atlantic" in c:
        tr = "steam"
        y = rng.randint(1880, 1935)
    else:
        tr = pick_weighted(TRACTION, [5, 2, 7, 3, 0, 1])
        y = rng.randint(1955, 2022)
    if tr == "battery-electric":
        y = max(y, 2015)
    class_traction[c] = tr
    add(c, "tractionType", tr)
    add(c, "introducedYear", y)
    m = pick_weighted(manufacturer_names, [5, 4, 3, 3, 2, 2, 2, 1, 1, 1])
    if tr == "steam":
        m = rng.choice(["Halloway Locomotive Works", "Quarry Hills Foundry", "Pike & Marlow"])
    add(c, "manufacturedBy", m)
    spd = {"steam": (60, 145), "electric": (100, 225), "bi-mode": (140, 200)}.get(tr, (90, 160))
    add(c, "maxSpeedKmh", rng.randint(*spd) // 5 * 5)
    add(c, "seatCount", rng.randint(48, 420))
    for d in rng.sample(depots, rng.choice([1, 1, 2, 2, 3])):
        add(c, "maintainedAt", d)
    if tr != "steam":
        cands = [p for p, by in mech_engineers if 28 <= y - by <= 65]
        if cands:
            add(c, "designedBy", rng.choice(cands))

# --------------------------------------------------------------------------
# Named train services
# --------------------------------------------------------------------------
ADJ = ["Silver", "Northern", "Dawn", "Golden", "Coastal", "Midnight",
       "Highland", "Emerald", "Iron", "Scarlet", "Morning", "Western",
       "Royal", "Amber", "Blue", "Evening", "Harvest", "Crimson", "Misty",
       "Atlantic", "Windward", "Copper", "Summer", "Winter", "Twilight"]
NOUNS = ["Heron", "Comet", "Courier", "Lantern", "Mariner", "Arrow",
         "Pullman", "Flyer", "Rambler", "Belle", "Express", "Falcon",
         "Limited", "Pilgrim", "Voyager", "Navigator", "Wanderer", "Star",
         "Clipper", "Sprinter"]
combos = [(a, n) for a in ADJ for n in NOUNS]
rng.shuffle(combos)
services = []
for a, n in combos:
    nm = f"The {a} {n}" if rng.random() < 0.5 else f"{a} {n}"
    if nm in seen or nm.replace("The ", "", 1) in seen or ("The " + nm) in seen:
        continue
    seen.add(nm)
    services.append(nm)
    if len(services) == 150:
        break

line_w = [max(1, len(line_stations[l]) // 3) for l in LINES]
for sv in services:
    l = pick_weighted(LINES, line_w)
    sts = line_stations[l]
    add(sv, "runsOn", l)
    op = line_op[l] if rng.random() < 0.88 else rng.choice(operator_names)
    add(sv, "operatedBy", op)
    if op == HERITAGE_OP:
        stype = "heritage excursion"
    else:
        stype = pick_weighted(SERVICE_TYPES, [5, 6, 6, 2, 1])
    add(sv, "serviceType", stype)
    if rng.random() < 0.5:
        frm, to = sts[0], sts[-1]
    else:
        frm, to = rng.sample(sts, 2)
    if rng.random() < 0.5:
        frm, to = to, frm
    add(sv, "departsFrom", frm)
    add(sv, "arrivesAt", to)
    middle = [s for s in sts if s not in (frm, to)]
    for s in rng.sample(middle, min(len(middle), rng.randint(1, 6))):
        add(sv, "callsAt", s)
    elec = line_elec[l]
    if line_op[l] == HERITAGE_OP:
        ok = [c for c in CLASS_NAMES if class_traction[c] == "steam"]
    elif elec == "non-electrified":
        ok = [c for c in CLASS_NAMES if class_traction[c] in
              ("diesel-electric", "diesel-hydraulic", "bi-mode", "battery-electric")]
    else:
        ok = [c for c in CLASS_NAMES if class_traction[c] in ("electric", "bi-mode")]
    for c in rng.sample(ok, rng.choice([1, 1, 1, 2])):
        add(sv, "usesRollingStock", c)
    y = rng.randint(max(line_year[l], 1950), 2023)
    add(sv, "inauguratedOn", f"{y:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")

# --------------------------------------------------------------------------
# Careers: people work for operators / manufacturers (many-to-many)
# --------------------------------------------------------------------------
employers = operator_names + manufacturer_names
for group in (civil_engineers, mech_engineers, executives, surveyors):
    for p, by in group:
        for e in rng.sample(employers, rng.choice([1, 1, 2, 2, 3])):
            add(p, "worksFor", e)
for p, by in architects:
    if rng.random() < 0.3:
        add(p, "worksFor", rng.choice(operator_names))
# surveyors survey lines
for l in LINES:
    if rng.random() < 0.7:
        p, _ = rng.choice(surveyors)
        add(l, "surveyedBy", p)

# --------------------------------------------------------------------------
# write
# --------------------------------------------------------------------------
out = []
dedup = set()
for t in triples:
    if t not in dedup:
        dedup.add(t)
        out.append(t)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "kb.txt"), "w", encoding="utf-8") as f:
    for h, r, t in out:
        f.write(f"{h}|{r}|{t}\n")

LITERAL = {"openedYear", "platformCount", "lengthKm", "openingDate", "foundedYear",
           "inauguratedOn", "maxSpeedKmh", "introducedYear", "seatCount", "birthYear"}
ents = set()
for h, r, t in out:
    ents.add(h)
    if r not in LITERAL:
        ents.add(t)
rels = sorted({r for _, r, _ in out})
print(f"triples={len(out)} entities={len(ents)} relations={len(rels)}")
