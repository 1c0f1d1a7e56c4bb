# The API of warroom.core.author (its __init__.py loads each name on first use, from the module named here).

from ._annotatefile import AnnotatedFile, AnnotateError, Findings, findings, open_for_annotation
from ._annotation import REPLAN_AFTER, DeadlineMark, KeyDraft, item_events, item_label
from ._battery import NEWEST_GUESS_WARN, newest_guess_sentence, newest_guess_share, newest_guess_windows
from ._check import MIN_REACTION_WINDOW, check_variants, run_checks
from ._examples import EXAMPLES, example_text, seed_example_path
from ._keywrite import UNMARKED_AUTHOR, UNMARKED_NOTE, ChangedOnDisk, KeyWriteError, write_draft
from ._migrate import migrate_file
from ._recovery import Recovered, discard_recovery, recover, write_recovery
from ._retime import retimed_note, stretch_after, stretch_reading
from ._schema import drill_json_schema_text
from ._skeleton import LOCAL_SCHEMA_REF, REPO_SCHEMA_REF, skeleton_text
from ._twincheck import check_twin

__all__ = [
    "AnnotateError",
    "AnnotatedFile",
    "ChangedOnDisk",
    "DeadlineMark",
    "EXAMPLES",
    "Findings",
    "KeyDraft",
    "KeyWriteError",
    "LOCAL_SCHEMA_REF",
    "MIN_REACTION_WINDOW",
    "NEWEST_GUESS_WARN",
    "REPLAN_AFTER",
    "REPO_SCHEMA_REF",
    "Recovered",
    "UNMARKED_AUTHOR",
    "UNMARKED_NOTE",
    "check_twin",
    "check_variants",
    "discard_recovery",
    "drill_json_schema_text",
    "example_text",
    "findings",
    "item_events",
    "item_label",
    "migrate_file",
    "newest_guess_sentence",
    "newest_guess_share",
    "newest_guess_windows",
    "open_for_annotation",
    "recover",
    "retimed_note",
    "run_checks",
    "seed_example_path",
    "skeleton_text",
    "stretch_after",
    "stretch_reading",
    "write_draft",
    "write_recovery",
]
