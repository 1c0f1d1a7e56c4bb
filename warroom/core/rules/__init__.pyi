# The API of warroom.core.rules (its __init__.py loads each name on first use, from the module named here).

from ._answerkey import MISSING_ANSWER_KEY
from ._issues import Issue
from ._twin import twin_warnings
from ._validate import validate_data, validate_drill

__all__ = [
    "Issue",
    "MISSING_ANSWER_KEY",
    "twin_warnings",
    "validate_data",
    "validate_drill",
]
