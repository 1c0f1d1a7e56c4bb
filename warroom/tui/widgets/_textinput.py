"""The free-text inputs of the war room and the author mode: Textual's ``Input`` and ``TextArea`` that never hold a
lone surrogate.

A terminal's paste (bracketed paste) or a served tab's can carry a lone surrogate (``\\ud800``: half of a UTF-16 pair,
no character of its own, which UTF-8 cannot encode): pasted into a flag note it reached the action's model, whose
validation raised, and the app crashed. Every text typed or pasted into these widgets has each lone surrogate
replaced by U+FFFD (the replacement character, ``�``), at the input, so no note, reason, filter or author field
ever holds one. They go through the widgets' public ``replace`` and ``insert``, where Textual's typing and paste
both end.
"""

from __future__ import annotations

import re
from typing import Any

from rich.highlighter import Highlighter
from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widgets import Input, TextArea

from warroom.core.text import SURROGATE

#: What a lone surrogate becomes.
REPLACEMENT = "\ufffd"

#: The characters a field draws as a visible sign: C0 controls but tab and newline (drawn as Unicode's control
#: pictures, ESC as ␛), DEL (␡), C1 controls and the bidirectional embedding, override and isolate controls (�), the
#: characters :func:`warroom.core.text.clean` escapes everywhere else.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _sign(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else REPLACEMENT


def visible_controls(text: str) -> str:
    """``text`` with each control or bidirectional control character (but tab and newline) replaced by a visible
    sign of one character: what a field draws, so that its text (a drill's, a paste's) never writes a terminal
    escape (ESC [2J clears the screen), retitles the terminal or reorders the line, while the field keeps the text
    itself, one character per character (its cursor and selection as they were)."""
    return _CONTROL.sub(_sign, text)


class _VisibleControls(Highlighter):
    """An ``Input``'s highlighter drawing its value's control characters as visible signs
    (:func:`visible_controls`): Textual's ``Input`` draws its value as it is."""

    def highlight(self, text: Text) -> None:
        shown = visible_controls(text.plain)
        if shown != text.plain:
            text.plain = shown  # as long as before: the styles (cursor, selection) stay on their characters


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD."""
    return SURROGATE.sub(REPLACEMENT, text)


def _fitted(widget: Input | TextArea, text: str, room: int, most: int) -> str:
    """``text`` cut to ``room`` characters (what the widget holding at most ``most`` has left), saying so: a paste
    cut is a notice naming the bound, a key typed at the bound a bell."""
    if len(text) <= room:
        return text
    if len(text) > 1:
        widget.notify(f"The paste was cut to {max(room, 0):,} of its {len(text):,} characters: this field holds at "
                      f"most {most:,}.", severity="warning", markup=False)  # fmt: skip
    else:
        widget.app.bell()
    return text[: max(room, 0)]


class TextInput(Input):
    """An ``Input`` whose typed or pasted text never holds a lone surrogate (each becomes U+FFFD), and which, given a
    ``max_length``, cuts a paste to what it has left (Textual's ``Input`` refuses the whole paste, unsaid)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("highlighter", _VisibleControls())
        super().__init__(*args, **kwargs)

    def replace(self, text: str, start: int, end: int) -> None:
        text = without_surrogates(text)
        most, length = self.max_length or 0, len(self.value)
        if most:
            start, end = sorted((max(0, start), min(length, end)))
            # a value already past the bound (a drill's goal written longer by hand) is never lengthened, but may be
            # shortened: Textual's Input refuses any change leaving it past max_length, a deleted character too
            text = _fitted(self, text, max(most, length) - (length - (end - start)), most)
        if not most or length <= most:
            super().replace(text, start, end)
            return
        self.max_length = 0  # the change is no longer than what it replaces: made without Textual's bound
        try:
            super().replace(text, start, end)
        finally:
            self.max_length = most


class TextEditor(TextArea):
    """A ``TextArea`` whose typed or pasted text never holds a lone surrogate (each becomes U+FFFD), and holds at most
    ``max_length`` characters (0: no bound): a paste is cut to what it has left, with a notice. A 1 MB paste into the
    author mode's debrief took seconds, and every key after it a frame's worth of a megabyte."""

    def __init__(self, text: str = "", *, max_length: int = 0, **kwargs: Any) -> None:
        super().__init__(text, **kwargs)
        self.max_length = max_length

    def render_line(self, y: int) -> Strip:
        """The line as Textual's ``TextArea`` draws it, its control characters drawn as visible signs
        (:func:`visible_controls`; it drew them as they are), cut to the width it had."""
        strip = super().render_line(y)
        if not any(_CONTROL.search(segment.text) for segment in strip):
            return strip
        shown = Strip([Segment(visible_controls(s.text), s.style, s.control) for s in strip])
        return shown.crop(0, strip.cell_length)

    def _fit(self, text: str, start: Any, end: Any) -> str:
        text = without_surrogates(text)
        if not self.max_length:
            return text
        replaced = len(self.get_text_range(*sorted((start, end)))) if start != end else 0
        length = len(self.text)  # a text already past the bound (a debrief written longer): shortened, never lengthened
        return _fitted(self, text, max(self.max_length, length) - (length - replaced), self.max_length)

    def replace(self, insert: str, start: Any, end: Any, *, maintain_selection_offset: bool = True) -> Any:
        return super().replace(self._fit(insert, start, end), start, end,
                               maintain_selection_offset=maintain_selection_offset)  # fmt: skip

    def insert(self, text: str, location: Any = None, *, maintain_selection_offset: bool = True) -> Any:
        where = self.cursor_location if location is None else location
        return super().insert(self._fit(text, where, where), location,
                              maintain_selection_offset=maintain_selection_offset)  # fmt: skip
