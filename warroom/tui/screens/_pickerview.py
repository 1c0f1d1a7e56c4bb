"""What the drill picker shows of each drill: its table cells and its preview, made from the entry's card
(:class:`~warroom.core.library.DrillCard`), so that a drill listed from the picker's cache shows as a loaded one."""

from __future__ import annotations

import os

from rich.text import Text

from warroom.core.model import ESCALATION_INSTRUCTION
from warroom.core.text import clean, clean_name, clock, visible_name
from warroom.tui.logic import SORTS, DrillEntry, domain_of, is_tutorial
from warroom.tui.render import literal_line, prose, shown_line
from warroom.tui.screens._briefing import stars

#: The widest the group column gets (a group's label in its first drill's row), in cells: it is as wide as the longest
#: label shown, up to this (the bundled library's domains are at most 16 characters: docs/authoring.md).
GROUP_WIDTH = 24


def shown_filter(text: str) -> str:
    """The picker's filter as the picker shows it: its words on one line, control and invisible characters escaped
    (a pasted zero-width space matched no drill and read “”); "" for a filter of spaces alone, which filters
    nothing."""
    return visible_name(" ".join(text.split()))


def table_title(shown: int, total: int, filter_text: str, sort: str) -> str:
    """The drill list's title: ``Drills``, then ``shown`` of ``total`` and the filter while one filters (spaces alone
    do not: no "filter “”" over every drill), then the order unless by domain."""
    parts = ["Drills"]
    if filter_text.split():
        parts.append(f"{shown} of {total} · filter “{shown_filter(filter_text)}”")
    if sort != "domain":
        parts.append(SORTS[sort])
    return " · ".join(parts)


def group_label(label: str, *, reserved: bool = False) -> Text:
    """A group's label as its first row's group cell: drill text shown literally, cut to :data:`GROUP_WIDTH` cells.

    A cell of its own column, not a DataTable row label: Textual caches a row drawn before the table has noticed its
    labels (on idle) and never draws their column then, so the labels were missing from a real terminal. A
    ``reserved`` group's (start here, tutorial, other, cannot load) in italics, a domain's in bold: no tag imitates
    one."""
    return literal_line(label, style="italic" if reserved else "bold", limit=GROUP_WIDTH)


def best_cell(drill_id: str, best: dict[str, int | None]) -> Text:
    """The picker's "best" cell: the best score of a played session, ``quit`` (dim italic) for a drill the trainee
    only ever quit (its abandoned sessions score 0, which is not a best), ``—`` for a drill never started."""
    if drill_id not in best:
        return Text("—", style="dim")
    score = best[drill_id]
    return Text("quit", style="dim italic") if score is None else Text(str(score), style="bold")


def entry_cells(entry: DrillEntry, best: dict[str, int | None], grouped: bool = False) -> list[Text]:
    """The picker table's cells of one drill (from its card): title, level, tags, length, best score (``best``:
    the trainee's best scores by drill id); a broken drill marked ⚠. ``grouped``: the group column names the
    drill's domain (its first tag), so the tags column shows the others."""
    d = entry.card
    if d is not None and entry.problems:  # loaded, but breaks a rule across files (e.g. a duplicate id)
        return [
            literal_line(f"⚠ {d.title}", style="bold red"),
            Text(stars(d.difficulty), style="yellow"),
            Text("has problems", style="red"),
            Text(clock(d.duration)),
            Text("—"),
        ]
    if d is None:
        return [
            literal_line(f"⚠ {clean_name(entry.path.name)}", style="bold red"),  # a file's name, escaped as messages do
            Text("—"),
            Text("cannot load", style="red"),
            Text("—"),
            Text("—"),
        ]
    tags = d.public_tags[1:] if grouped and domain_of(entry) is not None else d.public_tags
    return [
        literal_line(d.title),
        Text(stars(d.difficulty), style="yellow"),
        literal_line(", ".join(tags), style="dim"),
        Text(clock(d.duration)),
        best_cell(d.id, best),
    ]


def preview_text(entry: DrillEntry, *, public: bool = False) -> Text:
    """The picker's preview of one drill, from its card: its problems, if any; title, id, revision, author and domain
    (or that it is the tutorial); the goal, what the trainee watches, how to escalate, the plan; then its file. Drill
    text is shown literally. ``public`` (a browser, through ``warroom serve``): the file by its name only, and its
    problems without its folder, so no path of the server reaches the browser."""
    out = Text()
    folder = clean_name(str(entry.path.parent) + os.sep)  # as problems name it
    if entry.problems:
        what = "cannot be loaded" if entry.card is None else "cannot be started until this is fixed"
        out.append(f"This drill {what}:\n", style="bold red")
        for line in entry.problems:
            out.append(clean(line.replace(folder, "") if public else line) + "\n")
        if entry.card is not None:
            out.append("\n")
    if entry.card is not None:
        d = entry.card
        out.append(shown_line(d.title), style="bold")
        out.append("\n")
        out.append(shown_line(f"{d.id} v{d.version} · by {d.author}"), style="dim")
        domain = domain_of(entry)
        if is_tutorial(entry):
            out.append("\nThe tutorial: a guided first drill, one key at a time; never counted in statistics.")
        elif domain is not None:
            out.append(" · " + shown_line(domain), style="dim")  # (shown_line would drop the space)
        others = d.public_tags[1:] if domain is not None else d.public_tags
        if others and not is_tutorial(entry):  # the tags column folds away in a narrow picker: named here
            out.append(" · tags: " + shown_line(", ".join(others)), style="dim")
        out.append("\n")
        out.append("\nGoal\n", style="bold")
        out.append(prose(d.goal))
        out.append("\n\nYou are watching\n", style="bold")
        out.append(prose(d.watching))
        out.append("\n" + ESCALATION_INSTRUCTION)
        out.append("\n\nThe plan\n", style="bold")
        for step_id, title in d.plan:
            out.append(f"  {shown_line(step_id)} ", style="bold")
            out.append(shown_line(title) + "\n")
    out.append("\n")
    out.append(clean_name(entry.path.name if public else str(entry.path)), style="dim")  # escaped, as messages are
    return out
