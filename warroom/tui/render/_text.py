"""Showing drill text safely in the terminal UI: literally, as prose, as one-line JSON.

Text written by a drill author (titles, objectives, tool arguments and output, executor reports) is data, never
markup: :func:`literal` and :func:`literal_line` return a Rich :class:`~rich.text.Text` built from plain strings, so
square brackets and Rich markup show literally, and control characters (ESC, BEL, CR, ...) are replaced by a
visible escape such as ``\\x1b`` so a drill can never move the cursor, retitle the terminal or change colours.

The cleaning itself and the number formats (``clean_line``, ``seconds``, ``usd``, ...) are
:mod:`warroom.core.text`'s, imported from there, so the CLI and the TUI write drill text and numbers the same way.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text

from warroom.core.text import clean, clean_line

#: U+FE0F VARIATION SELECTOR-16 (emoji presentation): a symbol followed by it (``⚠`` U+26A0 then U+FE0F) is two
#: cells to Rich and Textual but one to tmux and most terminals, so a trace row or an inspector line holding one
#: pushed the rest of its line (the table's columns, the panel's border) one cell to the left. The war room shows
#: such a symbol without it: one cell everywhere, the symbol's text presentation (``⚠``).
VS16 = "\ufe0f"


def literal(text: object, style: str = "") -> Text:
    """A Rich Text showing ``text`` literally (no markup, control characters escaped, no :data:`VS16`), in
    ``style``."""
    return Text(clean(text).replace(VS16, ""), style=style)


def literal_line(text: object, style: str = "", limit: int | None = None) -> Text:
    """Like :func:`literal` but on one line, cut to ``limit`` characters with an ellipsis when longer."""
    s = clean_line(text).replace(VS16, "")
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 0)] + "…"
    return Text(s, style=style, no_wrap=True, overflow="ellipsis")


def shown_line(text: object) -> str:
    """``text`` on one line as a screen shows it: control characters escaped (``clean_line``), no :data:`VS16`."""
    return clean_line(text).replace(VS16, "")


def without_vs16(text: Text) -> Text:
    """``text`` without :data:`VS16` (its styles kept): what the inspector shows of an event."""
    if VS16 not in text.plain:
        return text
    return text.blank_copy().join(text.split(VS16, allow_blank=True))


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def prose(text: object) -> str:
    """Author prose (a debrief, a summary) reflowed for the terminal: hard-wrapped lines in a paragraph are joined,
    blank lines (paragraphs) and list items (``- ``, ``* ``, ``1. ``) are kept. Control characters are escaped;
    :data:`VS16` is dropped."""
    paragraphs = []
    for para in re.split(r"\n\s*\n", clean(text).replace(VS16, "").strip()):
        lines: list[str] = []
        for raw in para.splitlines():
            line = raw.strip()
            if lines and not _LIST_ITEM.match(raw):
                lines[-1] = f"{lines[-1]} {line}"
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def compact_json(value: Any) -> str:
    """``value`` as one-line JSON (strings as they are, on one line) for trace table summaries, cleaned: C0 control
    characters in strings come out as JSON escapes (``\\u001b``), DEL and C1 ones (which ``json.dumps`` leaves as
    they are, e.g. U+009B, a one-character CSI) as ``\\x9b``. Non-ASCII text stays readable; values JSON cannot
    represent are shown with ``str()``."""
    if isinstance(value, str):
        return clean_line(value)
    return clean(json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str))


#: A file's path of two or more parts (``/srv/warroom/data/results.sqlite3``), its last part kept.
_SERVER_PATH = re.compile(r"(?:/[^\s/:()'\"]+)+/([^\s/:()'\"]+)")


def without_server_paths(text: str) -> str:
    """``text`` (a message about the server's own files: a store or a journal that could not be written) with each
    file's path cut to its name, for a browser (``warroom serve``: docs/serve.md, "No path of the server's files
    reaches the browser")."""
    return _SERVER_PATH.sub(r"\1", text)
