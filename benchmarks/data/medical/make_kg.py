#!/usr/bin/env python3
"""Build a small made-up biomedical knowledge graph and write kb.txt.

Deterministic: standard library only, fixed random seed.
Format: one triple per line, head|relation|tail.
"""
import os
import random

SEED = 20240611
rng = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "kb.txt")

triples = []
seen_triples = set()
used_names = set()


def add(h, r, t):
    t = str(t)
    assert "|" not in h and "|" not in t and "|" not in r
    key = (h, r, t)
    if key in seen_triples or h == t:
        return
    seen_triples.add(key)
    triples.append(key)


def claim(name):
    """Reserve a globally unique entity name; returns None if taken."""
    if name in used_names:
        return None
    used_names.add(name)
    return name


VOWELS = set("aeiouy")


def join_parts(*parts):
    """Join name parts, dropping a vowel where two meet (pra + adol -> pradol)."""
    out = ""
    for part in parts:
        if not part:
            continue
        if out and out[-1] in VOWELS and part[0] in VOWELS:
            if len(part) == 1:
                continue
            part = part[1:]
        out += part
    return out


def zipf_choice(items, s=1.1):
    weights = [1.0 / (i + 1) ** s for i in range(len(items))]
    return rng.choices(items, weights=weights, k=1)[0]


# ---------------------------------------------------------------- shared values
COUNTRIES = {
    "United States": ["Boston", "Houston", "Cleveland", "Baltimore", "Seattle", "Nashville", "Denver"],
    "United Kingdom": ["London", "Manchester", "Leeds", "Edinburgh"],
    "Germany": ["Berlin", "Munich", "Heidelberg", "Hamburg"],
    "France": ["Paris", "Lyon", "Lille"],
    "Canada": ["Toronto", "Montreal", "Vancouver"],
    "Japan": ["Tokyo", "Osaka", "Kyoto"],
    "Switzerland": ["Basel", "Zurich", "Geneva"],
    "Netherlands": ["Amsterdam", "Leiden", "Utrecht"],
    "Sweden": ["Stockholm", "Uppsala", "Gothenburg"],
    "Australia": ["Sydney", "Melbourne", "Brisbane"],
    "India": ["Mumbai", "Bengaluru"],
    "Denmark": ["Copenhagen", "Aarhus"],
    "Italy": ["Milan", "Rome"],
}
CITIES = []
for country, cities in COUNTRIES.items():
    claim(country)
    for c in cities:
        claim(c)
        CITIES.append(c)
        add(c, "in-country", country)

CATEGORIES = ["cardiovascular", "metabolic", "oncological", "infectious", "neurological",
              "psychiatric", "respiratory", "gastrointestinal", "autoimmune",
              "musculoskeletal", "renal", "hematological", "dermatological"]
CATEGORY_NAME = {c: c + " disorder" for c in CATEGORIES}
for c in CATEGORIES:
    claim(CATEGORY_NAME[c])

CATEGORY_ORGANS = {
    "cardiovascular": ["heart", "blood vessels"],
    "metabolic": ["pancreas", "liver", "thyroid gland"],
    "oncological": ["lungs", "breast", "colon", "blood", "skin", "kidneys", "brain", "pancreas"],
    "infectious": ["lungs", "urinary tract", "liver", "skin", "blood"],
    "neurological": ["brain", "spinal cord", "peripheral nerves"],
    "psychiatric": ["brain"],
    "respiratory": ["lungs", "nasal passages"],
    "gastrointestinal": ["stomach", "colon", "esophagus", "small intestine"],
    "autoimmune": ["joints", "skin", "kidneys"],
    "musculoskeletal": ["bone", "joints", "muscles"],
    "renal": ["kidneys"],
    "hematological": ["blood", "bone marrow"],
    "dermatological": ["skin", "nails"],
}
for organs in CATEGORY_ORGANS.values():
    for o in organs:
        claim(o) if o not in used_names else None

SPECIALTY_OF = {
    "cardiovascular": "cardiology", "metabolic": "endocrinology", "oncological": "oncology",
    "infectious": "infectious diseases", "neurological": "neurology", "psychiatric": "psychiatry",
    "respiratory": "pulmonology", "gastrointestinal": "gastroenterology",
    "autoimmune": "rheumatology", "musculoskeletal": "orthopedics", "renal": "nephrology",
    "hematological": "hematology", "dermatological": "dermatology",
}
SPECIALTIES = list(SPECIALTY_OF.values()) + ["internal medicine", "pediatrics",
                                             "emergency medicine", "general surgery",
                                             "anesthesiology"]
for s in SPECIALTIES:
    claim(s)

ROUTES = ["oral", "intravenous", "subcutaneous", "intramuscular", "inhaled", "topical", "intranasal"]
for r in ROUTES:
    claim(r)
PHASES = ["phase 1", "phase 2", "phase 3", "phase 4"]
STATUSES = ["recruiting", "active", "completed", "terminated"]
OWNERSHIP = ["public", "private", "non-profit"]
HOSPITAL_TYPES = ["teaching hospital", "community hospital", "children's hospital",
                  "cancer center", "psychiatric hospital", "cardiac center"]
for x in PHASES + STATUSES + OWNERSHIP + HOSPITAL_TYPES:
    claim(x)

# symptoms and side effects (a few concepts are both)
SYMPTOMS = {
    "cardiovascular": ["chest pain", "shortness of breath", "palpitations", "fatigue", "leg swelling", "dizziness"],
    "metabolic": ["excessive thirst", "frequent urination", "fatigue", "weight gain", "blurred vision"],
    "oncological": ["weight loss", "fatigue", "night sweats", "persistent cough", "lump"],
    "infectious": ["fever", "chills", "persistent cough", "painful urination", "rash", "fatigue"],
    "neurological": ["headache", "seizures", "tremor", "numbness", "memory loss", "dizziness"],
    "psychiatric": ["low mood", "anxiety", "sleep disturbance", "irritability", "poor concentration"],
    "respiratory": ["wheezing", "shortness of breath", "persistent cough", "nasal congestion"],
    "gastrointestinal": ["abdominal pain", "heartburn", "diarrhea", "bloating", "nausea"],
    "autoimmune": ["joint pain", "morning stiffness", "rash", "fatigue", "fever"],
    "musculoskeletal": ["joint pain", "back pain", "reduced mobility", "muscle pain"],
    "renal": ["leg swelling", "foamy urine", "fatigue", "frequent urination"],
    "hematological": ["fatigue", "pale skin", "easy bruising", "bone pain"],
    "dermatological": ["itching", "rash", "dry skin", "skin lesions"],
}
for syms in SYMPTOMS.values():
    for s in syms:
        if s not in used_names:
            claim(s)

COMMON_SE = ["nausea", "headache", "dizziness", "fatigue", "diarrhea", "rash", "constipation",
             "insomnia", "dry mouth", "abdominal pain"]
for s in COMMON_SE:
    if s not in used_names:
        claim(s)

# ---------------------------------------------------------------- drug classes
# class: (suffix, categories treated, routes, dose range, approval year range, class side effects)
DRUG_CLASSES = {
    "ACE inhibitor": ("pril", ["cardiovascular", "renal"], ["oral"], (2, 40), (1981, 2002),
                      ["dry cough", "hyperkalemia", "angioedema"]),
    "angiotensin receptor blocker": ("sartan", ["cardiovascular", "renal"], ["oral"], (8, 320), (1995, 2012),
                                     ["hyperkalemia", "dizziness"]),
    "statin": ("vastatin", ["cardiovascular", "metabolic"], ["oral"], (5, 80), (1987, 2010),
               ["myalgia", "elevated liver enzymes"]),
    "beta blocker": ("olol", ["cardiovascular"], ["oral", "intravenous"], (5, 200), (1967, 2008),
                     ["bradycardia", "fatigue", "cold extremities"]),
    "proton pump inhibitor": ("prazole", ["gastrointestinal"], ["oral", "intravenous"], (10, 40), (1989, 2010),
                              ["headache", "vitamin B12 deficiency"]),
    "monoclonal antibody": ("zumab", ["oncological", "autoimmune", "respiratory", "dermatological"],
                            ["intravenous", "subcutaneous"], (40, 800), (1998, 2024),
                            ["injection site reaction", "infusion reaction", "serious infection"]),
    "kinase inhibitor": ("tinib", ["oncological", "hematological", "autoimmune"], ["oral"], (25, 600), (2001, 2024),
                         ["neutropenia", "diarrhea", "hepatotoxicity", "QT prolongation"]),
    "DPP-4 inhibitor": ("gliptin", ["metabolic"], ["oral"], (5, 100), (2006, 2016),
                        ["nasopharyngitis", "pancreatitis"]),
    "SGLT2 inhibitor": ("gliflozin", ["metabolic", "renal", "cardiovascular"], ["oral"], (5, 300), (2012, 2023),
                        ["genital mycotic infection", "ketoacidosis", "dehydration"]),
    "fluoroquinolone": ("floxacin", ["infectious"], ["oral", "intravenous"], (200, 750), (1986, 2010),
                        ["tendon rupture", "photosensitivity", "QT prolongation"]),
    "penicillin": ("cillin", ["infectious"], ["oral", "intravenous", "intramuscular"], (250, 2000), (1961, 1995),
                   ["rash", "diarrhea", "anaphylaxis"]),
    "cephalosporin": ("cef", ["infectious"], ["intravenous", "intramuscular", "oral"], (250, 2000), (1970, 2015),
                      ["diarrhea", "rash", "Clostridioides difficile colitis"]),
    "azole antifungal": ("conazole", ["infectious", "dermatological"], ["oral", "topical", "intravenous"], (50, 400),
                         (1981, 2015), ["hepatotoxicity", "QT prolongation", "nausea"]),
    "nucleoside analogue antiviral": ("ovir", ["infectious"], ["oral", "intravenous"], (100, 1000), (1982, 2020),
                                      ["nausea", "headache", "renal impairment"]),
    "benzodiazepine": ("azepam", ["psychiatric", "neurological"], ["oral", "intravenous"], (1, 30), (1963, 1995),
                       ["drowsiness", "dependence", "memory impairment"]),
    "SSRI": ("oxetine", ["psychiatric"], ["oral"], (10, 200), (1987, 2013),
             ["nausea", "sexual dysfunction", "insomnia"]),
    "calcium channel blocker": ("dipine", ["cardiovascular"], ["oral"], (2, 120), (1982, 2005),
                                ["peripheral edema", "flushing", "headache"]),
    "factor Xa inhibitor": ("xaban", ["cardiovascular", "hematological"], ["oral"], (2, 60), (2008, 2022),
                            ["bleeding", "anemia"]),
    "low molecular weight heparin": ("parin", ["cardiovascular", "hematological"], ["subcutaneous"], (20, 200),
                                     (1987, 2005), ["bleeding", "thrombocytopenia", "injection site reaction"]),
    "corticosteroid": ("sonide", ["respiratory", "autoimmune", "dermatological"], ["oral", "inhaled", "topical"],
                       (1, 60), (1955, 2000), ["weight gain", "hyperglycemia", "osteoporosis risk"]),
    "bisphosphonate": ("dronate", ["musculoskeletal"], ["oral", "intravenous"], (5, 150), (1977, 2008),
                       ["esophagitis", "osteonecrosis of the jaw"]),
    "opioid analgesic": ("adol", ["musculoskeletal", "neurological"], ["oral", "intravenous"], (5, 100), (1960, 2010),
                         ["constipation", "respiratory depression", "dependence", "drowsiness"]),
    "NSAID": ("profen", ["musculoskeletal", "autoimmune", "neurological"], ["oral", "topical"], (25, 800), (1965, 2005),
              ["gastric ulcer", "bleeding", "renal impairment"]),
    "antihistamine": ("tadine", ["respiratory", "dermatological"], ["oral", "intranasal"], (5, 180), (1981, 2012),
                      ["drowsiness", "dry mouth"]),
    "triptan": ("triptan", ["neurological"], ["oral", "intranasal", "subcutaneous"], (2, 100), (1991, 2010),
                ["chest tightness", "dizziness", "tingling"]),
    "loop diuretic": ("etanide", ["cardiovascular", "renal"], ["oral", "intravenous"], (1, 80), (1966, 1995),
                      ["hypokalemia", "dehydration", "ototoxicity"]),
}
for cls, spec in DRUG_CLASSES.items():
    claim(cls)
    for se in spec[5]:
        if se not in used_names:
            claim(se)

# ---------------------------------------------------------------- diseases
REAL_DISEASES = {
    "cardiovascular": ["hypertension", "heart failure", "atrial fibrillation", "coronary artery disease",
                       "deep vein thrombosis", "pulmonary embolism", "angina pectoris",
                       "hypertrophic cardiomyopathy"],
    "metabolic": ["type 2 diabetes", "hypercholesterolemia", "obesity", "gout", "hypothyroidism",
                  "metabolic syndrome", "familial hypertriglyceridemia"],
    "oncological": ["non-small cell lung cancer", "breast cancer", "colorectal cancer",
                    "chronic myeloid leukemia", "melanoma", "renal cell carcinoma", "multiple myeloma",
                    "glioblastoma", "pancreatic cancer"],
    "infectious": ["community-acquired pneumonia", "urinary tract infection", "hepatitis C", "HIV infection",
                   "influenza", "invasive aspergillosis", "cellulitis", "herpes zoster", "tuberculosis"],
    "neurological": ["migraine", "epilepsy", "Parkinson's disease", "multiple sclerosis", "Alzheimer's disease",
                     "neuropathic pain", "cluster headache"],
    "psychiatric": ["major depressive disorder", "generalized anxiety disorder", "panic disorder",
                    "bipolar disorder", "insomnia disorder", "post-traumatic stress disorder",
                    "obsessive-compulsive disorder"],
    "respiratory": ["asthma", "chronic obstructive pulmonary disease", "allergic rhinitis",
                    "idiopathic pulmonary fibrosis", "bronchiectasis"],
    "gastrointestinal": ["gastroesophageal reflux disease", "peptic ulcer disease", "Crohn's disease",
                         "ulcerative colitis", "irritable bowel syndrome"],
    "autoimmune": ["rheumatoid arthritis", "psoriasis", "systemic lupus erythematosus",
                   "ankylosing spondylitis", "psoriatic arthritis"],
    "musculoskeletal": ["osteoporosis", "osteoarthritis", "acute low back pain", "fibromyalgia",
                        "Paget's disease of bone"],
    "renal": ["chronic kidney disease", "diabetic nephropathy", "nephrotic syndrome", "renal edema"],
    "hematological": ["iron deficiency anemia", "immune thrombocytopenia", "sickle cell disease", "hemophilia A"],
    "dermatological": ["atopic dermatitis", "chronic urticaria", "acne vulgaris", "onychomycosis"],
}
INVENTED_FORMS = {
    "cardiovascular": ["{} cardiomyopathy", "{} arteritis"],
    "metabolic": ["{} storage disease", "{} syndrome"],
    "oncological": ["{} sarcoma", "{} lymphoma"],
    "infectious": ["{} fever", "{} encephalitis"],
    "neurological": ["{} ataxia", "{} neuropathy"],
    "psychiatric": ["{} syndrome"],
    "respiratory": ["{} lung disease"],
    "gastrointestinal": ["{} enteropathy"],
    "autoimmune": ["{} disease", "{} vasculitis"],
    "musculoskeletal": ["{} myopathy", "{} dysplasia"],
    "renal": ["{} nephropathy"],
    "hematological": ["{} anemia", "{} thrombocytosis"],
    "dermatological": ["{} dermatosis"],
}
EPONYMS = ["Varnholt", "Kessler-Maund", "Ostrander", "Lindqvist", "Bramwell", "Tessaro", "Halvorsen",
           "Marchetti", "Okonkwo", "Delacroix", "Pemberton", "Szabo", "Ivarsson", "Quennell", "Rautio",
           "Ferraby", "Ashcombe", "Nakagawa", "Beaumont-Lisle", "Draganov", "Whitcombe", "Esterhazy",
           "Mallory-Crane", "Van der Hoek", "Castellanos", "Brekke", "Thorsby", "Lucchesi", "Ambrose",
           "Kovalenko"]
DISEASES = []  # (name, category)
for cat in CATEGORIES:
    for d in REAL_DISEASES[cat]:
        claim(d)
        DISEASES.append((d, cat))
ep = EPONYMS[:]
rng.shuffle(ep)
i = 0
for cat in CATEGORIES:
    n_inv = 3 if cat in ("oncological", "neurological", "hematological", "metabolic") else 2
    for _ in range(n_inv):
        form = rng.choice(INVENTED_FORMS[cat])
        name = form.format(ep[i % len(ep)])
        i += 1
        if claim(name):
            DISEASES.append((name, cat))
DISEASES_BY_CAT = {c: [d for d, k in DISEASES if k == c] for c in CATEGORIES}

for d, cat in DISEASES:
    add(d, "disease-category", CATEGORY_NAME[cat])
    organs = CATEGORY_ORGANS[cat]
    for o in rng.sample(organs, k=min(len(organs), rng.choice([1, 1, 2]))):
        add(d, "affects-organ", o)
    syms = SYMPTOMS[cat]
    for s in rng.sample(syms, k=min(len(syms), rng.choice([2, 3, 3, 4]))):
        add(d, "has-symptom", s)

# ---------------------------------------------------------------- genes and proteins
GENE_LET = "ABCDEFGHKLMNPRSTVWXZ"
PROT_STEMS = ["Caldr", "Vexil", "Morast", "Trebul", "Sarcol", "Heliot", "Pentar", "Lumic", "Ostran", "Fibrel",
              "Kinast", "Neural", "Cortal", "Plexar", "Glyvar", "Hemor", "Durav", "Ambrel", "Zetor", "Quiral"]
PROT_FORMS = ["{}in-{}", "{}ase {}", "{} receptor {}", "{} transporter {}", "{} kinase {}", "{} channel {}"]
GENES = []  # (gene, protein)
while len(GENES) < 110:
    sym = "".join(rng.choice(GENE_LET) for _ in range(rng.choice([3, 4, 4, 5]))) + str(rng.randint(1, 12))
    if sym in used_names:
        continue
    form = rng.choice(PROT_FORMS)
    stem = rng.choice(PROT_STEMS)
    prot = form.format(stem if "{}in" not in form and "{}ase" not in form else stem.lower().capitalize(),
                       rng.randint(1, 9))
    if prot in used_names:
        continue
    claim(sym)
    claim(prot)
    GENES.append((sym, prot))
CHROMOSOMES = ["chromosome %d" % n for n in range(1, 23)] + ["chromosome X", "chromosome Y"]
for c in CHROMOSOMES:
    claim(c)
for sym, prot in GENES:
    add(sym, "encodes", prot)
    add(sym, "on-chromosome", rng.choice(CHROMOSOMES[:23] if rng.random() > 0.02 else CHROMOSOMES))

# each category gets a pool of genes; some genes shared by many diseases (hubs)
gene_syms = [g for g, _ in GENES]
CAT_GENES = {}
for cat in CATEGORIES:
    CAT_GENES[cat] = rng.sample(gene_syms, 9)
for d, cat in DISEASES:
    for g in rng.sample(CAT_GENES[cat], k=rng.choice([1, 2, 2, 3])):
        add(d, "associated-gene", g)
    if rng.random() < 0.25:
        add(d, "associated-gene", gene_syms[rng.randint(0, 4)])  # hub genes

# class target pools (proteins)
proteins = [p for _, p in GENES]
CLASS_TARGETS = {}
for cls in DRUG_CLASSES:
    k = 6 if cls in ("monoclonal antibody", "kinase inhibitor") else rng.choice([1, 1, 2])
    CLASS_TARGETS[cls] = rng.sample(proteins, k)

# ---------------------------------------------------------------- manufacturers
MAN_STEMS = ["Velmora", "Kestrel", "Aldenbrook", "Norvane", "Halcyon", "Brightwater", "Ostara", "Celerin",
             "Maridian", "Torvald", "Quintara", "Lysander", "Everholt", "Saxony Ridge", "Pallas", "Corvix",
             "Amberlyn", "Threnody", "Vireo", "Sundale", "Heronsgate", "Mistral", "Obelix", "Carrow",
             "Tamsin", "Idris", "Greystone", "Auberon", "Lindmark", "Nexaris", "Rovena", "Selkirk",
             "Ashgrove", "Fennimore", "Juno", "Wexford", "Paragon Hill", "Zephyra", "Bellhaven", "Kinnear"]
MAN_SUFFIX = ["Pharmaceuticals", "Biologics", "Therapeutics", "Pharma", "Biosciences", "Laboratories",
              "Life Sciences", "Healthcare"]
MANUFACTURERS = []
for stem in MAN_STEMS:
    name = stem + " " + rng.choice(MAN_SUFFIX)
    claim(name)
    MANUFACTURERS.append(name)
rng.shuffle(MANUFACTURERS)
hq_cities = ["Basel", "Boston", "Basel", "Zurich", "London", "Tokyo", "Copenhagen", "Paris", "Munich",
             "Mumbai", "Osaka", "Toronto", "Stockholm", "Leiden", "Milan", "Seattle", "Houston",
             "Berlin", "Geneva", "Sydney"]
for m in MANUFACTURERS:
    add(m, "headquartered-in", zipf_choice(hq_cities, 0.7))
    add(m, "founding-year", rng.randint(1849, 2015))
parents = MANUFACTURERS[:3]
for m in MANUFACTURERS[3:]:
    if rng.random() < 0.22:
        add(m, "subsidiary-of", rng.choice(parents))

# ---------------------------------------------------------------- drugs
DRUG_PRE = ["al", "bel", "cor", "dal", "ev", "fen", "gal", "hal", "ix", "jor", "kel", "lev", "mor", "nal",
            "ol", "pra", "quin", "ros", "sel", "tor", "ul", "val", "xer", "zan", "bri", "cla", "dro", "fla",
            "gli", "tra", "vel", "zo", "ame", "ben", "cal", "dor", "ela", "far", "ira", "lum", "mel", "nor",
            "pel", "ral", "sor", "tam", "ver", "wen"]
DRUG_MID = ["a", "e", "i", "o", "u", "ara", "eri", "ido", "ova", "ami", "ipi", "", "ex", "ul"]
BRAND_A = ["Zen", "Cal", "Vor", "Lum", "Tri", "Nex", "Ori", "Ael", "Quo", "Syl", "Bre", "Kor", "Dal", "Fen",
           "Mir", "Pax", "Rel", "Sev", "Tol", "Ux", "Vel", "Xan", "Yor", "Ivo", "Ost", "Pel", "Cyr", "Em"]
BRAND_B = ["trava", "ora", "ivex", "elle", "onyx", "ara", "iqa", "umax", "ento", "ira", "oxa", "anti",
           "ella", "ovo", "eon", "ylis", "adra", "ivo", "exa", "unta", "aro", "emis"]

DRUGS = []  # dict records
for cls, (suf, cats, routes, dose, years, ses) in DRUG_CLASSES.items():
    n = rng.randint(5, 9)
    if cls in ("monoclonal antibody", "kinase inhibitor"):
        n = rng.randint(13, 16)
    made = 0
    tries = 0
    while made < n and tries < 500:
        tries += 1
        if suf == "cef":
            name = join_parts("cef", rng.choice(DRUG_MID), rng.choice(DRUG_PRE),
                              rng.choice(["ime", "ozin", "axone", "ur"]))
        elif suf == "zumab":
            name = join_parts(rng.choice(DRUG_PRE), rng.choice(DRUG_MID),
                              rng.choice(["zumab", "lumab", "ximab", "tumab"]))
        else:
            name = join_parts(rng.choice(DRUG_PRE), rng.choice(DRUG_MID), suf)
        name = name.replace("aa", "a").replace("oo", "o").replace("ii", "i")
        if not claim(name):
            continue
        brand = None
        for _ in range(30):
            b = rng.choice(BRAND_A) + rng.choice(BRAND_B)
            if claim(b):
                brand = b
                break
        DRUGS.append({"name": name, "class": cls, "brand": brand})
        made += 1

# anti-infective classes treat only the matching kind of infection
CLASS_DISEASES = {
    "penicillin": ["community-acquired pneumonia", "urinary tract infection", "cellulitis"],
    "cephalosporin": ["community-acquired pneumonia", "urinary tract infection", "cellulitis", "tuberculosis"],
    "fluoroquinolone": ["community-acquired pneumonia", "urinary tract infection", "tuberculosis", "cellulitis"],
    "nucleoside analogue antiviral": ["hepatitis C", "HIV infection", "influenza", "herpes zoster"],
    "azole antifungal": ["invasive aspergillosis", "onychomycosis"],
    "triptan": ["migraine", "cluster headache"],
    "proton pump inhibitor": ["gastroesophageal reflux disease", "peptic ulcer disease"],
}
for d in DRUGS:
    cls = d["class"]
    suf, cats, routes, dose, years, ses = DRUG_CLASSES[cls]
    add(d["name"], "drug-class", cls)
    if d["brand"]:
        add(d["name"], "brand-name", d["brand"])
    # treats: 1-4 diseases from the class categories
    k = rng.choice([1, 2, 2, 3, 3, 4])
    treated = set()
    for _ in range(k):
        if cls in CLASS_DISEASES:
            treated.add(rng.choice(CLASS_DISEASES[cls]))
        else:
            cat = rng.choice(cats)
            treated.add(rng.choice(DISEASES_BY_CAT[cat]))
    d["treats"] = sorted(treated)
    for dis in d["treats"]:
        add(d["name"], "treats", dis)
    # side effects: class ones plus common ones
    se = rng.sample(ses, k=rng.randint(1, len(ses))) + rng.sample(COMMON_SE, k=rng.choice([0, 1, 1, 2, 3]))
    for s in se:
        add(d["name"], "has-side-effect", s)
    # routes
    for r in rng.sample(routes, k=1 if len(routes) == 1 or rng.random() < 0.7 else 2):
        add(d["name"], "route", r)
    # target(s)
    for t in rng.sample(CLASS_TARGETS[cls], k=min(len(CLASS_TARGETS[cls]), rng.choice([1, 1, 2]))):
        add(d["name"], "targets", t)
    # manufacturer: skewed towards big companies
    d["maker"] = zipf_choice(MANUFACTURERS, 0.9)
    add(d["name"], "manufactured-by", d["maker"])
    # literals
    lo, hi = dose
    dv = rng.randint(lo, hi)
    if dv > 100:
        dv = int(round(dv / 25.0) * 25) or lo
    elif dv > 20:
        dv = int(round(dv / 5.0) * 5)
    add(d["name"], "typical-dose-mg", dv)
    add(d["name"], "approval-year", rng.randint(*years))

# interactions (stored once per pair)
INTERACT_CLASSES = [("factor Xa inhibitor", "NSAID"), ("low molecular weight heparin", "NSAID"),
                    ("SSRI", "triptan"), ("benzodiazepine", "opioid analgesic"),
                    ("azole antifungal", "statin"), ("ACE inhibitor", "loop diuretic"),
                    ("fluoroquinolone", "corticosteroid"), ("beta blocker", "calcium channel blocker"),
                    ("kinase inhibitor", "azole antifungal"), ("SSRI", "NSAID")]
by_class = {}
for d in DRUGS:
    by_class.setdefault(d["class"], []).append(d["name"])
for a, b in INTERACT_CLASSES:
    for _ in range(rng.randint(6, 12)):
        add(rng.choice(by_class[a]), "interacts-with", rng.choice(by_class[b]))
for _ in range(40):
    x, y = rng.sample(DRUGS, 2)
    add(x["name"], "interacts-with", y["name"])

# ---------------------------------------------------------------- hospitals
SAINTS = ["Aldric", "Brigid", "Columba", "Elspeth", "Hilda", "Oswin", "Benedict", "Clement", "Agatha",
          "Ambrose", "Lucian", "Winifred", "Cuthbert", "Edmund", "Margaret", "Jerome"]
PLACES = ["Northgate", "Riverside", "Lakeview", "Cedar Hill", "Harborview", "Westmere", "Eastbrook",
          "Kingsbridge", "Fairhaven", "Elmwood", "Stonebridge", "Oakridge", "Silverdale", "Ashford",
          "Marlow Park", "Redcliffe", "Glenmore", "Bayside"]
PEOPLE = ["Pemberton", "Whitaker", "Hollis", "Rosenthal", "Castellane", "Abernathy", "Okafor", "Lindgren",
          "Moreau", "Takahashi", "Brandt", "Vasquez", "Fairbanks", "Mercer", "Halloran"]
HOSPITALS = []
hospital_type = {}
hospital_city = {}
tries = 0
while len(HOSPITALS) < 62 and tries < 5000:
    tries += 1
    city = zipf_choice(CITIES, 0.5)
    t = rng.random()
    if t < 0.18:
        name, htype = "%s General Hospital" % city, "teaching hospital"
    elif t < 0.32:
        name, htype = "St. %s Hospital" % rng.choice(SAINTS), rng.choice(["community hospital", "teaching hospital"])
    elif t < 0.45:
        name = "%s Memorial Hospital" % rng.choice(PEOPLE)
        htype = rng.choice(["community hospital", "teaching hospital"])
    elif t < 0.58:
        name, htype = "%s Medical Center" % rng.choice(PLACES), rng.choice(["community hospital", "teaching hospital"])
    elif t < 0.68:
        name, htype = "%s Children's Hospital" % rng.choice(PLACES + PEOPLE), "children's hospital"
    elif t < 0.78:
        name, htype = "%s Cancer Institute" % rng.choice(PEOPLE + [city]), "cancer center"
    elif t < 0.86:
        name, htype = "%s Heart Institute" % rng.choice(PLACES + [city]), "cardiac center"
    elif t < 0.92:
        name, htype = "%s Psychiatric Hospital" % rng.choice(PLACES), "psychiatric hospital"
    else:
        name, htype = "%s Royal Infirmary" % city, "teaching hospital"
    if not claim(name):
        continue
    HOSPITALS.append(name)
    hospital_type[name] = htype
    hospital_city[name] = city
for h in HOSPITALS:
    add(h, "located-in", hospital_city[h])
    add(h, "hospital-type", hospital_type[h])
    add(h, "ownership", rng.choice(OWNERSHIP))
    add(h, "founding-year", rng.randint(1780, 2010))
    lo, hi = {"teaching hospital": (400, 1800), "community hospital": (80, 450),
              "children's hospital": (120, 600), "cancer center": (90, 700),
              "cardiac center": (60, 400), "psychiatric hospital": (50, 350)}[hospital_type[h]]
    add(h, "bed-count", rng.randint(lo, hi))

# ---------------------------------------------------------------- physicians
FIRST = ["Anna", "Miriam", "Tomas", "Kenji", "Aisha", "Lars", "Sofia", "David", "Priya", "Elena", "Marcus",
         "Ingrid", "Yusuf", "Claire", "Rafael", "Hannah", "Oliver", "Leila", "Mateo", "Freya", "Samuel",
         "Nadia", "Henrik", "Grace", "Arjun", "Beatrix", "Felix", "Chiara", "Jonas", "Amara", "Victor",
         "Ruth", "Pavel", "Mei", "Ewan", "Isabel", "Kofi", "Astrid", "Luca", "Naomi", "Hugo", "Yara",
         "Daniel", "Margot", "Omar", "Sigrid", "Theo", "Rosa", "Benedikt", "Keiko", "Simon", "Lucia",
         "Adebayo", "Fiona", "Magnus", "Ines", "Rohan", "Clara", "Stefan", "Zainab"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Takahashi", "Brandt", "Vasquez", "Hollis", "Rosenthal",
        "Nakamura", "Fischer", "Bergström", "Delgado", "Whitaker", "Osei", "Kowalski", "Chen", "Patel",
        "Dubois", "Ferreira", "Novak", "Haugen", "Rossi", "Mbeki", "Albright", "Sato", "Jansen", "Kaur",
        "O'Connell", "Schmidt", "Lefebvre", "Andersson", "Morales", "Ivanova", "Hartmann", "Quinn",
        "Yamada", "Eriksen", "Bianchi", "Mensah", "Van Dijk", "Castillo", "Holm", "Richter", "Gallagher",
        "Iyer", "Laurent", "Petrov", "Tanaka", "Weber", "Sørensen", "Abara", "Marchetti", "Nilsson",
        "Kaplan", "Reyes", "Fontaine", "Ahmed", "Müller", "Larsen", "Hoffmann"]
PHYSICIANS = []
phys_spec = {}
phys_hosp = {}
tries = 0
while len(PHYSICIANS) < 230 and tries < 10000:
    tries += 1
    first = rng.choice(FIRST)
    last = zipf_choice(LAST, 0.35)
    if rng.random() < 0.3:
        name = "%s %s. %s" % (first, rng.choice("ABCDEFGHJKLMNPRSTW"), last)
    else:
        name = "%s %s" % (first, last)
    if not claim(name):
        continue
    PHYSICIANS.append(name)
for p in PHYSICIANS:
    spec = rng.choice(SPECIALTIES[:13] * 2 + SPECIALTIES[13:])
    phys_spec[p] = spec
    add(p, "specialty", spec)
    hs = rng.sample(HOSPITALS, k=rng.choice([1, 1, 1, 2, 2, 3]))
    phys_hosp[p] = hs
    for h in hs:
        add(p, "works-at", h)
    add(p, "trained-at", zipf_choice(HOSPITALS, 0.6))
    add(p, "birth-year", rng.randint(1942, 1992))

# ---------------------------------------------------------------- clinical trials
ACRONYMS = ["ARCTURUS", "BEACON", "CASCADE", "DELPHI", "EMBER", "FALCON", "GALAXY", "HARBOR", "IONIC",
            "JUNIPER", "LUMEN", "MERIDIAN", "NIMBUS", "ORION", "PINNACLE", "QUASAR", "RADIANT", "SENTINEL",
            "TANDEM", "UPLIFT", "VANGUARD", "WAYPOINT", "ZENITH", "ALPINE", "BOREAL", "CORAL", "DAWN",
            "ECLIPSE", "FRONTIER", "HELIOS", "ATLAS", "SUMMIT", "TIDAL", "VERTEX", "COMPASS", "MOSAIC",
            "PRISM", "SOLSTICE", "AURORA", "CRESCENT"]
CAT_TAG = {"cardiovascular": "HF", "metabolic": "DM", "oncological": "ONC", "infectious": "ID",
           "neurological": "NEURO", "psychiatric": "MDD", "respiratory": "RESP", "gastrointestinal": "GI",
           "autoimmune": "RA", "musculoskeletal": "BONE", "renal": "CKD", "hematological": "HEME",
           "dermatological": "DERM"}
disease_cat = dict(DISEASES)
phys_by_hosp = {}
for p, hs in phys_hosp.items():
    for h in hs:
        phys_by_hosp.setdefault(h, []).append(p)
TRIALS = []
tries = 0
while len(TRIALS) < 160 and tries < 10000:
    tries += 1
    drug = rng.choice(DRUGS)
    disease = rng.choice(drug["treats"])
    cat = disease_cat[disease]
    ac = rng.choice(ACRONYMS)
    r = rng.random()
    if r < 0.45:
        name = "%s-%d" % (ac, rng.randint(1, 6))
    elif r < 0.8:
        name = "%s-%s" % (ac, CAT_TAG[cat])
    else:
        name = ac + " " + rng.choice(["II", "III", "Extension", "Pilot"])
    if not claim(name):
        continue
    TRIALS.append(name)
    add(name, "studies-drug", drug["name"])
    if rng.random() < 0.15:  # active comparator from the same class
        other = rng.choice(by_class[drug["class"]])
        add(name, "studies-drug", other)
    add(name, "studies-condition", disease)
    sites = [zipf_choice(HOSPITALS, 0.8) for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 5]))]
    for h in sites:
        add(name, "conducted-at", h)
    # principal investigator: prefer a matching specialist at a site
    cands = [p for h in sites for p in phys_by_hosp.get(h, []) if phys_spec[p] == SPECIALTY_OF[cat]]
    if not cands:
        cands = [p for p in PHYSICIANS if phys_spec[p] == SPECIALTY_OF[cat]]
    pi = zipf_choice(sorted(set(cands)), 1.0) if rng.random() < 0.6 else rng.choice(cands)
    add(name, "principal-investigator", pi)
    sponsor = drug["maker"] if rng.random() < 0.8 else rng.choice(MANUFACTURERS)
    add(name, "sponsored-by", sponsor)
    phase = rng.choice(PHASES[:1] + PHASES[1:3] * 2 + PHASES[3:])
    add(name, "trial-phase", phase)
    lo, hi = {"phase 1": (18, 120), "phase 2": (60, 600), "phase 3": (300, 12000), "phase 4": (150, 5000)}[phase]
    enr = rng.randint(lo, hi)
    if enr > 1000:
        enr = int(round(enr / 10.0) * 10)
    add(name, "enrollment", enr)
    year = rng.randint(1999, 2024)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    add(name, "start-date", "%04d-%02d-%02d" % (year, month, day))
    if year >= 2022:
        status = rng.choice(["recruiting", "recruiting", "active"])
    elif year >= 2018:
        status = rng.choice(["active", "completed", "completed", "terminated"])
    else:
        status = rng.choice(["completed", "completed", "completed", "terminated"])
    add(name, "trial-status", status)

# ---------------------------------------------------------------- write
with open(OUT, "w", encoding="utf-8") as f:
    for h, r, t in triples:
        f.write("%s|%s|%s\n" % (h, r, t))

ents = set()
LITERAL = {"approval-year", "typical-dose-mg", "bed-count", "founding-year", "birth-year", "enrollment",
           "start-date"}
for h, r, t in triples:
    ents.add(h)
    if r not in LITERAL:
        ents.add(t)
print("triples", len(triples))
print("relations", len({r for _, r, _ in triples}))
print("entities (non-literal)", len(ents))
