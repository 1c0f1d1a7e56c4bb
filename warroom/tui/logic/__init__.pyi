# The API of warroom.tui.logic (its __init__.py loads each name on first use, from the module named here).

from ._agents import agent_labels, event_agent, shows_agents
from ._drillsets import (
    ASSESSMENT,
    ASSESSMENT_NOTES,
    PRACTICE,
    ActiveSet,
    DrillProgress,
    hidden_actions,
    load_active_set,
    local_today,
    mode_line,
)
from ._entries import DrillEntry, load_entry
from ._lessons import LESSONS, Lesson, Tutor, is_tutorial, tutorial_path
from ._pickergroups import (
    SORTS,
    Group,
    domain_key,
    domain_label,
    domain_of,
    filter_entries,
    group_entries,
    new_trainee,
    sort_entries,
)
from ._recording import JournalUnwritable, Recorder, ResultsUnavailable, SessionUnavailable
from ._services import Services, unfinished_sessions
from ._traceindex import TraceIndex

__all__ = [
    "ASSESSMENT",
    "ASSESSMENT_NOTES",
    "ActiveSet",
    "DrillEntry",
    "DrillProgress",
    "Group",
    "JournalUnwritable",
    "LESSONS",
    "Lesson",
    "PRACTICE",
    "Recorder",
    "ResultsUnavailable",
    "SORTS",
    "Services",
    "SessionUnavailable",
    "TraceIndex",
    "Tutor",
    "agent_labels",
    "domain_key",
    "domain_label",
    "domain_of",
    "event_agent",
    "filter_entries",
    "group_entries",
    "hidden_actions",
    "is_tutorial",
    "load_active_set",
    "load_entry",
    "local_today",
    "mode_line",
    "new_trainee",
    "shows_agents",
    "sort_entries",
    "tutorial_path",
    "unfinished_sessions",
]
