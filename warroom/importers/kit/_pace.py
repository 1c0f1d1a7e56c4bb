"""Pacing and prices: the estimates of what a trace does not record, shared by every importer. The drill clock
paced by reading time (:func:`reading_gap`), token counts from text length (:func:`estimate_tokens`,
:func:`model_usage`) and what a model call costs at a price (:func:`model_cost`). The numbers are documented in
docs/importing.md; change them there too."""

from __future__ import annotations

import math
from typing import Any

from warroom.importers.kit._rules import Price

#: Reading speed that paces the drill clock: an event's text is read at this many words per second.
WORDS_PER_SECOND = 4.0


#: Bounds on the drill-clock gap after an event, seconds: short status lines still take a moment, huge web pages
#: do not stall the drill.
MIN_EVENT_GAP = 2.0


MAX_EVENT_GAP = 30.0


#: Token estimate: characters per token.
CHARS_PER_TOKEN = 4


#: Input tokens of one model call are capped at this context window.
CONTEXT_WINDOW_TOKENS = 128_000


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
