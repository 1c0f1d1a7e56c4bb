"""The shared field types of the drill format: its version, the bounds of its numbers, the annotated types every
model shares (ids, drill seconds, token counts, prices), the strict base model every part derives from, and
:class:`MappingForm` (a field that may also be written as a mapping).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from warroom.core.text import ID_PATTERN

#: The newest drill format version this code reads (it reads every version from 1 up; see docs/authoring.md,
#: "Format version 2"). Bump it when the format changes.
SCHEMA_VERSION = 2

#: Required text (a title, an objective, a debrief...) must hold more than spaces and line breaks.
TEXT_PATTERN = r"\S"


#: Upper bounds of the format's numbers: far above any real drill, low enough that a typo (an extra run of digits)
#: is an error instead of a drill that costs $300,000,000,000,000,000,000.
#: Most tokens in one model call (input or output).
MAX_TOKENS_PER_CALL = 10_000_000
#: Highest price, USD per million tokens.
MAX_USD_PER_MTOK = 10_000
#: Lowest price but 0, USD per million tokens (a millionth of a dollar): a smaller one (``5e-320``) is a typo, and
#: would print as hundreds of digits.
MIN_USD_PER_MTOK = 1e-6
#: Latest drill time (trace and re-plan ``t``, the deadline), in seconds: about 11.6 days.
MAX_DRILL_SECONDS = 1_000_000
#: Longest tool call (``duration_ms``), in milliseconds: the same 1,000,000 s.
MAX_DURATION_MS = 1_000_000_000
#: Largest damage amount of one damage entry, in the drill's damage unit.
MAX_DAMAGE_AMOUNT = 1_000_000_000_000
#: Highest drill revision (``version``).
MAX_VERSION = 1_000_000_000

# Every number of the format is strict: a boolean (an unquoted YAML ``yes``/``no``/``on``/``off`` reads as
# true/false) or a quoted text is never taken as a number, as the JSON Schema says. Strict floats still take ints.
# Infinite and NaN numbers (``.inf``, ``.nan``) are rejected too.
Identifier = Annotated[str, Field(pattern=ID_PATTERN, min_length=1, max_length=80)]
Seconds = Annotated[
    float,
    Field(
        strict=True,
        allow_inf_nan=False,
        ge=0,
        le=MAX_DRILL_SECONDS,
        description=f"Seconds of drill time, counted from the start of the drill (0 to {MAX_DRILL_SECONDS:,}).",
    ),
]
Tokens = Annotated[
    int,
    Field(
        strict=True,
        ge=0,
        le=MAX_TOKENS_PER_CALL,
        description=f"A token count of one model call (a whole number, 0 to {MAX_TOKENS_PER_CALL:,}).",
    ),
]


def _usd_per_million(value: float) -> float:
    """A price: 0 or at least :data:`MIN_USD_PER_MTOK`, a negative zero (``-0.0``) read as 0."""
    if 0 < value < MIN_USD_PER_MTOK:
        raise PydanticCustomError(
            "price_too_small", "a price is 0 (a free model) or at least 0.000001 USD per million tokens; write 0 or "
            "the model's real price",
        )
    return value + 0.0  # -0.0 + 0.0 is 0.0: no negative zero in any figure or JSON made from it


UsdPerMillion = Annotated[
    float,
    Field(
        strict=True,
        allow_inf_nan=False,
        ge=0,
        le=MAX_USD_PER_MTOK,
        description=f"USD per million tokens: 0, or 0.000001 to {MAX_USD_PER_MTOK:,}.",
    ),
    AfterValidator(_usd_per_million),
]


class MappingForm:
    """``Annotated`` metadata of a field whose value may also be written as a mapping that a wrap validator reads
    as ``model`` (the deadline's ``{event: ID, after: S}``): the error walk of the loader then finds that model's
    keys."""

    def __init__(self, model: Any) -> None:
        self.model = model


class _Strict(BaseModel):
    """Base for every drill model: unknown keys are errors and models are immutable once loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)
