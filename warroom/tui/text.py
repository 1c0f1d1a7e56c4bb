"""Showing drill text safely and formatting numbers for the terminal UI.

Text written by a drill author (titles, objectives, tool arguments and output, executor reports) is data, never
markup: every helper here returns a Rich :class:`~rich.text.Text` built from plain strings, so square brackets and
Rich markup show literally, and control characters (ESC, BEL, CR, ...) are replaced by a visible escape such as
``\\x1b`` so a drill can never move the cursor, retitle the terminal or change colours.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text

#: Control characters other than newline and tab (C0, DEL and C1), shown as visible escapes.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape_control(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def clean(text: object) -> str:
    """``text`` as a string with every control character except newline and tab written as ``\\xNN``."""
    return _CONTROL.sub(_escape_control, str(text))


def clean_line(text: object) -> str:
    """``text`` cleaned (see :func:`clean`) and folded to one line: newlines and tabs become spaces."""
    return " ".join(clean(text).split())


def literal(text: object, style: str = "") -> Text:
    """A Rich Text showing ``text`` literally (no markup, control characters escaped), in ``style``."""
    return Text(clean(text), style=style)


def literal_line(text: object, style: str = "", limit: int | None = None) -> Text:
    """Like :func:`literal` but on one line, cut to ``limit`` characters with an ellipsis when longer."""
    s = clean_line(text)
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 0)] + "…"
    return Text(s, style=style, no_wrap=True, overflow="ellipsis")


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def prose(text: object) -> str:
    """Author prose (a debrief, a summary) reflowed for the terminal: hard-wrapped lines in a paragraph are joined,
    blank lines (paragraphs) and list items (``- ``, ``* ``, ``1. ``) are kept. Control characters are escaped."""
    paragraphs = []
    for para in re.split(r"\n\s*\n", clean(text).strip()):
        lines: list[str] = []
        for raw in para.splitlines():
            line = raw.strip()
            if lines and not _LIST_ITEM.match(raw):
                lines[-1] = f"{lines[-1]} {line}"
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def pretty_json(value: Any) -> str:
    """``value`` as indented JSON (control characters in strings come out as ``\\u001b`` escapes).

    Values JSON cannot represent are shown with ``str()``. Plain strings are returned as they are (cleaned).
    """
    if isinstance(value, str):
        return clean(value)
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def compact_json(value: Any) -> str:
    """``value`` as one-line JSON (strings as they are), for timeline summaries."""
    if isinstance(value, str):
        return clean_line(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def clock(seconds: float) -> str:
    """Drill time as ``mm:ss`` (``h:mm:ss`` past an hour); negative times clamp to 00:00."""
    s = max(int(seconds), 0)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m:02d}:{sec:02d}"


def seconds(value: float) -> str:
    """A drill time or duration in seconds with one decimal at most: ``30.5 s``, ``12 s``.

    The debrief, its timeline and notifications all show times this way (the drill clock shows ``mm:ss``).
    """
    s = f"{max(float(value), 0.0):.1f}"
    return (s[:-2] if s.endswith(".0") else s) + " s"




def usd(amount: float) -> str:
    """A USD amount: 4 decimals under one dollar (model calls cost fractions of a cent), else 2."""
    return f"${amount:,.4f}" if abs(amount) < 1 else f"${amount:,.2f}"


def number(value: float) -> str:
    """A damage amount: an integer with thousands separators when whole, else two decimals."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def speed(value: float) -> str:
    """A playback speed such as ``1x``, ``0.5x``."""
    return f"{value:g}x"
