"""Answer-key scanning shared by the hygiene tests (tests/unit/test_hygiene.py, tests/tui/test_hygiene_screens.py)."""

from __future__ import annotations

import re
from pathlib import Path

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.model import FAULT_KIND_DESCRIPTIONS, Drill, FaultKind
from warroom.core.model._evidence import refs
from warroom.core.model._hygiene import fault_kind_phrases, is_domain_tag

#: Longer answer texts (a debrief, a summary) are looked for by their first this many characters: a screen wraps
#: them, and any part of them on screen is a leak.
PREFIX = 40

_BOX = re.compile(r"[│┃║─━═┌┐└┘├┤┬┴┼╭╮╯╰▏▕▔▁]")


def normalise(text: str) -> str:
    """``text`` lower-cased, box-drawing characters dropped and every run of white space made one space."""
    return " ".join(_BOX.sub(" ", text).split()).lower()


def leaks(text: str, drill: Drill) -> list[str]:
    """The answer-key strings of ``drill`` (:func:`answer_key_strings`) in ``text``."""
    shown = normalise(text)
    found = []
    for s in answer_key_strings(drill):
        whole = normalise(s)
        needle = whole[:PREFIX].strip()
        # The plain substring test first: it rules out almost every string at once, and the word-bounded search
        # (slow to start at each position of a whole screen) runs only where the string is. A prefix cut short of the
        # whole string may end inside a word: it is bounded at its start only.
        end = r"(?![\w-])" if needle == whole else ""
        if needle and needle in shown and re.search(r"(?<![\w-])" + re.escape(needle) + end, shown):
            found.append(s)
    return found


def bundled() -> list[Path]:
    """Every bundled drill file."""
    return find_drill_files([bundled_drills_dir()])


def visible_text(drill: Drill) -> str:
    """What the picker and the briefing show of ``drill`` by design: title, domain tags, briefing and plan."""
    parts = [drill.title, ", ".join(drill.public_tags), drill.briefing.goal, drill.briefing.watching,
             drill.briefing.context or ""]
    parts += [f"{s.id} {s.title} {s.objective}" for s in drill.plan]
    return "\n".join(parts)


def answer_key_strings(drill: Drill) -> list[str]:
    """Every answer-key text of ``drill`` that no surface may show before the debrief, for the hygiene tests:
    the fault kind (each way of writing it, except ``other``: an everyday word) and its description, the fault
    summary, the damage unit and notes, the habit, the cascade step list as the debrief writes it (``s3 → s4``),
    ``origin`` with the origin step, the debrief, each distractor's ``why_harmless``, the all-clear debrief (and a
    twin's, with its distractors' reasons), the tags that are not domain tags, and what each verification probe
    reveals (its whole text and its first line: shown only once the trainee asked for it)."""
    out: list[str] = []
    key = drill.answer_key
    if key is not None:
        if key.fault.kind is not FaultKind.OTHER:  # "other" is an everyday word (as in briefing_hints)
            out += fault_kind_phrases(key.fault.kind)
            out.append(FAULT_KIND_DESCRIPTIONS[key.fault.kind])
        out += [key.fault.summary.strip(), key.damage.unit.strip(), key.debrief.strip(), (key.habit or "").strip()]
        out += [e.note.strip() for e in key.damage.entries if e.note and e.note.strip()]
        if len(key.cascade) > 1:
            out += [" → ".join(key.cascade), ", ".join(key.cascade)]
        if key.fault.origin_step is not None:
            out += [f"origin {key.fault.origin_step}", f"origin step {key.fault.origin_step}",
                    f"origin_step: {key.fault.origin_step}"]
        else:  # format 2: a fault in the plan or the set-up
            out += [f"origin: {key.fault.origin.value}", f"origin_event: {key.fault.origin_event}",
                    f"fault's origin {key.fault.origin_event}"]
        out += [ref.absent.strip() for ref in refs(key) if ref.absent and ref.absent.strip()]
        out += [ref.note.strip() for ref in refs(key) if ref.note and ref.note.strip()]
    if drill.all_clear is not None:
        out.append(drill.all_clear.debrief.strip())
    out += [d.why_harmless.strip() for d in drill.distractors]
    if drill.twin is not None:  # the healthy run's debrief, and its own distractors' reasons
        out.append(drill.twin.debrief.strip())
        out += [d.why_harmless.strip() for d in drill.twin.distractors or ()]
    out += [t.strip() for t in drill.tags if not is_domain_tag(t) and t.strip()]
    for probe in drill.probes:
        out += [probe.reveals.strip(), probe.reveals.strip().splitlines()[0].strip()]
        out += [a.reveals.strip() for a in probe.answers]  # format 2: its earlier answers, shown only once asked
    return [s for s in dict.fromkeys(out) if s]
