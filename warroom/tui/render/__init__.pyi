# The API of warroom.tui.render (its __init__.py loads each name on first use, from the module named here).

from ._charset import ASCII_TABLE, ascii_screen, locale_is_utf8
from ._describe import describe_event, event_heading
from ._kinds import KINDS, STEP_ICONS, event_body, payload_chars, row_mark, summarize
from ._structured import language_hint, structured
from ._text import literal, literal_line, prose, shown_line, without_server_paths, without_vs16

__all__ = [
    "ASCII_TABLE",
    "KINDS",
    "STEP_ICONS",
    "ascii_screen",
    "describe_event",
    "event_body",
    "event_heading",
    "language_hint",
    "literal",
    "literal_line",
    "locale_is_utf8",
    "payload_chars",
    "prose",
    "row_mark",
    "shown_line",
    "structured",
    "summarize",
    "without_server_paths",
    "without_vs16",
]
