# The API of warroom.tui.author (its __init__.py loads each name on first use, from the module named here).
# keep: DrillInfoDialog

from ._dialogs import (
    DamageDialog,
    DebriefDialog,
    DrillInfoDialog,
    FaultDialog,
    FieldPathDialog,
    NumberDialog,
    TextDialog,
)
from ._panel import key_text
from ._screen import AnnotateScreen

__all__ = [
    "AnnotateScreen",
    "DamageDialog",
    "DebriefDialog",
    "DrillInfoDialog",
    "FaultDialog",
    "FieldPathDialog",
    "NumberDialog",
    "TextDialog",
    "key_text",
]
