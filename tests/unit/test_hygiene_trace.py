"""Answer-key hygiene of the drill data the briefing and the war room show (docs/authoring.md "What a trainee sees
before the debrief"): for every bundled drill, its briefing's text holds none of the drill's answer-key strings and
says the one escalation instruction; for each trial it can be played as (signal, noise: its twin) and a variant, the
plan and every trace event as the trace table summarises it and the inspector describes it in full hold none
(tests/hygiene_support.py). The screens themselves (their panels, meters, keys, help) are scanned on screen for a set
of drills that covers every feature of the bundled ones (tests/tui/test_hygiene_screens.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hygiene_support import bundled, leaks, normalise, visible_text
from rich.console import Console

from warroom.core.load import load_drill
from warroom.core.model import ESCALATION_INSTRUCTION
from warroom.core.variants import can_play_as, session_drill
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event, summarize
from warroom.tui.screens import briefing_text

BUNDLED = bundled()
#: As written, and one seeded variant (names, amounts, timing, phrasings).
SEEDS = (None, 7)


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_no_event_of_any_trial_shows_an_answer_before_the_debrief(path: Path):
    drill = load_drill(path)
    assert not leaks(visible_text(drill), drill), drill.id
    for played_as in can_play_as(drill):
        for seed in SEEDS:
            played = session_drill(drill, seed, played_as)
            index = TraceIndex(played)
            assert not leaks(visible_text(played), drill), (drill.id, played_as, seed, "plan")
            for event in played.trace:
                text = summarize(event) + "\n" + describe_event(event, index).plain
                assert not leaks(text, drill), (drill.id, played_as, seed, event.id, leaks(text, drill))


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_no_briefing_shows_an_answer_and_each_says_the_same_instruction(path: Path):
    drill = load_drill(path)
    console = Console(width=118, file=io.StringIO(), record=True)  # the briefing's width on a 120-column terminal
    console.print(briefing_text(drill))
    text = console.export_text()
    assert not leaks(text, drill), (drill.id, leaks(text, drill))
    assert normalise(ESCALATION_INSTRUCTION) in normalise(text), drill.id
