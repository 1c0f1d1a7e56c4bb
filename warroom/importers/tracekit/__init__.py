"""What the trace importers (``chat``, ``otel``, ``openinference``) share: the unmarked drill and its file.

A real trace has no answer key, and these importers never invent one. The drill they write is complete except
for it: ``warroom validate`` reports exactly one problem, ``the drill needs an answer_key (the hidden fault), or
all_clear for a control drill with no fault``, and the file's header comment shows the author what to add
(docs/importing.md, "Marking up an imported trace"). :func:`~.drillfile.check_unmarked` proves that before a
file is written; :func:`~.files.import_files` writes one drill per trace, atomically, and reports per file.
"""

from __future__ import annotations

from warroom.importers.naming import drill_id
from warroom.importers.tracekit.drillfile import MISSING_KEY, check_unmarked, dump_unmarked
from warroom.importers.tracekit.files import import_files
from warroom.importers.tracekit.rules import (
    DEFAULT_DIFFICULTY,
    DEFAULT_MODEL_NAME,
    DEFAULT_PRICE,
    MAX_CHAT_BYTES,
    MAX_TRACE_BYTES,
    TraceError,
    TraceOptions,
)

__all__ = [
    "DEFAULT_DIFFICULTY", "DEFAULT_MODEL_NAME", "DEFAULT_PRICE", "MAX_CHAT_BYTES", "MAX_TRACE_BYTES", "MISSING_KEY",
    "TraceError", "TraceOptions", "check_unmarked", "drill_id", "dump_unmarked", "import_files",
]
