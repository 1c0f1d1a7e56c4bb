"""The marking actions of the author mode (mixed into :class:`~warroom.tui.author.AnnotateScreen`): each applies one
mark of the selected trace event to the answer-key draft, or opens the dialog that asks for the rest, and ``save``
writes the draft into the drill file, then shows what ``validate`` and ``check`` say of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warroom.core.author import (
    AnnotatedFile,
    ChangedOnDisk,
    DeadlineMark,
    Findings,
    KeyDraft,
    KeyWriteError,
    discard_recovery,
    findings,
    write_draft,
    write_recovery,
)
from warroom.core.model import TraceEvent
from warroom.core.text import clean, clean_line, clean_name, plural


class MarkActions:
    """Marking up the selected event. The screen provides ``file``, ``draft``, ``saved``, ``findings``,
    :meth:`selected_event`, the ``ask_*`` dialogs, :meth:`refresh_panel` and Textual's ``notify``."""

    file: AnnotatedFile
    draft: KeyDraft
    saved: bool
    findings: Findings | None

    if TYPE_CHECKING:  # provided by the screen (declared for type checking only: never shadow Screen's own)

        def selected_event(self) -> TraceEvent | None: ...
        def ask_fault(self, origins: list[tuple[str, str]], ev: TraceEvent) -> None: ...
        def ask_distractor(self, ev: TraceEvent) -> None: ...
        def ask_damage(self, ev: TraceEvent) -> None: ...
        def ask_deadline(self, ev: TraceEvent) -> None: ...
        def refresh_panel(self) -> None: ...
        def show_findings(self, found: Findings) -> None: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...

    def changed(self, message: str) -> None:
        """The draft changed: mark it unsaved, re-render the panel and say what changed (a short notice)."""
        self.saved = False
        self.refresh_panel()
        self.notify(clean_line(message), markup=False, timeout=2)

    def action_origin(self) -> None:
        """The fault's origin is at the selected event: its plan step, or (format 2) the plan for a planner call
        and the set-up for an event before step 1 (:meth:`AnnotatedFile.origins_at`: the dialog offers each);
        ask its kind and summary."""
        ev = self.selected_event()
        if ev is not None:
            self.ask_fault(self.file.origins_at(ev.id), ev)

    def set_origin(self, origin: str, where: str, kind: str, summary: str) -> None:
        """The fault happened at ``where`` (a plan step for origin ``step``, else the trace event of a ``plan`` or
        ``setup`` origin), of ``kind``, as ``summary`` says."""
        self.draft.set_origin(origin, where)
        self.draft.kind, self.draft.summary = kind, summary
        if origin == "step" and where in self.draft.cascade:  # the origin is not part of its own cascade
            self.draft.cascade.remove(where)
        self.changed(f"Fault origin: {self.draft.origin_label()} ({kind}).")

    def action_evidence(self) -> None:
        """Mark the selected event as evidence, or unmark it."""
        ev = self.selected_event()
        if ev is None:
            return
        if ev.id in self.draft.distractors:
            self.notify(f"{clean_line(ev.id)} is a distractor; x unmarks it first.", severity="warning",
                        markup=False)
            return
        now_in = self.draft.toggle(self.draft.evidence, ev.id)
        self.changed(f"{ev.id} is evidence." if now_in else f"{ev.id} is no longer evidence.")

    def action_cascade(self) -> None:
        """Add the selected event's plan step to the cascade, or remove it."""
        ev = self.selected_event()
        if ev is None:
            return
        step = self.file.step_of(ev.id)
        if self.draft.origin == "step" and step == self.draft.origin_step:
            self.notify(f"{clean_line(step)} is the fault's origin, not its cascade.", severity="warning",
                        markup=False)
            return
        now_in = self.draft.toggle(self.draft.cascade, step)
        self.changed(f"{step} is in the cascade." if now_in else f"{step} is no longer in the cascade.")

    def action_distractor(self) -> None:
        """Mark the selected event as a distractor (asks why it is harmless), or unmark it."""
        ev = self.selected_event()
        if ev is None:
            return
        if ev.id in self.draft.distractors:
            del self.draft.distractors[ev.id]
            self.changed(f"{ev.id} is no longer a distractor.")
        elif ev.id in self.draft.evidence_events():
            self.notify(f"{clean_line(ev.id)} is evidence; unmark it first (v, f, a or M).", severity="warning",
                        markup=False)
        else:
            self.ask_distractor(ev)

    def action_damage(self) -> None:
        """Set the damage the selected event does (asks amount, unit and note), or remove it."""
        ev = self.selected_event()
        if ev is None:
            return
        if self.draft.damage_of(ev.id) is not None:
            self.draft.set_damage(ev.id, None)
            self.changed(f"{ev.id} does no damage.")
        else:
            self.ask_damage(ev)

    def action_deadline(self) -> None:
        """Set the deadline some drill seconds after the selected event (asks how many)."""
        ev = self.selected_event()
        if ev is not None:
            self.ask_deadline(ev)

    def set_deadline(self, ev: TraceEvent, after: float) -> None:
        """The deadline ``after`` drill seconds after trace event ``ev``: by reference in format 2 (it stays on its
        event if the trace is retimed), as drill seconds in format 1 (which has no references)."""
        if self.file.drill.schema_version >= 2:
            self.draft.deadline = DeadlineMark(after, ev.id)
        else:
            self.draft.deadline = DeadlineMark(round(ev.t + after, 3))
        self.changed(f"Deadline: {self.draft.deadline.describe()}.")

    def changed_on_disk(self, exc: ChangedOnDisk) -> None:
        """The file changed on disk since it was opened: nothing was written; the marks go to its recovery copy, which
        the next ``warroom annotate`` of the file (as it is now) offers again."""
        try:
            kept = f"Your marks are kept in {clean_name(write_recovery(self.file, self.draft))}"
        except KeyWriteError as why:
            kept = f"Your marks are kept here only ({clean_name(why)})"
        shown = clean_name(self.file.path)  # shown literally on its line: a name's newline or ESC escaped
        self.notify(f"{clean(exc)}.\n{kept}: quit (q) and run `warroom annotate {shown}` again to load the file "
                    "as it is now with your marks, or put the file back as it was and press s again.",
                    title="Not saved: changed on disk", severity="error", markup=False, timeout=30)  # fmt: skip

    def action_save(self) -> None:
        """Write the draft into the drill file (and remove its recovery copy, if any), then run validate and check
        on it and show their findings."""
        try:
            self.file.sha256 = write_draft(
                self.file.path, self.draft, self.file.event_order, self.file.sha256, self.file.reading_time
            )
        except ChangedOnDisk as exc:
            self.changed_on_disk(exc)
            return
        except KeyWriteError as exc:
            self.notify(f"{clean(exc)}\nYour marks are kept here: fix the file (or put it back) and press s again.",
                        title="Not saved", severity="error", markup=False, timeout=15)
            return
        self.saved = True
        discard_recovery(self.file.path)  # its marks are in the file now: never offer them again
        self.findings = findings(self.file.path)
        self.refresh_panel()
        self.show_findings(self.findings)
        if self.findings.ok:
            self.notify("Saved: the drill validates and passes check.", title="Saved", markup=False)
        else:
            count = len(self.findings.problems) + len(self.findings.check)
            self.notify(f"Saved. {plural(count, 'finding')} in the side panel.", title="Saved", severity="warning",
                        markup=False)
