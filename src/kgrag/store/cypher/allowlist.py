"""Functions and procedures an untrusted query may call.

An allowlist, not a blocklist: the engine grows functions with every release and extension, and
some have effects a read-only database does not stop (``nextval`` advances a sequence, ``error``
aborts, the ``copy_*`` and ``read_*``/``*_scan`` table functions touch files). Names are from
``CALL show_functions()`` on the installed engine, LadybugDB 0.22, matched case-insensitively; it
ships no extension offline, so nothing of JSON, FTS or VECTOR is here (`tests/store/test_engine.py`
fails when the engine's own list changes, and when a name here is not in it).
"""

from __future__ import annotations

# The engine's table functions that only read the catalog (``CALL name(...)``).
READ_ONLY_PROCEDURES = frozenset({
    "show_tables", "table_info", "show_connection", "db_version", "current_setting", "show_indexes", "show_functions", "show_warnings",
    "show_official_extensions", "show_loaded_extensions", "show_attached_databases", "show_sequences",
    "show_macros", "show_projected_graphs",
})

_AGGREGATE = "avg collect count count_star max min sum"
_NODE_REL_PATH = """
    cost end_node id keys label labels length nullif start_node nodes rels relationships properties
    is_acyclic is_trail offset
"""
_NUMERIC = """
    abs acos asin atan atan2 cbrt ceil ceiling cos cot degrees even factorial floor gamma lgamma ln
    log log10 log2 negate pi pow radians round sign sin sqrt tan greatest least
    bitshift_left bitshift_right bitwise_and bitwise_or bitwise_xor
"""
_TEXT = """
    concat concat_ws contains ends_with starts_with initcap lcase left levenshtein lower lpad ltrim
    prefix suffix regexp_extract regexp_extract_all regexp_full_match regexp_matches regexp_replace
    regexp_split_to_array repeat reverse right rpad rtrim size split_part string_split
    string_to_array str_split substr substring tolower toupper trim ucase upper octet_length
    encode decode md5 sha256 hash
"""
_LIST = """
    range list_any_value list_append list_cat list_concat list_contains list_creation list_distinct
    list_element list_extract list_filter list_has list_has_all list_indexof list_position
    list_prepend list_product list_reduce list_reverse list_reverse_sort list_slice list_sort
    list_sum list_to_string list_transform list_unique array_append array_cat array_concat
    array_contains array_cosine_similarity array_cross_product array_distance array_dot_product
    array_extract array_has array_indexof array_inner_product array_position array_prepend
    array_push_back array_push_front array_slice array_squared_distance array_value cardinality
    element_at map map_extract map_keys map_values struct_extract struct_pack union_extract
    union_tag union_value coalesce ifnull typeof
"""
_CAST = """
    cast blob string date timestamp interval duration uuid to_blob to_bool to_date to_double
    to_float to_int128 to_int16 to_int32 to_int64 to_int8 to_interval to_serial to_string
    to_timestamp to_uint16 to_uint32 to_uint64 to_uint8 to_uuid to_days to_epoch_ms to_hours
    to_microseconds to_milliseconds to_minutes to_months to_seconds to_years
"""
_DATE = """
    century current_date current_timestamp date_part datepart date_trunc datetrunc dayname
    epoch_ms last_day make_date monthname
"""
ALLOWED_FUNCTIONS = frozenset(
    name for group in (_AGGREGATE, _NODE_REL_PATH, _NUMERIC, _TEXT, _LIST, _CAST, _DATE) for name in group.split())

# Never allowed, whatever a future edit of the list above says: they write, abort or touch files.
DENIED_FUNCTIONS = frozenset({
    "nextval", "currval", "error", "copy_json", "copy_csv", "copy_parquet", "gen_random_uuid",
    "read_csv", "read_csv_parallel", "read_csv_serial", "read_parquet", "read_npy", "read_pandas",
    "json_scan", "file_info", "constant_or_null", "internal_id",
})

assert not (ALLOWED_FUNCTIONS | READ_ONLY_PROCEDURES) & DENIED_FUNCTIONS
