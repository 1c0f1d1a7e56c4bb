# The API of warroom.store.results (its __init__.py loads each name on first use, from the module named here).
# keep: HISTORY_TABLE, ImportResult, LIST_FIELDS, ScorecardChange, SessionRow, StoreConnection, export_lines

from ._checks import strict_json
from ._connection import SCHEMA_VERSION, StoreConnection
from ._countable import COLUMN, MODES, NOT_COUNTABLE, NOT_COUNTABLE_INDEX, valid_facts_sql
from ._distractors import BAD_FIGURES, MAX_SHOWN, PULLED_KEY, SHOWN_KEY, figure_columns, read_pulled
from ._history import HISTORY_TABLE, ScorecardChange
from ._queries import SORT_KEYS, TUTORIAL, Filters, filter_sql, where_sql
from ._records import ActionRecord, EndRecord, describe, error_column
from ._responses import response_column
from ._rows import LIST_FIELDS, SessionInfo, SessionRow, StoredSession, WallClock
from ._store import ResultsStore
from ._transfer import ImportResult, UnreadLine, export_lines, import_lines, write_export
from ._verification import COUNTED_SQL, DISAGREES, LEFT_OUT_SQL, SessionCheck

__all__ = [
    "ActionRecord",
    "BAD_FIGURES",
    "COLUMN",
    "COUNTED_SQL",
    "DISAGREES",
    "EndRecord",
    "Filters",
    "HISTORY_TABLE",
    "ImportResult",
    "LEFT_OUT_SQL",
    "LIST_FIELDS",
    "MAX_SHOWN",
    "MODES",
    "NOT_COUNTABLE",
    "NOT_COUNTABLE_INDEX",
    "PULLED_KEY",
    "ResultsStore",
    "SCHEMA_VERSION",
    "SHOWN_KEY",
    "SORT_KEYS",
    "ScorecardChange",
    "SessionCheck",
    "SessionInfo",
    "SessionRow",
    "StoreConnection",
    "StoredSession",
    "TUTORIAL",
    "UnreadLine",
    "WallClock",
    "describe",
    "error_column",
    "export_lines",
    "figure_columns",
    "filter_sql",
    "import_lines",
    "read_pulled",
    "response_column",
    "strict_json",
    "valid_facts_sql",
    "where_sql",
    "write_export",
]
