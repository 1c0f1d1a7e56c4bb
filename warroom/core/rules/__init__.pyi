# The API of warroom.core.rules (its __init__.py loads each name on first use, from the module named here).

from ._events import Issue
from ._format2 import attempt_of
from ._validation import MISSING_ANSWER_KEY, validate_data, validate_drill

__all__ = [
    "MISSING_ANSWER_KEY",
    "Issue",
    "attempt_of",
    "validate_data",
    "validate_drill",
]
