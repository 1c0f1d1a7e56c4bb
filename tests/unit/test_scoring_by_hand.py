"""Scorecards of bundled drills worked out on paper from docs/scoring.md (the replay rules and the points), for the
cases the hand-checked cohort (tests/cli/test_stats_by_hand.py) does not play: damage released while a false
escalation's re-plan runs, an escalation at exactly the deadline, false escalations past the end of the trace, and a
drill with verification probes (scoring rules version 3)."""

from __future__ import annotations

from pathlib import Path

from warroom.core.load import load_drill
from warroom.core.play import Replay
from warroom.core.scoring import score

DRILLS = Path(__file__).resolve().parents[2] / "drills"


def _play(drill_id: str, script: list[tuple]) -> tuple:
    """Play ``script`` (("esc", t, step, cites) or ("probe", t, probe id)) on a bundled drill; returns the scorecard
    and the drill clock after each step."""
    drill = load_drill(DRILLS / f"{drill_id}.yaml")
    actions: list = []
    replay = Replay(drill, on_action=actions.append)
    clocks = []
    for step in script:
        replay.advance_to(step[1])
        if step[0] == "probe":
            replay.probe(step[2])
        else:
            replay.escalate(step[2], "by hand", step[3])
        clocks.append(replay.now)
    return score(drill, actions), clocks


def _points(card) -> list[tuple[str, int]]:
    return [(c.name, c.points) for c in card.components]


def test_damage_released_during_a_false_escalations_wait_stands():
    # duplicate-charge-refunds: s2 at 30 s is a false escalation: the clock jumps to 45 s and batch 1 (e11 at 38 s,
    # $4,413) goes out meanwhile; s1 at 45 s citing e04 is contained late (45 > 37): 20 + 0 +
    # 25 x (1 - 4,413/14,021) = 17.13 -> 17, - 10; time to detect 45 - 12 = 33 s
    card, clocks = _play("duplicate-charge-refunds", [("esc", 30, "s2", ("e04",)), ("esc", 45, "s1", ("e04",))])
    assert clocks == [45.0, 45.0]
    assert (card.outcome, card.total, card.time_to_detect, card.damage) == ("contained_late", 27, 33.0, 4413.0)
    assert _points(card) == [("Outcome", 50 - 30), ("Speed", 0), ("Damage avoided", 17), ("False escalations", -10)]
    # the re-plan of the false escalation, 3,000 x $5 + 800 x $25 per million, and of the containment, 3,400 x $5 +
    # 620 x $25: $0.035 + $0.0325; the calls released to 45 s: e01-e12 with the count query e30 (docs/scoring.md,
    # "Cost math")
    assert card.replan_usd == 0.035
    assert round(card.cost_usd, 10) == round(0.05057 + 0.035 + 0.0325, 10)


def test_an_escalation_at_exactly_the_deadline_is_on_time():
    # evidence e04 at 12 s, deadline 37 s: time to detect 25 s of a 25 s window, speed 0; 50 + 0 + 25
    card, _ = _play("duplicate-charge-refunds", [("esc", 37, "s1", ("e04",))])
    assert (card.outcome, card.total, card.time_to_detect) == ("contained", 75, 25.0)


def test_a_false_escalation_past_the_end_of_the_trace_ends_the_drill():
    # at 85 s s2 (wrong step): the clock jumps to 100 s, past the last event (92 s): the drill is over, wrong step,
    # the whole cascade done, 0 - 10 clamped to 0
    card, clocks = _play("duplicate-charge-refunds", [("esc", 85, "s2", ("e04",))])
    assert clocks == [100.0]
    assert (card.outcome, card.total, card.false_escalations, card.damage) == ("wrong_step", 0, 1, 14021.0)


def test_probes_by_hand():
    # api-dns-cutover: the fault shows only in probes p2 (step s2, first event e05 at 13 s, 20 s wait) and p3 (s3,
    # e10 at 30 s, 15 s): the earliest evidence is 13 + 20 = 33 s; deadline 95 s, window 62 s.
    # p1 at 5 s finds nothing (-2); p2 at 15 s reveals at 35 s; s2 at 40 s citing p2: time to detect 7 s,
    # 25 x (1 - 7/62) = 22.18 -> 22; 50 + 22 + 25 - 2 = 95
    card, _ = _play(
        "api-dns-cutover", [("probe", 5, "p1"), ("probe", 15, "p2"), ("esc", 40, "s2", ("p2",))]
    )
    assert (card.outcome, card.total, card.time_to_detect, card.first_evidence_at) == ("contained", 95, 7.0, 33.0)
    assert _points(card)[-1] == ("Needless probes", -2)
    # s2 at 30 s, before p2's result (35 s), is a false escalation (clock to 45 s); s2 at 50 s citing p2: time to
    # detect 50 - 33 = 17 s, 25 x (1 - 17/62) = 18.15 -> 18; 50 + 18 + 25 - 10 = 83
    card, clocks = _play(
        "api-dns-cutover", [("probe", 15, "p2"), ("esc", 30, "s2", ("e09",)), ("esc", 50, "s2", ("p2",))]
    )
    assert clocks[1] == 45.0
    assert (card.outcome, card.total, card.time_to_detect, card.false_escalations) == ("contained", 83, 17.0, 1)


def test_a_distractor_cited_beside_the_evidence_counts_as_pulling_the_escalation():
    # docs/scoring.md's second worked example (s1 at 24 s citing e07 and e04: 50 + 13 + 25 = 88) and
    # docs/sessions.md: the first distractor an escalation cites is recorded, a containment's too
    card, _ = _play("duplicate-charge-refunds", [("esc", 24, "s1", ("e07", "e04"))])
    assert (card.outcome, card.total) == ("contained", 88)
    assert (card.distractors_shown, card.distractor_escalations) == (1, ["e07"])
