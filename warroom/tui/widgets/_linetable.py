"""A table of one-line rows drawn on Textual's public line API, for traces of any length.

:class:`LineTable` is a :class:`~textual.scroll_view.ScrollView` that renders only the lines on screen
(``render_line``), each row built on demand by the function given (``cells`` of :class:`LineTable`) and kept in a
least-recently-used cache of rendered lines, so a key press costs the same on a 100-row and a 100,000-row trace:
nothing here walks the rows. The first line is a fixed header; a cursor marks the selected row.

Keys (shown by no footer; the screens' help lists them from these bindings, see :mod:`warroom.tui.widgets._keyhelp`):
↑ ↓ / k j move, pgup pgdn a page, home g the first row, end G the last, enter selects (posts
:class:`LineTable.RowSelected`). A click moves the cursor to a row; a click on the row under the cursor selects it.
Cells are Rich :class:`~rich.text.Text` (never markup), cut with "…" to the column width; the flexible columns
share the width the scrollbar leaves, so they refit when it appears.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Set ``view``'s scrollable size to ``size``, without a layout of the screen when only its height changes and
    the vertical scrollbar stays shown (only the thumb moves).

    Textual lays the whole screen out again when a virtual size changes; growing a trace by a few rows or showing
    another body in the inspector would then cost a layout of every widget. Here the size is set with Textual's
    public ``set_reactive``, the scrollbar is told the new height, and the scroll offset is clamped to the new
    range; any other change (a width, a scrollbar appearing or going) takes the ordinary path."""
    old = view.virtual_size
    if size == old:
        return
    keeps_scrollbar = view.styles.overflow_y == "scroll" or size.height > view.scrollable_content_region.height
    if size.width == old.width and view.show_vertical_scrollbar and keeps_scrollbar:
        view.set_reactive(ScrollView.virtual_size, size)
        view.vertical_scrollbar.window_virtual_size = size.height
        view.vertical_scrollbar.refresh()
        view.scroll_y = view.validate_scroll_y(view.scroll_y)
        return
    view.virtual_size = size


class Column(NamedTuple):
    """One column: its key, the header label, and a fixed ``width`` in cells or (``width`` None) a share of the
    free width by ``weight``, never under ``minimum`` cells. A column with ``fold`` folds away (is not drawn, and
    leaves its width to the others) while the table's content is narrower than ``fold`` cells."""

    key: str
    label: str
    width: int | None = None
    weight: float = 1.0
    minimum: int = 8
    fold: int = 0


class LineTable(ScrollView, can_focus=True):
    """A header line and one line per row; rows are identified by string keys, rendered by :meth:`row_cells`.

    Made with ``cells``, the function giving row ``index``'s cells (a subclass passes its own method); a subclass
    may override :meth:`column_widths`. Rows are appended with :meth:`add_rows`; a row whose content changes is
    re-rendered after :meth:`refresh_row`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False, tooltip="the row above"),
        Binding("down,j", "cursor_down", "Down", show=False, tooltip="the row below"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="a page up"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="a page down"),
        Binding("home,g,ctrl+home", "first", "First", show=False, tooltip="the first row"),
        Binding("end,G,ctrl+end", "last", "Last", show=False, tooltip="the last row"),
        Binding("enter", "select", "Select", show=False, tooltip="select the row under the cursor (a click too)"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"line-table--header", "line-table--cursor"}

    DEFAULT_CSS = """
    LineTable {
        background: $surface;
        color: $foreground;
        & > .line-table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .line-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .line-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """

    #: Spaces on each side of every cell.
    CELL_PADDING = 1

    class _RowMessage(Message):
        """A message about one row: ``cursor_row`` (index) and ``key``; ``control`` is the table."""

        def __init__(self, table: LineTable, cursor_row: int, key: str) -> None:
            super().__init__()
            self.table = table
            self.cursor_row = cursor_row
            self.key = key

        @property
        def control(self) -> LineTable:
            return self.table

    class RowHighlighted(_RowMessage):
        """The cursor moved to another row (or the first row appeared)."""

    class RowSelected(_RowMessage):
        """Enter on a row, or a click on the row under the cursor."""

    def __init__(
        self,
        columns: Sequence[Column],
        cells: Callable[[int], Sequence[Text]],
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """``columns``: the table's columns; ``cells``: the cells of row ``index`` (0 the first row under the
        header), one Text per column, called only for rows drawn and kept in a cache until the row is refreshed."""
        super().__init__(id=id, classes=classes)
        self.columns: tuple[Column, ...] = tuple(columns)
        self._cells_of = cells
        self._keys: list[str] = []
        self._row_of: dict[str, int] = {}
        self._cursor = 0
        self._highlighted: str | None = None
        self._lines: LRUCache[tuple[int, tuple[int, ...]], Strip] = LRUCache(1024)
        self._paint: tuple[int, tuple[int, ...], Style] | None = None
        #: Called with the :class:`RowHighlighted` of each move of the cursor to another row, at once and instead of
        #: posting it, when set: what a screen draws for the row then changes in the same frame as the cursor (a
        #: posted message reaches the screen after the cursor's frame was drawn, and Textual draws the next frame one
        #: or two frame periods later). None: the message is posted.
        self.on_highlight: Callable[[LineTable.RowHighlighted], None] | None = None
        #: Called with the :class:`RowSelected` of ``enter`` (or a click on the cursor's row), at once and instead of
        #: posting it, when set: a screen that moves the focus on it moves it before the app reads the next key
        #: (keys typed right behind ``enter`` then go where the focus went). None: the message is posted.
        self.on_select: Callable[[LineTable.RowSelected], None] | None = None

    # -- rows -----------------------------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Number of rows (the header not counted)."""
        return len(self._keys)

    @property
    def keys(self) -> Sequence[str]:
        """Row keys in display order."""
        return self._keys

    def row_index(self, key: str) -> int:
        """Index of the row with this key; raises KeyError for an unknown key."""
        return self._row_of[key]

    def add_rows(self, keys: Sequence[str]) -> None:
        """Append rows with these (new, unique) keys; cost proportional to ``len(keys)``.

        Raises ValueError for a key already in the table (nothing is added then)."""
        clash = [k for k in keys if k in self._row_of]
        if clash or len(set(keys)) != len(keys):
            raise ValueError(f"duplicate row key {clash[0] if clash else keys[0]!r}")
        start = len(self._keys)
        self._keys.extend(keys)
        self._row_of.update((k, start + i) for i, k in enumerate(keys))
        self._update_virtual_size()
        if start == 0 and keys:
            self.move_cursor(0)
            return
        # Only the new rows that are in view change (the lines above them stay as they are).
        top = round(self.scroll_y)
        for row in range(max(start, top), min(len(self._keys), top + self.page_rows)):
            self.refresh_line(row + 1)

    def clear(self) -> None:
        """Remove every row; the cursor goes back to the top."""
        self._keys.clear()
        self._row_of.clear()
        self._lines.clear()
        self._cursor = 0
        self._highlighted = None
        self._update_virtual_size()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def refresh_row(self, index: int) -> None:
        """Forget row ``index``'s rendered line (its cells changed) and repaint it."""
        cached = self._lines.keys()  # Textual's LRUCache is not iterable itself (iterating it raises KeyError)
        for width in {key[1] for key in cached if key[0] == index}:
            self._lines.discard((index, width))
        self.refresh_line(index + 1)

    # -- cursor ---------------------------------------------------------------------------------------------------

    @property
    def cursor_row(self) -> int:
        """Index of the row under the cursor (0 when the table is empty)."""
        return self._cursor

    @property
    def selected_key(self) -> str | None:
        """The key of the row under the cursor, or None when the table is empty."""
        return self._keys[self._cursor] if self._keys else None

    def move_cursor(self, row: int, animate: bool = False, scroll: bool = True) -> None:
        """Put the cursor on row ``row`` (clamped to the rows there are), scroll it into view (``scroll``), and post
        :class:`RowHighlighted` (or call :attr:`on_highlight` with it) when the row under the cursor changed.
        ``animate`` is accepted for DataTable compatibility; the scroll is immediate."""
        if not self._keys:
            return
        row = min(max(row, 0), len(self._keys) - 1)
        old, self._cursor = self._cursor, row
        if old != row:
            self.refresh_line(old + 1)
        self.refresh_line(row + 1)
        if scroll:
            self.scroll_to_row(row)
        key = self._keys[row]
        if key != self._highlighted:
            self._highlighted = key
            if self.on_highlight is not None:
                self.on_highlight(self.RowHighlighted(self, row, key))
            else:
                self.post_message(self.RowHighlighted(self, row, key))

    def scroll_to_row(self, row: int) -> None:
        """Scroll the least needed for row ``row`` to be on screen below the header (once the table has a size)."""
        if self.scrollable_content_region.height < 2:  # not laid out yet: once it is
            self.call_after_refresh(self._scroll_when_laid_out, row)
            return
        rows = self.scrollable_content_region.height - 1
        top = round(self.scroll_y)
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True, force=True)
        elif row > top + rows - 1:
            self.scroll_to(y=row - rows + 1, animate=False, immediate=True, force=True)

    def _scroll_when_laid_out(self, row: int) -> None:
        if self.scrollable_content_region.height > 1:
            self.scroll_to_row(row)

    @property
    def page_rows(self) -> int:
        """Rows shown at once (the header not counted), at least 1."""
        return max(self.scrollable_content_region.height - 1, 1)

    def action_cursor_up(self) -> None:
        self.move_cursor(self._cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self._cursor + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self._cursor - self.page_rows)

    def action_page_down(self) -> None:
        self.move_cursor(self._cursor + self.page_rows)

    def action_first(self) -> None:
        """Move to the first row."""
        self.move_cursor(0)

    def action_last(self) -> None:
        """Move to the last row."""
        self.move_cursor(len(self._keys) - 1)

    def action_select(self) -> None:
        """Post :class:`RowSelected` for the row under the cursor."""
        if self._keys:
            message = self.RowSelected(self, self._cursor, self._keys[self._cursor])
            if self.on_select is not None:
                self.on_select(message)
            else:
                self.post_message(message)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:  # the border, or the header
            return
        row = round(self.scroll_y) + offset.y - 1
        if not 0 <= row < len(self._keys):
            return
        event.stop()
        self.click_row(row)

    def click_row(self, row: int) -> None:
        """A click on row ``row``: select it when the cursor is on it, else move the cursor there."""
        if row == self._cursor:
            self.action_select()
        else:
            self.move_cursor(row)

    # -- geometry -------------------------------------------------------------------------------------------------

    def column_widths(self, width: int) -> list[int]:
        """Widths of the columns (cells, padding excluded) for ``width`` cells of content: fixed columns as given,
        the others sharing what is left by weight, never under their minimum; 0 for a column folded away at this
        width (see :class:`Column`: it is not drawn, nor its padding)."""
        shown = [c for c in self.columns if not (c.fold and 0 < width < c.fold)]
        fixed = sum(c.width for c in shown if c.width is not None)
        free = width - fixed - 2 * self.CELL_PADDING * len(shown)
        flex = [c for c in shown if c.width is None]
        total = sum(c.weight for c in flex) or 1.0
        return [0 if c not in shown else c.width if c.width is not None else
                max(int(free * c.weight / total), c.minimum) for c in self.columns]

    def used_width(self, widths: Sequence[int]) -> int:
        """Cells the columns of ``widths`` take with their padding (a folded column, width 0, takes none)."""
        return sum(w + 2 * self.CELL_PADDING for w in widths if w)

    def _min_width(self) -> int:
        """The narrowest the table lays out: every column at its width or minimum, the foldable ones folded."""
        return self.used_width(self.column_widths(1))

    def _update_virtual_size(self) -> None:
        set_virtual_size(self, Size(self._min_width(), len(self._keys) + 1))

    def on_resize(self) -> None:
        self._update_virtual_size()

    # -- rendering ------------------------------------------------------------------------------------------------

    def _render_cells(self, cells: Sequence[Text], widths: Sequence[int]) -> Strip:
        pad = " " * self.CELL_PADDING
        line = Text(no_wrap=True, end="")
        for cell, width in zip(cells, widths, strict=True):
            if not width:  # folded away
                continue
            cell = cell.copy()
            cell.truncate(width, overflow="ellipsis", pad=True)
            line.append(pad)
            line.append_text(cell)
            line.append(pad)
        segments = [s for s in line.render(self.app.console) if s.text != "\n"]
        return Strip(segments, line.cell_len)

    def render_lines(self, crop: Region) -> list[Strip]:
        # What every line needs, once per paint rather than once per line (rich_style walks the ancestors).
        width = self.scrollable_content_region.width
        self._paint = (width, tuple(self.column_widths(max(width, self._min_width()))), self.rich_style)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width, widths, base = self._paint if self._paint is not None else (1, (), self.rich_style)
        scroll_x, scroll_y = self.scroll_offset
        if y == 0:
            labels = [Text(c.label) for c in self.columns]
            style = self.get_component_rich_style("line-table--header")
            strip = self._render_cells(labels, widths).apply_style(base + style)
            return strip.crop_extend(scroll_x, scroll_x + width, base + style)
        row = scroll_y + y - 1
        if row >= len(self._keys):
            return Strip.blank(width, base)
        cached = self._lines.get((row, widths))
        if cached is None:
            cached = self._render_cells(self._cells_of(row), widths)
            self._lines.set((row, widths), cached)
        strip = cached
        strip = strip.apply_style(base)
        if row == self._cursor:
            cursor = self.get_component_rich_style("line-table--cursor")
            strip = Strip(list(Segment.apply_style(strip, post_style=cursor)), strip.cell_length)
            return strip.crop_extend(scroll_x, scroll_x + width, base + cursor)
        return strip.crop_extend(scroll_x, scroll_x + width, base)
