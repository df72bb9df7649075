#!/usr/bin/env python3
"""Deterministic generator of a small open-source-software-ecosystem KG.

Writes kb.txt (head|relation|tail, one triple a line) next to this script.
Standard library only, fixed seed.
"""
import datetime
import os
import random

SEED = 20240611
rng = random.Random(SEED)

triples = []
names_used = set()


def add(h, r, t):
    triples.append((str(h), r, str(t)))


def unique(name):
    assert "|" not in name
    if name in names_used:
        return None
    names_used.add(name)
    return name


# ---------------------------------------------------------------- value types
COUNTRIES = ["Germany", "France", "United States", "Canada", "Brazil", "India", "Japan",
             "Netherlands", "Sweden", "Poland", "Nigeria", "Kenya", "Australia", "Spain",
             "Italy", "United Kingdom", "South Korea", "Argentina", "Finland", "Czech Republic"]
COUNTRY_W = [10, 6, 14, 5, 4, 7, 4, 4, 3, 3, 2, 2, 3, 3, 2, 6, 2, 2, 2, 2]

LANGS = {
    # language: (registry, build tools, paradigms, typing, weight)
    "Python": ("PyPI", ["setuptools", "Poetry", "Hatch"], ["Object-oriented", "Procedural", "Functional"],
               "Dynamic typing", 16),
    "Rust": ("crates.io", ["Cargo"], ["Functional", "Concurrent", "Procedural"], "Static typing", 10),
    "Go": ("Go Module Proxy", ["Go toolchain", "Make"], ["Concurrent", "Procedural"], "Static typing", 9),
    "JavaScript": ("npm", ["webpack", "esbuild", "Rollup"], ["Object-oriented", "Functional", "Event-driven"],
                   "Dynamic typing", 12),
    "TypeScript": ("npm", ["esbuild", "webpack", "Rollup"], ["Object-oriented", "Functional"], "Static typing", 10),
    "Java": ("Maven Central", ["Maven", "Gradle"], ["Object-oriented"], "Static typing", 8),
    "Kotlin": ("Maven Central", ["Gradle"], ["Object-oriented", "Functional"], "Static typing", 4),
    "C": ("Conan Center", ["Make", "CMake", "Meson"], ["Procedural"], "Static typing", 5),
    "C++": ("Conan Center", ["CMake", "Bazel", "Meson"], ["Object-oriented", "Procedural"], "Static typing", 6),
    "Ruby": ("RubyGems", ["Rake"], ["Object-oriented"], "Dynamic typing", 4),
    "Elixir": ("Hex", ["Mix"], ["Functional", "Concurrent"], "Dynamic typing", 3),
    "C#": ("NuGet", ["MSBuild"], ["Object-oriented", "Functional"], "Static typing", 4),
    "Scala": ("Maven Central", ["sbt"], ["Functional", "Object-oriented"], "Static typing", 2),
    "Haskell": ("Hackage", ["Cabal", "Stack"], ["Functional"], "Static typing", 2),
    "Zig": ("Zig Package Index", ["Zig build"], ["Procedural"], "Static typing", 2),
    "Julia": ("Julia General Registry", ["Pkg"], ["Functional", "Procedural"], "Dynamic typing", 2),
}
LANG_NAMES = list(LANGS)
LANG_W = [LANGS[lang][4] for lang in LANG_NAMES]

LICENSES = {
    "MIT License": "Permissive", "Apache License 2.0": "Permissive",
    "BSD 3-Clause License": "Permissive", "BSD 2-Clause License": "Permissive",
    "ISC License": "Permissive", "Zlib License": "Permissive",
    "GPL-3.0": "Strong copyleft", "GPL-2.0": "Strong copyleft", "AGPL-3.0": "Strong copyleft",
    "LGPL-2.1": "Weak copyleft", "MPL-2.0": "Weak copyleft", "EPL-2.0": "Weak copyleft",
    "Unlicense": "Public domain equivalent", "Artistic License 2.0": "Permissive",
}
LIC_NAMES = list(LICENSES)
LIC_W = [30, 22, 9, 4, 4, 1, 8, 3, 2, 3, 4, 1, 2, 1]

CATEGORIES = ["Web framework", "HTTP client", "Database driver", "Testing", "Logging",
              "Serialization", "Command-line tooling", "Machine learning", "Data visualization",
              "Cryptography", "Build tooling", "Async runtime", "ORM", "Image processing",
              "Parsing", "Networking", "Configuration", "Documentation"]

FOUNDATIONS = ["Open Harbor Foundation", "Lindqvist Software Foundation", "Commons Code Alliance",
               "Free Tooling Trust", "Cascade Foundation", "Northwind OSS Collective",
               "Meridian Foundation", "Polaris Open Source Foundation"]

for n in COUNTRIES + LANG_NAMES + LIC_NAMES + CATEGORIES + FOUNDATIONS:
    assert unique(n)
for lang, (reg, tools, pars, typ, _w) in LANGS.items():
    for p in pars:
        add(lang, "HAS_PARADIGM", p)
    add(lang, "HAS_TYPING_DISCIPLINE", typ)
for lic, fam in LICENSES.items():
    add(lic, "BELONGS_TO_FAMILY", fam)
for f in FOUNDATIONS:
    add(f, "HEADQUARTERED_IN", rng.choices(COUNTRIES, COUNTRY_W)[0])

# -------------------------------------------------------------- organisations
ORG_A = ["Brightloom", "Kestrel", "Otterfield", "Nimbus", "Halvorsen", "Quillpoint", "Redfern",
         "Saffron", "Tallgrass", "Umbra", "Vantage", "Wrenfield", "Bluecairn", "Copperline",
         "Driftwood", "Emberly", "Foxglove", "Granite Peak", "Hollowbrook", "Ironbark",
         "Juniper", "Larkspur", "Moraine", "Northgate", "Oakhaven", "Pinecrest", "Ravenholt",
         "Silverbirch", "Thistle", "Waypoint", "Yarrow", "Zephyr"]
ORG_B = ["Labs", "Systems", "Software", "Data", "Cloud", "Networks", "Analytics", "Technologies",
         "Inc.", "Digital", "Computing", "Works"]
ORGS = []
while len(ORGS) < 58:
    n = unique(f"{rng.choice(ORG_A)} {rng.choice(ORG_B)}")
    if n:
        ORGS.append(n)
for o in ORGS:
    add(o, "HEADQUARTERED_IN", rng.choices(COUNTRIES, COUNTRY_W)[0])
    add(o, "FOUNDED_IN", rng.randint(1988, 2019))
    add(o, "HAS_EMPLOYEE_COUNT", int(rng.lognormvariate(5.5, 1.3)) + 8)
    for f in rng.sample(FOUNDATIONS, rng.choice([0, 0, 1, 1, 1, 2, 3])):
        add(o, "MEMBER_OF", f)

# ------------------------------------------------------------------- persons
FIRST = ["Maria", "Jonas", "Aiko", "Rahul", "Lena", "Tomasz", "Chidi", "Sofia", "Mateo", "Ingrid",
         "Priya", "Kwame", "Elena", "Hiro", "Amara", "Lukas", "Noor", "Diego", "Freya", "Oskar",
         "Zainab", "Pavel", "Yuki", "Camille", "Bruno", "Anika", "Tariq", "Helga", "Ravi", "Marta",
         "Emeka", "Clara", "Jun", "Beatriz", "Nils", "Fatima", "Anders", "Leila", "Viktor", "Grace",
         "Samuel", "Olga", "Kenji", "Isabel", "Arjun", "Greta", "Obinna", "Sanna", "Marco", "Ayesha",
         "Felix", "Dana", "Ewa", "Rafael", "Mei", "Hannah", "Joaquin", "Ines", "Theo", "Wanjiru",
         "Adrian", "Signe", "Kofi", "Lucia", "Erik", "Mira", "Dmitri", "Paula", "Ji-woo", "Tobias"]
LAST = ["Oyelaran", "Lindqvist", "Tanaka", "Kowalski", "Moreau", "Patel", "Brennan", "Okafor",
        "Haugen", "Ferreira", "Schneider", "Nakamura", "Gutierrez", "Virtanen", "Novak", "Mwangi",
        "Andersson", "Rossi", "Dubois", "Iyer", "Kim", "Fischer", "Sato", "Martins", "Eriksen",
        "Wojcik", "Adeyemi", "Castillo", "Weber", "Holm", "Chen", "Alvarez", "Nieminen", "Dvorak",
        "Mensah", "Bauer", "Costa", "Reddy", "Lund", "Park", "Vasquez", "Hoffmann", "Kariuki",
        "Blanc", "Svensson", "Yamamoto", "Pereira", "Nowak", "Quinn", "Abara", "Strand", "Romano",
        "Lopez", "Singh", "Berg", "Ivanova", "Olsen", "Duarte", "Keller", "Achterberg"]
INITIALS = "ABCDEFGHJKLMNPRSTVW"
PERSONS = []
while len(PERSONS) < 340:
    f, last = rng.choice(FIRST), rng.choice(LAST)
    r = rng.random()
    if r < 0.12:
        n = f"{f} {rng.choice(INITIALS)}. {last}"
    elif r < 0.16:
        n = f"{f} {rng.choice(LAST)}-{last}"
    else:
        n = f"{f} {last}"
    n = unique(n)
    if n:
        PERSONS.append(n)
# popularity weights (a few very active people)
P_W = {p: (1.0 / (i + 3)) ** 0.9 for i, p in enumerate(rng.sample(PERSONS, len(PERSONS)))}
PERSON_W = [P_W[p] for p in PERSONS]

person_country = {}
for p in PERSONS:
    c = rng.choices(COUNTRIES, COUNTRY_W)[0]
    person_country[p] = c
    add(p, "LIVES_IN", c)
    add(p, "HAS_AGE", rng.randint(21, 68))
    if rng.random() < 0.85:
        add(p, "WORKS_FOR", rng.choice(ORGS))
        if rng.random() < 0.08:
            add(p, "WORKS_FOR", rng.choice(ORGS))
mentors = rng.sample(PERSONS, 45)
for p in rng.sample(PERSONS, 90):
    m = rng.choice(mentors)
    if m != p:
        add(p, "MENTORED_BY", m)
for f in FOUNDATIONS:
    for p in rng.sample(PERSONS, rng.randint(3, 6)):
        add(p, "BOARD_MEMBER_OF", f)

# ---------------------------------------------------------------- conferences
CONF_SERIES = [("PyHarbor", "Python"), ("RustMoot", "Rust"), ("GopherWave", "Go"),
               ("JSNorth", "JavaScript"), ("TypeSummit", "TypeScript"), ("JVM Crossroads", "Java"),
               ("Elixir Tidewater", "Elixir"), ("Lambda Fjord", "Haskell"), ("Systems Forge", "C++")]
CONFS = []
for series, lang in CONF_SERIES:
    for year in rng.sample([2019, 2020, 2021, 2022, 2023, 2024], 3):
        n = unique(f"{series} {year}")
        CONFS.append(n)
        add(n, "HELD_IN", rng.choices(COUNTRIES, COUNTRY_W)[0])
        add(n, "FOCUSES_ON", lang)
        add(n, "ORGANIZED_BY", rng.choice(FOUNDATIONS + rng.sample(ORGS, 3)))
        add(n, "HAS_ATTENDEE_COUNT", rng.randint(120, 4200))
        for p in sorted(set(rng.choices(PERSONS, PERSON_W, k=rng.randint(8, 16)))):
            add(p, "SPOKE_AT", n)

# ------------------------------------------------------------------- packages
WORDS = ["quartz", "lumen", "tidal", "ember", "fjord", "nimbus", "sable", "ketch", "pylon",
         "vortex", "marrow", "cinder", "halcyon", "orbit", "plume", "rivet", "saffron", "talon",
         "umber", "vesper", "wicker", "zenith", "anvil", "bramble", "cobalt", "dune", "flint",
         "glade", "heron", "ivory", "jasper", "kelp", "lattice", "mosaic", "nectar", "onyx",
         "prism", "quill", "rune", "spindle", "thorn", "urchin", "velvet", "willow", "yonder",
         "basalt", "crane", "dapple", "echo", "fable", "gossamer", "hatch", "inkwell", "loom"]
SUFFIX = {"Web framework": ["web", "serve", "router"], "HTTP client": ["http", "fetch", "request"],
          "Database driver": ["pg", "sql", "db"], "Testing": ["test", "spec", "mock"],
          "Logging": ["log", "trace"], "Serialization": ["json", "pack", "codec"],
          "Command-line tooling": ["cli", "cmd"], "Machine learning": ["ml", "learn", "tensor"],
          "Data visualization": ["plot", "chart", "viz"], "Cryptography": ["crypt", "cipher", "hash"],
          "Build tooling": ["build", "bundle"], "Async runtime": ["async", "loop"],
          "ORM": ["orm", "model"], "Image processing": ["image", "pixel"],
          "Parsing": ["parse", "lex"], "Networking": ["net", "socket"],
          "Configuration": ["conf", "config", "env"], "Documentation": ["doc", "docs"]}
LANG_STYLE = {"Python": ["py{w}", "{w}-{s}", "{w}{s}"], "Rust": ["{w}-rs", "{w}_{s}", "{w}{s}"],
              "Go": ["go-{w}", "{w}{s}"], "JavaScript": ["{w}.js", "{w}-{s}"],
              "TypeScript": ["@{w}/{s}", "{w}-{s}-ts"], "Java": ["{W} {S}", "{w}-{s}-java"],
              "Kotlin": ["k{w}", "{w}-{s}-kt"], "C": ["lib{w}", "lib{w}{s}"],
              "C++": ["{w}++", "{w}-{s}-cpp"], "Ruby": ["{w}_{s}", "{w}-rb"],
              "Elixir": ["ex_{w}", "{w}_{s}"], "C#": ["{W}.{S}", "{W}Net"],
              "Scala": ["{w}4s", "{w}-{s}-scala"], "Haskell": ["{w}-{s}", "hs-{w}"],
              "Zig": ["zig-{w}", "{w}z"], "Julia": ["{W}{S}.jl", "{W}.jl"]}
MULTI = ["{W} {S} Toolkit", "Project {W}", "{W} {S} Suite", "Open {W} {S}"]

PACKAGES = []
pk = {}  # package -> dict of attributes
while len(PACKAGES) < 230:
    lang = rng.choices(LANG_NAMES, LANG_W)[0]
    cat = rng.choice(CATEGORIES)
    w = rng.choice(WORDS)
    s = rng.choice(SUFFIX[cat])
    tmpl = rng.choice(MULTI) if rng.random() < 0.07 else rng.choice(LANG_STYLE[lang])
    S = {"http": "HTTP", "cli": "CLI", "json": "JSON", "sql": "SQL", "ml": "ML", "orm": "ORM",
         "db": "DB", "pg": "PG", "env": "Env"}.get(s, s.capitalize())
    n = tmpl.format(w=w, s=s, W=w.capitalize(), S=S)
    n = unique(n)
    if not n:
        continue
    PACKAGES.append(n)
    first = rng.choices(range(2004, 2024), [1 + i // 3 for i in range(20)])[0]
    pk[n] = {"lang": lang, "cat": cat, "first": first}

# popularity (hubs)
POP = {p: (1.0 / (i + 2)) ** 1.1 for i, p in enumerate(rng.sample(PACKAGES, len(PACKAGES)))}
for p in PACKAGES:
    a = pk[p]
    lang = a["lang"]
    reg, tools, _pars, _typ, _w = LANGS[lang]
    add(p, "WRITTEN_IN", lang)
    if lang in ("TypeScript",) and rng.random() < 0.3:
        add(p, "WRITTEN_IN", "JavaScript")
    if lang in ("Python", "Ruby", "Elixir") and rng.random() < 0.12:
        add(p, "WRITTEN_IN", rng.choice(["C", "Rust", "C++"]))
    add(p, "BELONGS_TO_CATEGORY", a["cat"])
    if rng.random() < 0.4:
        other = rng.choice([c for c in CATEGORIES if c != a["cat"]])
        add(p, "BELONGS_TO_CATEGORY", other)
    add(p, "PUBLISHED_ON", reg)
    add(p, "BUILT_WITH", rng.choice(tools))
    add(p, "HAS_LICENSE", rng.choices(LIC_NAMES, LIC_W)[0])
    if rng.random() < 0.04:
        add(p, "HAS_LICENSE", "Apache License 2.0")
    add(p, "FIRST_RELEASED", a["first"])
    pop = POP[p]
    stars = int(pop * 90000 * rng.uniform(0.5, 1.5)) + rng.randint(15, 400)
    add(p, "HAS_STARS", stars)
    add(p, "HAS_CONTRIBUTOR_COUNT", max(1, int(stars ** 0.55 * rng.uniform(0.3, 1.2))))
    add(p, "HAS_LINES_OF_CODE", int(rng.lognormvariate(9.8, 1.1)) + 300)
    # people
    creators = set(rng.choices(PERSONS, PERSON_W, k=rng.choice([1, 1, 1, 2, 2, 3])))
    for c in sorted(creators):
        add(p, "CREATED_BY", c)
    maint = set(rng.sample(sorted(creators), 1)) if rng.random() < 0.6 else set()
    maint |= set(rng.choices(PERSONS, PERSON_W, k=rng.choice([0, 1, 1, 2, 3])))
    if not maint:
        maint = {rng.choices(PERSONS, PERSON_W)[0]}
    for m in sorted(maint):
        add(p, "MAINTAINED_BY", m)
    a["maint"] = maint
    if rng.random() < 0.62:
        add(p, "OWNED_BY", rng.choice(ORGS))
    if rng.random() < 0.28:
        add(p, "SPONSORED_BY", rng.choice(FOUNDATIONS))

# dependencies: same registry ecosystem, older packages, popularity weighted
for p in PACKAGES:
    a = pk[p]
    reg = LANGS[a["lang"]][0]
    cands = [q for q in PACKAGES if q != p and LANGS[pk[q]["lang"]][0] == reg
             and pk[q]["first"] <= a["first"]]
    if not cands:
        continue
    k = rng.choice([0, 1, 2, 2, 3, 3, 4, 5])
    deps = set(rng.choices(cands, [POP[q] for q in cands], k=k))
    for d in sorted(deps):
        add(p, "DEPENDS_ON", d)

# forks
for p in rng.sample(PACKAGES, 40):
    a = pk[p]
    cands = [q for q in PACKAGES if pk[q]["lang"] == a["lang"] and pk[q]["first"] < a["first"]
             and pk[q]["cat"] == a["cat"]]
    if cands:
        add(p, "FORKED_FROM", rng.choice(cands))

# contributors
for person in PERSONS:
    k = rng.choice([0, 1, 1, 2, 2, 2, 3, 4])
    for q in sorted(set(rng.choices(PACKAGES, [POP[x] ** 0.5 for x in PACKAGES], k=k))):
        add(person, "CONTRIBUTES_TO", q)

# releases
START = datetime.date(2004, 1, 1)
for p in PACKAGES:
    a = pk[p]
    n_rel = rng.choice([0, 1, 1, 2, 2, 3, 4])
    major = rng.randint(0, 3)
    minor = rng.randint(0, 6)
    dates = []
    lo = datetime.date(a["first"], 1, 1)
    hi = datetime.date(2024, 10, 31)
    span = (hi - lo).days
    days = sorted(rng.sample(range(max(span, n_rel + 1)), n_rel))
    for i, d in enumerate(days):
        if rng.random() < 0.3:
            major += 1
            minor = 0
        else:
            minor += rng.randint(1, 3)
        ver = f"{major}.{minor}.{rng.randint(0, 9)}"
        rn = unique(f"{p} {ver}")
        if not rn:
            continue
        date = lo + datetime.timedelta(days=d)
        dates.append(date)
        add(p, "HAS_RELEASE", rn)
        add(rn, "RELEASED_ON", date.isoformat())
        add(rn, "RELEASED_BY", rng.choice(sorted(a["maint"])))
    if dates:
        last = max(dates)
    else:
        last = datetime.date(a["first"], 1, 1) + datetime.timedelta(
            days=rng.randint(30, (datetime.date(2024, 10, 31) - datetime.date(a["first"], 1, 1)).days))
    add(p, "LAST_RELEASED", last.isoformat())

# ------------------------------------------------------------------- write
seen = set()
out = []
for t in triples:
    if t not in seen:
        seen.add(t)
        out.append(t)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "kb.txt"), "w", encoding="utf-8") as fh:
    for h, r, t in out:
        fh.write(f"{h}|{r}|{t}\n")
print(len(out), "triples")
