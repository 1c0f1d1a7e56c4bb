"""The issue-34 test drills of tests/fixtures/round2 (format 2, round 2): one per shape authors could not write
before, each loaded, checked and scored by hand in tests/unit/test_round2_*.py."""

from __future__ import annotations

import pytest
from locations import TESTS

from warroom.core.load import DrillLoadError, load_drill_text
from warroom.core.model import Action, ActionKind

ROUND2 = TESTS / "fixtures" / "round2"


def text_of(name: str) -> str:
    """The YAML text of the round-2 drill ``name``."""
    return (ROUND2 / f"{name}.yaml").read_text(encoding="utf-8")


def load_error(text: str) -> str:
    """The message of the load error ``text`` raises (as file x.yaml)."""
    with pytest.raises(DrillLoadError) as info:
        load_drill_text(text, "x.yaml")
    return str(info.value)


def esc(t: float, target: str, *cites: str) -> Action:
    """An escalation of ``target`` at drill time ``t`` citing ``cites``."""
    return Action(t=t, kind=ActionKind.ESCALATE, step=target, note="", cites=tuple(cites))
