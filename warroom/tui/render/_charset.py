"""The terminal's character set: UTF-8 or not (:func:`locale_is_utf8`, :func:`ascii_screen`), and the ASCII stand-ins
the screen is written with when it is not (:data:`ASCII_TABLE`: each character as ASCII of the same cell width).

Key names follow it too: on an ASCII screen the help says ``up``, not ``^`` (see :mod:`warroom.tui.widgets._keyhelp`).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping


def locale_is_utf8(environ: Mapping[str, str]) -> bool:
    """True when the locale the terminal was started with is UTF-8: the first of ``LC_ALL``, ``LC_CTYPE``, ``LANG``
    that is set names a UTF-8 codeset (``C.UTF-8``, ``en_GB.utf8``). ``C``, ``POSIX``, ``en_US.ISO-8859-1`` or no
    locale at all are not. ``WARROOM_CHARSET=utf-8`` / ``ascii`` overrides the guess."""
    forced = environ.get("WARROOM_CHARSET", "").strip().lower().replace("-", "")
    if forced in ("utf8", "ascii"):
        return forced == "utf8"
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if value:
            codeset = value.partition(".")[2].partition("@")[0]
            return codeset.lower().replace("-", "") == "utf8"
    return False


#: ASCII stand-ins for the characters the UI draws (Textual's and warroom's own), each as wide as the original.
_ASCII_GLYPHS = {
    "…": ".", "·": ".", "—": "-", "–": "-", "★": "*", "☆": ".", "✓": "v", "✗": "x", "▸": ">", "▶": ">", "◐": "~",
    "⚑": "F", "⏱": "@", "↑": "^", "↓": "v", "←": "<", "→": ">", "●": "o", "■": "#", "⚠": "!", "✔": "v", "✖": "x",
    "◷": "@", "“": '"', "”": '"', "‘": "'", "’": "'", "•": "*", "▁": "_", "▔": "-", "▎": "|", "▊": "|", "█": "#",
    # the trace table's marks (warroom.tui.render.row_mark): a result's call, a retry, a parallel batch, repetitions, a
    # model call cut short; and the signs of the facilitator's figures
    "↳": ">", "↻": "R", "⇉": "=", "×": "x", "✂": "%", "−": "-", "′": "'", "⏎": "<",
}


def ascii_screen(environ: Mapping[str, str] | None = None) -> bool:
    """True when the screen is written in ASCII (:func:`locale_is_utf8` says no; ``environ``: ``os.environ``). Keys
    are then named in words (``enter``, ``up``), not by their symbol's stand-in (``<``, ``^``): ``↓`` would read
    ``v``, which is a key of its own."""
    return not locale_is_utf8(os.environ if environ is None else environ)


class _Ascii(dict[int, str]):
    """A ``str.translate`` table turning any non-ASCII character into ASCII of the same cell width."""

    def __missing__(self, code: int) -> str:
        if code < 128:
            value = chr(code)  # unchanged
        else:
            from rich.cells import cell_len

            ch = chr(code)
            width = cell_len(ch)
            if 0x2500 <= code <= 0x257F:  # box drawing: lines and corners
                name = unicodedata.name(ch, "")
                value = "-" if "HORIZONTAL" in name and "VERTICAL" not in name else (
                    "|" if "VERTICAL" in name and "HORIZONTAL" not in name else "+")
            elif 0x2580 <= code <= 0x259F:  # block elements (scrollbars)
                value = "#"
            elif ch in _ASCII_GLYPHS:
                value = _ASCII_GLYPHS[ch]
            else:
                plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
                value = plain if len(plain) == 1 and width == 1 else "?" * width
        self[code] = value
        return value


ASCII_TABLE = _Ascii()
