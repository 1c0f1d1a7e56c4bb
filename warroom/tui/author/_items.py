"""Evidence beyond a whole event, in the author mode (mixed into :class:`~warroom.tui.author.AnnotateScreen`):
a field inside an event (``f``; ``:`` goes to a field first, as in the war room), an absence at a checkpoint event
(``a``) and a comparison of several events (``m`` gathers them, ``M`` marks them as one ``all_of`` item). These are
format-2 evidence items (docs/authoring.md "Evidence by comparison, by absence and at a field path"); a format-1
drill marks whole events only.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from warroom.core.author import AnnotatedFile, KeyDraft
from warroom.core.model import (
    TraceEvent,
    event_output,
    has_output,
    is_field_path,
    path_miss,
)
from warroom.core.text import clean_line
from warroom.tui.author._dialogs import FieldPathDialog, TextDialog
from warroom.tui.render import summarize
from warroom.tui.widgets import FieldScreen, Inspector, jump_to_field

if TYPE_CHECKING:
    from textual.app import App


def path_problem(ev: TraceEvent, path: str) -> str | None:
    """Why ``path`` is not a field of trace event ``ev``'s output (not a field path, or it leads nowhere: then the
    first key that is not there, with a did-you-mean and the keys that are), or None when it is one."""
    if not is_field_path(path):
        return f"{clean_line(path)} is not a field path (data.next_cursor, items[3].id)"
    miss = path_miss(event_output(ev), path)
    if miss is not None:
        return clean_line(f"no field {path} in the output of {ev.id}: {miss}")
    return None


class ItemActions:
    """The keys ``:``, ``f``, ``a``, ``m`` and ``M``. The screen provides ``file``, ``draft``, ``fields`` (event id
    -> the last field path gone to with ``:``), ``comparing`` (the events gathered with ``m``),
    :meth:`selected_event`, :meth:`inspector`, :meth:`changed`, :meth:`refresh_panel`, ``notify`` and ``app``."""

    file: AnnotatedFile
    draft: KeyDraft
    fields: dict[str, str]
    comparing: list[str]

    if TYPE_CHECKING:  # provided by the screen (declared for type checking only: never shadow Screen's own)
        app: App[Any]

        def inspector(self) -> Inspector: ...
        def selected_event(self) -> TraceEvent | None: ...
        def changed(self, message: str) -> None: ...
        def refresh_panel(self) -> None: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...

    def _format2_event(self, what: str) -> TraceEvent | None:
        """The selected event when the drill is format 2 and the event is not a distractor; else None (told)."""
        ev = self.selected_event()
        if ev is None:
            return None
        if self.file.drill.schema_version < 2:
            self.notify(f"{what} is format-2 evidence; this drill is format 1, which marks whole events only (v).",
                        severity="warning", markup=False)
            return None
        if ev.id in self.draft.distractors:
            self.notify(f"{clean_line(ev.id)} is a distractor; x unmarks it first.", severity="warning",
                        markup=False)
            return None
        return ev

    # -- a field inside an event ----------------------------------------------------------------------------------

    def action_goto_field(self) -> None:
        """Ask for a field path and scroll the inspector to it in the selected event (as the war room's ``:``);
        the path gone to is offered by ``f``."""
        ev = self.selected_event()
        if ev is None:
            return

        def done(path: str | None) -> None:
            jump_to_field(self.notify, self.inspector(), ev.id, path, event=ev)
            if path and path_problem(ev, path) is None:
                self.fields[ev.id] = path

        self.app.push_screen(FieldScreen(ev.id), done)

    def action_field_evidence(self) -> None:
        """Mark a field of the selected event as evidence (``{event, path}``; asks the path, offering the one gone
        to with ``:``), or unmark it (the same path again)."""
        ev = self._format2_event("Evidence at a field")
        if ev is None:
            return
        if not has_output(ev):
            self.notify(f"{clean_line(ev.id)} is a {ev.kind}: it has no output to point a field path at.",
                        severity="warning", markup=False)
            return
        marked = [i["path"] for i in self.draft.evidence
                  if isinstance(i, dict) and i.get("event") == ev.id and isinstance(i.get("path"), str)]
        quote = summarize(ev) + (f"  (marked: {', '.join(marked)}; the same path again unmarks it)" if marked else "")
        value = self.fields.get(ev.id) or (marked[0] if marked else "")
        self.app.push_screen(FieldPathDialog(f"Evidence at a field of {clean_line(ev.id)}", quote,
                                             partial(path_problem, ev), value), partial(self._mark_field, ev))

    def _mark_field(self, ev: TraceEvent, path: Any) -> None:
        if not isinstance(path, str):
            return
        now_in = self.draft.toggle_item({"event": ev.id, "path": path})
        if not self.inspector().jump_to_field(path):  # an output held as JSON text is shown raw
            self.inspector().jump_to_json_field(path)
        self.changed(f"{ev.id} {path} is evidence." if now_in else f"{ev.id} {path} is no longer evidence.")

    # -- an absence at a checkpoint -------------------------------------------------------------------------------

    def action_absence(self) -> None:
        """Mark the selected event as the checkpoint of an absence (``{event, absent}``: asks what did not happen
        before it), or unmark its absence."""
        ev = self._format2_event("An absence")
        if ev is None:
            return
        old = next((i for i in self.draft.evidence if isinstance(i, dict) and i.get("event") == ev.id
                    and "absent" in i), None)
        if old is not None:
            self.draft.evidence.remove(old)
            self.changed(f"The absence at {ev.id} is no longer evidence.")
            return

        def done(what: Any) -> None:
            if isinstance(what, str):
                self.draft.toggle_item({"event": ev.id, "absent": what})
                self.changed(f"Absent before {ev.id}: {what}")

        self.app.push_screen(TextDialog(f"Absence at {clean_line(ev.id)}: what did not happen before it?",
                                        summarize(ev), "e.g. no approval of s3 before the payout"), done)

    # -- a comparison of several events ---------------------------------------------------------------------------

    def action_compare(self) -> None:
        """Add the selected event to the comparison being gathered, or take it out (``M`` marks it)."""
        ev = self._format2_event("A comparison")
        if ev is None:
            return
        if ev.id in self.comparing:
            self.comparing.remove(ev.id)
        else:
            self.comparing.append(ev.id)
        self.refresh_panel()
        self.notify(f"Comparing: {clean_line(', '.join(self.comparing)) or 'nothing'}.", markup=False,
                    timeout=2)

    def action_compare_done(self) -> None:
        """Mark the events gathered with ``m`` (two or more) as one comparison (``all_of``, in trace order); an
        equal comparison already marked is unmarked. With none gathered, unmark the comparisons of the selected
        event."""
        if len(self.comparing) >= 2:
            order = self.file.event_order
            events = sorted(self.comparing, key=lambda e: order.get(e, len(order)))
            self.comparing.clear()
            now_in = self.draft.toggle_item({"all_of": events})
            label = " + ".join(events)
            self.changed(f"{label} is evidence (compared)." if now_in else f"{label} is no longer evidence.")
            return
        if self.comparing:
            self.notify("A comparison needs two or more events: m on another event first.", severity="warning",
                        markup=False)
            return
        ev = self.selected_event()
        if ev is None:
            return
        groups = [i for i in self.draft.evidence if isinstance(i, dict) and isinstance(i.get("all_of"), list)
                  and ev.id in i["all_of"]]
        if not groups:
            self.notify("Gather two or more events with m, then M marks them as one comparison.",
                        severity="warning", markup=False)
            return
        for group in groups:
            self.draft.evidence.remove(group)
        self.changed(f"The comparison of {ev.id} is no longer evidence.")
