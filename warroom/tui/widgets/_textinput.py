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

from typing import Any

from textual.widgets import Input, TextArea

from warroom.core.text import SURROGATE

#: What a lone surrogate becomes.
REPLACEMENT = "\ufffd"


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD."""
    return SURROGATE.sub(REPLACEMENT, text)


class TextInput(Input):
    """An ``Input`` whose typed or pasted text never holds a lone surrogate (each becomes U+FFFD)."""

    def replace(self, text: str, start: int, end: int) -> None:
        super().replace(without_surrogates(text), start, end)


class TextEditor(TextArea):
    """A ``TextArea`` whose typed or pasted text never holds a lone surrogate (each becomes U+FFFD)."""

    def replace(self, insert: str, start: Any, end: Any, *, maintain_selection_offset: bool = True) -> Any:
        return super().replace(without_surrogates(insert), start, end,
                               maintain_selection_offset=maintain_selection_offset)  # fmt: skip

    def insert(self, text: str, location: Any = None, *, maintain_selection_offset: bool = True) -> Any:
        return super().insert(without_surrogates(text), location, maintain_selection_offset=maintain_selection_offset)
