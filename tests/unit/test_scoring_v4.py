"""Scoring rules version 4 (docs/scoring.md, "The trial and its response"): the trial's response is read from the
first escalation, and an escalation is supported only by specific citations."""

from __future__ import annotations

from pathlib import Path

import pytest
from locations import TESTS

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import RESPONSE_LABELS, Action, ActionKind, PlayedAs, Response, outcome_label
from warroom.core.play import citation_precision, is_specific
from warroom.core.scoring import EDITIONS, Scorecard, score
from warroom.core.variants import session_drill

# duplicate-charge-refunds: evidence e04 at 12 s (step s1, the origin); e05 (s1's report) at 16 s; distractor e07
# (s2) at 23 s; the deadline at 37 s; the first refund batch is accepted at 38 s.
DRILLS = bundled_drills_dir()
DRILL = load_drill(DRILLS / "duplicate-charge-refunds.yaml")
ALL_CLEAR = load_drill(TESTS / "fixtures" / "all-clear" / "outage-callback-calls.yaml")


def esc(t: float, step: str, *cites: str) -> Action:
    return Action(t=t, kind=ActionKind.ESCALATE, step=step, note="", cites=tuple(cites))


def card(*actions: Action, drill=DRILL) -> Scorecard:
    return score(drill, list(actions), rules="4")


@pytest.mark.parametrize(
    ("actions", "response"),
    [
        ([esc(20, "s1", "e04")], Response.HIT),
        ([esc(37, "s1", "e04")], Response.HIT),  # at the deadline is on time
        ([esc(20, "s1", "e04", "e05")], Response.HIT),  # one of two is evidence: precision 0.5
        ([], Response.MISS),
        ([esc(45, "s1", "e04")], Response.MISS),  # the first escalation came after the deadline: too late
        ([esc(20, "s2", "e04")], Response.LOCALISATION_ERROR),  # another step
        ([esc(5, "s1")], Response.LOCALISATION_ERROR),  # before the evidence
        ([esc(20, "s1", "e05")], Response.LOCALISATION_ERROR),  # the origin, citing no evidence
        ([esc(20, "s1", "e04", "e05", "e02")], Response.LOCALISATION_ERROR),  # 1 of 3 is evidence: not specific
        # the first response decides: a wrong step, then the right one, is a localisation error (and a containment)
        ([esc(14, "s2", "e04"), esc(30, "s1", "e04")], Response.LOCALISATION_ERROR),
        ([Action(t=10, kind=ActionKind.QUIT)], Response.MISS),  # quitting is a response: a miss
    ],
)
def test_the_first_escalation_decides_the_response(actions: list[Action], response: Response) -> None:
    result = card(*actions)
    assert (result.played_as, result.response) == (PlayedAs.SIGNAL, response)
    assert f"response (from the first escalation): {response.value.replace('_', ' ')}." in result.lines[-2]


def test_citing_everything_released_is_not_specific_and_not_a_containment() -> None:
    released = [e.id for e in DRILL.trace if e.t <= 20]
    result = card(esc(20, "s1", *released))
    assert result.outcome.value == "right_step_unsupported" and result.response is Response.LOCALISATION_ERROR
    assert not is_specific(DRILL, released, min_precision=0.5, max_cited=4)
    assert citation_precision(DRILL, released) == pytest.approx(1 / len(released))
    # the same escalation by version 3, where any evidence among the citations supports it
    assert score(DRILL, [esc(20, "s1", *released)], rules="3").outcome.value == "contained"


def test_more_than_four_events_is_not_specific_even_if_all_are_evidence() -> None:
    assert is_specific(DRILL, ["e04"], min_precision=0.5, max_cited=4)
    assert not is_specific(DRILL, ["e04", "e05", "e02", "e03", "e01"], min_precision=0.0, max_cited=4)
    assert is_specific(DRILL, ["e04", "e04", "e04"], min_precision=1.0, max_cited=1)  # a repeated id counts once


def test_citing_the_evidence_event_again_by_a_field_does_not_make_a_citation_more_precise() -> None:
    """retail-camera-zoom-exchange (format 2): the evidence is m011's field product_id (86.4 s, step u02); m009 and
    m007 are earlier results of u02 that show nothing. By version 5 precision is over distinct events: m011 cited
    whole and by its field is one event, not two evidence citations (version 4, as released, counted each distinct
    citation: it was a hit, 100 points, while the same three events cited once each were right step, unsupported)."""
    drill = load_drill(DRILLS / "retail-camera-zoom-exchange.yaml")
    padded = ("m011", "m011:product_id", "m009", "m007")
    once = ("m011", "m009", "m007")
    assert citation_precision(drill, padded) == pytest.approx(1 / 3) == citation_precision(drill, once)
    got = score(drill, [esc(87, "u02", *padded)], rules="5")
    assert (got.outcome.value, got.total, got.response) == ("right_step_unsupported", 10, Response.LOCALISATION_ERROR)
    # a field that shows nothing counts against the citation, even beside the evidence's field of the same event
    assert citation_precision(drill, ("m011:product_id", "m011:name", "m009")) == pytest.approx(1 / 3)
    assert citation_precision(drill, ("m011:product_id", "m011:name")) == 0.5
    # cited once, or whole and by its evidence field, it is still one event of evidence
    for cites in (("m011:product_id", "m009"), ("m011", "m011:product_id")):
        got = score(drill, [esc(87, "u02", *cites)], rules="5")
        assert (got.outcome.value, got.total, got.response) == ("contained", 100, Response.HIT), cites


def test_version_4_counts_each_distinct_citation_of_the_evidence_as_released() -> None:
    """Version 4 as released (before version 5's evidence_event_once): m011 cited whole and by its field is two
    citations of evidence, 2 of 4, specific: the padded citation is a hit of 100, as a stored version-4 session
    scored it; the same three events cited once each are 1 of 3, right step, unsupported."""
    drill = load_drill(DRILLS / "retail-camera-zoom-exchange.yaml")
    padded = ("m011", "m011:product_id", "m009", "m007")
    assert citation_precision(drill, padded, once_per_event=False) == 0.5
    assert citation_precision(drill, ("m011", "m009", "m007"), once_per_event=False) == pytest.approx(1 / 3)
    got = card(esc(87, "u02", *padded), drill=drill)
    assert (got.outcome.value, got.total, got.response) == ("contained", 100, Response.HIT)
    got = card(esc(87, "u02", "m011", "m009", "m007"), drill=drill)
    assert (got.outcome.value, got.total) == ("right_step_unsupported", 10)


def test_the_score_still_rewards_recovering_while_the_response_reads_the_first_escalation() -> None:
    result = card(esc(14, "s2", "e04"), esc(30, "s1", "e04"))
    assert result.outcome.value == "contained" and result.total == 72  # the worked example of docs/scoring.md
    assert result.response is Response.LOCALISATION_ERROR


@pytest.mark.parametrize(
    ("actions", "response"),
    [
        ([], Response.CORRECT_REJECTION),
        ([esc(5, "s1")], Response.FALSE_ALARM),
        ([Action(t=1, kind=ActionKind.QUIT)], Response.ABANDONED),
    ],
)
def test_a_noise_trial(actions: list[Action], response: Response) -> None:
    result = card(*actions, drill=ALL_CLEAR)
    assert (result.played_as, result.response) == (PlayedAs.NOISE, response)


def test_older_editions_record_no_trial_and_their_scorecards_read_back_unchanged() -> None:
    old = score(DRILL, [esc(20, "s1", "e04")], rules="3")
    assert old.response is None and "response" not in old.to_dict() and Scorecard.from_dict(old.to_dict()) == old
    new = card(esc(20, "s1", "e04"))
    assert new.to_dict()["response"] == "hit" and Scorecard.from_dict(new.to_dict()) == new


# -- the worked examples of docs/scoring.md (version 4), scored and checked against the page --------------------------

DOC = (Path(__file__).resolve().parents[2] / "docs" / "scoring.md").read_text(encoding="utf-8")
CLEAR = load_drill(TESTS / "fixtures" / "all-clear" / "clickstream-backfill.yaml")  # as bundled before its twin
QUIT = ActionKind.QUIT

#: duplicate-charge-refunds as sessions play it, its events by position (the page names them so: e06 the evidence).
SHOWN = session_drill(DRILL, None, PlayedAs.SIGNAL)

#: The first cell of each row of the page's tables -> (drill, the action log it describes).
ROWS = {
    "e06": (SHOWN, [esc(20, "s1", "e06")]),
    "e06, e07": (SHOWN, [esc(20, "s1", "e06", "e07")]),
    "e06, e07, e02": (SHOWN, [esc(20, "s1", "e06", "e07", "e02")]),
    "e01 to e08 (everything out)": (SHOWN, [esc(20, "s1", *(f"e{k:02d}" for k in range(1, 9)))]),
    "at 12 s escalates s1 citing e06": (SHOWN, [esc(12, "s1", "e06")]),
    "at 14 s escalates s2 citing e06, then at 30 s s1 citing e06 (the worked example above)": (
        SHOWN, [esc(14, "s2", "e06"), esc(30, "s1", "e06")]),
    "at 5 s escalates s1, citing nothing": (SHOWN, [esc(5, "s1")]),
    "at 45 s escalates s1 citing e06": (SHOWN, [esc(45, "s1", "e06")]),
    "quits at 10 s": (SHOWN, [Action(t=10, kind=QUIT)]),
    "at 14 s escalates s2 citing e06, quits at 30 s": (SHOWN, [esc(14, "s2", "e06"), Action(t=30, kind=QUIT)]),
    "`clickstream-backfill`: never escalates": (CLEAR, []),
    "`clickstream-backfill`: at 20 s escalates s1": (CLEAR, [esc(20, "s1")]),
    "`clickstream-backfill`: quits at 10 s": (CLEAR, [Action(t=10, kind=QUIT)]),
}


def _doc_rows() -> dict[str, list[str]]:
    rows = {}
    for line in DOC.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] in ROWS:
            rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("first", sorted(ROWS))
def test_every_version_4_example_of_the_page_is_what_the_rules_give(first: str) -> None:
    cells = _doc_rows()[first]
    drill, actions = ROWS[first]
    result = card(*actions, drill=drill)
    outcome, points, response = cells[-3:]
    assert outcome == outcome_label(result.outcome, drill.is_all_clear)
    assert points.endswith(f"**{result.total}**")
    assert response == RESPONSE_LABELS[result.response]


def test_the_page_states_the_constants_of_the_edition() -> None:
    edition = EDITIONS["4"]
    assert f"`min_citation_precision`, **{edition.min_citation_precision:g}**" in DOC
    assert f"at most **{edition.max_cited}** events are cited (the edition's `max_cited`)" in DOC
    assert "at least **half** of the distinct events cited" in DOC and edition.min_citation_precision == 0.5
