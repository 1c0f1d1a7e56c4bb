# The API of warroom.tui.app (its __init__.py loads each name on first use, from the module named here).

from ._annotate import AnnotateApp
from ._app import WarroomApp
from ._launch import color_environment, launch
from ._review import ReviewApp
from ._terminal import ExitGuard, GuardedOutput, NoTerminal, require_terminal

__all__ = [
    "AnnotateApp",
    "ExitGuard",
    "GuardedOutput",
    "NoTerminal",
    "ReviewApp",
    "WarroomApp",
    "color_environment",
    "launch",
    "require_terminal",
]
