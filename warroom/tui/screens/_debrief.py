"""The debrief: the outcome, the scorecard, the debrief marks (headed "What happened when" on screen),
the damage over time, the answer.

This is the only screen that renders the answer key. Outcome, points and their explanations come from the
scorecard (:func:`warroom.core.scoring.score`); this module only lays them out, with the Replay's record of the
drill (damage timeline, actions) for the marks and the sparkline.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Sparkline, Static

from warroom.core.model import (
    EARLY_ESCALATION,
    TRIAL_SENTENCES,
    ActionKind,
    Drill,
    Outcome,
    PlayedAs,
    accepted_refs,
    debrief_tags,
    describe_item,
    detection_events,
    earliest_result_at,
    field_cite,
    origin_event_of,
    refs,
    signal_only_sentence,
    target_label,
)
from warroom.core.play import Replay, describe_citations, misplaced_evidence
from warroom.core.scoring import SCORING_VERSION, escalation_verdict
from warroom.core.text import clock, damage, damage_amount, seconds, seconds_figure, usd
from warroom.core.variants import never_noise
from warroom.tui.flow import ShowBriefing, ShowPicker
from warroom.tui.logic import is_tutorial
from warroom.tui.render import prose, shown_line, summarize
from warroom.tui.widgets import HelpScreen, KeyFooter

if TYPE_CHECKING:
    from warroom.tui.logic import DrillEntry

#: The heading of the debrief marks (docs/architecture.md, glossary: what happened when). Not "Timeline": the only
#: timeline is the damage timeline, drawn under "Damage over time".
MARKS_HEADING = "What happened when"


def outcome_colour(outcome: str) -> str:
    """The colour of an outcome (a ``Scorecard.outcome`` value): green for a good result, yellow for a mixed one."""
    good, mixed = ("contained", "all_clear_held"), ("contained_late", "right_step_unsupported")
    return "green" if outcome in good else "yellow" if outcome in mixed else "red"


def damage_series(timeline: list[tuple[float, float]], end: float, buckets: int = 60) -> list[float]:
    """The damage accrued at ``buckets`` evenly spaced drill times from 0 to ``end`` seconds.

    ``timeline`` is the Replay's ``damage_timeline``: (drill time, damage so far) points in time order.
    """
    if not timeline:
        return [0.0] * buckets
    times = [t for t, _ in timeline]
    values = [d for _, d in timeline]
    end = max(end, times[-1], 1e-9)
    out = []
    for i in range(buckets):
        t = end * i / (buckets - 1) if buckets > 1 else end
        j = bisect_right(times, t) - 1
        out.append(values[j] if j >= 0 else 0.0)
    return out


def _first_finding_probe(drill: Drill) -> tuple[float, Any] | None:
    """(earliest result time in drill seconds, probe) of the answer key's evidence probe whose result can come in
    first (warroom.core.model.earliest_result_at); None when no probe is evidence."""
    key = drill.answer_key
    ids = {e for e in key.evidence if isinstance(e, str)} if key is not None else set()
    times = [(earliest_result_at(drill, p), p) for p in drill.probes or () if p.id in ids]
    found = [(t, p) for t, p in times if t is not None]
    return min(found, key=lambda tp: tp[0]) if found else None


def debrief_marks(
    drill: Drill, replay: Replay, rules: str = SCORING_VERSION
) -> list[tuple[float, str, str, str]]:
    """What happened when, for the debrief: (drill time, symbol, description, style), in time order.

    Marks the fault's origin (the first event of the origin step), the first evidence, the deadline, the
    trainee's flags and escalations (each escalation with what it did by the scoring rules ``rules``, the trainee's
    reason, and what each cited event is: evidence, a distractor...), the containment, and the end of the drill.
    """
    marks: list[tuple[float, str, str, str]] = []
    key = drill.answer_key
    if key is not None:
        origin = origin_event_of(drill)
        if origin is not None:
            if key.fault.origin_step is not None:
                what = f"fault origin: step {key.fault.origin_step} starts ({origin.id})"
            else:  # format 2: the plan, the set-up or a handoff
                what = f"fault origin: {target_label(drill, key.fault.target)} ({origin.id})"
            marks.append((origin.t, "●", what, "bold red"))
        detected = sorted(detection_events(drill), key=lambda p: p[1].t)
        probe = _first_finding_probe(drill)
        if detected and (probe is None or detected[0][1].t <= probe[0]):
            ref, first = detected[0]
            shown = " + ".join(ref.events) if ref.all_of is not None else first.id
            summary = event_summary(first).plain
            marks.append((first.t, "E", f"first evidence: {shown} {summary}", "bold yellow"))
        elif probe is not None:  # a fault only a probe finds first: its earliest result, as the scorecard counts it
            at, p = probe
            what = f"first evidence: the result of probe {p.id} (verify step {p.step}), at the earliest: asked as " \
                f"soon as {p.step} started"
            marks.append((at, "E", what, "bold yellow"))
        marks.append((key.deadline, "D", "deadline: the damage is done after this", "bold magenta"))
    for action in replay.actions:
        if action.kind is ActionKind.FLAG:
            note = f" ({action.note})" if action.note else ""
            marks.append((action.t, "f", f"you flagged {action.event}{note}", "cyan"))
        elif action.kind is ActionKind.UNFLAG:
            marks.append((action.t, "f", f"you removed your flag from {action.event}", "dim"))
        elif action.kind is ActionKind.QUIT:
            marks.append((action.t, "q", "you quit", "dim"))
    marks += probe_marks(replay)
    for result in replay.escalations:  # each with the core's verdict: what it did
        action = result.action
        reason = f": {action.note}" if action.note else ", no reason given"
        verdict = str(escalation_verdict(drill, result, rules))
        if key is not None and not result.contained and not result.after_evidence:
            right = action.step == key.fault.target
            verdict += (": the right step, but before the evidence the drill counts" if right else
                        ", before the evidence the drill counts")
        cited = f"; cited {describe_citations(drill, action.cites)}" if action.cites is not None else ""
        named = target_label(drill, action.step, title=False)
        misplaced = misplaced_evidence(drill, action.step, action.cites, action.t) if not result.contained else None
        cited += f". Right evidence, wrong place: {misplaced}" if misplaced else ""  # what was right and what was not
        marks.append((action.t, "!", f"you escalated {named} ({verdict}){reason}{cited}", "bold cyan"))
    if replay.contained_at is not None:
        marks.append((replay.contained_at, "✓", "the original trace stopped: the planner re-plans", "bold green"))
    marks.append((replay.now, "■", "end of the drill", "dim"))
    marks.sort(key=lambda m: m[0])
    return marks


def evidence_text(out: Text, drill: Drill, indent: str = "  ") -> None:
    """Append the answer key's evidence items to ``out``, one per line (each starting a new line, ``indent`` in),
    literally: bare ids, and (format 2) a comparison ``e03 + e07 (compared)``, an absence ``e08 (absent: ...)``, a
    field ``e03 data.next_cursor = "c_8f2a"`` with the path and its value highlighted; an item's note follows it on
    its line, after ``; ``."""
    key = drill.answer_key
    assert key is not None
    for ref in refs(key):
        out.append("\n" + indent)
        head, detail = describe_item(drill, ref)
        if ref.path is not None:
            out.append(shown_line(ref.event) + " ")
            out.append(shown_line(ref.path), style="bold reverse")
            if detail:
                value, _, note = detail.partition("; ")
                out.append(" " + shown_line(value), style="bold yellow")
                if note:
                    out.append("; " + shown_line(note))
            continue
        out.append(shown_line(head))
        if detail:
            out.append(f" ({shown_line(detail)})")


def trial_sentence(written: Drill | None, played: Drill, noise_rate: float | None = None) -> str | None:
    """What the debrief says of the trial a session of the drill ``written`` (as loaded) was, having played
    ``played`` (its variant, or its twin's) in a drill set of ``noise_rate`` (None: none, or the set's default): a
    sentence for a drill with a twin, None for any other (always the same trial). A signal trial of a set that never
    plays a twin says so, not that some sessions play it."""
    if written is None or written.twin is None:
        return None
    if played.is_all_clear:
        return TRIAL_SENTENCES[PlayedAs.NOISE]
    if noise_rate is not None and never_noise(noise_rate):
        return signal_only_sentence(noise_rate)
    return TRIAL_SENTENCES[PlayedAs.SIGNAL]


#: Characters of an event's summary the debrief shows (a distractor, the first evidence); a longer one says how
#: many more there are and where the whole event is (the after-action review).
SUMMARY_SHOWN = 1000


def event_summary(event: Any, style: str = "") -> Text:
    """An event's one-line summary for the debrief, in full (wrapped, never cut with "…") up to
    :data:`SUMMARY_SHOWN` characters; a longer one ends saying how many characters more there are and that
    ``warroom review`` shows the whole event."""
    text = shown_line(summarize(event, limit=SUMMARY_SHOWN))
    out = Text(style=style)
    if len(text) <= SUMMARY_SHOWN:
        out.append(text)
        return out
    out.append(text[:SUMMARY_SHOWN] + "…")
    out.append(" (more: `warroom scores` lists this session, `warroom review ID` shows the whole event)", style="dim")
    return out


def probe_marks(replay: Replay) -> list[tuple[float, str, str, str]]:
    """A mark per verification probe the trainee asked for (format 2): when, which step, when its result came and
    whether it found the fault."""
    marks = []
    for req in replay.probes.requests:
        shown = replay.probes.revealed.get(req.probe.id)
        came = f"result at {seconds(shown)}" if shown is not None else "no result before the end"
        found = "it found the fault" if req.finds else "it found nothing wrong (a needless probe)"
        if req.finds and replay.contained_at is None:  # not "found" beside escalations that did not use it
            found = "its answer showed the fault, but no escalation contained it"
        what = f"you asked for probe {req.probe.id} (verify step {req.probe.step}; {came}): {found}"
        marks.append((req.requested_at, "v", what, "bold green" if req.finds else "yellow"))
    return marks


#: A moment of drill time written with a decimal, as the scorecard writes it (``at 23.9 s``).
_MOMENT = re.compile(r"\bat (\d[\d,]*\.\d) s\b")


def on_the_clock(text: str, times: Iterable[float] = ()) -> str:
    """``text`` with each moment written with a decimal (``at 23.9 s``) followed by what the war room's clock showed
    then (``at 23.9 s (00:24)``): the trainee saw the event at 00:24 in the trace, and the debrief agrees. The clock
    is that of the moment itself, found among ``times`` (the session's: its events, actions, deadline...) by how it
    is written (23.46 s is written 23.5 s, but the clock showed 00:23); the written value's when no time or times
    with different clocks are written so."""
    clocks: dict[str, set[str]] = {}
    for t in times:
        clocks.setdefault(seconds_figure(t), set()).add(clock(t))

    def shown(m: re.Match[str]) -> str:
        found = clocks.get(m.group(1), set())
        at = next(iter(found)) if len(found) == 1 else clock(float(m.group(1).replace(",", "")))
        return f"{m.group(0)} ({at})"

    return _MOMENT.sub(shown, text)


def moment(t: float) -> str:
    """A time of the marks table: ``23.9 s (00:24)``, as the clock showed it; a whole second alone (``12 s``)."""
    shown = seconds(t)
    return shown if float(t).is_integer() or "." not in shown else f"{shown} ({clock(t)})"


def marks_table(marks: list[tuple[float, str, str, str]]) -> Table:
    """The marks as rows (time in seconds, symbol, description); a long description (the first evidence's event
    summary too) wraps under itself, read in full."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", no_wrap=True, style="dim")
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    for t, symbol, what, style in marks:
        text = Text(shown_line(what))
        table.add_row(moment(t), Text(symbol, style=style), text)
    return table


def ruler(marks: list[tuple[float, str, str, str]], end: float, width: int) -> Text:
    """A one-line ruler from 0 to ``end`` seconds, ``width`` cells wide, with each mark's symbol at its time."""
    width = max(width, 10)
    cells: list[tuple[str, str]] = [("─", "dim")] * width
    for t, symbol, _, style in marks:
        i = min(int(t / end * (width - 1)) if end > 0 else 0, width - 1)
        cells[i] = (symbol, style)
    out = Text(no_wrap=True)
    for ch, style in cells:
        out.append(ch, style=style)
    return out


class ScrollPane(VerticalScroll):
    """A scrolling text pane (the debrief) whose keys the help lists: the keys of Textual's ``VerticalScroll``
    bound again here with help text (see :mod:`warroom.tui.widgets._keyhelp`), and j k, g G as on every other
    screen (the picker, the war room, the review)."""

    BINDINGS = [
        Binding("up,k", "scroll_up", "Scroll up", show=False, tooltip="scroll up / down"),
        Binding("down,j", "scroll_down", "Scroll down", show=False, tooltip="scroll up / down"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="a page up / down"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="a page up / down"),
        Binding("home,g", "scroll_home", "Top", show=False, tooltip="top / end"),
        Binding("end,G", "scroll_end", "End", show=False, tooltip="top / end"),
    ]


class DebriefScreen(Screen[None]):
    """The debrief of one finished drill. Keys: p (or escape) back to the picker, r play again, q quit."""

    BINDINGS = [
        Binding("p,escape", "picker", "Drill picker", tooltip="back to the drill picker"),
        Binding("r", "again", "Play again", tooltip="play this drill again"),
        Binding("q", "quit_app", "Quit", tooltip="quit warroom"),
        Binding("question_mark", "help", "Help", key_display="?", tooltip="this help"),
    ]

    HELP_TITLE = "Debrief keys"
    HELP_NOTES = "Your session is stored: warroom scores lists it."
    HELP_WIDGETS = (ScrollPane,)

    def __init__(
        self, entry: DrillEntry, replay: Replay, scorecard: Any, notice: str = "", noise_rate: float | None = None
    ) -> None:
        super().__init__()
        assert entry.drill is not None
        self.entry = entry
        self.drill = replay.drill  # the variant that was played (the entry holds the drill as written)
        self.replay = replay
        self.scorecard = scorecard
        #: A notice shown on the debrief's first line (the tutorial's "Tutorial done: ..."), "" for none: a toast
        #: would cover the scorecard.
        self.notice = notice
        #: The ``noise_rate`` of the drill set the session was played in (None: none, or the default).
        self.noise_rate = noise_rate

    def moments(self) -> list[float]:
        """The session's moments the scorecard's texts may name (:func:`on_the_clock`): its events', its actions',
        the deadline, the end, the probes' answers."""
        replay = self.replay
        times = [ev.t for ev in self.drill.trace] + [a.t for a in replay.actions]
        times += [t for t in (replay.deadline, replay.end_time) if t is not None]
        return times + list(replay.probes.revealed.values())

    def compose(self) -> ComposeResult:
        card = self.scorecard
        with ScrollPane(id="debrief"):
            notice = Static(Text(self.notice, style="bold"), id="debrief-notice")
            notice.display = bool(self.notice)
            yield notice
            yield Static(self._headline(), id="debrief-outcome")
            yield Static(self._scorecard(), id="debrief-score", classes="debrief-section")
            yield Static(self._marks(), id="debrief-marks", classes="debrief-section")
            yield Static(self._damage_caption(), id="debrief-damage-caption")
            yield Sparkline(damage_series(self.replay.damage_timeline, self._end()), id="debrief-damage")
            yield Static(self._answer(), id="debrief-answer", classes="debrief-section")
            key = self.drill.answer_key
            if key is not None and key.habit:
                yield Static(self._habit(), id="debrief-habit", classes="debrief-section")
            if self._seen_distractors():
                yield Static(self._distractors(), id="debrief-distractors", classes="debrief-section")
            yield Static(
                Text(f"scoring version {card.scoring_version}", style="dim"), id="debrief-version"
            )
        yield KeyFooter()  # rebuilt only when its keys change (a focus change alone restyles them all)

    def on_mount(self) -> None:
        self.query_one("#debrief").focus()

    def show_notice(self, text: str) -> bool:
        """Show a notice on the debrief's first line, above the outcome, literally (see
        :mod:`warroom.tui.app._notices`): a toast would cover the scorecard."""
        self.notice = text
        notice = self.query_one("#debrief-notice", Static)
        notice.update(Text(text, style="bold"))
        notice.display = bool(text)
        return True

    # -- sections -----------------------------------------------------------------------------------------------

    def _headline(self) -> Text:
        card = self.scorecard
        outcome = str(getattr(card.outcome, "value", card.outcome))
        style = outcome_colour(outcome)
        out = Text()
        out.append("DEBRIEF  ", style="bold")
        out.append(shown_line(self.drill.title))
        out.append("\n\n")
        shown = outcome.replace("_", " ")
        if outcome == Outcome.FALSE_ALARM and not self.drill.is_all_clear:  # a false alarm is on a noise trial only
            shown = EARLY_ESCALATION
        out.append(f" {shown.upper()} ", style=f"bold reverse {style}")
        out.append("  ")
        out.append(f"{card.total}/{card.max_total}", style="bold")
        out.append("\n")
        out.append(prose(on_the_clock(card.outcome_text, self.moments())))
        # the tutorial always plays its fault: no sentence on which trial it was (there was no other to be)
        trial = None if is_tutorial(self.entry) else trial_sentence(self.entry.drill, self.drill, self.noise_rate)
        if trial is not None:  # a drill with a twin: which trial this session was, said here and nowhere before
            out.append("\n\n")
            out.append(prose(trial), style="bold")
        return out

    def _scorecard(self) -> Table:
        card = self.scorecard
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_row(Text("Scorecard", style="bold underline"), Text(""), Text(""))
        for comp in card.components:
            # A penalty (max_points 0) shows as its points alone (-10), as the scorecard's lines write it.
            points = f"{comp.points}/{comp.max_points}" if comp.max_points else str(comp.points)
            table.add_row(
                Text(points, style="bold"),
                Text(shown_line(comp.name), style="bold"),
                Text(shown_line(on_the_clock(comp.explanation, self.moments()))),
            )
        facts = Text()
        facts.append("time to detect ", style="bold")
        facts.append("—" if card.time_to_detect is None else seconds(card.time_to_detect))
        if card.full_damage:
            facts.append("   damage ", style="bold")
            unit = card.damage_unit
            accrued = damage_amount(card.damage, unit)
            facts.append(shown_line(f"{accrued} of {damage(card.full_damage, unit)}"))
        facts.append("\nfalse escalations ", style="bold")
        facts.append(str(card.false_escalations))
        facts.append("   cost of the run ", style="bold")
        facts.append(usd(card.cost_usd))
        table.add_row(Text(""), Text(""), Text(""))
        table.add_row(Text(f"{card.total}/{card.max_total}", style="bold"), Text("total", style="bold"), facts)
        if sum(c.points for c in card.components) != card.total:
            # Clamped (or abandoned): the scorecard's own Total line says how the points above make the total.
            line = next((x for x in card.lines if x.startswith("Total:")), None)
            if line is not None:
                table.add_row(Text(""), Text(""), Text(shown_line(line), style="dim"))
        return table

    def _end(self) -> float:
        deadline = self.drill.answer_key.deadline if self.drill.answer_key else 0.0
        return max(self.replay.now, deadline, 1.0)

    def _marks(self) -> Group:
        end = self._end()
        marks = debrief_marks(self.drill, self.replay, self.scorecard.scoring_version)
        width = max(min(self.app.size.width - 10, 100), 20)
        out = Text()
        out.append(f"{MARKS_HEADING}\n", style="bold underline")
        out.append_text(ruler(marks, end, width))
        out.append("\n0 s" + seconds(end).rjust(width - 3), style="dim")
        return Group(out, marks_table(marks))

    def _damage_caption(self) -> Text:
        out = Text()
        out.append("Damage over time", style="bold underline")
        r = self.replay
        if r.full_damage:
            unit = r.damage_unit
            accrued = damage_amount(r.damage, unit)
            out.append("  " + shown_line(f"accrued {accrued} · the full cascade {damage(r.full_damage, unit)}"))
        else:
            out.append("  none possible in this drill", style="dim")
        out.append(f"\n0 to {seconds(self._end())}", style="dim")
        return out

    def _answer(self) -> Text:
        out = Text()
        key = self.drill.answer_key
        if key is not None:
            out.append("What happened\n", style="bold underline")
            out.append("fault ", style="bold")
            if key.fault.origin_step is not None:
                out.append(f"step {shown_line(key.fault.origin_step)}")
                # A loaded drill's references are validated: the origin step and every distractor event exist.
                out.append(f" {shown_line(self.drill.step(key.fault.origin_step).title)}")
            else:  # format 2: the planner's own call, the set-up or a handoff
                where = target_label(self.drill, key.fault.target)
                out.append(f"{shown_line(where)} (at {shown_line(key.fault.origin_event)})")
            out.append(f" · {key.fault.kind.value}\n", style="bold red")
            out.append(prose(key.fault.summary))
            out.append("\n\nevidence", style="bold")
            evidence_text(out, self.drill)
            if key.accepted_evidence:
                out.append("\nalso accepted ", style="bold")
                out.append(", ".join(shown_line(field_cite(r.event, r.path)) for r in accepted_refs(key)))
            if key.cascade:
                out.append("\ncascade ", style="bold")
                out.append(" → ".join(shown_line(s) for s in key.cascade))
            out.append("\n\n")
            out.append(prose(key.debrief))
        elif self.drill.all_clear is not None:
            out.append("All clear\n", style="bold underline")
            out.append(prose(self.drill.all_clear.debrief))
        self._probes(out)
        if self.drill.tags:
            out.append("\n\ntags ", style="bold")
            out.append(shown_line(", ".join(debrief_tags(self.drill))), style="dim")
        return out

    def _probes(self, out: Text) -> None:
        """The drill's verification probes, now that the answer key is shown: what each one reveals."""
        if not self.drill.probes:
            return
        out.append("\n\nProbes", style="bold underline")
        asked = {r.probe.id for r in self.replay.probes.requests}
        finding = self.replay.probes.finding
        for p in self.drill.probes:
            out.append(f"\n{shown_line(p.id)} ", style="bold")
            state = ("finds the fault" if p.id in finding else "finds nothing") + (", asked" if p.id in asked else "")
            out.append(f"verify {shown_line(p.step)} ({state}): ", style="green" if p.id in finding else "dim")
            out.append(prose(p.reveals))
            for answer in p.answers:  # format 2: what it answered when asked early (nothing wrong yet)
                until = f"before {answer.until_event}" if answer.until_event else f"before {seconds(answer.until or 0)}"
                out.append(f"\n  asked {shown_line(until)}: ", style="dim")
                out.append(prose(answer.reveals))

    def _habit(self) -> Text:
        """The habit that would have caught the fault (the answer key's ``habit``), in its own place."""
        key = self.drill.answer_key
        out = Text()
        out.append("The habit that would have caught it\n", style="bold underline")
        out.append(prose(key.habit if key is not None and key.habit else ""))
        return out

    def _seen_distractors(self) -> list[Any]:
        """The drill's distractors released before the drill ended: those the trainee saw."""
        return [d for d in self.drill.distractors if self.replay.is_released(d.event)]

    def _distractors(self) -> Text:
        """The distractors the trainee saw, each event's summary in full and why it was harmless (one still to come
        when the drill stopped is not explained: the debrief explains what the trainee saw)."""
        out = Text()
        out.append("Distractors (odd but harmless)\n", style="bold underline")
        for d in self._seen_distractors():
            out.append(shown_line(field_cite(d.event, d.path)), style="bold")  # format 2: or a field of the event
            out.append(" ")
            out.append_text(event_summary(self.drill.event(d.event), style="dim"))
            out.append("\n  ")
            out.append(prose(d.why_harmless))
            out.append("\n")
        return out

    # -- keys ---------------------------------------------------------------------------------------------------

    def action_picker(self) -> None:
        self.post_message(ShowPicker())

    def action_again(self) -> None:
        self.post_message(ShowBriefing(self.entry))

    def action_quit_app(self) -> None:
        self.app.exit()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen.for_screen(self))
