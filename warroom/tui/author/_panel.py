"""The author mode's side panel: the answer key so far, what is still missing, and the findings of ``validate`` and
``check`` after the last save. Every value from the drill or the author is shown literally."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.widgets import Static

from warroom.core.author import Findings, KeyDraft, item_events, item_label
from warroom.core.text import clean, clean_line, exact_figure, plural

#: What each missing field is called in the panel, with the key that sets it.
MISSING_HINTS = {
    "answer_key.fault.origin_step": "origin (o)",
    "answer_key.fault.origin_event": "origin (o)",
    "answer_key.fault.kind": "kind (o)",
    "answer_key.fault.summary": "summary (o)",
    "answer_key.evidence": "evidence (v)",
    "answer_key.damage.unit": "damage (d)",
    "answer_key.damage.entries": "damage (d)",
    "answer_key.deadline": "deadline (l)",
    "answer_key.debrief": "debrief (b)",
}


#: The trace's ⚑ column in the author mode: an event's mark, by the key that sets it, with its style. An event with
#: several marks shows the first of this order (the side panel lists them all).
MARK_GLYPHS = {
    "origin": ("o", "bold magenta"),
    "evidence": ("v", "bold green"),
    "damage": ("d", "bold red"),
    "distractor": ("x", "bold yellow"),
    "deadline": ("l", "bold cyan"),
}


def event_marks(draft: KeyDraft) -> dict[str, Text]:
    """Event id -> its mark for the trace's ⚑ column (:data:`MARK_GLYPHS`): the origin event (a plan or set-up
    origin), every event an evidence item names (a whole event, a field, an absence, each of a comparison), the
    damage events, the distractors and the deadline's event. Events with no mark are not in it."""
    named: dict[str, list[str]] = {
        "origin": [draft.origin_event] if draft.origin != "step" and draft.origin_event else [],
        "evidence": [e for item in draft.evidence for e in item_events(item)],
        "damage": [mark.event for mark in draft.damage],
        "distractor": list(draft.distractors),
        "deadline": [draft.deadline.event] if draft.deadline is not None and draft.deadline.event else [],
    }
    marks: dict[str, Text] = {}
    for what, events in named.items():
        glyph, style = MARK_GLYPHS[what]
        for event_id in events:
            marks.setdefault(event_id, Text(glyph, style=style))
    return marks


def _line(out: Text, label: str, value: str, style: str = "") -> None:
    out.append(f"{label}: ", style="bold")
    out.append(value or "—", style=style if value else "dim")
    out.append("\n")


def key_text(draft: KeyDraft, findings: Findings | None, saved: bool, comparing: Sequence[str] = ()) -> Text:
    """The panel's text: what is missing (or that the key is complete), unsaved changes, what validate and check
    said at the last save (one line each; :func:`findings_text` has them in full), then the key so far and the
    events gathered for a comparison (``comparing``, ids), if any."""
    out = Text()
    missing = draft.missing()
    if missing:  # short, so that the list fits the panel at 80 columns, where it gives way to the trace
        out.append("Still missing: ", style="bold yellow")
        out.append(", ".join(dict.fromkeys(MISSING_HINTS.get(m, m) for m in missing)) + "\n")
    else:
        out.append("Answer key complete", style="bold green")
        out.append(" (save: s)\n" if not saved else "\n")
    if not draft.habit.strip():  # not required, but validate warns without one (every bundled drill has its habit)
        out.append("Recommended: ", style="yellow")
        out.append("habit (h)\n")
    if not saved:
        out.append("Unsaved changes\n", style="bold")
    if findings is not None:
        _summary(out, findings)
    out.append("\n")
    fault = f"{draft.origin_label()} ({draft.kind})" if draft.kind else draft.origin_label()
    _line(out, "Origin", clean_line(fault))
    _line(out, "Summary", clean_line(draft.summary))
    _line(out, "Evidence", clean_line(", ".join(item_label(i) for i in draft.evidence)), "green")
    if comparing:
        _line(out, "Comparing", clean_line(" + ".join(comparing) + " (M marks them)"), "green")
    _line(out, "Cascade", clean_line(", ".join(draft.cascade)))
    damage = ", ".join(f"{d.event} {exact_figure(d.amount)}" for d in draft.damage)
    _line(out, "Damage", clean_line(f"{damage} ({draft.damage_unit})" if draft.damage_unit else damage), "red")
    _line(out, "Deadline", clean_line(draft.deadline.describe()) if draft.deadline else "")
    _line(out, "Distractors", clean_line(", ".join(draft.distractors)), "yellow")
    _line(out, "Debrief", _first_line(draft.debrief))
    _line(out, "Habit (h)", _first_line(draft.habit))
    _line(out, "Re-plan (R)", _first_line(draft.replan_text()))
    return out


def _first_line(text: str) -> str:
    """The first line of ``text``, cut to 60 characters with "…" (the panel's one line per part), cleaned."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return clean_line(first[:60] + ("…" if len(first) > 60 else ""))


def _summary(out: Text, findings: Findings) -> None:
    """One line each for validate and check (the inspector shows them in full after a save)."""
    if findings.problems:
        out.append(f"validate: {plural(len(findings.problems), 'problem')}\n", style="bold red")
    else:
        out.append("validate: valid\n", style="bold green")
    if not findings.checked:
        out.append("check: not run until the drill validates\n", style="dim")
    elif findings.check:
        out.append(f"check: {plural(len(findings.check), 'problem')}\n", style="bold red")
    else:
        out.append("check: passed\n", style="bold green")
    if findings.check_warnings:  # the newest guess: it does not fail the drill, but an author should see it
        out.append(f"check: {plural(len(findings.check_warnings), 'warning')}\n", style="bold yellow")


def findings_text(findings: Findings) -> Text:
    """What ``warroom validate`` and ``warroom check`` said of the saved file, in full (shown in the inspector)."""
    out = Text()
    out.append("warroom validate\n", style="bold underline")
    if not findings.problems:
        out.append("valid\n", style="bold green")
    for line in findings.problems:
        out.append(clean(_short(line)) + "\n", style="red")
    for line in findings.warnings:
        out.append(clean(_short(line)) + "\n", style="yellow")
    out.append("\nwarroom check\n", style="bold underline")
    if not findings.checked:
        out.append("not run until the drill validates\n", style="dim")
    elif not findings.check:
        out.append("passed: winnable in time, and it ranks the scripted trainees fairly\n", style="bold green")
    for line in findings.check:
        out.append(clean(line) + "\n\n")
    for line in findings.check_warnings:
        out.append("warning: " + clean(line) + "\n", style="yellow")
    return out


def _short(line: str) -> str:
    """A ``path:line:col: message`` line without the folder part of its path (the panel is narrow)."""
    head, sep, rest = line.partition(":")
    return head.rsplit("/", 1)[-1] + sep + rest


class KeyPanel(Static):
    """The answer key so far (see :func:`key_text`)."""

    def show(self, draft: KeyDraft, findings: Any, saved: bool, comparing: Sequence[str] = ()) -> None:
        """Re-render from the draft, the last findings (None before a save), whether the draft is saved and the
        events gathered for a comparison."""
        self.update(key_text(draft, findings, saved, comparing))
