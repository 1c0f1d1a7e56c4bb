"""Shared by the tests of the semantic rules (tests/unit/test_validation*.py): a valid base drill as plain data,
and helpers that edit a copy of it and run the rules."""

from __future__ import annotations

import copy
from typing import Any

from locations import MALFORMED

from warroom.core.load import load_yaml_text
from warroom.core.model import Drill
from warroom.core.rules import Issue, validate_drill

BASE_TEXT = (MALFORMED / "unknown-key-typo.yaml").read_text().replace("evidnce:", "evidence:")
BASE: dict[str, Any] = load_yaml_text(BASE_TEXT)
# trace: e1 planner_call t0 | e2 tool_call s1 t5 | e3 tool_result s1 t8 (call e2) | e4 executor_report s1 t10
#        e5 executor_message s2 t15 | e6 log s2 t18;  answer key: origin s1, evidence [e3], cascade [s2],
#        damage e5, deadline 12, replan [r1 t2];  distractors: [e6]


def issues_of(edit) -> list[Issue]:
    data = copy.deepcopy(BASE)
    edit(data)
    return validate_drill(Drill.model_validate(data))


def only(issues: list[Issue]) -> Issue:
    assert len(issues) == 1, issues
    return issues[0]
