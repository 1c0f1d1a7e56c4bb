"""The free-text inputs of the war room and the author mode: Textual's ``Input`` and ``TextArea`` that never hold a
lone surrogate.

A terminal's paste (bracketed paste) or a served tab's can carry a lone surrogate (``\\ud800``: half of a UTF-16 pair,
no character of its own, which UTF-8 cannot encode): pasted into a flag note it reached the action's model, whose
validation raised, and the app crashed. Every text typed or pasted into these widgets has each lone surrogate
replaced by U+FFFD (the replacement character, ``�``), at the input, so no note, reason, filter or author field
ever holds one. They go through the widgets' public ``replace`` and ``insert``, where Textual's typing and paste
both end.

Both draw the control characters of their text (a drill's, a paste's) as visible signs of one cell, and measure and
lay the text out as drawn (Rich counts a control character as no cell): the text itself is kept as it is.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.control import strip_control_codes
from rich.highlighter import Highlighter
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual.binding import Binding
from textual.expand_tabs import expand_tabs_inline
from textual.geometry import Offset, Region
from textual.widget import Widget
from textual.widgets import Input, TextArea
from textual.widgets.input import Selection
from textual.widgets.text_area import Document, DocumentNavigator, EditResult, Location, WrappedDocument

from warroom.core.text import BIDI_CONTROLS, SURROGATE

#: What a lone surrogate becomes.
REPLACEMENT = "\ufffd"

#: The characters a field draws as a visible sign: C0 controls but tab (drawn as Unicode's control pictures, ESC as
#: ␛, a line break in a one-line field as ␊), DEL (␡), C1 controls and the bidirectional embedding, override and
#: isolate controls and marks (�), the characters :func:`warroom.core.text.clean` escapes everywhere else.
_CONTROL = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


def _sign(match: re.Match[str]) -> str:
    code = ord(match.group())
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else REPLACEMENT


def visible_controls(text: str) -> str:
    """``text`` with each control or bidirectional control character (but tab) replaced by a visible
    sign of one character: what a field draws, so that its text (a drill's, a paste's) never writes a terminal
    escape (ESC [2J clears the screen), retitles the terminal or reorders the line, while the field keeps the text
    itself, one character per character (its cursor and selection as they were)."""
    return _CONTROL.sub(_sign, text)


class _VisibleControls(Highlighter):
    """An ``Input``'s highlighter drawing its value's control characters as visible signs
    (:func:`visible_controls`): Textual's ``Input`` draws its value as it is, in a Rich ``Text``, which drops BEL,
    BS, VT, FF and CR (a cursor past one stood a character to the right): the signs are those of ``field``'s value."""

    def __init__(self, field: Input) -> None:
        self.field = field

    def highlight(self, text: Text) -> None:
        value = self.field.value
        shown = visible_controls(value if strip_control_codes(value) == text.plain else text.plain)
        if shown != text.plain:
            text.plain = shown  # one character per character of the value: the cursor and selection on their own


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


def editing_keys(field: type[Input] | type[TextArea], leave: frozenset[str] = frozenset()) -> dict[str, str]:
    """Key to action of the editing keys ``field`` (Textual's ``Input`` or ``TextArea``) binds itself (← → home end
    backspace ctrl+k ...), but the actions in ``leave``. The fields run them as they read them: Textual runs a
    widget's bindings once the key has bubbled up to the app, after the field had taken the characters typed right
    behind them: ``a b ← c`` typed fast (a slow app, a served tab's keys arriving together) made ``abc``."""
    return {b.key: b.action for b in Binding.make_bindings(field.BINDINGS) if b.action not in leave}


class TextInput(Input):
    """An ``Input`` whose typed or pasted text never holds a lone surrogate (each becomes U+FFFD), and which, given a
    ``max_length``, cuts a paste to what it has left (Textual's ``Input`` refuses the whole paste, unsaid)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("highlighter", _VisibleControls(self))
        self._value_seen = False
        super().__init__(*args, **kwargs)

    # Textual's Input measures its cursor on its value as it is, where Rich counts a control character as no cell,
    # while the value is drawn with each one's visible sign (one cell): a value holding some scrolled that many
    # cells short, its last cells and the cursor past the field's edge, and a click landed that many characters
    # off. Each is measured again with the signs in place (what is drawn), when the value holds a control character.

    #: The field's editing keys, run as the field reads them (:func:`editing_keys`); enter (the answer) as Textual
    #: runs it.
    EDITING_KEYS: ClassVar[dict[str, str]] = editing_keys(Input, leave=frozenset({"submit"}))

    def on_key(self, event: events.Key) -> None:
        """A key typed after the enter that answered this field's dialog is the dialog's to hold and give to the
        screen beneath (:meth:`~warroom.tui.widgets.Dialog.held`), never a character of the answer: the key is
        stopped and its default (the field's own handling, which runs after this one) prevented. An editing key
        runs at once, in the order typed (:meth:`edit`)."""
        action = _held_or_editing(self, event, self.EDITING_KEYS)
        if action is not None:
            self._run_edit(action)

    def edit(self, key: str) -> bool:
        """Run ``key`` now when it is one of the field's editing keys (:data:`EDITING_KEYS`); False when it is not
        one."""
        action = self.EDITING_KEYS.get(key)
        if action is None:
            return False
        self._run_edit(action)
        return True

    def _run_edit(self, action: str) -> None:
        """Run an editing action now (each action of Textual's ``Input`` is a plain method)."""
        _namespace, name, parameters = parse_action(action)
        getattr(self, f"action_{name}")(*parameters)

    def _cells(self, position: int) -> int:
        """The cells the value's first ``position`` characters take as drawn."""
        return cell_len(expand_tabs_inline(visible_controls(self.value[:position]), 4))

    def _at_cell(self, x: int) -> int:
        """The index of the character drawn at the field's content column ``x``."""
        x += self.scroll_offset.x
        cells = 0
        for index, character in enumerate(visible_controls(self.value)):
            cells += cell_len(character)
            if x < cells:
                return index
        return len(self.value)

    @property
    def cursor_screen_offset(self) -> Offset:
        x, y, _width, _height = self.content_region
        return Offset(x + self._cells(self.cursor_position) + self.cursor_at_end - self.scroll_offset.x, y)

    def watch_value(self) -> None:
        self._value_seen = True  # as Input, the cursor put at the end of the first value does not scroll

    def watch_selection(self) -> None:
        if self._value_seen and _CONTROL.search(self.value):
            offset = self._cells(self.cursor_position) + self.cursor_at_end
            self.scroll_to_region(Region(offset, 0, width=1, height=1), force=True, animate=False)
            self.app.cursor_position = self.cursor_screen_offset

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if _CONTROL.search(self.value):  # after Input's own handler (called after this one), which it corrects
            self.call_later(self._select, self._at_cell(event.get_content_offset_capture(self).x), False)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self.app.mouse_captured is self and _CONTROL.search(self.value):  # selecting with the mouse
            self.call_later(self._select, self._at_cell(event.get_content_offset_capture(self).x), True)

    def _select(self, index: int, extend: bool) -> None:
        self.selection = Selection(self.selection.start, index) if extend else Selection.cursor(index)

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
        super().__init__(_shown(text), **kwargs)
        self.max_length = max_length
        self._keep(text)

    def load_text(self, text: str) -> None:
        super().load_text(_shown(text))
        self._keep(text)

    #: The editor's editing keys, run as the editor reads them (:func:`editing_keys`).
    EDITING_KEYS: ClassVar[dict[str, str]] = editing_keys(TextArea)

    async def on_key(self, event: events.Key) -> None:
        """As :meth:`TextInput.on_key`: a key typed after the key that answered this editor's dialog (its ctrl+s) is
        the dialog's to hold, never a character of the answer; an editing key runs at once, in the order typed."""
        action = _held_or_editing(self, event, self.EDITING_KEYS)
        if action is not None:
            await self.run_action(action)

    @property
    def text(self) -> str:
        """The text itself (its control characters as they are), not as drawn."""
        document = self.document
        return document.kept if isinstance(document, ShownDocument) else document.text

    @text.setter
    def text(self, value: str) -> None:
        self.load_text(value)

    def _keep(self, text: str) -> None:
        """Edit ``text`` as a :class:`ShownDocument`: Textual's ``TextArea`` lays its document out by Rich's cell
        widths, which count a control character as no cell, so a line holding one drawn with its visible sign lost
        its last cell (wrapped or scrolled one cell short, the cursor past the edge). The document it lays out and
        draws now holds the signs themselves (given to ``TextArea`` through ``load_text``: the same geometry), and
        the text is kept beside it."""
        self.document = ShownDocument(text)
        self.wrapped_document = WrappedDocument(self.document, tab_width=self.indent_width)
        self.wrapped_document.wrap(self.wrap_width, tab_width=self.indent_width)
        self.navigator = DocumentNavigator(self.wrapped_document)

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


def _shown(text: str) -> str:
    """``text`` as a :class:`ShownDocument` holds it: its lines (as Textual's ``Document`` splits them) with their
    control characters as visible signs, one character for one, joined by newlines."""
    shown = "\n".join(visible_controls(line) for line in text.splitlines())
    return shown + "\n" if text.endswith(("\r\n", "\n", "\r")) else shown


class ShownDocument(Document):
    """A ``TextArea``'s document holding its text as drawn (:func:`_shown`: each control character a visible sign
    of one cell, which Rich measures as it is drawn), and the text itself beside it (:attr:`kept`), edited alike:
    one character for one, so every location is the same in both. An edit gives back the text it replaced as
    it was, so undoing it restores the control characters."""

    def __init__(self, text: str) -> None:
        self._kept = Document(text)
        super().__init__(self._kept.newline.join(visible_controls(line) for line in self._kept.lines))

    @property
    def kept(self) -> str:
        """The text itself, its control characters as they are."""
        return self._kept.text

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        kept = self._kept.replace_range(start, end, text)
        shown = super().replace_range(start, end, _shown(text))
        assert shown.end_location == kept.end_location, (shown, kept)
        return EditResult(shown.end_location, kept.replaced_text)


def _held_or_editing(field: Widget, event: events.Key, editing: dict[str, str]) -> str | None:
    """The editing action of ``event`` in ``field`` (one of ``editing``'s keys), to run at once; None when it is
    none, or when ``event`` is a key typed after the key that answered the field's dialog, the dialog's to hold and
    give to the screen beneath (:meth:`~warroom.tui.widgets.Dialog.held`). Either way a key held or edited is stopped
    and its default (the field's own handling, which runs after this one) prevented."""
    from warroom.tui.widgets._dialogs import Dialog

    held = isinstance(field.screen, Dialog) and field.screen.held(field.id, event)
    action = None if held else editing.get(event.key)
    if held or action is not None:
        event.stop()
        event.prevent_default()
    return action
