"""Campaign 18 (issue 30), results and scores: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from projection_support import imported

from warroom.core.projection import TEMPLATES, Options, damage_rules, project, read_source, survey


@pytest.fixture(scope="module")
def tau(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported(tmp_path_factory.mktemp("tau"), "tau")


def _keys(value: Any, prefix: str = "") -> set[str]:
    """Every key path of ``value`` (list items by the shape of their records, not their place)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return set()
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= {f"{prefix}{k}"} | _keys(v, f"{prefix}{k}.")
    elif isinstance(value, list):
        for v in value:
            out |= _keys(v, f"{prefix}[].")
    return out


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_a_projected_faults_twin_shows_the_same_fields_with_sound_values(tau: Path, template: str):
    """A trainee who learnt the projection templates' field names from practice debriefs (`total_count`,
    `next_cursor`, `currency`, `cache_age_s`, `partial`, `errors`, `warnings`, `_timed_out`, `_error`,
    `write_errors` ...) and escalated on the first result holding one, reading none of their values, hit 1,039 of
    1,178 signal trials of a bank projected from 31 healthy tau-bench runs and false-alarmed on none of its 382
    noise trials (d′ +4.2; on the ten bundled `retail-*` drills 60/70 hits, 0/30 false alarms): the fault added
    the field, and the twin, the source's result as it was, never had it. As threat image projection's clean bag
    must look like the bag with the threat, the twin's result holds the same fields, saying the result is sound
    (the whole list and its total, no cursor; the run's currency; a live read; no error, warning or timeout; every
    record written): the value is the tell, never the field."""
    source = read_source(tau)
    projection = project(survey(source, damage_rules([])[0]), template, None, Options(distractors=0))
    event = projection.site.event
    healthy = next(e for e in source.data["trace"] if e["id"] == event)["output"]
    fault = next(e for e in projection.data["trace"] if e["id"] == event)["output"]
    twin = projection.twin["replace"][event]["output"]
    added = _keys(fault) - _keys(healthy)  # the fields the fault added (not what is inside them: their values)
    added = {k for k in added if not any(k.startswith(f"{a}.") for a in added)}
    assert twin != fault and added <= _keys(twin), (template, added, twin)
    if template != "wrong-record":  # the one template that changes a value, adding no field
        assert added


def test_every_bundled_projected_drills_twin_shows_the_fields_its_fault_added():
    """The ten bundled `retail-*` drills were projected before twins showed the template's fields: a trainee
    escalating on the first result holding `total_count`, `currency`, `cache_age_s`, `errors`, `_timed_out`,
    `_error` or `write_errors`, reading no value, hit 60 of their 70 signal trials and false-alarmed on none of 30
    noise trials (10 trainees). Each twin now holds every field its fault added, saying the result is sound."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import twin_of

    projected = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    projected = [d for d in projected if d.id.startswith("retail-")]  # written by `warroom project`
    assert len(projected) >= 10
    for drill in projected:
        healthy = {e.id: e for e in twin_of(drill).trace}
        for event in drill.trace:
            if event.kind == "tool_result" and event.id in healthy:
                fault, twin = getattr(event, "output", None), getattr(healthy[event.id], "output", None)
                missing = _keys(fault) - _keys(twin)  # but what is inside a field the twin has (an error record)
                assert all(any(k.startswith(f"{p}.") for p in _keys(twin)) for k in missing), (drill.id, missing)
