# The API of warroom.core.play (its __init__.py loads each name on first use, from the module named here).
# keep: citation_precision

from ._approvals import missing_approvals
from ._citations import (
    SUPPORTING,
    citation_precision,
    describe_citations,
    distractor_figures,
    is_specific,
    is_supported,
    judge_citations,
    misplaced_evidence,
)
from ._cost import NO_REPLAN_TOKENS, NO_REPLAN_USAGE, CostMeter, TraceCost, replan_usage_source, trace_cost
from ._draft import EscalationDraft, escalation_draft
from ._escalation import FALSE_ESCALATION_DELAY, EscalationResult, EscalationVerdict
from ._replay import ActionLimitReached, EndReason, Replay, ReplayError
from ._steps import StepState
from ._toolcalls import CallIndex, index_calls

__all__ = [
    "ActionLimitReached",
    "CallIndex",
    "CostMeter",
    "EndReason",
    "EscalationDraft",
    "EscalationResult",
    "EscalationVerdict",
    "FALSE_ESCALATION_DELAY",
    "NO_REPLAN_TOKENS",
    "NO_REPLAN_USAGE",
    "Replay",
    "ReplayError",
    "SUPPORTING",
    "StepState",
    "TraceCost",
    "citation_precision",
    "describe_citations",
    "distractor_figures",
    "escalation_draft",
    "index_calls",
    "is_specific",
    "is_supported",
    "judge_citations",
    "misplaced_evidence",
    "missing_approvals",
    "replan_usage_source",
    "trace_cost",
]
