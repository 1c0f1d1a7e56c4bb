# The API of warroom.tui.widgets (its __init__.py loads each name on first use, from the module named here).
# keep: WEB_CLOCK_GLYPH

from ._dialogs import ConfirmScreen, Dialog, HelpScreen, mouse_button, mouse_buttons
from ._fieldjump import FieldScreen, find_json_key_line, jump_to_field, open_field_jump
from ._footer import KeyFooter
from ._inspector import BACKGROUND_CHARS, START_DELAY, Inspector
from ._keyhelp import footer_label, help_rows, key_label, key_prose, key_table
from ._linetable import Column, LineTable
from ._panels import WEB_CLOCK_GLYPH, Meters, PlanPanel, StatusBar
from ._panes import room_panes
from ._search import SEARCH_BINDINGS, SearchScreen, open_search, search_again
from ._textinput import TextEditor, TextInput
from ._tracetable import TraceTable

__all__ = [
    "BACKGROUND_CHARS",
    "Column",
    "ConfirmScreen",
    "Dialog",
    "FieldScreen",
    "HelpScreen",
    "Inspector",
    "KeyFooter",
    "LineTable",
    "Meters",
    "PlanPanel",
    "SEARCH_BINDINGS",
    "START_DELAY",
    "SearchScreen",
    "StatusBar",
    "TextEditor",
    "TextInput",
    "TraceTable",
    "WEB_CLOCK_GLYPH",
    "find_json_key_line",
    "footer_label",
    "help_rows",
    "jump_to_field",
    "key_label",
    "key_prose",
    "key_table",
    "mouse_button",
    "mouse_buttons",
    "open_field_jump",
    "open_search",
    "room_panes",
    "search_again",
]
