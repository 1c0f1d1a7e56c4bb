"""A projected drill's estimated difficulty (1 to 5): how hard its evidence is to see.

:func:`estimate` starts from the template's base (:data:`BASE`: a 429 inside a body is plain once read; an id one
digit off is easy to read past) and adds one for evidence deep in the result (a field path three or more levels
down), one for a large result (over :data:`LARGE` characters) and one more for a very large one (over
:data:`VERY_LARGE`), and takes one off when something the agent wrote later contradicts the result (the asked-for
id, the dollar sign beside euros, the item a write dropped): a second place to see the fault. The result is kept
between 1 and 5. docs/authoring.md ("Projection") gives the same rule.
"""

from __future__ import annotations

from warroom.core.projection._templates import Change

#: Each template's difficulty before the evidence's depth, the result's size and later contradictions count.
BASE = {
    "rate-limit-swallowed": 1,
    "timeout-as-empty": 2,
    "error-flag-ignored": 2,
    "partial-write": 2,
    "pagination-truncated": 3,
    "stale-data": 3,
    "unit-confusion": 3,
    "wrong-record": 3,
}
#: A result of more characters than this is large (one point harder); more than :data:`VERY_LARGE`, two.
LARGE = 1500
VERY_LARGE = 6000


def estimate(template: str, change: Change, size: int, later: str) -> int:
    """The estimated difficulty of the projection of ``template`` whose ``change`` made a result of ``size``
    characters, given what the agent wrote after it (``later``: its messages and reports)."""
    score = BASE.get(template, 3)
    score += change.depth >= 3
    score += (size > LARGE) + (size > VERY_LARGE)
    score -= any(cue and cue in later for cue in change.cues)
    return max(1, min(5, score))
