# The API of warroom.core.library (its __init__.py loads each name on first use, from the module named here).

from ._adaptive import Attempt, Candidate, choose_next
from ._cache import CachedFile, FolderCache, Stamp, file_stamp, settled
from ._card import DrillCard
from ._drillset import SetDrill, drill_set_problems, resolve_set_drills
from ._library import (
    TUTORIAL_ID,
    DrillLibrary,
    FolderTooLarge,
    LoadedDrill,
    bundled_drills_dir,
    cross_file_problems,
    find_drill_files,
    resolve_drill,
)
from ._runs import SAME_RUN_OVERLAP, run_events, run_fingerprint, run_groups, run_overlap

__all__ = [
    "SAME_RUN_OVERLAP",
    "Attempt",
    "CachedFile",
    "Candidate",
    "DrillCard",
    "DrillLibrary",
    "FolderCache",
    "FolderTooLarge",
    "LoadedDrill",
    "SetDrill",
    "Stamp",
    "TUTORIAL_ID",
    "bundled_drills_dir",
    "choose_next",
    "cross_file_problems",
    "drill_set_problems",
    "file_stamp",
    "find_drill_files",
    "resolve_drill",
    "resolve_set_drills",
    "run_events",
    "run_fingerprint",
    "run_groups",
    "run_overlap",
    "settled",
]
