"""The drill library's coverage table (issue 17, "Checks"): for every fault kind of the vocabulary, every MAST
failure mode and every format-2 shape, the bundled drills that use it.

The library is not complete yet, so the kinds and modes no bundled drill uses yet are listed, explicitly, in
NOT_YET_COVERED and NOT_YET_COVERED_MAST. Each set must hold exactly what is uncovered: a kind added to the
vocabulary without a drill fails (it is neither covered nor listed), and a drill that covers a listed kind fails
until the kind is taken off the list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from library_support import load_bundled

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Approval, CommandResult, Drill, FaultKind, ToolCall
from warroom.core.model._events import Handoff
from warroom.core.model._evidence import EvidenceRef

#: Fault kinds no bundled drill has yet. Remove a kind when a drill covers it; never add one to make this pass.
NOT_YET_COVERED: frozenset[str] = frozenset()

#: The 14 failure modes of the MAST taxonomy (Cemri et al., "Why Do Multi-Agent LLM Systems Fail?", 2025), each
#: with the spellings a drill's `MAST: ...` tag may use (compared in lower case).
MAST_MODES: dict[str, tuple[str, ...]] = {
    "FM-1.1 disobey task specification": ("disobey task specification", "disobeyed task specification"),
    "FM-1.2 disobey role specification": ("disobey role specification", "disobeyed role specification"),
    "FM-1.3 step repetition": ("step repetition",),
    "FM-1.4 loss of conversation history": ("loss of conversation history",),
    "FM-1.5 unaware of termination conditions": ("unaware of termination conditions",),
    "FM-2.1 conversation reset": ("conversation reset",),
    "FM-2.2 fail to ask for clarification": ("fail to ask for clarification", "failure to ask for clarification"),
    "FM-2.3 task derailment": ("task derailment",),
    "FM-2.4 information withholding": ("information withholding",),
    "FM-2.5 ignored other agent's input": ("ignored other agent's input",),
    "FM-2.6 reasoning-action mismatch": ("reasoning-action mismatch",),
    "FM-3.1 premature termination": ("premature termination",),
    "FM-3.2 no or incomplete verification": ("no or incomplete verification", "incomplete verification"),
    "FM-3.3 incorrect verification": ("incorrect verification",),
}

#: MAST modes no bundled drill's tags name yet (same rule as NOT_YET_COVERED).
NOT_YET_COVERED_MAST: frozenset[str] = frozenset()

_MAST_TAG = re.compile(r"^MAST:\s*(.+)$")


@cache
def _library() -> tuple[Drill, ...]:
    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    assert paths, f"no bundled drills in {bundled_drills_dir()}"
    return tuple(load_bundled(p) for p in paths)


def fault_kind_table() -> dict[str, list[str]]:
    """Every fault kind of the vocabulary -> the ids of the bundled drills whose fault is of that kind."""
    table: dict[str, list[str]] = {kind.value: [] for kind in FaultKind}
    for drill in _library():
        if drill.answer_key is not None:
            table[drill.answer_key.fault.kind.value].append(drill.id)
    return table


def _mast_mode(tag_text: str) -> str | None:
    text = tag_text.strip().lower()
    return next((mode for mode, names in MAST_MODES.items() if text in names), None)


def mast_table() -> dict[str, list[str]]:
    """Every MAST failure mode -> the ids of the bundled drills with a `MAST: ...` tag naming it."""
    table: dict[str, list[str]] = {mode: [] for mode in MAST_MODES}
    for drill in _library():
        for tag in drill.tags:
            m = _MAST_TAG.match(tag)
            mode = _mast_mode(m.group(1)) if m else None
            if mode is not None and drill.id not in table[mode]:
                table[mode].append(drill.id)
    return table


def test_the_vocabulary_is_read_from_the_model():
    assert set(fault_kind_table()) == {k.value for k in FaultKind}
    assert not NOT_YET_COVERED - {k.value for k in FaultKind}, "NOT_YET_COVERED names a kind the model does not have"


def test_every_fault_kind_has_a_bundled_drill_or_is_listed_as_not_yet_covered():
    uncovered = {kind for kind, drills in fault_kind_table().items() if not drills}
    newly_covered = NOT_YET_COVERED - uncovered
    assert not newly_covered, f"covered now, take them off NOT_YET_COVERED: {sorted(newly_covered)}"
    missing = uncovered - NOT_YET_COVERED
    assert not missing, f"fault kinds without a bundled drill (write one): {sorted(missing)}"


@pytest.mark.parametrize("tag", sorted({t for d in _library() for t in d.tags if _MAST_TAG.match(t)}))
def test_every_mast_tag_names_a_mast_mode(tag: str):
    m = _MAST_TAG.match(tag)
    assert m is not None and _mast_mode(m.group(1)) is not None, f"{tag!r} names no MAST failure mode"


def test_every_mast_mode_has_a_bundled_drill_or_is_listed_as_not_yet_covered():
    assert len(MAST_MODES) == 14
    uncovered = {mode for mode, drills in mast_table().items() if not drills}
    newly_covered = NOT_YET_COVERED_MAST - uncovered
    assert not newly_covered, f"covered now, take them off NOT_YET_COVERED_MAST: {sorted(newly_covered)}"
    missing = uncovered - NOT_YET_COVERED_MAST
    assert not missing, f"MAST modes no bundled drill names: {sorted(missing)}"


def test_the_table_lists_the_drills_of_a_kind():
    # A spot check that the table is built from the drills themselves, not from the sets above.
    table = fault_kind_table()
    assert "sla-credits-october" in table["unit_confusion"]
    assert "dental-recall-calls" in table["dropped_handoff"]
    assert "information withholding" in MAST_MODES["FM-2.4 information withholding"]
    assert "dental-recall-calls" in mast_table()["FM-2.4 information withholding"]


# -- Shapes of format 2 (issue 17, "Checks": every shape in at least one bundled drill) ---------------------------
#
# Each shape is detected from the loaded Drill model by a function of (drill, its file). A shape the model cannot
# express yet has a detector that returns False (listed in SHAPE_DETECTORS_TO_WRITE): when the model gains the
# field, write the detector (one line, the comment in it says what to test), take the shape off that set, and off
# NOT_YET_COVERED_SHAPES once a bundled drill has it.

SHAPES_FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "shapes"


def _all_events(drill: Drill) -> list[Any]:
    return list(drill.trace) + (list(drill.answer_key.replan) if drill.answer_key is not None else [])


def _agents_and_handoffs(drill: Drill, path: Path) -> bool:
    return bool(drill.agents) and any(isinstance(e, Handoff) for e in _all_events(drill))


def _parallel_batches(drill: Drill, path: Path) -> bool:
    batches = Counter(e.batch for e in drill.trace if isinstance(e, ToolCall) and e.batch is not None)
    return any(n >= 2 for n in batches.values())


def _retries(drill: Drill, path: Path) -> bool:
    return any(isinstance(e, ToolCall) and e.retry_of is not None for e in drill.trace)


def _repetition(drill: Drill, path: Path) -> bool:
    return any(e.repeat is not None for e in _all_events(drill))


def _approvals(drill: Drill, path: Path) -> bool:
    return any(isinstance(e, Approval) for e in drill.trace) or any(s.requires_approval for s in drill.plan)


def _command_results(drill: Drill, path: Path) -> bool:
    return any(isinstance(e, CommandResult) for e in drill.trace)


def _event_relative_deadline(drill: Drill, path: Path) -> bool:
    # The loaded model holds the deadline resolved to drill seconds (the model's resolve_deadline), so the reference
    # is read from the file: `answer_key.deadline` written as a mapping `{event: ..., after: ...}`.
    if drill.answer_key is None:
        return False
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return isinstance(data["answer_key"]["deadline"], dict)


def _origin_is(drill: Drill, origin: str) -> bool:
    return drill.answer_key is not None and drill.answer_key.fault.origin.value == origin


def _planner_origin(drill: Drill, path: Path) -> bool:
    return _origin_is(drill, "plan")


def _setup_origin(drill: Drill, path: Path) -> bool:
    return _origin_is(drill, "setup")


def _evidence_refs(drill: Drill) -> list[EvidenceRef]:
    key = drill.answer_key
    return [item for item in key.evidence if isinstance(item, EvidenceRef)] if key is not None else []


def _comparison_evidence(drill: Drill, path: Path) -> bool:
    return any(ref.all_of is not None for ref in _evidence_refs(drill))


def _absence_evidence(drill: Drill, path: Path) -> bool:
    return any(ref.absent is not None for ref in _evidence_refs(drill))


def _field_path_evidence(drill: Drill, path: Path) -> bool:
    return any(ref.path is not None for ref in _evidence_refs(drill))


def _verification_probes(drill: Drill, path: Path) -> bool:
    return bool(drill.probes)


#: Every format-2 shape (issue 17, "What to write") -> its detector.
SHAPES: dict[str, Callable[[Drill, Path], bool]] = {
    "agents and handoffs": _agents_and_handoffs,
    "parallel batches": _parallel_batches,
    "retries": _retries,
    "repetition": _repetition,
    "approvals": _approvals,
    "command results": _command_results,
    "planner-origin faults": _planner_origin,
    "set-up-origin faults": _setup_origin,
    "comparison evidence": _comparison_evidence,
    "absence evidence": _absence_evidence,
    "field-path evidence": _field_path_evidence,
    "verification probes": _verification_probes,
    "event-relative deadlines": _event_relative_deadline,
}

#: Shapes whose detector cannot be written yet: the drill model has no field for them. Never add a shape the model
#: has; take one off when its detector is written (the shape fixture test below then holds it to its fixture).
SHAPE_DETECTORS_TO_WRITE: frozenset[str] = frozenset()

#: Shapes no bundled drill has yet (same rule as NOT_YET_COVERED).
NOT_YET_COVERED_SHAPES: frozenset[str] = frozenset()

#: The shape fixtures (tests/fixtures/shapes, file names starting so) that show each shape: a detector must find
#: its shape in at least one of them, so a detector that finds nothing cannot pass for a shape no drill has.
SHAPE_FIXTURES: dict[str, str] = {
    "agents and handoffs": "shape-01-",
    "parallel batches": "shape-03-",
    "retries": "shape-06-",
    "repetition": "shape-05-",
    "approvals": "shape-07-",
    "command results": "shape-08-",
    "planner-origin faults": "shape-09-",
    "set-up-origin faults": "shape-09-",
    "comparison evidence": "shape-10-",
    "absence evidence": "shape-10-",
    "field-path evidence": "shape-10-",
    "verification probes": "shape-11-",
    "event-relative deadlines": "shape-12-",
}


def shape_table() -> dict[str, list[str]]:
    """Every format-2 shape -> the ids of the bundled drills that have it."""
    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    table: dict[str, list[str]] = {shape: [] for shape in SHAPES}
    for path, drill in zip(paths, _library(), strict=True):
        for shape, has in SHAPES.items():
            if has(drill, path):
                table[shape].append(drill.id)
    return table


def test_every_shape_has_a_bundled_drill_or_is_listed_as_not_yet_covered():
    assert set(SHAPE_FIXTURES) == set(SHAPES)
    assert not SHAPE_DETECTORS_TO_WRITE - set(SHAPES)
    assert SHAPE_DETECTORS_TO_WRITE <= NOT_YET_COVERED_SHAPES, "a shape nothing can detect cannot be covered"
    uncovered = {shape for shape, drills in shape_table().items() if not drills}
    newly_covered = NOT_YET_COVERED_SHAPES - uncovered
    assert not newly_covered, f"covered now, take them off NOT_YET_COVERED_SHAPES: {sorted(newly_covered)}"
    missing = uncovered - NOT_YET_COVERED_SHAPES
    assert not missing, f"shapes no bundled drill has (write one): {sorted(missing)}"


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_shape_detector_finds_its_shape_in_its_fixture(shape: str):
    fixtures = sorted(SHAPES_FOLDER.glob(f"{SHAPE_FIXTURES[shape]}*.yaml"))
    if shape in SHAPE_DETECTORS_TO_WRITE:
        assert not any(SHAPES[shape](load_drill(p), p) for p in fixtures), f"written now: take {shape!r} off"
        return
    assert fixtures, f"no shape fixture {SHAPE_FIXTURES[shape]}*.yaml in {SHAPES_FOLDER}"
    assert any(SHAPES[shape](load_drill(p), p) for p in fixtures), f"{shape}: not found in {fixtures}"
    # ...and not everywhere: the detector tells drills apart (shape-13 has none of these shapes).
    plain = SHAPES_FOLDER / "shape-13-kinds.yaml"
    assert not SHAPES[shape](load_drill(plain), plain)


def test_the_shape_table_lists_the_drills_of_a_shape():
    table = shape_table()
    assert "dental-recall-calls" in table["agents and handoffs"]
    assert "erasure-requests-december" in table["parallel batches"]


def test_the_drill_docs_name_for_each_shape_has_it():
    # docs/authoring.md, "One drill per shape": a row whose shape starts with a shape's name names a bundled drill
    # that has the shape.
    docs = (Path(__file__).resolve().parents[2] / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = docs.split("## One drill per shape\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([^|]+?) \| `([a-z0-9-]+)` \|", section, flags=re.MULTILINE)
    drills = {d.id: (p, d) for p, d in zip(sorted(bundled_drills_dir().glob("*.yaml")), _library(), strict=True)}
    checked = set()
    for shape_words, drill_id in rows:
        assert drill_id in drills, f"the docs name {drill_id!r}, not a bundled drill"
        for shape, has in SHAPES.items():
            if shape_words.startswith(shape):
                path, drill = drills[drill_id]
                assert has(drill, path), f"{drill_id} does not have the shape {shape!r} the docs name it for"
                checked.add(shape)
    assert checked == set(SHAPES) - NOT_YET_COVERED_SHAPES
