"""Issue 34, item 2: distractors and accepted evidence as field paths, citations of a field (``e05:currency``), and
the distractor-like-evidence fairness rule judged by what a scripted trainee scores (tests/fixtures/round2/
distractor-field.yaml: a 429 retried beside the evidence, and a harmless field inside the evidence event)."""

from __future__ import annotations

import pytest
from round2_support import ROUND2, esc, load_error, text_of

from warroom.core.author import run_checks
from warroom.core.load import load_drill
from warroom.core.model import Outcome, accepted_ids, field_cite, path_covers, split_cite
from warroom.core.play import Replay, ReplayError, describe_citations
from warroom.core.scoring import score

DRILL = load_drill(ROUND2 / "distractor-field.yaml")
# evidence e05:currency (10 s, s1); accepted e08:amounts_read_as (18 s); distractors e05:stale_after and e03 (a 429,
# 5 s, a tool_result in s1 like the evidence); deadline 30 s: a window of 20 s; e11 (40 s) does $2,400 of damage.


def test_the_drill_passes_check_with_a_distractor_like_the_evidence_by_kind_and_step():
    assert DRILL.event("e03").kind == DRILL.event("e05").kind and DRILL.event("e03").step == "s1"
    report = run_checks(DRILL)
    assert report.passed, report.problems
    assert report.run("trigger-happy").scorecard.outcome is not Outcome.CONTAINED


@pytest.mark.parametrize(
    ("cites", "t", "total", "outcome"),
    [
        # 5 s after the evidence: speed 25 x (1 - 5/20) = 18.75 -> 19; no damage: 25; 50 + 19 + 25
        (("e05",), 15, 94, Outcome.CONTAINED),  # the whole event holds the evidence field, as before fields
        (("e05:currency",), 15, 94, Outcome.CONTAINED),
        (("e05:stale_after",), 15, 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # the harmless field alone
        (("e05:prices",), 15, 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # a field the answer key says nothing of
        (("e03",), 15, 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # the 429
        (("e05:stale_after", "e05:currency"), 15, 94, Outcome.CONTAINED),  # half evidence: specific by version 4
        # accepted evidence at 18 s, cited at 19 s: 25 x (1 - 9/20) = 13.75 -> 14
        (("e08:amounts_read_as",), 19, 89, Outcome.CONTAINED),
        (("e08",), 19, 89, Outcome.CONTAINED),
        (("e08:changes",), 19, 10, Outcome.RIGHT_STEP_UNSUPPORTED),
    ],
)
def test_citations_of_fields_score_as_a_fair_judge_would(cites, t, total, outcome):
    card = score(DRILL, [esc(t, "s1", *cites)], rules="4")
    assert (card.outcome, card.total) == (outcome, total), card.lines


def test_citations_of_fields_are_named_in_words():
    assert describe_citations(DRILL, ("e05:stale_after", "e05:currency", "e03")) == (
        "e05:stale_after (a distractor), e05:currency (evidence), e03 (a distractor)")
    assert accepted_ids(DRILL.answer_key) == ["e08"]


def test_field_citations_are_read_and_written_one_way():
    assert split_cite("e05:data.items[3].id") == ("e05", "data.items[3].id")
    assert split_cite("e05") == ("e05", None) and field_cite("e05", None) == "e05"
    assert field_cite("e05", "currency") == "e05:currency"
    assert path_covers("data", "data.items[3].id") and path_covers(None, "x")
    assert not path_covers("data.items", "data.total") and not path_covers("data.items[3]", None)


def test_the_replay_refuses_a_field_of_an_event_not_out_yet_or_not_a_field_path():
    replay = Replay(DRILL)
    replay.advance_to(9)
    with pytest.raises(ReplayError, match="has not been released yet"):
        replay.escalate("s1", "", ("e05:currency",))
    replay.advance_to(11)
    with pytest.raises(ReplayError, match="is not a field path"):
        replay.escalate("s1", "", ("e05:cur rency",))
    assert replay.escalate("s1", "", ("e05:currency",)).contained


def test_field_rules_are_checked_with_hints():
    text = text_of("distractor-field")
    message = load_error(text.replace("path: stale_after", "path: stale_afterr"))
    assert "the field path `stale_afterr` leads nowhere in the output of `e05`" in message
    assert "did you mean `stale_after`?" in message
    message = load_error(text.replace("path: stale_after", "path: currency"))
    assert "field `currency` of `e05` is evidence of the fault, so it cannot also be a distractor" in message
    message = load_error(text.replace("{event: e05, path: stale_after, why", "{event: e05, why"))
    assert "event `e05` is evidence of the fault, so it cannot also be a distractor (give the distractor a " \
        "`path`" in message
    message = load_error(text.replace("path: amounts_read_as", "path: amounts_read"))
    assert "the field path `amounts_read` leads nowhere in the output of `e08`" in message
    message = load_error(text.replace("schema_version: 2", "schema_version: 1"))
    assert "a distractor's `path` is format 2" in message
    assert "an accepted evidence item other than an event id is format 2" in message
