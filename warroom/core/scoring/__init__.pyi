# The API of warroom.core.scoring (its __init__.py loads each name on first use, from the module named here).
# keep: EDITIONS, Edition

from ._editions import (
    EDITIONS,
    SCORING_VERSION,
    SCORING_VERSIONS,
    Edition,
    check_rules,
    ids_by_position,
    newer_rules,
)
from ._outcome import escalation_verdict
from ._score import replay_actions, score, scorecard_of
from ._scorecard import MAX_TOTAL, Scorecard, ScoringError, current_scorecard_keys

__all__ = [
    "EDITIONS",
    "Edition",
    "MAX_TOTAL",
    "SCORING_VERSION",
    "SCORING_VERSIONS",
    "Scorecard",
    "ScoringError",
    "check_rules",
    "current_scorecard_keys",
    "escalation_verdict",
    "ids_by_position",
    "newer_rules",
    "replay_actions",
    "score",
    "scorecard_of",
]
