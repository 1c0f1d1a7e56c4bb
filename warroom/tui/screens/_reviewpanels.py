"""The side panels of the after-action review (:mod:`warroom.tui.screens._review`):
the heading, the scorecard, the answer key and what an escalation cited, each a :class:`~rich.text.Text` built from
a :class:`~warroom.store.review.ReviewData`, drill text shown literally."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from warroom.core.model import (
    TRIAL_SENTENCES,
    PlayedAs,
    damage_per_event,
    field_cite,
    hidden_session_fields,
    outcome_label,
    target_label,
)
from warroom.core.scoring import MAX_TOTAL
from warroom.core.text import clean, clock, damage, damage_amount, visible_name
from warroom.store.review import ReviewData
from warroom.tui.logic import mode_line
from warroom.tui.render import literal_line, prose, shown_line, summarize, without_vs16
from warroom.tui.screens._debrief import evidence_text, outcome_colour


def cited_events(drill: Any, cites: Any, compare: bool = False) -> Text:
    """What an escalation cited, for the review's side panel: one line per cited event with what it is by the answer
    key (evidence, accepted, distractor, irrelevant) as the session's rules judged it (``compare``:
    ``ReviewData.citations_compare``) and its summary, drill text literally; "cited nothing" or, for an escalation
    recorded before citations existed, "no citations recorded"."""
    from warroom.core.play import judge_citations

    out = Text()
    out.append("cited: ", style="bold")
    if cites is None:
        out.append("no citations recorded (before scoring rules version 2)\n", style="dim")
        return out
    if not cites:
        out.append("nothing\n")
        return out
    out.right_crop(1)  # "cited:" ends its line
    out.append("\n")
    for event_id, kind in judge_citations(drill, cites, distractor_fields_compare=compare):
        out.append(f"  {shown_line(event_id)} ", style="bold")
        out.append(f"({kind.value}) ", style="bold green" if kind.value in ("evidence", "accepted") else "bold red")
        try:
            out.append_text(literal_line(summarize(drill.event(event_id)), style="dim", limit=60))
        except KeyError:  # the drill file was edited since the session: say so rather than show nothing
            out.append("(not in this drill file)", style="dim")
        out.append("\n")
    return out


def headline(data: ReviewData) -> Text:
    """The review's heading: the session, its drill (and variant seed), trainee, start, outcome and total, mode."""
    s = data.session
    drill = data.drill
    out = Text(no_wrap=False)
    out.append("After-action review  ", style="bold")
    out.append(visible_name(s.session_id), style="bold cyan")  # ids and names as stored, which SQL may have written
    out.append("\n")
    out.append(shown_line(drill.title) if drill else visible_name(s.drill_id), style="bold")
    out.append(f"  ({visible_name(s.drill_id)} v{s.drill_version}")
    # the variant replayed here; never the seed of a session that did not reach its debrief (it draws its trial,
    # which `warroom scores` hides too: `warroom run --seed N` would replay that trial knowingly)
    seed = None if "seed" in hidden_session_fields(s.outcome) else s.seed
    out.append(f", variant seed {seed})\n" if seed is not None else ")\n")
    # The session's facts on a line of their own, so no separator is left dangling where the line wraps.
    out.append("trainee ")
    out.append(visible_name(s.trainee), style="bold")
    out.append(f"  ·  {s.started_at[:19].replace('T', ' ')} UTC  ·  ")
    label = outcome_label(s.outcome, s.all_clear)  # as `scores` shows it
    out.append(shown_line(label), style="bold " + outcome_colour(s.outcome))
    out.append(f"  {s.total}/{MAX_TOTAL}", style="bold")
    if data.disagrees:  # a session this warroom cannot check (newer rules) is not said to score otherwise
        checked = data.verdict.verdict == "disagrees"
        why = "not what its action log scores" if checked else "unchecked: this warroom cannot recompute it"
        out.append(f"  (stored; {why}: see above)", style="bold red")
    if s.recovered:
        out.append("  (recovered after the session was interrupted)", style="dim")
    out.append("\n" + mode_line(s), style="dim")
    return without_vs16(out)  # one cell a symbol on every terminal


def scorecard_panel(data: ReviewData) -> Text:
    """The stored scorecard's lines (or, for an older one, its components), the total and any recording notes."""
    card = data.session.scorecard or {}
    out = Text()
    out.append("Scorecard\n", style="bold underline")
    lines = card.get("lines") or []
    if card.get("outcome_text") and not lines:
        out.append(clean(card["outcome_text"]) + "\n")
    for c in [] if lines else card.get("components", []):
        try:
            out.append(f"{c['points']:+d}", style="bold")
            out.append(f" / {c['max_points']}  " if c.get("max_points") else "  ")
            out.append(shown_line(c.get("name", "")), style="bold")
            out.append(": " + shown_line(c.get("explanation", "")) + "\n")
        except (KeyError, TypeError, ValueError):
            out.append(shown_line(c) + "\n")
    for line in lines:
        out.append(clean(line) + "\n")
    out.append(f"total {data.session.total}/{MAX_TOTAL}\n", style="bold")
    notes = data.session.notes
    if notes:
        out.append("\nRecording notes\n", style="bold")
        for n in notes:
            out.append("· " + clean(n) + "\n", style="yellow")
    return without_vs16(out)  # one cell a symbol on every terminal


def answer_panel(data: ReviewData) -> Text:
    """The answer key (fault, evidence, cascade, damage, deadline, debrief, habit) or the all-clear note, and the
    distractors; a note when the drill file is not available. The author's prose is reflowed as the debrief screen
    shows it (:func:`~warroom.tui.render.prose`: a paragraph's hard line breaks joined, paragraphs and lists kept)."""
    drill = data.drill
    out = Text()
    out.append("Answer key\n", style="bold underline")
    if drill is None:
        out.append("(the drill file is not available)", style="dim")
        return out
    if data.twin:
        out.append(TRIAL_SENTENCES[PlayedAs.NOISE] + "\n", style="bold")
        out.append(prose(drill.all_clear.debrief if drill.all_clear else "") + "\n")
    elif drill.all_clear is not None:
        out.append("All-clear control drill: no fault; the right move was not to escalate.\n", style="bold")
        out.append(prose(drill.all_clear.debrief) + "\n")
    key = drill.answer_key
    if key is not None:
        if key.fault.origin_step is not None:
            try:
                title = drill.step(key.fault.origin_step).title
            except KeyError:
                title = ""
            origin = f"{key.fault.origin_step} {title}"
        else:  # format 2: the plan or the set-up
            origin = f"{target_label(drill, key.fault.target)} (at {key.fault.origin_event})"
        out.append("fault origin  ", style="bold")
        out.append(shown_line(origin), style="bold red")
        out.append(f"  ({key.fault.kind.value})\n")
        out.append(prose(key.fault.summary) + "\n")
        out.append("evidence", style="bold")
        evidence_text(out, drill, indent="  ")
        out.append("\n")
        if key.cascade:
            out.append("cascade       ", style="bold")
            out.append(shown_line(" → ".join(key.cascade)) + "\n")
        full = sum(e.amount for e in key.damage.entries) + _spend_full(drill)
        out.append("damage        ", style="bold")
        unit = key.damage.unit
        out.append(
            shown_line(f"{damage(full, unit)} if nobody escalates; deadline {clock(key.deadline)}")
        )
        out.append("\n")
        for e in key.damage.entries:
            note = f" ({e.note})" if e.note else ""
            out.append(shown_line(f"  {e.event}: {damage_amount(e.amount, unit)}{note}") + "\n")
        out.append("\nDebrief\n", style="bold")
        out.append(prose(key.debrief) + "\n")
        if key.habit:
            out.append("\nThe habit that would have caught it\n", style="bold")
            out.append(prose(key.habit) + "\n")
    if drill.distractors:
        out.append("\nDistractors (harmless)\n", style="bold")
        for d in drill.distractors:
            out.append(shown_line(field_cite(d.event, d.path)), style="bold")
            out.append(": " + prose(d.why_harmless) + "\n")
    return without_vs16(out)  # one cell a symbol on every terminal


def _spend_full(drill: Any) -> float:
    """What the answer key's ``spend`` calls cost in all, every repetition (format 2; 0 without spend)."""
    key = drill.answer_key
    per_call = damage_per_event(drill)
    repeats = {e.id: e.repeat.count if e.repeat is not None else 1 for e in drill.trace}
    return sum(per_call.get(e, 0.0) * repeats.get(e, 1) for e in key.damage.spend) if key is not None else 0.0
