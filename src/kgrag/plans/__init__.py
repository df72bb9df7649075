"""Query plans (issue #38): one typed plan that every method can produce and the store executes
exactly, on the CSR snapshot (`execute`) and as read-only Cypher (`to_cypher`).

A plan is a tree of frozen nodes (`kgrag.plans.nodes`): anchors, relation steps, intersection,
union, difference, comparison with a literal, count, argmax/argmin and existence. See
docs/plans.md for each node with its JSON and its Cypher.
"""

from .cypher import PlanQuery, run_cypher, to_cypher
from .evidence import support
from .execute import Limits, NodeOutput, PlanResult, apply_to, execute
from .explain import Failure, explain, failures, matched
from .literals import DATE_PATTERN, NUMBER_PATTERN, LiteralValues, parse_literal
from .nodes import (
                    Anchor,
                    ArgMax,
                    ArgMin,
                    Compare,
                    Count,
                    Difference,
                    Exists,
                    Intersect,
                    PlanNode,
                    PlanProblem,
                    SetNode,
                    Step,
                    Union,
)
from .plan import QueryPlan
from .validate import PlanGraph, validate
from .verbalise import verbalise

__all__ = ["DATE_PATTERN", "NUMBER_PATTERN", "Anchor", "ArgMax", "ArgMin", "Compare", "Count", "Difference", "Exists",
           "Failure", "Intersect", "Limits", "LiteralValues", "NodeOutput", "PlanGraph", "PlanNode", "PlanProblem",
           "PlanQuery", "PlanResult", "QueryPlan", "SetNode", "Step", "Union", "apply_to", "execute", "explain",
           "failures", "matched", "parse_literal", "run_cypher", "support", "to_cypher", "validate", "verbalise"]
