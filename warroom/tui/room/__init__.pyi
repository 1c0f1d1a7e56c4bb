# The API of warroom.tui.room (its __init__.py loads each name on first use, from the module named here).

from ._drillscreen import DrillScreen, false_escalation_message
from ._escalate import EscalateScreen, match_step
from ._flag import FlagScreen
from ._live import MAX_TICK_INTERVAL, TICK_INTERVAL, WarRoomScreen
from ._probe import ProbeScreen
from ._tutorial import LessonPanel, TutorialScreen

__all__ = [
    "MAX_TICK_INTERVAL",
    "TICK_INTERVAL",
    "DrillScreen",
    "EscalateScreen",
    "FlagScreen",
    "LessonPanel",
    "ProbeScreen",
    "TutorialScreen",
    "WarRoomScreen",
    "false_escalation_message",
    "match_step",
]
