"""Pace: the estimates a record lacks, laid on the drill clock: reading time between events, token counts and
their cost, and the deadline (the numbers are in :mod:`.rules` and docs/importing.md)."""

from __future__ import annotations

import math
from typing import Any

from warroom.core.author import MIN_REACTION_WINDOW
from warroom.importers.who_and_when.rules import (
    CHARS_PER_TOKEN,
    CLOSING_EVENT_MIN_GAP,
    CONTEXT_WINDOW_TOKENS,
    DEADLINE_BEFORE_DAMAGE,
    DEADLINE_WINDOW,
    EVIDENCE_MIN_GAP,
    MAX_EVENT_GAP,
    MIN_EVENT_GAP,
    WORDS_PER_SECOND,
    Price,
    RecordError,
)

#: The id of the closing event added when a record stops at its mistake step.
CLOSING_EVENT_ID = "end"


def reading_gap(text: str) -> float:
    """Seconds of drill time after an event with this text: words / :data:`WORDS_PER_SECOND`, bounded to
    [:data:`MIN_EVENT_GAP`, :data:`MAX_EVENT_GAP`], rounded to a tenth of a second."""
    words = len(text.split())
    return round(min(MAX_EVENT_GAP, max(MIN_EVENT_GAP, words / WORDS_PER_SECOND)), 1)


def estimate_tokens(chars: int) -> int:
    """Tokens in ``chars`` characters of text: ``ceil(chars / CHARS_PER_TOKEN)``."""
    return math.ceil(max(0, chars) / CHARS_PER_TOKEN)


def model_usage(context_chars: int, output_text: str) -> dict[str, Any]:
    """The estimated ``usage`` of a model call that has read ``context_chars`` characters of history and wrote
    ``output_text``: input tokens capped at :data:`CONTEXT_WINDOW_TOKENS`, at least one output token."""
    return {
        "input_tokens": min(CONTEXT_WINDOW_TOKENS, estimate_tokens(context_chars)),
        "output_tokens": max(1, estimate_tokens(len(output_text))),
        "estimated": True,
    }


def model_cost(usage: dict[str, Any], price: Price) -> float:
    """USD of a call with this ``usage`` at ``price`` (USD per million input / output tokens)."""
    tokens_in, tokens_out = usage["input_tokens"], usage["output_tokens"]
    return float(tokens_in * price.input_usd_per_mtok + tokens_out * price.output_usd_per_mtok) / 1e6


def lay_out_clock(events: list[dict[str, Any]], texts: list[str], evidence_id: str) -> None:
    """Set each event's ``t`` (drill seconds) in place: each event waits for the reading time of the text before it
    (``texts`` is parallel to ``events``; an empty text waits :data:`MIN_EVENT_GAP`), the closing event at least
    :data:`CLOSING_EVENT_MIN_GAP`, the event after the evidence at least :data:`EVIDENCE_MIN_GAP`. A ``step`` of
    None is removed (an event outside every plan step)."""
    t = 0.0
    last_text = ""
    for k, ev in enumerate(events):
        if k > 0:
            gap = reading_gap(last_text) if texts[k - 1] else MIN_EVENT_GAP
            if ev["id"] == CLOSING_EVENT_ID:
                gap = max(gap, CLOSING_EVENT_MIN_GAP)
            if events[k - 1]["id"] == evidence_id:  # time to read the evidence before the deadline
                gap = max(gap, EVIDENCE_MIN_GAP)
            t = round(t + gap, 1)
        ev["t"] = t
        last_text = texts[k]
        if ev.get("step") is None:
            ev.pop("step", None)


def place_deadline(evidence_t: float, first_damage_t: float) -> float:
    """The deadline (drill seconds): :data:`DEADLINE_WINDOW` after the evidence, or :data:`DEADLINE_BEFORE_DAMAGE`
    before the first damage event if that is sooner, strictly before the damage (an escalation at the deadline
    comes after the events released by then). Raises RecordError when that leaves less than ``warroom check``'s
    reaction window after the evidence."""
    deadline = round(min(evidence_t + DEADLINE_WINDOW, first_damage_t - DEADLINE_BEFORE_DAMAGE), 1)
    if not (evidence_t + MIN_REACTION_WINDOW <= deadline < first_damage_t):  # pragma: no cover - EVIDENCE_MIN_GAP
        raise RecordError(
            f"cannot place a deadline at least {MIN_REACTION_WINDOW:g} s after the evidence and before the damage"
        )
    return deadline
