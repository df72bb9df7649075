"""The read-only Cypher subset: grammar (``cypher.lark``), allowlists and schema checks (issue #22)."""

from .allowlist import ALLOWED_FUNCTIONS, READ_ONLY_PROCEDURES
from .grammar import MAX_NESTING, MAX_QUERY_CHARS, MAX_TOKENS, check_cypher, parser
from .schema_check import SchemaProblem, schema_problems

__all__ = ["ALLOWED_FUNCTIONS", "MAX_NESTING", "MAX_QUERY_CHARS", "MAX_TOKENS", "READ_ONLY_PROCEDURES", "SchemaProblem",
           "check_cypher", "parser", "schema_problems"]
