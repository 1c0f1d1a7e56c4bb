"""Answer-key scanning shared by the hygiene tests (tests/unit/test_hygiene.py, tests/tui/test_hygiene_screens.py)."""

from __future__ import annotations

import re
from pathlib import Path

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.model import Drill
from warroom.core.model._hygiene import answer_key_strings

#: Longer answer texts (a debrief, a summary) are looked for by their first this many characters: a screen wraps
#: them, and any part of them on screen is a leak.
PREFIX = 40

_BOX = re.compile(r"[│┃║─━═┌┐└┘├┤┬┴┼╭╮╯╰▏▕▔▁]")


def normalise(text: str) -> str:
    """``text`` lower-cased, box-drawing characters dropped and every run of white space made one space."""
    return " ".join(_BOX.sub(" ", text).split()).lower()


def leaks(text: str, drill: Drill) -> list[str]:
    """The answer-key strings of ``drill`` (``warroom.core.model._hygiene.answer_key_strings``) in ``text``."""
    shown = normalise(text)
    found = []
    for s in answer_key_strings(drill):
        needle = normalise(s)[:PREFIX].strip()
        # The plain substring test first: it rules out almost every string at once, and the word-bounded search
        # (slow to start at each position of a whole screen) runs only where the string is.
        if needle and needle in shown and re.search(r"(?<![\w-])" + re.escape(needle) + r"(?![\w-])", shown):
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
