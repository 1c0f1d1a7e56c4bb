"""Bundled drills accept as evidence what shows the fault as plainly as the events the answer key names.

Found playing idle-volume-cleanup as a new trainee: the fourth identical, empty listing (e16, 49 s) cited when
escalating s2 scored "right step, unsupported" (10/100), while the third one (e13, 40 s), the very same call and
result, was evidence.
"""

from __future__ import annotations

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, Outcome
from warroom.core.play import judge_citations
from warroom.core.play._citations import Cited
from warroom.core.scoring import score

IDLE = bundled_drills_dir() / "idle-volume-cleanup.yaml"


def test_every_repeat_of_the_empty_listing_before_the_deadline_shows_the_loop():
    drill = load_drill(IDLE)
    e13 = drill.event("e13")
    same = [
        ev.id for ev in drill.trace
        if ev.kind == "tool_result" and ev.output == e13.output and e13.t <= ev.t <= 57
    ]
    assert same == ["e13", "e16"]
    assert judge_citations(drill, same + ["e17"]) == [(i, Cited.EVIDENCE) for i in (*same, "e17")]


def test_escalating_s2_citing_the_fourth_empty_listing_contains_the_incident():
    drill = load_drill(IDLE)
    card = score(drill, [Action(t=53.1, kind="escalate", step="s2", cites=("e16",))])
    assert card.outcome is Outcome.CONTAINED and card.total > 50
