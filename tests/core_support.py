"""Small drills built in code for the domain-core tests (test_replay, test_scoring, test_cost, test_check).

The standard drill (:func:`drill_dict`) has a planner call at 0 s and three plan steps; the fault is in s1, its only
evidence is e03 at 10 s, the deadline is 28 s, damage is 100 rows at e07 (30 s) and 300 rows at e09 (50 s), and the
trace ends at 60 s. A re-plan planner call plays 2 s after a correct escalation. e06 (25 s, s2) is a distractor.

Prices: planner "big" at $5/$25 per million tokens, executor "small" at $1/$5.
"""

from __future__ import annotations

import copy
from typing import Any

import yaml

from warroom.core.model import Drill


def _u(i: int, o: int) -> dict[str, int]:
    return {"input_tokens": i, "output_tokens": o}


BASE: dict[str, Any] = {
    "schema_version": 1,
    "id": "tiny",
    "title": "Tiny drill",
    "difficulty": 1,
    "author": "tests",
    "briefing": {"goal": "Copy the rows.", "watching": "A tiny agent."},
    "models": {
        "planner": {"name": "big", "input_usd_per_mtok": 5.0, "output_usd_per_mtok": 25.0},
        "executor": {"name": "small", "input_usd_per_mtok": 1.0, "output_usd_per_mtok": 5.0},
    },
    "plan": [
        {"id": "s1", "title": "Read", "objective": "Read the rows."},
        {"id": "s2", "title": "Transform", "objective": "Transform the rows."},
        {"id": "s3", "title": "Write", "objective": "Write the rows."},
    ],
    "trace": [
        {"id": "e01", "t": 0, "kind": "planner_call", "content": "plan", "usage": _u(1000, 200)},
        {"id": "e02", "t": 5, "step": "s1", "kind": "tool_call", "tool": "db.read", "usage": _u(100, 10)},
        {
            "id": "e03", "t": 10, "step": "s1", "kind": "tool_result", "call": "e02",
            "output": {"rows": [], "stale": True},
        },
        {"id": "e04", "t": 12, "step": "s1", "kind": "executor_report", "status": "success", "content": "ok",
         "usage": _u(200, 20)},
        {"id": "e05", "t": 20, "step": "s2", "kind": "tool_call", "tool": "xf.run", "usage": _u(100, 10)},
        {"id": "e06", "t": 25, "step": "s2", "kind": "tool_result", "call": "e05", "output": "odd but fine"},
        {"id": "e07", "t": 30, "step": "s2", "kind": "executor_report", "status": "success", "content": "ok",
         "usage": _u(200, 20)},
        {"id": "e08", "t": 40, "step": "s3", "kind": "tool_call", "tool": "db.write", "usage": _u(100, 10)},
        {"id": "e09", "t": 50, "step": "s3", "kind": "tool_result", "call": "e08", "output": {"written": 300}},
        {"id": "e10", "t": 60, "step": "s3", "kind": "executor_report", "status": "success", "content": "done",
         "usage": _u(200, 20)},
    ],
    "answer_key": {
        "fault": {"origin_step": "s1", "kind": "stale_data", "summary": "s1 read a stale copy."},
        "evidence": ["e03"],
        "cascade": ["s2", "s3"],
        "damage": {
            "unit": "rows corrupted",
            "entries": [{"event": "e07", "amount": 100}, {"event": "e09", "amount": 300}],
        },
        "deadline": 28,
        "debrief": "The read was stale.",
        "replan": [{"id": "r01", "t": 2, "kind": "planner_call", "content": "re-plan", "usage": _u(2000, 400)}],
    },
    "distractors": [{"event": "e06", "why_harmless": "It is fine."}],
}


def drill_dict(**changes: Any) -> dict[str, Any]:
    """A deep copy of the standard drill with top-level keys replaced (a value of None deletes the key)."""
    d = copy.deepcopy(BASE)
    for k, v in changes.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


def make_drill(**changes: Any) -> Drill:
    """The standard drill (see the module docstring) as a validated :class:`Drill`, with ``changes`` applied."""
    return Drill.model_validate(drill_dict(**changes))


def all_clear_drill() -> Drill:
    """The standard trace as an all-clear control drill (no answer key)."""
    return make_drill(id="tiny-clear", answer_key=None, all_clear={"debrief": "Nothing was wrong."})


def drill_yaml(**changes: Any) -> str:
    """The standard drill (with ``changes``) as YAML text."""
    return yaml.safe_dump(drill_dict(**changes), sort_keys=False)
