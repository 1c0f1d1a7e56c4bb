"""The tables ``warroom scores`` prints: the sessions (fitted to the terminal's width, ids never cut) and the
summaries. Every cell is drill or trainee text shown literally: no Rich markup, control characters as ``\\xNN``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal

from warroom.core.text import clean, damage, damage_amount, seconds, visible_name

#: A damage unit longer than this is written once per drill under the table, not in every row.
SHORT_UNIT = 16


def fmt_when(iso: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().isoformat(" ", "minutes")[:16]  # (strftime: "1-01-01")
    except (ValueError, OverflowError, OSError):  # (year 9999 UTC is year 10000 at +14:00: shown as stored)
        return iso


def _cell(value: object) -> Any:
    """A table cell showing ``value`` literally: no Rich markup, control characters written as ``\\xNN``."""
    from rich.text import Text

    return Text(clean(value))


def _damage_cell(row: Any, inline_units: bool) -> str:
    """A row's damage: the amount with its unit, or (``inline_units`` False and a long unit) the amount and a ``*``
    pointing to the footnote."""
    if not inline_units and row.damage_unit and len(row.damage_unit) > SHORT_UNIT:
        return "-" if row.damage is None else f"{damage_amount(row.damage, row.damage_unit)} *"
    return damage(row.damage, row.damage_unit)


def _unit_footnote(rows: list[Any]) -> str | None:
    """``* damage in UNIT (drill, drill); ...`` for the long damage units of ``rows``' drills, or None."""
    drills: dict[str, list[str]] = {}
    for r in rows:
        if r.damage_unit and len(r.damage_unit) > SHORT_UNIT and r.drill_id not in drills.setdefault(r.damage_unit, []):
            drills[r.damage_unit].append(r.drill_id)
    parts = [f"{unit} ({', '.join(sorted(ids))})" for unit, ids in sorted(drills.items()) if ids]
    return clean("* damage in " + "; ".join(parts)) if parts else None


def _fixed(table: Any, name: str, values: list[str], justify: str = "left") -> None:
    """Add a column that is never truncated nor wrapped (a session id must stay copyable)."""
    width = max(len(line) for text in (name, *values) for line in text.split("\n"))
    table.add_column(name, justify=justify, no_wrap=True, min_width=width)


def _cells(r: Any, inline_units: bool, left_out: Mapping[str, str] | None = None) -> dict[str, str]:
    """A session's cells; its score marked ``!`` when the statistics leave it out (``left_out``: session id -> its
    verification state)."""
    from warroom.core.model import outcome_label

    return {
        # names and ids are checked when stored, not when read: one written by SQL with a zero-width space is shown
        "session": visible_name(r.session_id),
        "trainee": visible_name(r.trainee),
        "drill": visible_name(r.drill_id),
        "when": fmt_when(r.started_at),
        "outcome": outcome_label(r.outcome, r.all_clear) + (" (recovered)" if r.recovered else ""),
        "score": str(r.total) + (" !" if left_out and r.session_id in left_out else ""),
        "ttd": seconds(r.time_to_detect),
        "damage": clean(_damage_cell(r, inline_units)),
        "false": str(r.false_escalations),
        "mode": mode_cell(r),
    }


def mode_cell(r: Any) -> str:
    """A session's mode for the table: ``assessment``, or ``practice`` with its pauses (``practice, 2 pauses``) and
    whether its trial was chosen, not drawn (``practice, chosen trial``: ``warroom run --as``/``--seed``, never
    counted in the statistics)."""
    mode = str(getattr(r, "mode", "practice") or "practice")
    pauses = int(getattr(r, "pauses", 0) or 0)
    if pauses:
        mode += f", {pauses} pause" + ("" if pauses == 1 else "s")
    if getattr(r, "chosen", False):
        mode += f", {CHOSEN_MARK}"
    return mode


#: How the sessions table marks a session whose trial was chosen, not drawn.
CHOSEN_MARK = "chosen trial"


def _narrow_table(cells: list[dict[str, str]]) -> Any:
    """Three columns, four lines a session: session id, trainee, drill and when; the score; outcome, time to detect,
    damage and false escalations. The headers name each line."""
    from rich import box
    from rich.table import Table

    table = Table(header_style="bold", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    lines = [v for c in cells for v in (c["session"], c["trainee"], c["drill"], c["when"])]
    _fixed(table, "session\ntrainee\ndrill\nwhen", lines)
    _fixed(table, "score", [c["score"] for c in cells], "right")
    table.add_column("outcome\ntime to detect\ndamage\nfalse esc.\nmode", overflow="fold")
    for n, c in enumerate(cells):
        table.add_row(
            _cell("\n".join((c["session"], c["trainee"], c["drill"], c["when"]))),
            _cell(c["score"]),
            _cell("\n".join((c["outcome"], c["ttd"], c["damage"], c["false"], c["mode"]))),
            end_section=n < len(cells) - 1,
        )
    return table


#: The wide table's columns: (cell key, header, never wrapped).
_WIDE_COLUMNS = (
    ("session", "session", True),
    ("trainee", "trainee", True),
    ("drill", "drill", True),
    ("when", "when", False),
    ("outcome", "outcome", False),
    ("score", "score", True),
    ("ttd", "time to detect", False),
    ("damage", "damage", False),
    ("false", "false esc.", False),
    ("mode", "mode", False),
)

#: Columns written right-aligned (numbers).
_RIGHT = {"score", "ttd", "damage", "false", "sessions", "drills run", "contained", "median time to detect",
          "false escalations", "mean score", "attempts", "trainees", "median score",
          # the cohort statistics (warroom/cli/scores/_statistics.py)
          "quit", "hit rate", "false alarms", "d", "c", "a", "wall ttd", "reliability", "difficulty",
          "discrimination"}  # fmt: skip


#: A cell that is a number and its unit ("15.4 s", "1,234 ms"): a column never wraps it between the two.
_VALUE_WITH_UNIT = re.compile(r"[-+$]?\d[\d,.]*%? \S+")


def fitted_table(columns: list[tuple[str, str, bool]], rows: list[list[str]], width: int) -> Any:
    """A Rich table of ``rows`` (cell texts, one per column) no wider than ``width``, or None when it cannot be.

    ``columns`` are (key, header, fixed). A fixed column is as wide as its widest cell and never wraps (ids stay
    whole and copyable); the others wrap between words and never break one: each gets its longest word, then the
    room left is shared out up to each column's widest cell. Widths are set on the columns, so Rich never squeezes
    them itself; headers wrap between words, aligned to the bottom of the header row. Cells are measured as shown
    (control characters as ``\\xNN``, in terminal cells: a CJK character is two), so a fixed one is never cut."""
    from rich.cells import cell_len

    rows = [[clean(v) for v in r] for r in rows]
    lows, highs = [], []
    for i, (_, header, fixed) in enumerate(columns):
        texts = [header, *(r[i] for r in rows)]
        widest = max(cell_len(line) for t in texts for line in t.split("\n"))
        words = [cell_len(w) for t in texts for w in t.split() or [""]]
        values = [cell_len(t) for t in texts[1:] if _VALUE_WITH_UNIT.fullmatch(t)]  # "15.4 s" never breaks in two
        lows.append(widest if fixed else max(words + values))
        highs.append(widest)
    room = width - (3 * len(columns) + 1) - sum(lows)  # padding of 1 each side and a rule between columns
    if room < 0:
        return None
    widths = list(lows)
    wanting = sorted(range(len(columns)), key=lambda i: highs[i] - lows[i])
    for n, i in enumerate(wanting):  # the least wanting first, each at most its share of what is left
        give = min(highs[i] - widths[i], room // (len(wanting) - n))
        widths[i] += give
        room -= give
    from rich.table import Table

    table = Table(header_style="bold")
    for (key, header, fixed), w in zip(columns, widths, strict=True):
        justify: Literal["left", "right"] = "right" if key in _RIGHT else "left"
        table.add_column(header, justify=justify, width=w, no_wrap=fixed, overflow="fold")
    for r in rows:
        table.add_row(*(_cell(v) for v in r))
    return table


def sessions_table(rows: list[Any], width: int, left_out: Mapping[str, str] | None = None) -> tuple[Any, str | None]:
    """The sessions as a Rich table no wider than ``width`` columns, and its footnote (or None); the score of a
    session in ``left_out`` (session id -> its verification state: the statistics leave it out) is marked ``!``.

    Session ids, trainees, drill ids and scores are never truncated or wrapped. In order of preference: nine
    columns with every damage unit in its row; nine columns with the long damage units (over :data:`SHORT_UNIT`
    characters) once per drill in the footnote, so no damage cell wraps over many lines; four lines per session in
    three columns (:func:`_narrow_table`)."""
    for inline_units in (True, False):
        cells = [_cells(r, inline_units, left_out) for r in rows]
        # Units in the rows only when no damage cell has to wrap; else they go to the footnote. A damage cell
        # never wraps ("$4,413.00 *" stays whole).
        columns = [(k, h, fixed or k == "damage") for k, h, fixed in _WIDE_COLUMNS]
        table = fitted_table(columns, [[c[k] for k, _, _ in columns] for c in cells], width)
        if table is not None:
            return table, None if inline_units else _unit_footnote(rows)
    return _narrow_table([_cells(r, False, left_out) for r in rows]), _unit_footnote(rows)
