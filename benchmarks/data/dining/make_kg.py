#!/usr/bin/env python3
"""Build a small made-up restaurants-and-food knowledge graph (kb.txt).

Deterministic: standard library only, fixed random seed, no iteration over
unordered sets.  One triple per line: head|relation|tail.
"""
import os
import random

SEED = 20240611
rng = random.Random(SEED)

triples = []
names_used = {}  # name -> type, to keep names unique across types


def new_name(name, kind):
    if name in names_used:
        return False
    names_used[name] = kind
    return True


def add(h, r, t):
    assert "|" not in h and "|" not in str(t) and "|" not in r
    triples.append((h, r, str(t)))


# ---------------------------------------------------------------- countries, cities
CITIES = {
    "United States": ["New York", "Chicago", "San Francisco", "New Orleans", "Austin"],
    "United Kingdom": ["London", "Edinburgh", "Manchester"],
    "France": ["Paris", "Lyon", "Marseille"],
    "Italy": ["Rome", "Bologna", "Naples"],
    "Japan": ["Tokyo", "Osaka", "Kyoto"],
    "Spain": ["Barcelona", "San Sebastian", "Madrid"],
    "Mexico": ["Mexico City", "Oaxaca"],
    "Denmark": ["Copenhagen"],
    "Portugal": ["Lisbon", "Porto"],
    "Australia": ["Melbourne", "Sydney"],
    "Canada": ["Montreal", "Toronto"],
}
CITY_WEIGHT = {"New York": 9, "London": 8, "Paris": 8, "Tokyo": 7, "Chicago": 4,
               "San Francisco": 4, "Barcelona": 4, "Copenhagen": 3, "Lyon": 3,
               "Mexico City": 3, "Melbourne": 3, "Rome": 3}
EXTRA_COUNTRIES = ["Peru", "Thailand", "Vietnam", "South Korea", "India", "Lebanon",
                   "Greece", "Turkey", "Ethiopia", "Georgia", "Morocco", "China",
                   "Brazil", "Philippines", "Iran", "Israel", "Sweden", "Germany"]

cities = []
for country, cl in CITIES.items():
    new_name(country, "country")
    for c in cl:
        assert new_name(c, "city")
        cities.append(c)
        add(c, "location.city.country", country)
countries = list(CITIES) + EXTRA_COUNTRIES
for c in EXTRA_COUNTRIES:
    new_name(c, "country")
city_w = [CITY_WEIGHT.get(c, 1.5) for c in cities]

# ---------------------------------------------------------------- neighbourhoods
NB_A = ["Lantern", "Kiln", "Salt", "Copper", "Mill", "Orchard", "Harbour", "Bell",
        "Tanner", "Chapel", "Willow", "Granary", "Ropewalk", "Quarry", "Foundry",
        "Cistern", "Ferry", "Market", "Juniper", "Cobble", "Linden", "Sparrow",
        "Weaver", "Anchor", "Ashgrove", "Brick", "Cedar", "Dovecote", "Elm", "Flax"]
NB_B = ["Row", "Hill", "Quarter", "Wharf", "Gate", "Yards", "Heights", "Lane",
        "Green", "Cross", "Square", "Docks", "Village", "Terrace", "Park"]
neighbourhoods = {}  # city -> list
all_nb_pairs = [(a, b) for a in NB_A for b in NB_B]
rng.shuffle(all_nb_pairs)
pi = 0
for c in cities:
    n = 4 if CITY_WEIGHT.get(c, 0) >= 4 else (3 if CITY_WEIGHT.get(c, 0) >= 3 else 2)
    lst = []
    while len(lst) < n:
        a, b = all_nb_pairs[pi]
        pi += 1
        nm = f"{a} {b}"
        if new_name(nm, "neighbourhood"):
            lst.append(nm)
            add(nm, "location.neighborhood.city", c)
    neighbourhoods[c] = lst

# ---------------------------------------------------------------- cuisines
CUISINES = [
    ("Italian", "Italy"), ("French", "France"), ("Japanese", "Japan"), ("Mexican", "Mexico"),
    ("Peruvian", "Peru"), ("Thai", "Thailand"), ("Vietnamese", "Vietnam"),
    ("Korean", "South Korea"), ("Indian", "India"), ("Lebanese", "Lebanon"),
    ("Greek", "Greece"), ("Spanish", "Spain"), ("Turkish", "Turkey"),
    ("Ethiopian", "Ethiopia"), ("Georgian", "Georgia"), ("Moroccan", "Morocco"),
    ("Cantonese", "China"), ("Sichuan", "China"), ("Nordic", "Denmark"),
    ("British", "United Kingdom"), ("Southern American", "United States"),
    ("Brazilian", "Brazil"), ("Portuguese", "Portugal"), ("Filipino", "Philippines"),
    ("Persian", "Iran"), ("Basque", "Spain"), ("Cajun", "United States"),
    ("Modern European", None), ("Seafood", None), ("Vegetarian", None), ("Fusion", None),
]
cuisines = []
for cu, co in CUISINES:
    assert new_name(cu, "cuisine")
    cuisines.append(cu)
    if co:
        add(cu, "dining.cuisine.country_of_origin", co)
CUISINE_W = {"Italian": 9, "French": 8, "Japanese": 8, "Modern European": 6, "Mexican": 5,
             "Seafood": 5, "Spanish": 4, "Indian": 4, "Korean": 3, "Thai": 3, "Nordic": 3,
             "Vegetarian": 3, "Cantonese": 3, "Fusion": 3, "British": 3, "Peruvian": 2}
cuisine_w = [CUISINE_W.get(c, 1.2) for c in cuisines]
# cuisine preferred by city
CITY_CUISINE = {"Tokyo": "Japanese", "Osaka": "Japanese", "Kyoto": "Japanese",
                "Paris": "French", "Lyon": "French", "Marseille": "French",
                "Rome": "Italian", "Bologna": "Italian", "Naples": "Italian",
                "Barcelona": "Spanish", "San Sebastian": "Basque", "Madrid": "Spanish",
                "Mexico City": "Mexican", "Oaxaca": "Mexican", "Copenhagen": "Nordic",
                "Lisbon": "Portuguese", "Porto": "Portuguese", "New Orleans": "Cajun",
                "Austin": "Southern American", "Edinburgh": "British"}

# ---------------------------------------------------------------- ingredients
INGREDIENTS = {
    "Fish and Shellfish": ["Octopus", "Black Cod", "Scallop", "Langoustine", "Mackerel", "Sea Urchin",
                "Oyster", "Squid", "Anchovy", "Eel", "Sea Bream", "Prawn", "Mussel", "Crab",
                "Turbot", "Salmon", "Tuna"],
    "Meat": ["Lamb Shoulder", "Pork Belly", "Beef Short Rib", "Veal Sweetbread", "Venison",
             "Wagyu Beef", "Oxtail", "Chorizo", "Rabbit", "Goat"],
    "Poultry": ["Duck Breast", "Quail", "Chicken Thigh", "Guinea Fowl", "Pigeon"],
    "Vegetable": ["Leek", "Celeriac", "Heirloom Tomato", "Aubergine", "Fennel", "Beetroot",
                  "Cauliflower", "Kohlrabi", "Jerusalem Artichoke", "Pumpkin", "Okra",
                  "Sweet Potato", "Chicory", "Radish", "Asparagus", "Cavolo Nero"],
    "Fruit": ["Quince", "Blood Orange", "Yuzu", "Rhubarb", "Fig", "Sour Cherry",
              "Persimmon", "Pomegranate", "Green Mango", "Passion Fruit"],
    "Grain": ["Carnaroli Rice", "Farro", "Buckwheat", "Masa", "Sourdough", "Freekeh",
              "Koshihikari Rice", "Semolina", "Teff"],
    "Dairy": ["Burrata", "Brown Butter", "Comté", "Sheep's Milk Ricotta", "Crème Fraîche",
              "Labneh", "Gorgonzola Dolce", "Cultured Cream"],
    "Spice": ["Sumac", "Saffron", "Sichuan Pepper", "Smoked Paprika", "Berbere",
              "Fenugreek", "Star Anise", "Urfa Pepper", "Cardamom", "Ancho Chile"],
    "Herb": ["Lovage", "Shiso", "Tarragon", "Thai Basil", "Wild Garlic", "Sorrel",
             "Epazote", "Lemon Verbena"],
    "Fungi": ["Morel", "Chanterelle", "Shiitake", "Black Truffle", "Hen of the Woods",
              "Porcini"],
    "Legume": ["Chickpea", "Black Bean", "Fava Bean", "Lentil", "Edamame", "Borlotti Bean"],
    "Nut": ["Pistachio", "Hazelnut", "Walnut", "Almond", "Pine Nut", "Macadamia"],
}
ingredients = []
ing_cat = {}
for cat, lst in INGREDIENTS.items():
    for i in lst:
        assert new_name(i, "ingredient"), i
        ingredients.append(i)
        ing_cat[i] = cat
        add(i, "dining.ingredient.category", cat)
for cat in INGREDIENTS:
    assert new_name(cat, "ingredient_category"), cat

# ---------------------------------------------------------------- dishes
PREP = {
    "Fish and Shellfish": ["Smoked", "Charred", "Grilled", "Cured", "Raw", "Poached", "Steamed",
                           "Crispy", "Confit"],
    "Meat": ["Braised", "Roasted", "Smoked", "Grilled", "Slow-cooked", "Glazed", "Spiced",
             "Wood-fired", "Confit"],
    "Poultry": ["Roasted", "Glazed", "Confit", "Grilled", "Smoked", "Spiced"],
    "Vegetable": ["Charred", "Roasted", "Pickled", "Ember-baked", "Grilled", "Fermented",
                  "Crispy", "Wood-fired"],
    "Fungi": ["Roasted", "Pickled", "Grilled", "Crispy"],
    "Legume": ["Spiced", "Slow-cooked", "Crispy", "Smoked"],
    "Fruit": ["Roasted", "Poached", "Spiced", "Burnt"],
    "Dairy": ["Whipped", "Baked", "Smoked"],
}
FORM = {
    "Fish and Shellfish": ["Crudo", "Tartare", "Carpaccio", "Tacos", "Tostada", "Risotto",
                           "Curry", "Donburi", "Broth", "Skewers", "Terrine", "Croquettes",
                           "Noodles", "Bao"],
    "Meat": ["Ragù", "Stew", "Skewers", "Tacos", "Pie", "Bao", "Dumplings", "Tagine",
             "Empanadas", "Agnolotti", "Rillettes", "Pithivier", "Curry", "Noodles", "Sando",
             "Terrine"],
    "Poultry": ["Curry", "Skewers", "Pie", "Donburi", "Sando", "Rillettes", "Terrine",
                "Dumplings"],
    "Vegetable": ["Tart", "Gratin", "Salad", "Risotto", "Tagine", "Flatbread", "Curry",
                  "Croquettes", "Khachapuri", "Pithivier", "Tostada", "Dumplings"],
    "Fungi": ["Risotto", "Tart", "Agnolotti", "Broth", "Flatbread", "Dumplings"],
    "Legume": ["Stew", "Curry", "Salad", "Tacos", "Croquettes", "Flatbread"],
    "Fruit": ["Tart", "Sorbet", "Galette", "Pavlova", "Granita", "Crumble"],
    "Dairy": ["Agnolotti", "Tart", "Gratin", "Flatbread", "Khachapuri"],
}
MAIN_CATS = list(FORM)
MAIN_W = [6, 5, 3, 6, 2, 2, 2, 1]
SIDE_CATS = ["Spice", "Herb", "Nut", "Fruit", "Grain", "Vegetable", "Fungi", "Dairy"]
FORM_CUISINE = {"Risotto": "Italian", "Ragù": "Italian", "Agnolotti": "Italian",
                "Carpaccio": "Italian", "Tacos": "Mexican", "Tostada": "Mexican",
                "Empanadas": "Spanish", "Donburi": "Japanese", "Sando": "Japanese",
                "Bao": "Cantonese", "Dumplings": "Sichuan", "Curry": "Indian",
                "Pithivier": "French", "Rillettes": "French", "Terrine": "French",
                "Gratin": "French", "Tagine": "Moroccan", "Khachapuri": "Georgian",
                "Noodles": "Korean", "Crudo": "Seafood", "Pie": "British",
                "Galette": "French", "Granita": "Italian", "Crumble": "British"}
dishes = []
dish_cuisine = {}
N_DISHES = 190
while len(dishes) < N_DISHES:
    cat = rng.choices(MAIN_CATS, MAIN_W)[0]
    ing = rng.choice(INGREDIENTS[cat])
    style = rng.random()
    form = None
    ings = [ing]
    if style < 0.45:
        form = rng.choice(FORM[cat])
        nm = f"{rng.choice(PREP[cat])} {ing} {form}"
    elif style < 0.7:
        form = rng.choice(FORM[cat])
        nm = f"{ing} {form}"
    else:
        other = rng.choice(INGREDIENTS[rng.choice(SIDE_CATS)])
        if other == ing:
            continue
        nm = f"{rng.choice(PREP[cat])} {ing} with {other}"
        ings.append(other)
    if not new_name(nm, "dish"):
        continue
    dishes.append(nm)
    cu = FORM_CUISINE.get(form) if form else None
    if cu is None or rng.random() < 0.25:
        cu = rng.choices(cuisines, cuisine_w)[0]
    dish_cuisine[nm] = cu
    add(nm, "dining.dish.cuisine", cu)
    for _ in range(rng.choice([0, 1, 1, 2])):
        x = rng.choice(INGREDIENTS[rng.choice(SIDE_CATS)])
        if x not in ings:
            ings.append(x)
    for x in ings:
        add(nm, "dining.dish.main_ingredient", x)
dishes_by_cuisine = {}
for d in dishes:
    dishes_by_cuisine.setdefault(dish_cuisine[d], []).append(d)

# ---------------------------------------------------------------- people (chefs)
FIRST = ["Amelia", "Bruno", "Chiara", "Dmitri", "Elena", "Felix", "Giulia", "Hiro", "Ines",
         "Jonas", "Keiko", "Luca", "Marguerite", "Nadia", "Oscar", "Paloma", "Quentin",
         "Rosa", "Sven", "Tomás", "Ulla", "Vikram", "Wen", "Ximena", "Yusuf", "Zara",
         "Aiko", "Benedikt", "Camille", "Dario", "Esther", "Farid", "Greta", "Hugo",
         "Isabel", "Jun", "Kasper", "Lena", "Mateo", "Noor", "Olivier", "Priya", "Rafael",
         "Sofia", "Theo", "Valentina", "Wilhelmina", "Yara", "Anders", "Beatriz", "Ciaran",
         "Delphine", "Emeka", "Freya", "Gaspard", "Hana", "Ivo", "Juliette", "Kofi",
         "Leilani", "Marco", "Nikolai", "Orla", "Pierre", "Renata", "Samuel", "Tariq",
         "Ulrike", "Viktor", "Wanda", "Alessandro", "Bianca", "Colm", "Daniela", "Eero",
         "Fumiko", "Gideon", "Helena", "Ignacio", "Jasmine"]
LAST = ["Morel", "Castellano", "Tanaka", "Lindqvist", "Okafor", "Duval", "Ricci",
        "Nakamura", "Alvarez", "Brennan", "Kowalski", "Haddad", "Petrov", "Sato",
        "Fontaine", "Moreau", "Bianchi", "Herrera", "Jensen", "O'Rourke", "Mendes",
        "Varga", "Kim", "Park", "Nguyen", "Chen", "Rossi", "Dubois", "García", "Silva",
        "Müller", "Andersen", "Costa", "Romano", "Yamamoto", "Laurent", "Navarro",
        "Oyelaran", "Quintero", "Sørensen", "Tavares", "Vasquez", "Whitfield", "Abernathy",
        "Beaumont", "Delacroix", "Esposito", "Fairweather", "Galloway", "Hargreaves",
        "Iturbe", "Kaczmarek", "Lombardi", "Marchetti", "Nordström", "Ortega", "Pellegrini",
        "Rahimi", "Sandoval", "Thorne", "Underwood", "Valcourt", "Winslow", "Zubiri",
        "Achterberg", "Bellamy", "Carvalho", "Drummond", "Ekström", "Fitzgerald"]
LAST_W = [4 if i < 12 else 1 for i in range(len(LAST))]  # some shared surnames
INITIALS = "ABCDEFGHJKLMNPRSTW"

N_CHEFS = 320
chefs = []
while len(chefs) < N_CHEFS:
    f = rng.choice(FIRST)
    l = rng.choices(LAST, LAST_W)[0]
    r = rng.random()
    if r < 0.15:
        nm = f"{f} {rng.choice(INITIALS)}. {l}"
    elif r < 0.2:
        nm = f"{f} {rng.choice(FIRST)} {l}"
    elif r < 0.24:
        nm = f"{f} {l}-{rng.choice(LAST)}"
    else:
        nm = f"{f} {l}"
    if not new_name(nm, "chef"):
        continue
    chefs.append(nm)

# ---------------------------------------------------------------- culinary schools
SCHOOLS = [("Lyon Institute of Culinary Arts", "Lyon"), ("Escuela de Cocina Zubiri", "San Sebastian"),
           ("Tokyo Kappo Academy", "Tokyo"), ("Hudson Valley Culinary College", "New York"),
           ("Bologna School of Pasta and Bread", "Bologna"), ("Le Cordon Argent", "Paris"),
           ("Copenhagen Food Lab School", "Copenhagen"), ("Westminster Catering College", "London"),
           ("Melbourne Hospitality Institute", "Melbourne"), ("Instituto Gastronómico de Oaxaca", "Oaxaca"),
           ("Montreal Academy of Cookery", "Montreal"), ("Osaka Tsuji Cooking Seminary", "Osaka")]
schools = []
for s, c in SCHOOLS:
    assert new_name(s, "school")
    schools.append(s)
    add(s, "dining.culinary_school.city", c)
school_w = [5, 2, 4, 4, 2, 5, 2, 3, 2, 1, 1, 2]

# ---------------------------------------------------------------- suppliers
SUP_PLACE = ["Ferrow Bay", "Kestrel Point", "Aldermoor", "Greywater", "Hollin Vale",
             "Marrow Creek", "Saltcote", "Brackenridge", "Dunmore Head", "Larkhill",
             "Oakhurst", "Pennock", "Ravensby", "Stillwater", "Thornbury", "Westerloo"]
SUP_KIND = {"Fish and Shellfish": ["Fisheries", "Shellfish Co.", "Oyster Beds"],
            "Meat": ["Butchery", "Heritage Meats"], "Poultry": ["Poultry Farm"],
            "Vegetable": ["Market Garden", "Growers", "Organic Farm"],
            "Fruit": ["Orchards"], "Grain": ["Mills", "Grain Cooperative"],
            "Dairy": ["Creamery", "Dairy"], "Spice": ["Spice Traders", "Spice House"],
            "Herb": ["Herb Nursery"], "Fungi": ["Foragers", "Mushroom Farm"],
            "Legume": ["Pulse Growers"], "Nut": ["Nut Company"]}
suppliers = []
sup_cat = {}
N_SUP = 58
cats = list(INGREDIENTS)
while len(suppliers) < N_SUP:
    cat = rng.choice(cats)
    if rng.random() < 0.3:
        nm = f"{rng.choice(LAST)} {rng.choice(SUP_KIND[cat])}"
    else:
        nm = f"{rng.choice(SUP_PLACE)} {rng.choice(SUP_KIND[cat])}"
    if not new_name(nm, "supplier"):
        continue
    suppliers.append(nm)
    sup_cat[nm] = cat
    add(nm, "dining.supplier.based_in", rng.choices(cities, city_w)[0])
    add(nm, "dining.supplier.year_founded", rng.randint(1890, 2019))
    pool = INGREDIENTS[cat]
    k = min(len(pool), rng.choice([2, 3, 3, 4, 5]))
    for x in rng.sample(pool, k):
        add(nm, "dining.supplier.supplies", x)
# a few big suppliers are hubs
sup_w = [6 if i < 6 else 1 for i in range(len(suppliers))]

# ---------------------------------------------------------------- guides, publishers, awards
PUBLISHERS = ["Larkspur Media", "Halden & Crane Publishing", "Bluefin Press", "Meridian Travel Books"]
for p in PUBLISHERS:
    assert new_name(p, "publisher")
GUIDES = [("Copper Whisk Guide", "Larkspur Media", 1958), ("Blue Plate Guide", "Bluefin Press", 1972),
          ("Tablemark", "Halden & Crane Publishing", 1989), ("Silver Spoon Index", "Larkspur Media", 2004),
          ("The Gastro Atlas", "Meridian Travel Books", 1996), ("Street Eats Almanac", "Bluefin Press", 2011),
          ("Good Table Compendium", "Halden & Crane Publishing", 1936)]
guides = []
for g, p, y in GUIDES:
    assert new_name(g, "guide")
    guides.append(g)
    add(g, "dining.guide.publisher", p)
    add(g, "dining.guide.first_edition_year", y)
guide_w = [5, 4, 3, 2, 3, 2, 2]
R_AWARDS = ["Three Toques", "Two Toques", "One Toque", "Golden Ladle", "Best New Restaurant",
            "Sustainability Star", "Wine List of the Year", "Neighbourhood Gem Award"]
C_AWARDS = ["Chef of the Year", "Rising Chef Award", "Pastry Chef of the Year",
            "Lifetime Achievement in Gastronomy", "Golden Knife Prize"]
for a in R_AWARDS + C_AWARDS:
    assert new_name(a, "award")

PRICE = ["Budget", "Moderate", "Upscale", "Fine Dining"]
PRICE_RANGE_EUR = {"Budget": (8, 25), "Moderate": (25, 55), "Upscale": (55, 120), "Fine Dining": (120, 420)}
STYLES = ["Table Service", "Counter Service", "Tasting Menu Only", "Food Hall Stall",
          "Chef's Counter", "Family Style"]
for p in PRICE + STYLES:
    assert new_name(p, "value")

# ---------------------------------------------------------------- restaurant groups
GROUP_PAT = ["{l} Hospitality", "{w} Restaurant Group", "{w} Collective", "{l} & Partners",
             "{w} Dining Co.", "{w} Hospitality Group"]
GW = ["Northbank", "Hearth", "Saltlick", "Brass Tack", "Ember", "Greenleaf", "Tidewater",
      "Lodestar", "Fig Tree", "Ironbark", "Marigold", "Keel", "Parallel", "Roundhouse",
      "Sable", "Twelve Bells"]
groups = []
N_GROUPS = 38
while len(groups) < N_GROUPS:
    pat = rng.choice(GROUP_PAT)
    nm = pat.format(l=rng.choice(LAST), w=rng.choice(GW))
    if not new_name(nm, "group"):
        continue
    groups.append(nm)
    add(nm, "dining.restaurant_group.headquarters", rng.choices(cities, city_w)[0])
    add(nm, "dining.restaurant_group.year_founded", rng.randint(1968, 2021))
group_w = [8, 6, 5, 4] + [1.3] * (N_GROUPS - 4)

# ---------------------------------------------------------------- restaurants
R_ADJ = ["Gilded", "Crooked", "Hungry", "Silver", "Velvet", "Wild", "Salted", "Golden",
         "Little", "Copper", "Quiet", "Drunken", "Painted", "Hidden", "Rusty", "Blue",
         "Green", "Lucky", "Hollow", "Ninth"]
R_NOUN = ["Fig", "Lantern", "Pig", "Heron", "Oyster", "Anchor", "Kettle", "Olive", "Fox",
          "Hearth", "Larder", "Swallow", "Quince", "Ember", "Pelican", "Thistle", "Juniper",
          "Mackerel", "Oak", "Pantry", "Bramble", "Crane", "Ladle", "Magpie"]
R_WORD = ["Lumen", "Ferro", "Sorrel", "Alba", "Brasa", "Halcyon", "Kōji", "Mirabelle",
          "Tavola", "Oriel", "Solstice", "Verdant", "Bellwether", "Caraway", "Ondine",
          "Saltbox", "Meridian", "Asado", "Bastide", "Hinoki", "Fumée", "Levain", "Pimentón",
          "Rye & Rook", "Aster", "Cassis", "Nami", "Olmo", "Quill", "Tamarind"]
R_PERSON = ["Lupo", "Bellerive", "Rosalind", "Carmela", "Toshiro", "Anselm", "Dolores",
            "Fiorella", "Ignatius", "Marguerite", "Bastien", "Odette", "Ottavio", "Pilar",
            "Ramona", "Severin", "Teodora", "Vesna", "Wendeline", "Yoshiko"]
R_PREFIX = {"Italian": ["Osteria", "Trattoria", "Enoteca"], "French": ["Maison", "Bistro", "Brasserie", "Chez"],
            "Japanese": ["Izakaya", "Sushi", "Kappo"], "Spanish": ["Casa", "Taberna", "Bar"],
            "Basque": ["Taberna", "Asador"], "Mexican": ["Cantina", "Taquería", "Casa"],
            "Portuguese": ["Tasca", "Casa"], "Korean": ["Jip"], "Greek": ["Taverna"],
            "Turkish": ["Meyhane"], "Lebanese": ["Beit"]}
R_SUFFIX = ["Kitchen", "House", "Bar & Grill", "Dining Room", "Canteen", "Supper Club",
            "Noodle Bar", "Wine Bar", "Eatery", "Smokehouse"]


def restaurant_name(cu):
    r = rng.random()
    if cu in R_PREFIX and r < 0.45:
        return f"{rng.choice(R_PREFIX[cu])} {rng.choice(R_PERSON + R_NOUN)}"
    if r < 0.6:
        return f"The {rng.choice(R_ADJ)} {rng.choice(R_NOUN)}"
    if r < 0.72:
        return rng.choice(R_WORD)
    if r < 0.85:
        return f"{rng.choice(R_NOUN)} {rng.choice(R_SUFFIX)}"
    if r < 0.93:
        return f"{rng.choice(R_NOUN)} & {rng.choice(R_NOUN)}"
    return f"{rng.choice(R_PERSON)}'s"


N_REST = 285
restaurants = []
rest_city = {}
rest_price = {}
rest_cuisines = {}
while len(restaurants) < N_REST:
    city = rng.choices(cities, city_w)[0]
    if city in CITY_CUISINE and rng.random() < 0.5:
        cu = CITY_CUISINE[city]
    else:
        cu = rng.choices(cuisines, cuisine_w)[0]
    nm = restaurant_name(cu)
    if not new_name(nm, "restaurant"):
        continue
    restaurants.append(nm)
    rest_city[nm] = city
    cus = [cu]
    if rng.random() < 0.3:
        c2 = rng.choices(cuisines, cuisine_w)[0]
        if c2 != cu:
            cus.append(c2)
    rest_cuisines[nm] = cus
    for c in cus:
        add(nm, "dining.restaurant.cuisine", c)
    add(nm, "dining.restaurant.city", city)
    if rng.random() < 0.93:
        add(nm, "dining.restaurant.neighborhood", rng.choice(neighbourhoods[city]))
    price = rng.choices(PRICE, [3, 5, 4, 2])[0]
    rest_price[nm] = price
    add(nm, "dining.restaurant.price_range", price)
    if price == "Fine Dining":
        style = rng.choices(STYLES, [3, 0, 5, 0, 2, 0])[0]
    elif price == "Budget":
        style = rng.choices(STYLES, [2, 4, 0, 3, 0, 1])[0]
    else:
        style = rng.choices(STYLES, [6, 1, 0, 0, 1, 2])[0]
    add(nm, "dining.restaurant.service_style", style)
    lo, hi = PRICE_RANGE_EUR[price]
    add(nm, "dining.restaurant.average_price_per_person", rng.randint(lo, hi))
    cap = rng.randint(10, 40) if style in ("Chef's Counter", "Tasting Menu Only", "Food Hall Stall") \
        else rng.randint(24, 240)
    add(nm, "dining.restaurant.seating_capacity", cap)
    add(nm, "dining.restaurant.year_opened", rng.choices(
        [rng.randint(1948, 1989), rng.randint(1990, 2009), rng.randint(2010, 2024)], [1, 3, 6])[0])
    # menu
    pool = []
    for c in cus:
        pool += dishes_by_cuisine.get(c, [])
    menu = []
    for _ in range(rng.choice([1, 2, 2, 3])):
        d = rng.choice(pool) if pool and rng.random() < 0.75 else rng.choice(dishes)
        if d not in menu:
            menu.append(d)
    for d in menu:
        add(nm, "dining.restaurant.menu_item", d)
    if rng.random() < 0.75:
        add(nm, "dining.restaurant.signature_dish", menu[0])
    # owner
    if rng.random() < 0.6:
        add(nm, "dining.restaurant.owner", rng.choices(groups, group_w)[0])
    # suppliers
    sups = []
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
        s = rng.choices(suppliers, sup_w)[0]
        if s not in sups:
            sups.append(s)
    for s in sups:
        add(nm, "dining.restaurant.supplier", s)
    # guides
    gp = {"Fine Dining": 0.95, "Upscale": 0.75, "Moderate": 0.45, "Budget": 0.35}[price]
    gl = []
    if rng.random() < gp:
        for _ in range(rng.choice([1, 1, 2, 3])):
            g = rng.choices(guides, guide_w)[0]
            if price == "Budget" and rng.random() < 0.6:
                g = "Street Eats Almanac"
            if g not in gl:
                gl.append(g)
    for g in gl:
        add(nm, "dining.restaurant.guide_listing", g)
    # awards
    if price == "Fine Dining" and rng.random() < 0.6:
        add(nm, "dining.restaurant.award", rng.choices(R_AWARDS[:3], [1, 2, 4])[0])
    if rng.random() < 0.18:
        add(nm, "dining.restaurant.award", rng.choice(R_AWARDS[3:]))

# ---------------------------------------------------------------- chef edges
heads = restaurants[:]
rng.shuffle(heads)
heads = heads[:262]
star_chefs = chefs[:10]          # hubs: many previous jobs, mentors of many
for i, ch in enumerate(chefs):
    if i < len(heads):
        add(ch, "dining.chef.head_chef_of", heads[i])
        home_city = rest_city[heads[i]]
    else:
        home_city = rng.choices(cities, city_w)[0]
    # nationality: mostly country of home city
    if rng.random() < 0.65:
        nat = next(co for co, cl in CITIES.items() if home_city in cl)
    else:
        nat = rng.choice(countries)
    add(ch, "dining.chef.nationality", nat)
    y = rng.randint(1948, 1998)
    add(ch, "dining.chef.date_of_birth", f"{y:04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
    if rng.random() < 0.7:
        add(ch, "dining.chef.trained_at", rng.choices(schools, school_w)[0])
    n_prev = rng.choice([3, 4, 5, 6]) if ch in star_chefs else rng.choice([0, 0, 1, 1, 1, 2, 2, 3])
    prev = []
    for _ in range(n_prev):
        same_city = [r for r in restaurants if rest_city[r] == home_city]
        r = rng.choice(same_city) if same_city and rng.random() < 0.5 else rng.choice(restaurants)
        if i < len(heads) and r == heads[i]:
            continue
        if r not in prev:
            prev.append(r)
    for r in prev:
        add(ch, "dining.chef.previously_worked_at", r)
    if ch not in star_chefs and rng.random() < 0.4:
        m = rng.choice(star_chefs) if rng.random() < 0.6 else rng.choice(chefs)
        if m != ch:
            add(ch, "dining.chef.mentor", m)
    if rng.random() < 0.12 or (ch in star_chefs and rng.random() < 0.7):
        add(ch, "dining.chef.award", rng.choices(C_AWARDS, [3, 4, 2, 1, 2])[0])

# group founders (chefs)
for g in groups:
    if rng.random() < 0.7:
        f = rng.choice(star_chefs) if rng.random() < 0.3 else rng.choice(chefs)
        add(g, "dining.restaurant_group.founder", f)

# ---------------------------------------------------------------- write
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

LIT = {"dining.restaurant.seating_capacity", "dining.restaurant.year_opened",
       "dining.restaurant.average_price_per_person", "dining.chef.date_of_birth",
       "dining.supplier.year_founded", "dining.restaurant_group.year_founded",
       "dining.guide.first_edition_year"}
ents = set()
for h, r, t in out:
    ents.add(h)
    if r not in LIT:
        ents.add(t)
rels = sorted({r for _, r, _ in out})
print(f"triples={len(out)} entities={len(ents)} relations={len(rels)}")
