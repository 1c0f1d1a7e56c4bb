"""The escalation dialog's evidence list: the released trace events, each ticked when the escalation cites it.

:class:`CiteList` shows one row per released trace event (``[x] e04  12 s  result  s1  summary``), drill text
literally. ↑ ↓ j k, home / end move; space ticks or unticks the highlighted event; typing an event id jumps
to it (type-ahead, :func:`match_event`). Keys are routed by :class:`~warroom.tui.escalate.EscalateScreen`, as the
step list's are, so keys typed fast keep their order. :attr:`CiteList.cited` lists the ticked ids in the order
they were ticked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets.option_list import Option

from warroom.tui import text as fmt
from warroom.tui.keylist import KeyedList
from warroom.tui.widgets import KIND_LABELS, summarize

#: Characters of an event's summary shown in its row (so that a row fits on one line of the dialog).
SUMMARY_LIMIT = 30


def match_event(ids: Sequence[str], typed: str) -> int | None:
    """Index of the event the trainee means by ``typed`` (ignoring case): an equal id, else the first id starting
    with it, else the first id ending with it (``4`` or ``04`` finds ``e04``); None when nothing matches."""
    want = typed.casefold()
    if not want:
        return None
    folded = [i.casefold() for i in ids]
    if want in folded:
        return folded.index(want)
    for test in (str.startswith, str.endswith):
        for n, ident in enumerate(folded):
            if test(ident, want):
                return n
    return None


def cite_row(event: Any, cited: bool) -> Text:
    """The row of one trace event: a tick box, its id, drill time, kind, plan step and summary (all literal)."""
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append("[x] " if cited else "[ ] ", style="bold" if cited else "dim")
    row.append(fmt.clean_line(event.id), style="bold")
    row.append(f"  {fmt.seconds(event.t)}  ", style="dim")
    row.append(KIND_LABELS.get(event.kind, fmt.clean_line(event.kind)))
    row.append(f"  {fmt.clean_line(event.step) if event.step is not None else '—'}  ", style="dim")
    summary = fmt.clean_line(summarize(event, limit=SUMMARY_LIMIT))
    row.append(summary if len(summary) <= SUMMARY_LIMIT else summary[: SUMMARY_LIMIT - 1] + "…")
    return row


class CiteList(KeyedList):
    """The evidence list of the escalation dialog (see the module docstring).

    Args:
        released: the released trace events, in the order they were released.
        cited: the ids cited when the dialog opens (the selected event and the flagged ones), in order; ids of
            events not in ``released`` are dropped.
    """

    ZONE = "cites"
    #: Keys that tick or untick the highlighted event.
    TOGGLES = ("space",)

    def __init__(self, released: Sequence[Any], cited: Sequence[str] = (), *, id: str | None = None) -> None:
        self.events = list(released)
        known = {e.id for e in self.events}
        #: The cited event ids, in the order they were ticked.
        self.cited: list[str] = [i for i in dict.fromkeys(cited) if i in known]
        super().__init__(*(Option(cite_row(e, e.id in self.cited), id=e.id) for e in self.events), id=id)

    def on_mount(self) -> None:
        if self.events:
            first = self.cited[0] if self.cited else self.events[-1].id
            self.highlighted = [e.id for e in self.events].index(first)
            self.scroll_to_highlight()

    def typeable_ids(self) -> list[str]:
        return [e.id for e in self.events]

    def match(self, ids: Sequence[str], typed: str) -> int | None:
        return match_event(ids, typed)

    def toggle(self) -> str | None:
        """Tick the highlighted event, or untick it when it is ticked. Returns its id (None with no highlight)."""
        index = self.highlighted
        if index is None:
            return None
        event = self.events[index]
        if event.id in self.cited:
            self.cited.remove(event.id)
        else:
            self.cited.append(event.id)
        self.replace_option_prompt_at_index(index, cite_row(event, event.id in self.cited))
        return event.id
