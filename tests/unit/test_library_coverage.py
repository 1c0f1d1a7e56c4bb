"""The drill library's coverage table (issue 17, "Checks"): for every fault kind of the vocabulary and every MAST
failure mode, the bundled drills that use it.

The library is not complete yet, so the kinds and modes no bundled drill uses yet are listed, explicitly, in
NOT_YET_COVERED and NOT_YET_COVERED_MAST. Each set must hold exactly what is uncovered: a kind added to the
vocabulary without a drill fails (it is neither covered nor listed), and a drill that covers a listed kind fails
until the kind is taken off the list.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.loader import load_drill
from warroom.core.model import Drill
from warroom.core.modelbase import FaultKind

#: Fault kinds no bundled drill has yet. Remove a kind when a drill covers it; never add one to make this pass.
NOT_YET_COVERED: frozenset[str] = frozenset(
    {
        "unverified_write",
        "invented_constraint",
        "environment_setup_failed",
    }
)

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
NOT_YET_COVERED_MAST: frozenset[str] = frozenset(
    {
    }
)

_MAST_TAG = re.compile(r"^MAST:\s*(.+)$")


@cache
def _library() -> tuple[Drill, ...]:
    paths = sorted(bundled_drills_dir().glob("*.yaml"))
    assert paths, f"no bundled drills in {bundled_drills_dir()}"
    return tuple(load_drill(p) for p in paths)


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
