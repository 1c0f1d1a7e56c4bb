"""The bundled drill library (issue 6): every drill loads, passes the headless checks and meets the library's bar.

Per drill: it loads and validates (:func:`warroom.core.load.load_drill`), the scripted trainees of
:func:`warroom.core.author.run_checks` rank as a fair drill's would, its file stem is its id, it starts with the
schema line, and its trace, plan and length are in the ranges the authoring guide asks for. Per fault drill: a
distractor, damage that grows through the cascade after the fault became detectable, a deadline with a window
after the earliest evidence and before most of the damage, a silent step (the executor reports success on the
origin step), and a re-plan; a projected drill (tag ``projected``: a fault projected into a real trace by ``warroom
project``) has its twin and the real run's consequential calls as its damage, one or more, and the assistant's own
message as its report. For the library: enough fault drills, an all-clear control, difficulties 1-5 and
at least ten distinct fault kinds.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from library_support import load_bundled

from warroom.core.author import _check as check
from warroom.core.author import check_variants
from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.core.load import _loader as loader
from warroom.core.model import available_at, earliest_evidence_at, earliest_result_at, evidence_ids
from warroom.core.play import EndReason, Replay

SCHEMA_LINE = "# yaml-language-server: $schema=../schema/drill.schema.json"

#: Drills allowed outside the 15-80 event range: small worked examples (e.g. the cost-math seed) and the library's
#: long drill (issue 17: one drill of 500+ trace events), by id.
SPECIAL_IDS = frozenset({"seed-cost", "prod-db-access-recert"})

MIN_FAULT_DRILLS = 12
MIN_FAULT_KINDS = 10

DRILL_FILES = find_drill_files([bundled_drills_dir()])
#: Every bundled drill, read once when the module is collected (each xdist worker collects every module): the
#: parameter lists below are chosen by what the drills hold.
_COLLECTED = {p: load_bundled(p) for p in DRILL_FILES}  # read once per process (tests/library_support.py)
#: The drills with a fault (an answer key), as opposed to all-clear controls.
FAULT_DRILL_FILES = [p for p in DRILL_FILES if _COLLECTED[p].answer_key is not None]


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


@pytest.fixture(scope="module")
def library() -> dict[str, object]:
    """Every bundled drill, loaded, by file stem."""
    return {p.stem: loader.load_drill(p) for p in DRILL_FILES}


def test_library_is_not_empty():
    assert DRILL_FILES, f"no drill files found in {bundled_drills_dir()}"


@pytest.mark.parametrize("path", DRILL_FILES, ids=_ids(DRILL_FILES))
def test_drill_loads_and_is_well_formed(path: Path):
    drill = loader.load_drill(path)  # raises DrillLoadError with path:line:col messages
    assert path.read_text(encoding="utf-8").startswith(SCHEMA_LINE), f"{path.name}: first line must be {SCHEMA_LINE!r}"
    assert path.stem == drill.id, f"{path.name}: file stem must equal the drill id {drill.id!r}"
    if drill.id not in SPECIAL_IDS:
        assert 15 <= len(drill.trace) <= 80, f"{drill.id}: {len(drill.trace)} trace events (want 15-80)"
        assert 4 <= len(drill.plan) <= 8, f"{drill.id}: {len(drill.plan)} plan steps (want 4-8)"
        assert 90 <= drill.duration <= 400, f"{drill.id}: {drill.duration} s of drill time (want 90-400)"
    assert drill.distractors, f"{drill.id}: every drill needs at least one distractor"
    assert any(t.lower().startswith(("mast:", "trail:", "agentrx:")) for t in drill.tags), (
        f"{drill.id}: tag the fault (or the control) in MAST / TRAIL / AgentRx terms"
    )


@pytest.mark.parametrize("path", DRILL_FILES, ids=_ids(DRILL_FILES))
def test_drill_passes_run_checks(path: Path):
    drill = loader.load_drill(path)
    report = check.run_checks(drill)
    assert report.passed, f"{drill.id}: " + "; ".join(report.problems)


#: The drills that declare seeded variants (issue 17: each passes `warroom check` over 20 of them).
VARIANT_DRILL_FILES = [p for p in DRILL_FILES if _COLLECTED[p].variants is not None]


@pytest.mark.parametrize("path", VARIANT_DRILL_FILES, ids=_ids(VARIANT_DRILL_FILES))
def test_drill_passes_run_checks_over_20_seeded_variants(path: Path):
    drill = loader.load_drill(path)
    seeded = check_variants(drill, 20)
    assert seeded.seeds == tuple(range(20))
    assert not seeded.problems, f"{drill.id}: " + "; ".join(seeded.problems)


def test_some_bundled_drills_declare_variants():
    assert len(VARIANT_DRILL_FILES) >= 3, [p.stem for p in VARIANT_DRILL_FILES]


@pytest.mark.parametrize("path", FAULT_DRILL_FILES, ids=_ids(FAULT_DRILL_FILES))
def test_fault_drill_is_fair(path: Path):
    drill = loader.load_drill(path)
    key = drill.answer_key
    assert key is not None
    by_id = {e.id: e for e in drill.trace}
    first_evidence = earliest_evidence_at(drill)  # every evidence item, and a probe's earliest result (format 2)
    assert first_evidence is not None
    damage = sorted((by_id[d.event].t, d.amount) for d in key.damage.entries)
    full = sum(a for _, a in damage)

    projected = "projected" in drill.tags  # a fault projected into a real trace (warroom project)
    if projected:  # the real run's consequential calls are its damage, one or more; it plays with its twin
        assert all(by_id[d.event].kind == "tool_call" for d in key.damage.entries), f"{drill.id}: damage by a call"
        assert drill.twin is not None, f"{drill.id}: a projected drill keeps its twin (the real, healthy run)"
    else:
        assert len(key.damage.entries) >= 2, f"{drill.id}: damage should grow through the cascade (several entries)"
    assert damage[0][0] > first_evidence, f"{drill.id}: damage before the fault is detectable"
    assert key.deadline > first_evidence, f"{drill.id}: the deadline must come after the earliest evidence"
    done_by_deadline = sum(a for t, a in damage if t <= key.deadline)
    assert done_by_deadline < full / 2, f"{drill.id}: most of the damage is done before the deadline"
    assert key.replan, f"{drill.id}: add the planner's re-plan events"
    # a fault in the plan or the set-up (format 2) is silent when a step built on it reports success
    silent_steps = {key.fault.origin_step} if key.fault.origin_step is not None else set(key.cascade)
    def reports_success(event: object) -> bool:
        if event.kind == "executor_report":
            return event.status.value == "success"
        return projected and event.kind == "executor_message"  # a chat assistant reports in its reply

    silent = [e for e in drill.trace if e.step in silent_steps and reports_success(e)]
    assert silent, f"{drill.id}: the executor should report success on the silent step {sorted(silent_steps)}"
    both = {d.event for d in drill.distractors} & set(evidence_ids(key))
    assert not both, f"{drill.id}: an event is both evidence and distractor"


@pytest.mark.parametrize("path", DRILL_FILES, ids=_ids(DRILL_FILES))
def test_replay_paths(path: Path):
    """Escalating the origin step at the earliest evidence contains with no damage; never escalating does it all."""
    drill = loader.load_drill(path)
    key = drill.answer_key
    never = Replay(drill)
    never.advance(0)
    never.advance(drill.duration + 1)
    assert never.ended and never.end_reason is EndReason.END_OF_TRACE
    if key is None:
        assert never.damage == 0
        return
    assert never.damage == pytest.approx(never.full_damage)

    ideal = Replay(drill)
    ideal.advance(0)
    for probe in drill.probes:  # a fault only a probe finds: ask for it as soon as its step starts
        listed = probe.id in [i for i in key.evidence if isinstance(i, str)]
        if listed and earliest_result_at(drill, probe) == ideal.first_evidence_time:
            ideal.advance_to(available_at(drill, probe))
            ideal.probe(probe.id)
            break
    ideal.advance_to(ideal.first_evidence_time)
    result = ideal.escalate(key.fault.target, "scripted: escalate at the earliest evidence")
    assert result.contained and not result.late
    ideal.advance(drill.duration + 60)
    assert ideal.ended and ideal.end_reason is EndReason.CONTAINED
    assert ideal.damage == 0


def test_library_coverage(library):
    drills = list(library.values())
    faults = [d for d in drills if d.answer_key is not None]
    controls = [d for d in drills if d.twin is not None]  # noise trials: a drill played as its healthy twin
    assert len(faults) >= MIN_FAULT_DRILLS, f"{len(faults)} fault drills; the library needs {MIN_FAULT_DRILLS}"
    assert controls, "the library needs noise trials: drills with a twin (their healthy run)"
    assert {d.difficulty for d in drills} >= {1, 2, 3, 4, 5}, (
        f"difficulties present: {sorted({d.difficulty for d in drills})}; spread them over 1-5"
    )
    kinds = Counter(d.answer_key.fault.kind for d in faults)
    assert len(kinds) >= MIN_FAULT_KINDS, f"only {len(kinds)} distinct fault kinds: {dict(kinds)}"


def test_drill_ids_are_unique(library):
    ids = [d.id for d in library.values()]
    assert len(ids) == len(set(ids))
