#!/usr/bin/env python3
"""Make a small made-up energy and utilities knowledge graph.

Deterministic (fixed seed, standard library only). Writes kb.txt next to this
script: one triple per line, head|relation|tail, UTF-8, no header.
Relation labels are Title Case words separated by spaces.
"""
import os
import random

SEED = 20240611
rng = random.Random(SEED)

triples = []
used_names = set()


def add(h, r, t):
    t = str(t)
    assert "|" not in h and "|" not in t and "|" not in r
    triples.append((h, r, t))


def unique(name):
    assert name not in used_names, name
    used_names.add(name)
    return name


# ---------------------------------------------------------------- shared values
COUNTRIES = ["Norway", "Germany", "Spain", "Chile", "Canada", "Australia",
             "Japan", "Brazil", "South Africa", "Poland", "Morocco", "Scotland"]
for c in COUNTRIES:
    unique(c)

FUEL_TECH = {
    "Natural Gas": ["Combined Cycle Gas Turbine", "Open Cycle Gas Turbine"],
    "Coal": ["Supercritical Coal", "Subcritical Coal"],
    "Nuclear": ["Pressurized Water Reactor", "Boiling Water Reactor"],
    "Wind": ["Onshore Wind", "Offshore Wind"],
    "Solar": ["Photovoltaic", "Concentrated Solar Power"],
    "Hydro": ["Run-of-River", "Reservoir Hydro", "Pumped Storage"],
    "Biomass": ["Biomass Boiler"],
    "Geothermal": ["Flash Steam", "Binary Cycle"],
    "Oil": ["Diesel Engine"],
}
FUELS = list(FUEL_TECH)
FUEL_WEIGHTS = [16, 9, 4, 20, 18, 12, 6, 3, 4]
for f in FUELS:
    unique(f)
    for t in FUEL_TECH[f]:
        unique(t)

STATUSES = ["Operational", "Decommissioned", "Under Construction", "Mothballed"]
COMPANY_TYPES = ["Vertically Integrated Utility", "Independent Power Producer",
                 "State-Owned Enterprise", "Renewable Developer", "Oil and Gas Major"]
INVESTOR_TYPES = ["Pension Fund", "Sovereign Wealth Fund", "Private Equity Firm",
                  "Infrastructure Fund", "Family Office", "Insurance Company"]
OCCUPATIONS = ["Electrical Engineer", "Mechanical Engineer", "Nuclear Engineer",
               "Executive", "Fund Manager", "Economist", "Civil Engineer"]
EXCHANGES = ["Oslo Bors", "Frankfurt Exchange", "Madrid Exchange", "Toronto Exchange",
             "Sydney Exchange", "Tokyo Exchange", "Sao Paulo Exchange", "Warsaw Exchange"]
for v in STATUSES + COMPANY_TYPES + INVESTOR_TYPES + OCCUPATIONS + EXCHANGES:
    unique(v)

# ---------------------------------------------------------------- place names
PRE = ["Ash", "Bram", "Cal", "Dun", "Elm", "Fern", "Glen", "Hal", "Ivel", "Kel",
       "Lin", "Mar", "Nor", "Oak", "Pen", "Quar", "Rav", "Sel", "Tarr", "Ul",
       "Ven", "Wex", "Yar", "Zel", "Brook", "Stan", "Thorn", "Wolde", "Cran", "Hollin"]
SUF = ["ford", "more", "dale", "wick", "ton", "by", "stead", "haven", "mouth", "field",
       "holm", "ness", "vik", "berg", "ley", "croft", "moor", "burn", "gate", "worth"]
MODS = ["North", "South", "East", "West", "Upper", "Lower", "Great", "Little", "Port", "Cape"]
TAILS = ["Ridge", "Point", "Bay", "Hill", "Creek", "Valley", "Flats", "Head", "Sound", "Falls"]

all_places = [p + s for p in PRE for s in SUF]
rng.shuffle(all_places)
place_iter = iter(all_places)


def place():
    base = next(place_iter)
    r = rng.random()
    if r < 0.12:
        return rng.choice(MODS) + " " + base
    if r < 0.24:
        return base + " " + rng.choice(TAILS)
    return base


# ---------------------------------------------------------------- regions
REGION_KINDS = ["Province", "County", "Basin", "Coast", "Highlands", "District", "Plateau"]
regions = []           # (name, country)
for i in range(54):
    country = COUNTRIES[i % len(COUNTRIES)]
    name = unique(next(place_iter) + " " + rng.choice(REGION_KINDS))
    regions.append((name, country))
    add(name, "Country", country)
regions_by_country = {c: [r for r, cc in regions if cc == c] for c in COUNTRIES}

# ---------------------------------------------------------------- people
FIRST = ["Anna", "Lars", "Ingrid", "Tomas", "Maria", "Jonas", "Elena", "Pedro", "Sofia",
         "Hiroshi", "Yuki", "Kenji", "Thabo", "Naledi", "Ana", "Joao", "Lucas", "Camila",
         "Piotr", "Agnieszka", "Karim", "Amina", "Ewan", "Fiona", "Liam", "Chloe", "Noah",
         "Grace", "Henrik", "Astrid", "Matteo", "Clara", "Rafael", "Lucia", "Samuel",
         "Olivia", "Daniel", "Hana", "Youssef", "Leila", "Marek", "Zofia", "Felipe", "Isabel",
         "Callum", "Morag", "Bjorn", "Sigrid", "Takeshi", "Mei", "Sipho", "Zanele", "Diego"]
LAST = ["Lindqvist", "Haugen", "Berger", "Okafor", "Moreno", "Tanaka", "Nakamura",
        "Dlamini", "Silva", "Kowalski", "Nowak", "El Amrani", "MacLeod", "Campbell",
        "Fischer", "Vogel", "Garcia", "Rojas", "Fuentes", "Tremblay", "Gagnon", "Walsh",
        "Nguyen", "Costa", "Pereira", "Bakker", "Sato", "Mokoena", "Zielinski", "Bennani",
        "Ferreira", "Strand", "Dahl", "Keller", "Navarro", "Ortega", "Murray", "Fraser",
        "Kruger", "Ito", "Wojcik", "Lopez", "Andersen", "Schmidt", "O'Neill", "Van Wyk",
        "Park", "Hughes", "Reyes", "Sandoval"]
INITIALS = "ABCDEFGHJKLMNPRST"

people = []


def make_person():
    while True:
        f = rng.choice(FIRST)
        last = rng.choice(LAST)
        r = rng.random()
        if r < 0.15:
            n = f"{f[0]}. {last}"
        elif r < 0.35:
            n = f"{f} {rng.choice(INITIALS)}. {last}"
        elif r < 0.42:
            n = f"{f} {rng.choice(FIRST)} {last}"
        else:
            n = f"{f} {last}"
        if n not in used_names:
            unique(n)
            people.append(n)
            return n


def person_facts(n, occupation, country=None):
    add(n, "Occupation", occupation)
    add(n, "Nationality", country or rng.choice(COUNTRIES))
    add(n, "Birth Year", rng.randint(1944, 1992))


# ---------------------------------------------------------------- manufacturers
MANUF = ["Nordwind Turbines", "Helios Systems", "Kraftwerk Maschinen", "Atlantic Turbine Works",
         "Sakura Heavy Industries", "Tembisa Engineering", "Vistula Power Equipment",
         "Andes Hydro Machinery", "Boreal Generators", "Cedar Grid Components",
         "Orion Reactor Company", "Mistral Energy Equipment", "Pampa Solar Modules",
         "Highland Hydro Works", "Meridian Electric"]
for i, m in enumerate(MANUF):
    unique(m)
    add(m, "Headquartered In", COUNTRIES[(i * 5) % len(COUNTRIES)])
    add(m, "Founded Year", rng.randint(1885, 2012))

# ---------------------------------------------------------------- companies
CO_ROOT = ["Norvale", "Brightwater", "Kestrel", "Solara", "Fjordkraft", "Rhein-Elster",
           "Iberdrax", "Cordillera", "Maplegrid", "Outback", "Kansai Minato", "Verde Sul",
           "Umlazi", "Vistra Polska", "Atlas Maghreb", "Caledon", "Aurora", "Tidewater",
           "Granite Peak", "Bluecrest", "Silverline", "Emberstone", "Harbourlight",
           "Polaris", "Zephyr", "Evergreen", "Summit", "Riverbend", "Ironbark", "Sunreach",
           "Westmark", "Eastvale", "Stormhaven", "Coral Sea", "Redwood", "Lakeshore",
           "Highfield", "Blackrock Valley", "Amberfield", "Clearwater"]
CO_TAIL = ["Energy", "Power", "Utilities", "Renewables", "Power and Light", "Generation",
           "Energia", "Electric", "Kraft", "Energie", "Group", "Holdings"]
companies = []   # dicts
co_names = []
for root in CO_ROOT:
    n_variants = 2 if rng.random() < 0.3 else 1
    tails = rng.sample(CO_TAIL, n_variants)
    for t in tails:
        co_names.append(f"{root} {t}")
rng.shuffle(co_names)
co_names = co_names[:48]
for i, n in enumerate(co_names):
    unique(n)
    country = rng.choice(COUNTRIES)
    ctype = rng.choices(COMPANY_TYPES, weights=[5, 6, 3, 5, 2])[0]
    companies.append({"name": n, "country": country, "type": ctype})
    add(n, "Headquartered In", country)
    add(n, "Company Type", ctype)
    add(n, "Founded Year", rng.randint(1890, 2016))
    size = int(rng.lognormvariate(7.5, 1.3))
    add(n, "Number Of Employees", max(35, size))
    if rng.random() < 0.6:
        add(n, "Listed On", rng.choice(EXCHANGES))
    ceo = make_person()
    person_facts(ceo, "Executive", country if rng.random() < 0.7 else None)
    add(n, "CEO", ceo)
    companies[-1]["ceo"] = ceo
# parent companies: a few groups with several subsidiaries
parents = [c for c in companies if c["name"].endswith(("Group", "Holdings"))]
if len(parents) < 4:
    parents = parents + rng.sample([c for c in companies if c not in parents], 4 - len(parents))
for c in companies:
    if c in parents:
        continue
    if rng.random() < 0.3:
        p = rng.choice(parents)
        add(c["name"], "Parent Company", p["name"])

# company weights for operating plants (hubs)
co_weight = [min(rng.paretovariate(1.2), 10.0) for _ in companies]

# ---------------------------------------------------------------- grid operators
GRID = {"Nordic Transmission Operator": "Norway", "Rhein Grid": "Germany",
        "Red Iberica de Transporte": "Spain", "Coordinador Andino": "Chile",
        "Ontario Interconnect": "Canada", "Prairie Power Pool": "Canada",
        "Eastern Australia Market Operator": "Australia", "Western Grid Authority": "Australia",
        "Japan Central Grid": "Japan", "Kyushu Transmission": "Japan",
        "Operador Nacional Sul": "Brazil", "Eskom Transmission Division": "South Africa",
        "Polskie Sieci Krajowe": "Poland", "Maghreb Transmission Office": "Morocco",
        "Scottish Grid Company": "Scotland", "Baltic Link Operator": "Poland",
        "Pacific Rim Grid": "Chile", "Trans-Andean Link": "Chile",
        "Highveld Network Services": "South Africa", "Atlantic Coast Grid": "Brazil"}
grid_ops = []
for g, country in GRID.items():
    unique(g)
    grid_ops.append((g, country))
    add(g, "Headquartered In", country)
    add(g, "Founded Year", rng.randint(1925, 2010))
    ceo = make_person()
    person_facts(ceo, "Executive", country)
    add(g, "CEO", ceo)
ops_by_country = {}
for g, c in grid_ops:
    ops_by_country.setdefault(c, []).append(g)
region_op = {}
for r, c in regions:
    cands = ops_by_country.get(c) or [g for g, _ in grid_ops]
    g = rng.choice(cands)
    region_op[r] = g
    add(g, "Serves Region", r)
    if rng.random() < 0.15:      # some regions served by two operators
        g2 = rng.choice([x for x, _ in grid_ops if x != g])
        add(g2, "Serves Region", r)

# ---------------------------------------------------------------- substations
substations = []   # (name, region, voltage)
sub_by_region = {}
for i in range(150):
    r, c = rng.choice(regions)
    n = unique(place() + " Substation")
    v = rng.choice([132, 220, 275, 330, 400, 400, 500, 765])
    substations.append((n, r, v))
    sub_by_region.setdefault(r, []).append(n)
    add(n, "Located In", r)
    add(n, "Operated By", region_op[r])
    add(n, "Voltage KV", v)

# ---------------------------------------------------------------- transmission lines
for i in range(110):
    a, ra, va = rng.choice(substations)
    # prefer a partner in the same country
    ca = dict(regions)[ra]
    same = [s for s in substations if dict(regions)[s[1]] == ca and s[0] != a]
    b, rb, vb = rng.choice(same) if same and rng.random() < 0.85 else rng.choice(
        [s for s in substations if s[0] != a])
    an = a.replace(" Substation", "")
    bn = b.replace(" Substation", "")
    v = min(va, vb)
    n = f"{an}-{bn} {v} kV Line"
    if n in used_names:
        continue
    unique(n)
    add(n, "Connects", a)
    add(n, "Connects", b)
    add(n, "Voltage KV", v)
    add(n, "Length Km", rng.randint(8, 640))
    add(n, "Operated By", region_op[ra])
    y = rng.randint(1958, 2023)
    add(n, "Energized Date", f"{y:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")

# ---------------------------------------------------------------- investors
INV_ROOT = ["Calder Ridge", "Fjordheim", "Sable Harbour", "Montclair", "Kinross", "Aldgate",
            "Quillon", "Tamarind", "Brightstone", "Oberon", "Halcyon", "Sterling Vale",
            "Kestrel Bay", "Nakamoto", "Ubuntu", "Andorra Peak", "Pinecrest", "Arcadia",
            "Lowlands", "Grafton", "Bellhaven", "Marlowe", "Cassius", "Wexford"]
INV_TAIL = {"Pension Fund": ["Pension Fund", "Retirement Trust"],
            "Sovereign Wealth Fund": ["Sovereign Fund", "National Investment Authority"],
            "Private Equity Firm": ["Capital", "Partners", "Equity"],
            "Infrastructure Fund": ["Infrastructure Fund", "Infrastructure Partners"],
            "Family Office": ["Family Office", "Holdings Trust"],
            "Insurance Company": ["Assurance", "Mutual Insurance"]}
investors = []
for root in INV_ROOT:
    itype = rng.choice(INVESTOR_TYPES)
    n = unique(f"{root} {rng.choice(INV_TAIL[itype])}")
    investors.append(n)
    add(n, "Investor Type", itype)
    add(n, "Headquartered In", rng.choice(COUNTRIES))
    add(n, "Founded Year", rng.randint(1902, 2019))
    mgr = make_person()
    person_facts(mgr, "Fund Manager")
    add(n, "Managed By", mgr)
    for co in rng.sample(companies, rng.randint(1, 6)):
        add(n, "Invested In", co["name"])

# ---------------------------------------------------------------- engineers
engineers = []
for i in range(170):
    e = make_person()
    occ = rng.choices(["Electrical Engineer", "Mechanical Engineer", "Nuclear Engineer",
                       "Civil Engineer", "Economist"], weights=[5, 5, 2, 3, 1])[0]
    person_facts(e, occ)
    engineers.append((e, occ))
    for co in rng.sample(companies, rng.choice([0, 1, 1, 2, 2, 3])):
        add(e, "Previously Worked At", co["name"])
nuclear_eng = [e for e, o in engineers if o == "Nuclear Engineer"]
other_eng = [e for e, o in engineers if o != "Economist"]
eng_weight = {e: min(rng.paretovariate(1.6), 8.0) for e, _ in engineers}

# board members: executives and others
for c in companies:
    pool = [p for p in people if p != c["ceo"]]
    for b in rng.sample(pool, rng.randint(2, 5)):
        add(c["name"], "Board Member", b)
    # some CEOs previously worked at other companies
    if rng.random() < 0.5:
        add(c["ceo"], "Previously Worked At",
            rng.choice([x for x in companies if x is not c])["name"])

# ---------------------------------------------------------------- power plants
PLANT_SUFFIX = {
    "Natural Gas": ["Power Station", "Energy Centre", "Gas Plant"],
    "Coal": ["Power Station", "Coal Plant"],
    "Nuclear": ["Nuclear Power Station", "Nuclear Plant"],
    "Wind": ["Wind Farm", "Wind Park"],
    "Solar": ["Solar Park", "Solar Farm"],
    "Hydro": ["Dam", "Hydro Station", "Hydroelectric Plant"],
    "Biomass": ["Biomass Plant", "Bioenergy Centre"],
    "Geothermal": ["Geothermal Plant"],
    "Oil": ["Peaking Plant"],
}
CAP = {"Natural Gas": (80, 2200), "Coal": (150, 3600), "Nuclear": (600, 4800),
       "Wind": (20, 900), "Solar": (5, 700), "Hydro": (10, 2800), "Biomass": (15, 350),
       "Geothermal": (10, 300), "Oil": (20, 400)}
CF = {"Natural Gas": (0.35, 0.6), "Coal": (0.45, 0.75), "Nuclear": (0.8, 0.93),
      "Wind": (0.25, 0.45), "Solar": (0.12, 0.26), "Hydro": (0.3, 0.6),
      "Biomass": (0.55, 0.8), "Geothermal": (0.7, 0.9), "Oil": (0.05, 0.2)}
YEARS = {"Natural Gas": (1968, 2022), "Coal": (1958, 2016), "Nuclear": (1966, 2021),
         "Wind": (1996, 2023), "Solar": (2006, 2023), "Hydro": (1950, 2020),
         "Biomass": (1990, 2022), "Geothermal": (1975, 2021), "Oil": (1962, 2012)}
WIND_SOLAR_MAKERS = ["Nordwind Turbines", "Atlantic Turbine Works", "Mistral Energy Equipment",
                     "Helios Systems", "Pampa Solar Modules", "Boreal Generators"]
THERMAL_MAKERS = ["Kraftwerk Maschinen", "Sakura Heavy Industries", "Tembisa Engineering",
                  "Vistula Power Equipment", "Meridian Electric", "Orion Reactor Company",
                  "Boreal Generators"]
HYDRO_MAKERS = ["Andes Hydro Machinery", "Highland Hydro Works", "Cedar Grid Components",
                "Kraftwerk Maschinen"]

N_PLANTS = 330
for i in range(N_PLANTS):
    fuel = rng.choices(FUELS, weights=FUEL_WEIGHTS)[0]
    tech = rng.choice(FUEL_TECH[fuel])
    while True:
        n = f"{place()} {rng.choice(PLANT_SUFFIX[fuel])}"
        if n not in used_names:
            break
    unique(n)
    # operator, region near the operator's home country most of the time
    co = rng.choices(companies, weights=co_weight)[0]
    if rng.random() < 0.7:
        region = rng.choice(regions_by_country[co["country"]])
    else:
        region = rng.choice(regions)[0]
    add(n, "Fuel Type", fuel)
    add(n, "Technology", tech)
    add(n, "Operated By", co["name"])
    add(n, "Located In", region)
    # owners: the operator often, plus investors / other companies
    owners = []
    if rng.random() < 0.75:
        owners.append(co["name"])
    k = rng.choice([0, 0, 1, 1, 2]) if owners else rng.choice([1, 1, 2, 3])
    for _ in range(k):
        if rng.random() < 0.55:
            o = rng.choice(investors)
        else:
            o = rng.choice(companies)["name"]
        if o not in owners:
            owners.append(o)
    for o in owners:
        add(n, "Owned By", o)
    lo, hi = CAP[fuel]
    cap = int(lo * (hi / lo) ** rng.random())
    if cap > 100:
        cap = int(round(cap / 5.0) * 5)
    add(n, "Capacity MW", cap)
    # status
    y0, y1 = YEARS[fuel]
    st = rng.choices(STATUSES, weights=[70, 12 if fuel in ("Coal", "Oil", "Nuclear", "Natural Gas") else 3,
                                        8, 4])[0]
    add(n, "Status", st)
    if st != "Under Construction":
        cy = rng.randint(y0, min(y1, 2010) if st == "Decommissioned" else y1)
        add(n, "Commissioned Year", cy)
        if st != "Decommissioned":
            cf = rng.uniform(*CF[fuel])
            add(n, "Annual Output GWh", max(1, int(cap * 8.76 * cf)))
        else:
            dy = rng.randint(max(cy + 12, 1995), 2024)
            add(n, "Decommissioning Date",
                f"{dy:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
    # equipment supplier
    if fuel in ("Wind", "Solar"):
        add(n, "Turbine Supplier", rng.choice(WIND_SOLAR_MAKERS))
    elif fuel == "Hydro":
        add(n, "Turbine Supplier", rng.choice(HYDRO_MAKERS))
    elif rng.random() < 0.85:
        add(n, "Turbine Supplier", rng.choice(THERMAL_MAKERS))
    # grid connection
    subs = sub_by_region.get(region)
    if subs and rng.random() < 0.9:
        add(n, "Connected To", rng.choice(subs))
    elif rng.random() < 0.5:
        add(n, "Connected To", rng.choice(substations)[0])
    # chief engineer
    if rng.random() < 0.8:
        pool = nuclear_eng if fuel == "Nuclear" and nuclear_eng else other_eng
        w = [eng_weight[e] for e in pool]
        add(n, "Chief Engineer", rng.choices(pool, weights=w)[0])


# ---------------------------------------------------------------- write
here = os.path.dirname(os.path.abspath(__file__))
seen = set()
out = []
for t in triples:
    if t not in seen:
        seen.add(t)
        out.append(t)
with open(os.path.join(here, "kb.txt"), "w", encoding="utf-8") as fh:
    for h, r, t in out:
        fh.write(f"{h}|{r}|{t}\n")
print(f"{len(out)} triples")
