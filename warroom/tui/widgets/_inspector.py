"""The inspector: the selected trace event in full, drawn on Textual's line API so a huge result never blocks the UI.

The body (:func:`~warroom.tui.render.describe_event`: header, plan step, arguments and raw result pretty-printed,
token usage and cost) is laid out into lines once per width and drawn with ``render_line``. An event whose payload
(tool arguments, tool output, text) is over :data:`BACKGROUND_CHARS` characters is described and laid out in a worker
thread, started once the event has stayed selected for :data:`START_DELAY` seconds: the inspector shows the
event's header and "laying out …" at once, and the body when it is ready; a later selection supersedes it. Drill text
is Rich Text from :mod:`warroom.tui.render._text`, never markup.

Text search, as in ``less``: :meth:`Inspector.search` finds every place a text appears in the lines shown (ignoring
case unless the text has a capital letter), highlights them, and scrolls to the first one at or below the top of the
view; :meth:`Inspector.search_next` goes to the next (or previous) one, wrapping around. The search stays when
another event is shown (its matches are found again), until a new one is made. The bottom border says where it
stands (``/cursor 2 of 7``).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import work
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from warroom.core.model import TraceEvent
from warroom.core.text import visible_name
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event, event_heading, payload_chars
from warroom.tui.widgets._linetable import set_virtual_size

#: Events with a payload longer than this (characters of JSON or text) are described in a worker thread.
BACKGROUND_CHARS = 20_000
#: Seconds a big event must stay selected before its worker thread starts.
START_DELAY = 0.05
#: Laid-out bodies kept (by width and content): going back to an event shown a moment ago costs no layout.
LAYOUTS_KEPT = 64
#: How a search's matches are drawn: every match, and the current one.
MATCH_STYLE = Style(reverse=True)
CURRENT_MATCH_STYLE = Style(reverse=True, bold=True, color="yellow")


def find_matches(lines: Sequence[str], query: str) -> list[tuple[int, int, int]]:
    """Every place ``query`` appears in ``lines``, as (line, first cell, end cell), in reading order. Case is ignored
    unless ``query`` has a capital letter (``less``'s smart case); a match never spans two lines."""
    if not query:
        return []
    fold = query == query.lower()
    want = query.lower() if fold else query
    out = []
    for n, line in enumerate(lines):
        text = _lowered(line) if fold else line
        start = text.find(want)
        while start >= 0:
            first = cell_len(line[:start])
            out.append((n, first, first + cell_len(line[start:start + len(query)])))
            start = text.find(want, start + max(len(want), 1))
    return out


def _lowered(line: str) -> str:
    """``line`` in lower case, one character for one, so that a place in it is the same place in ``line``: U+0130
    (``İ``, the one character ``str.lower`` makes two of) lowers to ``i``."""
    return line.replace("\u0130", "i").lower() if "\u0130" in line else line.lower()


def _lay_out(body: Text, width: int) -> list[Strip]:
    """``body`` wrapped to ``width`` cells, one Strip per line (a private console: safe in a worker thread)."""
    console = Console(file=io.StringIO(), width=width, force_terminal=True, color_system="truecolor",
                      markup=False, highlight=False, emoji=False)
    lines = console.render_lines(body, console.options.update(width=width), pad=True)
    return [Strip(line, width) for line in lines]


def _layout_key(body: Text, width: int) -> tuple[Any, ...]:
    """What a body's layout depends on: the width, its text, its spans and how it wraps (never the event it came
    from, so a body that changed, e.g. a repetition count or a result released since, is laid out again)."""
    return (width, body.plain, tuple(body.spans), str(body.style), body.justify, body.overflow, body.no_wrap,
            body.end, body.tab_size)


class Inspector(ScrollView, can_focus=True):
    """The selected trace event in full (or a note), scrollable with ↑ ↓ pgup pgdn home end when focused."""

    DEFAULT_CSS = """
    Inspector {
        scrollbar-gutter: stable;
        overflow-y: scroll;  /* always shown: short and long bodies lay out alike (_fit_virtual_size) */
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._build: Callable[[], Text] = Text
        self._body: Text | None = Text()
        self._strips: list[Strip] = []
        self._laid_out_width = -1
        self._generation = 0
        #: True while a worker thread is building the body shown next.
        self.pending = False
        self._base: Style | None = None
        self._paint_width = 1
        self._layouts: LRUCache[tuple[Any, ...], list[Strip]] = LRUCache(LAYOUTS_KEPT)
        #: The text searched for (``/``), its matches in the lines shown and the current one's index.
        self.query_text = ""
        self.matches: list[tuple[int, int, int]] = []
        self.current_match: int | None = None
        self._by_line: dict[int, list[int]] = {}
        #: The id of the trace event shown (None: other text).
        self.shown_id: str | None = None
        #: The field path of the shown event the trainee last went to (``:``), or None: an escalation opened now
        #: offers that field in the event's row (format 2's citation of a field, ``e05:currency``), unticked.
        self.jumped: str | None = None

    @property
    def text(self) -> str:
        """The plain text of the body shown ("" while it is being laid out)."""
        return self._body.plain if self._body is not None and not self.pending else ""

    def show_text(self, body: Text) -> None:
        """Show ``body`` (already safe Text) and scroll back to the top."""
        self.shown_id = self.jumped = None
        self._show(lambda: body, background=False)

    def show_event(
        self, event: TraceEvent, index: TraceIndex, events: Mapping[str, TraceEvent] | None = None,
        repeated: int | None = None,
    ) -> None:
        """Show one trace event of ``index.drill`` in full (``events``, ``repeated``: see :func:`describe_event`); an
        event with a payload over :data:`BACKGROUND_CHARS` characters (:func:`~warroom.tui.render.payload_chars`) is
        built in a worker thread."""
        big = payload_chars(event) > BACKGROUND_CHARS
        if event.id != self.shown_id:
            self.shown_id, self.jumped = event.id, None

        def build() -> Text:
            return describe_event(event, index, events, repeated)

        if big:
            self._placeholder(event)
        self._show(build, background=big)

    def jump_to_field(self, path: str) -> bool:
        """Scroll to the line that shows the field ``path`` (``data.next_cursor``) of the event shown; False when
        it is not there (or the event is still being laid out)."""
        from warroom.tui.widgets._fieldjump import find_field_line

        return self._jump(find_field_line, path)

    def jump_to_json_field(self, path: str) -> bool:
        """Scroll to the line of the output shown as JSON text that holds the field ``path``'s key (or the output's
        first line; :func:`~warroom.tui.widgets._fieldjump.find_json_key_line`); False when no output is shown (or the
        event
        is still being laid out). The caller checks that the path is in the output."""
        from warroom.tui.widgets._fieldjump import find_json_key_line

        return self._jump(find_json_key_line, path)

    def _jump(self, find: Callable[[Sequence[str], str], int | None], path: str) -> bool:
        """Scroll to the line ``find`` gives for ``path`` among the lines shown; False when none (or still laying
        out)."""
        if self.pending:
            return False
        index = find([s.text for s in self._strips], path)
        if index is None:
            return False
        self.scroll_to(0, index, animate=False, immediate=True, force=True)
        return True

    # -- search ---------------------------------------------------------------------------------------------------

    def search(self, query: str) -> int:
        """Search the lines shown for ``query`` (see the module docstring) and scroll to the first match at or below
        the top of the view; returns the number of matches (0: nothing moves)."""
        self.query_text = query
        self._find()
        if self.matches:
            top = round(self.scroll_y)
            self._go(next((i for i, m in enumerate(self.matches) if m[0] >= top), 0))
        self.refresh()
        return len(self.matches)

    def search_next(self, direction: int = 1) -> bool:
        """Go to the next match (``direction`` 1) or the previous one (-1) of the search, wrapping around; from no
        current match (another event shown since), the first one at or below the top of the view (going back: the
        last one above it). Returns True when it wrapped around the end (or the start). Nothing without matches."""
        if not self.matches:
            return False
        count = len(self.matches)
        if self.current_match is None:
            top = round(self.scroll_y)
            after = next((i for i, m in enumerate(self.matches) if m[0] >= top), count)
            self._go(after % count if direction > 0 else (after - 1) % count)
            return False
        target = self.current_match + direction
        self._go(target % count)
        return not 0 <= target < count

    def search_status(self) -> str:
        """``/cursor 2 of 7`` (``/cursor: none``) while a search is made, else ``""``: plain text (the text typed,
        its control and invisible characters escaped: a pasted zero-width space read ``/: none``), never markup."""
        if not self.query_text:
            return ""
        typed = visible_name(self.query_text)
        if not self.matches:
            return f"/{typed}: none"
        shown = f"{self.current_match + 1} of " if self.current_match is not None else ""
        return f"/{typed} {shown}{len(self.matches)}"

    def _find(self) -> None:
        self.matches = find_matches([s.text for s in self._strips], self.query_text) if not self.pending else []
        self.current_match = None
        self._by_line = {}
        for n, (line, _, _) in enumerate(self.matches):
            self._by_line.setdefault(line, []).append(n)
        self._show_status()

    def _show_status(self) -> None:
        """Where the search stands, in the bottom border (set only when it changes: setting it repaints), as
        Content: a border's str is read as markup, and a search for ``[/x]`` was a MarkupError that ended the app."""
        status = Content(self.search_status())
        if (self.border_subtitle or "") != status.markup:
            self.border_subtitle = status

    def _go(self, index: int) -> None:
        """Make match ``index`` the current one and scroll its line into view (a third of the way down)."""
        self.current_match = index
        self._show_status()
        line = self.matches[index][0]
        height = max(self.scrollable_content_region.height, 1)
        if not round(self.scroll_y) <= line < round(self.scroll_y) + height:
            self.scroll_to(0, max(line - height // 3, 0), animate=False, immediate=True, force=True)
        self.refresh()

    def _highlight(self, strip: Strip, index: int) -> Strip:
        """Line ``index``'s strip with the search's matches on it drawn (the current one brighter)."""
        current = self.current_match
        cuts = [(*self.matches[n][1:], CURRENT_MATCH_STYLE if n == current else MATCH_STYLE)
                for n in self._by_line.get(index, ())]
        if not cuts:
            return strip
        parts: list[Strip] = []
        at = 0
        for a, b, style in cuts:
            parts.append(strip.crop(at, a))
            piece = strip.crop(a, b)
            parts.append(Strip(list(Segment.apply_style(piece, post_style=style)), piece.cell_length))
            at = b
        parts.append(strip.crop(at, strip.cell_length))
        return Strip.join(parts)

    # -- layout ---------------------------------------------------------------------------------------------------

    @property
    def _width(self) -> int:
        return max(self.scrollable_content_region.width, 1)

    def _show(self, build: Callable[[], Text], background: bool) -> None:
        self._generation += 1
        self._build = build
        if background:
            self._body = None
            self.pending = True
            # Start the thread once the selection is painted and has stayed put for a moment: it holds the GIL
            # much of the time it runs, and a key held down through big results lays out only the one it stops on.
            self.set_timer(START_DELAY, partial(self._start, self._generation, build))
        else:
            self.pending = False
            body = build()
            if self.scrollable_content_region.width < 1:
                # Not laid out yet (a war room being mounted): on_resize lays the body out at the real width. Laying
                # it out at one cell first made a line of every character (5,663 strips for a 5,768-character body).
                self._set_lines(body, -1, [])
            else:
                self._set_lines(body, self._width, self._lay_out_small(body, self._width))

    def _placeholder(self, event: TraceEvent) -> None:
        note = event_heading(event)
        note.append(f"laying out {payload_chars(event):,} characters…", style="dim italic")
        self._set_lines(None, -1, _lay_out(note, self._width))

    def _set_lines(self, body: Text | None, width: int, strips: list[Strip], home: bool = True) -> None:
        self._body = body
        self._laid_out_width = width
        self._strips = strips
        self._find()
        self._fit_virtual_size()
        if home:
            self.scroll_to(0, 0, animate=False, immediate=True, force=True)
        self.refresh()

    def _start(self, generation: int, build: Callable[[], Text]) -> None:
        if generation == self._generation:  # not superseded by a newer selection before the paint
            self._lay_out_in_thread(generation, build, None, self._width)

    @work(thread=True, exclusive=True, group="inspector")
    def _lay_out_in_thread(self, generation: int, build: Callable[[], Text], body: Text | None, width: int) -> None:
        body = build() if body is None else body
        strips = _lay_out(body, width)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._finished, generation, body, width, strips)

    def _finished(self, generation: int, body: Text, width: int, strips: list[Strip]) -> None:
        if generation != self._generation:
            return  # another event was selected meanwhile
        self.pending = False
        self._set_lines(body, width, strips)
        self.on_resize()  # the width changed while the thread worked: lay out again

    def _fit_virtual_size(self) -> None:
        """The scrollable size: the body's lines, but never fewer than the inspector shows. Bodies that fit the
        inspector all share one size, so moving between them lays nothing out; between bodies that overflow it only
        the scrollbar's thumb changes (:func:`~warroom.tui.widgets._linetable.set_virtual_size`: no layout of the
        screen)."""
        view = self.scrollable_content_region.height
        set_virtual_size(self, Size(self._width, max(len(self._strips), view)))

    def on_resize(self) -> None:
        width = self._width
        if self._body is None or width == self._laid_out_width:
            self._fit_virtual_size()  # the height may have changed
            return
        body = self._body
        if len(body) > BACKGROUND_CHARS:
            self._generation += 1
            self.pending = True
            self._lay_out_in_thread(self._generation, self._build, body, width)
        else:
            self._set_lines(body, width, self._lay_out_small(body, width), home=False)

    def _lay_out_small(self, body: Text, width: int) -> list[Strip]:
        """``body`` laid out at ``width`` on the UI thread, or the same layout kept from an earlier call."""
        key = _layout_key(body, width)
        strips = self._layouts.get(key)
        if strips is None:
            strips = _lay_out(body, width)
            self._layouts.set(key, strips)
        return strips

    def render_lines(self, crop: Region) -> list[Strip]:
        # Once per paint, not per line: the style walks the ancestors, the width asks for the scrollbar's gutter.
        self._base = self.rich_style
        self._paint_width = self._width
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_y) + y
        if self._base is None:  # drawn outside a paint (render_lines sets both)
            self._base, self._paint_width = self.rich_style, self._width
        base, width = self._base, self._paint_width
        if 0 <= index < len(self._strips):
            strip = self._strips[index].apply_style(base)
            if self.matches:
                strip = self._highlight(strip, index)
            return strip.crop_extend(0, width, base)
        return Strip.blank(width, base)
