# The API of warroom.importers.who_and_when (its __init__.py loads each name on first use, from the module named here).
# keep: CLOSING_EVENT_MIN_GAP, DEADLINE_BEFORE_DAMAGE,
# keep: EVIDENCE_MIN_GAP, IMPORTER, IMPORTER_SOURCE, ImportOptions, MAGENTIC_ONE, MAX_RECORD_BYTES, RecordError,
# keep: convert_record, guess_fault_kind, import_records, parse_record, read_record

from ._drill import convert_record
from ._importer import IMPORTER, import_records
from ._pace import EVIDENCE_MIN_GAP
from ._parse import Message, Record, parse_record, read_record
from ._prose import guess_fault_kind
from ._rules import (
    CLOSING_EVENT_MIN_GAP,
    DEADLINE_BEFORE_DAMAGE,
    IMPORTER_SOURCE,
    MAGENTIC_ONE,
    MAX_RECORD_BYTES,
    ImportOptions,
    RecordError,
)

__all__ = [
    "CLOSING_EVENT_MIN_GAP",
    "DEADLINE_BEFORE_DAMAGE",
    "EVIDENCE_MIN_GAP",
    "IMPORTER",
    "IMPORTER_SOURCE",
    "ImportOptions",
    "MAGENTIC_ONE",
    "MAX_RECORD_BYTES",
    "Message",
    "Record",
    "RecordError",
    "convert_record",
    "guess_fault_kind",
    "import_records",
    "parse_record",
    "read_record",
]
