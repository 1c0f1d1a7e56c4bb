"""The escalation dialog's evidence list: the released trace events, each ticked when the escalation cites it.

:class:`CiteList` shows one row per released trace event (``[x] e04  12 s  result  s1  summary``), drill text
literally. ↑ ↓ j k, page up / down, home / end move; space ticks or unticks the highlighted event; typing an event
id jumps to it (type-ahead); a click highlights a row. Keys are routed by
:class:`~warroom.tui.room._escalate.EscalateScreen`, as the step list's are, so keys typed fast keep their order.
:attr:`CiteList.cited` lists the ticked ids in the order they were ticked.

The list draws only the rows on screen (Textual's line API, ``render_line``), each built from its event when drawn:
opening the dialog, moving and ticking cost the same after 10 events as after 50,000 (an ``OptionList`` of every
released event laid out and measured each one, which took seconds per key on a large drill).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from warroom.core.model import TraceEvent, split_cite
from warroom.core.text import clock
from warroom.tui.render import KINDS, shown_line, summarize
from warroom.tui.room._keylist import ListKeys

#: Characters of an event's summary shown in its row (so that a row fits on one line of the dialog).
SUMMARY_LIMIT = 30


def _match(folded: Sequence[str], typed: str) -> int | None:
    """Index of the event the trainee means by ``typed`` among the casefolded ids ``folded``: an equal id, else the
    first id starting with it, else the first id ending with it (``4`` or ``04`` finds ``e04``); None when nothing
    matches."""
    want = typed.casefold()
    if not want:
        return None
    if want in folded:
        return folded.index(want)
    for test in (str.startswith, str.endswith):
        for n, ident in enumerate(folded):
            if test(ident, want):
                return n
    return None


def cite_row(event: TraceEvent, cited: bool, cite: str | None = None) -> Text:
    """The row of one trace event: a tick box, its id (or ``cite``, the citation of a field of it: ``e05:currency``),
    drill time (on the war room's clock, as the trace shows it), kind, plan step and summary (all literal)."""
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append("[x] " if cited else "[ ] ", style="bold" if cited else "dim")
    row.append(shown_line(cite or event.id), style="bold")
    row.append(f"  {clock(event.t)}  ", style="dim")  # as the trace shows it (00:24, not 23.9 s)
    row.append(KINDS[type(event)].label)
    row.append(f"  {shown_line(event.step) if event.step is not None else '—'}  ", style="dim")
    summary = shown_line(summarize(event, limit=SUMMARY_LIMIT))
    row.append(summary if len(summary) <= SUMMARY_LIMIT else summary[: SUMMARY_LIMIT - 1] + "…")
    return row


class CiteList(ListKeys, ScrollView, can_focus=True):
    """The evidence list of the escalation dialog (see the module docstring).

    Args:
        released: the released trace events, in the order they were released.
        cited: the ids cited when the dialog opens (the selected event and the flagged ones), in order; ids of
            events not in ``released`` are dropped.
    """

    MOVES: ClassVar[dict[str, tuple[str, int]]] = {
        "down": ("move", 1), "j": ("move", 1), "up": ("move", -1), "k": ("move", -1),
        "pagedown": ("page", 1), "pageup": ("page", -1), "home": ("move_to", 0), "end": ("move_to", -1),
    }
    ZONE = "cites"
    #: Keys that tick or untick the highlighted event.
    TOGGLES = ("space",)

    class Ticked(Message):
        """A click ticked or unticked an event (the dialog shows what is cited)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"cite-list--highlighted"}

    DEFAULT_CSS = """
    CiteList {
        height: auto;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        color: $foreground;
        & > .cite-list--highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .cite-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    def __init__(
        self, released: Sequence[TraceEvent], cited: Sequence[str] = (), *, id: str | None = None,
        positions: Mapping[str, int] | None = None, fields: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(id=id)
        self.events = list(released)
        #: Event id -> row. ``positions`` (the replay's :attr:`~warroom.core.play.Replay.released_positions`, the
        #: same order as ``released``) spares indexing every released event when the dialog opens.
        self._index: Mapping[str, int] = (
            positions if positions is not None else {e.id: n for n, e in enumerate(self.events)}
        )
        self._folded: list[str] | None = None  # the ids casefolded, on the first type-ahead
        #: Format 2: event id -> the citation of one of its fields (``e05:currency``) that ticking its row cites.
        self.fields: Mapping[str, str] = fields or {}
        #: The citations (event ids, or fields of events), in the order they were ticked.
        self.cited: list[str] = [i for i in dict.fromkeys(cited) if split_cite(i)[0] in self._index]
        self._highlighted: int | None = None
        self.virtual_size = Size(0, len(self.events))

    # -- the highlight --------------------------------------------------------------------------------------------

    @property
    def option_count(self) -> int:
        """Number of rows (released events)."""
        return len(self.events)

    @property
    def highlighted(self) -> int | None:
        """Index of the highlighted row, or None (no rows). Setting it repaints the two rows and scrolls the new
        one into view."""
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        old, self._highlighted = self._highlighted, index
        for row in (old, index):
            if row is not None:
                self.refresh_line(row)
        if index is not None:
            self._scroll_to_row(index)

    @property
    def highlighted_id(self) -> str | None:
        """The id of the highlighted event, or None."""
        return self.events[self._highlighted].id if self._highlighted is not None else None

    def _scroll_to_row(self, row: int) -> None:
        height = self.scrollable_content_region.height
        if height < 1:  # not laid out yet: once it is
            self.call_after_refresh(self._scroll_when_laid_out)
            return
        top = round(self.scroll_y)
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True, force=True)
        elif row > top + height - 1:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True, force=True)

    def _scroll_when_laid_out(self) -> None:
        if self._highlighted is not None and self.scrollable_content_region.height > 0:
            self._scroll_to_row(self._highlighted)

    def on_mount(self) -> None:
        if self.events:
            self.highlighted = self._index[split_cite(self.cited[0])[0]] if self.cited else len(self.events) - 1

    # -- keys and mouse -------------------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        """A click highlights the row under the pointer; a click on the row highlighted already ticks or unticks it
        (as space does), so that a trainee who uses only the mouse can cite."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = round(self.scroll_y) + offset.y
        if 0 <= row < len(self.events):
            event.stop()
            self._typed = ""
            if row == self._highlighted:
                self.toggle()
                self.post_message(self.Ticked())
            else:
                self.highlighted = row

    def action_move(self, direction: int) -> None:
        """Move the highlight ``direction`` events down (positive) or up (negative), stopping at the ends."""
        self._typed = ""
        if not self.events:
            return
        if self._highlighted is None:
            self.highlighted = 0 if direction > 0 else len(self.events) - 1
        else:
            self.highlighted = min(max(self._highlighted + direction, 0), len(self.events) - 1)

    def action_page(self, direction: int) -> None:
        """Move the highlight a page (the rows shown at once) down (+1) or up (-1)."""
        self.action_move(direction * max(self.scrollable_content_region.height, 1))

    def action_move_to(self, index: int) -> None:
        """Highlight the event at ``index`` (negative counts from the end)."""
        self._typed = ""
        if self.events:
            self.highlighted = index % len(self.events)

    def toggle(self) -> str | None:
        """Tick the highlighted event, or untick it when it is ticked. Returns its id (None with no highlight)."""
        index = self._highlighted
        if index is None:
            return None
        event = self.events[index]
        ticked = self._cite_of(event.id)
        if ticked is not None:
            self.cited.remove(ticked)
        else:
            self.cited.append(self.fields.get(event.id, event.id))
        self.refresh_line(index)
        return event.id

    def _cite_of(self, event_id: str) -> str | None:
        """The citation of ``event_id`` (the event or a field of it) among the ticked ones, or None."""
        return next((c for c in self.cited if split_cite(c)[0] == event_id), None)

    def typed_index(self, typed: str) -> int | None:
        """The row of the event whose id ``typed`` names (an equal id, else the first starting, else the first ending
        with it), or None."""
        if self._folded is None:
            self._folded = [e.id.casefold() for e in self.events]
        return _match(self._folded, typed)

    # -- rendering ------------------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the list on screen: the row of the event scrolled there, built now (no row is built
        before it is drawn)."""
        width = self.scrollable_content_region.width
        base = self.rich_style
        row = round(self.scroll_y) + y
        if not 0 <= row < len(self.events) or width < 1:
            return Strip.blank(max(width, 0), base)
        event = self.events[row]
        cite = self._cite_of(event.id)
        text = cite_row(event, cite is not None, cite or self.fields.get(event.id))
        text.truncate(width, overflow="ellipsis", pad=True)
        segments = [s for s in text.render(self.app.console) if s.text != "\n"]
        strip = Strip(segments, text.cell_len).apply_style(base)
        if row == self._highlighted:
            cursor = self.get_component_rich_style("cite-list--highlighted")
            strip = Strip(list(Segment.apply_style(strip, post_style=cursor)), strip.cell_length)
        return strip.crop_extend(0, width, base)
