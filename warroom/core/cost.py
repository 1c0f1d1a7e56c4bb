"""Cost math for model calls.

A model call costs ``input_tokens * input_price + output_tokens * output_price``, prices in USD per million tokens
(DESIGN.md "Cost math", from the seed material on planner-executor loops).
"""

from __future__ import annotations

from warroom.core.model import ModelSpec, Usage

#: Tokens per unit of a "per million tokens" price.
PER_MILLION = 1_000_000


def call_cost(usage: Usage, model: ModelSpec) -> float:
    """USD cost of one model call: tokens (``usage``) times the model's USD-per-million-token prices."""
    return (
        usage.input_tokens * model.input_usd_per_mtok + usage.output_tokens * model.output_usd_per_mtok
    ) / PER_MILLION
