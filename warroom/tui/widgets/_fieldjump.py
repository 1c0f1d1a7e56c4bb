"""Go to a field inside a large result: the war room's ``:`` key asks for a field path (``data.next_cursor``,
``items[3].id``) and the inspector scrolls to the line that shows it.

:func:`find_field_line` reads the inspector's lines as :func:`warroom.tui.render._structured.structured` lays data out
(``key: value`` lines indented two spaces per level, ``-`` per list item) and returns the line of the path's last
key. :class:`FieldScreen` asks for the path. Nothing here knows the answer key: a trainee can go to any field of
any event, and a drill's evidence paths are shown only in the debrief.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from warroom.core.model import (
    TraceEvent,
    cited_field_miss,
    event_output,
    has_output,
    is_field_path,
    path_parts,
    value_at,
)
from warroom.core.text import clean_line, json_text
from warroom.tui.widgets._dialogs import Dialog, mouse_buttons
from warroom.tui.widgets._textinput import TextInput

#: Longest field path typed, in characters.
PATH_MAX = 400


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def find_field_line(lines: Sequence[str], path: str) -> int | None:
    """Index in ``lines`` (the inspector's text, one entry per line) of the line that shows the field ``path``:
    each key is looked for below the previous one, deeper indented, and a list index ``[n]`` counts the ``-`` items
    at the next level. None when the path is not there."""
    start, depth = 0, -1
    found: int | None = None
    for part in path_parts(path):
        found = None
        seen_items = 0
        item_indent: int | None = None  # the list's own items: a list nested in an item has its `-` deeper
        for i in range(start, len(lines)):
            line = lines[i]
            if not line.strip():
                continue
            indent = _indent(line)
            if found is None and depth >= 0 and indent <= depth and i > start:
                break  # left the block of the previous key
            text = line.strip()
            if isinstance(part, int):
                if text == "-" or text.startswith("- "):
                    item_indent = indent if item_indent is None else item_indent
                    if indent != item_indent:
                        continue
                    if seen_items == part:
                        found = i
                        break
                    seen_items += 1
            elif text == f"{part}:" or text.startswith(f"{part}: "):
                found = i
                break
        if found is None:
            return None
        start, depth = found + 1, _indent(lines[found])
    return found


def find_json_key_line(lines: Sequence[str], path: str) -> int | None:
    """Index in ``lines`` (the inspector's text) of the line that shows ``path`` in an output held as JSON text (an
    imported tool result is one string, shown raw): the first line under the ``output`` heading that holds the path's
    last key as ``"key":``, else the first line of the output. None when there is no output heading."""
    head = next((i for i, line in enumerate(lines) if line.startswith("output (raw")), None)
    if head is None:
        return None
    keys = [part for part in path_parts(path) if isinstance(part, str)]
    if keys:
        quoted = json.dumps(keys[-1]) + ":"
        found = next((i for i in range(head + 1, len(lines)) if quoted in lines[i]), None)
        if found is not None:
            return found
    return min(head + 1, len(lines) - 1)


class FieldScreen(Dialog["str | None"]):
    """Ask for a field path to go to in the inspector. Dismisses with the path typed (stripped) or None."""

    ANSWERED_BY = frozenset({"field-path"})
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, event_id: str) -> None:
        super().__init__()
        self.event_id = event_id

    def compose(self) -> ComposeResult:
        with Vertical(id="field-box", classes="dialog"):
            title = Text("Go to a field of ")
            title.append(clean_line(self.event_id), style="bold")
            yield Label(title, classes="dialog-title")
            yield TextInput(placeholder="field path, e.g. data.next_cursor or items[3].id", max_length=PATH_MAX,
                        id="field-path")
            yield Label("enter goes there · escape cancels", classes="dialog-hint")
            yield mouse_buttons(("field-go", "Go (enter)", "screen.go"),
                                ("field-cancel", "Cancel (esc)", "screen.cancel"))

    @on(Input.Submitted, "#field-path")
    def submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_go(self) -> None:
        """Go to the path typed (the Go button, for the mouse), as enter does."""
        self.dismiss(self.query_one("#field-path", Input).value.strip())


def jump_to_field(notify: Callable[..., Any], inspector: Any, event_id: str, path: str | None,
                  event: TraceEvent | None = None) -> None:
    """The answer of :class:`FieldScreen`: scroll ``inspector`` (the war room's) to the field ``path`` of the event
    ``event_id``, or say with ``notify`` (a screen's) why not: not a field path, or no such field. None: nothing.

    ``event`` (the event itself): a path it does not have (:func:`~warroom.core.model.cited_field_miss`: not in its
    output, arguments or what the model was shown) is refused with the fields it has, so the escalation dialog never
    offers a citation the replay refuses; when its output is JSON text (shown raw, as every imported tool result is) and
    the path is in it, the inspector goes to the line that holds the field's key and the notice tells its value."""
    if not path:
        return
    if not is_field_path(path):
        notify(f"{clean_line(path)} is not a field path (data.next_cursor, items[3].id).", severity="warning",
               markup=False)
        return
    miss = cited_field_miss(event, path) if event is not None else None
    if miss is not None:  # what the replay would refuse to cite is never offered: say which fields there are
        notify(clean_line(f"No field {path} in {event_id}: {miss}."), severity="warning", markup=False)
        return
    if inspector.jump_to_field(path):
        inspector.jumped = path
        return
    found, value = value_at(event_output(event), path) if event is not None and has_output(event) else (False, None)
    if found and inspector.jump_to_json_field(path):
        inspector.jumped = path
        shown = value if isinstance(value, str) else json_text(value)
        notify(clean_line(f"{event_id} {path} = {shown[:200]}"), markup=False)
    else:
        notify(f"No field {clean_line(path)} in {clean_line(event_id)}.", severity="warning", markup=False)


def open_field_jump(screen: Any, inspector: Any) -> None:
    """Ask for a field path of the event selected on ``screen`` (a war-room screen: ``selected_event()``,
    ``notify``, ``open_dialog``) and scroll ``inspector`` to it (:func:`jump_to_field`); with no event selected, say
    so."""
    ev = screen.selected_event()
    if ev is None:
        screen.notify("Select a trace event first.", severity="warning", markup=False)
        return
    screen.open_dialog(FieldScreen(ev.id), partial(jump_to_field, screen.notify, inspector, ev.id, event=ev))
