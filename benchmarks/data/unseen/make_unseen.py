"""Build the zero-shot DEV knowledge graphs of issue #42 and their questions (standard library only).

    python benchmarks/data/unseen/make_unseen.py            # writes <kg>/kb.txt and <kg>/questions.jsonl

Three small KGs, each in its own domain and naming style (see README.md in this folder):

- ``geo``: geography, Freebase-style dotted relations, snake_case entity names with
  disambiguating parentheses (``georgia_(country)``, ``san_jose_(costa_rica)``);
- ``academia``: researchers and universities, camelCase relations, Title Case names with
  spaces, three relations stored in both directions with ``^-1`` inverses;
- ``music``: bands, albums, labels, Wikidata-style label relations with spaces, mixed-case names
  with digits and punctuation, three ``_inverse`` duplicates and a ``~has part`` inverse.

The KGs come from the hand-written seed lists below combined by a seeded ``random.Random``: the
same files on every run. The questions are hand-written (``<kg>/questions.src.jsonl``): the
text, the anchor and the gold relation path; ``answers`` are computed here by walking the path over the
triples, and a question whose answer set is empty or has more than 30 members is dropped.
``wording``, ``mention``, ``type`` and ``via_inverse`` are computed too (rules in README.md).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

MAX_ANSWERS = 30
MIN_QUESTIONS = 95

# ------------------------------------------------------------------------------------------------
# geo: Freebase style
# ------------------------------------------------------------------------------------------------

G = ["location.country.capital", "location.location.contains", "location.location.containedby", "location.country.currency_used", "location.country.official_language", "location.country.languages_spoken", "base.locations.countries.continent", "location.location.adjoins", "location.location.time_zones", "geography.river.basin_countries", "geography.river.mouth", "geography.river.cities", "geography.mountain.mountain_range", "geography.mountain_range.passes_through", "language.human_language.language_family"]

# country: continent, capital, currencies, official languages, other languages spoken, real cities
COUNTRIES = {
    "france": ("europe", "paris", "euro", "french", "breton arabic", "lyon marseille toulouse nice bordeaux"),
    "germany": ("europe", "berlin", "euro", "german", "turkish", "hamburg munich cologne frankfurt leipzig"),
    "spain": ("europe", "madrid", "euro", "spanish", "catalan basque galician",
              "barcelona valencia_(spain) seville cordoba_(spain) bilbao"),
    "italy": ("europe", "rome", "euro", "italian", "sardinian", "milan naples turin florence"),
    "portugal": ("europe", "lisbon", "euro", "portuguese", "", "porto coimbra braga"),
    "united_kingdom": ("europe", "london", "pound_sterling", "english", "welsh scottish_gaelic",
                       "birmingham_(united_kingdom) manchester glasgow perth_(united_kingdom) cardiff"),
    "ireland": ("europe", "dublin", "euro", "irish english", "", "cork galway"),
    "netherlands": ("europe", "amsterdam", "euro", "dutch", "frisian", "rotterdam utrecht the_hague"),
    "belgium": ("europe", "brussels", "euro", "dutch french german", "", "antwerp ghent liege"),
    "luxembourg_(country)": ("europe", "luxembourg_(city)", "euro", "luxembourgish french german", "", "esch-sur-alzette"),
    "switzerland": ("europe", "bern", "swiss_franc", "german french italian romansh", "", "zurich geneva basel"),
    "austria": ("europe", "vienna", "euro", "german", "", "graz salzburg innsbruck"),
    "poland": ("europe", "warsaw", "polish_zloty", "polish", "", "krakow gdansk wroclaw"),
    "czech_republic": ("europe", "prague", "czech_koruna", "czech", "slovak", "brno ostrava"),
    "hungary": ("europe", "budapest", "hungarian_forint", "hungarian", "", "debrecen szeged"),
    "sweden": ("europe", "stockholm", "swedish_krona", "swedish", "finnish", "gothenburg malmo uppsala"),
    "norway": ("europe", "oslo", "norwegian_krone", "norwegian", "sami", "bergen trondheim"),
    "finland": ("europe", "helsinki", "euro", "finnish swedish", "sami", "tampere turku"),
    "greece": ("europe", "athens", "euro", "greek", "", "thessaloniki patras"),
    "georgia_(country)": ("europe", "tbilisi", "georgian_lari", "georgian", "russian armenian", "batumi kutaisi"),
    "ukraine": ("europe", "kyiv", "ukrainian_hryvnia", "ukrainian", "russian", "kharkiv odesa lviv"),
    "russia": ("europe", "moscow", "russian_ruble", "russian", "tatar", "saint_petersburg kazan novosibirsk"),
    "turkey": ("asia", "ankara", "turkish_lira", "turkish", "kurdish", "istanbul izmir"),
    "japan": ("asia", "tokyo", "japanese_yen", "japanese", "", "osaka kyoto sapporo"),
    "china": ("asia", "beijing", "renminbi", "mandarin_chinese", "cantonese", "shanghai guangzhou chengdu"),
    "india": ("asia", "new_delhi", "indian_rupee", "hindi english", "bengali tamil telugu",
              "mumbai kolkata chennai hyderabad_(india)"),
    "pakistan": ("asia", "islamabad", "pakistani_rupee", "urdu english", "punjabi", "karachi lahore hyderabad_(pakistan)"),
    "indonesia": ("asia", "jakarta", "indonesian_rupiah", "indonesian", "javanese", "surabaya bandung"),
    "vietnam": ("asia", "hanoi", "vietnamese_dong", "vietnamese", "", "ho_chi_minh_city da_nang"),
    "thailand": ("asia", "bangkok", "thai_baht", "thai", "", "chiang_mai phuket"),
    "south_korea": ("asia", "seoul", "south_korean_won", "korean", "", "busan incheon"),
    "kuwait_(country)": ("asia", "kuwait_city", "kuwaiti_dinar", "arabic", "english", ""),
    "jordan_(country)": ("asia", "amman", "jordanian_dinar", "arabic", "", "irbid aqaba"),
    "iran": ("asia", "tehran", "iranian_rial", "persian", "kurdish", "isfahan tabriz"),
    "mongolia": ("asia", "ulaanbaatar", "mongolian_togrog", "mongolian", "", "erdenet"),
    "nepal": ("asia", "kathmandu", "nepalese_rupee", "nepali", "", "pokhara"),
    "egypt": ("africa", "cairo", "egyptian_pound", "arabic", "", "alexandria_(egypt) giza luxor"),
    "nigeria": ("africa", "abuja", "nigerian_naira", "english", "hausa yoruba igbo", "lagos kano ibadan"),
    "niger_(country)": ("africa", "niamey", "west_african_cfa_franc", "french", "hausa", "zinder"),
    "senegal": ("africa", "dakar", "west_african_cfa_franc", "french", "wolof", "saint-louis_(senegal)"),
    "kenya": ("africa", "nairobi", "kenyan_shilling", "english swahili", "", "mombasa kisumu"),
    "tanzania": ("africa", "dodoma", "tanzanian_shilling", "swahili english", "", "dar_es_salaam arusha"),
    "ethiopia": ("africa", "addis_ababa", "ethiopian_birr", "amharic", "oromo", "gondar"),
    "south_africa": ("africa", "pretoria", "south_african_rand", "english afrikaans zulu", "xhosa",
                     "cape_town johannesburg durban"),
    "morocco": ("africa", "rabat", "moroccan_dirham", "arabic berber", "french", "casablanca marrakesh fez"),
    "ghana": ("africa", "accra", "ghanaian_cedi", "english", "twi", "kumasi"),
    "djibouti_(country)": ("africa", "djibouti_(city)", "djiboutian_franc", "french arabic", "somali", ""),
    "united_states": ("north_america", "washington_d.c.", "united_states_dollar", "english", "spanish",
                      "new_york_city chicago san_jose_(united_states) alexandria_(united_states) birmingham_(united_states)"),
    "canada": ("north_america", "ottawa", "canadian_dollar", "english french", "", "toronto montreal vancouver london_(canada)"),
    "mexico": ("north_america", "mexico_city", "mexican_peso", "spanish", "nahuatl", "guadalajara monterrey"),
    "guatemala_(country)": ("north_america", "guatemala_city", "guatemalan_quetzal", "spanish", "kiche", "quetzaltenango"),
    "costa_rica": ("north_america", "san_jose_(costa_rica)", "costa_rican_colon", "spanish", "", "limon"),
    "panama_(country)": ("north_america", "panama_city", "panamanian_balboa united_states_dollar", "spanish", "", "colon_(panama)"),
    "cuba": ("north_america", "havana", "cuban_peso", "spanish", "", "santiago_de_cuba"),
    "dominican_republic": ("north_america", "santo_domingo", "dominican_peso", "spanish", "", "santiago_(dominican_republic)"),
    "brazil": ("south_america", "brasilia", "brazilian_real", "portuguese", "", "sao_paulo rio_de_janeiro salvador"),
    "argentina": ("south_america", "buenos_aires", "argentine_peso", "spanish", "", "cordoba_(argentina) rosario mendoza"),
    "chile": ("south_america", "santiago_(chile)", "chilean_peso", "spanish", "mapudungun", "valparaiso"),
    "peru": ("south_america", "lima", "peruvian_sol", "spanish quechua", "aymara", "cusco arequipa"),
    "colombia": ("south_america", "bogota", "colombian_peso", "spanish", "", "medellin cali"),
    "venezuela": ("south_america", "caracas", "venezuelan_bolivar", "spanish", "", "maracaibo valencia_(venezuela)"),
    "ecuador": ("south_america", "quito", "united_states_dollar", "spanish", "quechua", "guayaquil"),
    "bolivia": ("south_america", "sucre", "boliviano", "spanish quechua aymara", "", "la_paz santa_cruz_de_la_sierra"),
    "australia": ("oceania", "canberra", "australian_dollar", "english", "", "sydney melbourne perth_(australia)"),
    "new_zealand": ("oceania", "wellington", "new_zealand_dollar", "english maori", "", "auckland christchurch"),
    "fiji": ("oceania", "suva", "fijian_dollar", "english fijian", "fiji_hindi", "nadi"),
}

LANGUAGE_FAMILIES = {
    "indo-european": "french breton german spanish catalan galician italian sardinian portuguese english welsh "
                     "scottish_gaelic irish dutch frisian luxembourgish romansh polish czech slovak swedish "
                     "norwegian greek russian armenian ukrainian hindi urdu bengali punjabi persian kurdish "
                     "nepali afrikaans fiji_hindi",
    "afro-asiatic": "arabic amharic hausa berber somali oromo",
    "niger-congo": "yoruba igbo wolof swahili zulu xhosa twi",
    "uralic": "finnish hungarian sami",
    "turkic": "turkish tatar",
    "kartvelian": "georgian",
    "language_isolate": "basque",
    "sino-tibetan": "mandarin_chinese cantonese",
    "japonic": "japanese",
    "koreanic": "korean",
    "austronesian": "indonesian javanese maori fijian",
    "austroasiatic": "vietnamese",
    "kra-dai": "thai",
    "mongolic": "mongolian",
    "dravidian": "tamil telugu",
    "uto-aztecan": "nahuatl",
    "mayan": "kiche",
    "quechuan": "quechua",
    "aymaran": "aymara",
    "araucanian": "mapudungun",
}

TIME_ZONES = {
    "europe": "western_european_time central_european_time eastern_european_time moscow_time",
    "asia": "gulf_standard_time iran_standard_time india_standard_time indochina_time china_standard_time "
            "japan_standard_time korea_standard_time",
    "africa": "west_africa_time central_africa_time east_africa_time south_africa_standard_time",
    "north_america": "eastern_time_zone central_time_zone mountain_time_zone pacific_time_zone",
    "south_america": "brasilia_time argentina_time andean_time",
    "oceania": "australian_eastern_time new_zealand_time fiji_time",
}

# river: continent, mouth (a sea), countries it is known to cross first
RIVERS = {
    "danube": ("europe", "black_sea", "germany austria hungary"), "rhine": ("europe", "north_sea", "switzerland germany netherlands"),
    "loire": ("europe", "atlantic_ocean", "france"), "thames": ("europe", "north_sea", "united_kingdom"),
    "tagus": ("europe", "atlantic_ocean", "spain portugal"), "ebro": ("europe", "mediterranean_sea", "spain"),
    "po_(river)": ("europe", "adriatic_sea", "italy"), "elbe": ("europe", "north_sea", "czech_republic germany"),
    "vistula": ("europe", "baltic_sea", "poland"), "dnieper": ("europe", "black_sea", "russia ukraine"),
    "volga": ("europe", "caspian_sea", "russia"), "glomma": ("europe", "north_sea", "norway"),
    "nile": ("africa", "mediterranean_sea", "ethiopia egypt"), "niger_river": ("africa", "atlantic_ocean", "niger_(country) nigeria"),
    "senegal_river": ("africa", "atlantic_ocean", "senegal"), "limpopo": ("africa", "indian_ocean", "south_africa"),
    "volta": ("africa", "atlantic_ocean", "ghana"), "tana_(kenya)": ("africa", "indian_ocean", "kenya"),
    "ganges": ("asia", "bay_of_bengal", "india"), "indus": ("asia", "arabian_sea", "china india pakistan"),
    "yangtze": ("asia", "east_china_sea", "china"), "mekong": ("asia", "south_china_sea", "china thailand vietnam"),
    "jordan_river": ("asia", "dead_sea", "jordan_(country)"), "tigris": ("asia", "persian_gulf", "turkey"),
    "selenga": ("asia", "lake_baikal", "mongolia russia"),
    "mississippi_river": ("north_america", "gulf_of_mexico", "united_states"),
    "rio_grande": ("north_america", "gulf_of_mexico", "united_states mexico"),
    "st._lawrence_river": ("north_america", "atlantic_ocean", "canada united_states"),
    "amazon_river": ("south_america", "atlantic_ocean", "peru colombia brazil"),
    "parana_river": ("south_america", "atlantic_ocean", "brazil argentina"),
    "orinoco": ("south_america", "atlantic_ocean", "venezuela colombia"),
    "murray_river": ("oceania", "indian_ocean", "australia"), "waikato_river": ("oceania", "tasman_sea", "new_zealand"),
}

# range: continent, countries first; mountains of the range
RANGES = {
    "alps": ("europe", "france switzerland italy austria", "mont_blanc matterhorn zugspitze grossglockner monte_rosa"),
    "pyrenees": ("europe", "spain france", "aneto monte_perdido"),
    "carpathians": ("europe", "poland ukraine", "gerlachovsky_stit hoverla"),
    "caucasus_mountains": ("europe", "georgia_(country) russia", "elbrus kazbek shkhara"),
    "ural_mountains": ("europe", "russia", "mount_narodnaya"),
    "scandinavian_mountains": ("europe", "norway sweden", "galdhopiggen kebnekaise"),
    "himalayas": ("asia", "nepal china india", "mount_everest kangchenjunga annapurna lhotse"),
    "karakoram": ("asia", "pakistan china", "k2 broad_peak"),
    "zagros_mountains": ("asia", "iran", "zard-kuh"),
    "atlas_mountains": ("africa", "morocco", "toubkal"),
    "ethiopian_highlands": ("africa", "ethiopia", "ras_dashen"),
    "drakensberg": ("africa", "south_africa", "mafadi"),
    "rocky_mountains": ("north_america", "united_states canada", "mount_elbert mount_robson pikes_peak"),
    "sierra_madre_oriental": ("north_america", "mexico", "cerro_san_rafael"),
    "andes": ("south_america", "argentina chile peru bolivia ecuador", "aconcagua chimborazo huascaran illimani ojos_del_salado"),
    "great_dividing_range": ("oceania", "australia", "mount_kosciuszko"),
    "southern_alps": ("oceania", "new_zealand", "aoraki mount_tasman"),
}

SYLLABLES = ["ka", "ro", "vel", "mi", "tor", "an", "sa", "lu", "ber", "do", "na", "ri", "vo", "zen", "mar", "tel", "os", "in", "ga", "li", "sen", "bra", "du", "ke", "ta", "mon", "pel"]


def _words(text: str) -> list[str]:
    return text.split()


def build_geo(rng: random.Random) -> list[tuple[str, str, str]]:
    cap, contains, containedby, currency, official, spoken, continent_of, adjoins, tz, basin, mouth, rcities, mrange, \
        passes, family = G
    triples: set[tuple[str, str, str]] = set()
    cities: dict[str, list[str]] = {}
    taken = {c for c in COUNTRIES}
    for v in COUNTRIES.values():
        taken.add(v[1])
        taken.update(_words(v[5]))

    def synthetic_city() -> str:
        while True:
            name = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3))))
            name = rng.choice(("{}", "{}", "{}", "port_{}", "{}_springs", "new_{}", "{}_bay", "san_{}"))\
                .format(name)
            if name not in taken:
                taken.add(name)
                return name

    by_continent: dict[str, list[str]] = defaultdict(list)
    for country, (cont, capital, cur, off, spk, real) in COUNTRIES.items():
        by_continent[cont].append(country)
        triples.add((country, continent_of, cont))
        triples.add((cont, contains, country))
        triples.add((country, cap, capital))
        for c in _words(cur):
            triples.add((country, currency, c))
        for lang in _words(off):
            triples.add((country, official, lang))
            triples.add((country, spoken, lang))
        for lang in _words(spk):
            triples.add((country, spoken, lang))
        cs = [capital, *_words(real)]
        cs += [synthetic_city() for _ in range(max(0, rng.randint(6, 8) - len(cs)))]
        cities[country] = cs
        zones = _words(TIME_ZONES[cont])
        own = rng.sample(zones, 2 if country in ("united_states", "russia", "canada", "australia", "brazil") else 1)
        for z in own:
            triples.add((country, tz, z))
        for c in cs:
            triples.add((country, contains, c))
            triples.add((c, containedby, country))
            triples.add((c, tz, rng.choice(own)))
    for cont, members in by_continent.items():  # borders: a random sparse symmetric graph per continent
        for a in members:
            for b in rng.sample([m for m in members if m != a], rng.randint(1, 2)):
                triples.add((a, adjoins, b))
                triples.add((b, adjoins, a))
    for family_name, langs in LANGUAGE_FAMILIES.items():
        for lang in _words(langs):
            triples.add((lang, family, family_name))
    for river, (cont, sea, first) in RIVERS.items():
        crossed = _words(first)
        extra = [c for c in by_continent[cont] if c not in crossed]
        crossed += rng.sample(extra, rng.randint(0, 2))
        for c in crossed:
            triples.add((river, basin, c))
        triples.add((river, mouth, sea))
        for c in crossed[:3]:
            for city in rng.sample(cities[c], rng.randint(1, 2)):
                triples.add((river, rcities, city))
    for rng_name, (cont, first, peaks) in RANGES.items():
        crossed = _words(first)
        for c in crossed:
            triples.add((rng_name, passes, c))
        for p in _words(peaks):
            triples.add((p, mrange, rng_name))
            triples.add((p, containedby, rng.choice(crossed)))
        for k in range(rng.randint(1, 3)):  # lesser peaks with made-up names
            peak = "mount_" + "".join(rng.choice(SYLLABLES) for _ in range(2))
            if peak not in taken:
                taken.add(peak)
                triples.add((peak, mrange, rng_name))
                triples.add((peak, containedby, rng.choice(crossed)))
    return sorted(triples)


# ------------------------------------------------------------------------------------------------
# academia: camelCase relations, Title Case names, ^-1 inverses
# ------------------------------------------------------------------------------------------------

FIRST = ["Ingrid", "Tomas", "Amara", "Kenji", "Lucia", "Pavel", "Noor", "Henrik", "Sofia", "Mateo", "Elif", "Dmitri", "Aiko", "Rafael", "Greta", "Yusuf", "Clara", "Olu", "Mei", "Anders", "Beatriz", "Farid", "Hanna", "Ivan", "Leila", "Marco", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Stefan", "Tariq", "Ursula", "Viktor", "Wen", "Ximena", "Yara", "Zoltan", "Agnes", "Bruno", "Chiara", "Darius", "Esther", "Felix", "Gudrun", "Hugo", "Irene", "Jonas", "Katya", "Lars"]
LAST = ["Halvorsen", "Novak", "Okafor", "Tanaka", "Moreau", "Petrov", "Haddad", "Lindqvist", "Rossi", "Alvarez", "Yilmaz", "Sokolov", "Mori", "Carvalho", "Becker", "Rahman", "Dubois", "Adeyemi", "Chen", "Nilsson", "Ferreira", "Karimi", "Virtanen", "Ivanova", "Mansour", "Bianchi", "Kowalski", "Brandt", "Iyer", "Lefebvre", "Navarro", "Horvat", "Qureshi", "Schmidt", "Weiss", "Zhou", "Castillo", "Farouk", "Szabo", "Eriksen", "Hoffmann", "Conti", "Marquez", "Lund", "Keller", "Nakamura", "Osei", "Pereira", "Rinaldi", "Stein", "Varga", "Wolff", "Yamada", "Zeller", "Abara", "Bergstrom"]

# university: city
UNIVERSITIES = {
    "University of Oslo": "Oslo", "University of Bergen": "Bergen", "ETH Zurich": "Zurich", "University of Zurich": "Zurich",
    "University of Geneva": "Geneva", "Sorbonne University": "Paris", "École Normale Supérieure": "Paris",
    "University of Lyon": "Lyon", "Heidelberg University": "Heidelberg", "Technical University of Munich": "Munich",
    "Humboldt University of Berlin": "Berlin", "University of Göttingen": "Göttingen", "Uppsala University": "Uppsala",
    "Lund University": "Lund", "University of Copenhagen": "Copenhagen", "Leiden University": "Leiden",
    "Delft University of Technology": "Delft", "KU Leuven": "Leuven", "University of Vienna": "Vienna",
    "Charles University": "Prague", "Jagiellonian University": "Kraków", "University of Warsaw": "Warsaw",
    "University of Bologna": "Bologna", "University of Padua": "Padua", "Complutense University of Madrid": "Madrid",
    "University of Lisbon": "Lisbon", "University of Edinburgh": "Edinburgh", "University of Cambridge": "Cambridge",
    "University of Oxford": "Oxford", "Trinity College Dublin": "Dublin", "University of Helsinki": "Helsinki",
    "University of Toronto": "Toronto", "McGill University": "Montreal", "University of Melbourne": "Melbourne",
    "Australian National University": "Canberra", "Peking University": "Beijing", "Tsinghua University": "Beijing",
    "University of Tokyo": "Tokyo", "Kyoto University": "Kyoto", "Seoul National University": "Seoul",
    "Indian Institute of Science": "Bangalore", "University of Cape Town": "Cape Town", "Cairo University": "Cairo",
    "University of Buenos Aires": "Buenos Aires", "University of São Paulo": "São Paulo",
    "National Autonomous University of Mexico": "Mexico City", "Princeton University": "Princeton",
    "Harvard University": "Cambridge, Massachusetts", "Massachusetts Institute of Technology": "Cambridge, Massachusetts",
    "University of Chicago": "Chicago", "California Institute of Technology": "Pasadena", "Columbia University": "New York City",
    "Stanford University": "Stanford",
}
INSTITUTES = {
    "Max Planck Institute for Physics": "Munich", "CERN": "Geneva", "Bell Labs": "Murray Hill",
    "IBM Research": "Yorktown Heights", "Institute for Advanced Study": "Princeton", "Pasteur Institute": "Paris",
    "RIKEN": "Wako", "Perimeter Institute": "Waterloo", "Los Alamos National Laboratory": "Los Alamos",
    "Weizmann Institute of Science": "Rehovot", "Karolinska Institute": "Stockholm", "Niels Bohr Institute": "Copenhagen",
}
CITY_COUNTRY = {
    "Norway": "Oslo Bergen Trondheim Tromsø", "Switzerland": "Zurich Geneva Basel Lausanne",
    "France": "Paris Lyon Marseille Toulouse", "Germany": "Heidelberg Munich Berlin Göttingen Hamburg Leipzig",
    "Sweden": "Uppsala Lund Stockholm Gothenburg", "Denmark": "Copenhagen Aarhus", "Netherlands": "Leiden Delft Amsterdam",
    "Belgium": "Leuven Ghent", "Austria": "Vienna Graz", "Czech Republic": "Prague Brno", "Poland": "Kraków Warsaw Łódź",
    "Italy": "Bologna Padua Turin Naples", "Spain": "Madrid Seville", "Portugal": "Lisbon Porto",
    "United Kingdom": "Edinburgh Cambridge Oxford Manchester", "Ireland": "Dublin Cork", "Finland": "Helsinki Tampere",
    "Canada": "Toronto Montreal Waterloo", "Australia": "Melbourne Canberra Perth", "China": "Beijing Shanghai Wuhan",
    "Japan": "Tokyo Kyoto Wako Nagoya", "South Korea": "Seoul Busan", "India": "Bangalore Chennai Pune",
    "South Africa": "Cape Town Durban", "Egypt": "Cairo Alexandria", "Argentina": "Buenos Aires Rosario",
    "Brazil": "São Paulo Recife", "Mexico": "Mexico City Puebla", "Israel": "Rehovot Haifa",
    "United States": "Princeton Chicago Pasadena Stanford Murray Hill Yorktown Heights Los Alamos",
}
MULTIWORD_CITIES = ["Cambridge, Massachusetts", "New York City", "Cape Town", "Buenos Aires", "São Paulo", "Mexico City",
                    "Murray Hill", "Yorktown Heights", "Los Alamos"]

# field: parent field ("" = a root)
FIELDS = {
    "Physics": "", "Quantum Mechanics": "Physics", "Particle Physics": "Physics", "Condensed Matter Physics": "Physics",
    "Astrophysics": "Physics", "Chemistry": "", "Organic Chemistry": "Chemistry", "Biochemistry": "Chemistry",
    "Physical Chemistry": "Chemistry", "Mathematics": "", "Number Theory": "Mathematics", "Topology": "Mathematics",
    "Algebraic Geometry": "Mathematics", "Probability Theory": "Mathematics", "Computer Science": "",
    "Machine Learning": "Computer Science", "Cryptography": "Computer Science", "Programming Languages": "Computer Science",
    "Theory of Computation": "Computer Science", "Biology": "", "Genetics": "Biology", "Neuroscience": "Biology",
    "Ecology": "Biology", "Immunology": "Biology", "Economics": "", "Game Theory": "Economics", "Econometrics": "Economics",
    "Linguistics": "", "Phonology": "Linguistics", "Historical Linguistics": "Linguistics",
}
# award: presenting body, root field
AWARDS = {
    "Nobel Prize in Physics": ("Royal Swedish Academy of Sciences", "Physics"),
    "Dirac Medal": ("International Centre for Theoretical Physics", "Physics"),
    "Max Planck Medal": ("German Physical Society", "Physics"),
    "Breakthrough Prize in Fundamental Physics": ("Breakthrough Prize Foundation", "Physics"),
    "Nobel Prize in Chemistry": ("Royal Swedish Academy of Sciences", "Chemistry"),
    "Priestley Medal": ("American Chemical Society", "Chemistry"),
    "Davy Medal": ("Royal Society", "Chemistry"),
    "Fields Medal": ("International Mathematical Union", "Mathematics"),
    "Abel Prize": ("Norwegian Academy of Science and Letters", "Mathematics"),
    "Wolf Prize in Mathematics": ("Wolf Foundation", "Mathematics"),
    "Turing Award": ("Association for Computing Machinery", "Computer Science"),
    "Gödel Prize": ("European Association for Theoretical Computer Science", "Computer Science"),
    "Knuth Prize": ("Association for Computing Machinery", "Computer Science"),
    "Lasker Award": ("Lasker Foundation", "Biology"),
    "Crafoord Prize": ("Royal Swedish Academy of Sciences", "Biology"),
    "Copley Medal": ("Royal Society", "Biology"),
    "Nobel Memorial Prize in Economic Sciences": ("Royal Swedish Academy of Sciences", "Economics"),
    "John Bates Clark Medal": ("American Economic Association", "Economics"),
    "Neugebauer Prize": ("Philological Society", "Linguistics"),
    "Leonard Bloomfield Book Award": ("Linguistic Society of America", "Linguistics"),
}
ORG_CITY = {"Royal Swedish Academy of Sciences": "Stockholm", "International Centre for Theoretical Physics": "Trieste",
            "German Physical Society": "Berlin", "Breakthrough Prize Foundation": "Stanford",
            "American Chemical Society": "Washington", "Royal Society": "London", "International Mathematical Union": "Berlin",
            "Norwegian Academy of Science and Letters": "Oslo", "Wolf Foundation": "Herzliya",
            "Association for Computing Machinery": "New York City",
            "European Association for Theoretical Computer Science": "Brussels", "Lasker Foundation": "New York City",
            "American Economic Association": "Nashville", "Philological Society": "London",
            "Linguistic Society of America": "Washington"}
EXTRA_CITY_COUNTRY = {"Trieste": "Italy", "Washington": "United States", "London": "United Kingdom", "Herzliya": "Israel",
                      "Brussels": "Belgium", "Nashville": "United States"}


def build_academia(rng: random.Random) -> list[tuple[str, str, str]]:
    triples: set[tuple[str, str, str]] = set()

    def both(h: str, r: str, t: str) -> None:
        triples.add((h, r, t))
        triples.add((t, f"{r}^-1", h))

    city_country = {}
    for country, cities in CITY_COUNTRY.items():
        rest = cities
        for multi in MULTIWORD_CITIES:
            if multi in rest:
                city_country[multi] = country
                rest = rest.replace(multi, "")
        for c in rest.split():
            city_country[c] = country
    city_country.update(EXTRA_CITY_COUNTRY)
    for c, country in city_country.items():
        triples.add((c, "country", country))
    for u, c in {**UNIVERSITIES, **INSTITUTES}.items():
        triples.add((u, "locatedIn", c))
    for f, parent in FIELDS.items():
        if parent:
            triples.add((f, "subfieldOf", parent))
    for a, (org, _) in AWARDS.items():
        triples.add((a, "presentedBy", org))
    for org, c in ORG_CITY.items():
        triples.add((org, "locatedIn", c))
    names = sorted({f"{f} {s}" for f in FIRST for s in LAST})
    people = rng.sample(names, 720)
    universities, institutes = sorted(UNIVERSITIES), sorted(INSTITUTES)
    subfields: dict[str, list[str]] = defaultdict(list)
    for f, parent in FIELDS.items():
        if parent:
            subfields[parent].append(f)
    roots = sorted(subfields)
    cities = sorted(city_country)
    generation: dict[int, list[str]] = defaultdict(list)
    root_of: dict[str, str] = {}
    for i, p in enumerate(people):
        gen = 0 if i < 70 else rng.choices((1, 2, 3, 4), (3, 3, 2, 2))[0]
        generation[gen].append(p)
        root = rng.choice(roots)
        if gen:  # a student mostly works in the advisor's root field
            cands = [q for g in range(gen) for q in generation[g]]
            same = [q for q in cands if root_of[q] == root] or cands
            advisor = rng.choice(same if rng.random() < 0.85 else cands)
            root = root_of[advisor]
            both(p, "doctoralAdvisor", advisor)
            if rng.random() < 0.08:  # a co-advisor
                both(p, "doctoralAdvisor", rng.choice(cands))
        root_of[p] = root
        for f in rng.sample(subfields[root], rng.choice((1, 1, 2))):
            triples.add((p, "researchField", f))
        if rng.random() < 0.15:
            triples.add((p, "researchField", root))
        for u in rng.sample(universities, rng.choices((1, 2), (4, 1))[0]):
            triples.add((p, "almaMater", u))
        triples.add((p, "birthPlace", rng.choice(cities)))
        for e in rng.sample(universities, rng.choice((1, 1, 2))):
            both(p, "employer", e)
        if rng.random() < 0.25:
            both(p, "employer", rng.choice(institutes))
        if rng.random() < 0.22:
            awards = [a for a, (_, r) in AWARDS.items() if r == root]
            for a in rng.sample(awards, rng.choice((1, 1, 1, 2))):
                both(p, "award", a)
    return sorted(triples)


# ------------------------------------------------------------------------------------------------
# music: Wikidata label relations, mixed-case names, _inverse and ~ inverses
# ------------------------------------------------------------------------------------------------

ADJ = ["Velvet", "Neon", "Paper", "Hollow", "Electric", "Silver", "Broken", "Golden", "Midnight", "Static", "Crimson", "Quiet", "Wild", "Northern", "Lunar", "Glass", "Rusty", "Honey", "Atomic", "Faded", "Pale", "Violet", "Savage", "Tender", "Cosmic", "Iron", "Sleepy", "Burning", "Frozen", "Lost"]
NOUN = ["Foxes", "Lanterns", "Harbor", "Engines", "Ghosts", "Tigers", "Rivers", "Satellites", "Owls", "Parade", "Machines", "Echoes", "Sparrows", "Wolves", "Comets", "Pilots", "Saints", "Waves", "Mirrors", "Horses", "Monks", "Gardens", "Signals", "Strangers", "Thieves", "Kings", "Dolls", "Rockets"]
SINGULAR = ["Fox", "Lantern", "Harbor", "Engine", "Ghost", "Tiger", "River", "Satellite", "Owl", "Parade", "Machine", "Echo", "Sparrow", "Wolf", "Comet", "Pilot", "Saint", "Wave", "Mirror", "Horse", "Monk", "Garden", "Signal", "Stranger", "Thief", "King", "Doll", "Rocket", "Heart", "Summer", "Winter", "Static", "Motel", "Ocean", "Desert", "Radio", "Highway", "Silence", "Fever", "Window", "Candle"]
MFIRST = ["Ada", "Bram", "Cleo", "Dario", "Edie", "Finn", "Gia", "Hal", "Ines", "Jude", "Kai", "Lena", "Milo", "Nia", "Otto", "Pia", "Remy", "Suki", "Theo", "Uma", "Vince", "Wren", "Xavi", "Yoko", "Zane", "Alba", "Boris", "Cass", "Dex", "Esme", "Fritz", "Greer", "Hugo", "Isla", "Joel", "Kira", "Luca", "Maya", "Nico", "Odile"]
MLAST = ["Vance", "Okoro", "Lindgren", "Sato", "Moreno", "Kaplan", "Duarte", "Fischer", "Quinn", "Ahlberg", "Brooks", "Castell", "Dahl", "Ebert", "Fontaine", "Garnier", "Holt", "Ishikawa", "Jansen", "Kovacs", "Laine", "Mbeki", "Nyström", "Ortega", "Pryce", "Reyes", "Strand", "Takeda", "Ueda", "Voss", "Whitlock", "Yanez", "Zima", "Abbott", "Bauer", "Cruz", "Delacroix", "Eklund", "Falk"]
LABELS = ["Sub Pop 2", "Rough Trade Recs.", "4AD North", "Warp & Weft", "Matador Sound", "XL Sonics", "Blue Note 9",
          "Domino Rec. Co.", "Ninja Tunes Ltd.", "Stax-O-Matic", "Motown West", "K7! Records", "Merge Audio",
          "Secretly Canadian Inc.", "Polyvinyl Press", "Ghostly Int'l", "Hyperdub-X", "Jagjaguwar 3", "Epitaph Ltd.",
          "Drag City Works", "Island Tone", "Factory 23", "Mute (UK)", "Mute (US)", "Chess & Sons"]
PARENT_LABELS = {"Mute (US)": "Mute (UK)", "Island Tone": "Factory 23", "XL Sonics": "Warp & Weft",
                 "Blue Note 9": "Motown West", "Hyperdub-X": "Warp & Weft", "K7! Records": "Ninja Tunes Ltd.",
                 "Jagjaguwar 3": "Secretly Canadian Inc.", "Motown West": "Chess & Sons"}
# genre: parent genre
GENRES = {"rock": "", "indie rock": "rock", "post-punk": "rock", "shoegaze": "indie rock", "punk rock": "rock",
          "electronic": "", "synth-pop": "electronic", "techno": "electronic", "trip hop": "electronic",
          "IDM": "electronic", "jazz": "", "bebop": "jazz", "jazz fusion": "jazz", "folk": "", "indie folk": "folk",
          "hip hop": "", "trap": "hip hop", "boom bap": "hip hop", "R&B": "", "neo-soul": "R&B", "metal": "rock",
          "doom metal": "metal", "black metal": "metal", "pop": "", "K-pop": "pop", "dream pop": "pop"}
INSTRUMENTS = ["electric guitar", "bass guitar", "drum kit", "synthesizer", "piano", "violin", "saxophone", "trumpet",
               "turntables", "cello", "Hammond B-3", "Roland TR-808", "double bass", "banjo", "theremin", "vocals"]
MCITIES = {"Manchester": "United Kingdom", "Bristol": "United Kingdom", "Glasgow": "United Kingdom",
           "Seattle": "United States", "Detroit": "United States", "Athens, GA": "United States",
           "Chicago": "United States", "Montréal": "Canada", "Toronto": "Canada", "Reykjavík": "Iceland",
           "Berlin": "Germany", "Düsseldorf": "Germany", "Gothenburg": "Sweden", "Bergen": "Norway", "Tokyo": "Japan",
           "Osaka": "Japan", "Seoul": "South Korea", "Melbourne": "Australia", "Lagos": "Nigeria", "Paris": "France",
           "Lyon": "France", "São Paulo": "Brazil", "Mexico City": "Mexico", "Dublin": "Ireland",
           "Helsinki": "Finland"}
LABEL_COUNTRY = {"Mute (UK)": "United Kingdom", "Mute (US)": "United States"}


def key(name: str) -> str:
    """A name as the evaluation compares answers (case, punctuation and articles aside)."""
    return " ".join(w for w in re.split(r"[^0-9a-z]+", name.lower()) if w and w not in ("a", "an", "the"))


def build_music(rng: random.Random) -> list[tuple[str, str, str]]:
    triples: set[tuple[str, str, str]] = set()
    taken: set[str] = set()

    def fresh(styles) -> str:
        while True:
            name = rng.choice(styles)()
            if name not in taken:
                taken.add(name)
                return name

    def inv(h: str, r: str, t: str) -> None:
        triples.add((h, r, t))
        triples.add((t, f"{r}_inverse", h))

    band_styles = [
        lambda: f"The {rng.choice(ADJ)} {rng.choice(NOUN)}",
        lambda: f"{rng.choice(SINGULAR)} {rng.randint(2, 99)}",
        lambda: f"{rng.choice(ADJ)}{rng.choice(SINGULAR)}",
        lambda: f"{rng.choice(SINGULAR)} & the {rng.choice(NOUN)}",
        lambda: ".".join(rng.choice("ABCDKMRSTVXZ") for _ in range(3)) + ".",
        lambda: f"{rng.choice(ADJ).upper()} {rng.choice(NOUN).lower()}",
        lambda: f"{rng.choice(SINGULAR)}/{rng.choice(SINGULAR)}",
        lambda: f"!{rng.choice(SINGULAR)}",
    ]
    album_styles = [
        lambda: f"{rng.choice(ADJ)} {rng.choice(SINGULAR)}",
        lambda: f"{rng.choice(SINGULAR)} No. {rng.randint(1, 9)}",
        lambda: f"Songs for {rng.choice(NOUN)}",
        lambda: f"{rng.choice(SINGULAR)}: Live in {rng.choice(sorted(MCITIES))}",
        lambda: f"{rng.choice(ADJ)} {rng.choice(NOUN)} (Deluxe)",
        lambda: f"{rng.randint(1971, 2023)} {rng.choice(NOUN)}",
        lambda: f"Vol. {rng.randint(2, 6)}: {rng.choice(ADJ)}",
    ]
    track_styles = [
        lambda: f"{rng.choice(ADJ)} {rng.choice(SINGULAR)} Blues",
        lambda: f"{rng.choice(SINGULAR)} ({rng.choice(('Reprise', 'Demo', 'Live', 'Edit', 'Dub'))})",
        lambda: f"Call Me {rng.choice(SINGULAR)}",
        lambda: f"{rng.choice(SINGULAR)} in {rng.choice(SINGULAR)}",
        lambda: f"{rng.choice(('Hey', 'Oh', 'No', 'Run', 'Stay', 'Go'))}, {rng.choice(SINGULAR)}!",
        lambda: f"{rng.randint(1, 12)}:{rng.choice(('00', '15', '30', '45'))} {rng.choice(ADJ)}",
        lambda: f"{rng.choice(ADJ)} {rng.choice(NOUN)} Pt. {rng.randint(1, 3)}",
    ]
    musician_styles = [
        lambda: f"{rng.choice(MFIRST)} {rng.choice(MLAST)}",
        lambda: f"{rng.choice(MFIRST)} {rng.choice(MLAST)}",
        lambda: f"{rng.choice(MFIRST)} {rng.choice(MLAST)}",
        lambda: f"DJ {rng.choice(MFIRST)}-{rng.randint(1, 9)}",
        lambda: f"Lil' {rng.choice(MLAST)}",
        lambda: f"{rng.choice(MFIRST)} {rng.choice('ABCDEFGHJKLMNOPRSTVW')}.",
    ]
    seeds = {*MCITIES.values(), *MCITIES, *LABELS, *GENRES, *INSTRUMENTS}
    taken.update(seeds)
    for c, country in MCITIES.items():
        triples.add((c, "country", country))
    label_country = {}
    for label in LABELS:
        label_country[label] = LABEL_COUNTRY.get(label) or rng.choice(sorted(set(MCITIES.values())))
        triples.add((label, "country", label_country[label]))
    for child, parent in PARENT_LABELS.items():
        triples.add((child, "parent organization", parent))
    for g, parent in GENRES.items():
        if parent:
            triples.add((g, "subclass of", parent))
    bands = [fresh(band_styles) for _ in range(150)]
    musicians = []
    for _ in range(470):
        musicians.append(fresh(musician_styles))
    band_genre: dict[str, list[str]] = {}
    cities = sorted(MCITIES)
    for b in bands:
        city = rng.choice(cities)
        triples.add((b, "location of formation", city))
        triples.add((b, "country of origin", MCITIES[city]))
        band_genre[b] = rng.sample(sorted(GENRES), rng.choice((1, 1, 2)))
        for g in band_genre[b]:
            triples.add((b, "genre", g))
    members: dict[str, list[str]] = defaultdict(list)
    for i, m in enumerate(musicians):
        band = bands[i % len(bands)] if i < 2 * len(bands) else rng.choice(bands)
        inv(m, "member of", band)
        members[band].append(m)
        if rng.random() < 0.12:
            other = rng.choice(bands)
            inv(m, "member of", other)
            members[other].append(m)
        for ins in rng.sample(INSTRUMENTS, rng.choice((1, 1, 2))):
            triples.add((m, "instrument", ins))
    for b in bands:
        for other in rng.sample([x for x in bands if x != b], rng.choice((0, 1, 1, 2))):
            triples.add((b, "influenced by", other))
    for b in bands:
        label = rng.choice(LABELS)
        for _ in range(rng.randint(1, 4)):
            album = fresh(album_styles)
            inv(album, "performer", b)
            inv(album, "record label", label if rng.random() < 0.75 else rng.choice(LABELS))
            triples.add((album, "publication date", str(rng.randint(1968, 2024))))
            if rng.random() < 0.7:
                triples.add((album, "producer", rng.choice(musicians if rng.random() < 0.3 else members[b])))
            for _ in range(rng.randint(2, 4)):
                track = fresh(track_styles)
                triples.add((album, "has part", track))
                triples.add((track, "~has part", album))
    # names that the evaluation's normalisation would not tell apart ("LOST kings", "The Lost Kings"):
    # a seed name stays, a made-up one gets " II"
    names = sorted({h for h, _, _ in triples} | {t for _, _, t in triples}, key=lambda n: (n not in seeds, n))
    first: dict[str, str] = {}
    rename = {}
    for n in names:
        if key(n) in first:
            rename[n] = f"{n} II"
        else:
            first[key(n)] = n
    assert not {key(n) for n in rename.values()} & set(first)
    return sorted((rename.get(h, h), r, rename.get(t, t)) for h, r, t in triples)


BUILDERS = {"geo": build_geo, "academia": build_academia, "music": build_music}
SEEDS = {"geo": 4201, "academia": 4202, "music": 4203}

# ------------------------------------------------------------------------------------------------
# questions: answers walked over the triples; labels computed
# ------------------------------------------------------------------------------------------------

STOP = {"a", "an", "the", "of", "in", "on", "at", "to", "by", "for", "from", "with", "and", "or", "is", "are", "was", "were", "be", "been", "do", "does", "did", "has", "have", "had", "what", "which", "who", "whom", "whose", "where", "when", "how", "why", "list", "name", "give", "tell", "me", "show", "all", "any", "that", "this", "these", "those", "it", "its", "there", "their", "they", "them", "s", "used"}


def base_relation(rel: str) -> tuple[str, bool]:
    """The relation a stored name stands for and whether the name marks the inverse direction."""
    if rel.endswith("^-1"):
        return rel[:-3], True
    if rel.endswith("_inverse"):
        return rel[: -len("_inverse")], True
    if rel.startswith("~"):
        return rel[1:], True
    return rel, False


def relation_words(rel: str) -> list[str]:
    """The content words of a relation's name: the last segment of a dotted path, camelCase and
    snake_case split, inverse markers and stop words dropped."""
    base, _ = base_relation(rel)
    base = base.rsplit(".", 1)[-1]
    base = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", base)
    return [w for w in re.split(r"[^a-z0-9]+", base.lower()) if w and w not in STOP]


def stem(word: str) -> str:
    """A crude stem: a plural ending, then one derivational ending (if 4 letters stay), then a final
    "e" dropped, cut to 5 letters ("members"/"member", "genres"/"genre", "formed"/"formation")."""
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in ("ation", "ion", "ing", "ed", "er", "al"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    return word[:5]


def question_words(question: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", question.lower()) if w and w not in STOP]


def is_lexical(question: str, path: list[list[str]], anchors: list[str]) -> bool:
    """Whether every relation on the gold path is named in the question's own words: some content
    word of the question (the anchor's words left out) shares a stem with a word of that relation.
    A question with one hop asked in other words is a paraphrase."""
    anchor_words = {stem(w) for a in anchors for w in re.split(r"[^a-z0-9]+", a.lower()) if w}
    words = {stem(w) for w in question_words(question)} - anchor_words
    return all(words & {stem(w) for w in relation_words(rel)} for rel, _ in path)


def verbatim_relations(question: str, path: list[list[str]], anchors: list[str] = ()) -> list[str]:
    """The gold-path relations whose stored name (or its base, inverse marker dropped) occurs in
    the question word for word, case aside, outside the anchor's mention."""
    low = question.lower()
    for a in anchors:
        low = low.replace(a.lower(), " ")
    found = []
    for rel, _ in path:
        for name in {rel, base_relation(rel)[0]}:
            if re.search(r"(?<![a-z0-9])" + re.escape(name.lower()) + r"(?![a-z0-9])", low):
                found.append(rel)
    return found


def parse_path(spec: str) -> list[list[str]]:
    """"> r1 / < r2": r1 followed head->tail, then r2 tail->head."""
    steps = []
    for part in spec.split(" / "):
        arrow, rel = part.strip()[0], part.strip()[1:].strip()
        if arrow not in "<>":
            raise ValueError(f"bad step {part!r} in {spec!r}")
        steps.append([rel, "out" if arrow == ">" else "in"])
    return steps


def index(triples: list[tuple[str, str, str]]) -> dict[tuple[str, str, str], set[str]]:
    idx: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for h, r, t in triples:
        idx[(h, r, "out")].add(t)
        idx[(t, r, "in")].add(h)
    return idx


def walk(idx, anchors: list[str], path: list[list[str]]) -> set[str]:
    """The entities at the end of ``path`` from ``anchors``; an entity is never its own answer
    (a 2-hop "who else worked where X worked" leaves X out, as such questions mean)."""
    frontier = set(anchors)
    for rel, direction in path:
        frontier = set().union(*(idx.get((e, rel, direction), set()) for e in frontier)) if frontier else set()
    return frontier - set(anchors)


def read_kb(path: Path) -> list[tuple[str, str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            h, r, t = line.split("|")
            out.append((h, r, t))
    return out


def build_questions(kg: str, triples: list[tuple[str, str, str]], source: list[tuple[str, str, str]]) -> tuple[list[dict], list[str]]:
    idx = index(triples)
    entities = {h for h, _, _ in triples} | {t for _, _, t in triples}
    relations = {r for _, r, _ in triples}
    kept, dropped, problems = [], [], []
    seen = set()
    for question, anchor, spec in source:
        path = parse_path(spec)
        if question in seen:
            raise ValueError(f"{kg}: question written twice: {question!r}")
        seen.add(question)
        if anchor not in entities:
            raise ValueError(f"{kg}: anchor {anchor!r} not in the KG ({question!r})")
        for rel, _ in path:
            if rel not in relations:
                raise ValueError(f"{kg}: relation {rel!r} not in the KG ({question!r})")
        wording = "lexical" if is_lexical(question, path, [anchor]) else "paraphrase"
        if wording == "paraphrase" and verbatim_relations(question, path, [anchor]):
            problems.append(f"{kg}: a paraphrase names {verbatim_relations(question, path, [anchor])} verbatim: {question!r}")
            continue
        answers = sorted(walk(idx, [anchor], path))
        if not answers or len(answers) > MAX_ANSWERS:
            dropped.append(f"{question!r}: {len(answers)} answers")
            continue
        kept.append({
            "question": question, "answers": answers, "topic_entities": [anchor], "type": f"{len(path)}-hop",
            "gold_path": path, "wording": wording,
            "mention": "exact" if anchor in question else "variant",
            "via_inverse": any(base_relation(r)[1] for r, _ in path),
        })
    if problems:
        raise ValueError("\n".join(problems))
    return kept, dropped


def read_source(path: Path) -> list[tuple[str, str, str]]:
    """The hand-written questions: one JSON object a line with ``question``, ``anchor`` (the KG's
    name of the entity asked about) and ``path`` ("> r1 / < r2"); lines starting with # are notes."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            obj = json.loads(line)
            rows.append((obj["question"], obj["anchor"], obj["path"]))
    return rows


def main() -> None:
    for kg, build in BUILDERS.items():
        out = HERE / kg
        out.mkdir(exist_ok=True)
        triples = build(random.Random(SEEDS[kg]))
        for h, r, t in triples:
            assert "|" not in h + r + t and h.strip() == h and t.strip() == t and r.strip() == r, (h, r, t)
        (out / "kb.txt").write_text("".join(f"{h}|{r}|{t}\n" for h, r, t in triples), encoding="utf-8")
        source = read_source(out / "questions.src.jsonl")
        kept, dropped = build_questions(kg, triples, source)
        with (out / "questions.jsonl").open("w", encoding="utf-8") as fh:
            for q in kept:
                fh.write(json.dumps(q, ensure_ascii=False) + "\n")
        ents = {h for h, _, _ in triples} | {t for _, _, t in triples}
        rels = sorted({r for _, r, _ in triples})
        hops = {h: sum(q["type"] == h for q in kept) for h in ("1-hop", "2-hop", "3-hop")}
        para = sum(q["wording"] == "paraphrase" for q in kept)
        print(f"{kg}: {len(ents)} entities, {len(triples)} triples, {len(rels)} relations; {len(kept)} questions "
              f"{hops}, paraphrase {para}, variant mentions {sum(q['mention'] == 'variant' for q in kept)}, "
              f"via inverse {sum(q['via_inverse'] for q in kept)}; dropped {len(dropped)}", file=sys.stderr)
        for d in dropped:
            print(f"  dropped {d}", file=sys.stderr)
        if len(kept) < MIN_QUESTIONS and "--draft" not in sys.argv:
            raise SystemExit(f"{kg}: only {len(kept)} questions survive (need {MIN_QUESTIONS})")


if __name__ == "__main__":
    main()
