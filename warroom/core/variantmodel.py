"""The seeded-variants section of the drill format (``variants``: docs/authoring.md, "Seeded variants"): what a
variant of a drill may change. :mod:`warroom.core.variants` applies it. Moved from :mod:`warroom.core.model`, which
re-exports every name."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from warroom.core.modelbase import TEXT_PATTERN, Identifier, _Strict

#: Most seconds a variant's timing jitter may move an event.
MAX_JITTER_SECONDS = 60


class NameVariant(_Strict):
    """A name (a person, a customer, a host) that each variant may replace in the trace and the answer key."""

    text: str = Field(
        min_length=1, pattern=TEXT_PATTERN,
        description="The name as written in the trace (matched as a whole word, case as written).",
    )
    choices: list[Annotated[str, Field(min_length=1, pattern=TEXT_PATTERN)]] = Field(
        min_length=1,
        description="Other names that may stand in its place; a variant shows `text` or one of these.",
    )


class AmountVariant(_Strict):
    """A number that each variant may replace, in text and in tool data, by one drawn between bounds."""

    text: str = Field(
        pattern=r"^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$",
        description=(
            "The number as written in the trace, e.g. '412', '1,742,906', '48.50'. A variant writes its number the "
            "same way (thousands separators, decimals)."
        ),
    )
    min: Annotated[float, Field(strict=True, allow_inf_nan=False)] = Field(description="Smallest number drawn.")
    max: Annotated[float, Field(strict=True, allow_inf_nan=False)] = Field(description="Largest number drawn.")


class Jitter(_Strict):
    """Timing jitter: each trace event moves by up to max_seconds either way, the trace's order kept."""

    max_seconds: Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_JITTER_SECONDS)] = Field(
        description=(
            f"Most seconds of drill time an event moves (more than 0, at most {MAX_JITTER_SECONDS}); at most the "
            "time between the earliest evidence and the deadline less 5 s, and less than the time from the "
            "deadline to the first damage."
        )
    )


class PhrasingVariant(_Strict):
    """Equivalent phrasings of one trace event (the evidence, say): each variant shows the event as written or
    with one of the choices' fields in place of its own."""

    event: Identifier = Field(description="The trace event that has other phrasings.")
    choices: list[dict[str, Any]] = Field(
        min_length=1,
        description=(
            "Each a mapping of the event's fields to write instead: `content` (planner_call, executor_message, "
            "executor_report, log), `output` and `status` (tool_result), `arguments` (tool_call)."
        ),
    )


class Variants(_Strict):
    """What a seeded variant of the drill may change (docs/authoring.md, "Seeded variants")."""

    names: list[NameVariant] = Field(default_factory=list, description="Names that may be replaced.")
    amounts: list[AmountVariant] = Field(default_factory=list, description="Numbers that may be replaced.")
    jitter: Jitter | None = Field(default=None, description="Timing jitter of the trace events.")
    shuffle: list[Annotated[list[Identifier], Field(min_length=2)]] = Field(
        default_factory=list,
        description=(
            "Groups of independent distractor events whose order may change: a variant deals the group's release "
            "times out among its events."
        ),
    )
    phrasings: list[PhrasingVariant] = Field(
        default_factory=list, description="Events with other, equivalent phrasings."
    )
