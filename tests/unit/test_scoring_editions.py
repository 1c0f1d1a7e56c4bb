"""The editions of the scoring rules are data (warroom.core.scoring, ``EDITIONS``): each released edition is one frozen
value, pinned here, so that a change made for a new edition cannot reach an old one (a stored session is re-scored
by its own edition). A new edition adds its values here; a released one's never change."""

from __future__ import annotations

import dataclasses

import pytest

from warroom.core.scoring import EDITIONS, SCORING_VERSION, SCORING_VERSIONS, Edition, check_rules

#: Every released edition's values, as released.
RELEASED = {
    "1": dict(
        contained=50, contained_late=20, right_step_unsupported=0, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=0, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=False, probes_count=False, distractor_figures=False, records_response=False,
        early_escalation=False, min_citation_precision=0.0, max_cited=0,
        evidence_event_once=False, accepted_evidence_detects=False, drops_float_noise=False,
        distractor_fields_compare=True, ids_by_position=False, cited_fields_checked=False,
    ),
    "2": dict(
        contained=50, contained_late=20, right_step_unsupported=10, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=0, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=True, probes_count=False, distractor_figures=True, records_response=False,
        early_escalation=False, min_citation_precision=0.0, max_cited=0,
        evidence_event_once=False, accepted_evidence_detects=False, drops_float_noise=False,
        distractor_fields_compare=True, ids_by_position=False, cited_fields_checked=False,
    ),
    "3": dict(
        contained=50, contained_late=20, right_step_unsupported=10, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=2, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=True, probes_count=True, distractor_figures=True, records_response=False,
        early_escalation=False, min_citation_precision=0.0, max_cited=0,
        evidence_event_once=False, accepted_evidence_detects=False, drops_float_noise=False,
        distractor_fields_compare=True, ids_by_position=False, cited_fields_checked=False,
    ),
    "4": dict(
        contained=50, contained_late=20, right_step_unsupported=10, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=2, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=True, probes_count=True, distractor_figures=True, records_response=True,
        early_escalation=True, min_citation_precision=0.5, max_cited=4,
        evidence_event_once=False, accepted_evidence_detects=False, drops_float_noise=False,
        distractor_fields_compare=True, ids_by_position=False, cited_fields_checked=False,
    ),
    "5": dict(
        contained=50, contained_late=20, right_step_unsupported=10, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=2, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=True, probes_count=True, distractor_figures=True, records_response=True,
        early_escalation=True, min_citation_precision=0.5, max_cited=4,
        evidence_event_once=True, accepted_evidence_detects=True, drops_float_noise=True,
        distractor_fields_compare=False, ids_by_position=False, cited_fields_checked=False,
    ),
    "6": dict(
        contained=50, contained_late=20, right_step_unsupported=10, speed=25, damage=25,
        false_escalation_penalty=10, needless_probe_penalty=2, all_clear_held=100, all_clear_false_alarm=50,
        cites_count=True, probes_count=True, distractor_figures=True, records_response=True,
        early_escalation=True, min_citation_precision=0.5, max_cited=4,
        evidence_event_once=True, accepted_evidence_detects=True, drops_float_noise=True,
        distractor_fields_compare=False, ids_by_position=True, cited_fields_checked=True,
    ),
}  # fmt: skip


@pytest.mark.parametrize("version", sorted(RELEASED))
def test_a_released_edition_keeps_its_values(version: str):
    edition = EDITIONS[version]
    assert dataclasses.asdict(edition) == {"version": version, **RELEASED[version]}


def test_every_edition_is_pinned_and_the_current_one_is_the_newest():
    assert list(EDITIONS) == list(SCORING_VERSIONS) == sorted(RELEASED, key=int)
    # version 6 is the current edition (issue 30): a drill with a twin is played with its events' ids by position
    assert SCORING_VERSION == SCORING_VERSIONS[-1] == "6"
    assert all(key == edition.version for key, edition in EDITIONS.items())


def test_an_edition_cannot_change_once_made():
    edition = EDITIONS[SCORING_VERSION]
    with pytest.raises(dataclasses.FrozenInstanceError):
        edition.contained = 60  # type: ignore[misc]
    with pytest.raises(TypeError):
        EDITIONS["7"] = edition  # type: ignore[index]
    with pytest.raises(TypeError):  # every value is spelt out: no default an old edition could inherit a change of
        Edition(version="7")  # type: ignore[call-arg]


def test_an_unknown_version_names_the_known_ones():
    assert check_rules("2") == "2"
    known = r"scoring rules version '9' is not known to this warroom \(it applies 1, 2, 3, 4, 5, 6\)"
    with pytest.raises(ValueError, match=known):
        check_rules("9")
