"""warroom's domain core: the drill model, loading and validation, the replay on a drill clock, scoring, cost and
the author checks (see docs/architecture.md).

The public names below are the core's API for the other layers (store, importers, TUI, CLI) and for scripts::

    from warroom.core import load_drill, Replay, score

They are imported lazily, on first use, so ``import warroom.core`` stays light (no pydantic or PyYAML until a
name that needs them is used) and a submodule importing ``warroom.core.x`` never cycles through this file.
Anything not listed here is internal to the core and may change.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: public name -> the submodule of warroom.core that defines it.
_WHERE: dict[str, str] = {
    # errors
    "WarroomError": "errors",
    "SettingsError": "errors",
    # the drill model
    "Drill": "model",
    "Briefing": "model",
    "Models": "model",
    "ModelSpec": "model",
    "Usage": "model",
    "PlanStep": "model",
    "TraceEvent": "model",
    "PlannerCall": "model",
    "ExecutorMessage": "model",
    "ToolCall": "model",
    "ToolResult": "model",
    "ExecutorReport": "model",
    "LogEvent": "model",
    "AnswerKey": "model",
    "AllClear": "model",
    "Fault": "model",
    "FaultKind": "model",
    "Damage": "model",
    "DamageEntry": "model",
    "Distractor": "model",
    "Role": "model",
    "ReportedStatus": "model",
    # loading and validation
    "load_drill": "loader",
    "load_drill_text": "loader",
    "load_drill_with_warnings": "loader",
    "DrillLoadError": "loader",
    "Problem": "loader",
    "validate_drill": "validation",
    "Issue": "validation",
    # playing, scoring, cost, checks
    "Action": "actions",
    "ActionKind": "actions",
    "Replay": "replay",
    "ReplayError": "replay",
    "StepState": "replay",
    "EscalationVerdict": "replay",
    "score": "scoring",
    "Scorecard": "scoring",
    "ScoringError": "scoring",
    "Outcome": "outcome",
    "trace_cost": "cost",
    "TraceCost": "cost",
    "run_checks": "check",
    "CheckReport": "check",
    # settings
    "Settings": "settings",
}

__all__ = [
    "Action", "ActionKind", "AllClear", "AnswerKey", "Briefing", "CheckReport", "Damage", "DamageEntry",
    "Distractor", "Drill", "DrillLoadError", "EscalationVerdict", "ExecutorMessage", "ExecutorReport", "Fault",
    "FaultKind", "Issue", "LogEvent", "ModelSpec", "Models", "Outcome", "PlanStep", "PlannerCall", "Problem",
    "Replay", "ReplayError", "ReportedStatus", "Role", "Scorecard", "ScoringError", "Settings", "SettingsError",
    "StepState", "ToolCall", "ToolResult", "TraceCost", "TraceEvent", "Usage", "WarroomError", "load_drill",
    "load_drill_text", "load_drill_with_warnings", "run_checks", "score", "trace_cost", "validate_drill",
]


def __getattr__(name: str) -> Any:
    """The public name ``name`` from its submodule (imported on first use); AttributeError for any other name."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'warroom.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"warroom.core.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # the same names, eagerly, for type checkers and editors
    from warroom.core.actions import Action, ActionKind
    from warroom.core.check import CheckReport, run_checks
    from warroom.core.cost import TraceCost, trace_cost
    from warroom.core.errors import SettingsError, WarroomError
    from warroom.core.loader import DrillLoadError, Problem, load_drill, load_drill_text, load_drill_with_warnings
    from warroom.core.model import (
        AllClear,
        AnswerKey,
        Briefing,
        Damage,
        DamageEntry,
        Distractor,
        Drill,
        ExecutorMessage,
        ExecutorReport,
        Fault,
        FaultKind,
        LogEvent,
        Models,
        ModelSpec,
        PlannerCall,
        PlanStep,
        ReportedStatus,
        Role,
        ToolCall,
        ToolResult,
        TraceEvent,
        Usage,
    )
    from warroom.core.outcome import Outcome
    from warroom.core.replay import EscalationVerdict, Replay, ReplayError, StepState
    from warroom.core.scoring import Scorecard, ScoringError, score
    from warroom.core.settings import Settings
    from warroom.core.validation import Issue, validate_drill
