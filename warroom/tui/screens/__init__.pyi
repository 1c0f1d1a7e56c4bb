# The API of warroom.tui.screens (its __init__.py loads each name on first use, from the module named here).

from ._briefing import BriefingScreen, briefing_text
from ._debrief import MARKS_HEADING, DebriefScreen, debrief_marks
from ._picker import PickerScreen
from ._review import ReviewScreen, ReviewTable, key_marks
from ._reviewpanels import cited_events

__all__ = [
    "BriefingScreen",
    "DebriefScreen",
    "MARKS_HEADING",
    "PickerScreen",
    "ReviewScreen",
    "ReviewTable",
    "briefing_text",
    "cited_events",
    "debrief_marks",
    "key_marks",
]
