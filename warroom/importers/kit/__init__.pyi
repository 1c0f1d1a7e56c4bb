# The API of warroom.importers.kit (its __init__.py loads each name on first use, from the module named here).
# keep: CHARS_PER_TOKEN, CONTEXT_WINDOW_TOKENS, DEFAULT_PRICE, Importer, MAX_EVENT_GAP, MIN_EVENT_GAP, Options, Price,
# keep: TRACE_ID_OPTION, WORDS_PER_SECOND, dump_drill_yaml, estimate_tokens, importers, looks_like, reading_gap,
# keep: recognise, refusal

from ._drillfile import MISSING_KEY, check_unmarked, dump_drill_yaml, finite_numbers
from ._files import convert, find_input_files, import_files
from ._importer import PRICE_OPTION, TRACE_ID_OPTION, DrillData, Importer, Option, Options, TraceImporter
from ._naming import MAX_ID_CHARS, drill_id
from ._pace import (
    CHARS_PER_TOKEN,
    CONTEXT_WINDOW_TOKENS,
    MAX_EVENT_GAP,
    MIN_EVENT_GAP,
    WORDS_PER_SECOND,
    estimate_tokens,
    model_cost,
    model_usage,
    reading_gap,
)
from ._reading import (
    ReadWarning,
    collect_warnings,
    cut_off,
    json_kind,
    json_lines,
    parse_json,
    read_json_object,
    read_text,
    warn,
)
from ._recognise import file_values, looks_like, recognise, recognise_values, refusal
from ._redact import Redactor, read_names
from ._registry import importers
from ._report import ImportReport, ImportResult, Progress
from ._rules import (
    DEFAULT_DIFFICULTY,
    DEFAULT_MODEL_NAME,
    DEFAULT_PRICE,
    MAX_CHAT_BYTES,
    MAX_DRILL_TIME,
    MAX_TRACE_BYTES,
    Price,
    TraceError,
    TraceOptions,
)
from ._yamlemit import dump_data

__all__ = [
    "CHARS_PER_TOKEN",
    "CONTEXT_WINDOW_TOKENS",
    "DEFAULT_DIFFICULTY",
    "DEFAULT_MODEL_NAME",
    "DEFAULT_PRICE",
    "MAX_CHAT_BYTES",
    "MAX_DRILL_TIME",
    "MAX_EVENT_GAP",
    "MAX_ID_CHARS",
    "MAX_TRACE_BYTES",
    "MIN_EVENT_GAP",
    "MISSING_KEY",
    "PRICE_OPTION",
    "TRACE_ID_OPTION",
    "WORDS_PER_SECOND",
    "DrillData",
    "ImportReport",
    "ImportResult",
    "Importer",
    "Option",
    "Options",
    "Price",
    "Progress",
    "ReadWarning",
    "Redactor",
    "TraceError",
    "TraceImporter",
    "TraceOptions",
    "check_unmarked",
    "collect_warnings",
    "convert",
    "cut_off",
    "drill_id",
    "dump_data",
    "dump_drill_yaml",
    "estimate_tokens",
    "file_values",
    "find_input_files",
    "finite_numbers",
    "import_files",
    "importers",
    "json_kind",
    "json_lines",
    "looks_like",
    "model_cost",
    "model_usage",
    "parse_json",
    "read_json_object",
    "read_names",
    "read_text",
    "reading_gap",
    "recognise",
    "recognise_values",
    "refusal",
    "warn",
]
