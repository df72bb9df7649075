"""`-m auto`: no method to choose. Runs the cheap methods, keeps the answer whose calibrated
confidence is highest, and escalates to an LLM method only when that confidence is low and an
LLM is configured.

Confidence is P(the top answer is right | how each member found its answer), a logistic model per
member (`learn.calibration`) fitted on held-aside training pairs when `kgrag train -m auto` gets
some, else on synthetic questions generated from the KG itself (`learn.synthetic`) — so it
needs neither QA pairs nor an LLM.

With pairs, the held-aside part also chooses how much a path-model member's zero-shot scorer
counts beside its trained ranker (`learn.score_fusion`): the two read a question differently, so
their mistakes differ. When the members then learn again from every pair, the ranker they had
learned first stays as a companion of the new one (the mean of two training runs' scores varies
less from one training to the next than either's).
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ...answer import Answer, Evidence, RankedEntity, list_text
from ...answer_sets import distinct_answers, gold_set
from ...datasets import QAItem, split_items
from ...deadline import check
from ...errors import NoAnswer
from ...graph import KnowledgeGraph
from ...learn.calibration import LogisticCalibrator, log_odds
from ...learn.path_ranker import PathRanker
from ...learn.path_selector import LearnedPathSelector
from ...learn.score_fusion import fit_zero_shot_weight
from ...learn.synthetic import SyntheticQuestions, synthetic_pairs
from ...paths import PathCandidate, route_counts
from ..base import Method
from ..claim_checking import ClaimChecking
from ..plan_answering import PlanAnswering
from ..registry import create_method, method_class, register_method
from .features import FEATURE_NAMES, answer_features
from .generic import GENERIC_SOURCE, generic_models
from .options import AutoOptions

if TYPE_CHECKING:
    from ...llm.base import LLM

__all__ = ["AutoMethod", "AutoOptions"]

# Questions where the members disagree needed to fit the choice model: ten per feature, the usual
# floor for a logistic model (on the bundled sample's 21 its choice was worse than confidence's:
# 0.776 against 0.806 Hits@1). Fewer: choose by confidence alone.
MIN_CHOICE_QUESTIONS = 10 * (len(FEATURE_NAMES) - 1)


def top_answer(ans: Answer) -> list[str]:
    """The answer's first normalised answer (none when it names none), read without normalising
    the rest of its ranking: a member may list every neighbour."""
    return distinct_answers((e.name for e in ans.entities), limit=1)


def members_disagree(answers: dict[str, Answer]) -> bool:
    """The answering members' top answers are not all the same."""
    tops = {top for a in answers.values() if a.entities and not a.error for top in top_answer(a)}
    return len(tops) > 1


def top_answer_correct(ans: Answer, gold: list[str]) -> bool:
    """Strict Hits@1 of one answer (the label the confidence learns)."""
    return bool(set(top_answer(ans)) & gold_set(gold))


@register_method
class AutoMethod(PlanAnswering, ClaimChecking, Method[AutoOptions]):
    """Auto: runs the cheap methods and keeps the most confident answer (calibrated; no QA pairs needed)."""

    name = "auto"
    Options = AutoOptions

    def __init__(self, kg: KnowledgeGraph, options: AutoOptions | Mapping[str, Any] | None = None, *,
                 llm: LLM | None = None) -> None:
        super().__init__(kg, options, llm=llm)
        # a member that can read plans leaves that to auto, which reads them before asking the members
        self.members = {n: create_method(n, kg, {"plans": False} if "plans" in method_class(n).Options.model_fields
                                         else None, llm=llm) for n in self.options.members.split(",")}
        self.calibrators: dict[str, LogisticCalibrator] = {}
        self.choosers: dict[str, LogisticCalibrator] = {}  # fitted where the members disagree
        self.calibration_source = "none"
        self._escalation: Method | None = None
        self._documents: Method | None = None  # SAGE, for a database of documents and tables only
        self._trained: set[str] = set()  # members that learned from pairs here (saved with auto)
        self.zero_shot_weights: dict[str, float] = {}  # per member: its path model + w × zero-shot
        self._self_training = threading.Lock()  # the service answers on several threads
        self._before_training = False  # `answer_before_training`: the generic confidence until then

    # ---- confidence --------------------------------------------------------------------------------
    def _member_answers(self, question: str) -> dict[str, Answer]:
        """Each member's answer as auto would serve it (committed answers in route order), so the
        confidence, the choice and the agreement all describe the answer that is returned."""
        answers = {}
        for n, m in self.members.items():
            answers[n] = m.answer(question)
            check(f"after auto's member {n}")  # a member stopped by the deadline recorded it as its error
        for ans in answers.values():
            self._order_by_routes(ans)
        return answers

    def calibrate(self, items: list[QAItem], source: str,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Fit each member's confidence on how its answers to ``items`` came out, and its choice
        score on the questions where the members' top answers differ."""
        rows: dict[str, list[np.ndarray]] = {n: [] for n in self.members}
        labels: dict[str, list[float]] = {n: [] for n in self.members}
        split: list[bool] = []
        for i, item in enumerate(items):
            answers = self._member_answers(item.question)
            if progress is not None:
                progress(i + 1, len(items))
            split.append(members_disagree(answers))
            features = self.features(answers)
            for n, ans in answers.items():
                rows[n].append(features[n])
                labels[n].append(float(top_answer_correct(ans, item.answers)))
        report = {}
        disagree = np.array(split, dtype=bool)
        calibrators, choosers = {}, {}  # assigned whole at the end: other threads may be answering
        for n in self.members:
            x, y = np.array(rows[n]).reshape(len(split), len(FEATURE_NAMES)), np.array(labels[n])
            calibrators[n] = LogisticCalibrator(names=FEATURE_NAMES[1:]).fit(x[:, 1:], y)
            report[n] = {"questions": len(y), "accuracy": round(float(y.mean()), 4) if len(y) else None}
            if disagree.sum() >= MIN_CHOICE_QUESTIONS:
                choosers[n] = LogisticCalibrator(names=FEATURE_NAMES[1:]).fit(x[disagree, 1:], y[disagree])
                report[n]["accuracy_where_members_disagree"] = round(float(y[disagree].mean()), 4)
        self.choosers, self.calibrators, self.calibration_source = choosers, calibrators, source
        return {"calibration": source, "members": report, "members_disagree_on": int(disagree.sum())}

    def self_train(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """The confidence from synthetic questions over this KG (no QA pairs, no LLM); nothing when
        the database has no KG edges to ask about."""
        if self.kg.num_edges == 0:
            return {}
        return self.calibrate(self._synthetic(), "synthetic", progress)

    def answer_before_training(self) -> None:
        self._before_training = True

    def _synthetic(self) -> list[QAItem]:
        return list(synthetic_pairs(self.kg, SyntheticQuestions(per_hop=self.options.synthetic_per_hop,
                                                                paraphrase=self.options.synthetic_paraphrase)))

    def confidence(self, answers: dict[str, Answer], features: dict[str, np.ndarray] | None = None) -> dict[str, float]:
        """P(top answer right) per member: what is reported with the answer. ``features``: the
        members' `features`, when already computed for this question."""
        return self._predict("calibrators", answers, features)

    def choose(self, answers: dict[str, Answer], conf: dict[str, float],
               features: dict[str, np.ndarray] | None = None) -> str:
        """The most confident member; where the top answers differ, the likeliest right by a model
        fitted on such questions only. Fitted on synthetic ones, it overreads what they make decisive
        (a path's word match, low on any paraphrase): its mean log-odds with the confidence decides."""
        score = conf
        if self._models("choosers") and members_disagree(answers):
            score = chosen = self._predict("choosers", answers, features)
            if not self.calibration_source.startswith("pairs"):  # older saves: "pairs+synthetic"
                score = {n: (log_odds(chosen[n]) + log_odds(conf[n])) / 2 for n in answers}
        order = list(answers)
        return max(score, key=lambda n: (score[n], -order.index(n)))

    @staticmethod
    def features(answers: dict[str, Answer]) -> dict[str, np.ndarray]:
        """Each member's `answer_features` given the others' answers."""
        return {n: answer_features(ans, [a for k, a in answers.items() if k != n]) for n, ans in answers.items()}

    def _predict(self, which: Literal["calibrators", "choosers"], answers: dict[str, Answer],
                 features: dict[str, np.ndarray] | None = None) -> dict[str, float]:
        if not self.calibrators and not self._before_training:
            with self._self_training:  # once, however many threads ask first
                if not self.calibrators:
                    self.self_train()
        models = self._models(which)  # read after any self-training
        rows = self.features(answers) if features is None else features
        return {n: 0.0 if rows[n][0] == 0 else float(models[n].predict(rows[n][1:])[0]) if n in models else 0.5
                for n in answers}

    def _models(self, which: Literal["calibrators", "choosers"]) -> dict[str, LogisticCalibrator]:
        """This KG's fitted models, or the generic ones until its self-training is done."""
        return getattr(self, which) if self.calibrators else getattr(generic_models(tuple(self.members)), which)

    # ---- answering --------------------------------------------------------------------------------
    def _should_escalate(self, confidence: float) -> bool:
        if self.options.escalate == "never" or confidence >= self.options.escalate_below:
            return False
        if self.options.escalate == "always":
            return True
        from ...llm.config import llm_configured

        return self._llm is not None or llm_configured()

    def _answer(self, question: str, result: Answer) -> None:
        if self.checks_claims:
            self.check_claim(question, result)
            return
        if self.answer_by_plan(question, result):  # a question with a condition: its plan answers
            return
        if self.kg.num_edges == 0 and self.kg.has_documents:  # documents and tables only: SAGE answers
            self._answer_from_documents(question, result)
            return
        with result.stage("members"):
            answers = self._member_answers(question)
        with result.stage("confidence"):
            features = self.features(answers)
            conf = self.confidence(answers, features)
            chosen = self.choose(answers, conf, features)
        best = answers[chosen]
        if self._should_escalate(conf[chosen]):
            escalated = self._escalate(question)
            if escalated.entities and not escalated.error:
                best, chosen = escalated, self.options.escalation
                result.warnings += escalated.warnings
        for n, ans in answers.items():
            for stage, seconds in ans.timings.items():
                if stage != "total":
                    result.timings[f"{n}.{stage}"] = seconds
        self._adopt(result, best, chosen, conf, answers)

    def _answer_from_documents(self, question: str, result: Answer) -> None:
        if self._documents is None:
            self._documents = create_method("sage", self.kg, llm=self._llm)
        found = self._documents.answer(question)
        if found.error:
            raise NoAnswer(found.error)
        result.text, result.evidence, result.llm_calls = found.text, found.evidence, found.llm_calls
        result.warnings += found.warnings
        result.timings.update({f"sage.{k}": v for k, v in found.timings.items() if k != "total"})
        result.produced_by = ["sage"]

    def _escalate(self, question: str) -> Answer:
        if self._escalation is None:
            self._escalation = create_method(self.options.escalation, self.kg, self._escalation_options(),
                                             llm=self._llm)
            self._escalation.load(self.kg.files.model_dir(self.options.escalation))
        return self._escalation.answer(question)

    def _escalation_options(self) -> dict[str, Any]:
        fields = method_class(self.options.escalation).Options.model_fields
        wanted = {"linker": "llm", "reader": "llm", "max_llm_calls": self.options.max_llm_calls}
        return {k: v for k, v in wanted.items() if k in fields}

    def _adopt(self, result: Answer, best: Answer, chosen: str, conf: dict[str, float],
               answers: dict[str, Answer]) -> None:
        if best.error and not best.entities:
            raise NoAnswer(best.error)
        result.entities, result.num_selected, result.text, result.label = (best.entities, best.num_selected,
                                                                             best.text, best.label)
        result.llm_calls += best.llm_calls
        result.warnings += [w for a in answers.values() for w in a.warnings]
        top = result.entities[0].name if result.entities else None
        result.produced_by = [chosen] + [n for n, a in answers.items()
                                         if n != chosen and a.entities and a.entities[0].name == top]
        result.confidence = conf.get(chosen)
        result.evidence = [Evidence("auto", f"answered by {chosen}" + (f" (confidence {result.confidence:.2f})"
                                    if result.confidence is not None else " (escalated)"), result.confidence,
                                    {"chosen": chosen, "confidence": conf, "agreeing": result.produced_by[1:],
                                     "members_disagree": members_disagree(answers),
                                     "calibration": self.calibration_source if self.calibrators else
                                     GENERIC_SOURCE}), *best.evidence]
        if not self.calibrators:
            result.warnings.append(f"auto's confidence is {GENERIC_SOURCE}")

    def _order_by_routes(self, ans: Answer) -> None:
        """``ans``'s committed answers in route order (`_by_routes`) and its text with them, when
        the text is their list."""
        if ans.text != list_text(ans.selected):
            return  # a reader wrote the text (an LLM may also name answers off the path): its order stands
        routed = self._by_routes(ans)
        if routed is not None:
            ans.text = list_text([e.name for e in routed[: len(ans.selected)]])
            ans.entities = routed

    def _by_routes(self, best: Answer) -> list[RankedEntity] | None:
        """The answer's committed set reordered by how many routes of its relation path reach each
        member (most first, the member's order within a tie), when it names its path; else None.
        Which of several answers comes first is what strict Hits@1 judges, and a member orders
        them by its own criterion (GraphRAFT: name similarity to the question, which says little
        for years or people); the graph's own support does not depend on the member."""
        route = next((e.route for e in best.evidence if e.kind == "query" and e.route is not None), None)
        chosen = best.entities[: len(best.selected)]
        if route is None or len(chosen) < 2 or any(e.id is None for e in chosen):
            return None
        counts = route_counts(self.kg.snapshot, PathCandidate.from_route(route, np.array([e.id for e in chosen])))
        order = sorted(range(len(chosen)), key=lambda i: -counts[i])
        return [chosen[i] for i in order] + best.entities[len(chosen):]

    # ---- learning and persistence -----------------------------------------------------------------
    def fit(self, pairs: list[QAItem]) -> dict[str, Any]:
        """With pairs: the members learn from most of them; the rest choose the path members'
        zero-shot weight, then fit the confidence. Without: the confidence comes from synthetic
        questions (`self_train`). Checking claims learns nothing here (`kgrag.claims` reads the KG)."""
        if self.checks_claims:
            return self.fit_claims(pairs)
        if not pairs:
            return self.self_train()
        learn, held = split_items(pairs, self.options.calibration_holdout, seed=1)
        report: dict[str, Any] = {"members_trained_on": len(learn)}
        for n, m in self.members.items():
            member_report = m.fit(learn)
            if member_report:
                self._trained.add(n)
                report[n] = {k: v for k, v in member_report.items() if k != "loss"}
        fusion = self.fit_path_fusion(held)  # kept for the members refit below: same data, scale
        if fusion:
            report["path_fusion"] = fusion
        # pairs only, however few: synthetic questions describe untrained members badly once they
        # have learned (bundled sample: 30 held pairs 0.776 Hits@1, with 600 synthetic added 0.729)
        report.update(self.calibrate(held, "pairs"))
        if self.options.refit and self._trained:  # the members then learn from every pair
            first = {n: s.ranker for n, s in self._path_selectors().items()} if self.options.ensemble else {}
            for n in self._trained:
                self.members[n].fit(pairs)
            for n, selector in self._path_selectors().items():
                if (ranker := first.get(n)) is not None:
                    selector.companions = [ranker]
            report["members_refit_on"] = len(pairs)
            report["ensembles"] = {n: len(s.rankers) for n, s in self._path_selectors().items() if s.companions}
        if plans := self.fit_plans(pairs):
            report["plans"] = plans
        return report

    def _path_selectors(self) -> dict[str, LearnedPathSelector]:
        """The members that choose relation paths with a trained path model."""
        found = {n: getattr(m, "selector", None) for n, m in self.members.items()}
        return {n: s for n, s in found.items() if isinstance(s, LearnedPathSelector) and s.trained}

    def fit_path_fusion(self, held: list[QAItem]) -> dict[str, Any]:
        """Each path-model member's weight for the zero-shot scorer beside its trained ranker,
        chosen on the held-aside pairs (`learn.score_fusion`): two scorers whose mistakes differ."""
        report = {}
        for n, selector in self._path_selectors().items():
            fit = fit_zero_shot_weight(selector, held, progress=True)
            selector.zero_shot_weight = self.zero_shot_weights[n] = fit.weight
            report[n] = fit.report()
        return report

    def save(self, directory: Path) -> None:
        if self.checks_claims:
            self.save_claims(directory)
            return
        directory.mkdir(parents=True, exist_ok=True)
        for n in self._trained:
            self.members[n].save(directory / "members" / n)
        self.save_plans(directory)
        shutil.rmtree(directory / "companions", ignore_errors=True)  # none left from a model saved here before
        for n, selector in self._path_selectors().items():  # beside the member: it ships with one ranker
            for k, ranker in enumerate(selector.companions):
                ranker.save(directory / "companions" / n / str(k))
        (directory / "calibration.json").write_text(json.dumps(
            {"source": self.calibration_source, "members": {n: c.to_json() for n, c in self.calibrators.items()},
             "choice": {n: c.to_json() for n, c in self.choosers.items()},
             "zero_shot_weights": self.zero_shot_weights}, indent=1), encoding="utf-8")

    def load(self, directory: Path) -> bool:
        """The members' saved models (each falls back to what its own training saved) and the
        confidence; False when no confidence was saved (it is then self-trained on first use).
        Checking claims loads nothing here (the verifier reads ``models/claims/``)."""
        if self.checks_claims:
            return False
        for n, m in self.members.items():
            if m.load(directory / "members" / n):
                self._trained.add(n)
            else:
                m.load(self.kg.files.model_dir(n))
        self.load_plans(directory)
        for n, selector in self._path_selectors().items():  # a companion belongs to the model saved beside it
            found = sorted(directory.glob(f"companions/{n}/*/ranker.pt"), key=lambda p: int(p.parent.name))
            selector.companions = [PathRanker.load(p.parent) for p in found] if n in self._trained else []
        path = directory / "calibration.json"
        if not path.exists():
            return False
        saved = json.loads(path.read_text(encoding="utf-8"))
        if set(saved["members"]) != set(self.members):
            return False
        self.calibrators = {n: LogisticCalibrator.from_json(c) for n, c in saved["members"].items()}
        self.calibration_source = saved["source"]
        choice = saved.get("choice", {})
        self.choosers = {n: LogisticCalibrator.from_json(c) for n, c in choice.items()} \
            if set(choice) == set(self.members) else {}
        selectors = self._path_selectors()  # a weight belongs to the model saved beside it, not to a fallback
        self.zero_shot_weights = {n: float(w) for n, w in saved.get("zero_shot_weights", {}).items()
                                  if n in selectors and n in self._trained}
        for n, w in self.zero_shot_weights.items():
            selectors[n].zero_shot_weight = w
        return True
