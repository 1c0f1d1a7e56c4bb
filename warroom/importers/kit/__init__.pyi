# The API of warroom.importers.kit (its __init__.py loads each name on first use, from the module named here).
# keep: CHARS_PER_TOKEN, CONTEXT_WINDOW_TOKENS, MAX_EVENT_GAP, MIN_EVENT_GAP, Price, WORDS_PER_SECOND,
# keep: dump_drill_yaml, estimate_tokens, reading_gap

from ._drillfile import MISSING_KEY, check_unmarked, dump_drill_yaml, finite_numbers
from ._files import drill_target, find_input_files, import_files, prepare_out_dir
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
from ._recognise import unsupported_format
from ._redact import Redactor, read_names
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
    "WORDS_PER_SECOND",
    "ImportReport",
    "ImportResult",
    "Price",
    "Progress",
    "ReadWarning",
    "Redactor",
    "TraceError",
    "TraceOptions",
    "check_unmarked",
    "collect_warnings",
    "cut_off",
    "drill_id",
    "drill_target",
    "dump_data",
    "dump_drill_yaml",
    "estimate_tokens",
    "find_input_files",
    "finite_numbers",
    "import_files",
    "json_kind",
    "json_lines",
    "model_cost",
    "model_usage",
    "parse_json",
    "prepare_out_dir",
    "read_json_object",
    "read_names",
    "read_text",
    "reading_gap",
    "unsupported_format",
    "warn",
]
