"""Zero-shot chains on two generated KGs of the kinds issue #42's held-out KGs are described as
(kgrag never saw those): a family KG (parents, children, spouse, nationality, gender; names such as
`frederica_of_mecklenburg-strelitz_(1773)`; questions say "couple", "husband or wife", "kid",
"nation", "sex") and a football KG (players, clubs, countries, positions, shirt numbers, ages; every
relation also stored as `*_inverse`; questions say "team", "teammates", "based", "citizens", and
conjunctions name two things: "which defenders play for C"). Both are generated here from a
seed, with generic frames; they are DEV data like benchmarks/data/unseen, not the held-out sets.

Usage: python benchmarks/generated_kgs.py [--kgs family,family-more,football] [--methods graphraft,auto]
                                          [--naming plain|kinds|plain,kinds] [--style snake|camel|snake,camel]
                                          [--work runs/generated]
                                          [--out benchmarks/results/generated_kgs.jsonl]
                                          [--plot benchmarks/results/generated_kgs.png] [--seed 7]

``family-more`` is the family KG with more facts per person (occupation, religion, places of birth
and death, cause of death, employer) and kin words that say the gender ("son", "mother", "wife").
``--naming kinds`` names the football relations with the kinds they reach (`plays_in_club`,
`club_country`) instead of verbs alone (`plays_for`, `located_in`); ``plain,kinds`` asks both.
``--style camel`` writes every relation camelCase with ``^-1`` for ``_inverse`` (``playsFor^-1``). Prints
JSON lines (appended to --out): strict Hits@1, p50 latency and the misses per failure kind (those of
benchmarks/unseen_kgs.py: linking, relation, direction, length, answer, no_answer, unknown; a
conjunction, which no chain answers, misses as ``plan`` where a plan answered) per (kg, method, hop);
per-question records land in --work/<kg>-<method>.jsonl with the path each answer followed; the plot
shows Hits@1 per KG and hop, the dashed line at SimGRAG-with-Llama-3-70B's family 2-hop figure (0.887).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import time
from collections import Counter
from pathlib import Path

import numpy as np
from _common import bar_panels, emit
from _failures import failure_of

import kgrag
from kgrag.eval.metrics import hits_at_1

HOUSES = ["mecklenburg-strelitz", "saxe-coburg", "hesse-darmstadt", "bourbon-parma", "hohenzollern", "savoy",
          "braganza", "wittelsbach", "oldenburg", "orange-nassau"]
MALE = ["frederick", "william", "charles", "louis", "ernest", "albert", "george", "henry", "leopold", "maximilian",
        "otto", "ferdinand"]
FEMALE = ["frederica", "augusta", "charlotte", "louise", "sophia", "mary", "adelaide", "caroline", "victoria",
          "amelia", "helena", "matilda"]
NATIONS = ["germany", "united_kingdom", "denmark", "netherlands", "spain", "portugal", "italy", "sweden", "russia",
           "austria"]
KIN_WORDS = {"spouse": ["couple", "spouse", "husband or wife"], "parents": ["parent", "parents"],
             "children": ["child", "children", "kid"], "nationality": ["nation", "nationality", "country"],
             "gender": ["gender", "sex"]}
# --more: a kin word that says the gender, used where every answer of the step has it
GENDERED = {("spouse", "male"): ["husband"], ("spouse", "female"): ["wife"], ("parents", "male"): ["father", "dad"],
            ("parents", "female"): ["mother", "mom"], ("children", "male"): ["son", "heir"],
            ("children", "female"): ["daughter"]}
# --more: facts beyond kin, with the values they take and the words and frames that ask for them
MORE_FACTS = {"occupation": ["lawyer", "soldier", "painter", "diplomat", "composer", "physician"],
              "religion": ["lutheranism", "catholicism", "calvinism", "anglicanism"],
              "birth_place": ["vienna", "london", "copenhagen", "the_hague", "madrid", "lisbon", "turin"],
              "death_place": ["berlin", "paris", "stockholm", "naples", "moscow", "munich"],
              "cause_of_death": ["tuberculosis", "stroke", "smallpox", "pneumonia"],
              "employer": ["university_of_gottingen", "royal_navy", "bank_of_england", "court_of_vienna"]}
MORE_WORDS = {"occupation": ["job", "profession", "trade"], "religion": ["faith", "creed", "religious belief"],
              "birth_place": ["birthplace", "place of birth", "hometown"], "death_place": ["place of death"],
              "cause_of_death": ["cause of death"], "employer": ["employer", "workplace"]}
MORE_FRAMES = {"occupation": ["what did {p} do for a living?", "what was {p}'s line of work?"],
               "religion": ["which faith did {p} follow?", "what religion did {p} practise?"],
               "birth_place": ["where was {p} born?", "in which city was {p} born?"],
               "death_place": ["where did {p} die?", "in which city did {p} pass away?"],
               "cause_of_death": ["what did {p} die of?", "what killed {p}?"],
               "employer": ["who did {p} work for?", "where did {p} work?"]}


def mention(name: str, rng: random.Random) -> str:
    """A name as the KG writes it or with spaces for underscores, as people type it."""
    return name.replace("_", " ") if rng.random() < 0.5 else name


def family(rng: random.Random, more: bool = False) -> tuple[list[tuple[str, str, str]], list[dict]]:
    """Four generations of ten houses; 150 2-hop and 150 3-hop questions ("the nation of the couple
    of the kid of X", "the nation of X's couple", "X's kid's couple"), each with at most six
    answers, none of them X ("the spouse of the spouse of X" is not asked). ``more``: each person
    also has an occupation, a religion, places of birth and death, a cause of death and an
    employer, questions ask for those too ("where was X's mother born?"), and a kin word says the
    gender where every answer of its step has it ("son", "mother", "wife")."""
    people: dict[str, dict] = {}

    def person(gender: str, house: str) -> str:
        name = ""
        for _ in range(50):
            name = f"{rng.choice(MALE if gender == 'male' else FEMALE)}_of_{house}"
            if rng.random() < 0.5:
                name += f"_({rng.randint(1700, 1900)})"
            if name not in people:
                break
        people[name] = {"gender": gender, "nationality": rng.choice(NATIONS)}
        if more:
            people[name] |= {r: rng.choice(values) for r, values in MORE_FACTS.items()}
        return name

    triples: set[tuple[str, str, str]] = set()
    generation = [person(rng.choice(["male", "female"]), h) for h in HOUSES for _ in range(3)]
    for _ in range(3):
        rng.shuffle(generation)
        men = [p for p in generation if people[p]["gender"] == "male"]
        women = [p for p in generation if people[p]["gender"] == "female"]
        nxt = []
        for m, f in zip(men, women):
            triples |= {(m, "spouse", f), (f, "spouse", m)}
            for _ in range(rng.randint(1, 3)):
                child = person(rng.choice(["male", "female"]), m.split("_of_")[1].split("_(")[0])
                for parent in (m, f):
                    triples |= {(child, "parents", parent), (parent, "children", child)}
                nxt.append(child)
        generation = nxt
    for p, facts in people.items():
        triples |= {(p, r, value) for r, value in facts.items()}
    out: dict[tuple[str, str], set[str]] = {}
    for h, r, t in triples:
        out.setdefault((h, r), set()).add(t)
    questions: list[dict] = []
    names = sorted(people)
    while len(questions) < 300:
        hops = 2 if len(questions) < 150 else 3
        start = rng.choice(names)
        rels = [rng.choice(["spouse", "parents", "children"]) for _ in range(hops - 1)]
        last_steps = ["spouse", "parents", "children", "nationality", "gender", *(MORE_FACTS if more else ())]
        rels.append(rng.choice(last_steps))
        answers, steps = {start}, []
        for r in rels:  # a path between two entities, as PathQuestion's are: never back through the start
            answers = {t for a in answers for t in out.get((a, r), ())} - {start}
            steps.append(answers)
        if not answers or len(answers) > 6:
            continue
        phrase = mention(start, rng)
        verb_frame = more and rels[-1] in MORE_FRAMES and rng.random() < 0.5  # "where was X's mother born?"
        said = rels[:-1] if verb_frame else rels
        possessive = rng.choice([0, 1, len(said)])  # "the A of the B of X", "the A of X's B", "X's B's A"
        for k, r in enumerate(said):
            genders = {people[a]["gender"] for a in steps[k]} if r in ("spouse", "parents", "children") else set()
            gendered = GENDERED.get((r, next(iter(genders)))) if more and len(genders) == 1 else None
            word = rng.choice(gendered if gendered and rng.random() < 0.7 else
                              KIN_WORDS.get(r) or MORE_WORDS[r])
            phrase = f"{phrase}'s {word}" if k < possessive else f"the {word} of {phrase}"
        people_asked = rels[-1] in ("spouse", "parents", "children")
        frames = ["who is {p}?", "what is {p}?", "{p}?", "tell me {p}"] if people_asked else ["what is {p}?", "{p}?"]
        if verb_frame:
            frames = MORE_FRAMES[rels[-1]]
        questions.append({"question": rng.choice(frames).format(p=phrase), "answers": sorted(answers),
                          "hops": hops, "anchor": start, "gold_path": rels})
    return sorted(triples), questions


def football(rng: random.Random, naming: str) -> tuple[list[tuple[str, str, str]], list[dict]]:
    """300 players of 30 clubs in ten countries, each with a position, a shirt number and an age,
    every fact stored both ways (``r`` and ``r_inverse``); 1-hop, 2-hop and conjunctive questions
    (two names, one answer set: "which defenders play for C") in words other than the relation names."""
    names = ("plays_in_club", "club_country", "player_position", "player_number", "player_age") if naming == "kinds" \
        else ("plays_for", "located_in", "position", "shirt_number", "age")
    rel = dict(zip(("plays", "based", "position", "number", "age"), names))
    first = ["luka", "mateo", "kai", "sergio", "andre", "yusuf", "marco", "jonas", "tomas", "ivan", "diego", "emil",
             "rafael", "karim", "oskar"]
    last = ["silva", "novak", "kroos", "moreno", "berg", "costa", "demir", "weiss", "rossi", "vidal", "lind", "santos",
            "petrov", "hakimi", "lopez"]
    countries = ["spain", "germany", "italy", "brazil", "france", "croatia", "turkey", "portugal", "norway",
                 "argentina"]
    positions = ["goalkeeper", "defender", "midfielder", "forward"]
    prefixes, endings = ["fc", "sc", "ac", "real", "sporting"], ["ia", "ona", "era", "burg", "ton"]
    clubs = {f"{rng.choice(prefixes)}_{c[:4]}{rng.choice(endings)}_{k}": c for c in countries for k in range(3)}
    players: dict[str, tuple[str, str]] = {}
    while len(players) < 300:
        name = f"{rng.choice(first)}_{rng.choice(last)}"
        if name in players:
            name += f"_({rng.randint(1980, 2004)})"
        players[name] = (rng.choice(sorted(clubs)), rng.choice(countries))
    role = {p: rng.choice(positions) for p in players}
    shirt = {p: str(rng.randint(1, 23)) for p in players}
    age = {p: str(rng.randint(18, 38)) for p in players}
    facts = [(p, rel["plays"], club) for p, (club, _) in players.items()]
    facts += [(p, "nationality", nation) for p, (_, nation) in players.items()]
    facts += [(p, rel["position"], role[p]) for p in players] + [(p, rel["number"], shirt[p]) for p in players]
    facts += [(p, rel["age"], age[p]) for p in players] + [(c, rel["based"], k) for c, k in clubs.items()]
    triples = [t for h, r, x in facts for t in ((h, r, x), (x, f"{r}_inverse", h))]
    qs: list[dict] = []

    def ask(frames: list[str], names: list[str], answers: list[str], kind: str,
            path: list[tuple[str, str]] | None = None) -> None:
        if answers:  # ``path``: the relations a chain follows from the name, each (relation, "out" / "in")
            qs.append({"question": rng.choice(frames).format(*(mention(n, rng) for n in names)),
                       "answers": sorted(answers), "hops": kind, "anchor": names[0], "anchors": names,
                       "gold_path": path})

    plays, based = (rel["plays"], "out"), (rel["based"], "out")

    for p in rng.sample(sorted(players), 40):
        club, nation = players[p]
        ask(["which club does {} play for?", "what team does {} play for", "{} plays for which club?"], [p], [club],
            "1-hop", [plays])
        ask(["what is the nationality of {}?", "which country is {} from", "what nation does {} represent"], [p],
            [nation], "1-hop", [("nationality", "out")])
        ask(["what position does {} play?", "which role does {} have on the pitch", "{} plays in which position?"],
            [p], [role[p]], "1-hop", [(rel["position"], "out")])
        ask(["what shirt number does {} wear?", "which number does {} wear"], [p], [shirt[p]], "1-hop",
            [(rel["number"], "out")])
        ask(["how old is {}?", "what age is {}"], [p], [age[p]], "1-hop", [(rel["age"], "out")])
        ask(["which country is the club of {} located in?", "where is {}'s team based",
             "in which country does {} play club football", "where is the club that {} plays for?"], [p],
            [clubs[club]], "2-hop", [plays, based])
        ask(["who are the teammates of {}?", "who plays for the same club as {}", "which players play alongside {}"],
            [p], [q for q, (c, _) in players.items() if c == club and q != p], "2-hop", [plays, (rel["plays"], "in")])
    for club in rng.sample(sorted(clubs), 20):
        ask(["who plays for {}?", "which players play for {}", "list the players of {}"], [club],
            [p for p, (c, _) in players.items() if c == club], "1-hop", [(rel["plays"], "in")])
        ask(["which country is {} located in?", "where is {} based", "what country is {} in"], [club], [clubs[club]],
            "1-hop", [based])
        pos = rng.choice(positions)
        ask(["name a player who plays as {1} at {0}", "which {1}s play for {0}?", "who is a {1} at the club {0}"],
            [club, pos], [p for p, (c, _) in players.items() if c == club and role[p] == pos], "conjunction")
        nation = rng.choice(countries)
        ask(["who are the {1} players at {0}?", "which players from {1} play for {0}", "name the {1} players of {0}"],
            [club, nation], [p for p, (c, n) in players.items() if c == club and n == nation], "conjunction")
    for country in rng.sample(countries, 8):
        ask(["which clubs are located in {}?", "what teams are based in {}", "name the clubs in {}"], [country],
            [k for k, v in clubs.items() if v == country], "1-hop", [(rel["based"], "in")])
        ask(["which players play for clubs located in {}?", "who plays for a club based in {}",
             "which footballers play in {}"], [country],
            [p for p, (k, _) in players.items() if clubs[k] == country], "2-hop", [(rel["based"], "in"),
                                                                                   (rel["plays"], "in")])
        ask(["which clubs have a player from {}?", "what teams have a footballer of {}",
             "which clubs field players from {}"], [country],
            sorted({k for k, n in players.values() if n == country}), "2-hop", [("nationality", "in"), plays])
        ask(["which players have {} nationality?", "who is from {}", "which players are citizens of {}"], [country],
            [p for p, (_, n) in players.items() if n == country], "1-hop", [("nationality", "in")])
        pos = rng.choice(positions)
        ask(["which {0} footballer plays as {1}?", "name a {1} from {0}", "who are the {1}s of {0}"],
            [country, pos], [p for p, (_, n) in players.items() if n == country and role[p] == pos], "conjunction")
    return triples, qs


def camel_case(relation: str) -> str:
    """``plays_for`` → ``playsFor``, ``plays_for_inverse`` → ``playsFor^-1``: another naming style."""
    base, inverse = (relation[:-len("_inverse")], True) if relation.endswith("_inverse") else (relation, False)
    head, *rest = base.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest) + ("^-1" if inverse else "")


def restyled(triples: list[tuple[str, str, str]], questions: list[dict],
             style: str) -> tuple[list[tuple[str, str, str]], list[dict]]:
    """The KG and its questions with every relation named in ``style`` (``snake``: as generated;
    ``camel``: `camel_case`), gold paths included; the questions' words are unchanged."""
    if style == "snake":
        return triples, questions
    out = [(h, camel_case(r), t) for h, r, t in triples]
    renamed = []
    for q in questions:
        path = q.get("gold_path")
        if path is not None:
            path = [camel_case(r) if isinstance(r, str) else [camel_case(r[0]), r[1]] for r in path]
        renamed.append({**q, "gold_path": path})
    return out, renamed


def chain_of(q: dict) -> list[tuple[str, str]] | None:
    """A question's gold path as (relation, direction) steps (the family KG's are relation names, walked forward)."""
    path = q.get("gold_path")
    return None if path is None else [(r, "out") if isinstance(r, str) else (r[0], r[1]) for r in path]


def ask_all(db: kgrag.Database, method: str, questions: list[dict]) -> list[dict]:
    """Every question asked once: its answer, latency, the path the answer followed and why it missed
    (`_failures.failure_of`; a conjunction, which no chain answers, misses as ``plan`` where a plan
    answered and ``unknown`` otherwise)."""
    records = []
    for q in questions:
        t0 = time.perf_counter()
        try:
            answer = db.ask(q["question"], method=method)
        except Exception:  # noqa: BLE001 - a method that raises is a question without an answer
            answer = None
        ms = (time.perf_counter() - t0) * 1000
        names = answer.names if answer is not None else []
        hit = hits_at_1(names, q["answers"]) or 0.0
        failure, _, route, _ = failure_of(db, answer, hit, q["anchors"] if "anchors" in q else [q["anchor"]],
                                          chain_of(q))
        if failure == "unknown" and q["hops"] == "conjunction" and answer is not None \
                and answer.produced_by == ["plan"]:
            failure = "plan"
        records.append({**q, "ms": ms, "top": names[:3], "hit": hit, "failure": failure,
                        "path": [f"{r}{'>' if d == 'out' else '<'}" for r, d in route] if route else None})
    return records


def plot(rows: list[dict], path: Path) -> None:
    """Hits@1 per KG and hop, a bar per method."""
    panels = {}
    for kg in dict.fromkeys(r["kg"] for r in rows):
        mine = [r for r in rows if r["kg"] == kg]
        hops = list(dict.fromkeys(r["hop"] for r in mine))
        methods = list(dict.fromkeys(r["method"] for r in mine))
        value = {(r["method"], r["hop"]): r["hits_at_1"] for r in mine}
        panels[kg] = (hops, {m: [value.get((m, h), 0.0) for h in hops] for m in methods})
    bar_panels(panels, path, title="{name}", threshold=0.887, figsize=(3.2 * len(panels), 3.2), width=0.38,
               rotation=0, legend_loc="lower left")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kgs", default="family,family-more,football")
    ap.add_argument("--methods", default="graphraft,auto")
    ap.add_argument("--naming", default="plain", help="plain, kinds or both (plain,kinds): the football KG's names")
    ap.add_argument("--style", default="snake", help="snake, camel or both (snake,camel): how relations are "
                    "written (camel: playsFor, with `^-1` for `_inverse`)")
    ap.add_argument("--work", type=Path, default=Path("runs/generated"))
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/generated_kgs.jsonl"))
    ap.add_argument("--plot", type=Path, default=Path("benchmarks/results/generated_kgs.png"))
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    runs = [(kg, naming, style) for kg in args.kgs.split(",")
            for naming in (args.naming.split(",") if kg == "football" else ["plain"])
            for style in args.style.split(",")]
    rows = []
    for kg, naming, style in runs:
        rng = random.Random(args.seed)
        triples, questions = restyled(*(family(rng, more=kg == "family-more") if kg.startswith("family")
                                        else football(rng, naming)), style)
        name = (kg if kg.startswith("family") else f"football-{naming}") + ("" if style == "snake" else f"-{style}")
        work = args.work / name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        (work / "kb.txt").write_text("".join(f"{h}|{r}|{t}\n" for h, r, t in triples), encoding="utf-8")
        db = kgrag.Database.ingest(work / "db", [work / "kb.txt"])
        try:
            for method in args.methods.split(","):
                if method == "auto":  # its confidence learns from the KG's synthetic questions first
                    db.wait_self_training("auto")
                records = ask_all(db, method, questions)
                with (args.work / f"{name}-{method}.jsonl").open("w", encoding="utf-8") as fh:
                    fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
                for hops in sorted({r["hops"] for r in records}, key=str):
                    mine = [r for r in records if r["hops"] == hops]
                    row = {"benchmark": "generated-kgs", "kg": name, "method": method,
                           "hop": hops if isinstance(hops, str) else f"{hops}-hop",
                           "questions": len(mine), "hits_at_1": round(float(np.mean([r["hit"] for r in mine])), 4),
                           "p50_ms": round(float(np.percentile([r["ms"] for r in mine], 50)), 2),
                           "failures": dict(Counter(r["failure"] for r in mine if r["failure"]).most_common())}
                    emit(**row)
                    rows.append(row)
                    with args.out.open("a", encoding="utf-8") as fh:
                        fh.write(json.dumps(row) + "\n")
        finally:
            db.close()
    if rows and args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
